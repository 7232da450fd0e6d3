"""The Banditron (Kakade, Shalev-Shwartz & Tewari 2008) as Valizadegan (2010), *Boosting and
Online Learning for Classification and Ranking*, states it in Algorithm 7 (chapter 5) and, with
an adaptive gamma_t, Algorithm 10 (chapter 6); and Banditron_Pos (section 5.4).

Each trial, for every run at once:

- y_hat = argmax_k x^T w_k (Eq. 5.3; ties go to the lowest class index, W starts at 0);
- p_k = (1 - gamma)[k = y_hat] + gamma / K, and y~ is drawn from p: with one uniform u,
  y~ = floor(u K / gamma) if u < gamma, else y_hat (this has exactly the law p);
- the learner predicts y~ and is told only [y = y~]; a mistake is y~ != y;
- delta = 1_{y_hat} - 1_{y~} [y = y~] / p_{y~}, and W <- W - x delta^T.

Algorithm 7 (and 10) divide by p_{y~}, the default (``importance="p_tilde"``), the one weight
for which E[delta] = 1_{y_hat} - 1_y (Proposition 3); ``"p_hat"`` divides by p_{y_hat} as the
general framework's Algorithm 8 and the exponential gradient's Algorithm 9 print it.

``feedback="full"`` substitutes the expectation E[delta] = 1_{y_hat} - 1_y for the bandit
estimate (the learner sees y): with gamma = 0 it is the multi-class Perceptron.

Banditron_Pos (``positive=True``): negative weights are set to 0 after every update (section 5.4,
the projection onto the positive orthant).

Vectorised over R runs: W is one (R, K, d) array (each class's weight vector contiguous, which
makes the scores one batched matrix-vector product and the update two row scatters); ``coef_``
is the (R, d, K) view of the text's W. gamma is a scalar, an (R,) array (e.g. a grid of gamma
values along the run axis), or an adaptive rule (``adaptive_exploration.AdaptiveGamma``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.online.streams import MulticlassLearner

GammaRule = Callable[[int, np.ndarray, np.ndarray], np.ndarray]


def sample_labels(
    y_hat: np.ndarray, u: np.ndarray, gamma: np.ndarray, n_classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """Draw y~ ~ p with p_k = (1 - gamma)[k = y_hat] + gamma/K (Algorithm 7, steps 6-7) from
    uniforms ``u``; returns y~ and p_{y~}."""
    K = n_classes
    explore = u < gamma
    k = np.minimum(u * K / np.maximum(gamma, 1e-300), K - 1).astype(np.intp)
    y_tilde = np.where(explore, k, y_hat)
    p_tilde = np.where(y_tilde == y_hat, 1.0 - gamma + gamma / K, gamma / K)
    return y_tilde, p_tilde


def label_probability(y_hat: np.ndarray, gamma: np.ndarray, n_classes: int) -> np.ndarray:
    """The full sampling distribution p, (R, K) (for checks; the learners sample directly)."""
    y_hat = np.asarray(y_hat)
    gamma = np.broadcast_to(np.asarray(gamma, dtype=np.float64), y_hat.shape)
    p = np.repeat((gamma / n_classes)[:, None], n_classes, axis=1)
    p[np.arange(len(y_hat)), y_hat] += 1.0 - gamma
    return p


def delta_weight(
    y: np.ndarray,
    y_hat: np.ndarray,
    y_tilde: np.ndarray,
    p_tilde: np.ndarray,
    p_hat: np.ndarray,
    importance: str = "p_tilde",
) -> np.ndarray:
    """c = [y = y~] / p, the weight of -1_{y~} in delta (Eq. of Algorithm 7 step 9; Eq. 5.14
    with ``importance="p_hat"``)."""
    hit = y_tilde == y
    return hit / (p_tilde if importance == "p_tilde" else p_hat)


def dense_delta(y_hat: np.ndarray, j: np.ndarray, c: np.ndarray, n_classes: int) -> np.ndarray:
    """delta = 1_{y_hat} - c 1_j as an (R, K) array (for checks; the learners scatter it)."""
    R = len(y_hat)
    delta = np.zeros((R, n_classes))
    rows = np.arange(R)
    delta[rows, y_hat] += 1.0
    delta[rows, j] -= c
    return delta


def _check_gamma(gamma: np.ndarray, feedback: str) -> None:
    low_ok = gamma >= 0 if feedback == "full" else gamma > 0
    if not (np.all(low_ok) and np.all(gamma < 1)):
        raise BoostrankError(
            "gamma must lie in (0, 1) (the text uses (0, 0.5)); 0 only with full feedback; "
            f"got {gamma.min()}..{gamma.max()}"
        )


class Banditron(MulticlassLearner):
    """The Banditron over R runs (Algorithm 7; Algorithm 10 with an adaptive rule)."""

    def __init__(
        self,
        n_features: int,
        n_classes: int,
        seeds: Sequence[int] | np.ndarray,
        gamma: float | Sequence[float] | np.ndarray | GammaRule = 0.1,
        positive: bool = False,
        feedback: str = "bandit",
        importance: str = "p_tilde",
    ) -> None:
        super().__init__(n_features, n_classes, seeds)
        if feedback not in ("bandit", "full"):
            raise BoostrankError(f"feedback must be 'bandit' or 'full', not '{feedback}'")
        if importance not in ("p_tilde", "p_hat"):
            raise BoostrankError(f"importance must be 'p_tilde' or 'p_hat', not '{importance}'")
        self.positive = bool(positive)
        self.feedback = feedback
        self.importance = importance
        self.rule: GammaRule | None = None
        if callable(gamma):
            self.rule = gamma
            self._gamma = np.full(self.n_runs, np.nan)
        else:
            g = np.broadcast_to(np.asarray(gamma, dtype=np.float64), (self.n_runs,)).copy()
            _check_gamma(g, feedback)
            self._gamma = g
        self.s_mu_ = np.zeros(self.n_runs)  # sum of mu_i so far (section 6.3.1)
        self.s_tau_ = np.zeros(self.n_runs)  # sum of tau_i so far
        self.gamma_sum_ = np.zeros(self.n_runs)  # sum of the gamma_t used (for the record)
        self._init_weights()

    # -- state ------------------------------------------------------------------------------
    def _init_weights(self) -> None:
        self._w = np.zeros((self.n_runs, self.n_classes, self.n_features))

    @property
    def coef_(self) -> np.ndarray:
        """W as (R, d, K): column k of run r is w_k."""
        return self._w.transpose(0, 2, 1)

    def _scores(self, x: np.ndarray) -> np.ndarray:
        return np.matmul(self._w, x[:, :, None])[:, :, 0]

    def predict(self, X: np.ndarray) -> np.ndarray:
        """y_hat = argmax_k x^T w_k for one x per run: X (R, d) -> (R,)."""
        return self._scores(np.asarray(X, dtype=np.float64)).argmax(1)

    def current_gamma(self) -> np.ndarray:
        """gamma_t of the next trial, (R,)."""
        if self.rule is None:
            return self._gamma
        gamma = np.asarray(self.rule(self.t_ + 1, self.s_mu_, self.s_tau_), dtype=np.float64)
        return np.broadcast_to(gamma, (self.n_runs,))

    # -- one trial ---------------------------------------------------------------------------
    def _update(self, x: np.ndarray, y_hat: np.ndarray, j: np.ndarray, c: np.ndarray) -> None:
        """W <- W - x delta^T with delta = 1_{y_hat} - c 1_j, as the two rows it changes (the
        coefficient of row y_hat is 1 - c[j = y_hat], of row j (j != y_hat) -c)."""
        same = j == y_hat
        a = 1.0 - c * same
        b = c * ~same
        w, rows = self._w, self._rows
        w[rows, y_hat] -= a[:, None] * x
        w[rows, j] += b[:, None] * x
        if self.positive:  # Banditron_Pos: project onto the positive orthant (section 5.4)
            w[rows, y_hat] = np.maximum(w[rows, y_hat], 0.0)
            w[rows, j] = np.maximum(w[rows, j], 0.0)

    def _trial(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        K = self.n_classes
        y_hat = self._scores(x).argmax(1)
        gamma = self.current_gamma()
        y_tilde, p_tilde = sample_labels(y_hat, self._uniforms.next(), gamma, K)
        if self.feedback == "full":  # delta = E[delta] = 1_{y_hat} - 1_y
            self._update(x, y_hat, y, np.ones(self.n_runs))
        else:
            c = delta_weight(y, y_hat, y_tilde, p_tilde, 1.0 - gamma + gamma / K, self.importance)
            self._update(x, y_hat, y_tilde, c)
        if self.rule is not None:
            mu = 2.0 * ((y_tilde == y) & (y_tilde == y_hat))  # section 6.3.1, realised reading
            self.s_mu_ += mu
            self.s_tau_ += 1.0 - 0.5 * mu
        self.gamma_sum_ += gamma
        self.t_ += 1
        return y_tilde
