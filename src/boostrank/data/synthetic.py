"""Deterministic synthetic stand-ins with a data set's published shape.

Used only where no real copy can be had; every output made from them is labelled ``synthetic`` and
its claims are reported NOT-COMPARABLE. The same parameters and seed always give the same arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boostrank.data.folds import assign_query_parts


def _rows(n: int, scale: float, minimum: int) -> int:
    return max(minimum, round(n * scale))


def classification(params: dict[str, Any], seed: int, scale: float = 1.0) -> dict[str, np.ndarray]:
    """Gaussian classes around random centres: ``rows`` x ``features``, ``classes`` labels."""
    rng = np.random.default_rng(seed)
    k, d = int(params["classes"]), int(params["features"])
    n = _rows(int(params["rows"]), scale, 10 * k)
    y = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])  # every class occurs
    rng.shuffle(y)
    centres = rng.normal(0.0, 1.0, (k, d)).astype(np.float32)
    X = centres[y] + rng.normal(0.0, 1.5, (n, d)).astype(np.float32)
    return {"X": X, "y": y.astype(np.int32), "classes": np.array([f"c{i}" for i in range(k)])}


def letor(params: dict[str, Any], seed: int, scale: float = 1.0) -> dict[str, np.ndarray]:
    """LETOR-shaped ranking data: queries of varying size, sparse graded relevance, [0,1] features.

    Features are query-level min-max normalised (as LETOR's QueryLevelNorm); a few of them carry
    the relevance signal. Queries are assigned to the parts S1..S5 of LETOR's fold rotation.
    """
    rng = np.random.default_rng(seed)
    n_folds = int(params.get("n_folds", 5))
    q = _rows(int(params["queries"]), scale, n_folds)
    n = _rows(int(params["rows"]), scale, 2 * q)
    d = int(params["features"])
    grades = np.asarray(params["grades"], dtype=float)
    grades = grades / grades.sum()
    sizes = 1 + rng.multinomial(n - q, rng.dirichlet(np.full(q, 4.0)))
    qid = np.repeat(np.arange(1, q + 1, dtype=np.int32), sizes)
    y = rng.choice(len(grades), size=n, p=grades).astype(np.int8)
    signal = rng.normal(0.0, 1.0, d) * (rng.random(d) < 0.3)
    X = rng.normal(0.0, 1.0, (n, d)) + np.outer(y, signal)
    X = _query_level_norm(X, qid).astype(np.float32)
    part = assign_query_parts(qid, n_folds, seed=seed)
    docid = np.array([f"syn{i}" for i in range(n)])
    return {"X": X, "y": y, "qid": qid, "part": part, "docid": docid}


def _query_level_norm(X: np.ndarray, qid: np.ndarray) -> np.ndarray:
    starts = np.flatnonzero(np.r_[True, qid[1:] != qid[:-1]])
    lo = np.minimum.reduceat(X, starts, axis=0)
    hi = np.maximum.reduceat(X, starts, axis=0)
    counts = np.diff(np.r_[starts, len(qid)])
    lo, hi = np.repeat(lo, counts, axis=0), np.repeat(hi, counts, axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return (X - lo) / span


def multilabel(params: dict[str, Any], seed: int, scale: float = 1.0) -> dict[str, np.ndarray]:
    """Multi-label data with the given label cardinality; features depend linearly on the labels."""
    rng = np.random.default_rng(seed)
    n_labels, d = int(params["labels"]), int(params["features"])
    n = _rows(int(params["rows"]), scale, 20)
    p = min(float(params["cardinality"]) / n_labels, 1.0)
    Y = (rng.random((n, n_labels)) < p).astype(np.int8)
    empty = Y.sum(axis=1) == 0
    Y[empty, rng.integers(0, n_labels, empty.sum())] = 1
    X = Y @ rng.normal(0.0, 1.0, (n_labels, d)) + rng.normal(0.0, 1.0, (n, d))
    return {"X": X.astype(np.float32), "Y": Y}


def ratings(params: dict[str, Any], seed: int, scale: float = 1.0) -> dict[str, np.ndarray]:
    """User-item ratings 1..5 from a low-rank model; item genre flags."""
    rng = np.random.default_rng(seed)
    users = _rows(int(params["users"]), scale, 10)
    items = _rows(int(params["items"]), scale, 20)
    n = min(_rows(int(params["ratings"]), scale, 100), users * items)
    cells = rng.choice(users * items, size=n, replace=False)
    user, item = np.divmod(cells, items)
    u, v = rng.normal(0, 1, (users, 5)), rng.normal(0, 1, (items, 5))
    score = np.einsum("ij,ij->i", u[user], v[item]) + rng.normal(0, 1, n)
    rating = np.digitize(score, np.quantile(score, [0.06, 0.17, 0.44, 0.79])) + 1
    genres = (rng.random((items, int(params.get("genres", 19)))) < 0.1).astype(np.int8)
    return {
        "user": (user + 1).astype(np.int32),
        "item": (item + 1).astype(np.int32),
        "rating": rating.astype(np.int8),
        "item_genres": genres,
    }


GENERATORS = {
    "classification": classification,
    "letor": letor,
    "multilabel": multilabel,
    "ratings": ratings,
}
