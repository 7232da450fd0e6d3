"""RankNet (Burges et al. 2005, "Learning to Rank using Gradient Descent") in numpy, as in
Sengupta (2018), *Document Analysis*, sections "RankNet", "Mathematical expression" and "Another
interpretation".

The scoring function is a multilayer perceptron ``f: R^d -> R`` with sigmoid hidden layers and a
linear output. For a within-query pair with ``y_i > y_j`` (``S_ij = 1``) the model probability
is ``P_ij = 1 / (1 + exp(-sigma (s_i - s_j)))`` and the cross-entropy cost is
``C_ij = log(1 + exp(-sigma (s_i - s_j)))``. Its gradient is factorised through the scores
(Burges 2010, section 2.1): ``lambda_ij = dC_ij/ds_i = -sigma / (1 + exp(sigma (s_i - s_j)))``,
``lambda_i = sum_j lambda_ij - sum_j lambda_ji``, and ``dC/dw = sum_i lambda_i ds_i/dw``, one
back-propagation per document rather than per pair.

Training is stochastic gradient descent, ``w <- w - eta dC/dw``, on mini-batches of whole queries
(the cost averaged over the batch's pairs), for a given number of epochs. Weights start uniform
in ``[-init_scale, init_scale]`` (the report prints trained toy weights within +-0.1), biases 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Self

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.ranking.base import Ranker
from boostrank.ranking.pairs import query_groups, query_pairs
from boostrank.ranking.validation import Validation

Params = list[tuple[np.ndarray, np.ndarray]]


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def init_params(n_features: int, layers: int, nodes: int, init_scale: float, seed: int) -> Params:
    """Weights ``(W, b)`` of ``layers`` sigmoid layers of ``nodes`` units and a linear output."""
    rng = np.random.default_rng(seed)
    sizes = [n_features] + [nodes] * layers + [1]
    return [
        (rng.uniform(-init_scale, init_scale, (a, b)), np.zeros(b))
        for a, b in itertools.pairwise(sizes)
    ]


def scores(params: Params, X: np.ndarray) -> np.ndarray:
    """The network output ``s = f(x)`` of each row."""
    h = X
    for W, b in params[:-1]:
        h = _sigmoid(h @ W + b)
    W, b = params[-1]
    return (h @ W + b).ravel()


def loss_and_grad(
    params: Params, X: np.ndarray, i: np.ndarray, j: np.ndarray, sigma: float = 1.0
) -> tuple[float, Params]:
    """Mean pairwise cross-entropy over the pairs ``(i, j)`` (``i`` preferred) and its gradient."""
    acts = [X]
    for W, b in params[:-1]:
        acts.append(_sigmoid(acts[-1] @ W + b))
    W_out, b_out = params[-1]
    s = (acts[-1] @ W_out + b_out).ravel()
    diff = sigma * (s[i] - s[j])
    n_pairs = len(i)
    loss = float(np.logaddexp(0.0, -diff).sum() / n_pairs)
    lam = -sigma * _sigmoid(-diff) / n_pairs  # dC/ds_i of each pair (= -dC/ds_j)
    n = len(X)
    delta = (np.bincount(i, lam, minlength=n) - np.bincount(j, lam, minlength=n))[:, None]
    grads: Params = [(acts[-1].T @ delta, delta.sum(axis=0))]
    back = delta @ W_out.T
    for layer in range(len(params) - 2, -1, -1):
        h = acts[layer + 1]
        back = back * h * (1.0 - h)
        grads.append((acts[layer].T @ back, back.sum(axis=0)))
        back = back @ params[layer][0].T
    grads.reverse()
    return loss, grads


@dataclass(eq=False, repr=False)
class RankNet(Ranker):
    """RankNet ranker; ``fit(X, y, qid)``, ``predict(X)``."""

    layers: int = 1
    nodes: int = 10
    epochs: int = 100
    _: KW_ONLY
    learning_rate: float = 0.1
    batch_queries: int = 16
    sigma: float = 1.0
    init_scale: float = 0.1
    random_state: int = 0

    def _batches(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, rng: np.random.Generator
    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Fixed mini-batches of whole queries: (X rows, local i, local j); queries with pairs."""
        order, bounds = query_groups(qid)
        groups = [order[bounds[g] : bounds[g + 1]] for g in range(len(bounds) - 1)]
        groups = [g for g in groups if len(np.unique(y[g])) > 1]
        if not groups:
            raise BoostrankError("RankNet: no within-query pair with different labels")
        perm = rng.permutation(len(groups))
        batches = []
        for start in range(0, len(perm), self.batch_queries):
            rows = np.concatenate([groups[g] for g in perm[start : start + self.batch_queries]])
            # Pairs are within queries, so a distinct local query id per batch suffices.
            i, j = query_pairs(y[rows], qid[rows])
            batches.append((X[rows], i, j))
        return batches

    def fit(
        self,
        X: np.ndarray,
        y: np.ndarray,
        qid: np.ndarray | None = None,
        *,
        validation: Validation | None = None,
        checkpoints: Sequence[int] = (),
    ) -> Self:
        """``epochs`` passes of SGD over the query mini-batches (their order reshuffled);
        ``validation`` is ignored.

        ``checkpoints``: epoch counts whose weights are kept for ``predict(X, epochs=e)``; a run
        of E epochs passes through the model of every e < E epochs, so one run serves both.
        """
        X, y, qid = self.check_data(X, y, qid)
        rng = np.random.default_rng(self.random_state)
        self.params_ = init_params(
            X.shape[1], self.layers, self.nodes, self.init_scale, int(rng.integers(2**31))
        )
        batches = self._batches(X, y, qid, rng)
        self.loss_curve_ = []
        self.snapshots_: dict[int, Params] = {}
        for epoch in range(1, self.epochs + 1):
            total = 0.0
            for b in rng.permutation(len(batches)):
                Xb, i, j = batches[b]
                loss, grads = loss_and_grad(self.params_, Xb, i, j, self.sigma)
                total += loss
                for (W, bias), (gW, gb) in zip(self.params_, grads, strict=True):
                    W -= self.learning_rate * gW
                    bias -= self.learning_rate * gb
            self.loss_curve_.append(total / len(batches))
            if epoch in checkpoints:
                self.snapshots_[epoch] = [(W.copy(), b.copy()) for W, b in self.params_]
        return self

    def predict(self, X: np.ndarray, *, epochs: int | None = None) -> np.ndarray:
        """Ranking scores ``f(x)`` (of the checkpoint after ``epochs`` epochs if given)."""
        X = self.check_predict(X)
        params = self.params_ if epochs in (None, self.epochs) else self.snapshots_[epochs]
        return scores(params, X)
