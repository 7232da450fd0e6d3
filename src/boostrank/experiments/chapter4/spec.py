"""Figures 4.1-4.6 (Valizadegan 2010, sections 4.3-4.4): the data sets, method families and
their labels, the figure ids, and what each Snakemake job reads (config keys) and runs (code
modules)."""

from __future__ import annotations

from typing import Any

SOURCE = "Valizadegan (2010), chapter 4"
SEED_KEY = "thesis-ch4"  # the first label of every Chapter 4 seed (boostrank.seeds)
FIGURES = (
    "thesis-fig4_1",
    "thesis-fig4_2",
    "thesis-fig4_3",
    "thesis-fig4_4",
    "thesis-fig4_5",
    "thesis-fig4_6",
)
# The figures whose claims are checked under every evaluation protocol (config
# ``chapter4.evaluate`` names the one drawn).
PROTOCOL_FIGURES = ("thesis-fig4_2", "thesis-fig4_3", "thesis-fig4_4")
DATASETS = ("ohsumed", "td2003", "td2004", "hp2003", "hp2004", "np2003", "np2004")
FAMILIES = ("baselines", "lrr", "mrr", "mrr_bases", "mrr_sizes")
MOVIE_FAMILIES = ("baselines", "lrr", "mrr", "mrr_sizes")
MODES = ("all", "residual")
LABELS = {
    "base": "Base ranker",
    "rocchio": "Rocchio",
    "svm": "Ranking-SVM",
    "lrr": "LRR",
    "lrr_best": "LRR-Best",
    "lrr_worst": "LRR-Worst",
    "mrr": "MRR",
}
# The methods the figures draw and compare, in legend order.
ORDER = ["Base ranker", "Rocchio", "Ranking-SVM", "LRR-Best", "LRR-Worst", "MRR"]
FIRST_THREE = ("ohsumed", "td2003", "td2004")  # section 4.4.2: NDCG falls with k on these
SIMILAR_TOL = 0.02  # "similar performance": mean NDCG within this


def alt_label(t_scope: str) -> str:
    """The name of MRR run with the other reading of ``T``."""
    return "MRR (T on judged pairs)" if t_scope == "judged" else "MRR (T on all pairs)"


def weak_label(weak_learner: str) -> str:
    """The name of MRR run with another weak learner (in the CSV, not drawn): with
    ``thresholds`` it shares LRR's weak learner, so MRR minus it is the weak learner's effect
    and it minus LRR-Best the objective's (L_p against L_a)."""
    return f"MRR [weak learner: {weak_learner}]"


# The figure whose folder (results/chapter4/<figure>/, benchmarks/<figure>/) holds each LETOR
# family's jobs.
FAMILY_FIGURE = {
    "baselines": "thesis-fig4_2",
    "lrr": "thesis-fig4_2",
    "mrr": "thesis-fig4_2",
    "mrr_bases": "thesis-fig4_3",
    "mrr_sizes": "thesis-fig4_4",
}

# Config keys each method family reads (the rest of config ``chapter4`` does not concern it,
# so editing another family's keys does not rerun its jobs).
FAMILY_KEYS = {
    "baselines": ("rocchio", "ranksvm"),
    "lrr": ("refinement", "lrr"),
    "mrr": ("refinement", "mrr", "mrr_alternative_t_scope", "mrr_alternative_weak_learner"),
    "mrr_bases": ("refinement", "mrr"),
    "mrr_sizes": ("refinement", "mrr", "feedback_sizes"),
    "objective": ("refinement", "mrr", "mrr_alternative_t_scope", "mrr_alternative_weak_learner"),
}
COMMON_KEYS = ("k_max", "feedback", "max_queries", "tie_break")


def family_params(
    section: dict[str, Any], family: str, *, movies: bool = False, formula: str = "letor"
) -> dict[str, Any]:
    """The part of config ``chapter4`` one job needs, with the NDCG formula resolved
    (``ndcg_formula: null`` means Chapter 3's, passed as ``formula``)."""
    keys = COMMON_KEYS + FAMILY_KEYS[family]
    out = {k: section[k] for k in keys if k in section}
    out["ndcg_formula"] = section.get("ndcg_formula") or formula
    if movies:
        out["movies"] = section["movies"]
        out.pop("feedback_sizes", None)
        out.pop("mrr_alternative_t_scope", None)
        out.pop("mrr_alternative_weak_learner", None)
    return out


# Package modules each job runs (Snakemake inputs: editing one reruns only its jobs).
COMMON_CODE = ("experiments.chapter4.jobs", "metrics.ranking", "io", "errors")
MOVIES_CODE = ("experiments.chapter4.jobs_movies", "recommend.personality_diagnosis")
# The module of each kind of LETOR job (a method family's: jobs_feedback).
LETOR_CODE = {
    "base_rankers": "experiments.chapter4.jobs_base",
    "objective": "experiments.chapter4.jobs_objective",
}
FEEDBACK_CODE = "experiments.chapter4.jobs_feedback"
FAMILY_CODE = {
    "baselines": ("ranking.rocchio", "ranking.ranksvm", "ranking.pairs", "ranking.validation"),
    "lrr": ("ranking.lrr", "ranking.mrr", "ranking.refinement"),
    "mrr": ("ranking.mrr", "ranking.refinement"),
    "mrr_bases": ("ranking.mrr", "ranking.refinement"),
    "mrr_sizes": ("ranking.mrr", "ranking.refinement"),
    "objective": ("ranking.mrr", "ranking.refinement"),
    "base_rankers": (),
}
FIGURE_CODE = ("experiments.chapter4.figure", "plots", "io")  # the figure jobs (summary too)


def code_modules(family: str, *, movies: bool = False) -> list[str]:
    """The modules a job of ``family`` runs (``movies``: the MovieLens jobs, with Personality
    Diagnosis)."""
    runner = MOVIES_CODE if movies else (LETOR_CODE.get(family, FEEDBACK_CODE),)
    return list(dict.fromkeys(COMMON_CODE + FAMILY_CODE[family] + runner))


__all__ = [
    "COMMON_KEYS",
    "DATASETS",
    "FAMILIES",
    "FAMILY_CODE",
    "FAMILY_FIGURE",
    "FAMILY_KEYS",
    "FEEDBACK_CODE",
    "FIGURES",
    "FIGURE_CODE",
    "FIRST_THREE",
    "LABELS",
    "LETOR_CODE",
    "MODES",
    "MOVIE_FAMILIES",
    "ORDER",
    "PROTOCOL_FIGURES",
    "SEED_KEY",
    "SIMILAR_TOL",
    "SOURCE",
    "alt_label",
    "code_modules",
    "family_params",
    "weak_label",
]
