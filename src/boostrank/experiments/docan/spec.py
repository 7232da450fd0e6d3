"""Sengupta (2018), *Document Analysis -- Clustering, Classification and Ranking*: the figure and
table ids, the ranking tables' configurations, what the report prints as the *input* of its
ranking examples, and the jobs: each kind's parameter object (``boostrank job docan.<kind>``),
the function that builds it from the config, the wildcards and the job's files, the config keys
it reads and the code it runs.

The toy example of section "Working on a toy dataset" is typed in below (its feature matrix,
LambdaMART's ten printed trees and the printed linear-regression weights). The numbers it
publishes as *results* (Tables 2-8) are claims, in ``config/claims.yaml`` only. Nothing here is
a result of this pipeline.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.job import FigureCode, JobKind, JobSpec, registry, stem, with_exts

# --------------------------------------------------------------------------- Reuters-21578
DATASET = "reuters21578"
KNN_METRICS = {"fig6": "cosine", "fig7": "euclidean"}  # the k-NN figure -> its distance

# --------------------------------------------------------------------------- LETOR ranking
SPLITS = ("train", "validation", "test")
SOURCE = "Sengupta (2018), Document Analysis, section Results"
LETOR_TABLES = {
    "docan-table2": ("lambdamart", "Table 2: LambdaMART"),
    "docan-table3": ("ranknet", "Table 3: RankNet"),
    "docan-table4": ("linear", "Table 4: linear regression"),
    "docan-table5": ("nystroem", "Table 5: RankSVM on the Nystroem approximation"),
    "docan-table6": ("rff", "Table 6: RankSVM on random Fourier features"),
}
LETOR_DATASETS = ("mq2007", "mq2008")  # MQ2007, or MQ2008 as its substitute (both are inputs)
# Each table's config section (docan_ranking.<section>) and the estimator modules its fold jobs
# import lazily (the workflow adds them to the jobs' code inputs).
CONFIG_SECTION = {
    "docan-table2": "lambdamart",
    "docan-table3": "ranknet",
    "docan-table4": "linear",
    "docan-table5": "ranksvm",
    "docan-table6": "ranksvm",
}
ESTIMATOR_MODULES = {
    "docan-table2": ("ranking.lambdamart",),
    "docan-table3": ("ranking.ranknet", "ranking.pairs"),
    "docan-table4": ("ranking.linear",),
    "docan-table5": ("ranking.ranksvm", "ranking.pairs"),
    "docan-table6": ("ranking.ranksvm", "ranking.pairs"),
}
NDCG_DECIMALS = 6  # the CSVs stay identical across BLAS builds' last-bit differences

# --- The toy example ("Working on a toy dataset"): 4 queries x 5 documents. ---
# The five documents as printed ("Document or text"); features 2, 3 and 5 of the matrix below
# are derived from them (the report's preprocessing, :mod:`boostrank.preprocess.text`).
TOY_DOCUMENTS = (
    "This dog is my pet, Lucy. She eats pedigree. She is healthy for past 2 years. "
    "She is 2.5 years old. She is a german shephard.",
    "This cat is Daisy. She drinks milk. She hates fish. She roams around the house. "
    "She doesn't like to take a bath.",
    "This dog is David. He barks a lot. He is my best friend. He drops me to school. "
    "He eats a lot.",
    "This parrot is Sunny. He can mimic anyone. He loves to talk to people. He eats mostly "
    "grapes and nuts. He is not kept in a cage. Sunny is a free bird.",
    "This is my fish Goldy. She swims freely in the tank. She makes friends with all kinds of "
    "fishes. She is never shy of anyone.",
)
# Features: F1 words in the query, F2 words in the document, F3 row mean of TF, F4 row mean of
# DF, F5 row mean of TF-IDF, F6 Boolean retrieval; then the printed relevance label.
# Queries 1-3 train, query 4 tests. Rows exactly as the report's matrix prints them.
TOY_ROWS = [
    # qid, F1, F2, F3, F4, F5, F6, label
    (1, 2, 12, 0.2222, 1.331, 0.039, 4, 1),
    (1, 2, 13, 0.24074, 1.4262, 0.04157, 3, 0),
    (1, 2, 10, 0.185185, 1.01, 0.03684, 2, 1),
    (1, 2, 17, 0.314815, 2.5635, 0.040183, 3, 0),
    (1, 2, 12, 0.2222, 1.2699, 0.03683, 2, 0),
    (2, 1, 12, 0.2222, 1.331, 0.039, 0, 0),
    (2, 1, 13, 0.24074, 1.4262, 0.04157, 1, 1),
    (2, 1, 10, 0.185185, 1.01, 0.03684, 0, 0),
    (2, 1, 17, 0.314815, 2.5635, 0.040183, 0, 0),
    (2, 1, 12, 0.2222, 1.2699, 0.03683, 0, 0),
    (3, 2, 12, 0.2222, 1.331, 0.039, 2, 1),
    (3, 2, 13, 0.24074, 1.4262, 0.04157, 0, 0),
    (3, 2, 10, 0.185185, 1.01, 0.03684, 1, 1),
    (3, 2, 17, 0.314815, 2.5635, 0.040183, 0, 0),
    (3, 2, 12, 0.2222, 1.2699, 0.03683, 0, 0),
    (4, 1, 12, 0.2222, 1.331, 0.039, 2, 1),
    (4, 1, 13, 0.24074, 1.4262, 0.04157, 2, 1),
    (4, 1, 10, 0.185185, 1.01, 0.03684, 1, 0),
    (4, 1, 17, 0.314815, 2.5635, 0.040183, 1, 0),
    (4, 1, 12, 0.2222, 1.2699, 0.03683, 2, 1),
]
TOY_TEST_QUERY = 4

# LambdaMART's ten printed trees: (feature 1-based, threshold, left output, right output, weight).
TOY_TREES = [
    (6, 3.0, -0.4060202, 2.0, 0.1),
    (6, 3.0, -0.35845292, 1.7861544, 0.1),
    (6, 3.0, -0.28415188, 1.5218648, 0.1),
    (6, 3.0, -0.3184343, 1.6344081, 0.1),
    (6, 3.0, -0.2543091, 1.4356358, 0.1),
    (5, 0.04, -0.46357542, 1.3221567, 0.1),
    (5, 0.04, -0.77627546, 1.2945518, 0.1),
    (5, 0.04, -0.90781724, 1.4976496, 0.1),
    (5, 0.04, -0.67229265, 1.1416975, 0.1),
    (5, 0.04, -0.58660144, 1.0191938, 0.1),
]
# The seven printed linear-regression weights ("the additional weight is ... the bias").
TOY_LINEAR_WEIGHTS = (0.3, 0.3, 260.417, -14069.7, 0.0991, 102.5418, -2.51399)


# --------------------------------------------------------------------------- the jobs
# Where the Reuters-21578 corpus (ModApte, ten topics, TF-IDF) is built once for every corpus
# job, the modules its builder runs, and where the random forest's replicates go.
CORPUS = "data/interim/reuters_tfidf.npz"
CORPUS_META = "data/interim/reuters_tfidf.json"
CORPUS_CODE = (
    "preprocess.text_cli",
    "preprocess.reuters",
    "preprocess.reuters_corpus",
    "preprocess.text",
    "data.formats",
    "data.provenance",
)
FOREST_DIR = "results/docan/forest"
PLOTS = ("fig5", "fig6", "fig7")
COUNTINGS = ("tags", "documents", "first")
COVARIANCES = ("full", "tied", "diag", "spherical")


@dataclass(frozen=True)
class Fig4Spec(JobSpec):
    """Figure 4 and its table: the ModApte topic counts of the raw SGML beside the published
    ones (section "Dataset description"): :func:`.make.make_fig4`."""

    raw_dir: str
    provenance: str
    claims: str
    csv: str
    figure_prefix: str
    top_topics: int
    counting: str  # tags | documents | first

    def check(self) -> None:
        self.one_of("counting", COUNTINGS)
        self.at_least("top_topics", 1)


@dataclass(frozen=True)
class ClusteringSpec(JobSpec):
    """Figure 5's numbers: K-means WSS against k, GMM AIC/BIC on a TruncatedSVD
    (section "Clustering algorithms"): :func:`.jobs.clustering_job`."""

    corpus: str
    meta: str
    csv: str
    seed: int
    k_max: int
    n_init: int
    svd_dim: int
    gmm_max: int
    covariance: str

    def check(self) -> None:
        self.one_of("covariance", COVARIANCES)
        for name in ("k_max", "n_init", "svd_dim", "gmm_max"):
            self.at_least(name, 1)


@dataclass(frozen=True)
class KnnSpec(JobSpec):
    """Figure 6 or 7's numbers: k-NN test accuracy for each k (section "Classification"):
    :func:`.jobs.knn_job`."""

    corpus: str
    meta: str
    csv: str
    samples: str
    metric: str  # cosine | euclidean
    ks: tuple[int, ...]

    def check(self) -> None:
        self.one_of("metric", KNN_METRICS.values())
        if not self.ks or min(self.ks) < 1:
            raise BoostrankError(f"field 'ks' must be k values >= 1, got {self.ks!r}")


@dataclass(frozen=True)
class PlotSpec(JobSpec):
    """Figure 5, 6 or 7 drawn from its results CSV: :func:`.make.make_plot`."""

    figure: str  # fig5 | fig6 | fig7
    csv: str
    claims: str
    figure_prefix: str

    def check(self) -> None:
        self.one_of("figure", PLOTS)


@dataclass(frozen=True)
class ForestSpec(JobSpec):
    """One random forest's training (resubstitution, out of bag) and test accuracy (section
    "Classification", random forest): :func:`.jobs.forest_job`."""

    corpus: str
    meta: str
    csv: str
    samples: str
    seed: int
    replicate: int  # 1, 2, ...: replicate r grows from replicate_seed(seed, r)
    n_estimators: int
    max_features: str  # sqrt | log2 | all | a count | a fraction
    min_samples_leaf: int

    def check(self) -> None:
        for name in ("replicate", "n_estimators", "min_samples_leaf"):
            self.at_least(name, 1)


@dataclass(frozen=True)
class ForestMergeSpec(JobSpec):
    """The random forest's replicates averaged: :func:`.make.make_forest_merge`."""

    replicates: tuple[str, ...]
    replicate_samples: tuple[str, ...]
    csv: str
    samples: str

    def check(self) -> None:
        if not self.replicates or len(self.replicates) != len(self.replicate_samples):
            raise BoostrankError("field 'replicate_samples': one samples file per results file")


