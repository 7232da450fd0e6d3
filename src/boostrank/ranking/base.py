"""The rankers' common interface: scikit-learn's estimator conventions (``BaseEstimator``:
``get_params``, ``set_params``, ``clone``), one training entry, ``fit(X, y, qid, *,
validation=None)`` (:class:`Ranker`), and ``predict(X)``, one score per document; a query's
documents are ranked by decreasing score.

Constructor parameters are stored as given; whatever is derived from them is computed in
``fit``. Each ranker declares its parameters once, as the fields of
``@dataclass(eq=False, repr=False)``: the generated ``__init__`` stores each argument under
its own name and sets nothing else, which is what ``get_params`` and ``clone`` read, and
``eq``/``repr`` stay ``BaseEstimator``'s (identity, and the parameters that differ from their
defaults). Parameters after ``_: KW_ONLY`` are keyword-only.

:meth:`Ranker.fit` checks the data (X 2-D, y and qid one value per row; X in the
dtype the algorithm works in, ``x_dtype``) and the validation fold, then runs the ranker's
algorithm, ``_fit``. Rankers with other training arguments (RankNet's checkpoints, QBRank's
masks) override ``fit`` and call the same checks. The ranking refiners of chapter 4 (MRR,
LRR) train on one query from a base ranker's scores and feedback pairs instead
(:class:`boostrank.ranking.refinement.Refiner`). Every ``predict`` starts with
:meth:`RankingModel.check_predict`, which raises scikit-learn's ``NotFittedError`` before
``fit``.
"""

from __future__ import annotations

from typing import ClassVar, Self

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from boostrank.errors import BoostrankError
from boostrank.ranking.validation import Validation


class RankingModel(BaseEstimator):
    """What every ranking model shares: parameters as scikit-learn reads them, and ``predict``'s
    checks. ``x_dtype``: the dtype X is converted to, in ``fit``, for the validation fold and in
    ``predict`` (None: kept as given)."""

    x_dtype: ClassVar[str | None] = "float64"

    def as_features(self, X: np.ndarray) -> np.ndarray:
        """X as an array in ``x_dtype``."""
        return np.asarray(X) if self.x_dtype is None else np.asarray(X, dtype=self.x_dtype)

    def check_predict(self, X: np.ndarray) -> np.ndarray:
        """X for ``predict``: NotFittedError before ``fit``, else X in ``x_dtype``."""
        check_is_fitted(self)
        return self.as_features(X)


class Ranker(RankingModel):
    """A learning-to-rank model: ``fit(X, y, qid, *, validation=None)``, ``predict(X)``.

    ``needs_qid``: False for pointwise rankers, which accept and ignore ``qid`` (without it,
    every row is one query). Rankers that select no model on a validation fold ignore it.
    """

    needs_qid: ClassVar[bool] = True

    def fit(
        self,
        X: np.ndarray,
        y: np.ndarray,
        qid: np.ndarray | None = None,
        *,
        validation: Validation | None = None,
    ) -> Self:
        """Train on documents X with labels y grouped by query ``qid``; ``validation`` is the
        validation fold ``(X, y, qid)`` or None."""
        X, y, qid = self.check_data(X, y, qid)
        self._fit(X, y, qid, self.check_validation(validation))
        return self

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """The ranker's algorithm on checked arrays."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _fit")

    def check_data(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(X, y, qid)`` as arrays of matching length (X 2-D), or a BoostrankError."""
        name = type(self).__name__
        X, y = self.as_features(X), np.asarray(y)
        if X.ndim != 2 or y.shape != (len(X),):
            raise BoostrankError(f"{name}: X must be 2-D, one label per row: {X.shape}, {y.shape}")
        if qid is None:
            if self.needs_qid:
                raise BoostrankError(f"{name}: fit needs qid, the query of each row")
            return X, y, np.zeros(len(y), dtype=np.intp)
        qid = np.asarray(qid)
        if qid.shape != y.shape:
            raise BoostrankError(f"{name}: qid must give one query per row: {qid.shape}, {y.shape}")
        return X, y, qid

    def check_validation(self, validation: Validation | None) -> Validation | None:
        """The validation fold ``(X, y, qid)`` as arrays (X in ``x_dtype``), or None."""
        if validation is None:
            return None
        Xv, yv, qv = validation
        return self.as_features(Xv), np.asarray(yv), np.asarray(qv)


__all__ = ["Ranker", "RankingModel"]
