"""Figure 6.2's statistics (Valizadegan 2010, section 6.4.2) on hand-made final errors:
"banditron_ag2 and banditron_ag3 yields the best performance among the algorithms in
comparison" is judged against every line of the figure, Banditron_Best included."""

from __future__ import annotations

import pandas as pd

from boostrank.experiments.chapter5_6.spec import LABELS
from boostrank.experiments.chapter5_6.summary import stats_fig6_2


def _final(errors: dict[str, dict[str, float]]) -> pd.DataFrame:
    """Final errors per data set and method key (ag0..ag3, banditron_best, banditron_worst)."""
    return pd.DataFrame(
        [
            {
                "dataset": ds,
                "method": LABELS[key],
                "final_error": value,
                "data_kind": "mirror",
                "provenance": "hand-made",
            }
            for ds, by_key in errors.items()
            for key, value in by_key.items()
        ]
    )


def _fraction(errors: dict[str, dict[str, float]], statistic: str) -> float:
    rows = stats_fig6_2(_final(errors), 0.01)
    (value,) = (r["value"] for r in rows if (r["statistic"], r["dataset"]) == (statistic, "all"))
    return float(value)


def test_ag23_best_overall_counts_banditron_best() -> None:
    rules = {"ag0": 0.45, "ag1": 0.50, "ag2": 0.38, "ag3": 0.40, "banditron_worst": 0.70}
    lowest = {**rules, "banditron_best": 0.39}  # ag2 ends lowest of all six lines
    beaten = {**rules, "banditron_best": 0.36}  # best of the rules, not of the figure
    assert _fraction({"letter": lowest, "mnist": lowest}, "ag23_best_overall") == 1.0
    # the statement fails where Banditron_Best ends below both ag2 and ag3
    assert _fraction({"letter": lowest, "mnist": beaten}, "ag23_best_overall") == 0.5
    assert _fraction({"letter": beaten, "mnist": beaten}, "ag23_best_overall") == 0.0
    # the comparison among the rules alone would not have seen it: ag2 beats ag0 on both
    assert _fraction({"letter": beaten, "mnist": beaten}, "ag2_beats_ag0") == 1.0
