"""The queries, evaluation and method runners every Chapter 4 job of Valizadegan (2010) shares
(ranking refinement by boosting, sections 4.3-4.4): the relevance-feedback jobs of Figures
4.2-4.4 (:mod:`.jobs_feedback`), the objective job of Figure 4.1 (:mod:`.jobs_objective`) and
the MovieLens jobs of Figures 4.5-4.6 (:mod:`.jobs_movies`).

- Per query, documents are sorted by the base ranker (ties in file order); the true grades of
  the first 20 are the feedback, turned into ordered pairs (grade i > grade j). Refined scores
  built from stumps take few distinct values; breaking their ties by the base order favours
  the refinement, so the evaluation puts equal scores in a seeded random order per query
  (config ``chapter4.tie_break: random``, the default; ``base`` keeps the base order), and
  each row carries the method's share of tied documents (``tied_share``).
- Evaluation: NDCG@1..25 (formula ``chapter4.ndcg_formula``, by default ``report``, Eq. 3.1
  as printed, which section 4.4 names: "NDCG is described in Section 3.3.1"; Chapter 4 compares
  with no LETOR baseline, so LETOR's script has no part here) of the **whole list** of each query
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
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter4.jobs_curves import MethodCurves, QueryMeans
from boostrank.experiments.chapter4.spec import LABELS, SEED_KEY
from boostrank.guards import FIELD, Guards
from boostrank.seeds import derive_seed

if TYPE_CHECKING:
    import numpy as np


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


class RunSettings:
    """What the method runners of a job read of its config section ``params`` (``cfg``: the
    part that holds ``k_max`` and ``feedback``), and the guards its fits counted, kept in the
    job's record (``notes``)."""

    params: dict[str, Any]
    notes: dict[str, Any]

    @property
    def cfg(self) -> dict[str, Any]:
        return self.params

    @property
    def guards(self) -> Guards:
        """The guards' counts of this job's fits (the record's ``guards``)."""
        return self.notes.setdefault(FIELD, Guards())

    @property
    def k_max(self) -> int:
        return int(self.cfg["k_max"])

    @property
    def formula(self) -> str:
        return str(self.params["ndcg_formula"])

    @property
    def feedback(self) -> int:
        return int(self.cfg["feedback"])


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
                evaluate={"all": np.ones(c, dtype=bool), "residual": ~judged},
                tie_order=ties,
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
                evaluate={"all": q.evaluate["all"], "residual": position >= start},
                tie_order=q.tie_order,
            )
        )
    return out


def pairs_of(q: Query) -> np.ndarray:
    """Ordered feedback pairs (grade i > grade j) among the judged documents."""
    import numpy as np

    from boostrank.ranking.refinement import feedback_pairs

    return feedback_pairs(q.y[q.judged], np.flatnonzero(q.judged))


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
    guards: Guards | None = None,
) -> list[np.ndarray]:
    """MRR's scores per query (``train_scores_``); optional shared ``W`` per query index;
    ``t_scope`` and ``weak_learner`` override the configured ones; ``guards`` receives each
    fit's guard counts (:mod:`boostrank.guards`)."""
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
        if guards is not None:
            guards.add(model.guards_)
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
        tied_share=tied_share(scores) if share else None,
        settings=settings,
        grid_rows=grid_rows,
    )


def lrr_curves(
    queries: Sequence[Query],
    scores: Sequence[np.ndarray],
    params: dict[str, Any],
    k_max: int,
    formula: str,
    common: dict[str, Any],
) -> MethodCurves:
    """LRR's curves from its ``n x G`` scores per query (:func:`run_lrr`): rows of each gamma's
    curve, then LRR-Best and LRR-Worst (per evaluation mode, by mean NDCG@1..k_max)."""
    return measured(
        queries,
        scores,
        LABELS["lrr"],
        common,
        k_max=k_max,
        formula=formula,
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
        k_max=k_max,
        formula=formula,
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
    queries: Sequence[Query], params: dict[str, Any], seed: int, guards: Guards | None = None
) -> tuple[list[np.ndarray], int]:
    """Ranking-SVM per query on the judged documents' pairs (augmented features); a query
    whose judged documents all share one grade keeps the base ranking. Returns the scores
    and the number of such queries; ``guards`` receives each fit's guard counts."""
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
        if guards is not None:
            guards.add(model.guards_)
        out.append(model.predict(Xa))
    return out, fallback


__all__ = [
    "Query",
    "letor_queries",
    "lrr_curves",
    "mean_curves",
    "measured",
    "pairs_of",
    "refine_params",
    "rocchio_curves",
    "run_lrr",
    "run_mrr",
    "run_rocchio",
    "run_svm",
    "sort_by_base",
    "tied_share",
    "with_feedback",
]
