"""Figures 2.1-2.3 (Valizadegan 2010, section 2.4): the figures, data sets and compared
methods, and what each Snakemake job reads (config keys) and runs (code modules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.job import FigureCode, JobKind, JobSpec, curve_outputs, registry, stem

SOURCE = "Valizadegan (2010), section 2.4"
SEED_KEY = "chapter2"  # the first label of every Chapter 2 seed (boostrank.seeds)
DATASETS = ("isolet", "mnist", "protein", "optdigits", "nursery", "letter", "pendigits")
DEFAULT_C = 1e4
DEFAULT_DEPTH = "2"
LABELLED_SAMPLES = ("random", "stratified")
RUNS = "results/chapter2"  # the run jobs' CSVs: <figure>/<data set>/<method>/repeats<a>-<b>.csv


@dataclass(frozen=True)
class Method:
    """One compared method: config key, the dissertation's name, estimator and options."""

    key: str
    label: str
    estimator: str  # tree | assemble | mcssb
    options: tuple[tuple[str, Any], ...] = ()


METHODS: tuple[Method, ...] = (
    Method("tree", "Tree", "tree"),
    Method("assemble", "ASSEMBLE", "assemble"),
    Method("mcssb", "MCSSB", "mcssb", (("similarity", "gaussian"),)),
    Method("mcssb_uniform", "MCSSB-Uniform", "mcssb", (("similarity", "uniform"),)),
    Method("mcssb_absolute", "MCSSB-Absolute", "mcssb", (("similarity", "absolute"),)),
)
BY_KEY = {m.key: m for m in METHODS}
LABEL = {m.key: m.label for m in METHODS}
CODE = {
    "tree": ["boosting.base"],
    "assemble": ["boosting.base", "boosting.assemble"],
    "mcssb": ["boosting.base", "boosting.mcssb"],
}

# The methods each figure runs (Figure 2.2 varies MCSSB's C only; Figure 2.3 the depth of
# Tree, ASSEMBLE and MCSSB).
FIGURE_METHODS: dict[str, tuple[str, ...]] = {
    "thesis-fig2_1": tuple(m.key for m in METHODS),
    "thesis-fig2_2": ("mcssb",),
    "thesis-fig2_3": ("tree", "assemble", "mcssb"),
}


@dataclass(frozen=True)
class RunSpec(JobSpec):
    """One method on one data set (section 2.4.1) for ``repeats`` repeats from
    ``first_repeat`` and every (labelled fraction %, C, depth) of the figure's grid:
    :func:`.jobs.run_job`."""

    figure: str
    dataset: str
    method: str
    npz: str
    meta: str
    fractions: tuple[float, ...]  # % of the training partition labelled
    C: tuple[float, ...]
    depths: tuple[str, ...]  # tree depths, or "full"
    first_repeat: int
    repeats: int  # how many, from first_repeat
    parts: int  # stratified partitions: one trains, the others test
    rows: int | None  # a stratified subset of this many rows (None: every row)
    params: dict[str, Any]  # the method's constructor arguments (config chapter2.methods)
    seed: int  # the root seed (config seed)
    labelled_sample: str
    out: str

    def check(self) -> None:
        self.one_of("figure", FIGURES)
        self.one_of("dataset", DATASETS)
        self.one_of("method", BY_KEY)
        self.one_of("labelled_sample", LABELLED_SAMPLES)
        for depth in self.depths:
            if depth != "full" and not (depth.isdigit() and int(depth) >= 1):
                raise BoostrankError(f"field 'depths': {depth!r} is not 'full' or a depth >= 1")
        self.at_least("first_repeat", 0)
        self.at_least("repeats", 1)
        self.at_least("parts", 2)
        self.at_least("rows", 1)


@dataclass(frozen=True)
class FigureSpec(JobSpec):
    """One figure from its run CSVs: results, summary (and its samples) and drawing
    (:func:`.make.make_figure`); ``fraction``, ``C`` and ``depth`` are the reference cell
    Figures 2.2 and 2.3 read from Figure 2.1."""

    figure: str
    runs: tuple[str, ...]
    fraction: float
    C: float
    depth: str
    seed: int  # seeds the bands' bootstrap
    csv: str
    summary: str
    figure_prefix: str
    guards: str  # the figure's guard table (boostrank.guards.path)

    def check(self) -> None:
        self.one_of("figure", FIGURES)


# One job per (figure, data set, method, block of config repeats_per_job repeats), looping over
# its repeats and the figure's settings: every seed derives from (data set, repeat[, method,
# setting]) alone, so the blocks' rows are the rows one job over all repeats wrote. Its code
# also lists the method's estimator modules (code_modules), so editing one estimator
# reruns only its jobs.
RUN = JobKind(
    "chapter2.run",
    (
        "fractions",
        "C_grid",
        "depth_grid",
        "reference",
        "methods",
        "repeats",
        "repeats_per_job",
        "parts",
        "rows",
        "labelled_sample",
    ),
    ("experiments.chapter2.jobs", "io"),
    RunSpec,
    "boostrank.experiments.chapter2.jobs:run_job",
)
# One job per figure: merges its runs (and, for Figures 2.2 and 2.3, Figure 2.1's reference
# runs) into the results CSV, the summary CSV and the figure.
FIGURE = JobKind(
    "chapter2.figure",
    ("reference",),
    ("experiments.chapter2.make",),
    FigureSpec,
    "boostrank.experiments.chapter2.make:make_figure",
)
JOBS = registry(RUN, FIGURE)


