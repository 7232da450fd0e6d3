"""Ranking refinement (Valizadegan, *Boosting and Online Learning for Classification and
Ranking*, 2010, chapter 4, section 4.3): the pieces MRR (:mod:`boostrank.ranking.mrr`) and LRR
(:mod:`boostrank.ranking.lrr`) share.

- :func:`base_matrix`: the base ranker's order as ``W_ij = exp(lam g_i) / (exp(lam g_i) +
  exp(lam g_j))`` (Eq. 4.1), i.e. ``sigmoid(lam (g_i - g_j))``; ``lam = 0`` gives ``W = 1/2``.
- :func:`top_std_lambda`: the dissertation's ``lam``, the inverse of the standard deviation of
  the top 10 base-ranker scores (section 4.3.2).
- :func:`feedback_pairs`: the ordered pairs ``O`` (``x_i > x_j`` when grade i > grade j) of the
  judged documents; ``T_ij = 1 - eta/2`` on them, ``eta/2`` elsewhere (Eq. 4.3). ``T`` is never
  formed: ``T = eta/2 * 1 1^T + (1 - eta) * 1_O``.
- :class:`PairSums`: the row and column sums ``sum_j W_ij exp(F_j - F_i)`` and
  ``sum_i W_ij exp(F_j - F_i)`` (and the same for ``T``), in the log domain. The key identity
  is that ``exp(F_j - F_i) = exp(F_j) exp(-F_i)`` is rank one, so every sum over the ``n x n``
  pairs is a matrix-vector (or, for many runs at once, matrix-matrix) product with ``W``; the
  ``T`` part costs ``O(n + |O|)``. Sums include ``i = j`` (``W_ii = 1/2``, ``T_ii = eta/2``),
  as the dissertation's ``sum_{i,j=1}^n`` does; the diagonal never enters the instance weights.
- Weak learners producing ``f(x) in {0, 1}``: :func:`fit_sampled_stump` (Algorithm 6's
  procedure: sample ``s`` instances with probability proportional to ``|w_i|``, label them
  ``sign(w_i)``, fit a decision stump on the sample) and :class:`ThresholdBank` (RankBoost's
  WeakLearn, Freund et al. 2003: ``h(x) = [x_k > theta]`` over a fixed set of thresholds per
  feature, chosen to maximise ``|sum_i pi_i h(x_i)|`` for the instance potentials ``pi``;
  vectorised over many runs).
- :class:`Refiner`: the training entry MRR and LRR share, ``fit(X, base_scores, pairs)`` on
  one query: the checks, ``T``'s scope (``t_scope``), ``lam`` and ``W``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Self

import numpy as np
from scipy.special import expit, logsumexp

from boostrank.errors import BoostrankError
from boostrank.ranking.base import RankingModel

TScope = Literal["all", "judged"]

_TINY = 1e-300


def top_std_lambda(scores: np.ndarray, top: int = 10, *, floor: float = 1e-12) -> float:
    """``1 / sd`` of the ``top`` highest base-ranker scores (section 4.3.2); a zero sd gives a
    very large ``lam`` (``W`` becomes the 0 / 1/2 / 1 matrix of Eq. 4.2)."""
    g = np.sort(np.asarray(scores, dtype=np.float64))[::-1][: max(int(top), 1)]
    sd = float(g.std()) if len(g) > 1 else 0.0
    return 1.0 / max(sd, floor)


def base_matrix(scores: np.ndarray, lam: float) -> np.ndarray:
    """``W`` of Eq. 4.1 (``n x n``): the probability that the base ranker puts i before j."""
    g = np.asarray(scores, dtype=np.float64)
    if lam < 0 or not np.isfinite(lam):
        raise BoostrankError(f"lambda must be finite and >= 0, got {lam}")
    return expit(lam * (g[:, None] - g[None, :]))


def feedback_pairs(labels: np.ndarray, index: np.ndarray | None = None) -> np.ndarray:
    """The ordered pairs ``(i, j)`` with ``labels[i] > labels[j]`` (``i`` preferred), as an
    ``(m, 2)`` int array; ``index`` maps the labels' positions to instance indices."""
    y = np.asarray(labels)
    i, j = np.nonzero(y[:, None] > y[None, :])
    pairs = np.stack([i, j], axis=1).astype(np.int64)
    if index is not None:
        pairs = np.asarray(index, dtype=np.int64)[pairs]
    return pairs


