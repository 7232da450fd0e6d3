"""LambdaMART (Burges 2010, "From RankNet to LambdaRank to LambdaMART: An Overview"): boosted
regression trees fitted to the LambdaRank gradients, as in Sengupta (2018), *Document
Analysis*, sections "MART" and "LambdaMART" (Table 2: 6 leaves, learning rate 0.1, 10 to 1500
trees). Implemented with LightGBM's ``lambdarank`` objective, deterministic.

Early stopping follows the convention of RankLib, whose parameter names the report's tables
use: a model of T trees is trained for at most T rounds, stops when the validation NDCG@10 has
not improved for ``early_stopping_rounds`` rounds, and keeps the prefix of trees that scored
best on the validation part. One training run of ``max(T)`` rounds therefore answers every T:
:meth:`LambdaMART.best_iteration_for` takes the best validation round among the first
``min(T, rounds trained)``. The validation measure is LightGBM's ``ndcg@10`` (gain 2^r - 1,
discount 1/log2(1 + p)); it scores a query without relevant documents 1 rather than 0, a
constant that does not change which round is best.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from typing import Any

import lightgbm as lgb
import numpy as np

from boostrank.errors import BoostrankError
from boostrank.ranking.base import Ranker
from boostrank.ranking.validation import Validation


def _sorted_groups(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(np.asarray(qid), kind="stable")
    _, sizes = np.unique(np.asarray(qid)[order], return_counts=True)
    return order, sizes


@dataclass(eq=False, repr=False)
class LambdaMART(Ranker):
    """LightGBM LambdaMART ranker: ``fit(X, y, qid, validation=...)``, ``predict(X, n_trees)``."""

    x_dtype = None  # LightGBM takes X as given

    n_trees: int = 100
    _: KW_ONLY
    num_leaves: int = 6
    learning_rate: float = 0.1
    min_data_in_leaf: int = 20
    early_stopping_rounds: int | None = 100
    eval_at: int = 10
    num_threads: int = 1
    random_state: int = 0
    params: dict[str, Any] | None = None

    def lgb_params(self) -> dict[str, Any]:
        """The LightGBM parameters of this model."""
        return {
            "objective": "lambdarank",
            "metric": "ndcg",
            "eval_at": [self.eval_at],
            "num_leaves": self.num_leaves,
            "learning_rate": self.learning_rate,
            "min_data_in_leaf": self.min_data_in_leaf,
            "deterministic": True,
            "force_row_wise": True,
            "seed": self.random_state,
            "num_threads": self.num_threads,
            "verbosity": -1,
            **(self.params or {}),
        }

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Boost up to ``n_trees`` rounds; with ``validation`` (X, y, qid), stop early on it."""
        params = self.lgb_params()
        order, sizes = _sorted_groups(qid)
        train = lgb.Dataset(X[order], label=y[order], group=sizes, params=params)
        valid_sets: list[lgb.Dataset] = []
        callbacks: list[Callable[[lgb.callback.CallbackEnv], None]] = []
        history: dict[str, dict[str, list[float]]] = {}
        if validation is not None:
            Xv, yv, qv = validation
            vorder, vsizes = _sorted_groups(qv)
            valid = lgb.Dataset(
                Xv[vorder],
                label=yv[vorder],
                group=vsizes,
                reference=train,
                params=params,
            )
            valid_sets = [valid]
            callbacks.append(lgb.record_evaluation(history))
            if self.early_stopping_rounds:
                callbacks.append(
                    lgb.early_stopping(
                        self.early_stopping_rounds, first_metric_only=True, verbose=False
                    )
                )
        self.booster_ = lgb.train(
            params,
            train,
            num_boost_round=self.n_trees,
            valid_sets=valid_sets,
            valid_names=["validation"][: len(valid_sets)],
            callbacks=callbacks,
        )
        curve = history.get("validation", {}).get(f"ndcg@{self.eval_at}", [])
        self.valid_curve_ = np.asarray(curve, dtype=np.float64)
        # With early stopping LightGBM keeps only the trees up to its best round; the curve
        # covers every round trained (up to best + early_stopping_rounds).
        self.rounds_trained_ = max(len(curve), self.booster_.current_iteration())

    def best_iteration_for(self, n_trees: int | None = None) -> int:
        """The number of trees a T-tree model keeps: its best validation round (1-based)."""
        cap = min(n_trees or self.n_trees, self.rounds_trained_)
        if cap < 1:
            raise BoostrankError("LambdaMART: no tree was trained")
        if len(self.valid_curve_) == 0:
            return cap
        return int(np.argmax(self.valid_curve_[:cap])) + 1  # first of equal maxima

    def predict(self, X: np.ndarray, *, n_trees: int | None = None) -> np.ndarray:
        """Scores of the model with ``n_trees`` trees (default: the fitted ``n_trees``)."""
        X = self.check_predict(X)
        n = self.best_iteration_for(n_trees)
        return np.asarray(self.booster_.predict(X, num_iteration=n))  # dense X: dense
