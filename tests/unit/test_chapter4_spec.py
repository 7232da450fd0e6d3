"""Chapter 4's job parameters and result paths (Valizadegan 2010, sections 4.3-4.4): what each
figure job merges, where each family's job and its replicates write, and the replicate rule
(replicate 1 writes the results from the others' files; a later one its own curves only)."""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

import pytest

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4 import spec

ROOT = Path(__file__).resolve().parents[2]


def test_each_figure_merges_its_families_and_their_per_query_samples():
    files = spec.figure_inputs("thesis-fig4_3", ["ohsumed", "td2003"])
    csvs = [f for f in files if f.endswith(".csv") and not f.endswith(".queries.csv")]
    assert len(csvs) == 2 * len(spec.FIGURE_FAMILIES["thesis-fig4_3"])
    assert sorted(spec.queries_csv(f) for f in csvs) == sorted(
        f for f in files if f.endswith(".queries.csv")
    )
    # mrr is Figure 4.2's run, read by Figure 4.3 from there; the bases are Figure 4.3's own
    assert "results/chapter4/thesis-fig4_2/td2003/mrr.csv" in files
    assert "results/chapter4/thesis-fig4_3/td2003/mrr_bases.csv" in files
    assert [f for f in files if f.endswith(".json")] == [
        spec.base_json("ohsumed"),
        spec.base_json("td2003"),
    ]
    assert not any(f.endswith(".json") for f in spec.figure_inputs("thesis-fig4_2", ["ohsumed"]))
    movies = spec.figure_inputs("thesis-fig4_5", ["ohsumed"])
    assert spec.MOVIES_NPZ in movies and not any("ohsumed" in f for f in movies)
    assert spec.figure_inputs("thesis-fig4_1", []) == [spec.OBJECTIVE_CSV]
    assert spec.figure_inputs("thesis-fig4_6", []) == [spec.TIMING_CSV]
    with pytest.raises(BoostrankError, match="thesis-fig4_1"):
        spec.figure_inputs("thesis-fig4_7", [])


def test_replicate_files_are_replicates_two_on():
    stem = spec.family_stem("thesis-fig4_2", "ohsumed", "mrr")
    assert spec.feedback_csv("ohsumed", "mrr") == f"{stem}.csv"
    assert spec.replicate_files(stem, 1) == []
    assert spec.replicate_files(stem, 3) == [f"{stem}.r2.npz", f"{stem}.r3.npz"]
    later = re.compile(f"^(?:{spec.LATER_REPLICATE})$")
    assert [r for r in range(0, 30) if later.match(str(r))] == list(range(2, 30))


def _feedback(**edit):
    fields = {
        "dataset": "ohsumed",
        "family": "mrr",
        "npz": "a.npz",
        "meta": "a.json",
        "base": "b.json",
        "params": {},
        "seed": 1,
        "replicate": 1,
        "replicate_files": ["x.r2.npz"],
        "out": "x.csv",
        "record": "x.json",
        "queries": "x.queries.csv",
        "block": None,
        "blocks": 1,
        "block_files": [],
    }
    return spec.FeedbackSpec(**{**fields, **edit})


def test_only_replicate_one_writes_the_results():
    assert _feedback().replicate_files == ("x.r2.npz",)
    later = _feedback(replicate=2, replicate_files=[], record=None, queries=None, out="x.r2.npz")
    assert later.replicate == 2
    with pytest.raises(BoostrankError, match="field 'record'"):
        _feedback(record=None)
    with pytest.raises(BoostrankError, match="field 'replicate_files'"):
        _feedback(replicate=2, record=None)
    with pytest.raises(BoostrankError, match="field 'replicate' must be at least 1"):
        _feedback(replicate=0)
    with pytest.raises(BoostrankError, match="field 'family'"):
        _feedback(family="mrr_movies")
    assert spec.FeedbackSpec(**asdict(_feedback())) == _feedback()


def test_block_jobs_score_and_only_per_query_families_split():
    stem = spec.family_stem("thesis-fig4_2", "np2003", "lrr")
    assert spec.block_files(stem, 2, 2) == [f"{stem}.r2.b1.npz", f"{stem}.r2.b2.npz"]
    assert spec.block_files(stem, 1, 1) == []
    assert spec.query_blocks({"query_blocks": {"lrr": 3}}, "lrr") == 3
    assert spec.query_blocks({"query_blocks": {"lrr": 3}}, "mrr") == 1
    assert spec.query_blocks({}, "lrr") == 1
    split = _feedback(blocks=2, block_files=["x.r1.b1.npz", "x.r1.b2.npz"])
    assert split.block is None and split.blocks == 2
    block = {"replicate_files": [], "record": None, "queries": None, "out": "x.r1.b2.npz"}
    assert _feedback(block=2, blocks=2, **block).block == 2
    with pytest.raises(BoostrankError, match="field 'block_files'"):
        _feedback(blocks=2, block_files=["x.r1.b2.npz"])
    with pytest.raises(BoostrankError, match="writes its scores only"):
        _feedback(block=2, blocks=2, **{**block, "record": "x.json"})
    with pytest.raises(BoostrankError, match="field 'block': 3 > blocks"):
        _feedback(block=3, blocks=2, **block)
    with pytest.raises(BoostrankError, match="'baselines' is not split by query"):
        _feedback(family="baselines", blocks=2, block_files=["x.r1.b1.npz", "x.r1.b2.npz"])


