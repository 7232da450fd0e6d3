"""Personality Diagnosis (Pennock, Horvitz, Lawrence and Giles, "Collaborative Filtering by
Personality Diagnosis: A Hybrid Memory- and Model-Based Approach", UAI 2000), the base ranker
of the recommender experiment in Valizadegan (2010), section 4.4.1.

Each training user ``t`` is a possible "true personality" of the active user, who reports
ratings with Gaussian noise of standard deviation ``sigma``:

- ``P(type = t | observed) ~ prod_j exp(-(r_aj - R_tj)^2 / (2 sigma^2))`` over the items ``j``
  both the active user (among the observed ratings) and ``t`` rated, uniform prior;
- ``P(r_ak = x) ~ sum_t P(type = t | observed) exp(-(x - R_tk)^2 / (2 sigma^2))`` over the
  training users who rated item ``k``, for ``x`` in the rating scale, normalised over ``x``;
  an item no training user rated gets the uniform distribution.

Pennock et al. predict the most probable rating; for a ranking the expected rating (``score=
"expected"``, the default) breaks the many ties the mode leaves; ``"mode"`` is available.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy.special import logsumexp

from boostrank.errors import BoostrankError


class PersonalityDiagnosis:
    """``fit(R)`` with the training users' ratings (users x items, NaN = unrated);
    ``predict(items, ratings, candidates)`` scores candidate items for one active user."""

    def __init__(
        self,
        sigma: float = 1.0,
        scale: tuple[int, ...] = (1, 2, 3, 4, 5),
        score: Literal["expected", "mode"] = "expected",
    ) -> None:
        self.sigma = sigma
        self.scale = scale
        self.score = score

    def fit(self, ratings: np.ndarray) -> PersonalityDiagnosis:
        """Store the training users' rating matrix (NaN where unrated)."""
        R = np.asarray(ratings, dtype=np.float64)
        if R.ndim != 2:
            raise BoostrankError("PersonalityDiagnosis: ratings must be users x items")
        if self.sigma <= 0:
            raise BoostrankError(f"PersonalityDiagnosis: sigma must be > 0, got {self.sigma}")
        if self.score not in ("expected", "mode"):
            raise BoostrankError("PersonalityDiagnosis: score must be expected or mode")
        self.ratings_ = R
        self.rated_ = ~np.isnan(R)
        return self

    def posterior(self, items: np.ndarray, ratings: np.ndarray) -> np.ndarray:
        """``P(type = t | observed ratings)`` over the training users."""
        R = self.ratings_[:, np.asarray(items, dtype=np.int64)]
        diff = np.where(np.isnan(R), 0.0, R - np.asarray(ratings, dtype=np.float64)[None, :])
        ll = -(diff**2).sum(axis=1) / (2.0 * self.sigma**2)
        return np.exp(ll - logsumexp(ll))

    def distribution(
        self, items: np.ndarray, ratings: np.ndarray, candidates: np.ndarray
    ) -> np.ndarray:
        """``P(r_ak = x)`` for each candidate item (rows) and rating ``x`` of the scale."""
        post = self.posterior(items, ratings)
        R = self.ratings_[:, np.asarray(candidates, dtype=np.int64)]  # (T, c)
        x = np.asarray(self.scale, dtype=np.float64)
        kernel = np.exp(-((x[None, None, :] - R[:, :, None]) ** 2) / (2.0 * self.sigma**2))
        kernel = np.where(np.isnan(R)[:, :, None], 0.0, kernel)  # unrated: no evidence
        mix = np.einsum("t,tcx->cx", post, kernel)
        total = mix.sum(axis=1, keepdims=True)
        uniform = np.full_like(mix, 1.0 / len(x))
        return np.divide(mix, total, out=uniform, where=total > 0)

    def predict(self, items: np.ndarray, ratings: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Scores of the candidate items: expected rating or most probable rating."""
        dist = self.distribution(items, ratings, candidates)
        x = np.asarray(self.scale, dtype=np.float64)
        if self.score == "mode":
            return x[np.argmax(dist, axis=1)]
        return dist @ x


__all__ = ["PersonalityDiagnosis"]