@dataclass(frozen=True)
class Table1Spec(JobSpec):
    """The random-forest table beside the published accuracies: :func:`.make.make_table1`."""

    results: str
    claims: str
    out_prefix: str


@dataclass(frozen=True)
class RankingFoldSpec(JobSpec):
    """Every configuration of one of Tables 2-6 on one LETOR fold (section "Results"):
    :func:`.jobs_ranking.run_fold`."""

    table: str
    fold: int
    metas: tuple[str, ...]  # the sidecars of mq2007 and mq2008 (the .npz beside each)
    settings: dict[str, Any]  # the table's config section and the cutoff k
    seed: int
    out: str

    def check(self) -> None:
        self.one_of("table", LETOR_TABLES)
        self.at_least("fold", 1)


@dataclass(frozen=True)
class RankingMergeSpec(JobSpec):
    """One of Tables 2-6 merged over its folds, and the statistics its ordering claims read
    (``summary``, :mod:`.summary_ranking`): :func:`.make_ranking.make_ranking_table`."""

    table: str
    folds: tuple[str, ...]
    claims: str
    out_prefix: str
    summary: str
    guards: str  # the table's guard table, results/guards/<table>.csv

    def check(self) -> None:
        self.one_of("table", LETOR_TABLES)


@dataclass(frozen=True)
class ToySpec(JobSpec):
    """Table 7, the toy example (section "Working on a toy dataset"), and the toy documents'
    features (``features``): :func:`.make_ranking.make_toy_table`."""

    settings: dict[str, Any]  # config docan_ranking.toy
    seed: int
    claims: str
    out_prefix: str
    features: str


