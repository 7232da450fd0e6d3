"""The exponential gradient algorithm for online multi-class learning with partial feedback:
Valizadegan (2010), *Boosting and Online Learning for Classification and Ranking*, chapter 5,
section 5.3.4, Algorithm 9 (Eqs. 5.10-5.14).

theta^0 = 1 1^T / d; W is the column-wise softmax of theta, W_ik = exp(theta_ik) / Z_k with
Z_k = sum_i exp(theta_ik) (step 4); y_hat = argmax_k x^T w_k (Eq. 5.13); y~ is drawn as in the
Banditron; delta = 1_{y_hat} - 1_{y~} [y = y~] / p_{y_hat} as Eq. 5.14 prints it
(``importance="p_hat"``; ``"p_tilde"`` divides by p_{y~} as the Banditron's Algorithm 7 does,
the one weight for which E[delta] = tau of Proposition 3 holds); theta <- theta - eta x
delta^T (step 11). The step size is Eq. 5.12, eta = sqrt(K (1 - gamma) ln K / (T gamma)),
times ``eta_factor``: section 5.4 "further multiple[s] the step size with a small factor
(typically 10^-5)", the default. The inputs are whatever the caller passes; Theorem 13's bound
assumes ||x||_inf <= 1, and section 5.4 does not say the data were scaled.

The softmax is computed in log-sum-exp form, W_ik = exp(theta_ik - m_k) / sum_i exp(theta_ik -
m_k) with m_k = max_i theta_ik, which cannot overflow at any step size, so ``eta_factor=1.0``
(Eq. 5.12 alone) runs too; Figure 5.1's supplementary sweep (``thesis-supp5_eta``) shows how
the factor and the input scale move the error.

Vectorised over R runs: theta and E = exp(theta - m) are (R, K, d) arrays, Z is (R, K); a trial
changes at most two columns of theta, so only those columns of E, m and Z are recomputed (from
theta, exactly as a full softmax would give them). ``coef_`` is W as (R, d, K);
``theta_shift_`` is max |theta - theta^0| of each run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.online.banditron import _check_gamma, delta_weight, sample_labels
from boostrank.online.streams import MulticlassLearner


def eg_step_size(
    gamma: np.ndarray | float, n_classes: int, n_trials: int, factor: float = 1.0
) -> np.ndarray:
    """Eq. 5.12 times ``factor``: factor * sqrt(K (1 - gamma) ln K / (T gamma))."""
    g = np.asarray(gamma, dtype=np.float64)
    K = n_classes
    return factor * np.sqrt(K * (1.0 - g) * np.log(K) / (n_trials * g))


class ExponentialGradient(MulticlassLearner):
    """Algorithm 9 over R runs; ``gamma`` scalar or (R,), ``n_trials`` the T of Eq. 5.12."""

    def __init__(
        self,
        n_features: int,
        n_classes: int,
        seeds: Sequence[int] | np.ndarray,
        gamma: float | Sequence[float] | np.ndarray = 0.1,
        n_trials: int = 1000,
        eta_factor: float = 1e-5,
        importance: str = "p_hat",
    ) -> None:
        super().__init__(n_features, n_classes, seeds)
        if importance not in ("p_tilde", "p_hat"):
            raise BoostrankError(f"importance must be 'p_tilde' or 'p_hat', not '{importance}'")
        if n_trials < 1 or eta_factor <= 0:
            raise BoostrankError("n_trials must be >= 1 and eta_factor > 0")
        g = np.broadcast_to(np.asarray(gamma, dtype=np.float64), (self.n_runs,)).copy()
        _check_gamma(g, "bandit")
        self._gamma = g
        self.importance = importance
        self.eta_ = eg_step_size(g, self.n_classes, int(n_trials), eta_factor)
        shape = (self.n_runs, self.n_classes, self.n_features)
        self._theta = np.full(shape, 1.0 / self.n_features)  # step 2: theta^0 = 1 1^T / d
        self._e = np.ones(shape)  # exp(theta - m) with m the column maximum (log-sum-exp)
        self._z = self._e.sum(axis=2)

    @property
    def coef_(self) -> np.ndarray:
        """W = column-wise softmax of theta, as (R, d, K)."""
        return (self._e / self._z[:, :, None]).transpose(0, 2, 1)

    def _scores(self, x: np.ndarray) -> np.ndarray:
        return np.matmul(self._e, x[:, :, None])[:, :, 0] / self._z

    def predict(self, X: np.ndarray) -> np.ndarray:
        """y_hat = argmax_k x^T w_k for one x per run: X (R, d) -> (R,)."""
        return self._scores(np.asarray(X, dtype=np.float64)).argmax(1)

    @property
    def theta_shift_(self) -> np.ndarray:
        """max |theta - theta^0| of each run: how far the multiplicative weights moved."""
        return np.abs(self._theta - 1.0 / self.n_features).max(axis=(1, 2))

    def _refresh(self, k: np.ndarray) -> None:
        rows = self._rows
        theta = self._theta[rows, k]
        col = np.exp(theta - theta.max(axis=1, keepdims=True))  # no overflow at any scale
        self._e[rows, k] = col
        self._z[rows, k] = col.sum(axis=1)

    def _trial(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        K, gamma = self.n_classes, self._gamma
        y_hat = self._scores(x).argmax(1)
        y_tilde, p_tilde = sample_labels(y_hat, self._uniforms.next(), gamma, K)
        c = delta_weight(y, y_hat, y_tilde, p_tilde, 1.0 - gamma + gamma / K, self.importance)
        same = y_tilde == y_hat  # theta <- theta - eta x delta^T, two columns (step 11)
        a = self.eta_ * (1.0 - c * same)
        b = self.eta_ * (c * ~same)
        theta, rows = self._theta, self._rows
        theta[rows, y_hat] -= a[:, None] * x
        theta[rows, y_tilde] += b[:, None] * x
        self._refresh(y_hat)
        self._refresh(y_tilde)
        self.t_ += 1
        return y_tilde
