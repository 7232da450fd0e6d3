"""Multilabel rank losses of Zhang, Jung & Tewari (2019), *Online Boosting for Multilabel
Ranking with Top-k Feedback*, section 2.2 (and Jung & Tewari, 2018).

For a score vector s over m labels and a relevant set Y (complement Y^c):

- unweighted rank loss: sum over (l in Y, r in Y^c) of 1[s_r > s_l] + 1/2 * 1[s_r = s_l];
- weighted rank loss: the same divided by |Y| * |Y^c| (0 when Y or Y^c is empty) -- the
  metric of Table 1 and Figure 2;
- the ranking of a score vector orders labels by decreasing score, ties broken in favour of
  the smaller label (section 2: "we break ties by preferring smaller labels").

Everything is vectorised over rows and pairs (each relevant label against its row's labels,
in blocks); the counts are sums of halves, so exact in any order; :func:`pairwise_rank_loss`
is the explicit double loop the tests compare it with.
"""

from __future__ import annotations

import numpy as np


def ranking(s: np.ndarray) -> np.ndarray:
    """Labels ordered by decreasing score, ties to the smaller label (section 2's ``sigma``).

    ``s`` is (m,) or (n, m); returns label indices of the same shape."""
    return np.argsort(-np.asarray(s, dtype=np.float64), axis=-1, kind="stable")


def unweighted_rank_loss(S: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Number of misordered (relevant, irrelevant) pairs, ties counting 1/2, per row.

    ``S`` (n, m) scores, ``Y`` (n, m) 0/1 relevance; returns (n,) float64."""
    S = np.atleast_2d(np.asarray(S, dtype=np.float64))
    Y = np.atleast_2d(np.asarray(Y)).astype(bool)
    rows, labels = np.nonzero(Y)  # every relevant label l, compared with its row's labels r
    out = np.zeros(len(S))
    block = max(1, 2**22 // max(1, S.shape[1]))
    for a in range(0, len(rows), block):  # blocks bound the memory of the (b, m) arrays
        row, rel = rows[a : a + block], labels[a : a + block]
        diff = S[row] - S[row, rel][:, None]  # s_r - s_l for every label r of the row
        bad = ((diff > 0) + 0.5 * (diff == 0)) * ~Y[row]  # irrelevant r only
        out += np.bincount(row, weights=bad.sum(axis=1), minlength=len(S))
    return out


def weighted_rank_loss(S: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """The weighted rank loss per row: :func:`unweighted_rank_loss` / (|Y| |Y^c|); a row with
    an empty Y or Y^c scores 0 (Table 1's metric)."""
    Y = np.atleast_2d(np.asarray(Y)).astype(bool)
    n_rel = Y.sum(axis=1)
    norm = n_rel * (Y.shape[1] - n_rel)
    raw = unweighted_rank_loss(S, Y)
    return np.where(norm > 0, raw / np.maximum(norm, 1), 0.0)


def pairwise_rank_loss(s: np.ndarray, y: np.ndarray, weighted: bool = True) -> float:
    """Reference implementation for one row: an explicit double loop over the pairs."""
    rel = [i for i in range(len(y)) if y[i]]
    irr = [i for i in range(len(y)) if not y[i]]
    if not rel or not irr:
        return 0.0
    total = 0.0
    for a in rel:
        for b in irr:
            total += 1.0 if s[b] > s[a] else 0.5 if s[b] == s[a] else 0.0
    return total / (len(rel) * len(irr)) if weighted else total


__all__ = [
    "pairwise_rank_loss",
    "ranking",
    "unweighted_rank_loss",
    "weighted_rank_loss",
]
