"""Table 1 and Figure 2 of Zhang, Jung & Tewari (2019): the table and figure ids, the data sets,
the four compared algorithms, and what each Snakemake job reads (config keys) and runs (code
modules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.job import FigureCode, JobKind, JobSpec, registry, stem, with_exts

TABLE_ID = "topk-table1"
# Config ``topk`` keys a training job reads (editing the others, e.g. Figure 2's k values,
# reruns no training job); jobs.booster_kwargs and jobs.train_run read them.
TRAINING_KEYS = (
    "n_learners", "rho", "n_swap", "gamma", "margin", "alpha_lr", "hedge_rate", "hedge_scale",
    "test_expert", "bmr_edge", "weak", "checkpoints", "window", "standardize", "shuffle",
    "loops", "loops_rule", "validation",
)  # fmt: skip
FIGURE_ID = "topk-fig2"
SOURCE = "Zhang, Jung & Tewari (2019)"
SOURCE_TABLE = "Zhang, Jung & Tewari (2019), section 4.1, Table 1"
SOURCE_FIGURE = "Zhang, Jung & Tewari (2019), section 4.2, Figure 2"
DATASETS = ("emotions", "scene", "yeast", "mediamill", "m_reduced")
LABELS = {
    "emotions": "Emotions",
    "scene": "Scene",
    "yeast": "Yeast",
    "mediamill": "Mediamill",
    "m_reduced": "M-reduced",
}
DERIVED = {"m_reduced": "mediamill"}  # derived data set -> the processed data set it draws on
RESULTS_DIR = "results/topk"  # splits/<data set>.{npz,json}, runs/<data set>/<algorithm>/...


@dataclass(frozen=True)
class Algorithm:
    """One column of Table 1."""

    key: str  # config key, wildcard, directory
    label: str  # Table 1's column name
    name: str  # the paper's algorithm name
    booster: str  # bbm or adaptive
    topk: bool  # top-k feedback (else full information)


ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm("topopt", "TopOpt", "TopkBBM", "bbm", True),
    Algorithm("topada", "TopAda", "TopkAdaptive", "adaptive", True),
    Algorithm("fullopt", "FullOpt", "OnlineBMR", "bbm", False),
    Algorithm("fullada", "FullAda", "Ada.OLMR", "adaptive", False),
)
BY_KEY = {a.key: a for a in ALGORITHMS}
COUNTERPARTS = (("topopt", "fullopt"), ("topada", "fullada"))  # top-k vs full information


@dataclass(frozen=True)
class SplitSpec(JobSpec):
    """A Table 1 data set's train/test rows (:func:`.jobs.make_split`): MULAN's published split
    (found through ``raw_provenance``), a stand-in's ``published`` proportions, or a derived data
    set's ``subsample`` of ``base_split`` drawn with a seed derived from ``seed``."""

    dataset: str
    npz: str
    meta: str
    raw_provenance: str | None
    published: tuple[int, int] | None  # MULAN's (train, test) rows
    base_split: str | None
    subsample: tuple[int, int] | None  # (train, test) rows of a derived data set
    seed: int  # the root seed (config seed)
    out: str
    record: str

    def check(self) -> None:
        self.one_of("dataset", DATASETS)


@dataclass(frozen=True)
class TrainSpec(JobSpec):
    """One booster, one seed (:func:`.jobs.train_run`): ``k`` is the top-k feedback (None:
    full information), ``params`` config ``topk``'s training keys (``loops``: the bound on the
    passes, ``loops_rule``: tuned on a ``validation`` share or all of them)."""

    dataset: str
    algorithm: str
    k: int | None
    seed_index: int
    npz: str
    meta: str
    split: str
    params: dict[str, Any]
    seed: int  # the root seed (config seed)
    out: str

    def check(self) -> None:
        self.one_of("dataset", DATASETS)
        self.one_of("algorithm", BY_KEY)
        if BY_KEY[self.algorithm].topk and self.k is None:
            raise BoostrankError(f"{BY_KEY[self.algorithm].name} needs k (top-k feedback)")
        self.at_least("k", 1)
        self.at_least("seed_index", 0)


@dataclass(frozen=True)
class Table1Spec(JobSpec):
    """Table 1 from the run records and split records (:func:`.make.make_table1`)."""

    runs: tuple[str, ...]
    splits: tuple[str, ...]
    claims: str
    csv: str
    summary: str
    samples: str | None  # each seed's test loss (the claims' intervals)
    table_prefix: str
    guards: str | None = None  # the guard table (results/guards/topk-table1.csv)


