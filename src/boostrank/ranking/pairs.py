"""Within-query preference pairs, the input of the pairwise rankers (RankNet, RankSVM).

A pair (i, j) joins two documents of the same query with different labels, oriented so that
``y[i] > y[j]`` (i is preferred). Pairs are generated per query from cached upper-triangle index
arrays: the loop runs over queries, never over pairs.
"""

from __future__ import annotations

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.metrics.ranking import query_groups

__all__ = ["balanced_signs", "pairwise_transform", "query_groups", "query_pairs"]


def query_pairs(
    y: np.ndarray,
    qid: np.ndarray,
    *,
    max_pairs_per_query: int | None = None,
    seed: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of every within-query pair with ``y[i] > y[j]``.

    With ``max_pairs_per_query``, a query with more pairs keeps a uniform random subset of that
    size (drawn with ``seed``); the others keep all of theirs.
    """
    y = np.asarray(y)
    if y.shape != np.asarray(qid).shape:
        raise BoostrankError(f"y and qid differ in shape: {y.shape} vs {np.shape(qid)}")
    if max_pairs_per_query is not None and max_pairs_per_query < 1:
        raise BoostrankError(f"max_pairs_per_query must be >= 1, got {max_pairs_per_query}")
    rng = np.random.default_rng(seed)
    order, bounds = query_groups(qid)
    triu: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    first, second = [], []
    for g in range(len(bounds) - 1):
        rows = order[bounds[g] : bounds[g + 1]]
        n = len(rows)
        if n < 2:
            continue
        if n not in triu:
            triu[n] = np.triu_indices(n, 1)
        a, b = rows[triu[n][0]], rows[triu[n][1]]
        keep = y[a] != y[b]
        a, b = a[keep], b[keep]
        if max_pairs_per_query is not None and len(a) > max_pairs_per_query:
            pick = np.sort(rng.choice(len(a), size=max_pairs_per_query, replace=False))
            a, b = a[pick], b[pick]
        swap = y[a] < y[b]
        first.append(np.where(swap, b, a))
        second.append(np.where(swap, a, b))
    if not first:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)
    return np.concatenate(first).astype(np.intp), np.concatenate(second).astype(np.intp)


def pairwise_transform(
    X: np.ndarray,
    y: np.ndarray,
    qid: np.ndarray,
    *,
    max_pairs_per_query: int | None = None,
    seed: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Herbrich et al. (1999) / Joachims (2002): ``(x_i - x_j, sign(y_i - y_j))`` per pair.

    Pairs come from :func:`query_pairs`; every other pair is flipped (``(x_j - x_i, -1)``) so
    the two classes are balanced, as in the report's 2-D demo (and Pedregosa 2012).
    """
    i, j = query_pairs(y, qid, max_pairs_per_query=max_pairs_per_query, seed=seed)
    sign = balanced_signs(len(i))
    return (np.asarray(X)[i] - np.asarray(X)[j]) * sign[:, None], sign


def balanced_signs(n: int) -> np.ndarray:
    """``+1, -1, +1, ...``: the class of each transformed pair after the alternating flip."""
    sign = np.ones(n)
    sign[1::2] = -1.0
    return sign
