"""Model selection on a validation fold, shared by the LETOR 3.0 baselines (AdaRank, FRank,
ListNet, SVM-MAP, RankSVM's C grid).

A hyper-parameter (rounds, epochs, C) is chosen as the first value with the best validation score;
the score is a LETOR measure from :mod:`boostrank.metrics.ranking` (``formula="letor"``, LETOR's
evaluation script): ``"ndcg@k"`` (mean NDCG@k) or ``"map"``.
"""

from __future__ import annotations

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.metrics.ranking import mean_average_precision, mean_ndcg

Validation = tuple[np.ndarray, np.ndarray, np.ndarray]


def check_metric(metric: str) -> str:
    """``metric`` if it is ``"map"`` or ``"ndcg@k"`` with a positive integer k; else an error."""
    if metric == "map":
        return metric
    head, _, cut = metric.partition("@")
    if head == "ndcg" and cut.isdigit() and int(cut) >= 1:
        return metric
    raise BoostrankError(f"unknown validation metric {metric!r}; use 'map' or 'ndcg@k'")


def validation_score(
    y: np.ndarray, scores: np.ndarray, qid: np.ndarray, metric: str = "ndcg@10"
) -> float:
    """Mean NDCG@k (``"ndcg@k"``) or MAP (``"map"``) of ``scores``, LETOR's formulas."""
    check_metric(metric)
    if metric == "map":
        return mean_average_precision(y, scores, qid)
    return mean_ndcg(y, scores, qid, int(metric.split("@")[1]), formula="letor")


class Selection:
    """Model selection along training (rounds, epochs, C values): the validation score of each
    candidate in turn (``curve``) and whether it is the best so far, first of equal maxima.

    ``floor``: the score a first candidate must beat (None: the first candidate is always kept).
    """

    def __init__(self, validation: Validation, metric: str, floor: float | None = -np.inf) -> None:
        self.X, self.y, self.qid = validation
        self.metric = check_metric(metric)
        self.best = floor
        self.curve: list[float] = []

    def improves(self, scores: np.ndarray) -> bool:
        """Record the validation score of ``scores`` (one per validation document); True if it
        beats every earlier one."""
        score = validation_score(self.y, scores, self.qid, self.metric)
        self.curve.append(score)
        if self.best is None or score > self.best:
            self.best = score
            return True
        return False
