"""Rocchio relevance feedback as Valizadegan, *Boosting and Online Learning for Classification
and Ranking* (2010), section 4.4.1, adapts it to feature vectors (Eq. 4.20):

    Q = Q_0 + alpha * mean(R_1..R_n1) - beta * mean(S_1..S_n2)                      (Eq. 4.20)

with ``R`` the relevant and ``S`` the non-relevant judged documents, ``Q_0 = 0`` (a LETOR
document is a vector of query-document features, there is no query vector) and the inner
product ``Q . x`` as the score. The dissertation varies alpha and beta over 1..10 and keeps the
best setting; :func:`rocchio_scores` scores every setting at once (only ``alpha / beta``
changes the order, so many settings tie). A side without documents contributes 0. In the
experiments the base ranker's score is appended to ``x`` as an extra feature.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.ranking.base import Ranker
from boostrank.ranking.validation import Validation

DEFAULT_WEIGHTS: tuple[int, ...] = tuple(range(1, 11))


def settings(
    alphas: Sequence[float] = DEFAULT_WEIGHTS, betas: Sequence[float] = DEFAULT_WEIGHTS
) -> np.ndarray:
    """Every (alpha, beta) pair, alpha-major: an ``(len(alphas) * len(betas), 2)`` array."""
    a, b = np.meshgrid(np.asarray(alphas, float), np.asarray(betas, float), indexing="ij")
    return np.stack([a.ravel(), b.ravel()], axis=1)


def rocchio_scores(
    X: np.ndarray,
    relevant: np.ndarray,
    nonrelevant: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """Scores ``Q . x`` of every row of X (n x d) for each (alpha, beta) row of ``weights``:
    an ``n x len(weights)`` matrix. ``relevant`` / ``nonrelevant`` select the judged rows."""
    X = np.asarray(X, dtype=np.float64)
    rel = np.asarray(relevant, dtype=bool)
    non = np.asarray(nonrelevant, dtype=bool)
    if rel.shape != (X.shape[0],) or non.shape != (X.shape[0],):
        raise BoostrankError("relevant / nonrelevant must be boolean masks over the rows of X")
    if (rel & non).any():
        raise BoostrankError("a document cannot be both relevant and non-relevant")
    centroid_r = X[rel].mean(axis=0) if rel.any() else np.zeros(X.shape[1])
    centroid_s = X[non].mean(axis=0) if non.any() else np.zeros(X.shape[1])
    both = X @ np.stack([centroid_r, centroid_s], axis=1)  # (n, 2)
    w = np.asarray(weights, dtype=np.float64).reshape(-1, 2)
    return both[:, :1] * w[:, 0] - both[:, 1:] * w[:, 1]  # Q_0 = 0


@dataclass(eq=False, repr=False)
class Rocchio(Ranker):
    """Eq. 4.20 with one (alpha, beta): ``fit(X, y)`` on judged documents (grade y >= 1 is
    relevant), ``predict(X)`` gives ``Q . x``."""

    needs_qid = False

    alpha: float = 1.0
    beta: float = 1.0

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """The query vector from judged documents X and their grades y."""
        rel, non = y >= 1, y < 1
        zero = np.zeros(X.shape[1])
        self.query_ = self.alpha * (X[rel].mean(axis=0) if rel.any() else zero) - self.beta * (
            X[non].mean(axis=0) if non.any() else zero
        )

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Inner products with the query vector."""
        return self.check_predict(X) @ self.query_


__all__ = ["DEFAULT_WEIGHTS", "Rocchio", "rocchio_scores", "settings"]
