"""What chapters 5 and 6 run (Valizadegan 2010, sections 5.4 and 6.4): the methods, the data
sets, the figure ids, the config keys each job reads and the package modules each job runs
(the roots of its Snakemake ``code()`` inputs). Imports no other part of the work."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boostrank.experiments.job import (
    FigureCode,
    JobKind,
    JobSpec,
    check_choice,
    curve_outputs,
    registry,
    stem,
    with_exts,
)

SOURCE = "Valizadegan (2010), chapters 5 and 6"
# Table 1.1's data sets, in the order of the text of section 6.1.
DATASETS = ("protein", "pendigits", "isolet", "nursery", "optdigits", "letter", "mnist")
# The figures of learning curves (rule chapter5_figure); the eta sweep has its own.
CURVE_FIGURES = ("thesis-fig5_1", "thesis-fig5_2", "thesis-fig6_1", "thesis-fig6_2")
SWEEP_METHODS = ("exp_gradient", "banditron", "banditron_pos")  # Figures 5.1, 5.2 (gamma grid)
ADAPTIVE = ("ag0", "ag1", "ag2", "ag3")  # Figure 6.2
METHODS = (*SWEEP_METHODS, "perceptron", *ADAPTIVE, "banditron_best_worst")
RUNS = "results/chapter5_6"  # the run jobs' CSVs: <figure family>/<data set>/<method>.csv
LABELS = {
    "exp_gradient": "Exp. gradient",
    "banditron": "Banditron",
    "banditron_pos": "Banditron_Pos",
    "perceptron": "Perceptron",
    "ag0": "Banditron_ag0",
    "ag1": "Banditron_ag1",
    "ag2": "Banditron_ag2",
    "ag3": "Banditron_ag3",
    "banditron_best": "Banditron_Best",
    "banditron_worst": "Banditron_Worst",
}

# The importance weight each algorithm's own box prints (config chapter5.importance "printed"):
# Algorithms 7 and 10 divide by p_{y~}, Algorithm 9 (Eq. 5.14) by p_{y_hat}.
PRINTED_IMPORTANCE = {"exp_gradient": "p_hat"}
IMPORTANCE = ("printed", "p_tilde", "p_hat")


def importance_of(method: str, importance: str) -> str:
    """The importance weight ``method`` uses under the config's ``importance``: its printed
    one for ``printed``, else the one named."""
    if importance == "printed":
        return PRINTED_IMPORTANCE.get(method, "p_tilde")
    return importance


# Supplementary to Figures 5.1/5.2: the exponential gradient's step factor.
ETA_SWEEP_FIGURE = "thesis-supp5_eta"
INPUT_SCALES = ("linf", "raw")


# --------------------------------------------------------------------------- jobs
SCALINGS = ("none", "global", "row")


@dataclass(frozen=True)
class RunSpec(JobSpec):
    """``runs`` runs of one online learner on one data set (:func:`.jobs.run_method`): for
    each gamma of ``gammas`` (the sweep of Figure 5.2), the best and worst gamma of the
    Banditron ``sweep`` CSV (Figure 6.2's Banditron_Best/Worst), or once (Perceptron, ag0-3)."""

    figure: str  # the figure family the runs belong to
    dataset: str
    method: str
    npz: str
    meta: str
    runs: int
    seed: int  # the root seed (config seed)
    gammas: tuple[float, ...]
    sweep: str | None
    points: int  # checkpoints at which the cumulative error is recorded
    max_trials: int | None  # None: the whole data set per run
    scaling: str
    importance: str
    eta_factor: float  # the factor on Eq. 5.12's step
    lam1: float  # omega_lambda of section 6.4.1
    lam2: float
    out: str
    finals: str | None  # each run's final error (the claims' samples)

    def check(self) -> None:
        self.one_of("figure", CURVE_FIGURES)
        self.one_of("dataset", DATASETS)
        self.one_of("method", METHODS)
        self.one_of("scaling", SCALINGS)
        self.one_of("importance", IMPORTANCE)
        self.at_least("runs", 1)
        self.at_least("points", 1)
        self.at_least("max_trials", 1)


@dataclass(frozen=True)
class FigureSpec(JobSpec):
    """Figure 5.1, 5.2, 6.1 or 6.2 from its run CSVs (:func:`.make.make_figure`)."""

    figure: str
    inputs: tuple[str, ...]  # the run CSVs
    finals: tuple[str, ...]  # the runs' per-run final errors
    claims: str  # the claims registry (Figure 6.1's published best gammas)
    tolerance: float  # config chapter5.match_tolerance
    gap: float  # config chapter5.gap
    csv: str
    summary: str
    samples: str | None
    figure_prefix: str

    def check(self) -> None:
        self.one_of("figure", CURVE_FIGURES)
        self.at_least("tolerance", 0.0)
        self.at_least("gap", 0.0)


@dataclass(frozen=True)
class EtaSweepSpec(JobSpec):
    """The exponential gradient's step factor on one data set (:func:`.jobs.eta_sweep`)."""

    dataset: str
    npz: str
    meta: str
    factors: tuple[float, ...]
    input_scales: tuple[str, ...]
    gammas: tuple[float, ...]
    runs: int
    seed: int
    max_trials: int | None
    importance: str
    out: str

    def check(self) -> None:
        self.one_of("dataset", DATASETS)
        for scale in self.input_scales:
            check_choice("input_scales", scale, INPUT_SCALES)
        self.one_of("importance", IMPORTANCE)
        self.at_least("runs", 1)
        self.at_least("max_trials", 1)


@dataclass(frozen=True)
class EtaFigureSpec(JobSpec):
    """The eta sweep's figure and CSV (:func:`.make.eta_sweep_figure`)."""

    inputs: tuple[str, ...]
    csv: str
    figure_prefix: str


# One job per (figure family, data set, method) (rules chapter5_sweep, chapter5_perceptron,
# chapter6_adaptive, chapter6_best_worst); its code also lists the method's learner modules
# (code_modules), so editing one learner reruns only its jobs.
RUN = JobKind(
    "chapter5_6.run",
    (
        "gammas",
        "runs",
        "runs_adaptive",
        "checkpoints",
        "scaling",
        "importance",
        "eta_factor",
        "omega_lambda",
        "max_trials",
    ),
    ("experiments.chapter5_6.jobs", "online.streams", "io"),
    RunSpec,
    "boostrank.experiments.chapter5_6.jobs:run_method",
)
# The learner modules of each method's run job.
CODE = {
    "exp_gradient": ["online.exponential_gradient", "online.banditron"],
    "banditron": ["online.banditron"],
    "banditron_pos": ["online.banditron"],
    "perceptron": ["online.perceptron"],
    "banditron_best_worst": ["online.banditron"],
    **{r: ["online.banditron", "online.adaptive_exploration"] for r in ADAPTIVE},
}
# One job per figure (rule chapter5_figure); also reads the root config "claims" (Figure 6.1's
# published best gammas).
FIGURE = JobKind(
    "chapter5_6.figure",
    ("match_tolerance", "gap"),
    ("experiments.chapter5_6.make", "plots", "io"),
    FigureSpec,
    "boostrank.experiments.chapter5_6.make:make_figure",
)
# Supplementary: one job per data set of eta_sweep, then one figure.
ETA_SWEEP = JobKind(
    "chapter5_6.eta_sweep",
    ("eta_sweep", "gammas", "importance", "max_trials"),
    (
        "experiments.chapter5_6.jobs",
        "online.streams",
        "online.exponential_gradient",
        "online.banditron",
        "io",
    ),
    EtaSweepSpec,
    "boostrank.experiments.chapter5_6.jobs:eta_sweep",
)
ETA_FIGURE = JobKind(
    "chapter5_6.eta_figure",
    ("eta_sweep",),
    FIGURE.code,
    EtaFigureSpec,
    "boostrank.experiments.chapter5_6.make:eta_sweep_figure",
)
JOBS = registry(RUN, FIGURE, ETA_SWEEP, ETA_FIGURE)


def figure_outputs(figure: str) -> dict[str, str | tuple[str, ...]]:
    """The outputs of a curve figure's job (rule chapter5_figure; ``{figure}`` there)."""
    return curve_outputs(figure, guards=False)


# Figures 5.1, 5.2, 6.1, 6.2 and the eta sweep: the rules of their jobs, the functions they
# run (the drawing last), their outputs.
_DRAW = "boostrank.experiments.chapter5_6.figure:"
_MADE_BY = {  # curve figure -> its run rules, its drawing function
    "thesis-fig5_1": (("chapter5_sweep", "chapter5_perceptron"), "draw_over_trials"),
    "thesis-fig5_2": (("chapter5_sweep",), "draw_against_gamma"),
    "thesis-fig6_1": (("chapter5_sweep",), "draw_against_gamma"),
    "thesis-fig6_2": (
        ("chapter5_sweep", "chapter6_adaptive", "chapter6_best_worst"),
        "draw_over_trials",
    ),
}
FIGURES = {
    **{
        figure: FigureCode(
            rules=(*rules, "chapter5_figure"),
            entries=(RUN.entry, FIGURE.entry, _DRAW + draw),
            outputs=figure_outputs(figure),
            unlisted=("samples",),
        )
        for figure, (rules, draw) in _MADE_BY.items()
    },
    ETA_SWEEP_FIGURE: FigureCode(
        rules=("chapter5_eta_sweep", "chapter5_eta_figure"),
        entries=(ETA_SWEEP.entry, ETA_FIGURE.entry),
        outputs={
            "figure": with_exts(f"figures/{ETA_SWEEP_FIGURE}", ".png", ".pdf"),
            "csv": f"results/{ETA_SWEEP_FIGURE}.csv",
        },
    ),
}


def run_spec(
    config: dict[str, Any],
    wildcards: Any,
    input: Any,
    output: Any,
    *,
    figure: str,
    method: str | None = None,
) -> RunSpec:
    """A run job of ``figure``'s family (rules chapter5_sweep, chapter5_perceptron,
    chapter6_adaptive, chapter6_best_worst): ``method`` or the wildcard's; Figure 6.2's
    families run ``runs_adaptive`` times, the others ``runs``; only the sweep's methods read
    the gamma grid."""
    section = config["chapter5"]
    method = method or wildcards.method
    return RunSpec(
        figure=figure,
        dataset=wildcards.dataset,
        method=method,
        npz=input.npz,
        meta=input.meta,
        runs=section["runs_adaptive" if figure == "thesis-fig6_2" else "runs"],
        seed=config["seed"],
        gammas=section["gammas"] if method in SWEEP_METHODS else (),
        sweep=getattr(input, "sweep", None),
        points=section["checkpoints"],
        max_trials=section.get("max_trials") or None,
        scaling=section["scaling"],
        importance=section["importance"],
        eta_factor=section["eta_factor"],
        lam1=section["omega_lambda"][0],
        lam2=section["omega_lambda"][1],
        out=output.csv,
        finals=output.finals,
    )


def figure_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> FigureSpec:
    """The figure job of ``wildcards.figure`` (rule chapter5_figure)."""
    return FigureSpec(
        figure=wildcards.figure,
        inputs=tuple(input.runs),
        finals=tuple(input.finals),
        claims=input.claims,
        tolerance=config["chapter5"]["match_tolerance"],
        gap=config["chapter5"]["gap"],
        csv=output.csv,
        summary=output.summary,
        samples=output.samples,
        figure_prefix=stem(output.figure[0]),
    )


def eta_sweep_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> EtaSweepSpec:
    """The eta sweep on ``wildcards.dataset`` (rule chapter5_eta_sweep)."""
    section = config["chapter5"]
    return EtaSweepSpec(
        dataset=wildcards.dataset,
        npz=input.npz,
        meta=input.meta,
        factors=section["eta_sweep"]["factors"],
        input_scales=INPUT_SCALES,
        gammas=section["gammas"],
        runs=section["eta_sweep"]["runs"],
        seed=config["seed"],
        max_trials=section.get("max_trials") or None,
        importance=section["importance"],
        out=output.csv,
    )


def eta_figure_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> EtaFigureSpec:
    """The eta sweep's figure (rule chapter5_eta_figure)."""
    return EtaFigureSpec(
        inputs=tuple(input.runs), csv=output.csv, figure_prefix=stem(output.figure[0])
    )


def run_file(figure: str, dataset: str, method: str, suffix: str = ".csv") -> str:
    """A run job's CSV (``suffix`` .csv) or its runs' final errors (.finals.csv)."""
    return f"{RUNS}/{figure}/{dataset}/{method}{suffix}"


def figure_runs(config: dict[str, Any], figure: str, suffix: str = ".csv") -> list[str]:
    """The run files (:func:`run_file`) a figure reads: Figures 5.1, 5.2 and 6.1 read the
    gamma sweep ("extracted from Figure 5.2", section 6.1), Figure 5.1 also the Perceptron's
    runs; Figure 6.2 its adaptive methods and Banditron_Best/Worst."""
    datasets = config["chapter5"]["datasets"]

    def sweep(methods: tuple[str, ...]) -> list[str]:
        return [run_file("thesis-fig5_2", d, m, suffix) for d in datasets for m in methods]

    if figure == "thesis-fig5_2":
        return sweep(SWEEP_METHODS)
    if figure == "thesis-fig6_1":
        return sweep(("banditron",))
    if figure == "thesis-fig5_1":
        return sweep(SWEEP_METHODS) + [
            run_file("thesis-fig5_1", d, "perceptron", suffix) for d in datasets
        ]
    methods = (*ADAPTIVE, "banditron_best_worst")
    return [run_file("thesis-fig6_2", d, m, suffix) for d in datasets for m in methods]


def eta_run_file(dataset: str) -> str:
    """The eta sweep's CSV on ``dataset`` (rule chapter5_eta_sweep's output)."""
    return f"{RUNS}/{ETA_SWEEP_FIGURE}/{dataset}.csv"


def eta_runs(config: dict[str, Any]) -> list[str]:
    """The eta sweep's CSVs its figure reads: one per data set of ``chapter5.eta_sweep``."""
    return [eta_run_file(d) for d in config["chapter5"]["eta_sweep"]["datasets"]]


def code_modules(method: str) -> list[str]:
    """Package modules a run job of ``method`` uses."""
    return [*RUN.code, *CODE[method]]


__all__ = [
    "ADAPTIVE",
    "CODE",
    "CURVE_FIGURES",
    "DATASETS",
    "ETA_FIGURE",
    "ETA_SWEEP",
    "ETA_SWEEP_FIGURE",
    "FIGURE",
    "FIGURES",
    "IMPORTANCE",
    "INPUT_SCALES",
    "JOBS",
    "LABELS",
    "METHODS",
    "PRINTED_IMPORTANCE",
    "RUN",
    "RUNS",
    "SCALINGS",
    "SOURCE",
    "SWEEP_METHODS",
    "EtaFigureSpec",
    "EtaSweepSpec",
    "FigureSpec",
    "RunSpec",
    "code_modules",
    "eta_figure_spec",
    "eta_run_file",
    "eta_runs",
    "eta_sweep_spec",
    "figure_outputs",
    "figure_runs",
    "figure_spec",
    "importance_of",
    "run_file",
    "run_spec",
]
