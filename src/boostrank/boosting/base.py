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
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boostrank.errors import BoostrankError

UNLABELLED = -1


def check_semi_supervised(
    X: Any, y: Any, n_classes: int | None = None
) -> tuple[np.ndarray, np.ndarray, int]:
    """Validate ``(X, y)`` with ``y = -1`` for unlabelled rows; returns float arrays, int
    labels and the number of classes (``max(y) + 1`` unless given)."""
    X = np.asarray(X)
    if X.dtype.kind not in "fiu":
        raise BoostrankError(f"X must be numeric, got dtype {X.dtype}")
    X = np.ascontiguousarray(X, dtype=np.float32)
    y = np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise BoostrankError(f"X must be (n, d) and y (n,); got {X.shape} and {y.shape}")
    if y.dtype.kind not in "iu":
        raise BoostrankError("y must hold integer class indices (-1: unlabelled)")
    y = y.astype(np.int64)
    if (y < UNLABELLED).any():
        raise BoostrankError("y holds negative labels other than -1 (unlabelled)")
    labelled = y >= 0
    if not labelled.any():
        raise BoostrankError("no labelled rows (y = -1 everywhere)")
    k = int(y.max()) + 1 if n_classes is None else int(n_classes)
    if y.max() >= k:
        raise BoostrankError(f"label {int(y.max())} is not below n_classes={k}")
    return X, y, k


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
    (to tie-breaking) at about 60% of the cost on the high-dimensional data sets."""
    rows, counts = np.unique(idx, return_counts=True)
    return fit_tree(
        X[rows], target[rows], n_classes, depth, rng, sample_weight=counts.astype(np.float64)
    )


class TreeClassifier:
    """The baseline "Tree" of section 2.4: the base classifier trained on the labelled rows
    only (rows with ``y = -1`` are ignored)."""

    def __init__(self, depth: int | None = 2, random_state: int | None = None) -> None:
        self.depth = depth
        self.random_state = random_state

    def fit(self, X: Any, y: Any, n_classes: int | None = None) -> TreeClassifier:
        """Fit on the labelled rows."""
        X, y, k = check_semi_supervised(X, y, n_classes)
        labelled = y >= 0
        rng = np.random.default_rng(self.random_state)
        self.n_classes_ = k
        self.tree_ = fit_tree(X[labelled], y[labelled], k, self.depth, rng)
        self.depth_ = self.tree_.depth()
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predicted class of each row."""
        return self.tree_.predict(np.asarray(X, dtype=np.float32))

    def predict_proba(self, X: Any) -> np.ndarray:
        """The tree's leaf class frequencies, in global class columns."""
        X = np.asarray(X, dtype=np.float32)
        out = np.zeros((len(X), self.n_classes_))
        out[:, self.tree_.tree.classes_] = self.tree_.tree.predict_proba(X)
        return out
