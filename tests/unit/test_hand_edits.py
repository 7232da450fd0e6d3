"""boostrank.workflow.hand_edits on a stand-in for Snakemake's Workflow: planning forces the
edited files and writes nothing; only the start of a real run moves them, and only those its
jobs will write. (Snakemake itself: tests/e2e/test_commands_that_run_nothing.py.)"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from snakemake.settings.types import DAGSettings

from boostrank.io import write_text
from boostrank.workflow import hand_edits


@dataclass
class Rule:
    outputs: tuple[str, ...]

    def is_producer(self, path: str) -> bool:
        return path in self.outputs


@dataclass
class Job:
    output: list[str]


@dataclass
class Dag:
    jobs: list[Job]

    def needrun_jobs(self) -> list[Job]:
        return self.jobs


@dataclass
class Workflow:
    """The parts of snakemake.workflow.Workflow the module uses."""

    rules: list[Rule]
    dag_settings: DAGSettings = field(default_factory=DAGSettings)
    touch: bool = False
    dag: Dag = field(default_factory=lambda: Dag([]))
    seen: list[frozenset[str]] = field(default_factory=list)
    started: list[Any] = field(default_factory=list)

    def _prepare_dag(self, **kwargs: Any) -> None:
        self.seen.append(frozenset(self.dag_settings.forcerun))

    def _onstart(self, log: Any) -> None:
        self.started.append(log)


MADE = ("results/a.csv", "results/b.csv", "results/c.csv", "figures/tables/t.md")


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workflow:
    """a.csv edited, b.csv untouched, c.csv without fingerprint, t.md edited, notes.txt made
    by no rule, d.csv set aside by an earlier run and not made since."""
    monkeypatch.chdir(tmp_path)
    for name in MADE:
        write_text(name, "x\n1\n")
    write_text("results/d.csv.edited", "x\n5\n")
    Path("results/a.csv").write_text("x\n2\n")
    Path("figures/tables/t.md").write_text("x\n3\n")
    Path("results/.c.csv.fingerprint").unlink()
    Path("results/notes.txt").write_text("mine\n")
    workflow = Workflow([Rule((*MADE, "results/d.csv"))])
    hand_edits.watch(workflow, "results", skip=("readings",))
    hand_edits.watch(workflow, "figures/tables")
    hand_edits.watch(workflow, "figures/tables")  # a second include of common.smk: once
    return workflow


def test_planning_forces_the_edited_and_owed_files_and_writes_nothing(edited, tmp_path, capsys):
    before = _tree(tmp_path)
    edited.dag_settings = DAGSettings(forcerun=frozenset({"rule_x"}))
    edited._prepare_dag(forceall=False)
    assert edited.seen == [
        {"rule_x", "results/a.csv", "results/c.csv", "results/d.csv", "figures/tables/t.md"}
    ]
    assert _tree(tmp_path) == before
    err = capsys.readouterr().err
    assert "results/a.csv was edited by hand (its content is not what" in err
    assert "results/c.csv was edited by hand (it has no fingerprint)" in err
    assert "notes.txt" not in err and "b.csv" not in err


def test_a_real_start_moves_only_what_its_jobs_write(edited, capsys):
    edited._prepare_dag()
    edited.dag = Dag([Job(["results/a.csv", "results/other.csv"]), Job(["results/c.csv"])])
    edited._onstart("log")
    assert edited.started == ["log"]  # the Snakefile's own handler still runs
    assert Path("results/a.csv.edited").read_text() == "x\n2\n"
    assert Path("results/c.csv.edited").read_text() == "x\n1\n"
    assert not Path("results/a.csv").exists() and not Path("results/c.csv").exists()
    assert Path("figures/tables/t.md").read_text() == "x\n3\n"  # not this run's: left
    err = capsys.readouterr().err
    assert "results/a.csv was edited by hand: kept as a.csv.edited; recomputing it" in err


def test_a_file_made_good_again_before_the_start_is_not_moved(edited):
    edited._prepare_dag()
    write_text("results/a.csv", "x\n7\n")  # the pipeline wrote it again meanwhile
    edited.dag = Dag([Job(["results/a.csv"])])
    edited._onstart("log")
    assert Path("results/a.csv").read_text() == "x\n7\n"
    assert not Path("results/a.csv.edited").exists()


def test_touch_mode_moves_nothing(edited, tmp_path):
    edited._prepare_dag()
    edited.touch = True
    edited.dag = Dag([Job(list(MADE))])
    before = _tree(tmp_path)
    edited._onstart("log")
    assert _tree(tmp_path) == before


def test_nothing_edited_forces_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_text("results/a.csv", "x\n1\n")
    os.utime("results/a.csv", ns=(1, 1))
    workflow = Workflow([Rule(("results/a.csv",))])
    hand_edits.watch(workflow, "results")
    workflow._prepare_dag()
    assert workflow.seen == [frozenset()]