@dataclass(frozen=True)
class Figure2Spec(JobSpec):
    """Figure 2 from TopkBBM's run records (:func:`.make.make_figure2`)."""

    runs: tuple[str, ...]
    tolerance: float  # converged: the running mean within this of the final level
    smooth: int  # windows in that running mean
    csv: str
    summary: str
    figure_prefix: str
    guards: str | None = None  # the guard table (results/guards/topk-fig2.csv)

    def check(self) -> None:
        self.at_least("tolerance", 0.0)
        self.at_least("smooth", 1)


SPLIT = JobKind(
    "topk.split",
    ("seed", "topk.published_splits", "topk.m_reduced"),
    ("experiments.topk.jobs", "data.formats", "io"),
    SplitSpec,
    "boostrank.experiments.topk.jobs:make_split",
)
TRAIN = JobKind(
    "topk.train",
    ("seed", *(f"topk.{k}" for k in TRAINING_KEYS)),
    (
        "experiments.topk.jobs",
        "online.topk_boosting",
        "online.topk_feedback",
        "online.multilabel_weak",
        "online.rank_loss",
        "guards",
        "io",
    ),
    TrainSpec,
    "boostrank.experiments.topk.jobs:train_run",
)
TABLE1 = JobKind(
    "topk.table1",
    ("claims", "topk.datasets", "topk.seeds", "topk.seeds_per_dataset", "topk.k"),
    ("experiments.topk.make", "report.claims", "report.render", "guards", "io"),
    Table1Spec,
    "boostrank.experiments.topk.make:make_table1",
)
FIGURE2 = JobKind(
    "topk.fig2",
    ("topk.fig2.dataset", "topk.fig2.k", "topk.fig2.converge_tolerance", "topk.fig2.smooth"),
    ("experiments.topk.make", "plots", "guards", "io"),
    Figure2Spec,
    "boostrank.experiments.topk.make:make_figure2",
)
JOBS = registry(SPLIT, TRAIN, TABLE1, FIGURE2)

# Table 1 and Figure 2: the rules of their jobs, the functions they run, their outputs.
FIGURES = {
    TABLE_ID: FigureCode(
        rules=("topk_split", "topk_train", "topk_table1"),
        entries=(SPLIT.entry, TRAIN.entry, TABLE1.entry),
        outputs={
            "csv": f"results/{TABLE_ID}.csv",
            "summary": f"results/{TABLE_ID}_summary.csv",
            "guards": f"results/guards/{TABLE_ID}.csv",
            "table": with_exts(f"figures/tables/{TABLE_ID}", ".csv", ".md", ".tex"),
            "samples": f"results/{TABLE_ID}.samples.csv",
        },
        unlisted=("samples",),
    ),
    FIGURE_ID: FigureCode(
        rules=("topk_split", "topk_train", "topk_train_fig2", "topk_fig2"),
        entries=(SPLIT.entry, TRAIN.entry, FIGURE2.entry),
        outputs={
            "figure": with_exts(f"figures/{FIGURE_ID}", ".png", ".pdf"),
            "csv": f"results/{FIGURE_ID}.csv",
            "summary": f"results/{FIGURE_ID}_summary.csv",
            "guards": f"results/guards/{FIGURE_ID}.csv",
        },
    ),
}


def get_algorithm(key: str) -> Algorithm:
    """The column of ``key`` (topopt, topada, fullopt, fullada)."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown algorithm '{key}'; known: {sorted(BY_KEY)}") from None


def source_dataset(dataset: str) -> str:
    """The processed data set a Table 1 row reads (M-reduced reads Mediamill)."""
    return DERIVED.get(dataset, dataset)


def split_file(dataset: str, suffix: str) -> str:
    """A data set's split (``suffix`` .npz: its rows) or its record (.json)."""
    return f"{RESULTS_DIR}/splits/{dataset}{suffix}"


def base_split(dataset: str) -> list[str]:
    """The split a derived data set subsamples (M-reduced: Mediamill's), else none."""
    return [split_file(DERIVED[dataset], ".npz")] if dataset in DERIVED else []


def run_record(dataset: str, algorithm: str, k: int | str, seed: int | str) -> str:
    """A training run's record (``k`` "full" for full information)."""
    return f"{RESULTS_DIR}/runs/{dataset}/{algorithm}/k{k}/seed{seed}.json"


def seeds(config: dict[str, Any], dataset: str) -> range:
    """The seed indices of ``dataset``'s runs (config ``topk.seeds_per_dataset``, else
    ``topk.seeds``)."""
    section = config["topk"]
    return range(section["seeds_per_dataset"].get(dataset, section["seeds"]))


