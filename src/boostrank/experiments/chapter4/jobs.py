"""The relevance-feedback jobs of Figures 4.1-4.4 of Valizadegan (2010), chapter 4 (ranking
refinement by boosting, sections 4.3-4.4), and the queries, evaluation and method runners the
MovieLens jobs of Figures 4.5-4.6 (:mod:`.jobs_movies`) share.

Relevance feedback (sections 4.4.1-4.4.4), on the seven LETOR 3.0 data sets
(``data/processed/<ds>.npz``, QueryLevelNorm features; OHSUMED real, the .Gov sets synthetic
stand-ins where no real copy exists, labelled in every output):

- Base ranker: the single feature with the best mean NDCG@1..25 over all queries of the data
  set ("the best ranking feature compared to other features"); features constant within every
  query carry no order and are not candidates. The dissertation's choices (11 for OHSUMED, 46
  for TD2003/TD2004/HP2003/HP2004, 6 for NP2003/NP2004; 1-based LETOR numbers) are compared
  with the recomputed ones. Figure 4.3 also uses the worst and the median candidate.
- Per query, documents are sorted by the base ranker (ties in file order); the true grades of
  the first 20 are the feedback, turned into ordered pairs (grade i > grade j). Refined scores
  built from stumps take few distinct values; breaking their ties by the base order favours
  the refinement, so the evaluation puts equal scores in a seeded random order per query
  (config ``chapter4.tie_break: random``, the default; ``base`` keeps the base order), and
  each row carries the method's share of tied documents (``tied_share``).
- No folds: each query is refined on its own (the text has no training across queries), so
  **every query of the data set** is used.
- Evaluation: NDCG@1..25 (formula ``chapter4.ndcg_formula``, by default Chapter 3's
  ``chapter3.ndcg_formula``, LETOR's script) of the **whole list** of each query
  (``evaluate: all``, the default) and of the unjudged remainder (``residual``, the residual
  collection). The text does not say which documents are scored (section 4.4.1: "we sort all
  documents of one query based on the base ranker"; 4.4.2: "NDCG for the first 25 ranked
  documents"); the whole ranked list is the plainest reading (registry ``chapter4_evaluation``).
  Both protocols are in the results and the Figure 4.2-4.4 claims are checked under both; the
  configured one is drawn. Whole-list scores credit a method for reordering the 20 judged
  documents it was trained on, so its gains at the top are in part that. Under ``residual``
  Figure 4.4 scores every feedback size on the same documents, those after the largest size.
- Methods: Base ranker; Rocchio (Eq. 4.20, ``Q_0 = 0``, best of alpha, beta in 1..10 by mean
  NDCG@1..25); Ranking-SVM (Chapter 3's :class:`~boostrank.ranking.ranksvm.RankSVM`, linear, on
  the judged documents' pairs, C by SVM-light's default rule ``1 / mean(||x_i - x_j||)^2``
  unless configured); both with the base score as an extra feature; LRR (Eq. 4.9, 100 values of
  gamma 0.1, 0.2, ..., 10; LRR-Best and LRR-Worst by mean NDCG@1..25); MRR (Algorithm 6). The
  selections of Rocchio's setting and of LRR-Best/Worst look at the evaluation itself, as the
  dissertation's "choose the best setting" does.
- ``T`` (Eq. 4.3): config ``refinement.t_scope``. ``all`` (the default) puts its ``eta/2``
  part on every pair of the n documents: Eq. 4.3 gives ``eta/2`` to every pair not in ``O``
  ("otherwise"), and the sums of Eqs. 4.5-4.10 and the Remark's (``(eta/2) sum_{i,j=1}^n
  [exp(F_i - F_j) + exp(F_j - F_i)]``, the norm ``F^T(n 1 - e e^T) F``) run over all n
  documents. ``judged`` puts it on the pairs of the judged documents only (section 4.3.2:
  "the probability of ranking x_i before x_j in the training data"). MRR is also run with
  ``mrr_alternative_t_scope`` (``judged``), drawn dashed in Figure 4.2; the rows' ``variant``
  names each run's scope.
- Weak learners: MRR samples ``max(20, n/5)`` documents by ``|w|`` and fits a stump (section
  4.3.4); LRR's RankBoost searches thresholds exactly. ``mrr_alternative_weak_learner:
  thresholds`` also runs MRR with LRR's weak learner (Figure 4.1's objective CSV and Figure
  4.2's results CSV, not drawn), so that MRR against LRR separates the objective (L_p
  against L_a, same weak learner) from the weak learner.

One Snakemake job per (data set, method family) and replicate (config
``chapter4.replicates`` on real data, :mod:`.jobs_curves`); seeds derive from the replicate's
root seed (replicate 1: config ``seed``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.jobs_curves import (
    MethodCurves,
    QueryMeans,
    save_replicate,
    write_family,
)
from boostrank.experiments.chapter4.spec import (
    FAMILIES,
    LABELS,
    SEED_KEY,
    alt_label,
    weak_label,
)
from boostrank.experiments.common import letor_label
from boostrank.seeds import derive_seed, replicate_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- queries
@dataclass
class Query:
    """One ranking problem: documents sorted by the base ranker (ties in given order)."""

    qid: int
    X: np.ndarray  # features used by the refinement (n x d)
    y: np.ndarray  # grades
    g: np.ndarray  # base-ranker scores
    judged: np.ndarray  # feedback mask
    evaluate: dict[str, np.ndarray] = field(default_factory=dict)  # mode -> mask
    tie_order: np.ndarray | None = None  # evaluation order of equal scores (None: this order)


def sort_by_base(g: np.ndarray) -> np.ndarray:
    """Descending base score, ties in the given order."""
    import numpy as np

    return np.argsort(-np.asarray(g, dtype=np.float64), kind="stable")


def letor_queries(
    data: dict[str, np.ndarray],
    feature: int,
    n_feedback: int,
    max_queries: int | None = None,
    tie_seed: int | None = None,
) -> list[Query]:
    """Each query's documents sorted by feature ``feature`` (0-based), first ``n_feedback``
    judged; evaluation masks ``all`` and ``residual``; with ``tie_seed``, a seeded random
    order for the equal scores of the evaluation."""
    import numpy as np

    from boostrank.metrics.ranking import query_groups

    qid = data["qid"]
    order, bounds = query_groups(qid)  # any row order (the qids need not be sorted)
    X = data["X"]
    y = data["y"]
    out = []
    for k in range(len(bounds) - 1):
        if max_queries is not None and k >= max_queries:
            break
        rows = order[bounds[k] : bounds[k + 1]]
        q, c = qid[rows[0]], len(rows)
        g = X[rows, feature].astype(np.float64)
        o = sort_by_base(g)
        rows = rows[o]
        judged = np.arange(c) < n_feedback
        ties = None
        if tie_seed is not None:
            ties = np.random.default_rng([int(tie_seed), k]).permutation(c)
        out.append(
            Query(
                int(q),
                X[rows].astype(np.float64),
                y[rows].astype(np.int64),
                g[o],
                judged,
                {"all": np.ones(c, dtype=bool), "residual": ~judged},
                ties,
            )
        )
    return out


def with_feedback(
    queries: Sequence[Query], n_feedback: int, residual_from: int | None = None
) -> list[Query]:
    """The same queries with the first ``n_feedback`` documents judged; ``residual`` scores
    the documents from position ``residual_from`` on (default: the unjudged ones)."""
    import numpy as np

    start = n_feedback if residual_from is None else residual_from
    out = []
    for q in queries:
        position = np.arange(len(q.y))
        out.append(
            Query(
                q.qid,
                q.X,
                q.y,
                q.g,
                position < n_feedback,
                {"all": q.evaluate["all"], "residual": position >= start},
                q.tie_order,
            )
        )
    return out


def pairs_of(q: Query) -> np.ndarray:
    """Ordered feedback pairs (grade i > grade j) among the judged documents."""
    import numpy as np

    from boostrank.ranking.refinement import feedback_pairs

    return feedback_pairs(q.y[q.judged], np.flatnonzero(q.judged))


# --------------------------------------------------------------------------- evaluation
def mean_curves(
    queries: Sequence[Query],
    scores: Sequence[np.ndarray],
    k_max: int,
    formula: str,
    per_query: QueryMeans | None = None,
) -> dict[str, np.ndarray]:
    """Mean NDCG@1..k_max over queries for each evaluation mode; ``scores`` per query are
    ``n`` or ``n x G`` (then the result is ``G x k_max``). Equal scores are ranked in each
    query's ``tie_order`` (its own order where that is None). ``per_query`` receives, per
    mode, the evaluated queries' ids and each one's NDCG@1..k_max (``n_q x k_max`` or
    ``G x n_q x k_max``): their means over k are the units of the claims' intervals and
    paired tests, their spread over queries at each k the curves' bands."""
    import numpy as np

    from boostrank.metrics.ranking import ndcg_curve

    orders = [np.arange(len(q.y)) if q.tie_order is None else q.tie_order for q in queries]
    y = np.concatenate([q.y[o] for q, o in zip(queries, orders, strict=True)])
    qid = np.concatenate([np.full(len(q.y), i) for i, q in enumerate(queries)])
    S = np.concatenate(
        [(s if s.ndim == 2 else s[:, None])[o] for s, o in zip(scores, orders, strict=True)]
    )
    ids = np.array([q.qid for q in queries])
    out = {}
    for mode in queries[0].evaluate:
        mask = np.concatenate([q.evaluate[mode][o] for q, o in zip(queries, orders, strict=True)])
        each = [
            ndcg_curve(y[mask], S[mask, g], qid[mask], k_max, formula=formula)  # type: ignore[arg-type]
            for g in range(S.shape[1])
        ]
        curves = np.stack([c.mean(axis=0) for c in each])
        out[mode] = curves if scores[0].ndim == 2 else curves[0]
        if per_query is not None:
            per_query[mode] = (
                ids[np.unique(qid[mask])],
                np.stack(each) if scores[0].ndim == 2 else each[0],
            )
    return out


