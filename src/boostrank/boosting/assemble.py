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
      a_t   = 1/2 ln((1 - eps_t) / eps_t)     (printed; SAMME: ln(...) + ln(m - 1))  (step 7)
      F    += a_t onehot(h_t(x))                                                    (step 8)
      w_t+1(i) = w_t(i) exp(a_t I(y_i != h_t(x_i))) / Z_t                            (step 9)
    until t = T                                                                    (step 10)

Readings (configurable):

1. **Initial weights** (``assemble_initial_weights``). Algorithm 2 step 3 gives unlabelled rows
   weight 0, and step 9 only multiplies weights, so as printed the unlabelled rows would never
   count and ASSEMBLE would be AdaBoost on the labelled rows. Bennett et al. start the
   unlabelled rows at (1 - beta)/N_u with beta = 0.9; ``labelled_share`` is that beta (1.0: the
   printed step 3).
2. **Initial pseudo-labels** (``assemble_initial_labels``). At t = 1, F = 0 names no class.
   Bennett et al. label the unlabelled rows by their nearest labelled neighbour;
   ``init="nearest"`` (default) does that (Euclidean 1-NN), ``init="tree"`` uses the base tree
   trained on the labelled rows.
3. **The weak learner** gets a weighted resample of s = max(20, N/5) rows (Algorithm 2's input
   "s: the number of sampled examples", the same rule as MCSSB) or, with
   ``sampling="weights"``, every row with its weight.
