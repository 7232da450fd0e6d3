"""Top-k feedback: the exploration step and the unbiased loss estimator (Eq. 1) of Zhang, Jung
& Tewari (2019), *Online Boosting for Multilabel Ranking with Top-k Feedback*, section 2.2.

Exploration step (section 2.2, Figure 1). Given the ranking ``sigma`` of the booster's score
vector: with probability 1 - rho keep it; otherwise choose ``n_swap`` distinct labels from its
top k and ``n_swap`` from the labels ranked below k (uniformly, without replacement), and swap
the highest-ranked chosen top label with the highest-ranked chosen bottom label, the second
with the second, and so on. The paper's step swaps two pairs (``n_swap = 2``, the default):
with two, every pair of labels -- even two from the bottom -- reaches the top k with positive
probability, which Eq. 1 needs. (A single swap, as a shortened description might suggest,
never shows two bottom labels together, and the estimator would then be biased; the
exact-enumeration test shows both.) Every pair is observable only if k > n_swap and
m - k >= n_swap, so with ``n_swap = 2``: 3 <= k <= m - 2.

Pair probabilities. With T the top k of ``sigma``, q = ``n_swap`` and C the binomial
coefficient, labels a != b are both in the top k of the explored ranking with probability

- (1 - rho) + rho C(k-2, q) / C(k, q)                 if a, b in T,
- rho (k - q) / k * q / (m - k)                        if exactly one is in T,
- rho q (q - 1) / ((m - k)(m - k - 1))                 if neither is.

Estimator (Eq. 1). For a pairwise-decomposable loss L(s) = sum_{l in Y, r not in Y} f_lr(s),
the learner sees the relevance of the k shown labels only, and estimates

    L_hat(s) = sum over shown pairs (l relevant, r irrelevant) of f_lr(s) / P(l, r shown),

which is unbiased for any score vector s (Lemma 5). :func:`observed_pairs` returns the shown
pairs (as the shown relevant and irrelevant labels) and their weights 1 / P;
:func:`exploration_outcomes` enumerates every outcome of the exploration step with its
probability, so the tests can check E[L_hat] = L exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from boostrank.errors import BoostrankError


def check_feedback(m: int, k: int, n_swap: int = 2) -> None:
    """Raise unless every label pair can be shown: 2 <= n_swap < k and n_swap <= m - k."""
    if n_swap < 2:
        raise BoostrankError(
            f"n_swap must be at least 2 (got {n_swap}): with fewer swaps two labels ranked below "
            "k are never shown together and the estimator of Eq. 1 is biased"
        )
    if not (n_swap < k and n_swap <= m - k):
        raise BoostrankError(
            f"top-{k} feedback on {m} labels with {n_swap} swaps: the exploration step needs "
            f"{n_swap} < k and {n_swap} <= m - k (with the paper's two swaps: 3 <= k <= m - 2); "
            "choose another k (config topk.k) or n_swap"
        )


def pair_probability(
    a_in_top: npt.ArrayLike, b_in_top: npt.ArrayLike, m: int, k: int, rho: float, n_swap: int = 2
) -> np.ndarray:
    """P(labels a and b are both in the explored top k), from whether each is in the top k of
    the unexplored ranking (arrays of booleans, any shape)."""
    q = n_swap
    both = (1.0 - rho) + rho * comb(k - 2, q) / comb(k, q)
    one = rho * (k - q) / k * q / (m - k)
    none = rho * comb(m - k - 2, q - 2) / comb(m - k, q) if q >= 2 else 0.0
    a = np.asarray(a_in_top, dtype=bool)
    b = np.asarray(b_in_top, dtype=bool)
    return np.where(a & b, both, np.where(a | b, one, none))


def estimate_bound(m: int, k: int, rho: float, n_swap: int = 2) -> float:
    """The largest value Eq. 1's estimate of the (unweighted) rank loss takes in one round:
    every shown (relevant, irrelevant) pair misordered, maximised over which shown labels are
    relevant. The shown top k holds t labels of the unexplored top k and b from below it
    (t = k without exploration, t = k - n_swap with it); a pair's weight is 1 / P(shown) by
    the types of its labels (e.g. 45 for Emotions' m = 6, k = 3, rho = 0.2; about 2.4e4 for
    Mediamill's m = 101)."""
    w_tt, w_tb, w_bb = (
        1.0 / float(pair_probability(a, b, m, k, rho, n_swap))
        for a, b in ((True, True), (True, False), (False, False))
    )
    best = 0.0
    for t, b in ((k, 0), (k - n_swap, n_swap)):
        for i in range(t + 1):  # relevant labels among the t and the b
            for j in range(b + 1):
                total = i * (t - i) * w_tt + (i * (b - j) + j * (t - i)) * w_tb
                best = max(best, total + j * (b - j) * w_bb)
    return best


def explore(
    sigma: np.ndarray, k: int, rho: float, rng: np.random.Generator, n_swap: int = 2
) -> tuple[np.ndarray, bool]:
    """One draw of the exploration step: (the explored ranking, whether it explored)."""
    if rng.random() >= rho:
        return sigma, False
    m = len(sigma)
    top = np.sort(rng.choice(k, n_swap, replace=False))
    bottom = np.sort(rng.choice(m - k, n_swap, replace=False)) + k
    out = sigma.copy()
    out[top], out[bottom] = sigma[bottom], sigma[top]  # i-th highest with i-th highest
    return out, True


def exploration_outcomes(
    sigma: np.ndarray, k: int, rho: float, n_swap: int = 2
) -> list[tuple[float, np.ndarray]]:
    """Every outcome of :func:`explore` with its probability (for tests; small m and k)."""
    m = len(sigma)
    tops = list(combinations(range(k), n_swap))
    bottoms = list(combinations(range(k, m), n_swap))
    p = rho / (len(tops) * len(bottoms))
    outcomes = [(1.0 - rho, sigma.copy())]
    for t in tops:
        for b in bottoms:
            out = sigma.copy()
            out[list(t)], out[list(b)] = sigma[list(b)], sigma[list(t)]
            outcomes.append((p, out))
    return outcomes


def observed_pairs(
    sigma: np.ndarray,
    sigma_tilde: np.ndarray,
    y: np.ndarray,
    k: int,
    rho: float,
    n_swap: int = 2,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The shown relevant labels ``rel``, the shown irrelevant labels ``irr`` (the top k of
    the explored ranking ``sigma_tilde``) and the importance weights (len(rel), len(irr)) of
    their pairs, 1 / P(pair shown | sigma) (Eq. 1). Only ``y`` of the shown labels is read:
    the top-k feedback."""
    shown = sigma_tilde[:k]
    rel_shown = y[shown].astype(bool)
    rel, irr = shown[rel_shown], shown[~rel_shown]
    in_top = np.zeros(len(sigma), dtype=bool)
    in_top[sigma[:k]] = True
    p = pair_probability(in_top[rel][:, None], in_top[irr][None, :], len(sigma), k, rho, n_swap)
    return rel, irr, 1.0 / p


def full_pairs(y: np.ndarray, normalize: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of a fully observed row: ``rel``, ``irr`` and weights (len(rel), len(irr)),
    all 1, or 1 / (|Y| |Y^c|) when ``normalize`` (the weighted losses of Jung & Tewari, 2018)."""
    y = np.asarray(y).astype(bool)
    rel, irr = np.flatnonzero(y), np.flatnonzero(~y)
    n = len(rel) * len(irr)
    return rel, irr, np.full((len(rel), len(irr)), 1.0 / n if (normalize and n) else 1.0)


def estimate_pairwise_loss(
    s: np.ndarray,
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray],
    pair_loss: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """Eq. 1: the sum over the pairs of weight * f(s_l, s_r); ``s`` (m,) or (N, m)."""
    rel, irr, w = pairs
    s = np.asarray(s, dtype=np.float64)
    f = pair_loss(s[..., rel][..., :, None], s[..., irr][..., None, :])
    return (f * w).sum(axis=(-2, -1))


def pair_rank_loss(s_rel: np.ndarray, s_irr: np.ndarray) -> np.ndarray:
    """The rank loss of one pair: 1 if the irrelevant label scores higher, 1/2 on a tie."""
    return (s_irr > s_rel) + 0.5 * (s_irr == s_rel)


__all__ = [
    "check_feedback",
    "estimate_pairwise_loss",
    "exploration_outcomes",
    "explore",
    "full_pairs",
    "observed_pairs",
    "pair_probability",
    "pair_rank_loss",
]