def test_chapter4_scores_ndcg_by_the_printed_formula_by_default():
    """Section 4.4: "NDCG is described in Section 3.3.1", Eq. 3.1: gain 2^r - 1, discount
    1/log(1 + j). One query ranked with grades 2, 0, 1, by hand: DCG@3 = 3/log(2) + 0/log(3) +
    1/log(4) and the ideal order 2, 1, 0 gives 3/log(2) + 1/log(3); the log's base cancels in
    the ratio. LETOR's script (positions 1 and 2 undiscounted) would give (3 + 1/log2(3)) / 4."""
    import math

    import numpy as np
    import yaml

    from boostrank.metrics.ranking import ndcg_at_k

    config = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    formula = spec.family_params(config["chapter4"], "mrr")["ndcg_formula"]
    assert formula == "report"
    y, scores, qid = np.array([2, 0, 1]), np.array([3.0, 2.0, 1.0]), np.zeros(3, dtype=int)
    for log in (math.log, math.log2, math.log10):
        dcg = 3 / log(2) + 0 / log(3) + 1 / log(4)
        ideal = 3 / log(2) + 1 / log(3)
        assert ndcg_at_k(y, scores, qid, 3, formula=formula)[0] == pytest.approx(dcg / ideal)
    assert dcg / ideal == pytest.approx(0.963941, abs=1e-6)
    letor = ndcg_at_k(y, scores, qid, 3, formula="letor")[0]
    assert letor == pytest.approx((3 + 1 / math.log2(3)) / 4)
    assert letor != pytest.approx(dcg / ideal)


def test_a_figures_guard_table_sums_its_jobs_records_and_figure_4_1s_fits(tmp_path):
    import json

    import pandas as pd

    from boostrank.experiments.chapter4.make import write_guards

    records = []
    for name, counts in (("mrr", {"mrr_alpha_smoothing": 2}), ("lrr", {})):
        records.append(str(tmp_path / f"{name}.json"))
        Path(records[-1]).write_text(json.dumps({"family": name, "guards": counts}))
    counts = {"mrr_alpha_smoothing": 0, "ranksvm_max_iter": 3}
    records.append(str(tmp_path / "baselines.json"))
    Path(records[-1]).write_text(json.dumps({"family": "baselines", "guards": counts}))
    figure = spec.FigureSpec(
        "thesis-fig4_2", (), "c", "s", "q", "f", "all", 50, "claims.yaml", 1.0,
        records=tuple(records), guards=str(tmp_path / "guards.csv"),
    )  # fmt: skip
    table = write_guards(figure, None).set_index("guard")
    assert table.loc["mrr_alpha_smoothing", ["fired", "jobs", "jobs_fired"]].tolist() == [2, 2, 1]
    assert table.loc["ranksvm_max_iter", ["fired", "jobs", "jobs_fired"]].tolist() == [3, 1, 1]
    # Figure 4.1: one count per MRR fit, repeated on each of its iterations' rows
    objective = pd.DataFrame(
        {"t_scope": "all", "weak_learner": "sampled_stump", "qid": [1, 1, 2, 2],
         "guards": ['{"mrr_alpha_smoothing":1}'] * 2 + ['{"mrr_alpha_smoothing":0}'] * 2}
    )  # fmt: skip
    one = spec.FigureSpec(
        "thesis-fig4_1", (), "c", "s", "q", "f", "all", 50, "claims.yaml", 1.0,
        guards=str(tmp_path / "guards4_1.csv"),
    )  # fmt: skip
    row = write_guards(one, objective).iloc[0]
    assert (row["figure"], row["fired"], row["jobs"], row["jobs_fired"]) == (
        "thesis-fig4_1",
        1,
        2,
        1,
    )
    assert spec.record_inputs("thesis-fig4_2", ["ohsumed"]) == [
        f.removesuffix(".csv") + ".json"
        for f in spec.figure_inputs("thesis-fig4_2", ["ohsumed"])
        if not f.endswith(".queries.csv")
    ]
