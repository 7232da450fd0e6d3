"""Claims with their spread: a 95% bootstrap interval over the units a value
averages, value claims judged on the mean, ordinal claims by a paired Wilcoxon test."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boostrank.report.claims import Claim, evaluate
from boostrank.report.spread import paired_verdict, spread


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=40))
def test_the_interval_covers_the_mean(values):
    found = spread(np.array(values), "query", 1, "claim")
    assert found.ci_low <= found.mean <= found.ci_high
    assert found.n == len(values)


def test_the_interval_is_seeded_and_shrinks_with_more_units():
    rng = np.random.default_rng(0)
    few, many = rng.normal(size=10), rng.normal(size=1000)
    assert spread(few, "fold", 7, "c") == spread(few, "fold", 7, "c")
    width = [(s.ci_high - s.ci_low) for s in (spread(few, "q", 7, "c"), spread(many, "q", 7, "c"))]
    assert width[1] < width[0] / 3
    # a 95% interval of a normal mean is about mean +- 1.96 sd / sqrt(n)
    big = spread(many, "q", 7, "c")
    assert big.ci_high - big.ci_low == pytest.approx(2 * 1.96 * big.sd / np.sqrt(1000), rel=0.15)


def test_equal_samples_are_inconclusive():
    a = np.array([0.4, 0.5, 0.6, 0.7])
    assert paired_verdict(a, a.copy(), ">")[0] == "INCONCLUSIVE"


def test_a_clear_difference_decides_either_way():
    rng = np.random.default_rng(3)
    b = rng.uniform(size=60)
    a = b + 0.1 + rng.normal(scale=0.01, size=60)
    assert paired_verdict(a, b, ">")[0] == "PASS"
    assert paired_verdict(a, b, "<")[0] == "FAIL"
    noisy = b + rng.normal(scale=0.3, size=60)
    verdict, note = paired_verdict(noisy, b, ">")
    assert verdict == "INCONCLUSIVE" and "Wilcoxon" in note


@pytest.fixture
def run(tmp_path):
    (tmp_path / "results").mkdir()
    pd.DataFrame({"method": ["a", "b"], "ndcg": [0.52, 0.50]}).to_csv(
        tmp_path / "results/r.csv", index=False
    )
    rng = np.random.default_rng(1)
    base = rng.uniform(0.3, 0.7, size=50)
    rows = [("a", q, v + 0.02) for q, v in enumerate(base)] + [
        ("b", q, v) for q, v in enumerate(base)
    ]
    samples = pd.DataFrame(rows, columns=["method", "unit", "value"])
    samples.insert(1, "measure", "ndcg")
    samples.insert(2, "unit_kind", "query")
    samples.to_csv(tmp_path / "results/r.samples.csv", index=False)
    return tmp_path


def _claim(cid, published, method, rule):
    ref = {"file": "results/r.csv", "row": {"method": method}, "column": "ndcg"}
    return Claim(cid, "src", "stmt", published, ref, rule)


def test_claims_read_the_samples(run):
    other = {"file": "results/r.csv", "row": {"method": "b"}, "column": "ndcg"}
    claims = [
        _claim("w.t.value", 0.5, "b", {"type": "abs", "tol": 0.005}),
        _claim("w.t.beats", "", "a", {"type": "ordinal", "relation": ">", "other": other}),
        _claim("w.t.loses", "", "a", {"type": "ordinal", "relation": "<", "other": other}),
    ]
    table = evaluate(claims, run, seed=5).set_index("claim_id")
    row = table.loc["w.t.value"]
    assert row["n"] == 50 and "bootstrap" in row["interval"] and "50 queries" in row["interval"]
    assert float(row["ci_low"]) <= float(row["mean"]) <= float(row["ci_high"])
    assert table.loc["w.t.beats", "verdict"] == "PASS"
    assert table.loc["w.t.loses", "verdict"] == "FAIL"
    assert "Wilcoxon" in table.loc["w.t.beats", "note"]
    assert evaluate(claims, run, seed=5).equals(evaluate(claims, run, seed=5))


def test_without_samples_a_claim_rests_on_its_one_value(run):
    (run / "results/r.samples.csv").unlink()
    row = evaluate([_claim("w.t.v", 0.52, "a", {"type": "equal"})], run).iloc[0]
    assert str(row["n"]) == "1"
    assert row["n"] == 1 and row["verdict"] == "PASS" and row["interval"] != row["interval"]


def test_strata_give_the_mean_of_their_means_as_letor_averages_folds():
    values = np.array([1.0, 1.0, 1.0, 0.0])  # fold 1: three queries at 1; fold 2: one at 0
    strata = np.array(["1", "1", "1", "2"])
    found = spread(values, "query", 0, "c", strata=strata)
    assert found.mean == 0.5 and found.n == 4 and "within 2 strata" in found.interval
    assert found.ci_low <= 0.5 <= found.ci_high


def test_a_threshold_claim_tests_its_units_against_the_threshold(tmp_path):
    (tmp_path / "results").mkdir()
    pd.DataFrame({"stat": ["diff"], "value": [-0.05]}).to_csv(
        tmp_path / "results/s.csv", index=False
    )

    def write(values):
        pd.DataFrame(
            {"stat": "diff", "measure": "value", "unit_kind": "repeat",
             "unit": [f"repeat{i}" for i in range(len(values))], "value": values}
        ).to_csv(tmp_path / "results/s.samples.csv", index=False)  # fmt: skip

    ref = {"file": "results/s.csv", "row": {"stat": "diff"}, "column": "value"}
    below = Claim(
        "w.t.below", "src", "stmt", "", ref, {"type": "ordinal", "relation": "<", "value": 0}
    )
    above = Claim(
        "w.t.above", "src", "stmt", "", ref, {"type": "ordinal", "relation": ">", "value": 0}
    )
    write(np.linspace(-0.09, -0.01, 10))  # every repeat below 0: significant
    table = evaluate([below, above], tmp_path).set_index("claim_id")
    assert table.loc["w.t.below", "verdict"] == "PASS"
    assert table.loc["w.t.above", "verdict"] == "FAIL"
    assert "Wilcoxon" in table.loc["w.t.below", "note"]
    write([-0.09, -0.05, -0.01, -0.02, -0.08])  # five repeats: p >= 2/32, never significant
    assert evaluate([below], tmp_path).iloc[0]["verdict"] == "INCONCLUSIVE"


def test_an_ordinal_claim_against_one_number_tests_its_units_against_it(run):
    """The other side without samples (a published baseline's one value) is a threshold: the
    units decide, not the difference of two means."""
    pd.DataFrame({"method": ["a", "b", "pub"], "ndcg": [0.52, 0.50, 0.519]}).to_csv(
        run / "results/r.csv", index=False
    )
    published = {"file": "results/r.csv", "row": {"method": "pub"}, "column": "ndcg"}
    rule = {"type": "ordinal", "relation": ">", "other": published}
    row = evaluate([_claim("w.t.beats", "", "a", rule)], run).iloc[0]
    assert row["verdict"] == "INCONCLUSIVE" and "Wilcoxon" in row["note"]  # 0.52 vs 0.519
    (run / "results/r.samples.csv").unlink()  # without samples: the two values compared
    assert evaluate([_claim("w.t.beats", "", "a", rule)], run).iloc[0]["verdict"] == "PASS"
