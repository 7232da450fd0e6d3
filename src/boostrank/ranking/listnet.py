"""ListNet (Cao, Qin, Liu, Tsai and Li 2007, "Learning to rank: from pairwise approach to listwise
approach", ICML): a linear scoring function ``f(x) = w . x`` trained by gradient descent on the
cross entropy between the top-one probabilities of the labels and of the scores.

For a query with documents x_1..x_n, labels y and scores s = X w, the top-one probabilities are
``P_y(j) = exp(y_j) / sum_k exp(y_k)`` and ``P_s(j) = exp(s_j) / sum_k exp(s_k)`` (top-one
probabilities with phi = exp); the query's loss is ``L = -sum_j P_y(j) log P_s(j)`` and its
gradient ``dL/dw = sum_j (P_s(j) - P_y(j)) x_j``. Training is the paper's Algorithm 1: w starts
at 0 and, for each epoch and each query in turn (ascending query id), ``w <- w - eta dL/dw``.

Readings, recorded (ids of config/readings.yaml in brackets):

- ``n_epochs`` is the maximum [``listnet_epochs``, ``baseline_selection_metric``]; the number of
  epochs is chosen on the validation fold (if given) as the epoch with the best validation
  NDCG@10 (``metric``; first of equal maxima), as LETOR's ListNet baseline did. Without
  validation, the last epoch is kept.
- ``learning_rate`` (default 0.01) [``listnet_learning_rate``] and ``n_epochs`` (default 200)
  are configurable; the paper leaves them to the data. The per-query gradient is a sum over the
  query's documents, not a mean, as in the paper.
- Queries whose labels are all equal have P_y uniform and still contribute, as in the paper.
- ``random_state`` is accepted for the common API; training is deterministic without it (zero
  start, fixed query order).
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.ranking.base import Ranker
from boostrank.ranking.pairs import query_groups
from boostrank.ranking.validation import Selection, Validation, check_metric


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def listnet_loss_and_grad(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """Top-one cross entropy of one query and its gradient in w (Cao et al. 2007)."""
    s = X @ w
    p_y = _softmax(np.asarray(y, dtype=np.float64))
    z = s - s.max()
    log_p = z - np.log(np.exp(z).sum())
    loss = float(-(p_y @ log_p))
    return loss, X.T @ (np.exp(log_p) - p_y)


@dataclass(eq=False, repr=False)
class ListNet(Ranker):
    """Linear ListNet; ``fit(X, y, qid, validation=...)``, ``predict(X)``."""

    n_epochs: int = 200
    _: KW_ONLY
    learning_rate: float = 0.01
    metric: str = "ndcg@10"
    random_state: int = 0

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Per-query gradient descent for up to ``n_epochs`` epochs; with ``validation``, keep the
        epoch with the best validation score."""
        if self.n_epochs < 1:
            raise BoostrankError(f"ListNet: n_epochs must be >= 1, got {self.n_epochs}")
        check_metric(self.metric)
        order, bounds = query_groups(qid)
        queries = []
        for g in range(len(bounds) - 1):
            rows = order[bounds[g] : bounds[g + 1]]
            queries.append((X[rows], _softmax(y[rows].astype(np.float64))))
        val = None if validation is None else Selection(validation, self.metric)
        w = np.zeros(X.shape[1])
        eta = self.learning_rate
        best = (0, w.copy())
        loss_curve: list[float] = []
        for epoch in range(1, self.n_epochs + 1):
            total = 0.0
            for Xq, p_y in queries:
                z = Xq @ w
                z -= z.max()
                e = np.exp(z)
                p_s = e / e.sum()
                total -= float(p_y @ (z - np.log(e.sum())))
                w -= eta * (Xq.T @ (p_s - p_y))
            loss_curve.append(total / len(queries))
            if val is not None and val.improves(val.X @ w):
                best = (epoch, w.copy())
        self.loss_curve_ = np.asarray(loss_curve)
        self.valid_curve_ = np.asarray([] if val is None else val.curve)
        self.n_epochs_, self.coef_ = (self.n_epochs, w) if val is None else best

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Scores ``w . x``."""
        return self.check_predict(X) @ self.coef_
