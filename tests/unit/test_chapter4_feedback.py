"""Figures 4.2-4.4's statistics (Valizadegan 2010, sections 4.4.1-4.4.4) on hand-made curves,
per-query samples and LETOR arrays: "the number of feedback documents have a direct effect on
the performance" on the data sets other than NP2003, and on NP2003 "there is no changes in the
performance of MRR with different relevance feedback" (the spread across the feedback sizes
within one standard error at every k); the relevant documents the text explains its curves by,
and the comparisons of MRR with LRR and with its base rankers."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from boostrank.experiments.chapter4.jobs_curves import Z_95
from boostrank.experiments.chapter4.summary_feedback import (
    NO_CHANGE,
    NO_CHANGE_SE,
    fractions4_2,
    lrr_spread4_2,
    over_se_fraction,
    paired_over_se,
    poor4_3,
    queries4_3,
    spread_over_se,
    stats4_4,
)
from boostrank.experiments.chapter4.summary_relevance import (
    base_counts,
    base_empty4_4,
    empty4_3,
    feedback_counts,
    letor_arrays,
    one_relevant4_2,
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


# --------------------------------------------------------------------------------------------
# The relevant documents behind Figures 4.2-4.4 (sections 4.4.2-4.4.4), counted from hand-made
# LETOR arrays, and the per-query comparisons of Figures 4.2 and 4.3.


def _letor(path: Path, queries: dict[int, tuple[list[float], list[int]]]) -> Path:
    """A LETOR npz of ``queries`` (id -> feature 1's values, grades; feature 2 the reverse
    order), in the order given (not necessarily by id)."""
    rows = [(q, x, g) for q, (xs, gs) in queries.items() for x, g in zip(xs, gs, strict=True)]
    X = np.array([[x, -x] for _, x, _ in rows], dtype=np.float32)
    y = np.array([g for _, _, g in rows], dtype=np.int8)
    np.savez(path, X=X, y=y, qid=np.array([q for q, _, _ in rows], dtype=np.int32))
    return path


def _part(ds: str, feature: int = 1, feedback: int = 2, queries: int = 2) -> pd.DataFrame:
    """A data set's result rows as the summaries read them (one row suffices)."""
    return pd.DataFrame(
        [
            {
                "dataset": ds,
                "family": "mrr",
                "algorithm": "MRR",
                "base_feature": feature,
                "feedback": feedback,
                "queries": queries,
                "evaluated": "all",
                "data_kind": "real",
                "provenance": "hand-made",
            }
        ]
    )


def _stat(rows: list[dict[str, Any]], statistic: str, dataset: str) -> float:
    (value,) = [r["value"] for r in rows if (r["statistic"], r["dataset"]) == (statistic, dataset)]
    return float(value)


def test_feedback_counts_follow_the_base_rankers_order_ties_in_file_order(tmp_path: Path) -> None:
    path = _letor(tmp_path / "np2003.npz", {7: ([0.9, 0.5, 0.5, 0.1], [0, 0, 1, 1]),
                                           3: ([0.2, 0.8, 0.4], [1, 0, 0])})  # fmt: skip
    by_first = feedback_counts(path, 1, 2).set_index("query")
    # query 7: 0.9 then the first 0.5 in file order (grade 0): none of its 2 relevant judged
    assert by_first.loc[7].to_dict() == {"relevant": 2, "in_feedback": 0}
    assert by_first.loc[3].to_dict() == {"relevant": 1, "in_feedback": 0}  # 0.8, 0.4 judged
    assert list(by_first.index) == [3, 7]  # by id, as the jobs take them
    assert feedback_counts(path, 2, 2).set_index("query").loc[7, "in_feedback"] == 1
    assert len(feedback_counts(path, 1, 2, max_queries=1)) == 1
    assert letor_arrays(path) == "np2003" and letor_arrays(tmp_path / "ohsumed_rebuilt.npz")
    assert letor_arrays(tmp_path / "movielens_100k.npz") is None


