"""SVM-MAP (Yue, Finley, Radlinski and Joachims 2007, "A support vector method for optimizing
average precision", SIGIR): a linear structural SVM whose loss is 1 - AP.

For a query with relevant documents C and non-relevant C', a ranking is encoded by
``y_ij = +1`` if relevant i is ranked above non-relevant j, else -1, and the joint feature map
is ``Psi(x, y) = 1/(|C||C'|) sum_{i in C, j in C'} y_ij (x_i - x_j)``; the true ranking puts
every relevant document first. Training solves the 1-slack form (Joachims, Finley and Yu 2009,
"Cutting-plane training of structural SVMs": the paper's n-slack problem with the slacks
averaged into one):

    min_w 1/2 |w|^2 + C xi   s.t.  for every joint labelling (ybar_1..ybar_n):
        1/n sum_q w . (Psi(x_q, y_q) - Psi(x_q, ybar_q)) >= 1/n sum_q Delta(y_q, ybar_q) - xi,

with ``Delta = 1 - AP(ybar)``, by cutting planes. The most violated labelling of each query
(``argmax_ybar Delta + w . Psi(ybar)``) comes from the paper's greedy search (its Algorithm 2):
sort the relevant and the non-relevant documents by score; given that order, the AP loss of
placing the j-th non-relevant document after i - 1 relevant ones is
``1/|C| sum_{k >= i} (k/(k + j - 1) - k/(k + j))`` whatever the others do, so each non-relevant
document takes its best slot independently (the slots come out monotone, which the paper
proves); O(n log n) for the sorts plus a |C'| x (|C| + 1) table, vectorised. The 1-slack QP
over the working set is solved exactly through NNLS (:func:`solve_working_set`); iterations
stop when no constraint is violated by more than ``epsilon``.

Readings, recorded (ids of config/readings.yaml in brackets):

- Binary relevance [``svm_map_relevance``]: a label >= ``relevant_from`` (default 1) is relevant
  (OHSUMED's grades 1 and 2 both count); ``relevant_from="top"``: only the training set's
  highest grade (OHSUMED's 2; on the binary .Gov sets the same as 1); queries without a relevant
  or without a non-relevant document are skipped (their AP does not depend on w).
- C [``baseline_c_grids``, ``baseline_selection_metric``]: with ``validation``, each value of
  ``C_grid`` (default 0.1, 1, ..., 1000; ascending, each run warm-started with the previous
  run's working set, which stays valid because the constraints do not depend on C) is scored on
  the validation fold (``metric``, default MAP, the measure SVM-MAP optimises) and the first
  best is kept; without validation, ``C`` (default 1).
- ``epsilon`` (default 0.001, in units of the mean 1 - AP) [``svm_map_stopping``] and
  ``max_iter`` (default 400 cutting-plane iterations per C; ``iterations_`` records the total)
  [``svm_map_max_iter``], a cap Yue et al.'s algorithm does not have (it stops at epsilon only);
  ``guards_["svm_map_max_iter"]`` counts the C values whose cutting planes stopped at it
  (:mod:`boostrank.guards`). The defaults are this tight because a looser epsilon or fewer
  iterations stops the cutting planes short and costs test NDCG.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

import numpy as np
from scipy.optimize import brentq, nnls
from threadpoolctl import threadpool_limits

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.ranking.base import Ranker
from boostrank.ranking.pairs import query_groups
from boostrank.ranking.validation import Selection, Validation, check_metric


def most_violated_ranking(
    scores: np.ndarray, relevant: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float]:
    """Yue et al. (2007), Algorithm 2, for one query: the ranking ybar maximising
    ``Delta(y, ybar) + w . Psi(x, ybar)`` (the most violated constraint) given the scores.

    Returns ``(order, coef, value)``: ``order`` lists the query's documents best first;
    ``coef`` gives ``Psi(x, ybar) = coef @ X`` (one coefficient per document); ``value`` is the
    maximum of ``Delta + w . Psi``.
    """
    s = np.asarray(scores, dtype=np.float64)
    rel = np.asarray(relevant, dtype=bool)
    r_idx, n_idx = np.flatnonzero(rel), np.flatnonzero(~rel)
    r_idx = r_idx[np.argsort(-s[r_idx], kind="stable")]
    n_idx = n_idx[np.argsort(-s[n_idx], kind="stable")]
    n_r, n_n = len(r_idx), len(n_idx)
    if n_r == 0 or n_n == 0:
        raise BoostrankError("SVM-MAP: a query needs relevant and non-relevant documents")
    sr, sn = s[r_idx], s[n_idx]
    k = np.arange(1, n_r + 1, dtype=np.float64)[None, :]
    j = np.arange(1, n_n + 1, dtype=np.float64)[:, None]
    # 1 - AP part of the j-th non-relevant document after i relevant ones (i = 0..R):
    # sum_{k > i} (k/(k + j - 1) - k/(k + j)) / R, a suffix sum.
    inc = k / (k + j - 1.0) - k / (k + j)  # (N, R)
    table = np.zeros((n_n, n_r + 1))
    table[:, :n_r] = np.cumsum(inc[:, ::-1], axis=1)[:, ::-1] / n_r
    # w . Psi part: (sum_{k <= i} (s_k - s_j) - sum_{k > i} (s_k - s_j)) / (R N).
    prefix = np.concatenate([[0.0], np.cumsum(sr)])
    above = np.arange(n_r + 1, dtype=np.float64)
    table += (2.0 * prefix[None, :] - prefix[-1] - (2.0 * above[None, :] - n_r) * sn[:, None]) / (
        n_r * n_n
    )
    best = np.argmax(table, axis=1)  # relevant documents above j; first of equal maxima
    best = np.maximum.accumulate(best)  # the paper's monotone slots (a no-op up to ties)
    value = float(table[np.arange(n_n), best].sum())
    # The ranking: the non-relevant document j just before relevant number best[j].
    key = np.concatenate([2 * np.arange(n_r) + 1, 2 * best])
    order = np.concatenate([r_idx, n_idx])[np.argsort(key, kind="stable")]
    # Psi coefficients: relevant k gets (#below - #above)/(RN); non-relevant j gets
    # -(#relevant above - #relevant below)/(RN).
    above_k = np.searchsorted(best, np.arange(n_r), side="right")  # non-relevant above k
    coef = np.zeros(len(s))
    coef[r_idx] = (n_n - 2.0 * above_k) / (n_r * n_n)
    coef[n_idx] = -(2.0 * best - n_r) / (n_r * n_n)
    return order, coef, value


def solve_working_set(A: np.ndarray, loss: np.ndarray, C: float) -> tuple[np.ndarray, float]:
    """The 1-slack QP over the working set: ``min_w 1/2 |w|^2 + C xi`` s.t. ``A w >= loss - xi``,
    ``xi >= 0``. Returns ``(w, xi)``.

    For a fixed xi the problem is a least-distance programme, solved exactly by NNLS (Lawson and
    Hanson 1974, ch. 23: ``min |E u - e|, u >= 0`` with ``E = [A^T; b^T]``, ``b = loss - xi``;
    ``w = A^T lambda`` with multipliers ``lambda = u / (1 - b . u)``). Its value is convex in xi
    with slope ``-sum(lambda)``, so the optimal xi is 0 if ``sum(lambda(0)) <= C`` and otherwise
    the root of ``sum(lambda(xi)) = C`` in ``[0, max(loss)]`` (Brent's method).
    """
    k, d = A.shape
    target = np.zeros(d + 1)
    target[-1] = 1.0

    def multipliers(xi: float) -> np.ndarray:
        b = loss - xi
        u, _ = nnls(np.vstack([A.T, b[None, :]]), target, maxiter=50 * (k + d))
        denom = 1.0 - float(b @ u)
        return u / denom if denom > 1e-12 else np.full(k, np.inf)

    lam = multipliers(0.0)
    xi = 0.0
    top = float(loss.max())
    if lam.sum() > C and top > 0:
        xi = brentq(lambda t: min(float(multipliers(t).sum()), 1e15) - C, 0.0, top, xtol=1e-12)
        lam = multipliers(xi)
    w = A.T @ lam
    return w, max(0.0, float(np.max(loss - A @ w)))


MAX_ITER = "svm_map_max_iter"  # guard id: a C's cutting planes stopped at max_iter


@dataclass(eq=False, repr=False)
class SVMMAP(Ranker):
    """Linear SVM-MAP (1-slack cutting planes); ``fit(X, y, qid, validation=...)``, ``predict``."""

    C: float = 1.0
    _: KW_ONLY
    C_grid: Sequence[float] | None = (0.1, 1.0, 10.0, 100.0, 1000.0)
    epsilon: float = 0.001
    max_iter: int = 400
    relevant_from: int | str = 1
    metric: str = "map"
    random_state: int = 0  # unused: training is deterministic (API uniformity)

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Cutting-plane training for ``C`` (or, with ``validation``, each of ``C_grid``)."""
        check_metric(self.metric)
        rel = y >= (y.max() if self.relevant_from == "top" else self.relevant_from)
        order, bounds = query_groups(qid)
        groups = []
        for g in range(len(bounds) - 1):
            rows = order[bounds[g] : bounds[g + 1]]
            n_rel = int(rel[rows].sum())
            if 0 < n_rel < len(rows):
                groups.append(rows)
        if not groups:
            raise BoostrankError("SVM-MAP: no query has both relevant and non-relevant documents")
        self.n_queries_ = len(groups)
        # Psi of the true rankings: mean over queries of mean(x relevant) - mean(x non-relevant).
        true_coef = np.zeros(len(X))
        for rows in groups:
            r = rel[rows]
            true_coef[rows] = np.where(r, 1.0 / r.sum(), -1.0 / (~r).sum())
        self._psi_true = true_coef @ X / len(groups)
        self._X, self._rel, self._groups = X, rel, groups
        self._A = np.zeros((0, X.shape[1]))
        self._loss = np.zeros(0)

        val = None if validation is None else Selection(validation, self.metric, floor=None)
        grid = sorted(self.C_grid) if (val is not None and self.C_grid) else [self.C]
        best: tuple[float, np.ndarray] | None = None
        self.iterations_ = 0
        self.guards_ = Guards.of(MAX_ITER)
        for C in grid:
            # The QPs and greedy searches are small: BLAS threads only add overhead (and
            # busy-wait under load), so one thread.
            with threadpool_limits(limits=1, user_api="blas"):
                w = self._train(float(C))
            if val is None or val.improves(val.X @ w):
                best = (float(C), w)
        assert best is not None
        self.validation_scores_ = (
            {} if val is None else dict(zip((float(C) for C in grid), val.curve, strict=True))
        )
        self.C_, self.coef_ = best
        self.n_constraints_ = len(self._loss)
        del self._X, self._rel, self._groups

    def _most_violated(self, w: np.ndarray) -> tuple[np.ndarray, float]:
        """The joint most violated constraint: (1/n sum_q Psi(y_q) - Psi(ybar_q), mean Delta)."""
        s = self._X @ w
        coef = np.zeros(len(s))
        delta = 0.0
        for rows in self._groups:
            _, c, value = most_violated_ranking(s[rows], self._rel[rows])
            coef[rows] = c
            delta += value - float(c @ s[rows])
        n = len(self._groups)
        return self._psi_true - coef @ self._X / n, delta / n

    def _train(self, C: float) -> np.ndarray:
        """Cutting planes for one C, continuing from the current working set (its constraints
        do not depend on C)."""
        w, xi = np.zeros(self._X.shape[1]), 0.0
        if len(self._loss):
            w, xi = solve_working_set(self._A, self._loss, C)
        for _ in range(self.max_iter):
            c, delta = self._most_violated(w)
            self.iterations_ += 1
            if delta - float(w @ c) <= xi + self.epsilon:
                break
            self._A = np.vstack([self._A, c])
            self._loss = np.append(self._loss, delta)
            w, xi = solve_working_set(self._A, self._loss, C)
        else:
            self.guards_.fire(MAX_ITER)  # no break: epsilon not reached in max_iter planes
        return w

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Scores ``w . x``."""
        return self.check_predict(X) @ self.coef_
