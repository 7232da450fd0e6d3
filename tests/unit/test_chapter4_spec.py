"""Chapter 4's job parameters and result paths (Valizadegan 2010, sections 4.3-4.4): what each
figure job merges, where each family's job and its replicates write, and the replicate rule
(replicate 1 writes the results from the others' files; a later one its own curves only)."""

from __future__ import annotations

import re
from dataclasses import asdict

import pytest

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4 import spec


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