4. **The tree's weight and the loop** (``assemble_alpha``, ``assemble_iterations``).
   ``alpha_rule="printed"`` (default) is steps 7-10 as printed:
   a_t = 1/2 ln((1 - eps_t) / eps_t) and every one of the T iterations, whatever the sign of a_t. A
   multi-class tree of depth 2 on 10 or more classes can err on more than half the weight, and
   a_t is then negative: step 8 takes a_t from the votes of the classes the tree predicts, and
   step 9 shrinks the weights of the misclassified rows (by exp(a_t) < 1) while the rows
   predicted right keep theirs. That is what is printed; Z_t = (1 - eps_t) + eps_t exp(a_t)
   stays positive. ``"printed_exit"`` adds AdaBoost.M1's exit: the loop is left at a_t <= 0, and
   a first tree with a_t <= 0 is kept with weight 1 so the model is never empty (a single tree
   where the first one errs on more than half the weight). ``"samme"`` uses the multi-class
   weight of SAMME (Zhu, Zou, Rosset and Hastie, "Multi-class AdaBoost", Statistics and Its
   Interface 2, 2009, Algorithm 2): a_t = ln((1 - eps_t) / eps_t) + ln(m - 1), positive for any
   tree better than chance (eps_t < (m - 1)/m), with the same exit (SAMME's own rule, as
   scikit-learn's AdaBoostClassifier). The exit is a guard the printed loop lacks, counted under
   ``assemble_alpha`` when it ends the loop.
5. **Guards on the weight.** eps_t = 0 (eps_t = 1) makes the printed a_t infinite: it becomes
   +max_alpha (-max_alpha), counted under ``boosting_alpha_cap``; finite weights are used as
   printed unless ``clip_alpha`` clips them to +-max_alpha (``boosting_alpha_clip``).
   ``n_iterations_`` (trees kept), ``stop_reason_`` and ``guards_`` record what happened.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from boostrank.boosting.base import (
    ALPHA_CAP,
    ALPHA_CLIP,
    WeakTree,
    bounded_alpha,
    fit_sample,
    fit_tree,
    resample,
    sample_size,
    validate_predict_input,
    validate_semi_supervised,
)
from boostrank.errors import BoostrankError
from boostrank.guards import Guards

ALPHA_RULES = ("printed", "printed_exit", "samme")
EXIT = "assemble_alpha"  # the guard id of the exit at a_t <= 0 (its reading's id)


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
        alpha_rule: str = "printed",
        clip_alpha: bool = False,
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
        self.clip_alpha = clip_alpha
        self.random_state = random_state

    def fit(self, X: Any, y: Any, n_classes: int | None = None) -> Assemble:
        """Fit on all rows; ``y = -1`` marks unlabelled rows (``n_classes``: ``classes_`` is
        ``0..n_classes-1``)."""
        if self.init not in ("nearest", "tree") or self.sampling not in ("resample", "weights"):
            raise BoostrankError("init must be nearest|tree and sampling resample|weights")
        if self.alpha_rule not in ALPHA_RULES:
            raise BoostrankError(f"alpha_rule must be one of {ALPHA_RULES}: {self.alpha_rule!r}")
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
        exits = self.alpha_rule != "printed"
        self.guards_ = Guards.of(
            ALPHA_CAP, *([ALPHA_CLIP] if self.clip_alpha else []), *([EXIT] if exits else [])
        )
        for t in range(self.n_iterations):
            if t > 0:
                target[~labelled] = np.argmax(F[~labelled], axis=1)  # step 5
            if self.sampling == "resample":
                idx = resample(w, s, rng)
                tree = fit_sample(X, target, idx, m, depth=self.depth, rng=rng)
            else:
                tree = fit_tree(X, target, m, self.depth, rng, sample_weight=w)
            pred = tree.predict(X)
            wrong = pred != target
            eps = float(w[wrong].sum())  # step 6
            self.errors_.append(eps)
            printed = self.tree_weight(eps, m)  # step 7
            if exits and printed <= 0:  # the exit the printed loop lacks (reading assemble_alpha)
                self.guards_.fire(EXIT)
                self.stop_reason_ = "alpha<=0"
                if not self.trees_:  # keep the first tree so the model predicts something
                    self.trees_.append(tree)
                    self.alphas_.append(1.0)
                break
            alpha = bounded_alpha(printed, self.max_alpha, self.clip_alpha, self.guards_)
            F[rows, pred] += alpha  # step 8 (a negative alpha takes from the predicted class)
            self.trees_.append(tree)
            self.alphas_.append(alpha)
            # step 9; the rows predicted right keep their weight, so Z_t > 0 for any alpha
            w = np.where(wrong, w * np.exp(alpha), w)
            w /= w.sum()
        self.n_classes_ = m
        self.n_iterations_ = len(self.trees_)
        return self

    def tree_weight(self, eps: float, n_classes: int) -> float:
        """a_t of step 7 (module docstring, reading assemble_alpha) as the rule prints it: +inf
        at eps_t = 0, -inf at eps_t = 1 (:func:`~boostrank.boosting.base.bounded_alpha` then
        caps it)."""
        if eps <= 0:
            return float("inf")
        if eps >= 1:
            return float("-inf")
        if self.alpha_rule == "samme":  # Zhu et al. 2009
            return float(np.log((1 - eps) / eps) + np.log(max(n_classes - 1, 1)))
        return float(0.5 * np.log((1 - eps) / eps))

    def decision_function(self, X: Any) -> np.ndarray:
        """F(x) = sum_t a_t onehot(h_t(x))."""
        X = validate_predict_input(self, X)
        F = np.zeros((len(X), self.n_classes_))
        rows = np.arange(len(X))
        for a, tree in zip(self.alphas_, self.trees_, strict=True):
            F[rows, tree.predict(X)] += a
        return F

    def predict_proba(self, X: Any) -> np.ndarray:
        """Normalised votes F / sum F (uniform where there are none); a row with negative
        votes (trees of negative weight) is first shifted to a least vote of 0, which keeps
        its argmax."""
        F = self.decision_function(X)
        F = F - np.minimum(F.min(axis=1, keepdims=True), 0.0)
        total = F.sum(axis=1, keepdims=True)
        return np.where(total > 0, F / np.where(total > 0, total, 1), 1.0 / self.n_classes_)

    def predict(self, X: Any) -> np.ndarray:
        """The class of argmax_k F^k(x)."""
        index = np.argmax(self.decision_function(X), axis=1)
        return self.classes_[index]
