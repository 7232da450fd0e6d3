"""ASSEMBLE (Adaptive Semi-Supervised Ensemble), multi-class, as the dissertation states it.

H. Valizadegan, *Boosting and Online Learning for Classification and Ranking*, PhD dissertation,
Michigan State University 2010, section 2.3.2, Algorithm 2; after Bennett, Demiriz and Maclin,
"Exploiting Unlabeled Data in Ensemble Methods", KDD 2002 (ASSEMBLE.AdaBoost).

The algorithm, as implemented (F the N x m ensemble scores)::

    w_1(i)  = beta / N_l (labelled),  (1 - beta) / N_u (unlabelled)               (step 3)
    repeat t = 1..T:
      y_i   = argmax_k F^k(x_i) for unlabelled i (t = 1: the initial pseudo-labels)  (step 5)
      draw s = max(20, N/5) rows with probability w_t; fit the tree h_t on (x_i, y_i)
      eps_t = sum_i w_t(i) I(y_i != h_t(x_i))            over every row            (step 6)
      a_t   = ln((1 - eps_t) / eps_t) + ln(m - 1)     (SAMME; printed: 1/2 ln(...))  (step 7)
      F    += a_t onehot(h_t(x))                                                    (step 8)
      w_t+1(i) = w_t(i) exp(a_t I(y_i != h_t(x_i))) / Z_t                            (step 9)

Readings (configurable):

1. **Initial weights.** Algorithm 2 step 3 gives unlabelled rows weight 0, and step 9 only
   multiplies weights, so as printed the unlabelled rows would never count and ASSEMBLE would
   be AdaBoost on the labelled rows. Bennett et al. start the unlabelled rows at
   (1 - beta)/N_u with beta = 0.9; ``labelled_share`` is that beta (1.0: the printed step 3).
2. **Initial pseudo-labels.** At t = 1, F = 0 names no class. Bennett et al. label the
   unlabelled rows by their nearest labelled neighbour; ``init="nearest"`` (default) does that
   (Euclidean 1-NN), ``init="tree"`` uses the base tree trained on the labelled rows.
3. **The weak learner** gets a weighted resample of s = max(20, N/5) rows (Algorithm 2's input
   "s: the number of sampled examples", the same rule as MCSSB) or, with
   ``sampling="weights"``, every row with its weight.
4. **The tree's weight.** Step 7 prints AdaBoost's binary weight 1/2 ln((1 - eps_t) / eps_t),
   which is <= 0 once eps_t >= 1/2. A multi-class tree of depth 2 on 10 or more classes has a
   first-round weighted error of 0.62-0.70, so the printed weight is negative at once, and
   Algorithm 2 has no rule for that (it loops "until reach the maximum number of iterations").
   ``alpha_rule="samme"`` (default) uses the standard multi-class generalisation, SAMME (Zhu,
   Zou, Rosset and Hastie, "Multi-class AdaBoost", Statistics and Its Interface 2, 2009,
   Algorithm 2): a_t = ln((1 - eps_t) / eps_t) + ln(m - 1), positive for any tree better than
   chance (eps_t < (m - 1)/m), with step 9's update as printed. For m = 2 it is twice the
   printed weight: F ranks the classes alike, and step 9 then multiplies a misclassified row's
   weight by (1 - eps_t)/eps_t, as AdaBoost does, instead of the printed sqrt((1 - eps_t) /
   eps_t). A tree no better than chance ends the
   loop (SAMME's own rule; scikit-learn's AdaBoostClassifier does the same).
   ``alpha_rule="printed"`` uses step 7 as printed and stops at a_t <= 0 (AdaBoost.M1's rule),
   which keeps a single tree on the 10-class sets. Either way, if the first tree is no better
   than that rule allows it is kept with weight 1, so the model is never empty; eps_t = 0 caps
   a_t at ``max_alpha``. ``n_iterations_`` (trees kept) and ``stop_reason_`` record what
   happened.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from boostrank.boosting.base import (
    WeakTree,
    fit_sample,
    fit_tree,
    resample,
    sample_size,
    validate_predict_input,
    validate_semi_supervised,
)
from boostrank.errors import BoostrankError


def nearest_labelled(X: np.ndarray, y: np.ndarray, block: int = 2048) -> np.ndarray:
    """The label of each row's nearest labelled row (Euclidean; labelled rows keep theirs)."""
    labelled = np.flatnonzero(y >= 0)
    L = X[labelled].astype(np.float64)
    l_norm = np.einsum("ij,ij->i", L, L)
    out = y.copy()
    todo = np.flatnonzero(y < 0)
    for start in range(0, len(todo), block):
        rows = todo[start : start + block]
        U = X[rows].astype(np.float64)
        d2 = l_norm[None, :] - 2.0 * (U @ L.T)  # + |u|^2, the same for every column
        out[rows] = y[labelled[np.argmin(d2, axis=1)]]
    return out