def tied_share(scores: Sequence[np.ndarray]) -> np.ndarray:
    """Per score column (``n`` or ``n x G`` per query), the share of documents whose score
    equals another document's of the same query."""
    import numpy as np

    from boostrank.metrics.ranking import tied_share as share

    S = np.concatenate([s if s.ndim == 2 else s[:, None] for s in scores])
    qid = np.concatenate([np.full(len(s), i) for i, s in enumerate(scores)])
    out = np.array([round(share(S[:, g], qid), 6) for g in range(S.shape[1])])
    return out if scores[0].ndim == 2 else out[0]


# --------------------------------------------------------------------------- methods
def refine_params(params: dict[str, Any], key: str) -> dict[str, Any]:
    """Constructor arguments of MRR or LRR from the config (shared keys + the method's)."""
    shared = {k: params["refinement"][k] for k in ("n_iterations", "eta", "lam", "lam_top")}
    shared["t_scope"] = params["refinement"]["t_scope"]
    return {**shared, **params[key]}


def lrr_gammas(cfg: dict[str, Any]) -> list[float]:
    """``n_gammas`` values evenly spread over [gamma_min, gamma_max] (linear or log)."""
    import numpy as np

    lo, hi, n = float(cfg["gamma_min"]), float(cfg["gamma_max"]), int(cfg["n_gammas"])
    grid = (
        np.geomspace(lo, hi, n) if cfg.get("spacing", "linear") == "log" else np.linspace(lo, hi, n)
    )
    return [round(float(v), 6) for v in grid]


