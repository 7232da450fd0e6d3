"""Zheng et al. (2007), NIPS, section 4: the constants every part reads -- the ids, the six
models of section 4, the precision cut-offs, Table 1's columns, and each Snakemake job's
command, config keys and code roots."""

from __future__ import annotations

from dataclasses import dataclass

from boostrank.errors import BoostrankError
from boostrank.experiments.common import Job

TABLE_ID = "qbrank-table1"
FIGURE_ID = "qbrank-fig1"
SOURCE = "Zheng et al. (2007), NIPS, section 4"
PERCENTS = tuple(range(10, 101, 10))
# How a tie h(x) = h(y) counts in precision at K%: its credit, and the words the caption uses.
TIES = {"half": 0.5, "wrong": 0.0, "right": 1.0}
TIE_RULES = {
    "half": "ties count half",
    "wrong": "ties count as wrongly ordered",
    "right": "ties count as rightly ordered",
}


@dataclass(frozen=True)
class Model:
    """One of the six experiments of section 4."""

    key: str
    label: str  # the paper's legend
    algorithm: str  # gbt | qbrank | ranksvm
    pairs_from: str  # "" or the labelled set whose pairs train it (L2)
    labels_from: tuple[str, ...]  # labelled sets used as labels


MODELS: tuple[Model, ...] = (
    Model("gbt_l1", "GBT using L1", "gbt", "", ("L1",)),
    Model("gbt_l2", "GBT using L2", "gbt", "", ("L2",)),
    Model("gbt_l1l2", "GBT using L1+L2", "gbt", "", ("L1", "L2")),
    Model("qbrank_p2", "QBRank using P2", "qbrank", "L2", ()),
    Model("qbrank_p2l1", "QBRank using P2+L1", "qbrank", "L2", ("L1",)),
    Model("ranksvm_p2", "RankSVM using P2", "ranksvm", "L2", ()),
)
BY_KEY = {m.key: m for m in MODELS}
PART_CODE = {"L1": 1, "L2": 2, "L3": 3}
TABLE_MODELS = ("qbrank_p2", "gbt_l2", "ranksvm_p2")  # Table 1's columns, in its order


def get_model(key: str) -> Model:
    """The model row of ``key``."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown QBRank model '{key}'; known: {sorted(BY_KEY)}") from None


# --------------------------------------------------------------------------- jobs


# One job per (data set, split, model); its protocol (these keys) goes to it as JSON, so
# editing one of them reruns the training jobs.
TRAIN = Job(
    "qbrank-train",
    ("l2_fraction", "stages", "dcg_k", "ties", "trees", "qbrank", "ranksvm"),
    (
        "experiments.qbrank.jobs",
        "ranking.gbt",
        "ranking.qbrank",
        "ranking.ranksvm",
        "ranking.pairs",
        "ranking.validation",
        "metrics.ranking",
        "errors",
        "io",
    ),
)
FIGURE = Job(
    "qbrank-figure",
    ("table_trees", "trees", "ties"),
    ("experiments.qbrank.figure", "plots", "report.render", "io"),
)


__all__ = [
    "BY_KEY",
    "FIGURE",
    "FIGURE_ID",
    "MODELS",
    "PART_CODE",
    "PERCENTS",
    "TABLE_ID",
    "TABLE_MODELS",
    "TIES",
    "TIE_RULES",
    "TRAIN",
    "Job",
    "Model",
    "get_model",
]