def test_one_relevant_document_per_query_on_the_last_four(tmp_path: Path) -> None:
    single = {1: ([0.3, 0.2], [1, 0]), 2: ([0.3, 0.2], [0, 1])}
    d = {"letor": {"hp2003": _letor(tmp_path / "hp2003.npz", single)}}
    view = pd.concat([_part("hp2003")])
    rows: list[dict[str, Any]] = []
    one_relevant4_2(rows, view, d)
    assert _stat(rows, "one_relevant_fraction", "last_four") == 1.0  # "only one ... each query"
    # NP2003 with two relevant documents for one of its queries: the statement fails
    double = {1: ([0.3, 0.2], [1, 1]), 2: ([0.3, 0.2], [0, 1])}
    d["letor"]["np2003"] = _letor(tmp_path / "np2003.npz", double)
    rows = []
    one_relevant4_2(rows, pd.concat([view, _part("np2003")]), d)
    assert _stat(rows, "one_relevant_fraction", "np2003") == 0.5
    assert _stat(rows, "one_relevant_fraction", "last_four") == pytest.approx(3 / 4)


def test_feedback_empty_under_the_worst_base_ranker(tmp_path: Path) -> None:
    # feature 1 ranks the relevant document first, feature 2 (its reverse) last
    queries = {1: ([0.9, 0.5, 0.1], [1, 0, 0]), 2: ([0.8, 0.6, 0.2], [1, 0, 0])}
    d: dict[str, Any] = {
        "letor": {"td2003": _letor(tmp_path / "td2003.npz", queries)},
        "base": {"td2003": {"worst": 2, "medium": 2, "best": 1}},
    }
    found = {"td2003": base_counts(d, _part("td2003"))}
    rows: list[dict[str, Any]] = []
    empty4_3(rows, _part("td2003"), found)
    assert _stat(rows, "feedback_empty_fraction_worst", "poor_five") == 1.0  # all irrelevant
    assert _stat(rows, "feedback_empty_fraction_best", "td2003") == 0.0
    # the worst base ranker of HP2003 judges a relevant document for one of its two queries
    d["letor"]["hp2003"] = _letor(tmp_path / "hp2003.npz", {1: ([0.9, 0.1], [0, 1]),
                                                            2: ([0.9, 0.1], [1, 0])})  # fmt: skip
    d["base"]["hp2003"] = {"worst": 1, "medium": 1, "best": 2}
    found["hp2003"] = base_counts(d, _part("hp2003", feedback=1))
    rows = []
    empty4_3(rows, pd.concat([_part("td2003"), _part("hp2003")]), found)
    assert _stat(rows, "feedback_empty_fraction_worst", "hp2003") == 0.5
    assert _stat(rows, "feedback_empty_fraction_worst", "poor_five") == pytest.approx(3 / 4)


def test_paired_over_se() -> None:
    a = pd.Series([0.3, 0.5, 0.4], index=[1, 2, 3])
    assert paired_over_se(a, a) == 0.0  # no difference: no change
    b = pd.Series([0.2, 0.3, 0.4], index=[1, 2, 3])  # a - b = 0.1, 0.2, 0.0
    assert paired_over_se(a, b) == pytest.approx(0.1 / (0.1 / math.sqrt(3)))
    up = pd.Series([0.5, 0.75, 0.25], index=[1, 2, 3])
    down = pd.Series([0.25, 0.5, 0.0], index=[1, 2, 3])  # 0.25 below on every query
    assert paired_over_se(up, down) == math.inf and paired_over_se(down, up) == -math.inf
    assert math.isnan(paired_over_se(a.iloc[:1], b.iloc[:1]))
    assert paired_over_se(a, b.iloc[:2]) == pytest.approx(3.0)  # queries 1, 2: 0.15 / 0.05


def _per_query(ds: str, family: str, algorithm: str, values: list[float], **extra: Any) -> list:
    """Per-query samples (the jobs' ``.queries.csv`` rows), queries 1, 2, ..."""
    return [
        {"dataset": ds, "family": family, "algorithm": algorithm, "variant": "",
         "evaluated": "all", "query": q, "value": v, **extra}
        for q, v in enumerate(values, start=1)
    ]  # fmt: skip


