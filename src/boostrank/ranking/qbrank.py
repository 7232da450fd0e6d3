"""QBRank: Zheng, Zha, Zhang, Chapelle, Chen and Sun (2007), "A General Boosting Method and its
Application to Learning Ranking Functions for Web Search" (NIPS 2007), section 3, Algorithm 2
("Boosted Ranking using Successive Quadratic Approximation").

Objective (section 3), over preferences ``x_i > y_i`` (S) and labelled points ``(z_i, l_i)`` (L)::

    R(h) = w/2 sum_S max(0, h(y_i) - h(x_i) + tau)^2 + (1 - w)/2 sum_L (l_i - h(z_i))^2

Each iteration (Algorithm 2, step 1) builds the regression set ``(x_i, +v_i)``, ``(y_i, -v_i)``
with ``v_i = max(0, h(y_i) - h(x_i) + tau)`` for every preference (weight ``w``) and
``(z_i, l_i - h(z_i))`` for every labelled point (weight ``1 - w``), fits a regression tree to it
(the weak learner shared with :mod:`boostrank.ranking.gbt`), then (step 2) sets
``h_m = h_{m-1} + eta s_m g_m`` with ``s_m`` minimising R along ``g_m``. R is convex and
piecewise quadratic in s, so the line search is exact: the left-most root of its piecewise
linear derivative, found from the sorted breakpoints of the hinge terms (:func:`line_search`).

Readings of the text, configurable:

- ``margin``: ``"grade_difference"`` (the paper's experiments: tau = the absolute grade
  difference of the pair) or a number (the paper's default 1.0 without grades).
- Remark after Algorithm 2 (reading ``qbrank_duplicates``): a point that occurs several times in
  step 1 gets the *average* of its gradient targets. ``duplicates="count"`` (default): the
  weighted mean target with the summed weight -- the least-squares problem of the un-merged set,
  i.e. Algorithm 1's target ``-gradient / W`` with W the diagonal Hessian bound (one term per
  occurrence), so the tree is always a descent direction; ``"single"`` (the remark read
  literally): each distinct point enters once with the plain mean of its targets and the mean of
  its weights. They coincide when every point occurs once. With ``single`` the tree need not be
  a descent direction, and the boosting can stall (line-search steps near 0) where labelled
  points pull against documents that occur in many pairs. Points are rows of X: one document of
  one query.
- Initial guess h_0 (not specified): the mean label of the labelled points, 0 without any, so
  that without preferences QBRank starts where GBT does.
- Weights: ``w`` for preferences and ``1 - w`` for labels are rescaled by a common factor
  (``1 - w`` when there are labelled points), which changes neither the tree nor the step; with
  no preferences QBRank is then GBT bit for bit (the paper, section 3: "When there is no
  preference data ... QBrank is identical to Gradient Boosting Trees").
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Literal, Self

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.ranking.gbt import (
    TreeEnsemble,
    TreeRanker,
    as_tree_input,
    check_trees,
    fit_regression_tree,
    ls_step,
)
from boostrank.ranking.pairs import query_pairs
from boostrank.ranking.validation import Validation
from boostrank.seeds import tree_seeds

Duplicates = Literal["single", "count"]


def line_search(
    c: np.ndarray,
    d: np.ndarray,
    residual: np.ndarray,
    g: np.ndarray,
    pair_weight: float,
    label_weight: float,
) -> float:
    """argmin_s of ``pw/2 sum max(0, c + s d)^2 + lw/2 sum (residual - s g)^2`` (exact).

    ``c = h(y) - h(x) + tau`` and ``d = g(y) - g(x)`` per preference; the derivative is piecewise
    linear and nondecreasing with breakpoints ``-c/d``; the left-most root is returned (0 when
    the objective is flat in s). Without preferences this is Friedman's ``<r, g>/<g, g>``.
    """
    if len(c) == 0:
        return ls_step(residual, g)
    G = float(np.dot(g, g)) * label_weight
    Rg = float(np.dot(residual, g)) * label_weight
    moving = d != 0.0
    c, d = c[moving], d[moving]
    t = -c / d
    up, down = d > 0, d < 0  # active (c + s d > 0) for s > t, resp. s < t
    t_up, order_up = np.sort(t[up]), np.argsort(t[up], kind="stable")
    t_dn, order_dn = np.sort(t[down]), np.argsort(t[down], kind="stable")
    cd_up = np.concatenate([[0.0], np.cumsum((c[up] * d[up])[order_up])])
    dd_up = np.concatenate([[0.0], np.cumsum((d[up] ** 2)[order_up])])
    cd_dn = np.concatenate([[0.0], np.cumsum((c[down] * d[down])[order_dn])])
    dd_dn = np.concatenate([[0.0], np.cumsum((d[down] ** 2)[order_dn])])

    def coefficients(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """phi'(s) = A s + B with the active set at s."""
        n_up = np.searchsorted(t_up, s, side="left")  # t < s
        n_dn = np.searchsorted(t_dn, s, side="right")  # t <= s inactive; t > s active
        A = pair_weight * (dd_up[n_up] + dd_dn[-1] - dd_dn[n_dn]) + G
        B = pair_weight * (cd_up[n_up] + cd_dn[-1] - cd_dn[n_dn]) - Rg
        return A, B

    knots = np.unique(t)
    if len(knots) == 0:  # every pair keeps its value along g
        A, B = coefficients(np.zeros(1))
        return float(-B[0] / A[0]) if A[0] > 0 else 0.0
    A, B = coefficients(knots)
    slope = A * knots + B
    nonneg = slope >= 0.0
    k = int(np.argmax(nonneg)) if nonneg.any() else len(knots)  # the root is in segment k
    lo = knots[k - 1] if k > 0 else knots[0] - 1.0
    hi = knots[k] if k < len(knots) else knots[-1] + 1.0
    A_seg, B_seg = coefficients(np.array([0.5 * (lo + hi)]))
    if A_seg[0] <= 0.0:  # flat: the objective is constant on this segment
        return float(knots[min(k, len(knots) - 1)])
    s = -B_seg[0] / A_seg[0]
    if k > 0:
        s = max(s, float(knots[k - 1]))
    if k < len(knots):
        s = min(s, float(knots[k]))
    return float(s)