def check_pairs(pairs: np.ndarray, n: int) -> np.ndarray:
    """Validate ``pairs`` as an ``(m, 2)`` int array of instance indices below ``n``."""
    p = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if len(p) and (p.min() < 0 or p.max() >= n):
        raise BoostrankError(f"feedback pair index out of range 0..{n - 1}")
    if len(p) and (p[:, 0] == p[:, 1]).any():
        raise BoostrankError("a feedback pair orders a document before itself")
    return p


def _share(part: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``part / total`` per column, 0 where the total is 0."""
    return np.divide(part, total, out=np.zeros_like(part), where=total > 0)


def _log(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(x, 0.0))


def _scatter_lse(index: np.ndarray, values: np.ndarray, size: int, cols: int) -> np.ndarray:
    """``out[r, c] = log sum exp(values[k, c] for index[k] == r)`` (``-inf`` where empty)."""
    out = np.full((size, cols), -np.inf)
    if len(index) == 0:
        return out
    order = np.argsort(index, kind="stable")
    idx, vals = index[order], values[order]
    starts = np.flatnonzero(np.r_[True, idx[1:] != idx[:-1]])
    peak = np.maximum.reduceat(vals, starts, axis=0)
    peak_rows = np.repeat(peak, np.diff(np.r_[starts, len(idx)]), axis=0)
    sums = np.add.reduceat(np.exp(vals - peak_rows), starts, axis=0)
    out[idx[starts]] = peak + np.log(sums)
    return out


@dataclass
class PairSums:
    """Log-domain sums over the pairs for ranking functions ``F`` (``n`` or ``n x G``).

    ``row_w[i] = log sum_j W_ij exp(F_j - F_i)``, ``col_w[j] = log sum_i W_ij exp(F_j - F_i)``,
    ``row_t``, ``col_t`` the same with ``T``; ``total_w = log sum_ij W_ij exp(F_j - F_i)``
    (``log err_w``, Eq. 4.6) and ``total_t`` (``log err_t``, Eq. 4.7). Shapes ``(n, G)`` and
    ``(G,)``.
    """

    row_w: np.ndarray
    col_w: np.ndarray
    row_t: np.ndarray
    col_t: np.ndarray
    total_w: np.ndarray
    total_t: np.ndarray


def pair_sums(
    W: np.ndarray,
    pairs: np.ndarray,
    eta: float,
    F: np.ndarray,
    judged: np.ndarray | None = None,
) -> PairSums:
    """:class:`PairSums` for ``F`` (``n`` or ``n x G``): two products with ``W`` (``W v`` and
    ``W^T u``, ``v = exp(F - max F)``, ``u = exp(min F - F)``), ``O(n + |O|)`` for ``T``.
    ``judged``: a boolean mask; ``T``'s ``eta/2`` part covers only the pairs of judged
    documents (``None``: every pair of the n documents)."""
    F2 = F[:, None] if F.ndim == 1 else F
    n, cols = F2.shape
    hi, lo = F2.max(axis=0), F2.min(axis=0)
    v = np.exp(F2 - hi)
    u = np.exp(lo - F2)
    row_w = (hi - F2) + _log(W @ v)
    col_w = (F2 - lo) + _log(W.T @ u)
    # T = eta/2 everywhere + (1 - eta) on O (Eq. 4.3).
    scope = F2 if judged is None else F2[judged]
    lse_pos = logsumexp(scope, axis=0)  # log sum_j exp(F_j) over T's documents
    lse_neg = logsumexp(-scope, axis=0)  # log sum_i exp(-F_i)
    base = np.full((n, 1), np.log(eta / 2.0) if eta > 0 else -np.inf)
    if judged is not None:
        base[~judged] = -np.inf
    row_t = base - F2 + lse_pos
    col_t = base + F2 + lse_neg
    if len(pairs) and eta < 1:
        i, j = pairs[:, 0], pairs[:, 1]
        diff = np.log1p(-eta) + F2[j] - F2[i]  # (1 - eta) exp(F_j - F_i), per pair
        row_t = np.logaddexp(row_t, _scatter_lse(i, diff, n, cols))
        col_t = np.logaddexp(col_t, _scatter_lse(j, diff, n, cols))
    total_w = logsumexp(row_w, axis=0)
    total_t = logsumexp(row_t, axis=0)
    return PairSums(row_w, col_w, row_t, col_t, total_w=total_w, total_t=total_t)


def block_sums(
    W: np.ndarray,
    pairs: np.ndarray,
    eta: float,
    F: np.ndarray,
    f: np.ndarray,
    judged: np.ndarray | None = None,
) -> tuple[float, float, float, float]:
    """Log of ``sum W_ij exp(F_j - F_i)`` over ``f_i = 1, f_j = 0`` and over ``f_i = 0, f_j =
    1``, then the same two with ``T`` (one run: ``F`` and ``f`` of length ``n``; ``judged`` as
    in :func:`pair_sums`)."""
    on = f.astype(bool)
    hi = F.max()
    v = np.exp(F - hi)
    prod = W @ np.stack([v * ~on, v * on], axis=1)  # columns: j in N, j in P
    lead = hi - F
    mu_w = logsumexp(lead[on] + _log(prod[on, 0])) if on.any() else -np.inf
    nu_w = logsumexp(lead[~on] + _log(prod[~on, 1])) if (~on).any() else -np.inf
    base = np.log(eta / 2.0) if eta > 0 else -np.inf

    def lse(x: np.ndarray) -> float:
        return float(logsumexp(x)) if len(x) else -np.inf

    inside = np.ones(len(F), dtype=bool) if judged is None else judged
    a, b = on & inside, ~on & inside
    mu_t = base + lse(-F[a]) + lse(F[b])
    nu_t = base + lse(-F[b]) + lse(F[a])
    if len(pairs) and eta < 1:
        i, j = pairs[:, 0], pairs[:, 1]
        diff = np.log1p(-eta) + F[j] - F[i]
        mu_t = float(np.logaddexp(mu_t, lse(diff[on[i] & ~on[j]])))
        nu_t = float(np.logaddexp(nu_t, lse(diff[~on[i] & on[j]])))
    return float(mu_w), float(nu_w), float(mu_t), float(nu_t)


class PairModel:
    """The pair weights of one query, ``W`` (Eq. 4.1) and ``T`` (Eq. 4.3), and their sums for
    ranking functions ``F`` (``n x G``: G runs at once, e.g. LRR's values of gamma).

    :meth:`sums` returns, per run, the normalised row and column sums of the two sources --
    ``rw_i = sum_j W_ij e^(F_j - F_i) / err_w``, ``cw_i = sum_j W_ji e^(F_i - F_j) / err_w``,
    ``rt``, ``ct`` likewise with ``T`` -- and ``log err_w``, ``log err_t`` (Eqs. 4.6-4.7). They
    are computed in the linear domain after shifting ``F`` (``v = exp(F - max F)``,
    ``u = exp(min F - F)``, one product each with ``W`` and ``W^T``); when ``F`` spans more than
    ``LINEAR_RANGE`` the log-domain :func:`pair_sums` is used instead.
    """

    LINEAR_RANGE = 600.0

    def __init__(
        self,
        W: np.ndarray,
        pairs: np.ndarray,
        eta: float,
        judged: np.ndarray | None = None,
        *,
        dtype: type = np.float64,
    ) -> None:
        from scipy.sparse import csr_matrix

        self.W: np.ndarray = np.asarray(W, dtype=dtype)
        self.dtype = dtype
        self.n = W.shape[0]
        self.pairs = check_pairs(pairs, self.n)
        self.eta = float(eta)
        self.judged = judged
        self.inside = np.ones(self.n) if judged is None else np.asarray(judged, dtype=float)
        m = len(self.pairs)
        ones = np.ones(m)
        self._Pi = csr_matrix((ones, (self.pairs[:, 0], np.arange(m))), shape=(self.n, m))
        self._Pj = csr_matrix((ones, (self.pairs[:, 1], np.arange(m))), shape=(self.n, m))

    def sums(self, F: np.ndarray) -> Sums:
        """:class:`Sums` for ``F`` (``n`` or ``n x G``)."""
        F2 = F[:, None] if F.ndim == 1 else F
        hi, lo = F2.max(axis=0), F2.min(axis=0)
        if (hi - lo).max() > self.LINEAR_RANGE:
            return self._log_sums(F2)
        ep = np.exp(F2 - hi)
        em = np.exp(lo - F2)
        # The products in self.dtype (float32 halves LRR's time), the rest in float64.
        Rw = em * (self.W @ ep.astype(self.dtype))  # all four scaled by exp(hi - lo)
        Cw = ep * (self.W.T @ em.astype(self.dtype))
        half = self.eta / 2.0
        mask = self.inside[:, None]
        Rt = half * em * mask * (ep * mask).sum(axis=0)
        Ct = half * ep * mask * (em * mask).sum(axis=0)
        if len(self.pairs) and self.eta < 1:
            i, j = self.pairs[:, 0], self.pairs[:, 1]
            val = (1.0 - self.eta) * em[i] * ep[j]  # (1 - eta) e^(F_j - F_i), per pair
            if val.shape[1] == 1:
                Rt[:, 0] += np.bincount(i, weights=val[:, 0], minlength=self.n)
                Ct[:, 0] += np.bincount(j, weights=val[:, 0], minlength=self.n)
            else:
                Rt += self._Pi @ val
                Ct += self._Pj @ val
        Sw, St = Rw.sum(axis=0), Rt.sum(axis=0)
        return Sums(
            rw=_share(Rw, Sw),
            cw=_share(Cw, Sw),
            rt=_share(Rt, St),  # no judged document (t_scope "judged"): T = 0, err_t = 0
            ct=_share(Ct, St),
            log_w=_log(Sw) + hi - lo,
            log_t=_log(St) + hi - lo,
            F=F2,
            linear=(ep, em, Sw, St),
        )

    def _log_sums(self, F2: np.ndarray) -> Sums:
        ps = pair_sums(self.W, self.pairs, self.eta, F2, self.judged)
        tw, tt = ps.total_w, ps.total_t
        return Sums(
            rw=np.exp(ps.row_w - tw),
            cw=np.exp(ps.col_w - tw),
            rt=np.exp(ps.row_t - tt),
            ct=np.exp(ps.col_t - tt),
            log_w=tw,
            log_t=tt,
            F=F2,
            linear=None,
        )

    def blocks(self, s: Sums, f: np.ndarray) -> tuple[float, float]:
        """For one run and a weak learner's 0/1 outputs ``f``: ``mu = sum gamma_ij`` over
        ``f_i = 1, f_j = 0`` and ``nu`` over ``f_i = 0, f_j = 1``, with ``gamma = a + b``
        (Eqs. 4.11-4.12; Algorithm 6, step 8)."""
        F = s.F[:, 0]
        on = np.asarray(f) > 0
        if s.linear is None:
            mw, nw, mt, nt = block_sums(self.W, self.pairs, self.eta, F, on, judged=self.judged)
            tw, tt = float(s.log_w[0]), float(s.log_t[0])
            return (
                float(np.exp(mw - tw) + np.exp(mt - tt)),
                float(np.exp(nw - tw) + np.exp(nt - tt)),
            )
        ep, em, Sw, St = (a[:, 0] if a.ndim == 2 else a[0] for a in s.linear)
        prod = self.W @ np.stack([ep * ~on, ep * on], axis=1)
        mu_w = float(em[on] @ prod[on, 0])
        nu_w = float(em[~on] @ prod[~on, 1])
        half = self.eta / 2.0
        ins = self.inside > 0
        a, b = on & ins, ~on & ins
        mu_t = half * em[a].sum() * ep[b].sum()
        nu_t = half * em[b].sum() * ep[a].sum()
        if len(self.pairs) and self.eta < 1:
            i, j = self.pairs[:, 0], self.pairs[:, 1]
            val = (1.0 - self.eta) * em[i] * ep[j]
            mu_t += val[on[i] & ~on[j]].sum()
            nu_t += val[~on[i] & on[j]].sum()
        mu = mu_w / Sw + (mu_t / St if St > 0 else 0.0)
        nu = nu_w / Sw + (nu_t / St if St > 0 else 0.0)
        return float(mu), float(nu)


@dataclass
class Sums:
    """Normalised row/column sums of W and T for ``F`` (each ``n x G``; see :class:`PairModel`),
    ``log err_w`` and ``log err_t`` (``G``), and the shifted exponentials of the linear path."""

    rw: np.ndarray
    cw: np.ndarray
    rt: np.ndarray
    ct: np.ndarray
    log_w: np.ndarray
    log_t: np.ndarray
    F: np.ndarray
    linear: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None


# --------------------------------------------------------------------------- weak learners
@dataclass(frozen=True)
class Stump:
    """``f(x) = [x_k > theta]`` (``above``) or ``[x_k <= theta]``, values in {0, 1}."""

    feature: int
    threshold: float
    above: bool

    def predict(self, X: np.ndarray) -> np.ndarray:
        """0/1 predictions (float) for the rows of X."""
        col = np.asarray(X)[:, self.feature]
        return ((col > self.threshold) if self.above else (col <= self.threshold)).astype(float)


def sample_size(n: int, minimum: int = 20, fraction: float = 0.2) -> int:
    """Algorithm 6's ``s = max(20, n / 5)`` (section 4.3.4)."""
    return max(int(minimum), int(np.ceil(n * fraction)))


def fit_sampled_stump(
    X: np.ndarray, w: np.ndarray, s: int, rng: np.random.Generator
) -> Stump | None:
    """Algorithm 6, steps 5-6: draw ``s`` instances with replacement, probability
    proportional to ``|w_i|``, label them ``sign(w_i)`` and fit the stump of highest accuracy on
    the sample (equivalently the largest ``sum y_i f(x_i)``, Eq. 4.13 on the sample); the
    threshold is the midpoint between two adjacent sampled values. ``None`` when every
    feature is constant on the sample (or all weights are 0)."""
    a = np.abs(w)
    total = a.sum()
    if not total > 0:
        return None
    cdf = np.cumsum(a / total)
    idx = np.minimum(np.searchsorted(cdf, rng.random(s), side="right"), len(w) - 1)
    return fit_stump(X[idx], np.sign(w[idx]))


def fit_stump(Xs: np.ndarray, ys: np.ndarray, weights: np.ndarray | None = None) -> Stump | None:
    """The decision stump maximising ``sum_i weights_i ys_i f(x_i)`` over features, thresholds
    (midpoints of adjacent distinct values) and both polarities; first maximum on ties."""
    Xt = np.ascontiguousarray(np.asarray(Xs, dtype=np.float64).T)  # (d, s)
    y = np.asarray(ys, dtype=np.float64) * (1.0 if weights is None else np.asarray(weights))
    order = np.argsort(Xt, axis=1)  # ties never split: thresholds sit between distinct values
    xs = np.take_along_axis(Xt, order, axis=1)
    cs = np.cumsum(y[order], axis=1)  # sum of y over the first p + 1 sorted values
    total = cs[:, -1:]
    valid = xs[:, 1:] > xs[:, :-1]  # split between positions p and p + 1
    if not valid.any():
        return None
    gt = np.where(valid, total - cs[:, :-1], -np.inf)  # f = 1 above the threshold
    le = np.where(valid, cs[:, :-1], -np.inf)  # f = 1 at or below it
    both = np.stack([gt, le])  # (2, d, s - 1)
    pol, k, p = np.unravel_index(int(np.argmax(both)), both.shape)
    threshold = 0.5 * (xs[k, p] + xs[k, p + 1])
    return Stump(int(k), float(threshold), bool(pol == 0))


class ThresholdBank:
    """RankBoost's WeakLearn (Freund, Iyer, Schapire and Singer 2003, section 3.2 / Fig. 4):
    weak rankers ``h(x) = [x_k > theta]`` for a fixed set of thresholds per feature.

    Per feature, the thresholds are the midpoints between adjacent distinct values, thinned to
    at most ``n_thresholds`` evenly spaced ones (by rank among the distinct values). ``H``
    holds every candidate's 0/1 outputs (``n x K``), so the scores of all candidates for many
    runs at once are one product ``H^T pi``.
    """

    def __init__(self, X: np.ndarray, n_thresholds: int = 16, *, dtype: type = np.float64) -> None:
        X = np.asarray(X, dtype=np.float64)
        feats, thetas, cols = [], [], []
        for k in range(X.shape[1]):
            u = np.unique(X[:, k])
            if len(u) < 2:
                continue
            mids = 0.5 * (u[1:] + u[:-1])
            if len(mids) > n_thresholds:
                pick = np.unique(np.linspace(0, len(mids) - 1, n_thresholds).round().astype(int))
                mids = mids[pick]
            feats.extend([k] * len(mids))
            thetas.extend(mids.tolist())
            cols.append(X[:, [k]] > mids[None, :])
        self.features = np.asarray(feats, dtype=np.int64)
        self.thresholds = np.asarray(thetas, dtype=np.float64)
        n = X.shape[0]
        self.H: np.ndarray = (
            np.concatenate(cols, axis=1).astype(dtype) if cols else np.zeros((n, 0), dtype)
        )

    @property
    def size(self) -> int:
        """Number of candidate weak rankers."""
        return int(self.H.shape[1])

    def best(self, pi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For potentials ``pi`` (``n`` or ``n x G``), per column: the candidate maximising
        ``|r|``, ``r = sum_i pi_i h_i``, and ``r`` (signed; ``h`` and ``1 - h`` are equally
        good when ``sum_i pi_i = 0``). Index -1 when there is no candidate."""
        P = pi[:, None] if pi.ndim == 1 else pi
        if self.size == 0:
            return np.full(P.shape[1], -1), np.zeros(P.shape[1])
        r = (self.H.T @ P.astype(self.H.dtype)).astype(np.float64)  # (K, G)
        idx = np.argmax(np.abs(r), axis=0)
        return idx, r[idx, np.arange(P.shape[1])]

    def stump(self, index: int, r: float) -> Stump:
        """Candidate ``index`` as a :class:`Stump` (polarity flipped when ``r < 0``)."""
        return Stump(int(self.features[index]), float(self.thresholds[index]), bool(r >= 0))


__all__ = [
    "PairModel",
    "PairSums",
    "Stump",
    "Sums",
    "ThresholdBank",
    "base_matrix",
    "block_sums",
    "check_pairs",
    "feedback_pairs",
    "fit_sampled_stump",
    "fit_stump",
    "pair_sums",
    "sample_size",
    "top_std_lambda",
]


def t_mask(t_scope: str, n: int, pairs: np.ndarray, judged: np.ndarray | None) -> np.ndarray | None:
    """The documents ``T``'s ``eta/2`` part covers: ``all`` (None) or the ``judged`` ones (the
    given mask, else every document in a pair)."""
    if t_scope == "all":
        return None
    if t_scope != "judged":
        raise BoostrankError(f"unknown t_scope {t_scope!r}; choose all or judged")
    if judged is None:
        mask = np.zeros(n, dtype=bool)
        mask[np.asarray(pairs, dtype=np.int64).ravel()] = True
        return mask
    mask = np.asarray(judged, dtype=bool)
    if mask.shape != (n,):
        raise BoostrankError(f"judged mask has shape {mask.shape}, expected ({n},)")
    return mask


class Refiner(RankingModel):
    """Ranking refinement of one query (section 4.3): ``fit(X, base_scores, pairs)``, then the
    refiner's boosting, ``_refine``. Parameters ``eta`` (Eq. 4.3), ``lam`` (Eq. 4.1; None:
    :func:`top_std_lambda` of the top ``lam_top`` base scores) and ``t_scope``."""

    eta: float
    lam: float | None
    lam_top: int
    t_scope: TScope

    def fit(
        self,
        X: np.ndarray,
        base_scores: np.ndarray,
        pairs: np.ndarray,
        *,
        judged: np.ndarray | None = None,
        W: np.ndarray | None = None,
    ) -> Self:
        """Refine on one query: ``X`` (n x d), the base ranker's scores ``g`` (n), ``pairs``
        (m x 2, ``x_i`` preferred to ``x_j``), ``judged`` (mask of the documents with feedback,
        used when ``t_scope="judged"``). ``W`` may be passed precomputed (Eq. 4.1)."""
        X = self.as_features(X)
        n = X.shape[0]
        if not 0.0 <= self.eta <= 1.0:
            raise BoostrankError(f"{type(self).__name__}: eta must be in [0, 1], got {self.eta}")
        pairs = check_pairs(pairs, n)
        scope = t_mask(self.t_scope, n, pairs, judged)
        g = np.asarray(base_scores, dtype=np.float64)
        self.lam_ = top_std_lambda(g, self.lam_top) if self.lam is None else float(self.lam)
        if W is None:
            W = base_matrix(g, self.lam_)
        self._refine(X, pairs, scope, W)
        return self

    def _refine(
        self, X: np.ndarray, pairs: np.ndarray, scope: np.ndarray | None, W: np.ndarray
    ) -> None:
        """The refiner's boosting on checked inputs."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _refine")
