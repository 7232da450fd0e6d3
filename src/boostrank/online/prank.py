"""The PRank family of online ordinal rankers: Crammer and Singer (2005), "Online Ranking by
Projecting", Neural Computation 17(1).

A ranking rule is a vector w and thresholds b_1 <= ... <= b_{k-1} (b_k = inf); it predicts
``y_hat = min{r : w.x - b_r < 0}`` (section 2). Every learner here runs R independent sequences
at once: w is an (R, d) array, b an (R, k-1) array, and each round is one array operation for
all runs (``partial_fit(X, y)`` with X of shape (R, d) and ranks y in 1..k of shape (R,),
returning the predicted ranks: :class:`boostrank.online.base.OnlineLearner`).

- :class:`PRank` (Figure 2): on a mistake, ``y_r = +1`` if ``y > r`` else -1,
  ``tau_r = y_r [(w.x - b_r) y_r <= 0]``, ``w += (sum_r tau_r) x``, ``b_r -= tau_r``. With
  b initialised to 0 the thresholds stay integers (Lemma 1's proof).
- :class:`SiPRank` (section 3, end): only threshold ``r = y_hat - 1`` (if ``y_hat > y``) or
  ``r = y_hat`` (otherwise) moves: ``w += tau_r x``, ``b_r -= tau_r``.
- :class:`NoPRank` (Figure 3): on a mistake, the projection of (w, b) onto
  ``{(w.x - b_r) y_r >= beta for all r}`` (problem 4.1), through its dual (4.5):
  ``min_{tau >= 0} 1/2 |x|^2 (sum tau_r y_r)^2 + 1/2 sum tau_r^2 + sum tau_r (y_r(w.x - b_r) -
  beta)``, solved exactly by enumerating the 2^(k-1) supports (Sherman-Morrison on each
  support; the best primal-feasible candidate is the optimum), then ``w += (sum tau_r y_r) x``
  and ``b_r -= tau_r y_r`` (4.3, 4.4).
- :class:`MuPRank` (Figure 5): w and b start at 1/(n + k - 1); on a mistake
  ``w_i *= exp(eta x_i sum_r tau_r) / Z``, ``b_r *= exp(-eta tau_r) / Z`` with Z making
  ``|(w, b)|_1 = 1``; kept in the log domain (numerically safe for eta = 16). Needs
  ``|x|_inf <= 1``.

The degree-2 polynomial kernel ``K(x, x') = (x.x' + 1)^2`` of section 6 is applied through its
explicit feature map (:func:`poly2_features`); :func:`kernel_prank_scores` is PRank in its dual
(kernel) form for one sequence, the reference the explicit map is tested against.
"""

from __future__ import annotations

import itertools

import numpy as np

from boostrank.errors import BoostrankError


def poly2_features(X: np.ndarray) -> np.ndarray:
    """Explicit map of ``(x.x' + 1)^2``: ``(1, sqrt2 x_i, x_i^2, sqrt2 x_i x_j (i < j))``."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[-1]
    i, j = np.triu_indices(n, 1)
    root2 = np.sqrt(2.0)
    return np.concatenate(
        [np.ones((*X.shape[:-1], 1)), root2 * X, X**2, root2 * X[..., i] * X[..., j]], axis=-1
    )


def poly2_kernel(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``(A B^T + 1)^2``."""
    return (np.asarray(A, dtype=np.float64) @ np.asarray(B, dtype=np.float64).T + 1.0) ** 2


def rank_signs(y: np.ndarray, k: int) -> np.ndarray:
    """``y_r = +1`` if ``y > r`` else -1, for r = 1..k-1: shape (R, k-1)."""
    return np.where(np.asarray(y)[:, None] > np.arange(1, k)[None, :], 1.0, -1.0)


