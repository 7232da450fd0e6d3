"""Ranking measures of LETOR's evaluation: NDCG@k, P@k and MAP, vectorised over queries.

``formula="letor"`` follows LETOR 4.0's official script ``Eval-Score-4.0.pl`` (Jun Xu and
Tie-Yan Liu, 2009; the same DCG as ``Eval-Score-3.0.pl``), line by line:

- documents are ranked by descending score, ties in their original (file) order: the script
  sorts the documents by line number, then by prediction with Perl's stable merge sort;
- gain ``2^r - 1`` (its table ``2 -> 3, 1 -> 1, 0 -> 0``);
- discount 1 at positions 1 **and 2**, ``1 / log2(p)`` at position ``p >= 3`` (the script's
  ``log(2) / log(iPos + 1)`` with 0-based ``iPos >= 2``) -- not ``1 / log2(1 + p)``;
- a query with **no relevant document** has NDCG@k = 0 (``$ndcg = 0`` unless the ideal DCG is
  non-zero), P@k = 0 and AP = 0 (``return 0.0 if ($numRelevant == 0)``), and it stays in the
  mean: every average divides by the number of queries;
- a query with **fewer than k documents** has NDCG@k = 0: the script computes NDCG only at the
  positions 1..n the query has (``NDCG($#rates + 1, @rates)``) and the undefined entries at
  positions n+1..k add 0 to the mean. P@k counts the missing positions as irrelevant
  (relevant in the top n, divided by k).
- P@k and MAP count a document as relevant when its label is >= 1.

``formula="report"`` is the formula printed in Sengupta (2018), *Document Analysis --
Clustering, Classification and Ranking*, section "Information Retrieval measures": gain
``2^r - 1``, discount ``1 / log2(1 + p)``, NDCG@k over the top ``min(k, n)`` documents (a
query shorter than k is scored on all its documents), 0 for a query without relevant
documents. Its worked example (grades 3,3,2,2,1,1,1 ranked as 2,3,2,3,1,1,1: NDCG 0.43, 0.65,
0.69 at 1..3) uses this form; so does the usual ``1/log2(1+p)`` NDCG of learning-to-rank
toolkits (e.g. RankLib's ``NDCGScorer``).

Figure 3.1 of Valizadegan (2010), chapter 3 (``boostrank.experiments.chapter3``), uses the
formula of config ``chapter3.ndcg_formula``, ``letor`` by default: the dissertation compares
NDCG_Boost with the baselines LETOR 3.0 publishes, whose NDCG@1..10 were computed with LETOR's
script (``Eval-Score-3.0.pl``, the DCG above), so the same script's measure keeps the comparison
like for like. ``report`` is the textbook ``1/log2(1 + p)`` form (what ``trec_eval``'s
``ndcg_cut`` computes when the qrels carry the gains ``2^r - 1``); the two agree at k = 1 and
differ from k = 2 on (and at k > n for queries of n < k documents). ``report`` is also Eq. 3.1
of Valizadegan (2010), ``(2^r - 1) / log(1 + j)``, whose log has no printed base: the base
scales the DCG and its ideal alike and cancels in NDCG, so ``log2`` here is that formula.
Chapter 4 (``boostrank.experiments.chapter4``) uses it by default (config
``chapter4.ndcg_formula``): section 4.4 names Section 3.3.1's NDCG and compares with no LETOR
baseline (docs/readings.md, "Why Chapters 3 and 4 score NDCG differently").
Averages follow LETOR's evaluation: the mean over queries of each fold's test part, then the
mean over the folds (:func:`ndcg_curve` gives every cut-off of every query in one pass).

Per-query results are ordered by ascending query id (``np.unique(qid)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from boostrank.errors import BoostrankError

Formula = Literal["letor", "report"]
FORMULAS: tuple[str, ...] = ("letor", "report")


@dataclass(frozen=True)
class _Ranked:
    """Labels in ranked order, one padded row per query (padding label 0, ``valid`` False)."""

    ranked: np.ndarray  # (Q, M) labels by descending score
    ideal: np.ndarray  # (Q, M) labels sorted descending
    sizes: np.ndarray  # (Q,) documents per query
    queries: np.ndarray  # (Q,) query ids


def query_groups(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row indices of each query, whatever the row order: ``(order, bounds)``; query ``g``
    (in ascending id) holds rows ``order[bounds[g]:bounds[g + 1]]``, in their original order.
    The one grouping every ranker and experiment uses."""
    q = np.asarray(qid)
    order = np.argsort(q, kind="stable")
    _, start = np.unique(q[order], return_index=True)
    return order, np.append(start, len(q))


def tied_share(scores: np.ndarray, qid: np.ndarray) -> float:
    """The share of documents whose score equals another document's of the same query."""
    s, q = np.asarray(scores, dtype=np.float64), np.asarray(qid)
    if len(s) == 0:
        return 0.0
    order = np.lexsort((s, q))
    same = (q[order][1:] == q[order][:-1]) & (s[order][1:] == s[order][:-1])
    tied = np.zeros(len(s), dtype=bool)
    tied[1:] |= same
    tied[:-1] |= same
    return float(tied.mean())


