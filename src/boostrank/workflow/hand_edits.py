"""Files edited by hand under the results folders: looked for when Snakemake plans its jobs,
made again by the run, and kept aside only by a real run that holds Snakemake's lock.

Left alone, Snakemake reruns what depends on an edited file but not the job that made it (its
rerun triggers compare a job's inputs, parameters and code, never its outputs), so the claims
and the report would be rebuilt from the edit. Every file the pipeline writes under
``results/`` and ``figures/tables/`` has a fingerprint (:mod:`boostrank.io`), and here:

- **When Snakemake plans** (a run, ``-n``, ``--report``, ``--unlock``; not ``--list-rules`` or
  ``--lint``, which plan nothing), the watched folders are read: a file a rule makes whose
  content is not what the pipeline wrote, or that has no fingerprint, and a file kept aside by
  an earlier run and not made since, is added to the run's forced files (as ``--forcerun``
  would): its job is planned, with what depends on it, in this run whatever its targets, and
  ``-n`` lists it. One line per file says so. Nothing is written or moved.
- **When a real run starts** (Snakemake's ``onstart`` step: its lock is held, never in a dry
  run), each such file that a job of this run will write, and that is still edited, is moved
  to ``<name>.edited`` with one line (Snakemake would otherwise delete it before its job
  runs). A file outside this run's jobs is not touched: another run may be writing it.

Snakemake hands the workflow its DAG settings only after parsing it, so the forced files are
added by a wrapper of ``Workflow._prepare_dag``, which also puts the second step in front of
``Workflow._onstart`` (the main Snakefile's handler or none: a module's handlers are not run).
Both are private; they were read on Snakemake 9.27.1, the only release the workflow admits
(:func:`boostrank.workflow.scheduler_wakes.check_snakemake_version`).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boostrank.io import EDITED_SUFFIX, edit_reason, output_files, owed_files, set_aside

_WATCH = "_boostrank_hand_edits"


@dataclasses.dataclass
class _Watch:
    """The folders watched in one workflow, and what the last planning found there."""

    folders: list[tuple[Path, tuple[str, ...]]] = dataclasses.field(default_factory=list)
    edited: list[Path] = dataclasses.field(default_factory=list)
    onstart_wrapped: bool = False


def watch(workflow: Any, folder: Path | str, skip: tuple[str, ...] = ()) -> None:
    """Look for hand edits under ``folder`` (not its top-level folders ``skip``) whenever
    ``workflow`` (a Snakemake ``Workflow``, in its main process) plans its jobs."""
    state = getattr(workflow, _WATCH, None)
    if state is None:
        state = _Watch()
        setattr(workflow, _WATCH, state)
        workflow._prepare_dag = _planning(workflow, state, workflow._prepare_dag)
    entry = (Path(folder), tuple(skip))
    if entry not in state.folders:
        state.folders.append(entry)


def find(
    folders: list[tuple[Path, tuple[str, ...]]], made: Callable[[Path], bool]
) -> tuple[dict[Path, str], list[Path]]:
    """The edited files under ``folders`` that ``made`` says a rule writes, each with why, and
    the files kept aside earlier and not made since. Reads only."""
    edited: dict[Path, str] = {}
    owed: list[Path] = []
    for folder, skip in folders:
        for path in output_files(folder, skip):
            if (reason := edit_reason(path)) and made(path):  # hash first: few are edited
                edited[path] = reason
        owed += [path for path in owed_files(folder, skip) if made(path)]
    return edited, owed


def _planning(workflow: Any, state: _Watch, prepare: Callable[..., Any]) -> Callable[..., Any]:
    """``Workflow._prepare_dag`` that first forces the edited and owed files of ``state``."""

    def made(path: Path) -> bool:
        return any(rule.is_producer(str(path)) for rule in workflow.rules)

    def prepare_dag(*args: Any, **kwargs: Any) -> Any:
        edited, owed = find(state.folders, made)
        for path, reason in edited.items():
            print(
                f"boostrank: {path} was edited by hand ({reason}); a run keeps it as "
                f"{path.name}{EDITED_SUFFIX} and makes it again",
                file=sys.stderr,
            )
        state.edited = list(edited)
        forced = {str(p) for p in [*edited, *owed]}
        if forced:
            settings = workflow.dag_settings
            workflow.dag_settings = dataclasses.replace(
                settings, forcerun=frozenset(settings.forcerun) | forced
            )
        if not state.onstart_wrapped:
            workflow._onstart = _starting(workflow, state, workflow._onstart)
            state.onstart_wrapped = True
        return prepare(*args, **kwargs)

    return prepare_dag


def _starting(workflow: Any, state: _Watch, onstart: Callable[..., Any]) -> Callable[..., Any]:
    """``Workflow._onstart`` that first sets aside the edited files this run will write."""

    def start(*args: Any, **kwargs: Any) -> Any:
        if not workflow.touch:
            set_aside_planned(state.edited, _planned_outputs(workflow))
        return onstart(*args, **kwargs)

    return start


def _planned_outputs(workflow: Any) -> set[Path]:
    return {Path(str(f)) for job in workflow.dag.needrun_jobs() for f in job.output}


def set_aside_planned(edited: list[Path], planned: set[Path]) -> list[Path]:
    """Move each file of ``edited`` that a job will write (``planned``) and that is still
    edited to ``<name>.edited``, with one line each; the files moved."""
    moved = []
    for path in edited:
        if path in planned and path.exists() and edit_reason(path):
            kept = set_aside(path)
            print(
                f"boostrank: {path} was edited by hand: kept as {kept.name}; recomputing it",
                file=sys.stderr,
            )
            moved.append(path)
    return moved
