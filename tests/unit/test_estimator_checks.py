"""scikit-learn's estimator checks on the semi-supervised classifiers of chapter 2 (the "Tree"
baseline, ASSEMBLE, MCSSB), with small settings so that the whole file runs in seconds."""

from __future__ import annotations

from typing import Any

from sklearn.utils.estimator_checks import parametrize_with_checks

from boostrank.boosting.assemble import Assemble
from boostrank.boosting.base import TreeClassifier
from boostrank.boosting.mcssb import MCSSB

MINUS_ONE = "y = -1 marks unlabelled rows (semi-supervised), so labels {-1, 1} give classes_ [1]"
BINARY = "decision_function is N x m (every class's score) also for m = 2, unchanged, not 1-d"


def expected_failed_checks(estimator: Any) -> dict[str, str]:
    """The checks these classifiers cannot pass, each with its reason."""
    if not hasattr(estimator, "decision_function"):  # the Tree baseline
        return {"check_classifiers_classes": MINUS_ONE}
    return {
        "check_classifiers_classes": f"{MINUS_ONE}; {BINARY}",
        "check_classifiers_train": BINARY,
        # MCSSB passes it only through the check's tie-relaxed fallback
        "check_decision_proba_consistency": BINARY,
    }


@parametrize_with_checks(
    [
        TreeClassifier(random_state=0),
        Assemble(n_iterations=3, random_state=0),
        # the checks fit fully labelled data, which Algorithm 3's default sample (unlabelled
        # rows only) cannot draw from: every row is sampled here
        MCSSB(n_iterations=3, sampled_rows="all", random_state=0),
    ],
    expected_failed_checks=expected_failed_checks,
)
def test_sklearn_compatible(estimator: Any, check: Any) -> None:
    check(estimator)