def predict_ranks(scores: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``min{r : score - b_r < 0}`` with ``b_k = inf``; scores (R,), b (R, k-1) -> ranks (R,)."""
    below = scores[:, None] - b < 0
    return np.where(below.any(axis=1), below.argmax(axis=1) + 1, b.shape[1] + 1)


class ThresholdRanker:
    """Shared state and prediction of the threshold rankers: w (R, d), b (R, k-1)."""

    def __init__(self, n_features: int, k: int, *, n_runs: int = 1) -> None:
        if k < 2 or n_runs < 1 or n_features < 1:
            raise BoostrankError(
                f"need k >= 2, runs >= 1, features >= 1; got {k}, {n_runs}, {n_features}"
            )
        self.k = k
        self.w = np.zeros((n_runs, n_features))
        self.b = np.zeros((n_runs, k - 1))

    def scores(self, X: np.ndarray) -> np.ndarray:
        """``w.x`` per run."""
        return np.einsum("rd,rd->r", self.w, X)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted ranks, one per run."""
        return predict_ranks(self.scores(X), self.b)

    def partial_fit(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Predict, receive ``y``, update; returns the prediction."""
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y)
        s = self.scores(X)
        y_hat = predict_ranks(s, self.b)
        miss = y_hat != y
        if miss.any():
            self._update(X, y, y_hat, s, miss)
        return y_hat

    def _update(
        self, X: np.ndarray, y: np.ndarray, y_hat: np.ndarray, s: np.ndarray, miss: np.ndarray
    ) -> None:
        raise NotImplementedError


class PRank(ThresholdRanker):
    """PRank (Figure 2)."""

    def _update(self, X, y, y_hat, s, miss):  # type: ignore[no-untyped-def]
        ys = rank_signs(y, self.k)
        tau = np.where((s[:, None] - self.b) * ys <= 0, ys, 0.0) * miss[:, None]  # step 2
        self.w += tau.sum(axis=1)[:, None] * X  # step 3
        self.b -= tau


class SiPRank(ThresholdRanker):
    """Si-PRank: PRank's skeleton, one threshold per update (section 3)."""

    def _update(self, X, y, y_hat, s, miss):  # type: ignore[no-untyped-def]
        r = np.where(y_hat > y, y_hat - 1, y_hat) - 1  # step 3 (0-based threshold index)
        r = np.clip(r, 0, self.k - 2)
        rows = np.arange(len(y))
        y_r = np.where(y > r + 1, 1.0, -1.0)
        tau = np.where((s - self.b[rows, r]) * y_r <= 0, y_r, 0.0) * miss
        self.w += tau[:, None] * X  # step 4
        self.b[rows, r] -= tau


def _supports(k: int) -> np.ndarray:
    return np.array(list(itertools.product([False, True], repeat=k - 1)), dtype=bool)


def noprank_dual(sq_norm: np.ndarray, ys: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Exact minimiser of (4.5) per run: ``1/2 a (tau.y)^2 + 1/2 |tau|^2 + tau.c``, tau >= 0,
    with ``a = |x|^2`` (R,), ``y_r`` and ``c_r = y_r (w.x - b_r) - beta`` (R, k-1).

    Each support S gives ``tau_S = -c_S + y_S a (y_S.c_S) / (1 + a |S|)`` (Sherman-Morrison);
    the optimum is the primal-feasible candidate of least objective (its own support's
    candidate is feasible and no feasible point beats the optimum)."""
    masks = _supports(ys.shape[1] + 1)  # (S, K)
    size = masks.sum(axis=1)
    yc = (ys * c) @ masks.T  # (R, S): y_S . c_S
    coef = sq_norm[:, None] * yc / (1.0 + sq_norm[:, None] * size[None, :])
    tau = masks[None] * (-c[:, None, :] + ys[:, None, :] * coef[:, :, None])  # (R, S, K)
    ytau = np.einsum("rsk,rk->rs", tau, ys)
    value = (
        0.5 * sq_norm[:, None] * ytau**2 + 0.5 * (tau**2).sum(-1) + np.einsum("rsk,rk->rs", tau, c)
    )
    feasible = (tau >= -1e-12).all(axis=2)
    best = np.where(feasible, value, np.inf).argmin(axis=1)
    return np.maximum(tau[np.arange(len(best)), best], 0.0)


class NoPRank(ThresholdRanker):
    """No-PRank (Figure 3) with margin ``beta``."""

    def __init__(self, n_features: int, k: int, *, n_runs: int = 1, beta: float = 1.0) -> None:
        super().__init__(n_features, k, n_runs=n_runs)
        if not beta > 0:
            raise BoostrankError(f"No-PRank: beta must be positive, got {beta}")
        self.beta = beta
        self.tau_sum = np.zeros(n_runs)  # sum_t sum_r tau_r^t, bounded by Theorem 3

    def _update(self, X, y, y_hat, s, miss):  # type: ignore[no-untyped-def]
        ys = rank_signs(y, self.k)
        c = ys * (s[:, None] - self.b) - self.beta
        tau = noprank_dual(np.einsum("rd,rd->r", X, X), ys, c) * miss[:, None]
        self.w += (tau * ys).sum(axis=1)[:, None] * X  # (4.3)
        self.b -= tau * ys  # (4.4)
        self.tau_sum += tau.sum(axis=1)


class MuPRank(ThresholdRanker):
    """Mu-PRank (Figure 5) with learning rate ``eta``; (w, b) kept as logarithms."""

    def __init__(self, n_features: int, k: int, *, n_runs: int = 1, eta: float = 1.0) -> None:
        super().__init__(n_features, k, n_runs=n_runs)
        if not eta > 0:
            raise BoostrankError(f"Mu-PRank: eta must be positive, got {eta}")
        self.eta = eta
        start = -np.log(n_features + k - 1.0)  # w_i = b_r = 1/(n + k - 1)
        self.log_w = np.full((n_runs, n_features), start)
        self.log_b = np.full((n_runs, k - 1), start)
        self._sync()

    def _sync(self) -> None:
        self.w = np.exp(self.log_w)
        self.b = np.exp(self.log_b)

    def partial_fit(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """As :meth:`ThresholdRanker.partial_fit`; rejects ``|x|_inf > 1`` (Figure 5's input)."""
        if np.abs(X).max(initial=0.0) > 1.0 + 1e-12:
            raise BoostrankError("Mu-PRank needs |x|_inf <= 1 (Figure 5); rescale the features")
        return super().partial_fit(X, y)

    def _update(self, X, y, y_hat, s, miss):  # type: ignore[no-untyped-def]
        ys = rank_signs(y, self.k)
        tau = np.where((s[:, None] - self.b) * ys <= 0, ys, 0.0) * miss[:, None]  # step 2
        log_w = self.log_w + self.eta * X * tau.sum(axis=1)[:, None]  # steps 3-4
        log_b = self.log_b - self.eta * tau
        top = np.maximum(log_w.max(axis=1), log_b.max(axis=1))[:, None]
        log_z = top + np.log(
            np.exp(log_w - top).sum(1, keepdims=True) + np.exp(log_b - top).sum(1, keepdims=True)
        )
        self.log_w = log_w - log_z
        self.log_b = log_b - log_z
        self._sync()


def kernel_prank_scores(
    X: np.ndarray, y: np.ndarray, k: int, kernel: str = "poly2"
) -> tuple[np.ndarray, np.ndarray]:
    """PRank in its dual form on one sequence (section 2, end): ``w.x_t = sum_{s<t} alpha_s
    K(x_s, x_t)`` with ``alpha_s = sum_r tau_r^s``. Returns the predictions and final
    thresholds; a reference for the explicit feature map (a loop over rounds, for tests)."""
    if kernel != "poly2":
        raise BoostrankError(f"unknown kernel {kernel!r}")
    X = np.asarray(X, dtype=np.float64)
    gram = poly2_kernel(X, X)
    alpha = np.zeros(len(X))
    b = np.zeros(k - 1)
    preds = np.empty(len(X), dtype=np.int64)
    for t in range(len(X)):
        s = float(alpha[:t] @ gram[:t, t])
        preds[t] = predict_ranks(np.array([s]), b[None, :])[0]
        if preds[t] != y[t]:
            ys = rank_signs(np.array([y[t]]), k)[0]
            tau = np.where((s - b) * ys <= 0, ys, 0.0)
            alpha[t] = tau.sum()
            b -= tau
    return preds, b
