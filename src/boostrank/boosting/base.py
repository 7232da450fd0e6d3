"""The base classifier of the dissertation's chapter 2 (Valizadegan 2010, *Boosting and Online
Learning for Classification and Ranking*, section 2.4.1): a multi-class decision tree of
configurable depth, "two levels of nodes" by default.

Depth counts levels of decision nodes, as scikit-learn's ``max_depth`` does: section 2.4.4
calls the one-node tree a decision stump (``depth=1``) and goes up to the fully grown tree
(``depth=None``). The tree is scikit-learn's CART (Gini); the boosting algorithms train it on a
weighted resample of the training rows (:func:`resample`), the supervised baseline "Tree" on the
labelled rows alone (:class:`TreeClassifier`).

Class indices are global (0..n_classes-1) throughout: a tree fitted on a sample that misses some
classes still returns global indices and one-hot rows of width ``n_classes``.
The estimators follow scikit-learn: ``fit`` validates its input and maps the labels to these
indices (:func:`validate_semi_supervised`; ``y = -1`` marks unlabelled rows), ``predict``
returns ``classes_[index]``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from boostrank.errors import BoostrankError, InputError
from boostrank.guards import Guards

UNLABELLED = -1
# Guard ids (readings of config/readings.yaml) of the tree weight both boosters share.
ALPHA_CAP = "boosting_alpha_cap"  # an infinite printed weight becomes +-max_alpha
ALPHA_CLIP = "boosting_alpha_clip"  # a finite weight beyond +-max_alpha is clipped (option)


def encode_labels(y: np.ndarray, n_classes: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(classes_, indices)`` for labels ``y``: ``classes_`` is ``arange(n_classes)`` when
    given (y then holds class indices), else the sorted labelled values (any labels);
    ``indices`` holds each row's position in ``classes_``, -1 for unlabelled rows (numeric
    ``y == -1``, scikit-learn's semi-supervised convention)."""
    y = np.asarray(y)
    numeric = y.dtype.kind in "iuf"
    unlabelled = y == UNLABELLED if numeric else np.zeros(len(y), dtype=bool)
    labels = y[~unlabelled]
    if not len(labels):
        raise InputError("no labelled rows (y = -1 everywhere)")
    if n_classes is None:
        classes = np.unique(labels)
    else:
        k = int(n_classes)
        if not numeric or ((labels < 0) | (labels >= k) | (labels != np.floor(labels))).any():
            raise InputError(f"with n_classes={k}, y must hold 0..{k - 1} (-1: unlabelled)")
        classes = np.arange(k)
    indices = np.full(len(y), UNLABELLED, dtype=np.int64)
    indices[~unlabelled] = np.searchsorted(classes, labels)
    return classes, indices


def validate_semi_supervised(
    estimator: Any, X: Any, y: Any, n_classes: int | None = None
) -> tuple[np.ndarray, np.ndarray, int]:
    """``fit``'s input checks: scikit-learn's ``validate_data`` (finite numeric X, 1-d y,
    ``n_features_in_``) and classification targets; sets ``classes_`` (:func:`encode_labels`).
    Returns X (float32, C order), the class indices (-1: unlabelled) and ``len(classes_)``."""
    X, y = validate_data(estimator, X, y, dtype=np.float32, order="C")
    check_classification_targets(y)
    estimator.classes_, indices = encode_labels(y, n_classes)
    return X, indices, len(estimator.classes_)


def validate_predict_input(estimator: Any, X: Any) -> np.ndarray:
    """``predict``'s input checks: fitted, finite numeric X with the fitted feature count;
    returns X as float32 in C order."""
    check_is_fitted(estimator)
    return validate_data(estimator, X, reset=False, dtype=np.float32, order="C")


def one_hot(labels: np.ndarray, n_classes: int, dtype: Any = np.float64) -> np.ndarray:
    """Rows e_{labels[i]} of width ``n_classes``."""
    out = np.zeros((len(labels), n_classes), dtype=dtype)
    out[np.arange(len(labels)), labels] = 1
    return out