@dataclass(frozen=True)
class DemoSpec(JobSpec):
    """Table 8, the 2-D pairwise-transform demo (section "Working on a toy dataset"):
    :func:`.make_ranking.make_demo_table`."""

    settings: dict[str, Any]  # config docan_ranking.demo
    claims: str
    out_prefix: str


_CORPUS_JOB_CODE = ("experiments.docan.jobs", "preprocess.reuters_corpus")
_MAKE_CODE = ("experiments.docan.make", "plots", "report.claims", "report.render")
_RANKING_CODE = ("experiments.docan.make_ranking", "report.claims", "report.render")
FIG4 = JobKind(
    "docan.fig4",
    ("claims", "docan_reuters.top_topics", "docan_reuters.topic_counting"),
    _MAKE_CODE,
    Fig4Spec,
    "boostrank.experiments.docan.make:make_fig4",
)
CLUSTERING = JobKind(
    "docan.clustering",
    ("seed", "docan_reuters.seed_offsets", "docan_reuters.kmeans", "docan_reuters.gmm"),
    _CORPUS_JOB_CODE,
    ClusteringSpec,
    "boostrank.experiments.docan.jobs:clustering_job",
)
KNN = JobKind(
    "docan.knn",
    ("docan_reuters.knn",),
    _CORPUS_JOB_CODE,
    KnnSpec,
    "boostrank.experiments.docan.jobs:knn_job",
)
PLOT = JobKind(
    "docan.plot", ("claims",), _MAKE_CODE, PlotSpec, "boostrank.experiments.docan.make:make_plot"
)
FOREST = JobKind(
    "docan.forest",
    ("seed", "docan_reuters.seed_offsets", "docan_reuters.random_forest"),
    _CORPUS_JOB_CODE,
    ForestSpec,
    "boostrank.experiments.docan.jobs:forest_job",
)
FOREST_MERGE = JobKind(
    "docan.forest_merge",
    ("docan_reuters.random_forest",),
    ("experiments.docan.make",),
    ForestMergeSpec,
    "boostrank.experiments.docan.make:make_forest_merge",
)
TABLE1 = JobKind(
    "docan.table1",
    ("claims",),
    _MAKE_CODE,
    Table1Spec,
    "boostrank.experiments.docan.make:make_table1",
)
RANKING_FOLD = JobKind(
    "docan.ranking_fold",
    (
        "seed",
        "docan_ranking.k",
        "docan_ranking.ndcg_formula",
        "docan_ranking.fold_roles",
        *sorted({f"docan_ranking.{s}" for s in CONFIG_SECTION.values()}),
    ),
    ("experiments.docan.jobs_ranking", "metrics.ranking", "data.folds", "guards"),
    RankingFoldSpec,
    "boostrank.experiments.docan.jobs_ranking:run_fold",
)
RANKING_MERGE = JobKind(
    "docan.ranking_merge",
    ("claims", "docan_ranking.folds"),
    (*_RANKING_CODE, "guards"),
    RankingMergeSpec,
    "boostrank.experiments.docan.make_ranking:make_ranking_table",
)
# The toy and the demo fit the estimators they compare (imported lazily by jobs_ranking).
RANKING_TOY = JobKind(
    "docan.ranking_toy",
    ("seed", "claims", "docan_ranking.toy"),
    (
        *_RANKING_CODE,
        "metrics.ranking",
        "ranking.ranknet",
        "ranking.pairs",
        "ranking.linear",
        "ranking.lambdamart",
        "preprocess.text",
    ),
    ToySpec,
    "boostrank.experiments.docan.make_ranking:make_toy_table",
)
RANKING_DEMO = JobKind(
    "docan.ranking_demo",
    ("claims", "docan_ranking.demo"),
    (*_RANKING_CODE, "ranking.linear", "ranking.ranksvm", "ranking.pairs"),
    DemoSpec,
    "boostrank.experiments.docan.make_ranking:make_demo_table",
)
JOBS = registry(
    FIG4,
    CLUSTERING,
    KNN,
    PLOT,
    FOREST,
    FOREST_MERGE,
    TABLE1,
    RANKING_FOLD,
    RANKING_MERGE,
    RANKING_TOY,
    RANKING_DEMO,
)