class Assemble(ClassifierMixin, BaseEstimator):
    """ASSEMBLE over decision trees (Algorithm 2), multi-class."""

    def __init__(
        self,
        n_iterations: int = 50,
        depth: int | None = 2,
        labelled_share: float = 0.9,
        init: str = "nearest",
        sampling: str = "resample",
        sample_min: int = 20,
        sample_fraction: float = 0.2,
        max_alpha: float = 10.0,
        alpha_rule: str = "samme",
        random_state: int | None = None,
    ) -> None:
        self.n_iterations = n_iterations
        self.depth = depth
        self.labelled_share = labelled_share
        self.init = init
        self.sampling = sampling
        self.sample_min = sample_min
        self.sample_fraction = sample_fraction
        self.max_alpha = max_alpha
        self.alpha_rule = alpha_rule
        self.random_state = random_state

    def fit(self, X: Any, y: Any, n_classes: int | None = None) -> Assemble:
        """Fit on all rows; ``y = -1`` marks unlabelled rows (``n_classes``: ``classes_`` is
        ``0..n_classes-1``)."""
        if self.init not in ("nearest", "tree") or self.sampling not in ("resample", "weights"):
            raise BoostrankError("init must be nearest|tree and sampling resample|weights")
        if self.alpha_rule not in ("samme", "printed"):
            raise BoostrankError(f"alpha_rule must be samme or printed, not {self.alpha_rule!r}")
        if not 0 < self.labelled_share <= 1:
            raise BoostrankError("labelled_share must be in (0, 1]")
        X, y, m = validate_semi_supervised(self, X, y, n_classes)
        n = len(X)
        labelled = y >= 0
        n_l, n_u = int(labelled.sum()), int((~labelled).sum())
        rng = np.random.default_rng(self.random_state)
        w = np.where(labelled, self.labelled_share / n_l, 0.0)
        if n_u:
            w[~labelled] = (1.0 - self.labelled_share) / n_u
        w /= w.sum()
        if self.init == "nearest" or not n_u:
            target = nearest_labelled(X, y) if n_u else y.copy()
        else:
            first = fit_tree(X[labelled], y[labelled], m, self.depth, rng)
            target = np.where(labelled, y, first.predict(X))
        s = sample_size(n, self.sample_min, self.sample_fraction)
        F = np.zeros((n, m))
        rows = np.arange(n)
        self.trees_: list[WeakTree] = []
        self.alphas_: list[float] = []
        self.errors_: list[float] = []
        self.stop_reason_ = "max_iterations"
        for t in range(self.n_iterations):
            if t > 0:
                target[~labelled] = np.argmax(F[~labelled], axis=1)  # step 5
            if self.sampling == "resample":
                idx = resample(w, s, rng)
                tree = fit_sample(X, target, idx, m, self.depth, rng)
            else:
                tree = fit_tree(X, target, m, self.depth, rng, sample_weight=w)
            pred = tree.predict(X)
            wrong = pred != target
            eps = float(w[wrong].sum())  # step 6
            self.errors_.append(eps)
            alpha = self.tree_weight(eps, m)  # step 7

            if alpha <= 0:
                self.stop_reason_ = "alpha<=0"
                if not self.trees_:  # keep the first tree so the model predicts something
                    self.trees_.append(tree)
                    self.alphas_.append(1.0)
                break
            F[rows, pred] += alpha  # step 8
            self.trees_.append(tree)
            self.alphas_.append(alpha)
            w = w * np.exp(alpha * wrong)  # step 9
            w /= w.sum()
        self.n_classes_ = m
        self.n_iterations_ = len(self.trees_)
        return self

    def tree_weight(self, eps: float, n_classes: int) -> float:
        """a_t of step 7 (module docstring, reading 4), capped at ``max_alpha``."""
        if eps <= 0:
            return float(self.max_alpha)
        if self.alpha_rule == "printed":
            alpha = 0.5 * np.log((1 - eps) / eps)
        else:  # SAMME (Zhu et al. 2009)
            alpha = np.log((1 - eps) / eps) + np.log(max(n_classes - 1, 1))
        return float(min(alpha, self.max_alpha))

    def decision_function(self, X: Any) -> np.ndarray:
        """F(x) = sum_t a_t onehot(h_t(x))."""
        X = validate_predict_input(self, X)
        F = np.zeros((len(X), self.n_classes_))
        rows = np.arange(len(X))
        for a, tree in zip(self.alphas_, self.trees_, strict=True):
            F[rows, tree.predict(X)] += a
        return F

    def predict_proba(self, X: Any) -> np.ndarray:
        """Normalised votes F / sum F (uniform where there are none)."""
        F = self.decision_function(X)
        total = F.sum(axis=1, keepdims=True)
        return np.where(total > 0, F / np.where(total > 0, total, 1), 1.0 / self.n_classes_)

    def predict(self, X: Any) -> np.ndarray:
        """The class of argmax_k F^k(x)."""
        index = np.argmax(self.decision_function(X), axis=1)
        return self.classes_[index]
