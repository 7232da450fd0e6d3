"""Figure 3.1 of Valizadegan (2010), chapter 3: the constants every part reads -- the ids, the
data sets, the algorithm table (name, import path, whether the validation part is passed),
and each Snakemake job's command, config keys and code roots.

Nothing here imports an algorithm: each class is imported only in the job that trains it
(:func:`boostrank.experiments.chapter3.jobs.load_class`), and the workflow reads which modules
a training job runs with :func:`code_modules`, from the sources.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boostrank.errors import BoostrankError
from boostrank.experiments.common import Job

FIGURE_ID = "thesis-fig3_1"
SOURCE = "Valizadegan (2010), section 3.4.2, Figure 3.1"
DATASETS = ("ohsumed", "td2003", "td2004", "hp2003", "hp2004", "np2003", "np2004")
TABLE_KS = (1, 3, 5, 10)
TIE_BREAKS = ("random", "file_order")
# The baseline values the comparative claims rank NDCG_Boost among (chapter3.baselines_compared).
BASELINES_COMPARED = ("published", "retrained")
RANKING_PACKAGE = "boostrank.ranking"


@dataclass(frozen=True)
class Algorithm:
    """One row of the algorithm table: how Figure 3.1 names, imports and trains a ranker."""

    key: str  # config key, Snakemake wildcard and directory name
    label: str  # the dissertation's name, the ``algorithm`` column of every output
    module: str  # module under boostrank.ranking
    cls: str  # class name in it
    validation: bool  # pass the fold's validation part to fit()
    reference: bool = False  # not in the dissertation: drawn dashed, left out of the ranks
    letor_name: str = ""  # the baseline's name in LETOR 3.0's published table (letor3_baselines)
    # Where training draws random numbers: "always" (NDCG_Boost's weighted sampling),
    # "pair_sample" (only when max_pairs_per_query subsamples the pairs) or "never"
    # (deterministic; random_state is accepted for a uniform API). An unseeded ranker keeps its
    # class's random_state: RankSVM on every pair then solves with a fixed coordinate order.
    randomness: str = "never"

    @property
    def import_path(self) -> str:
        """``boostrank.ranking.<module>:<Class>``."""
        return f"{RANKING_PACKAGE}.{self.module}:{self.cls}"


# name -> import path and whether fit() gets the validation part (section 3.4.1: LETOR's
# baselines choose their parameters on it, NDCG_Boost does not); LambdaMART is the reference.
ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm(
        "ndcg_boost", "NDCG_Boost", "ndcg_boost", "NDCGBoost", validation=False, randomness="always"
    ),
    Algorithm(
        "adarank_ndcg",
        "AdaRank-NDCG",
        "adarank",
        "AdaRank",
        True,
        letor_name="AdaRank-NDCG",
    ),
    Algorithm(
        "regression",
        "Regression",
        "linear",
        "LinearRanker",
        False,
        letor_name="Regression",
    ),
    Algorithm(
        "ranksvm",
        "RankSVM",
        "ranksvm",
        "RankSVM",
        True,
        letor_name="RankSVM",
        randomness="pair_sample",
    ),
    Algorithm(
        "frank", "FRank", "frank", "FRank", True, letor_name="FRank", randomness="pair_sample"
    ),
    Algorithm("listnet", "ListNet", "listnet", "ListNet", True, letor_name="ListNet"),
    Algorithm("svm_map", "SVM_MAP", "svm_map", "SVMMAP", True, letor_name="SVMMAP"),
    Algorithm("lambdamart", "LambdaMART", "lambdamart", "LambdaMART", True, reference=True),
)
BY_KEY = {a.key: a for a in ALGORITHMS}


def seeded(algorithm: Algorithm, params: dict) -> bool:
    """Whether ``algorithm`` trained with ``params`` draws random numbers: then each replicate
    is its own training job with its own seed; else one run, which takes no seed, serves every
    replicate (config ``chapter3.replicates``)."""
    if algorithm.randomness == "pair_sample":  # a RankSVM kernel map draws its own too
        return any(params.get(k) is not None for k in ("max_pairs_per_query", "kernel_map"))
    return algorithm.randomness == "always"


def get_algorithm(key: str) -> Algorithm:
    """The table row of ``key`` (a config key such as ``ndcg_boost``)."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown algorithm '{key}'; known: {sorted(BY_KEY)}") from None


def module_file(algorithm: Algorithm, src: Path | str | None = None) -> Path:
    """The source file of an algorithm's module (whether or not it exists yet)."""
    if src is None:
        src = Path(__file__).resolve().parents[2]  # src/boostrank
    return Path(src) / "ranking" / f"{algorithm.module}.py"


def available(src: Path | str | None = None) -> list[Algorithm]:
    """The algorithms whose module exists (checked without importing it)."""
    return [a for a in ALGORITHMS if module_file(a, src).is_file()]


def code_modules(algorithm: Algorithm, src: Path | str | None = None) -> list[str]:
    """The package modules an algorithm's module imports, transitively: the Snakemake inputs
    of its training jobs (:func:`boostrank.workflow.code_deps.imported_modules`)."""
    from boostrank.workflow.code_deps import imported_modules

    return imported_modules(f"ranking.{algorithm.module}", src=src)


# --------------------------------------------------------------------------- jobs


# One job per (data set, algorithm, fold); its code also lists the algorithm's modules
# (code_modules), so editing one ranker reruns only its jobs.
TRAIN = Job(
    "chapter3-train",
    ("algorithms",),
    ("experiments.chapter3.jobs", "metrics.trec", "metrics.ranking", "data.folds", "io"),
)
QRELS = Job(
    "chapter3-qrels",
    ("folds",),
    ("experiments.chapter3.jobs", "metrics.trec", "data.folds", "io"),
)
EVALUATE = Job(
    "chapter3-evaluate",
    ("folds", "k_max", "ndcg_formula", "replicates"),
    ("experiments.chapter3.jobs", "metrics.trec", "metrics.ranking", "io"),
)
FIGURE = Job(
    "chapter3-figure",
    ("best_tolerance", "tie_break", "baselines_compared"),
    ("experiments.chapter3.figure", "plots", "report.claims", "report.render"),
)


__all__ = [
    "ALGORITHMS",
    "BASELINES_COMPARED",
    "BY_KEY",
    "DATASETS",
    "EVALUATE",
    "FIGURE",
    "FIGURE_ID",
    "QRELS",
    "TABLE_KS",
    "TIE_BREAKS",
    "TRAIN",
    "Algorithm",
    "Job",
    "available",
    "code_modules",
    "get_algorithm",
    "module_file",
    "seeded",
]
