"""The one protocol of the online learners: progressive validation (predict, then learn), as
every text behind this package runs its online experiments -- Valizadegan (2010), *Boosting and
Online Learning for Classification and Ranking*, chapters 5 and 6 (cumulative error of the
labels played); Crammer and Singer (2005), "Online Ranking by Projecting", section 6 (loss of
the ranks predicted); Zhang, Jung and Tewari (2019), *Online Boosting for Multilabel Ranking
with Top-k Feedback*, Algorithm 1 (loss of the rankings shown; its weak learners predict, then
receive a cost vector, section 2.1).

``partial_fit(X, y)`` takes one round (or several, in order), predicts, learns from ``y`` and
returns the prediction it made *before* learning: the label, rank, ranking scores or
distributions it played. A caller computes mistakes or losses from that prediction and ``y``;
the learner keeps no running score. What ``X``, ``y`` and the prediction are, per family:

- multi-class learners (``streams.MulticlassLearner``: Banditron, Perceptron, exponential
  gradient): X (R, d) for one trial of R runs, or (R, n, d); y the (R,) or (R, n) labels;
  returns the labels played, same shape (the Banditron's and the exponential gradient's drawn
  y~, the Perceptron's argmax): the mistakes are ``played != y``;
- ordinal rankers (``prank``, ``ordinal_baselines``): X (R, d); y the (R,) ranks in 1..k;
  returns the predicted ranks: the loss is ``|played - y|``;
- top-k boosters (``topk_boosting.TopkBooster``): X (n, d) rows in order; y their (n, m)
  relevance; returns the (n, m) scores shown, whose ranking is the (explored) ranking the
  booster played: the loss is ``rank_loss.weighted_rank_loss(played, y)``;
- weak learners (``multilabel_weak``): X one row (d,); y the booster's feedback, a function of
  the (N, m) distributions played that returns their cost vectors (the booster builds them from
  this round's predictions) or None; returns the distributions.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class OnlineLearner(Protocol):
    """An online learner: one learning verb that returns what the learner predicted."""

    def partial_fit(self, X: np.ndarray, y: Any, /) -> np.ndarray:
        """Predict for ``X``, learn from ``y``, return the prediction made before learning."""
        ...
