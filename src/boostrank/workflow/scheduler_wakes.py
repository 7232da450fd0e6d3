"""Two fixes to how Snakemake's scheduler is woken, applied by the workflow
(``workflow/rules/common.smk``, :func:`patch_scheduler`) before Snakemake builds its scheduler:
one pending wake-up at a time (:func:`one_pending_wake`), and a stop signal that cannot
deadlock the scheduler (:func:`stop_off_the_main_thread`).

**One pending wake-up.**

Snakemake (9.x, ``snakemake/scheduling/job_scheduler.py``) arms a ``threading.Timer`` of the
rate limiter's timespan (default ``100/1s``) at the end of every scheduling pass that leaves
ready jobs waiting for a free core. Every finished job starts a pass of its own, so the timers
pile up: after n finished jobs about n timers wake the scheduler each second, and each wake
re-evaluates every ready job's params and stats its inputs (upstream: snakemake/snakemake
PR #3744 describes the same extra passes), which can be most of Snakemake's own CPU. The
timers are also non-daemon threads, so a longer timespan holds the process's exit for up to
that long.

Here a new wake-up is armed only when none is pending, and its thread is a daemon. The rate
limit itself is unchanged: the one pending wake-up fires within the timespan, and that pass
arms the next one while jobs still wait; a finished job still wakes the scheduler at once.
Job selection, and so every result, is the same.

**A stop that cannot deadlock.** On SIGTERM (how SLURM stops or pre-empts a job) Snakemake's
handler, ``JobScheduler.exit_gracefully``, takes the scheduler's ``_lock`` (a
``threading.Lock``, not re-entrant) to mark a graceful exit, then wakes the scheduler. Python
runs a signal handler in the main thread between two bytecodes, and the main thread is the one
that schedules: when the signal lands while it holds ``_lock`` (finishing jobs, selecting
jobs), the handler waits for a lock its own thread holds, and the run hangs for good instead of
stopping. Here the handler starts a thread that runs Snakemake's own body: the thread takes
the lock once the main thread lets it go, so the stop is the same, a few milliseconds later.

The methods patched are private, so the patches are applied only on the Snakemake releases
they were read against and tested on (:data:`TESTED_SNAKEMAKE`, the releases pyproject.toml
admits); any other release stops the workflow at its start with what to do.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from boostrank.errors import BoostrankError

log = logging.getLogger(__name__)
_PATCHED = "_boostrank_patched"
# The Snakemake releases whose JobScheduler methods the patches were read against
# and tests/unit/test_scheduler_wakes.py passed on; pyproject.toml admits these and no other.
TESTED_SNAKEMAKE = ("9.27.1",)


def check_snakemake_version(version: str | None = None) -> str:
    """The running Snakemake's version (or ``version``); a :class:`BoostrankError` naming it
    and the fix when it is not one of :data:`TESTED_SNAKEMAKE`."""
    if version is None:
        import snakemake

        version = snakemake.__version__
    if version not in TESTED_SNAKEMAKE:
        raise BoostrankError(
            f"Snakemake {version} is not a release the workflow was tested on "
            f"({', '.join(TESTED_SNAKEMAKE)}): boostrank.workflow.scheduler_wakes patches its "
            "private JobScheduler._schedule_reevalutation and exit_gracefully. Install the "
            "pinned release (make install, or pip install --require-hashes -r "
            "requirements.lock); or read those "
            f"methods in Snakemake {version}'s snakemake/scheduling/job_scheduler.py, run "
            f"tests/unit/test_scheduler_wakes.py, add {version} to TESTED_SNAKEMAKE in "
            "src/boostrank/workflow/scheduler_wakes.py and to the snakemake pin in "
            "pyproject.toml, and run make lock"
        )
    return version


def _replace(scheduler_class: Any, name: str, build: Callable[[Any], Any]) -> bool:
    """Replace method ``name`` of ``scheduler_class`` (Snakemake's ``JobScheduler`` by default,
    on a tested release only: :func:`check_snakemake_version`) with ``build(original)``; True
    when patched (or already), False when the class has no such method (then nothing
    changes)."""
    if scheduler_class is None:
        check_snakemake_version()
        from snakemake.scheduling.job_scheduler import JobScheduler

        scheduler_class = JobScheduler
    original = getattr(scheduler_class, name, None)
    if original is None:
        log.debug("Snakemake's scheduler has no %s: left as it is", name)
        return False
    if not getattr(original, _PATCHED, False):
        replacement = build(original)
        setattr(replacement, _PATCHED, True)
        setattr(scheduler_class, name, replacement)
    return True


def one_pending_wake(scheduler_class: Any = None) -> bool:
    """Replace ``_schedule_reevalutation`` with the deduplicated, daemon version
    (:func:`_replace`)."""

    def build(original: Any) -> Any:
        guard = threading.Lock()

        def schedule_reevaluation(self: Any, delay: float) -> None:
            """Wake the scheduler after ``delay`` seconds, unless a wake-up is already
            pending."""
            with guard:
                if getattr(self, "_wake_pending", False):
                    return
                self._wake_pending = True

            def wake() -> None:
                with guard:
                    self._wake_pending = False
                self._open_jobs.release()

            timer = threading.Timer(delay, wake)
            timer.daemon = True  # a pending wake-up never holds the process's exit
            timer.start()

        return schedule_reevaluation

    return _replace(scheduler_class, "_schedule_reevalutation", build)


def stop_off_the_main_thread(scheduler_class: Any = None) -> bool:
    """Replace ``exit_gracefully`` (Snakemake's SIGTERM handler) with one that runs the
    original on a new daemon thread (:func:`_replace`)."""

    def build(original: Any) -> Any:
        def exit_gracefully(self: Any, *args: Any) -> None:
            """Snakemake's stop, run where it may wait for the scheduler's lock."""
            threading.Thread(target=original, args=(self, *args), daemon=True).start()

        return exit_gracefully

    return _replace(scheduler_class, "exit_gracefully", build)


def patch_scheduler() -> None:
    """Both fixes on Snakemake's ``JobScheduler`` (a tested release only)."""
    one_pending_wake()
    stop_off_the_main_thread()


__all__ = [
    "TESTED_SNAKEMAKE",
    "check_snakemake_version",
    "one_pending_wake",
    "patch_scheduler",
    "stop_off_the_main_thread",
]