def reuters_outputs(figure: str) -> dict[str, str | tuple[str, ...]]:
    """The outputs of Figures 5-7: the drawing (rule docan_plot) and the curves' CSV with, for
    the k-NN curves of Figures 6 and 7, their samples (rules docan_clustering, docan_knn)."""
    return {
        "figure": with_exts(f"figures/{figure}", ".png", ".pdf"),
        "csv": f"results/{figure}.csv",
        "samples": f"results/{figure}.samples.csv",
    }


def ranking_outputs(table: str) -> dict[str, str | tuple[str, ...]]:
    """The outputs of a ranking table's merge (rule docan_ranking_merge; ``{table}`` there)."""
    return {
        "table": _table_files(table),
        "summary": f"results/{table}_summary.csv",
        "guards": f"results/guards/{table}.csv",
    }


def _table_files(table: str) -> tuple[str, ...]:
    return with_exts(f"figures/tables/{table}", ".csv", ".md", ".tex")


# Figures 4-7 and Tables 1-8: the rules of their jobs, the functions they run, their outputs.
_CORPUS_RULE = "docan_reuters_corpus"
_BUILD_CORPUS = "boostrank.preprocess.reuters_corpus:build_corpus"
_JOBS = "boostrank.experiments.docan.jobs:"
_DRAW = "boostrank.experiments.docan.figure:"
_RANKING = "boostrank.experiments.docan.summary_ranking:"
FIGURES = {
    "docan-fig4": FigureCode(
        rules=(_CORPUS_RULE, "docan_fig4"),
        entries=(
            FIG4.entry,
            _JOBS + "topic_frequency_table",
            "boostrank.experiments.docan.summary:figure4_statistics",
            _DRAW + "draw_figure4",
        ),
        outputs={
            "figure": with_exts("figures/docan-fig4", ".png", ".pdf"),
            "csv": "results/docan-fig4.csv",
            "summary": "results/docan-fig4_summary.csv",
        },
    ),
    "docan-fig5": FigureCode(
        rules=(_CORPUS_RULE, "docan_clustering", "docan_plot"),
        entries=(_BUILD_CORPUS, _JOBS + "clustering_curves", PLOT.entry, _DRAW + "draw_figure5"),
        outputs={k: v for k, v in reuters_outputs("docan-fig5").items() if k != "samples"},
    ),
    **{
        figure: FigureCode(
            rules=(_CORPUS_RULE, "docan_knn", "docan_plot"),
            entries=(_BUILD_CORPUS, _JOBS + "knn_curve", PLOT.entry, _DRAW + "draw_knn"),
            outputs=reuters_outputs(figure),
            unlisted=("samples",),
        )
        for figure in ("docan-fig6", "docan-fig7")
    },
    "docan-table1": FigureCode(
        rules=(_CORPUS_RULE, "docan_forest", "docan_forest_merge", "docan_table1"),
        entries=(
            _BUILD_CORPUS,
            _JOBS + "random_forest_accuracy",
            "boostrank.experiments.docan.summary:merge_forest_replicates",
            TABLE1.entry,
        ),
        outputs={
            "table": _table_files("docan-table1"),
            "csv": "results/docan-table1.csv",
            "samples": "results/docan-table1.samples.csv",
        },
        unlisted=("samples",),
    ),
    **{
        table: FigureCode(
            rules=("docan_ranking_fold", "docan_ranking_merge"),
            entries=(
                RANKING_FOLD.entry,
                "boostrank.experiments.docan.summary:merge_frames",
                _RANKING + "table_statistics",
                RANKING_MERGE.entry,
            ),
            outputs=ranking_outputs(table),
        )
        for table in LETOR_TABLES
    },
    "docan-table7": FigureCode(
        rules=("docan_ranking_toy",),
        entries=(
            "boostrank.experiments.docan.jobs_ranking:toy_features",
            _RANKING + "toy_term_columns",
            _RANKING + "toy_matrix",
            "boostrank.experiments.docan.jobs_ranking:run_toy",
            RANKING_TOY.entry,
        ),
        outputs={
            "table": _table_files("docan-table7"),
            "features": "results/docan-table7_features.csv",
            "matrix": "results/docan-table7_matrix.csv",
        },
    ),
    "docan-table8": FigureCode(
        rules=("docan_ranking_demo",),
        entries=(
            "boostrank.experiments.docan.jobs_ranking:run_demo",
            _RANKING + "demo_statistics",
            RANKING_DEMO.entry,
        ),
        outputs={
            "table": _table_files("docan-table8"),
            "summary": "results/docan-table8_summary.csv",
        },
    ),
}