def run_mrr(
    queries: Sequence[Query],
    params: dict[str, Any],
    seed_parts: tuple[object, ...],
    root_seed: int,
    *,
    t_scope: str | None = None,
    weak_learner: str | None = None,
    W_cache: dict[int, np.ndarray] | None = None,
    timings: list[float] | None = None,
) -> list[np.ndarray]:
    """MRR's scores per query (``train_scores_``); optional shared ``W`` per query index;
    ``t_scope`` and ``weak_learner`` override the configured ones."""
    import numpy as np

    from boostrank.ranking.mrr import MRR
    from boostrank.ranking.refinement import base_matrix, top_std_lambda

    kwargs = refine_params(params, "mrr")
    if t_scope is not None:
        kwargs["t_scope"] = t_scope
    if weak_learner is not None:
        kwargs["weak_learner"] = weak_learner
    out = []
    for i, q in enumerate(queries):
        started = time.perf_counter()
        W = None
        if W_cache is not None:
            if i not in W_cache:
                lam = kwargs["lam"]
                lam = top_std_lambda(q.g, kwargs["lam_top"]) if lam is None else float(lam)
                W_cache[i] = base_matrix(q.g, lam)
            W = W_cache[i]
        model = MRR(**kwargs, random_state=derive_seed(root_seed, SEED_KEY, *seed_parts, q.qid))
        model.fit(q.X, q.g, pairs_of(q), judged=q.judged, W=W)
        out.append(np.asarray(model.train_scores_))
        if timings is not None:
            timings.append(time.perf_counter() - started)
    return out


