"""The multi-class Perceptron (Rosenblatt; Crammer & Singer's multi-class form), the full-feedback
reference curve of Figure 5.1 in Valizadegan (2010), *Boosting and Online Learning for
Classification and Ranking*, chapter 5.

W = 0; each trial predicts y_hat = argmax_k x^T w_k and, on a mistake, updates
W <- W - x (1_{y_hat} - 1_y)^T, i.e. the Banditron's update with its expectation (Proposition 3)
in place of the bandit estimate. Vectorised over R runs: the weights are one (R, K, d) array
(each class's weight vector contiguous); ``coef_`` is the (R, d, K) view of the text's W.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostrank.online.streams import MulticlassLearner


class Perceptron(MulticlassLearner):
    """Multi-class Perceptron over R runs (its seeds only name the runs: it draws nothing)."""

    def __init__(self, n_features: int, n_classes: int, seeds: Sequence[int] | np.ndarray):
        super().__init__(n_features, n_classes, seeds)
        self._w = np.zeros((self.n_runs, self.n_classes, self.n_features))

    @property
    def coef_(self) -> np.ndarray:
        """W as (R, d, K): column k of run r is w_k."""
        return self._w.transpose(0, 2, 1)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """argmax_k x^T w_k for one x per run: X (R, d) -> (R,)."""
        return np.matmul(self._w, np.asarray(X, dtype=np.float64)[:, :, None])[:, :, 0].argmax(1)

    def _trial(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        y_hat = np.matmul(self._w, x[:, :, None])[:, :, 0].argmax(1)
        miss = y_hat != y
        step = miss[:, None] * x  # zero rows where the prediction was right
        self._w[self._rows, y_hat] -= step
        self._w[self._rows, y] += step
        self.t_ += 1
        return y_hat