def figure_outputs(figure: str) -> dict[str, str | tuple[str, ...]]:
    """The outputs of a figure's job (rule chapter2_figure; ``{figure}`` there)."""
    return curve_outputs(figure, guards=True)


# Figures 2.1-2.3: the rules of their jobs, the functions they run, their outputs.
FIGURES = {
    figure: FigureCode(
        rules=("chapter2_run", "chapter2_figure"),
        entries=(RUN.entry, FIGURE.entry),
        outputs=figure_outputs(figure),
        unlisted=("samples",),
    )
    for figure in ("thesis-fig2_1", "thesis-fig2_2", "thesis-fig2_3")
}


def settings(section: dict[str, Any], figure: str) -> tuple[list[float], list[float], list[str]]:
    """(fractions, C values, depths) a figure's run jobs cover, from config ``chapter2``: the
    reference cell of Figures 2.2 and 2.3 comes from Figure 2.1, so they leave it out."""
    ref = section["reference"]
    ref_f, ref_c, ref_d = ref["fraction"], float(ref["C"]), str(ref["depth"])
    if figure == "thesis-fig2_1":
        return list(section["fractions"]), [ref_c], [ref_d]
    if figure == "thesis-fig2_2":
        return [ref_f], [float(c) for c in section["C_grid"] if float(c) != ref_c], [ref_d]
    return [ref_f], [ref_c], [str(d) for d in section["depth_grid"] if str(d) != ref_d]


def repeat_blocks(section: dict[str, Any]) -> list[str]:
    """The run jobs' blocks of repeats, ``"<first>-<last>"`` (config ``chapter2``: ``repeats``
    in blocks of ``repeats_per_job``; 10 in blocks of 4: 0-3, 4-7, 8-9)."""
    n, size = section["repeats"], section["repeats_per_job"]
    return [f"{a}-{min(a + size, n) - 1}" for a in range(0, n, size)]


def run_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> RunSpec:
    """The run job of (figure, data set, method, block of repeats) (rule chapter2_run)."""
    section, dataset, block = config["chapter2"], wildcards.dataset, wildcards.block
    if block not in repeat_blocks(section):
        raise BoostrankError(
            f"repeats {block} is not a block of config chapter2 (repeats, repeats_per_job): "
            f"{', '.join(repeat_blocks(section))}"
        )
    first, last = (int(r) for r in block.split("-"))
    fractions, cs, depths = settings(section, wildcards.figure)
    return RunSpec(
        figure=wildcards.figure,
        dataset=dataset,
        method=wildcards.method,
        npz=input.npz,
        meta=input.meta,
        fractions=tuple(fractions),
        C=tuple(cs),
        depths=tuple(depths),
        first_repeat=first,
        repeats=last - first + 1,
        parts=section["parts"],
        rows=(section.get("rows") or {}).get(dataset) or None,
        params=section["methods"][wildcards.method],
        seed=config["seed"],
        labelled_sample=section["labelled_sample"],
        out=output.csv,
    )


def figure_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> FigureSpec:
    """The figure job of ``wildcards.figure`` (rule chapter2_figure)."""
    ref = config["chapter2"]["reference"]
    return FigureSpec(
        figure=wildcards.figure,
        runs=tuple(input.runs),
        fraction=ref["fraction"],
        C=ref["C"],
        depth=str(ref["depth"]),
        seed=config["seed"],
        csv=output.csv,
        summary=output.summary,
        figure_prefix=stem(output.figure[0]),
        guards=output.guards,
    )


def run_file(figure: str, dataset: str, method: str, block: str) -> str:
    """The run CSV of (figure, data set, method, block of repeats) (rule chapter2_run's
    output)."""
    return f"{RUNS}/{figure}/{dataset}/{method}/repeats{block}.csv"


def figure_runs(config: dict[str, Any], figure: str) -> list[str]:
    """The run CSVs a figure reads, each (data set, method)'s blocks in repeat order: its own
    methods on every configured data set and, for Figures 2.2 and 2.3, Figure 2.1's runs at the
    reference cell (MCSSB and Tree for 2.2's C sweep and its Tree line; the figure's methods
    for 2.3's depths)."""
    datasets, blocks = config["chapter2"]["datasets"], repeat_blocks(config["chapter2"])

    def files(of: str, methods: tuple[str, ...]) -> list[str]:
        return [run_file(of, d, m, b) for d in datasets for m in methods for b in blocks]

    runs = files(figure, FIGURE_METHODS[figure])
    methods: tuple[str, ...] = ()
    if figure == "thesis-fig2_2":
        methods = ("mcssb", "tree")
    elif figure == "thesis-fig2_3":
        methods = FIGURE_METHODS[figure]
    return runs + files("thesis-fig2_1", methods)


def get_method(key: str) -> Method:
    """The table row of ``key``."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown method '{key}'; known: {sorted(BY_KEY)}") from None


def code_modules(key: str) -> list[str]:
    """Package modules a method's jobs run (Snakemake inputs)."""
    return [*RUN.code, *CODE[get_method(key).estimator]]


__all__ = [
    "BY_KEY",
    "DATASETS",
    "FIGURE",
    "FIGURES",
    "FIGURE_METHODS",
    "JOBS",
    "LABEL",
    "LABELLED_SAMPLES",
    "METHODS",
    "RUN",
    "RUNS",
    "FigureSpec",
    "Method",
    "RunSpec",
    "code_modules",
    "figure_outputs",
    "figure_runs",
    "figure_spec",
    "get_method",
    "repeat_blocks",
    "run_file",
    "run_spec",
    "settings",
]