def run_lrr(queries: Sequence[Query], params: dict[str, Any]) -> list[np.ndarray]:
    """LRR's ``n x G`` scores per query for every gamma."""
    from boostrank.ranking.lrr import LRR

    kwargs = refine_params(params, "lrr")
    grid = {
        k: kwargs.pop(k) for k in ("gamma_min", "gamma_max", "n_gammas", "spacing") if k in kwargs
    }
    gammas = lrr_gammas(grid)
    out = []
    for q in queries:
        model = LRR(gammas, **kwargs).fit(q.X, q.g, pairs_of(q), judged=q.judged)
        out.append(model.train_scores_)
    return out


def measured(
    queries: Sequence[Query],
    scores: Sequence[np.ndarray],
    label: str,
    columns: dict[str, Any],
    k_max: int,
    formula: str,
    *,
    share: bool = True,
    settings: list[str] | None = None,
    grid_rows: tuple[tuple[str, str], ...] = (),
) -> MethodCurves:
    """A method's NDCG@1..k_max of each query (``scores`` per query ``n``, or ``n x G`` for
    the grid ``settings``), with its share of tied documents unless ``share`` is False."""
    import numpy as np

    pq: QueryMeans = {}
    mean_curves(queries, scores, k_max, formula, pq)
    return MethodCurves(
        label,
        columns,
        np.array([q.qid for q in queries]),
        pq,
        tied_share(scores) if share else None,
        settings,
        grid_rows,
    )


def lrr_curves(
    queries: Sequence[Query],
    params: dict[str, Any],
    k_max: int,
    formula: str,
    common: dict[str, Any],
) -> MethodCurves:
    """LRR for every gamma: rows of each gamma's curve, then LRR-Best and LRR-Worst (per
    evaluation mode, by mean NDCG@1..k_max)."""
    return measured(
        queries,
        run_lrr(queries, params),
        LABELS["lrr"],
        common,
        k_max,
        formula,
        settings=[f"gamma={g:g}" for g in lrr_gammas(params["lrr"])],
        grid_rows=((LABELS["lrr"], "every"), (LABELS["lrr_best"], "best"),
                   (LABELS["lrr_worst"], "worst")),
    )  # fmt: skip


def rocchio_curves(
    queries: Sequence[Query],
    params: dict[str, Any],
    k_max: int,
    formula: str,
    common: dict[str, Any],
    relevant_min: int = 1,
    share: bool = True,
) -> MethodCurves:
    """Rocchio for every (alpha, beta): rows of the best setting per evaluation mode."""
    scores, grid = run_rocchio(queries, params, relevant_min)
    return measured(
        queries,
        scores,
        LABELS["rocchio"],
        common,
        k_max,
        formula,
        share=share,
        settings=[f"alpha={a:g},beta={b:g}" for a, b in grid],
        grid_rows=((LABELS["rocchio"], "best"),),
    )


