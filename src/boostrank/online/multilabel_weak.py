"""Online multilabel weak learners that take cost vectors, for the boosters of Zhang, Jung &
Tewari (2019), *Online Boosting for Multilabel Ranking with Top-k Feedback* (section 2.1), and
Jung & Tewari (2018), *Online Boosting Algorithms for Multi-label Ranking*.

Each weak learner predicts a distribution h over the m labels and, after the round, receives
a full cost vector c (the booster builds it, from top-k feedback or not) and suffers c . h.
The papers allow any such learner. The authors' released code (Jung & Tewari's AdaOLMR and
OnlineBMR, reused by the top-k paper) uses VFDT Hoeffding trees, each on a random subset of
20 covariates, with split confidence 10^U(-5, log10 0.9), grace period U(1, 10), tie
threshold 10^U(-3, 0) and a weight constant w ~ U(10, 200), fed each relevant label l as an
example of class l with weight w (max c - c_l), predicting the leaf's class distribution.
Ours differs: a small linear softmax model on its own random feature subset, fed the same
reduction with ``update: weighted_ce``. A Hoeffding-tree option is not offered: 20 of
river's Hoeffding trees with the authors' grace periods are too slow for a Table 1 run of
10^5-10^6 rounds within its budget. All N softmax
learners are vectorised: weights (N, m, d + 1).

Updates (config ``weak.update``):

- ``expected_cost`` (default): a gradient step on the loss the paper defines, c . softmax(z):
  dz = h * (c - c . h);
- ``weighted_ce``: the trees' reduction, a cross-entropy step towards each shown relevant
  label l weighted by max c - c_l: dz = (sum_l a_l) h - a.

Step sizes are AdaGrad's (``optimizer: adagrad``), lr / sqrt(sum of squared gradients), per
weight: the importance-weighted cost vectors of top-k feedback vary in scale by orders of
magnitude and AdaGrad is invariant to a constant scale; ``sgd`` (a constant lr) is the
alternative. Features should be standardised by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boostrank.errors import BoostrankError

# The booster's feedback to its weak learners: the distributions h played -> their cost
# vectors and the mask of relevant labels seen (or None: no update this round).
Feedback = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray | None] | None]


class OnlineSoftmaxLearners:
    """N online linear softmax weak learners over m labels, each on ``n_sub`` random features.

    ``partial_fit(x, feedback)`` predicts the (N, m) distributions h of one row, learns from
    the cost vectors ``feedback(h)`` and returns h (:class:`boostrank.online.base.OnlineLearner`);
    ``predict_rows`` scores many rows without learning."""

    def __init__(
        self,
        n_learners: int,
        n_labels: int,
        n_features: int,
        rng: np.random.Generator,
        n_sub: int = 20,
        lr: float = 0.1,
        update: str = "expected_cost",
        optimizer: str = "adagrad",
    ) -> None:
        if update not in ("expected_cost", "weighted_ce"):
            raise BoostrankError(
                f"weak.update must be expected_cost or weighted_ce, not {update!r}"
            )
        if optimizer not in ("adagrad", "sgd"):
            raise BoostrankError(f"weak.optimizer must be adagrad or sgd, not {optimizer!r}")
        self.n_learners, self.n_labels = int(n_learners), int(n_labels)
        d = min(int(n_sub), int(n_features))
        self.features = np.stack(
            [np.sort(rng.choice(n_features, d, replace=False)) for _ in range(self.n_learners)]
        )  # (N, d) each learner's feature subset
        self.W = np.zeros((self.n_learners, self.n_labels, d + 1))
        self._g2 = np.zeros_like(self.W)
        # one round's arrays, written in place rather than three arrays of W's size allocated
        # every round (the same operations in the same order)
        self._grad, self._sq = np.empty_like(self.W), np.empty_like(self.W)
        self._xs = np.ones((self.n_learners, d + 1))  # the last column stays 1
        self.lr, self.update_rule, self.optimizer = float(lr), update, optimizer

    def inputs(self, X: np.ndarray) -> np.ndarray:
        """Each learner's inputs with a constant 1 appended: (N, d + 1) for one row (m,),
        (n, N, d + 1) for rows (n, d_all)."""
        sub = np.asarray(X)[..., self.features]
        return np.concatenate([sub, np.ones((*sub.shape[:-1], 1))], axis=-1)

    def partial_fit(self, x: np.ndarray, feedback: Feedback) -> np.ndarray:
        """One round (section 2.1): predict the (N, m) label distributions h of the learners
        for one row ``x`` (d_all,), receive the booster's cost vectors ``feedback(h)`` (with,
        for ``weighted_ce``, the mask of relevant labels it saw; None: no update this round)
        and learn from them. Returns h, the distributions played."""
        xs = self._xs
        xs[:, :-1] = np.asarray(x)[self.features]
        z = np.einsum("nmd,nd->nm", self.W, xs)
        z -= np.maximum.reduce(z, axis=1, keepdims=True)
        h = np.exp(z, out=z)
        h /= np.add.reduce(h, axis=1, keepdims=True)
        costs = feedback(h)
        if costs is not None:
            self._learn(h, *costs)
        return h

    def predict_rows(self, X: np.ndarray) -> np.ndarray:
        """(n, N, m) distributions for many rows, without touching the learners' state."""
        z = np.einsum("nmd,tnd->tnm", self.W, self.inputs(X))
        z -= z.max(axis=2, keepdims=True)
        h = np.exp(z)
        return h / h.sum(axis=2, keepdims=True)

    def _learn(self, h: np.ndarray, cost: np.ndarray, relevant: np.ndarray | None) -> None:
        """Learn from the (N, m) cost vectors of the distributions ``h`` of the row in
        ``_xs``."""
        if self.update_rule == "expected_cost":
            dz = h * (cost - np.add.reduce(cost * h, axis=1, keepdims=True))
        else:
            if relevant is None:
                raise BoostrankError("weighted_ce updates need the relevant labels seen")
            a = (np.maximum.reduce(cost, axis=1, keepdims=True) - cost) * relevant
            dz = np.add.reduce(a, axis=1, keepdims=True) * h - a
        grad = np.multiply(dz[:, :, None], self._xs[:, None, :], out=self._grad)
        if self.optimizer == "adagrad":
            sq = np.multiply(grad, grad, out=self._sq)
            self._g2 += sq
            np.sqrt(self._g2, out=sq)
            sq += 1e-12
            np.divide(grad, sq, out=grad)
        grad *= self.lr
        self.W -= grad


__all__ = ["Feedback", "OnlineSoftmaxLearners"]
