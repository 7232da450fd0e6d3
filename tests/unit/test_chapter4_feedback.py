"""Figure 4.4's statistics (Valizadegan 2010, section 4.4.4) on hand-made curves: "the number of
feedback documents have a direct effect on the performance" on the data sets other than NP2003,
and on NP2003 "there is no changes in the performance of MRR with different relevance
feedback" (the spread across the feedback sizes within one standard error at every k)."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import pytest

from boostrank.experiments.chapter4.jobs_curves import Z_95
from boostrank.experiments.chapter4.summary_feedback import (
    NO_CHANGE,
    spread_over_se,
    stats4_4,
)


def _rows(dataset: str, size: int, ndcg: list[float], se: float = 0.02) -> list[dict[str, Any]]:
    """MRR's rows with ``size`` feedback documents: NDCG@k for k = 1.., a 95% band of
    +- Z_95 ``se`` clipped to [0, 1] (as the jobs write it)."""
    return [
        {
            "algorithm": "MRR",
            "family": "mrr_sizes",
            "variant": "",
            "feedback": size,
            "dataset": dataset,
            "evaluated": "all",
            "k": k,
            "ndcg": v,
            "ci_low": max(v - Z_95 * se, 0.0),
            "ci_high": min(v + Z_95 * se, 1.0),
            "data_kind": "mirror",
            "provenance": "hand-made",
        }
        for k, v in enumerate(ndcg, start=1)
    ]


def _frame(curves: dict[tuple[str, int], list[float]], se: float = 0.02) -> pd.DataFrame:
    return pd.DataFrame([r for (ds, size), c in curves.items() for r in _rows(ds, size, c, se)])


def test_spread_over_se_is_zero_for_equal_curves_and_grows_with_the_change() -> None:
    same = _frame({(NO_CHANGE, 5): [0.1, 0.2], (NO_CHANGE, 10): [0.1, 0.2]})
    assert spread_over_se(same, [5, 10]) == 0.0
    within = _frame({(NO_CHANGE, 5): [0.1, 0.2], (NO_CHANGE, 10): [0.11, 0.2]})
    assert spread_over_se(within, [5, 10]) == pytest.approx(0.5, abs=1e-6)  # 0.01 / 0.02
    # a change of 2.5 standard errors at k = 2: the statement "no changes" fails
    moved = _frame({(NO_CHANGE, 5): [0.1, 0.2], (NO_CHANGE, 10): [0.1, 0.25]})
    assert spread_over_se(moved, [5, 10]) == pytest.approx(2.5, abs=1e-6)
    # at NDCG 0 the band is clipped below: the standard error comes from its upper half
    clipped = _frame({(NO_CHANGE, 5): [0.0], (NO_CHANGE, 10): [0.01]})
    assert spread_over_se(clipped, [5, 10]) == pytest.approx(0.5, abs=1e-6)
    # a change with no band to measure it: undecided
    no_band = moved.drop(columns=["ci_low", "ci_high"])
    assert math.isnan(spread_over_se(no_band, [5, 10]))
    assert spread_over_se(same.drop(columns=["ci_low", "ci_high"]), [5, 10]) == 0.0


def _summary(curves: dict[tuple[str, int], list[float]]) -> pd.Series:
    _tidy, stats = stats4_4({"frame": _frame(curves)}, "all")
    return stats.set_index(["statistic", "dataset"])["value"]


def test_feedback_helps_on_the_data_sets_other_than_np2003() -> None:
    rising = {
        (ds, s): [0.1 * s / 5, 0.2 * s / 5] for ds in ("ohsumed", "td2003") for s in (5, 10, 15)
    }
    flat = {(NO_CHANGE, s): [0.05, 0.06] for s in (5, 10, 15)}
    stats = _summary({**rising, **flat})
    assert stats["feedback_monotone_fraction", NO_CHANGE] == 0.0  # no step raises NP2003
    assert stats["feedback_monotone_fraction", "all_but_np2003"] == 1.0  # every step elsewhere
    assert stats["feedback_spread_over_se", NO_CHANGE] == 0.0  # "no changes": holds
    assert stats["feedback_spread_over_se", "ohsumed"] > 1  # OHSUMED does change
    assert ("feedback_monotone_fraction", "all") not in stats.index
    # TD2003 falling with 15 documents: feedback no longer helps on every step of the six
    falling = {**rising, ("td2003", 15): [0.1, 0.2]}
    stats = _summary({**falling, **flat})
    assert stats["feedback_monotone_fraction", "all_but_np2003"] == pytest.approx(0.75)