def test_lrr_depends_on_gamma_and_mrr_against_lrr_best() -> None:
    qs = pd.DataFrame(
        _per_query("ohsumed", "lrr", "LRR-Best", [0.5, 0.6, 0.7, 0.4])
        + _per_query("ohsumed", "lrr", "LRR-Worst", [0.3, 0.35, 0.5, 0.3])
        + _per_query("td2004", "lrr", "LRR-Best", [0.5, 0.6, 0.7, 0.4])
        + _per_query("td2004", "lrr", "LRR-Worst", [0.5, 0.6, 0.7, 0.4])  # gamma changes nothing
    )
    view = pd.concat([_part("ohsumed"), _part("td2004")])
    rows: list[dict[str, Any]] = []
    for ds in ("ohsumed", "td2004"):
        lrr_spread4_2(rows, _part(ds), qs[qs["dataset"] == ds], ds)
    assert _stat(rows, "lrr_best_minus_worst_over_se", "ohsumed") > NO_CHANGE_SE
    assert _stat(rows, "lrr_best_minus_worst_over_se", "td2004") == 0.0
    over_se_fraction(
        rows, view, "lrr_best_minus_worst_over_se", ["ohsumed", "td2004"],
        name="lrr_depends_fraction", scope="all", within=False,
    )  # fmt: skip
    assert _stat(rows, "lrr_depends_fraction", "all") == 0.5  # not on every data set: fails
    perf = {
        "ohsumed": {"MRR": 0.6, "LRR-Best": 0.5, "Base ranker": 0.4, "Rocchio": 0.4,
                    "Ranking-SVM": 0.4},
        "td2004": {"MRR": 0.5, "LRR-Best": 0.5, "Base ranker": 0.4, "Rocchio": 0.4,
                   "Ranking-SVM": 0.4},
    }  # fmt: skip
    rows = []
    fractions4_2(rows, view, perf)
    assert _stat(rows, "mrr_beats_lrr_best_fraction", "all") == 0.5  # level on TD2004: fails
    perf["td2004"]["MRR"] = 0.55
    rows = []
    fractions4_2(rows, view, perf)
    assert _stat(rows, "mrr_beats_lrr_best_fraction", "all") == 1.0


def _bases_queries(ds: str, gains: dict[str, list[float]]) -> pd.DataFrame:
    """Figure 4.3's per-query samples of one data set: base rankers at 0.2, MRR ``gains``
    above each (worst, medium, best) on queries 1.."""
    out = []
    for which, gain in gains.items():
        fam_mrr, fam_base = ("mrr", "baselines") if which == "best" else ("mrr_bases",) * 2
        variant = "" if which == "best" else which
        base = [0.2] * len(gain)
        out += _per_query(ds, fam_base, "Base ranker", base)
        out += _per_query(ds, fam_mrr, "MRR", [0.2 + g for g in gain])
        for row in out[-2 * len(gain) :]:
            row["variant"] = variant
    return pd.DataFrame(out)


def test_mrr_gains_where_the_feedback_holds_a_relevant_document(tmp_path: Path) -> None:
    # feature 1 judges query 1's relevant document only; feature 2 none of either query's
    queries = {1: ([0.9, 0.1, 0.5], [1, 0, 0]), 2: ([0.9, 0.1, 0.5], [0, 0, 1])}
    d: dict[str, Any] = {
        "letor": {"np2003": _letor(tmp_path / "np2003.npz", queries)},
        "base": {"np2003": {"worst": 2, "medium": 2, "best": 1}},
    }
    found = base_counts(d, _part("np2003", feedback=1))
    qs = _bases_queries("np2003", {"worst": [0.01, -0.01], "medium": [0.0, 0.0],
                                   "best": [0.3, 0.0]})  # fmt: skip
    rows: list[dict[str, Any]] = []
    gains = queries4_3(rows, _part("np2003"), qs, found)
    assert list(gains.index) == ["1@best"] and gains.iloc[0] == pytest.approx(0.3)
    assert _stat(rows, "mrr_minus_base_some_relevant", "np2003") == pytest.approx(0.3)
    assert _stat(rows, "mrr_gain_over_se_worst", "np2003") == 0.0
    poor4_3(rows, _part("np2003"), {"np2003": gains})
    assert _stat(rows, "mrr_no_gain_worst_fraction", "poor_five") == 1.0  # no improvement
    assert _stat(rows, "mrr_minus_base_some_relevant", "all") == pytest.approx(0.3)
    # MRR gaining on the worst base ranker of NP2003, beyond one standard error: fails
    qs = _bases_queries("np2003", {"worst": [0.2, 0.3], "medium": [0.0, 0.0],
                                   "best": [-0.1, 0.0]})  # fmt: skip
    rows = []
    gains = queries4_3(rows, _part("np2003"), qs, found)
    poor4_3(rows, _part("np2003"), {"np2003": gains})
    assert _stat(rows, "mrr_gain_over_se_worst", "np2003") == pytest.approx(5.0)
    assert _stat(rows, "mrr_no_gain_worst_fraction", "poor_five") == 0.0
    assert _stat(rows, "mrr_minus_base_some_relevant", "all") < 0  # no improvement here


