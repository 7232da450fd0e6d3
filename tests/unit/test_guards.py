"""Guards: the counts a learner keeps, a figure's guard table, and what the report makes of it
(boostrank.guards, boostrank.report.guard_counts)."""

from __future__ import annotations

import pandas as pd

from boostrank import guards
from boostrank.guards import Guards
from boostrank.report import guard_counts
from boostrank.report.diagnosis import Findings, diagnose


def test_counts_start_at_zero_and_add_up() -> None:
    counts = Guards.of("cap", "stop")
    counts.fire("cap")
    counts.fire("cap", 2)
    assert counts == {"cap": 3, "stop": 0}
    assert counts.add({"stop": 1}) == {"cap": 3, "stop": 1}
    assert guards.parse(counts.text()) == counts
    assert guards.parse(None) == {} and guards.parse(float("nan")) == {}


def test_table_counts_jobs_per_data_set(tmp_path) -> None:
    records = [
        {"dataset": "a", "data_kind": "mirror", "guards": {"cap": 2, "stop": 0}},
        {"dataset": "a", "data_kind": "mirror", "guards": '{"cap":0,"stop":0}'},
        {"dataset": "b", "data_kind": "synthetic", "guards": {"cap": 1}},
    ]
    path = tmp_path / "guards" / "fig.csv"
    guards.write_table(path, "fig", records)
    frame = pd.read_csv(path)
    cap_a = frame[(frame["dataset"] == "a") & (frame["guard"] == "cap")].iloc[0]
    assert (cap_a["fired"], cap_a["jobs"], cap_a["jobs_fired"]) == (2, 2, 1)
    assert len(guards.read_tables([path, tmp_path / "other.csv"])) == len(frame) == 3


def test_summary_separates_real_data_and_names_silent_guards_in_diagnoses() -> None:
    table = guards.table(
        "fig",
        [
            {"dataset": "a", "data_kind": "mirror", "guards": {"cap": 0, "exit": 1}},
            {"dataset": "b", "data_kind": "synthetic", "guards": {"cap": 3, "exit": 0}},
        ],
    )
    summary = guard_counts.summary(table, {"cap": "silent", "exit": "inferred"})
    cap = summary.set_index("guard").loc["cap"]
    assert (cap["fired"], cap["jobs_fired"], cap["real_fired"], cap["real"]) == (3, 1, 0, 1)
    # the cap fired on the stand-in only, and the exit is not silent: no diagnosis names either
    assert guard_counts.diagnosis_notes(summary) == {}
    fired = guard_counts.summary(table, {"cap": "silent", "exit": "silent"})
    notes = guard_counts.diagnosis_notes(fired)
    assert (
        list(notes) == ["fig"]
        and "exit (basis silent) fired 1 times in 1 of 2 jobs" in notes["fig"]
    )
    text = diagnose(
        "c", "fig", "FAIL", "", {"kind": "open", "note": "n"}, "", Findings(guards=notes)
    )
    assert text.startswith("open: n") and text.endswith(notes["fig"])
    passing = diagnose("c", "fig", "PASS", "", None, "", Findings(guards=notes))
    assert passing == ""
