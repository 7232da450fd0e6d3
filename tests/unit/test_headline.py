"""The README's headline tally is generated from a run's claims, never typed by hand."""

import json
from pathlib import Path

import pandas as pd
import pytest

from boostrank.errors import BoostrankError
from boostrank.report.headline import END, START, current_block, render, replace_block, summarise

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_shows_what_the_committed_summary_renders_to():
    summary = json.loads((ROOT / "docs/last-run.json").read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert current_block(readme) == render(summary), "run: make readme-results RUN=<run dir>"


def test_the_tally_counts_each_work_and_verdict():
    claims = pd.DataFrame(
        {
            "claim_id": ["thesis.fig2_1.a", "thesis.fig2_1.b", "topk.table1.c", "docan.fig6.d"],
            "verdict": ["PASS", "FAIL", "PASS", "NOT-COMPARABLE"],
        }
    )
    datasets = pd.DataFrame(
        {"dataset": ["b", "a", "c"], "data_kind": ["mirror", "mirror", "synthetic"]}
    )
    summary = summarise(claims, datasets, "abc1234", "2026-01-01")
    assert summary["data"] == {"mirror": ["a", "b"], "synthetic": ["c"]}
    works = summary["works"]
    assert works["thesis"]["PASS"] == 1 and works["thesis"]["FAIL"] == 1
    assert works["topk"]["PASS"] == 1 and works["docan"]["NOT-COMPARABLE"] == 1
    assert sum(sum(c.values()) for c in works.values()) == len(claims)
    table = render(summary)
    assert "Data sets by source: mirror 2 (a, b); synthetic 1 (c)." in table
    assert "| **all** | **2** | **1** | **0** | **0** | **1** |" in table


def test_an_unknown_work_or_missing_markers_stop_with_a_message():
    with pytest.raises(BoostrankError, match="unknown works"):
        other = pd.DataFrame({"claim_id": ["other.fig1.x"], "verdict": ["PASS"]})
        summarise(other, pd.DataFrame({"dataset": [], "data_kind": []}), "a", "b")
    with pytest.raises(BoostrankError, match="needs one"):
        replace_block("no markers here", "x")
    assert replace_block(f"a {START} old {END} b", "new") == "a new b"