def test_the_no_change_reading_sets_how_many_standard_errors_are_no_improvement() -> None:
    # config chapter4.no_change_se (reading chapter4_no_change_se): MRR gains 1.5 standard
    # errors over NP2003's worst base ranker, an improvement at 1 and none at 2
    qs = _bases_queries("np2003", {"worst": [0.05, 0.01], "medium": [0.0, 0.0],
                                   "best": [0.0, 0.0]})  # fmt: skip
    for no_change_se, expected in ((1.0, 0.0), (2.0, 1.0)):
        rows: list[dict[str, Any]] = []
        gains = queries4_3(rows, _part("np2003"), qs, {})
        assert _stat(rows, "mrr_gain_over_se_worst", "np2003") == pytest.approx(1.5)
        poor4_3(rows, _part("np2003"), {"np2003": gains}, no_change_se=no_change_se)
        assert _stat(rows, "mrr_no_gain_worst_fraction", "poor_five") == expected
        (note,) = (r["note"] for r in rows if r["statistic"] == "mrr_no_gain_worst_fraction")
        assert f"within {no_change_se:g} (" in note


def _base_rows(dataset: str, ndcg: list[float]) -> list[dict[str, Any]]:
    """The base ranker's rows of family baselines (Figure 4.4's dashed curve)."""
    rows = _rows(dataset, 20, ndcg)
    for row in rows:
        row.update(algorithm="Base ranker", family="baselines")
    return rows


def test_small_feedback_improves_considerably_on_every_data_set() -> None:
    curves = {(ds, s): [0.2 * (1 + s / 50)] * 2 for ds in ("ohsumed", "np2003") for s in (5, 20)}
    base = [r for ds in ("ohsumed", "np2003") for r in _base_rows(ds, [0.2, 0.2])]
    frame = pd.concat([_frame(curves), pd.DataFrame(base)], ignore_index=True)
    stats = stats4_4({"frame": frame}, "all")[1].set_index(["statistic", "dataset"])["value"]
    assert stats["mrr_smallest_rel_gain", "ohsumed"] == pytest.approx(0.1)  # 5 documents: +10%
    assert stats["mrr_smallest_rel_gain_min", "all"] == pytest.approx(0.1)  # "considerably"
    # NP2003's MRR with 5 documents only 5% above its base ranker: not considerably
    curves["np2003", 5] = [0.21, 0.21]
    frame = pd.concat([_frame(curves), pd.DataFrame(base)], ignore_index=True)
    stats = stats4_4({"frame": frame}, "all")[1].set_index(["statistic", "dataset"])["value"]
    assert stats["mrr_smallest_rel_gain_min", "all"] == pytest.approx(0.05)


def test_np2003_base_ranker_retrieves_nothing_for_most_queries(tmp_path: Path) -> None:
    # feature 1 puts the relevant document of queries 1 and 2 below the first 2, of 3 on top
    queries = {1: ([0.9, 0.5, 0.1], [0, 0, 1]), 2: ([0.9, 0.5, 0.1], [0, 0, 1]),
               3: ([0.9, 0.5, 0.1], [1, 0, 0])}  # fmt: skip
    d = {"letor": {"np2003": _letor(tmp_path / "np2003.npz", queries)}}
    rows: list[dict[str, Any]] = []
    base_empty4_4(rows, d, _part("np2003", queries=3), 2)
    assert _stat(rows, "base_feedback_empty_fraction", "np2003") == pytest.approx(2 / 3)  # most
    rows = []
    base_empty4_4(rows, d, _part("np2003", queries=3), 3)  # every relevant document judged
    assert _stat(rows, "base_feedback_empty_fraction", "np2003") == 0.0