def augmented(q: Query) -> np.ndarray:
    """Features plus the base ranker's score as an extra feature (section 4.4.1)."""
    import numpy as np

    return np.column_stack([q.X, q.g])


def run_rocchio(
    queries: Sequence[Query], params: dict[str, Any], relevant_min: int = 1
) -> tuple[list[np.ndarray], np.ndarray]:
    """Rocchio's scores for every (alpha, beta) setting per query, and the settings; a judged
    document of grade >= ``relevant_min`` is relevant, the others non-relevant."""
    from boostrank.ranking.rocchio import rocchio_scores, settings

    grid = settings(params["rocchio"]["alphas"], params["rocchio"]["betas"])
    out = []
    for q in queries:
        rel = q.judged & (q.y >= relevant_min)
        non = q.judged & (q.y < relevant_min)
        out.append(rocchio_scores(augmented(q), rel, non, grid))
    return out, grid


def run_svm(
    queries: Sequence[Query], params: dict[str, Any], seed: int
) -> tuple[list[np.ndarray], int]:
    """Ranking-SVM per query on the judged documents' pairs (augmented features); a query
    whose judged documents all share one grade keeps the base ranking. Returns the scores
    and the number of such queries."""
    import numpy as np

    from boostrank.ranking.ranksvm import RankSVM, pair_design

    cfg = params["ranksvm"]
    out, fallback = [], 0
    for q in queries:
        Xa = augmented(q)
        y = q.y[q.judged]
        if len(np.unique(y)) < 2:
            out.append(q.g.copy())
            fallback += 1
            continue
        diff, sign = pair_design(None, Xa[q.judged], y, np.zeros(len(y), dtype=np.int64))
        model = RankSVM(  # C null: SVM-light's default (ranking/ranksvm.py)
            C=cfg["C"],
            default_C=cfg.get("default_C", "code"),
            max_iter=int(cfg["max_iter"]),
            random_state=seed,
        ).fit_pairs(diff, sign)
        out.append(model.predict(Xa))
    return out, fallback


