"""Sengupta (2018), *Document Analysis -- Clustering, Classification and Ranking*: the figure and
table ids, the ranking tables' configurations, what each Snakemake job reads (config keys) and
runs (code modules), and what the report prints as the *input* of its ranking examples.

The toy example of section "Working on a toy dataset" is typed in below (its feature matrix,
LambdaMART's ten printed trees and the printed linear-regression weights). The numbers it
publishes as *results* (Tables 2-8) are claims, in ``config/claims.yaml`` only. Nothing here is
a result of this pipeline.
"""

from __future__ import annotations

from boostrank.experiments.common import Job

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


_CORPUS_JOB_CODE = ("experiments.docan.jobs", "preprocess.reuters_corpus")
FIG4 = Job(
    "docan_fig4",
    ("claims", "docan_reuters.top_topics", "docan_reuters.topic_counting"),
    ("experiments.docan.jobs", "experiments.docan.figure"),
)
CLUSTERING = Job(
    "docan_clustering",
    ("seed", "docan_reuters.seed_offsets", "docan_reuters.kmeans", "docan_reuters.gmm"),
    _CORPUS_JOB_CODE,
)
KNN = Job("docan_knn", ("docan_reuters.knn",), _CORPUS_JOB_CODE)
PLOT = Job("docan_plot", ("claims",), ("experiments.docan.figure", "plots"))
FOREST = Job(
    "docan_forest",
    ("seed", "docan_reuters.seed_offsets", "docan_reuters.random_forest"),
    _CORPUS_JOB_CODE,
)
FOREST_MERGE = Job("docan_forest_merge", ("docan_reuters.random_forest",), _CORPUS_JOB_CODE[:1])
TABLE1 = Job("docan_table1", ("claims",), ("experiments.docan.figure", "report.render"))
RANKING_FOLD = Job(
    "docan_ranking_fold",
    ("seed", "docan_ranking.k", *sorted({f"docan_ranking.{s}" for s in CONFIG_SECTION.values()})),
    ("experiments.docan.jobs_ranking", "metrics.ranking", "data.folds"),
)
RANKING_MERGE = Job(
    "docan_ranking_merge",
    ("claims", "docan_ranking.folds"),
    ("experiments.docan.figure", "report.claims", "report.render"),
)
RANKING_TOY = Job(
    "docan_ranking_toy",
    ("seed", "claims", "docan_ranking.toy"),
    (
        "experiments.docan.jobs_ranking",
        "experiments.docan.figure",
        "metrics.ranking",
        "ranking.ranknet",
        "ranking.pairs",
        "ranking.linear",
        "ranking.lambdamart",
        "report.claims",
        "report.render",
    ),
)
RANKING_DEMO = Job(
    "docan_ranking_demo",
    ("claims", "docan_ranking.demo"),
    (
        "experiments.docan.jobs_ranking",
        "experiments.docan.figure",
        "ranking.linear",
        "ranking.ranksvm",
        "ranking.pairs",
        "report.claims",
        "report.render",
    ),
)


def fold_code_modules(table: str) -> tuple[str, ...]:
    """Package modules a ranking table's fold jobs run (Snakemake inputs)."""
    return (*RANKING_FOLD.code, *ESTIMATOR_MODULES[table])


__all__ = [
    "CLUSTERING",
    "CONFIG_SECTION",
    "DATASET",
    "ESTIMATOR_MODULES",
    "FIG4",
    "FOREST",
    "FOREST_MERGE",
    "KNN",
    "KNN_METRICS",
    "LETOR_DATASETS",
    "LETOR_TABLES",
    "NDCG_DECIMALS",
    "PLOT",
    "RANKING_DEMO",
    "RANKING_FOLD",
    "RANKING_MERGE",
    "RANKING_TOY",
    "SOURCE",
    "SPLITS",
    "TABLE1",
    "TOY_LINEAR_WEIGHTS",
    "TOY_ROWS",
    "TOY_TEST_QUERY",
    "TOY_TREES",
    "Job",
    "fold_code_modules",
]