def regression_set(
    h: np.ndarray,
    pi: np.ndarray,
    pj: np.ndarray,
    tau: np.ndarray,
    lz: np.ndarray,
    labels: np.ndarray,
    pair_weight: float,
    label_weight: float,
    duplicates: Duplicates = "count",
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 2, step 1, merged per distinct point: each point's target and weight.

    Contributions: ``+v`` to ``pi[p]`` and ``-v`` to ``pj[p]`` with ``v = max(0, h[pj] - h[pi] +
    tau)`` (weight ``pair_weight``), ``labels - h[lz]`` to ``lz`` (weight ``label_weight``).
    ``count``: weighted mean target, summed weight; ``single``: plain mean, mean weight."""
    n = len(h)
    v = np.maximum(0.0, h[pj] - h[pi] + tau)
    pair_sum = np.bincount(pi, weights=v, minlength=n) - np.bincount(pj, weights=v, minlength=n)
    label_sum = np.bincount(lz, weights=labels - h[lz], minlength=n)
    n_pair = np.bincount(np.concatenate([pi, pj]), minlength=n).astype(np.float64)
    n_label = np.bincount(lz, minlength=n).astype(np.float64)
    if duplicates == "single":  # the remark read literally: the plain average of the targets
        denominator = n_pair + n_label
        return (pair_sum + label_sum) / denominator, (
            pair_weight * n_pair + label_weight * n_label
        ) / denominator
    denominator = pair_weight * n_pair + label_weight * n_label
    return (pair_weight * pair_sum + label_weight * label_sum) / denominator, denominator


@dataclass(eq=False, repr=False)
class QBRank(TreeRanker):
    """QBRank (Algorithm 2) on preference pairs and labelled points.

    ``fit(X, y, qid, pair_mask=..., label_mask=...)``: the rows of ``pair_mask`` give every
    within-query preference with unequal grades (tau from ``margin``), the rows of
    ``label_mask`` enter with their grade; ``fit_preferences`` takes pairs directly.
    """

    n_trees: int = 400
    _: KW_ONLY
    max_leaf_nodes: int = 20
    learning_rate: float = 0.05
    w: float = 0.5
    margin: str | float = "grade_difference"
    duplicates: Duplicates = "count"
    random_state: int = 0

    def _check_params(self) -> None:
        check_trees("QBRank", self.n_trees, self.max_leaf_nodes, self.learning_rate)
        if not 0.0 <= self.w <= 1.0:
            raise BoostrankError(f"QBRank: w must lie in [0, 1], got {self.w}")
        if self.duplicates not in ("single", "count"):
            raise BoostrankError(
                f"QBRank: duplicates must be single or count, got {self.duplicates!r}"
            )
        if self.margin != "grade_difference" and not isinstance(self.margin, int | float):
            raise BoostrankError(
                f"QBRank: margin must be 'grade_difference' or a number: {self.margin}"
            )

    def fit(
        self,
        X: np.ndarray,
        y: np.ndarray,
        qid: np.ndarray | None = None,
        *,
        validation: Validation | None = None,
        pair_mask: np.ndarray | None = None,
        label_mask: np.ndarray | None = None,
    ) -> Self:
        """Preferences from the rows of ``pair_mask`` (default: all), labels from the rows of
        ``label_mask`` (default: none); ``validation`` is ignored."""
        X, y, qid = self.check_data(X, y, qid)
        n = len(y)
        pair_mask = np.ones(n, bool) if pair_mask is None else np.asarray(pair_mask, bool)
        label_mask = np.zeros(n, bool) if label_mask is None else np.asarray(label_mask, bool)
        rows = np.flatnonzero(pair_mask)
        i, j = query_pairs(y[rows], qid[rows])
        i, j = rows[i], rows[j]
        if self.margin == "grade_difference":
            tau = (y[i] - y[j]).astype(np.float64)
        else:
            tau = np.full(len(i), float(self.margin))
        labeled = np.flatnonzero(label_mask)
        return self.fit_preferences(X, i, j, tau, labeled=labeled, labels=y[labeled])

    def fit_preferences(
        self,
        X: np.ndarray,
        preferred: np.ndarray,
        other: np.ndarray,
        tau: np.ndarray,
        labeled: np.ndarray,
        labels: np.ndarray,
    ) -> Self:
        """Algorithm 2 on rows ``preferred[p] > other[p]`` (margin ``tau[p]``) and labelled rows
        ``labeled`` with ``labels``; rows of X in neither are not used."""
        self._check_params()
        preferred = np.asarray(preferred, dtype=np.intp)
        other = np.asarray(other, dtype=np.intp)
        labeled = np.asarray(labeled, dtype=np.intp)
        tau = np.asarray(tau, dtype=np.float64)
        labels = np.asarray(labels, dtype=np.float64)
        n_pairs, n_labels = len(preferred), len(labeled)
        if not (len(other) == len(tau) == n_pairs and len(labels) == n_labels):
            raise BoostrankError("QBRank: pair and label arrays differ in length")
        if n_pairs + n_labels == 0:
            raise BoostrankError("QBRank: no preference pair and no labelled point to train on")
        if (n_pairs and self.w == 0.0) or (n_labels and self.w == 1.0):
            raise BoostrankError(f"QBRank: w = {self.w} gives zero weight to the data given")
        # the rows used, renumbered 0..n_used-1 (a row may be in pairs and labelled)
        used, inverse = np.unique(np.concatenate([preferred, other, labeled]), return_inverse=True)
        pi, pj = inverse[:n_pairs], inverse[n_pairs : 2 * n_pairs]
        lz = inverse[2 * n_pairs :]
        X32 = as_tree_input(self.as_features(X)[used])
        n_used = len(used)
        scale = (1.0 - self.w) if n_labels else self.w  # common factor: tree and step unchanged
        pw, lw = self.w / scale, (1.0 - self.w) / scale
        model = TreeEnsemble(init=float(np.mean(labels)) if n_labels else 0.0)
        h = np.full(n_used, model.init)
        for seed in tree_seeds(self.random_state, self.n_trees):
            # Algorithm 2, step 1: the regression set of this iteration
            target, weight = regression_set(
                h,
                pi,
                pj,
                tau,
                lz=lz,
                labels=labels,
                pair_weight=pw,
                label_weight=lw,
                duplicates=self.duplicates,
            )
            residual = labels - h[lz]
            tree = fit_regression_tree(
                X32, target, weight, max_leaf_nodes=self.max_leaf_nodes, seed=int(seed)
            )
            g = tree.predict(X32)
            # step 2: line search on R along g, then the shrunken step
            s = line_search(
                h[pj] - h[pi] + tau, g[pj] - g[pi], residual, g[lz], pair_weight=pw, label_weight=lw
            )
            step = self.learning_rate * s
            model.add(tree, step)
            h += step * g
        self.model_ = model
        self.train_scores_ = np.empty(0) if n_used == 0 else h
        self.rows_used_ = used
        self.n_pairs_ = n_pairs
        self.n_labels_ = n_labels
        return self