def resample(weights: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` row indices drawn with replacement, with probability proportional to
    ``weights`` (non-negative; all zero: uniform)."""
    w = np.clip(np.asarray(weights, dtype=np.float64), 0.0, None)
    total = w.sum()
    if not np.isfinite(total):
        raise BoostrankError("sampling weights are not finite")
    if total <= 0:
        return rng.integers(0, len(w), size)
    cdf = np.cumsum(w / total)
    return np.minimum(np.searchsorted(cdf, rng.random(size) * cdf[-1], side="right"), len(w) - 1)


def bounded_alpha(alpha: float, max_alpha: float, clip: bool, guards: Guards) -> float:
    """The tree weight a boosting step adds: ``alpha`` as printed (Algorithm 2 step 7, Eq. 2.19)
    where it is finite; an infinite printed weight (a tree with no weighted error) becomes
    +-``max_alpha``, counted under :data:`ALPHA_CAP`. With ``clip``, a finite weight beyond
    +-``max_alpha`` is clipped too, counted under :data:`ALPHA_CLIP` (the text has no clip)."""
    if math.isinf(alpha):
        guards.fire(ALPHA_CAP)
        return math.copysign(float(max_alpha), alpha)
    if clip and abs(alpha) > max_alpha:
        guards.fire(ALPHA_CLIP)
        return math.copysign(float(max_alpha), alpha)
    return float(alpha)


def sample_size(n: int, minimum: int = 20, fraction: float = 0.2) -> int:
    """s = max(20, N/5) (section 2.3.4: the number of examples each weak learner sees)."""
    return max(minimum, int(n * fraction))


class WeakTree:
    """A fitted decision tree that answers in global class indices."""

    def __init__(self, tree: Any, n_classes: int) -> None:
        self.tree = tree
        self.n_classes = n_classes

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Global class index of each row (the tree was fitted on global indices). Rows that
        are already float32 and C-contiguous skip scikit-learn's input checks (they cost more
        than the tree itself on the boosting loops' many small predictions)."""
        if X.dtype == np.float32 and X.flags.c_contiguous:
            return self.tree.predict(X, check_input=False).astype(np.int64)
        return self.tree.predict(X).astype(np.int64)

    def depth(self) -> int:
        """The fitted depth (levels of decision nodes)."""
        return int(self.tree.get_depth())


def fit_tree(
    X: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    depth: int | None,
    rng: np.random.Generator,
    sample_weight: np.ndarray | None = None,
) -> WeakTree:
    """A CART tree of at most ``depth`` levels (None: fully grown) on ``(X, y)``."""
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(max_depth=depth, random_state=int(rng.integers(0, 2**31 - 1)))
    tree.fit(X, y, sample_weight=sample_weight)
    return WeakTree(tree, n_classes)


def fit_sample(
    X: np.ndarray,
    target: np.ndarray,
    idx: np.ndarray,
    n_classes: int,
    depth: int | None,
    rng: np.random.Generator,
) -> WeakTree:
    """The tree on the resampled rows ``X[idx]``: each distinct row once, weighted by how often
    it was drawn. CART's impurities and leaf votes count a duplicated row exactly as its weight,
    and only distinct rows can be separated, so this is the tree of the duplicated sample
    (to tie-breaking), at less cost."""
    rows, counts = np.unique(idx, return_counts=True)
    return fit_tree(
        X[rows], target[rows], n_classes, depth, rng, sample_weight=counts.astype(np.float64)
    )


class TreeClassifier(ClassifierMixin, BaseEstimator):
    """The baseline "Tree" of section 2.4: the base classifier trained on the labelled rows
    only (rows with ``y = -1`` are ignored)."""

    def __init__(self, depth: int | None = 2, random_state: int | None = None) -> None:
        self.depth = depth
        self.random_state = random_state

    def fit(self, X: Any, y: Any, n_classes: int | None = None) -> TreeClassifier:
        """Fit on the labelled rows (``n_classes``: ``classes_`` is ``0..n_classes-1``)."""
        X, y, k = validate_semi_supervised(self, X, y, n_classes)
        labelled = y >= 0
        rng = np.random.default_rng(self.random_state)
        self.n_classes_ = k
        self.tree_ = fit_tree(X[labelled], y[labelled], k, self.depth, rng)
        self.depth_ = self.tree_.depth()
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predicted class of each row."""
        X = validate_predict_input(self, X)
        return self.classes_[self.tree_.predict(X)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """The tree's leaf class frequencies, in global class columns."""
        X = validate_predict_input(self, X)
        out = np.zeros((len(X), self.n_classes_))
        out[:, self.tree_.tree.classes_] = self.tree_.tree.predict_proba(X)
        return out