def fold_code_modules(table: str) -> tuple[str, ...]:
    """Package modules a ranking table's fold jobs run (Snakemake inputs)."""
    return (*RANKING_FOLD.code, *ESTIMATOR_MODULES[table])


# --------------------------------------------------------------------------- the rules' specs


def forest_files(
    config: dict[str, Any], replicates: Callable[[int, str], int], suffix: str
) -> list[str]:
    """Each random-forest replicate's results (``suffix`` .csv) or samples (.samples.csv):
    ``replicates`` (the workflow's data_replicates) turns the configured count into the
    data set's (the count on real data, 1 on a stand-in)."""
    count = replicates(config["docan_reuters"]["random_forest"]["replicates"], DATASET)
    return [f"{FOREST_DIR}/r{r}{suffix}" for r in range(1, count + 1)]


def ranking_settings(config: dict[str, Any], table: str) -> dict[str, Any]:
    """A ranking table's config section (``docan_ranking.<section>``), the cutoff k, the NDCG
    formula and the folds' test and validation parts (``fold_roles``)."""
    ranking = config["docan_ranking"]
    return {
        "k": ranking["k"],
        "ndcg_formula": ranking["ndcg_formula"],
        "fold_roles": ranking["fold_roles"],
        **ranking[CONFIG_SECTION[table]],
    }


