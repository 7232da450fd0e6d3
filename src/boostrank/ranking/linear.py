"""Pointwise linear regression on the relevance labels with an L2 penalty (ridge regression),
as in Sengupta (2018), *Document Analysis*, section "Linear Regression" (Table 4: L2
regularisation 1e-10, 1 and 1e5). Documents are ranked by the regression value."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import Ridge

from boostrank.ranking.base import Ranker
from boostrank.ranking.validation import Validation


@dataclass(eq=False, repr=False)
class LinearRanker(Ranker):
    """Ridge regression of the labels; ``fit(X, y, qid)`` ignores ``qid`` (pointwise)."""

    needs_qid = False

    l2: float = 1.0

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Least squares with penalty ``l2 * ||w||^2`` and an unpenalised intercept."""
        self.model_ = Ridge(alpha=self.l2, solver="auto").fit(X, np.asarray(y, dtype=np.float64))
        self.coef_ = self.model_.coef_
        self.intercept_ = float(self.model_.intercept_)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The regression value of each document (its ranking score)."""
        X = self.check_predict(X)
        return self.model_.predict(X)
