"""The one builder of the summary statistics' rows (boostrank.report.stat_rows): its column
order, value rounding, data kinds and the "not run" note."""

import math

import pandas as pd

from boostrank.report.stat_rows import NOT_RUN, kind_of, stat_row

PART = pd.DataFrame({"data_kind": ["real", "mirror"], "provenance": ["a", "b"]})


def test_columns_in_order_and_unused_ones_left_out():
    row = stat_row(statistic="s", dataset="d", method="m", value=0.1234567, part=PART, note="n")
    assert list(row) == [
        "statistic",
        "dataset",
        "method",
        "value",
        "data_kind",
        "provenance",
        "note",
    ]
    assert row["value"] == 0.123457
    assert (row["data_kind"], row["provenance"]) == ("mixed", "a; b")
    meta = {"dataset": "d", "data_kind": "real", "provenance": "x"}
    row = stat_row(
        panel="p", statistic="s", algorithm="A", key="a", value=3, note="n", kinds=None,
        digits=None, meta=meta,
    )  # fmt: skip
    assert list(row) == [
        "panel", "statistic", "algorithm", "key", "value", "note", "dataset", "data_kind",
        "provenance",
    ]  # fmt: skip
    assert row["value"] == 3 and isinstance(row["value"], int)


def test_kinds_one_or_joined():
    assert kind_of(PART.iloc[:1]) == ("real", "a")
    assert stat_row(statistic="s", value=1, part=PART, kinds="joined")["data_kind"] == "mirror+real"
    synthetic = pd.concat([PART, pd.DataFrame({"data_kind": ["synthetic"], "provenance": ["c"]})])
    for kinds in ("one", "joined"):
        assert (
            stat_row(statistic="s", value=1, part=synthetic, kinds=kinds)["data_kind"]
            == "synthetic"
        )
    assert stat_row(statistic="s", value=1, part=PART.iloc[:0])["data_kind"] == ""


def test_values_missing_and_flagged():
    assert stat_row(statistic="s", value=None)["value"] == ""
    assert stat_row(statistic="s", value="text")["value"] == "text"
    assert stat_row(statistic="s", value=0.123456789, digits=8)["value"] == 0.12345679
    assert math.isnan(stat_row(statistic="s", value=float("nan"), part=PART)["value"])
    for value, part in ((float("nan"), PART), (None, PART), (1.0, None), (1.0, PART.iloc[:0])):
        row = stat_row(statistic="s", value=value, part=part, note="n", flag_missing=True)
        assert (row["value"], row["note"]) == ("", NOT_RUN + "n")
    row = stat_row(statistic="s", value=1.0, part=PART, note="n", flag_missing=True)
    assert (row["value"], row["note"]) == (1.0, "n")