def fig4_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> Fig4Spec:
    """Figure 4 (rule docan_fig4)."""
    section = config["docan_reuters"]
    return Fig4Spec(
        raw_dir=os.path.dirname(input.raw),
        provenance=input.raw,
        claims=input.claims,
        csv=output.csv,
        figure_prefix=stem(output.figure[0]),
        top_topics=section["top_topics"],
        counting=section["topic_counting"],
    )


def clustering_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> ClusteringSpec:
    """Figure 5's numbers (rule docan_clustering)."""
    section = config["docan_reuters"]
    return ClusteringSpec(
        corpus=input.npz,
        meta=input.meta,
        csv=output[0],
        seed=config["seed"] + section["seed_offsets"]["clustering"],
        k_max=section["kmeans"]["k_max"],
        n_init=section["kmeans"]["n_init"],
        svd_dim=section["gmm"]["svd_dim"],
        gmm_max=section["gmm"]["components_max"],
        covariance=section["gmm"]["covariance"],
    )


def knn_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> KnnSpec:
    """Figure 6 or 7's numbers (rule docan_knn; ``wildcards.fig`` picks the distance)."""
    knn = config["docan_reuters"]["knn"]
    return KnnSpec(
        corpus=input.npz,
        meta=input.meta,
        csv=output.csv,
        samples=output.samples,
        metric=KNN_METRICS[wildcards.fig],
        ks=tuple(range(knn["k_min"], knn["k_max"] + 1, knn["k_step"])),
    )


def plot_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> PlotSpec:
    """Figure 5, 6 or 7 (rule docan_plot)."""
    return PlotSpec(
        figure=wildcards.fig, csv=input.csv, claims=input.claims, figure_prefix=stem(output[0])
    )


