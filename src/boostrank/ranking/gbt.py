"""Gradient boosted regression trees (GBT): Friedman (2001), "Greedy function approximation: a
gradient boosting machine", Algorithm 2 (LS_Boost) with shrinkage, as the baseline of Zheng et
al. (2007), "A General Boosting Method and its Application to Learning Ranking Functions for Web
Search" (NIPS 2007), section 4: regression on the relevance grades, one regression tree of 20
leaves per iteration, shrinkage 0.05.

LS_Boost (Friedman's Algorithm 2): ``F_0 = mean(y)``; for m = 1..M the residuals
``r = y - F_{m-1}`` are fitted by a least-squares regression tree ``g_m`` (scikit-learn's
``DecisionTreeRegressor(max_leaf_nodes=...)``, best-first growth), the step is the line search
``rho_m = argmin_rho sum (r - rho g_m)^2 = <r, g_m> / <g_m, g_m>`` (Friedman's Algorithm 1, step
4; 1 up to rounding for a least-squares tree) and ``F_m = F_{m-1} + eta rho_m g_m``.

The tree-fitting step (:func:`fit_regression_tree`), the per-tree seeds
(:func:`boostrank.seeds.tree_seeds`) and the additive model (:class:`TreeEnsemble`, with staged
predictions: one training run answers every number of trees) are shared with QBRank
(:mod:`boostrank.ranking.qbrank`), so that QBRank without preference pairs is GBT bit for bit
(Zheng et al., section 3: "When there is no preference data and the weak regression learner
produces a regression tree, QBrank is identical to Gradient Boosting Trees").
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field

import numpy as np
from sklearn.tree import DecisionTreeRegressor

from boostrank.errors import BoostrankError
from boostrank.ranking.base import Ranker
from boostrank.ranking.validation import Validation
from boostrank.seeds import tree_seeds


def as_tree_input(X: np.ndarray) -> np.ndarray:
    """The float32, C-ordered copy scikit-learn's trees work on (converted once per fit)."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    if X.ndim != 2:
        raise BoostrankError(f"X must be 2-D, got shape {X.shape}")
    return X


def fit_regression_tree(
    X32: np.ndarray,
    target: np.ndarray,
    weight: np.ndarray | None,
    *,
    max_leaf_nodes: int,
    seed: int,
) -> DecisionTreeRegressor:
    """The weak learner A(W, X, R) of Zheng et al., equation 3: a weighted least-squares
    regression tree with ``max_leaf_nodes`` leaves. Equal weights are the unweighted problem
    and are passed as such (GBT and weight-free QBRank then fit the same tree)."""
    if weight is not None and np.all(weight == weight[0]):
        weight = None
    tree = DecisionTreeRegressor(max_leaf_nodes=max_leaf_nodes, random_state=int(seed))
    tree.fit(X32, target, sample_weight=weight, check_input=False)
    return tree


def ls_step(residual: np.ndarray, g: np.ndarray) -> float:
    """Friedman's line search for squared error: ``<r, g> / <g, g>`` (0 for a null tree)."""
    gg = float(np.dot(g, g))
    return float(np.dot(residual, g)) / gg if gg > 0.0 else 0.0


@dataclass
class TreeEnsemble:
    """``h(x) = init + sum_m step_m * tree_m(x)`` with ``step_m = eta * s_m``."""

    init: float = 0.0
    trees: list[DecisionTreeRegressor] = field(default_factory=list)
    steps: list[float] = field(default_factory=list)

    def add(self, tree: DecisionTreeRegressor, step: float) -> None:
        """Append one tree and its step."""
        self.trees.append(tree)
        self.steps.append(float(step))

    def staged_predict(self, X: np.ndarray, stages: Sequence[int]) -> np.ndarray:
        """Scores after each number of trees in ``stages`` (ascending), ``(len(stages), n)``,
        from one pass over the trees."""
        stages = [int(s) for s in stages]
        if any(b < a for a, b in itertools.pairwise(stages)) or (
            stages and (stages[0] < 0 or stages[-1] > len(self.trees))
        ):
            raise BoostrankError(
                f"stages must ascend within 0..{len(self.trees)} trees, got {stages}"
            )
        X32 = as_tree_input(X)
        out = np.empty((len(stages), len(X32)))
        score = np.full(len(X32), self.init)
        done = 0
        for row, stage in enumerate(stages):
            for m in range(done, stage):
                score += self.steps[m] * self.trees[m].predict(X32)
            done = stage
            out[row] = score
        return out

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Scores of the whole ensemble."""
        return self.staged_predict(X, [len(self.trees)])[0]


def check_trees(name: str, n_trees: int, max_leaf_nodes: int, learning_rate: float) -> None:
    """The boosting settings GBT and QBRank share, or a BoostrankError."""
    if n_trees < 1 or max_leaf_nodes < 2 or not learning_rate > 0:
        raise BoostrankError(f"{name} needs n_trees >= 1, max_leaf_nodes >= 2, learning_rate > 0")


class TreeRanker(Ranker):
    """A ranker whose fitted model is a :class:`TreeEnsemble` (``model_``): GBT and QBRank."""

    x_dtype = "float32"  # scikit-learn's trees split float32 features
    model_: TreeEnsemble

    def staged_predict(self, X: np.ndarray, stages: Sequence[int]) -> np.ndarray:
        """Scores after each number of trees in ``stages``."""
        X = self.check_predict(X)
        return self.model_.staged_predict(X, stages)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Scores of all ``n_trees`` trees."""
        X = self.check_predict(X)
        return self.model_.predict(X)


@dataclass(eq=False, repr=False)
class GBT(TreeRanker):
    """Friedman's LS_Boost with regression trees; ``fit(X, y)``, ``predict``, ``staged_predict``.

    ``qid`` is accepted (and ignored) so that the ranking experiments can call every ranker the
    same way.
    """

    needs_qid = False

    n_trees: int = 400
    _: KW_ONLY
    max_leaf_nodes: int = 20
    learning_rate: float = 0.05
    random_state: int = 0

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Boost ``n_trees`` trees on the squared error to ``y``."""
        check_trees("GBT", self.n_trees, self.max_leaf_nodes, self.learning_rate)
        X32 = as_tree_input(X)
        y = np.asarray(y, dtype=np.float64)
        if len(y) == 0:
            raise BoostrankError("GBT: no training row")
        model = TreeEnsemble(init=float(np.mean(y)))  # F_0 = argmin_c sum (y - c)^2
        h = np.full(len(y), model.init)
        for seed in tree_seeds(self.random_state, self.n_trees):
            residual = y - h  # Algorithm 2: y~_i = y_i - F_{m-1}(x_i)
            tree = fit_regression_tree(
                X32, residual, None, max_leaf_nodes=self.max_leaf_nodes, seed=int(seed)
            )
            g = tree.predict(X32)
            step = self.learning_rate * ls_step(residual, g)
            model.add(tree, step)
            h += step * g
        self.model_ = model
        self.train_scores_ = h
