"""One pending scheduler wake-up at a time: a fix for Snakemake's job rate limiter, applied by
the workflow (``workflow/rules/common.smk``) before Snakemake builds its scheduler.

Snakemake (9.x, ``snakemake/scheduling/job_scheduler.py``) arms a ``threading.Timer`` of the
rate limiter's timespan (default ``100/1s``) at the end of every scheduling pass that leaves
ready jobs waiting for a free core. Every finished job starts a pass of its own, so the timers
pile up: after n finished jobs about n timers wake the scheduler each second, and each wake
re-evaluates every ready job's params and stats its inputs (upstream: snakemake/snakemake
PR #3744 describes the same extra passes). On the quick config that was most of Snakemake's
own CPU (12.9% of the run, issue 18). The timers are also non-daemon threads, so a longer
timespan holds the process's exit for up to that long.

Here a new wake-up is armed only when none is pending, and its thread is a daemon. The rate
limit itself is unchanged: the one pending wake-up fires within the timespan, and that pass
arms the next one while jobs still wait; a finished job still wakes the scheduler at once.
Job selection, and so every result, is the same.

The method patched is private, so the patch is applied only on the Snakemake releases it was
read against and tested on (:data:`TESTED_SNAKEMAKE`, the releases pyproject.toml admits); any
other release stops the workflow at its start with what to do.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from boostrank.errors import BoostrankError

log = logging.getLogger(__name__)
_PATCHED = "_boostrank_one_pending_wake"
# The Snakemake releases whose JobScheduler._schedule_reevalutation the patch was read against
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
            "private JobScheduler._schedule_reevalutation. Install the pinned release "
            "(make install, or pip install --require-hashes -r requirements.lock); or read that "
            f"method in Snakemake {version}'s snakemake/scheduling/job_scheduler.py, run "
            f"tests/unit/test_scheduler_wakes.py, add {version} to TESTED_SNAKEMAKE in "
            "src/boostrank/workflow/scheduler_wakes.py and to the snakemake pin in "
            "pyproject.toml, and run make lock"
        )
    return version


def one_pending_wake(scheduler_class: Any = None) -> bool:
    """Replace ``scheduler_class._schedule_reevalutation`` (Snakemake's ``JobScheduler`` by
    default, on a tested release only: :func:`check_snakemake_version`) with the deduplicated,
    daemon version; True when patched (or already), False when the class has no such method
    (then nothing changes)."""
    if scheduler_class is None:
        check_snakemake_version()
        from snakemake.scheduling.job_scheduler import JobScheduler as scheduler_class
    original = getattr(scheduler_class, "_schedule_reevalutation", None)
    if original is None:
        log.debug("Snakemake's scheduler has no _schedule_reevalutation: left as it is")
        return False
    if getattr(original, _PATCHED, False):
        return True
    guard = threading.Lock()

    def schedule_reevaluation(self: Any, delay: float) -> None:
        """Wake the scheduler after ``delay`` seconds, unless a wake-up is already pending."""
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

    setattr(schedule_reevaluation, _PATCHED, True)
    scheduler_class._schedule_reevalutation = schedule_reevaluation
    return True


__all__ = ["TESTED_SNAKEMAKE", "check_snakemake_version", "one_pending_wake"]