def table_k(config: dict[str, Any], algorithm: str) -> str:
    """The k of ``algorithm``'s Table 1 runs: config ``topk.k`` with top-k feedback, else
    "full"."""
    return str(config["topk"]["k"]) if get_algorithm(algorithm).topk else "full"


def table1_runs(config: dict[str, Any]) -> list[str]:
    """Every run record Table 1 reads: each data set, algorithm and seed."""
    return [
        run_record(d, a.key, table_k(config, a.key), s)
        for d in config["topk"]["datasets"]
        for a in ALGORITHMS
        for s in seeds(config, d)
    ]


def table1_splits(config: dict[str, Any]) -> list[str]:
    """The split records Table 1 reads (each data set's rows)."""
    return [split_file(d, ".json") for d in config["topk"]["datasets"]]


def figure2_runs(config: dict[str, Any]) -> list[str]:
    """The TopkBBM (topopt) run records Figure 2 reads: each of its k and seeds."""
    fig2 = config["topk"]["fig2"]
    d = fig2["dataset"]
    return [run_record(d, "topopt", k, s) for k in fig2["k"] for s in seeds(config, d)]


def figure2_extra_k(config: dict[str, Any]) -> list[int]:
    """Figure 2's k values Table 1 does not run (its runs at ``topk.k`` are Table 1's)."""
    section = config["topk"]
    return [k for k in section["fig2"]["k"] if k != section["k"]]


def split_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> SplitSpec:
    """The split of ``wildcards.dataset`` (rule topk_split)."""
    section, dataset = config["topk"], wildcards.dataset
    source = source_dataset(dataset)
    derived = dataset in DERIVED
    return SplitSpec(
        dataset=dataset,
        npz=input.npz,
        meta=input.meta,
        raw_provenance=input.raw,
        published=section["published_splits"].get(source) or None,
        base_split=input.base[0] if derived else None,  # base: a list (base_split)
        subsample=(section[dataset]["train"], section[dataset]["test"]) if derived else None,
        seed=config["seed"],
        out=output.npz,
        record=output.record,
    )


def train_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> TrainSpec:
    """One training run (rules topk_train, topk_train_fig2): the training keys of config
    ``topk`` (editing e.g. Figure 2's k values reruns none)."""
    section, dataset = config["topk"], wildcards.dataset
    params = {key: section[key] for key in TRAINING_KEYS}
    return TrainSpec(
        dataset=dataset,
        algorithm=wildcards.algorithm,
        k=None if wildcards.k == "full" else int(wildcards.k),
        seed_index=int(wildcards.seed),
        npz=input.npz,
        meta=input.meta,
        split=input.split,
        params=params,
        seed=config["seed"],
        out=output.record,
    )


def table1_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> Table1Spec:
    """Table 1 (rule topk_table1)."""
    return Table1Spec(
        runs=tuple(input.runs),
        splits=tuple(input.splits),
        claims=input.claims,
        csv=output.csv,
        summary=output.summary,
        samples=output.samples,
        table_prefix=stem(output.table[0]),
        guards=output.guards,
    )


def figure2_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> Figure2Spec:
    """Figure 2 (rule topk_fig2)."""
    fig2 = config["topk"]["fig2"]
    return Figure2Spec(
        runs=tuple(input.runs),
        tolerance=fig2["converge_tolerance"],
        smooth=fig2["smooth"],
        csv=output.csv,
        summary=output.summary,
        figure_prefix=stem(output.figure[0]),
        guards=output.guards,
    )


__all__ = [
    "ALGORITHMS",
    "BY_KEY",
    "COUNTERPARTS",
    "DATASETS",
    "DERIVED",
    "FIGURE2",
    "FIGURES",
    "FIGURE_ID",
    "JOBS",
    "LABELS",
    "RESULTS_DIR",
    "SPLIT",
    "TABLE1",
    "TABLE_ID",
    "TRAIN",
    "TRAINING_KEYS",
    "Algorithm",
    "Figure2Spec",
    "SplitSpec",
    "Table1Spec",
    "TrainSpec",
    "base_split",
    "figure2_extra_k",
    "figure2_runs",
    "figure2_spec",
    "get_algorithm",
    "run_record",
    "seeds",
    "source_dataset",
    "split_file",
    "split_spec",
    "table1_runs",
    "table1_spec",
    "table1_splits",
    "table_k",
    "train_spec",
]