def _rank(y_true: np.ndarray, scores: np.ndarray, qid: np.ndarray) -> _Ranked:
    y = np.asarray(y_true)
    s = np.asarray(scores, dtype=np.float64)
    q = np.asarray(qid)
    if not (y.shape == s.shape == q.shape) or y.ndim != 1:
        raise BoostrankError(
            f"y_true, scores and qid must be 1-D of one length; got {y.shape}, {s.shape}, {q.shape}"
        )
    if len(y) == 0:
        raise BoostrankError("no documents to evaluate")
    if np.isnan(s).any():
        raise BoostrankError("scores contain NaN")
    if (y < 0).any():
        raise BoostrankError("relevance labels must be >= 0")
    order, bounds = query_groups(q)  # within a query: original order
    start, sizes = bounds[:-1], np.diff(bounds)
    n_q, width = len(start), int(sizes.max())
    row = np.repeat(np.arange(n_q), sizes)
    col = np.arange(len(order)) - np.repeat(start, sizes)
    labels = np.full((n_q, width), -1, dtype=np.int64)
    labels[row, col] = y[order]
    score = np.full((n_q, width), -np.inf)
    score[row, col] = s[order]
    # Stable sort on -score: ties (and -inf padding, last) keep their original order.
    by_score = np.argsort(-score, axis=1, kind="stable")
    ranked = np.take_along_axis(labels, by_score, axis=1)
    ideal = -np.sort(-labels, axis=1)
    return _Ranked(np.maximum(ranked, 0), np.maximum(ideal, 0), sizes, q[order][start])


def _discount(width: int, formula: str) -> np.ndarray:
    p = np.arange(1, width + 1, dtype=np.float64)
    if formula == "letor":
        return 1.0 / np.log2(np.maximum(p, 2.0))
    if formula == "report":
        return 1.0 / np.log2(p + 1.0)
    raise BoostrankError(f"unknown NDCG formula {formula!r}; choose from {FORMULAS}")


def _check_k(k: int) -> None:
    if int(k) != k or k < 1:
        raise BoostrankError(f"cutoff k must be a positive integer, got {k!r}")


def ndcg_at_k(
    y_true: np.ndarray,
    scores: np.ndarray,
    qid: np.ndarray,
    k: int,
    *,
    formula: Formula = "letor",
) -> np.ndarray:
    """NDCG@k of every query (ascending query id); see the module docstring for ``formula``."""
    _check_k(k)
    r = _rank(y_true, scores, qid)
    width = min(int(k), r.ranked.shape[1])
    disc = _discount(width, formula)
    dcg = ((2.0 ** r.ranked[:, :width] - 1.0) * disc).sum(axis=1)
    idcg = ((2.0 ** r.ideal[:, :width] - 1.0) * disc).sum(axis=1)
    out = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    if formula == "letor":
        out[r.sizes < k] = 0.0
    return out


def mean_ndcg(
    y_true: np.ndarray,
    scores: np.ndarray,
    qid: np.ndarray,
    k: int,
    *,
    formula: Formula = "letor",
) -> float:
    """Mean NDCG@k over all queries (queries without relevant documents count as 0)."""
    return float(ndcg_at_k(y_true, scores, qid, k, formula=formula).mean())


def precision_at_k(y_true: np.ndarray, scores: np.ndarray, qid: np.ndarray, k: int) -> np.ndarray:
    """P@k of every query: relevant (label >= 1) in the top k, divided by k (LETOR 4.0)."""
    _check_k(k)
    r = _rank(y_true, scores, qid)
    return (r.ranked[:, : int(k)] >= 1).sum(axis=1) / float(k)


def average_precision(y_true: np.ndarray, scores: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """Average precision of every query; 0 for a query without relevant documents (LETOR)."""
    r = _rank(y_true, scores, qid)
    rel = r.ranked >= 1
    valid = np.arange(rel.shape[1]) < r.sizes[:, None]
    rel &= valid
    hits = np.cumsum(rel, axis=1)
    prec = hits / np.arange(1, rel.shape[1] + 1)
    n_rel = rel.sum(axis=1)
    total = (prec * rel).sum(axis=1)
    return np.divide(total, n_rel, out=np.zeros_like(total), where=n_rel > 0)


def mean_average_precision(y_true: np.ndarray, scores: np.ndarray, qid: np.ndarray) -> float:
    """MAP over all queries, as LETOR 4.0's script averages it."""
    return float(average_precision(y_true, scores, qid).mean())


def ndcg_curve(
    y_true: np.ndarray,
    scores: np.ndarray,
    qid: np.ndarray,
    k_max: int,
    *,
    formula: Formula = "letor",
) -> np.ndarray:
    """NDCG@1..k_max of every query, shape ``(queries, k_max)``, from one ranking.

    Column ``k - 1`` equals :func:`ndcg_at_k` at ``k`` (same formula, ties and no-relevant
    rule); Figure 3.1 of Valizadegan (2010), chapter 3, plots its mean over queries for
    k = 1..10.
    """
    _check_k(k_max)
    k_max = int(k_max)
    r = _rank(y_true, scores, qid)
    width = min(k_max, r.ranked.shape[1])
    disc = _discount(width, formula)
    dcg = np.cumsum((2.0 ** r.ranked[:, :width] - 1.0) * disc, axis=1)
    idcg = np.cumsum((2.0 ** r.ideal[:, :width] - 1.0) * disc, axis=1)
    if width < k_max:  # every query is shorter than k: the sums stop growing
        dcg = np.pad(dcg, ((0, 0), (0, k_max - width)), mode="edge")
        idcg = np.pad(idcg, ((0, 0), (0, k_max - width)), mode="edge")
    out = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=idcg > 0)
    if formula == "letor":
        out[r.sizes[:, None] < np.arange(1, k_max + 1)] = 0.0
    return out