def forest_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> ForestSpec:
    """One random-forest replicate (rule docan_forest)."""
    section = config["docan_reuters"]
    forest = section["random_forest"]
    return ForestSpec(
        corpus=input.npz,
        meta=input.meta,
        csv=output.csv,
        samples=output.samples,
        seed=config["seed"] + section["seed_offsets"]["random_forest"],
        replicate=int(wildcards.replicate),
        n_estimators=forest["n_estimators"],
        max_features=str(forest["max_features"]),
        min_samples_leaf=forest["min_samples_leaf"],
    )


def forest_merge_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> ForestMergeSpec:
    """The random forest's replicates merged (rule docan_forest_merge)."""
    return ForestMergeSpec(
        replicates=tuple(input.csvs),
        replicate_samples=tuple(input.samples),
        csv=output.csv,
        samples=output.samples,
    )


def table1_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> Table1Spec:
    """The random-forest table (rule docan_table1)."""
    return Table1Spec(results=input.results, claims=input.claims, out_prefix=stem(output[0]))


def ranking_fold_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> RankingFoldSpec:
    """One fold of one of Tables 2-6 (rule docan_ranking_fold)."""
    return RankingFoldSpec(
        table=wildcards.table,
        fold=int(wildcards.fold),
        metas=tuple(input.metas),
        settings=ranking_settings(config, wildcards.table),
        seed=config["seed"],
        out=output[0],
    )


def ranking_merge_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> RankingMergeSpec:
    """One of Tables 2-6 from its folds, and its summary (rule docan_ranking_merge)."""
    return RankingMergeSpec(
        table=wildcards.table,
        folds=tuple(input.folds),
        claims=input.claims,
        out_prefix=stem(output.table[0]),
        summary=output.summary,
        guards=output.guards,
    )


def toy_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> ToySpec:
    """Table 7 and the toy documents' features (rule docan_ranking_toy)."""
    return ToySpec(
        settings=config["docan_ranking"]["toy"],
        seed=config["seed"],
        claims=input.claims,
        out_prefix=stem(output.table[0]),
        features=output.features,
    )


def demo_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> DemoSpec:
    """Table 8 (rule docan_ranking_demo)."""
    return DemoSpec(
        settings=config["docan_ranking"]["demo"], claims=input.claims, out_prefix=stem(output[0])
    )


__all__ = [
    "CLUSTERING",
    "CONFIG_SECTION",
    "CORPUS",
    "CORPUS_CODE",
    "CORPUS_META",
    "COUNTINGS",
    "COVARIANCES",
    "DATASET",
    "ESTIMATOR_MODULES",
    "FIG4",
    "FOREST",
    "FOREST_DIR",
    "FOREST_MERGE",
    "JOBS",
    "KNN",
    "KNN_METRICS",
    "LETOR_DATASETS",
    "LETOR_TABLES",
    "NDCG_DECIMALS",
    "PLOT",
    "PLOTS",
    "RANKING_DEMO",
    "RANKING_FOLD",
    "RANKING_MERGE",
    "RANKING_TOY",
    "SOURCE",
    "SPLITS",
    "TABLE1",
    "TOY_DOCUMENTS",
    "TOY_LINEAR_WEIGHTS",
    "TOY_ROWS",
    "TOY_TEST_QUERY",
    "TOY_TREES",
    "ClusteringSpec",
    "DemoSpec",
    "Fig4Spec",
    "ForestMergeSpec",
    "ForestSpec",
    "KnnSpec",
    "PlotSpec",
    "RankingFoldSpec",
    "RankingMergeSpec",
    "Table1Spec",
    "ToySpec",
    "clustering_spec",
    "demo_spec",
    "fig4_spec",
    "fold_code_modules",
    "forest_files",
    "forest_merge_spec",
    "forest_spec",
    "knn_spec",
    "plot_spec",
    "ranking_fold_spec",
    "ranking_merge_spec",
    "ranking_settings",
    "table1_spec",
    "toy_spec",
]
