"""The two online baselines of Crammer and Singer (2005), "Online Ranking by Projecting", section
6, applied to ranking: the multiclass perceptron (MCP) and Widrow-Hoff regression (WH). Both
run R sequences at once with the interface of :mod:`boostrank.online.prank`
(``partial_fit(X, y)``: X (R, d), ranks y in 1..k (R,), returns the predicted ranks, as
:class:`boostrank.online.base.OnlineLearner` has it).

- :class:`MCP`: Crammer and Singer (2001), "Ultraconservative online algorithms for multiclass
  problems": k prototypes, ``y_hat = argmax_r M_r.x`` (ties: the lowest rank); on a mistake
  ``M_y += x`` and every rank of the error set ``E = {r != y : M_r.x >= M_y.x}`` loses
  ``x / |E|`` (``update="uniform"``, the default) or only ``y_hat`` loses x (``"max"``).
- :class:`WidrowHoff`: Widrow and Hoff (1960), least-mean-squares regression on the rank value
  with a constant learning rate, updated every round, ``w += eta (y - w.x) x``; the prediction
  is rounded to the closest rank in 1..k (section 6). The paper's WH keeps "a single vector w
  of size n", so no intercept by default (``intercept=True`` adds a bias term).
"""

from __future__ import annotations

import numpy as np

from boostrank.errors import BoostrankError


class MCP:
    """Multiclass perceptron over R runs: prototypes (R, k, d)."""

    def __init__(
        self, n_features: int, k: int, *, n_runs: int = 1, update: str = "uniform"
    ) -> None:
        if update not in ("uniform", "max"):
            raise BoostrankError(f"MCP update must be uniform or max, got {update!r}")
        self.k = k
        self.update = update
        self.M = np.zeros((n_runs, k, n_features))

    def predict(self, X: np.ndarray) -> np.ndarray:
        """``argmax_r M_r.x + 1`` per run."""
        return np.einsum("rkd,rd->rk", self.M, X).argmax(axis=1) + 1

    def partial_fit(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Predict, receive ``y``, update on a mistake; returns the prediction."""
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y)
        s = np.einsum("rkd,rd->rk", self.M, X)
        y_hat = s.argmax(axis=1) + 1
        miss = y_hat != y
        rows = np.arange(len(y))
        if self.update == "uniform":
            error = (s >= s[rows, y - 1][:, None]) & miss[:, None]
            error[rows, y - 1] = False
            share = error / np.maximum(error.sum(axis=1), 1)[:, None]
        else:
            share = np.zeros_like(s)
            share[rows, y_hat - 1] = miss
        gain = -share
        gain[rows, y - 1] += miss
        self.M += gain[:, :, None] * X[:, None, :]
        return y_hat


class WidrowHoff:
    """Widrow-Hoff (LMS) regression on the rank, rounded to the closest rank."""

    def __init__(
        self,
        n_features: int,
        k: int,
        *,
        n_runs: int = 1,
        learning_rate: float = 0.01,
        intercept: bool = False,
    ) -> None:
        if not learning_rate > 0:
            raise BoostrankError(f"WH learning rate must be positive, got {learning_rate}")
        self.k = k
        self.learning_rate = learning_rate
        self.intercept = intercept
        self.w = np.zeros((n_runs, n_features))
        self.bias = np.zeros(n_runs)

    def regress(self, X: np.ndarray) -> np.ndarray:
        """``w.x (+ bias)`` per run."""
        return np.einsum("rd,rd->r", self.w, X) + self.bias

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The regression rounded to the closest rank (halves round up), clipped to 1..k."""
        return np.clip(np.floor(self.regress(X) + 0.5), 1, self.k).astype(np.int64)

    def partial_fit(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Predict, receive ``y``, take one LMS step; returns the prediction."""
        X = np.asarray(X, dtype=np.float64)
        p = self.regress(X)
        y_hat = np.clip(np.floor(p + 0.5), 1, self.k).astype(np.int64)
        error = self.learning_rate * (np.asarray(y, dtype=np.float64) - p)
        self.w += error[:, None] * X
        if self.intercept:
            self.bias += error
        return y_hat
