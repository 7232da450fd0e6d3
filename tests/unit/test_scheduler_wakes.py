"""Snakemake's scheduler wake-ups: one pending at a time, and a stop signal that cannot
deadlock the scheduler (boostrank.workflow.scheduler_wakes)."""

import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from boostrank.errors import BoostrankError
from boostrank.workflow.scheduler_wakes import (
    TESTED_SNAKEMAKE,
    check_snakemake_version,
    one_pending_wake,
    stop_off_the_main_thread,
)


class _Scheduler:
    """The part of Snakemake's JobScheduler the fix touches: a semaphore each wake releases."""

    def __init__(self):
        self._open_jobs = threading.Semaphore(0)

    def _schedule_reevalutation(self, delay):  # Snakemake's: a new timer every call
        threading.Timer(delay, self._open_jobs.release).start()


def _wakes(scheduler, timeout=0.5):
    count = 0
    while scheduler._open_jobs.acquire(timeout=timeout):
        count += 1
    return count


def test_many_requests_give_one_wake_and_the_next_request_arms_again():
    class Scheduler(_Scheduler):
        pass

    assert one_pending_wake(Scheduler)
    s = Scheduler()
    for _ in range(20):  # twenty finished jobs, each asking for a wake-up
        s._schedule_reevalutation(0.05)
    assert _wakes(s) == 1
    s._schedule_reevalutation(0.05)  # after it fired, the next pass arms a new one
    assert _wakes(s) == 1


def test_unpatched_requests_pile_up():
    s = _Scheduler()
    for _ in range(20):
        s._schedule_reevalutation(0.05)
    assert _wakes(s) == 20  # what the fix removes


def test_a_pending_wake_does_not_hold_the_exit():
    class Scheduler(_Scheduler):
        pass

    one_pending_wake(Scheduler)
    before = set(threading.enumerate())
    Scheduler()._schedule_reevalutation(60)
    started = [t for t in threading.enumerate() if t not in before]
    assert started and all(t.daemon for t in started)


def test_snakemakes_scheduler_is_patched_once_and_a_missing_method_is_left_alone():
    from snakemake.scheduling.job_scheduler import JobScheduler

    assert one_pending_wake() and one_pending_wake()
    patched = JobScheduler._schedule_reevalutation
    assert one_pending_wake() and JobScheduler._schedule_reevalutation is patched
    assert not one_pending_wake(type("NoSuchMethod", (), {}))


def test_an_untested_snakemake_stops_with_its_version_and_the_fix(monkeypatch):
    import snakemake
    from snakemake.scheduling.job_scheduler import JobScheduler

    before = JobScheduler.__dict__["_schedule_reevalutation"]
    monkeypatch.setattr(snakemake, "__version__", "9.99.0")
    with pytest.raises(BoostrankError, match=r"Snakemake 9\.99\.0 is not a release") as error:
        one_pending_wake()
    assert "9.27.1" in str(error.value) and "TESTED_SNAKEMAKE" in str(error.value)
    assert "requirements.lock" in str(error.value)
    assert JobScheduler.__dict__["_schedule_reevalutation"] is before  # left as it was
    assert check_snakemake_version(TESTED_SNAKEMAKE[0]) == TESTED_SNAKEMAKE[0]


def test_pyproject_admits_the_tested_snakemake_releases_and_no_neighbour():
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    deps = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    spec = next(r.specifier for r in map(Requirement, deps) if r.name == "snakemake")
    assert all(spec.contains(v) for v in TESTED_SNAKEMAKE)
    neighbours = set()
    for v in map(Version, TESTED_SNAKEMAKE):
        major, minor, micro = v.major, v.minor, v.micro
        neighbours |= {
            f"{major}.{minor}.{micro + 1}",
            f"{major}.{minor + 1}.0",
            f"{major + 1}.0.0",
            *([f"{major}.{minor}.{micro - 1}"] if micro else []),
            *([f"{major}.{minor - 1}.0"] if minor else []),
        }
    admitted = {n for n in neighbours - set(TESTED_SNAKEMAKE) if spec.contains(n)}
    assert not admitted, f"pyproject.toml admits untested Snakemake releases {sorted(admitted)}"


# A stop signal while the scheduler holds its lock: Snakemake's JobScheduler.exit_gracefully,
# run as a SIGTERM handler in the thread that holds the lock.
_STOP_WHILE_LOCKED = """
import os, signal, sys, threading
from snakemake.scheduling.job_scheduler import JobScheduler
from boostrank.workflow.scheduler_wakes import stop_off_the_main_thread

if sys.argv[1] == "patched":
    stop_off_the_main_thread()
scheduler = JobScheduler.__new__(JobScheduler)  # the three attributes the stop touches
scheduler._lock, scheduler._open_jobs = threading.Lock(), threading.Semaphore(0)
scheduler._user_kill = None
signal.signal(signal.SIGTERM, scheduler.exit_gracefully)  # as JobScheduler.__init__ does
with scheduler._lock:  # the scheduler finishing or selecting jobs
    print("locked", flush=True)
    os.kill(os.getpid(), signal.SIGTERM)
assert scheduler._open_jobs.acquire(timeout=10)  # the stop woke the scheduler
print(scheduler._user_kill)
"""


def _stop_while_locked(how: str) -> str | None:
    """The script's last line, or None when it hung (still running 5 s after the signal)."""
    with subprocess.Popen(
        [sys.executable, "-c", _STOP_WHILE_LOCKED, how], stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline() == "locked\n"
        try:
            out, _ = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            return None
        assert proc.returncode == 0
        return out.strip()


def test_a_stop_signal_while_the_scheduler_holds_its_lock_stops_it():
    assert _stop_while_locked("patched") == "graceful"


def test_unpatched_a_stop_signal_while_the_scheduler_holds_its_lock_hangs():
    """What the fix removes: on the pinned release the handler waits for its own lock."""
    assert _stop_while_locked("unpatched") is None


def test_the_stop_is_patched_once_and_a_missing_method_is_left_alone():
    from snakemake.scheduling.job_scheduler import JobScheduler

    assert stop_off_the_main_thread() and stop_off_the_main_thread()
    patched = JobScheduler.exit_gracefully
    assert stop_off_the_main_thread() and JobScheduler.exit_gracefully is patched
    assert not stop_off_the_main_thread(type("NoSuchMethod", (), {}))
