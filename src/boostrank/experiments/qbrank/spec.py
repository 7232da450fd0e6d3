"""Zheng et al. (2007), NIPS, section 4: the constants every part reads -- the ids, the six
models of section 4, the precision cut-offs, Table 1's columns, and each Snakemake job's
parameters, command, config keys and code roots."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.job import FigureCode, JobKind, JobSpec, registry, stem, with_exts

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
RUNS = "results/qbrank"  # the training jobs' files: <data set>/split<n>/<model>.<suffix>


def get_model(key: str) -> Model:
    """The model row of ``key``."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown QBRank model '{key}'; known: {sorted(BY_KEY)}") from None


# --------------------------------------------------------------------------- jobs


@dataclass(frozen=True)
class TrainSpec(JobSpec):
    """One model on one random L1/L2/L3 split (:func:`.jobs.train_model`); ``params`` is the
    protocol (config ``qbrank``'s keys of :data:`TRAIN`)."""

    dataset: str
    model: str
    split: int
    npz: str
    meta: str
    params: dict[str, Any]
    seed: int  # the root seed (config seed)
    out: str
    record: str
    queries: str | None  # each L3 query's DCG after each tree count

    def check(self) -> None:
        self.one_of("model", BY_KEY)
        self.at_least("split", 1)


@dataclass(frozen=True)
class FigureSpec(JobSpec):
    """Table 1, Figure 1 and their CSVs from the training jobs (:func:`.figure.make_outputs`);
    ``trees`` and ``ties`` are for the caption."""

    inputs: tuple[str, ...]
    queries: tuple[str, ...]  # the jobs' per-query DCG files
    table_trees: int
    convergence_trees: int  # Figure 1's convergence: the change over the last this many trees
    trees: dict[str, Any]
    ties: str
    table_csv: str
    table_summary: str
    figure_csv: str
    figure_summary: str
    figure_samples: str | None  # Figure 1's samples (each query's DCG)
    table_prefix: str
    figure_prefix: str

    def check(self) -> None:
        self.at_least("table_trees", 1)
        self.at_least("convergence_trees", 1)
        self.one_of("ties", TIES)


# One job per (data set, split, model); its protocol (these keys) goes to it in its spec, so
# editing one of them reruns the training jobs.
TRAIN = JobKind(
    "qbrank.train",
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
    TrainSpec,
    "boostrank.experiments.qbrank.jobs:train_model",
)
FIGURE = JobKind(
    "qbrank.figure",
    ("table_trees", "convergence_trees", "trees", "ties"),
    ("experiments.qbrank.make", "plots", "report.render", "io"),
    FigureSpec,
    "boostrank.experiments.qbrank.make:make_outputs",
)
JOBS = registry(TRAIN, FIGURE)

# Table 1 and Figure 1: the rules of their jobs, the functions they run (one figure job writes
# both, as rule qbrank_figure's outputs named here).
FIGURES = {
    TABLE_ID: FigureCode(
        rules=("qbrank_train", "qbrank_figure"),
        entries=(TRAIN.entry, FIGURE.entry, "boostrank.experiments.qbrank.figure:write_table"),
        outputs={
            "table": with_exts(f"figures/tables/{TABLE_ID}", ".csv", ".md", ".tex"),
            "table_csv": f"results/{TABLE_ID}.csv",
            "table_summary": f"results/{TABLE_ID}_summary.csv",
        },
    ),
    FIGURE_ID: FigureCode(
        rules=("qbrank_train", "qbrank_figure"),
        entries=(TRAIN.entry, FIGURE.entry, "boostrank.experiments.qbrank.figure:draw_figure"),
        outputs={
            "figure": with_exts(f"figures/{FIGURE_ID}", ".png", ".pdf"),
            "figure_csv": f"results/{FIGURE_ID}.csv",
            "figure_summary": f"results/{FIGURE_ID}_summary.csv",
            "figure_samples": f"results/{FIGURE_ID}.samples.csv",
        },
        unlisted=("figure_samples",),
    ),
}


def train_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> TrainSpec:
    """One training job (rule qbrank_train)."""
    section = config["qbrank"]
    return TrainSpec(
        dataset=wildcards.dataset,
        model=wildcards.model,
        split=int(wildcards.split),
        npz=input.npz,
        meta=input.meta,
        params={key: section[key] for key in TRAIN.config},
        seed=config["seed"],
        out=output.csv,
        record=output.record,
        queries=output.queries,
    )


def figure_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> FigureSpec:
    """Table 1 and Figure 1 (rule qbrank_figure)."""
    section = config["qbrank"]
    return FigureSpec(
        inputs=tuple(input.runs),
        queries=tuple(input.queries),
        table_trees=section["table_trees"],
        convergence_trees=section["convergence_trees"],
        trees=section["trees"],
        ties=section["ties"],
        table_csv=output.table_csv,
        table_summary=output.table_summary,
        figure_csv=output.figure_csv,
        figure_summary=output.figure_summary,
        figure_samples=output.figure_samples,
        table_prefix=stem(output.table[0]),
        figure_prefix=stem(output.figure[0]),
    )


def run_file(dataset: str, split: int | str, model: str, suffix: str) -> str:
    """A training job's file: ``suffix`` .csv (DCG by trees), .json (its record) or
    .queries.csv (each L3 query's DCG)."""
    return f"{RUNS}/{dataset}/split{split}/{model}{suffix}"


def run_files(
    config: dict[str, Any], suffix: str, replicates: Callable[[int, str], int]
) -> list[str]:
    """Every (data set, split, model) file with ``suffix`` the figure job reads: the splits
    are the family's replicates, ``replicates(qbrank.splits, data set)`` (the workflow's
    count: the configured one on real data, 1 on a synthetic stand-in)."""
    section = config["qbrank"]
    return [
        run_file(dataset, split, model.key, suffix)
        for dataset in section["datasets"]
        for split in range(1, replicates(section["splits"], dataset) + 1)
        for model in MODELS
    ]


__all__ = [
    "BY_KEY",
    "FIGURE",
    "FIGURES",
    "FIGURE_ID",
    "JOBS",
    "MODELS",
    "PART_CODE",
    "PERCENTS",
    "RUNS",
    "TABLE_ID",
    "TABLE_MODELS",
    "TIES",
    "TIE_RULES",
    "TRAIN",
    "FigureSpec",
    "Model",
    "TrainSpec",
    "figure_spec",
    "get_model",
    "run_file",
    "run_files",
    "train_spec",
]
