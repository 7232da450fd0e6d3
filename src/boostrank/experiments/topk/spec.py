"""Table 1 and Figure 2 of Zhang, Jung & Tewari (2019): the table and figure ids, the data sets,
the four compared algorithms, and what each Snakemake job reads (config keys) and runs (code
modules)."""

from __future__ import annotations

from dataclasses import dataclass

from boostrank.errors import BoostrankError
from boostrank.experiments.common import Job

TABLE_ID = "topk-table1"
# Config ``topk`` keys a training job reads (editing the others, e.g. Figure 2's k values,
# reruns no training job); jobs.booster_kwargs and jobs.train_run read them.
TRAINING_KEYS = (
    "n_learners", "rho", "n_swap", "gamma", "margin", "alpha_lr", "hedge_rate", "hedge_scale",
    "test_expert", "weak", "checkpoints", "window", "standardize", "shuffle",
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


SPLIT = Job(
    "topk_split",
    ("seed", "topk.published_splits", "topk.m_reduced"),
    ("experiments.topk.jobs", "data.formats", "io"),
)
TRAIN = Job(
    "topk_train",
    ("seed", "topk.loops", "topk.loops_per_dataset", *(f"topk.{k}" for k in TRAINING_KEYS)),
    (
        "experiments.topk.jobs",
        "online.topk_boosting",
        "online.topk_feedback",
        "online.multilabel_weak",
        "online.rank_loss",
        "io",
    ),
)
TABLE1 = Job(
    "topk_table1",
    ("claims", "topk.datasets", "topk.seeds", "topk.seeds_per_dataset", "topk.k"),
    ("experiments.topk.figure", "report.claims", "report.render", "io"),
)
FIGURE2 = Job(
    "topk_fig2",
    ("topk.fig2.dataset", "topk.fig2.k", "topk.fig2.converge_tolerance", "topk.fig2.smooth"),
    ("experiments.topk.figure", "plots", "io"),
)


def get_algorithm(key: str) -> Algorithm:
    """The column of ``key`` (topopt, topada, fullopt, fullada)."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown algorithm '{key}'; known: {sorted(BY_KEY)}") from None


def source_dataset(dataset: str) -> str:
    """The processed data set a Table 1 row reads (M-reduced reads Mediamill)."""
    return DERIVED.get(dataset, dataset)


__all__ = [
    "ALGORITHMS",
    "BY_KEY",
    "COUNTERPARTS",
    "DATASETS",
    "DERIVED",
    "FIGURE2",
    "FIGURE_ID",
    "LABELS",
    "SPLIT",
    "TABLE1",
    "TABLE_ID",
    "TRAIN",
    "TRAINING_KEYS",
    "Algorithm",
    "Job",
    "get_algorithm",
    "source_dataset",
]