# --------------------------------------------------------------------------- base rankers
def feature_ranking(
    data: dict[str, np.ndarray], k_max: int, formula: str, max_queries: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Mean NDCG@1..k_max over the queries of ranking by each feature alone, and whether the
    feature varies within at least one query (a candidate base ranker)."""
    import numpy as np

    from boostrank.metrics.ranking import ndcg_curve

    qid, X, y = data["qid"], data["X"], data["y"]
    if max_queries is not None:
        keep = np.isin(qid, np.unique(qid)[:max_queries])
        qid, X, y = qid[keep], X[keep], y[keep]
    order = np.argsort(qid, kind="stable")
    qid, X, y = qid[order], X[order].astype(np.float64), y[order]
    _, inverse = np.unique(qid, return_inverse=True)
    varies = np.zeros(X.shape[1], dtype=bool)
    for k in range(X.shape[1]):
        lo = np.full(inverse.max() + 1, np.inf)
        hi = np.full(inverse.max() + 1, -np.inf)
        np.minimum.at(lo, inverse, X[:, k])
        np.maximum.at(hi, inverse, X[:, k])
        varies[k] = bool((hi > lo).any())
    scores = np.array(
        [ndcg_curve(y, X[:, k], qid, k_max, formula=formula).mean() for k in range(X.shape[1])]  # type: ignore[arg-type]
    )
    return scores, varies


def select_base_rankers(
    dataset: str,
    npz: Path | str,
    meta_path: Path | str,
    k_max: int,
    formula: str,
    max_queries: int | None,
    out: Path | str,
) -> dict[str, Any]:
    """Best, median and worst candidate feature (1-based numbers), with every score."""
    import numpy as np

    from boostrank.data.prepare import load_letor
    from boostrank.io import read_json, write_json

    meta = read_json(meta_path)
    scores, varies = feature_ranking(load_letor(npz), k_max, formula, max_queries)
    cand = np.flatnonzero(varies)
    if len(cand) == 0:
        raise BoostrankError(f"{dataset}: no feature varies within a query; no base ranker")
    ranked = cand[np.argsort(-scores[cand], kind="stable")]  # best first, ties by number
    record = {
        "dataset": dataset,
        "dataset_label": letor_label(meta),
        "rule": f"mean NDCG@1..{k_max} over all queries ({formula} formula); features constant "
        "within every query excluded",
        "best": int(ranked[0]) + 1,
        "medium": int(ranked[len(ranked) // 2]) + 1,
        "worst": int(ranked[-1]) + 1,
        "candidates": len(cand),
        "scores": {str(k + 1): round(float(scores[k]), 6) for k in range(len(scores))},
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    write_json(out, record)
    return record


# --------------------------------------------------------------------------- feedback jobs
@dataclass
class FeedbackRun:
    """What every method family's runner of a (data set, family) job reads: the data set's
    arrays, its base-ranker record, the config section and the replicate's root seed;
    ``notes`` collects what a runner adds to the job's record."""

    dataset: str
    data: dict[str, np.ndarray]
    base: dict[str, Any]  # the base-ranker record (select_base_rankers)
    params: dict[str, Any]
    seed: int
    tie_seed: int | None  # the evaluation order of equal scores (None: the base order)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def k_max(self) -> int:
        return int(self.params["k_max"])

    @property
    def formula(self) -> str:
        return str(self.params["ndcg_formula"])

    @property
    def feedback(self) -> int:
        return int(self.params["feedback"])

    @property
    def best(self) -> int:
        return int(self.base["best"])

    @property
    def common(self) -> dict[str, Any]:
        """The columns every row of the job carries."""
        return {"base_feature": self.best, "feedback": self.feedback, "variant": ""}

    def queries_for(self, feature: int, n_fb: int | None = None) -> list[Query]:
        """The queries ranked by ``feature`` (1-based), the first ``n_fb`` documents judged."""
        n_fb = self.feedback if n_fb is None else n_fb
        return letor_queries(
            self.data, feature - 1, n_fb, self.params.get("max_queries"), self.tie_seed
        )

    def measure(
        self, qs: list[Query], scores: list[np.ndarray], label: str, extra: dict[str, Any]
    ) -> MethodCurves:
        """One method's per-query curves, with its share of tied documents."""
        return measured(qs, scores, label, extra, self.k_max, self.formula)


def feedback_baselines(run: FeedbackRun) -> list[MethodCurves]:
    """Base ranker, Rocchio (best setting per mode) and Ranking-SVM."""
    params, common = run.params, run.common
    qs = run.queries_for(run.best)
    out = [run.measure(qs, [q.g for q in qs], LABELS["base"], common)]
    out.append(rocchio_curves(qs, params, run.k_max, run.formula, common))
    sscores, fallback = run_svm(qs, params, derive_seed(run.seed, SEED_KEY, run.dataset, "svm"))
    run.notes["svm_queries_without_pairs"] = fallback
    out.append(run.measure(qs, sscores, LABELS["svm"], common))
    return out


def feedback_lrr(run: FeedbackRun) -> list[MethodCurves]:
    """LRR for every gamma, LRR-Best and LRR-Worst."""
    return [lrr_curves(run.queries_for(run.best), run.params, run.k_max, run.formula, run.common)]


def feedback_mrr(run: FeedbackRun) -> list[MethodCurves]:
    """MRR, then MRR with the other reading of T and with the other weak learner."""
    params, dataset, seed, common = run.params, run.dataset, run.seed, run.common
    qs = run.queries_for(run.best)
    cache: dict[int, np.ndarray] = {}
    scope = params["refinement"]["t_scope"]
    scores = run_mrr(qs, params, (dataset, "mrr"), seed, W_cache=cache)
    out = [run.measure(qs, scores, LABELS["mrr"], {**common, "variant": f"t_scope={scope}"})]
    other = params.get("mrr_alternative_t_scope")
    if other and other != scope:
        alt = run_mrr(qs, params, (dataset, "mrr", other), seed, t_scope=other, W_cache=cache)
        out.append(
            run.measure(qs, alt, alt_label(other), {**common, "variant": f"t_scope={other}"})
        )
    learner = params.get("mrr_alternative_weak_learner")
    if learner and learner != params["mrr"]["weak_learner"]:
        alt = run_mrr(
            qs, params, (dataset, "mrr", learner), seed, weak_learner=learner, W_cache=cache
        )
        variant = f"t_scope={scope},weak_learner={learner}"
        out.append(run.measure(qs, alt, weak_label(learner), {**common, "variant": variant}))
    return out


def feedback_mrr_bases(run: FeedbackRun) -> list[MethodCurves]:
    """MRR on the worst and the medium base ranker (Figure 4.3), with each base ranker."""
    out = []
    for which in ("worst", "medium"):
        feature = int(run.base[which])
        qs = run.queries_for(feature)
        extra = {**run.common, "base_feature": feature, "variant": which}
        out.append(run.measure(qs, [q.g for q in qs], LABELS["base"], extra))
        scores = run_mrr(qs, run.params, (run.dataset, "mrr_bases", feature), run.seed)
        out.append(run.measure(qs, scores, LABELS["mrr"], extra))
    return out


def feedback_mrr_sizes(run: FeedbackRun) -> list[MethodCurves]:
    """MRR with the other feedback sizes (Figure 4.4). Under ``residual`` every size is scored
    on the same documents, those after the largest size (the largest feedback set removed), so
    the sizes compare on one set, as Figure 4.5(b) does. The configured size is family mrr's
    run when it is the largest (its residual is that set), else it is run here too."""
    out = []
    qs0 = run.queries_for(run.best)
    cache: dict[int, np.ndarray] = {}
    sizes = sorted({int(s) for s in run.params["feedback_sizes"]} | {run.feedback})
    top = sizes[-1]
    for size in sizes:
        if size == run.feedback == top:
            continue  # the family "mrr" has it
        qs = with_feedback(qs0, size, residual_from=top)
        scores = run_mrr(qs, run.params, (run.dataset, "mrr_sizes", size), run.seed, W_cache=cache)
        out.append(run.measure(qs, scores, LABELS["mrr"], {**run.common, "feedback": size}))
    return out


# The runner of each method family (spec.FAMILIES), by family key.
FEEDBACK_RUNNERS: dict[str, Callable[[FeedbackRun], list[MethodCurves]]] = {
    "baselines": feedback_baselines,
    "lrr": feedback_lrr,
    "mrr": feedback_mrr,
    "mrr_bases": feedback_mrr_bases,
    "mrr_sizes": feedback_mrr_sizes,
}


def feedback_job(
    dataset: str,
    family: str,
    npz: Path | str,
    meta_path: Path | str,
    base_json: Path | str,
    params: dict[str, Any],
    seed: int,
    out: Path | str,
    record_path: Path | str,
    queries_out: Path | str | None = None,
    *,
    replicate: int = 1,
    replicate_files: Sequence[Path | str] = (),
) -> pd.DataFrame | None:
    """One (data set, method family) of Figures 4.2-4.4. Replicate 1 (the config's seed)
    writes NDCG@1..k rows for both modes, averaged with the other replicates' files
    (:mod:`.jobs_curves`), and to ``queries_out`` each query's mean NDCG@1..k per method and mode;
    replicate r >= 2 writes its per-query curves to ``out`` (an ``.npz``)."""
    from boostrank.data.prepare import load_letor
    from boostrank.io import read_json

    if family not in FAMILIES:
        raise BoostrankError(f"unknown family {family!r}; choose from {FAMILIES}")
    meta = read_json(meta_path)
    base = read_json(base_json)
    data = load_letor(npz)
    started = time.perf_counter()
    root = replicate_seed(seed, replicate)
    random_ties = params.get("tie_break", "random") == "random"
    tie_seed = derive_seed(root, SEED_KEY, dataset, "ties") if random_ties else None
    run = FeedbackRun(dataset, data, base, params, root, tie_seed)
    items = FEEDBACK_RUNNERS[family](run)
    log.info(
        "%s %s replicate %d in %.1f s", dataset, family, replicate, time.perf_counter() - started
    )
    if replicate > 1:
        save_replicate(out, items, {"replicate": replicate, "seed": root, **run.notes})
        return None
    info = {
        "dataset": dataset,
        "dataset_label": letor_label(meta),
        "family": family,
        "formula": run.formula,
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    record = {
        "params": params,
        "seed": seed,
        "base_rankers": {k: base[k] for k in ("best", "medium", "worst")},
        **run.notes,
    }
    return write_family(items, replicate_files, info, record, out, record_path, queries_out)


def objective_job(
    dataset: str,
    npz: Path | str,
    meta_path: Path | str,
    base_json: Path | str,
    params: dict[str, Any],
    iterations: int,
    seed: int,
    out: Path | str,
) -> pd.DataFrame:
    """Figure 4.1: log L_p per iteration for every query, with the bounds of Theorems 9-10,
    for the configured MRR, the alternative reading of T and the alternative weak learner."""
    import numpy as np
    import pandas as pd

    from boostrank.data.prepare import load_letor
    from boostrank.io import read_json, write_text
    from boostrank.ranking.mrr import MRR

    meta = read_json(meta_path)
    base = read_json(base_json)
    qs = letor_queries(
        load_letor(npz), int(base["best"]) - 1, int(params["feedback"]), params.get("max_queries")
    )
    scope, learner = params["refinement"]["t_scope"], params["mrr"]["weak_learner"]
    runs = [(scope, learner)]  # the configured MRR, then each alternative reading alone
    other = params.get("mrr_alternative_t_scope")
    if other and other != scope:
        runs.append((other, learner))
    other = params.get("mrr_alternative_weak_learner")
    if other and other != learner:
        runs.append((scope, other))
    frames = []
    for t_scope, weak_learner in runs:
        kwargs = {
            **refine_params(params, "mrr"),
            "n_iterations": int(iterations),
            "t_scope": t_scope,
            "weak_learner": weak_learner,
        }
        labels = (t_scope,) if weak_learner == learner else (t_scope, weak_learner)
        for q in qs:
            model = MRR(
                **kwargs,
                random_state=derive_seed(seed, SEED_KEY, dataset, "objective", *labels, q.qid),
            )
            model.fit(q.X, q.g, pairs_of(q), judged=q.judged)
            t = np.arange(len(model.objective_))
            frames.append(
                pd.DataFrame(
                    {
                        "t_scope": t_scope,
                        "weak_learner": weak_learner,
                        "qid": q.qid,
                        "documents": len(q.y),
                        "pairs": len(pairs_of(q)),
                        "iteration": t,
                        "log_lp": model.objective_,
                        "log_theorem9": model.theorem9_bound(),
                        "log_theorem10": model.theorem10_bound(),
                        "edge": np.r_[model.edge_, np.nan],
                        "mu": np.r_[model.mu_, np.nan],
                        "nu": np.r_[model.nu_, np.nan],
                        "alpha": np.r_[model.alpha_, np.nan],
                    }
                )
            )
    frame = pd.concat(frames, ignore_index=True)
    frame.insert(0, "dataset", dataset)
    frame["dataset_label"] = letor_label(meta)
    frame["base_feature"] = int(base["best"])
    frame["data_kind"] = meta["provenance"]["kind"]
    frame["provenance"] = meta["provenance_line"]
    write_text(out, frame.to_csv(index=False, float_format="%.8g"))
    return frame


__all__ = [
    "FEEDBACK_RUNNERS",
    "FeedbackRun",
    "Query",
    "feedback_job",
    "letor_queries",
    "lrr_curves",
    "mean_curves",
    "measured",
    "objective_job",
    "rocchio_curves",
    "run_lrr",
    "run_mrr",
    "run_rocchio",
    "run_svm",
    "select_base_rankers",
    "sort_by_base",
    "tied_share",
    "with_feedback",
]
