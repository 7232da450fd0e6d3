"""A workflow job's own resources: the line its CLI ends its log with, and where that log is.

Snakemake's ``benchmark:`` figures are samples (every 0.5 s for a job's first 15 s, then every
30 s), so they miss up to 30 s of CPU and any peak between samples. Each job therefore writes
its own ``getrusage`` (process and waited-for children) as the last line of its log; the
timing record (:mod:`boostrank.report.timing`) and the cluster resources
(:mod:`boostrank.workflow.cluster_resources`) read it from there. A job's log sits at its
benchmark's path under ``logs/`` (``benchmarks/<x>.tsv`` -> ``logs/<x>.log``).
"""

from __future__ import annotations

import re
import resource
from pathlib import Path

# Set by the workflow's `boostrank` shell function: a job's CLI then ends its log with its
# resources (an interactive command does not).
JOB_RESOURCES_ENV = "BOOSTRANK_JOB_RESOURCES"
RESOURCES = "boostrank resources:"
_RESOURCES = re.compile(re.escape(RESOURCES) + r" cpu_s=([0-9.]+) peak_rss_mb=([0-9.]+)")


def resource_line() -> str:
    """This process's CPU-seconds (user + system, its waited-for children included) and peak
    RSS, as the line a job's log ends with."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    peak_mb = max(own.ru_maxrss, children.ru_maxrss) / 1024  # Linux: KiB
    return f"{RESOURCES} cpu_s={cpu:.2f} peak_rss_mb={peak_mb:.1f}"


def job_log(benchmark: Path | str) -> Path:
    """The log of the job a benchmark file belongs to: the workflow puts it at the same path
    under ``logs/`` (``benchmarks/<x>.tsv`` -> ``logs/<x>.log``, under any prefix)."""
    parts = list(Path(benchmark).parts)
    where = len(parts) - 1 - parts[::-1].index("benchmarks")
    parts[where] = "logs"
    return Path(*parts).with_suffix(".log")


def logged_resources(log: Path) -> tuple[float, float] | None:
    """(CPU-s, peak RSS MB) from the last resource line of a job's log; None without one."""
    try:
        found = _RESOURCES.findall(log.read_text(errors="replace"))
    except OSError:
        return None
    return (float(found[-1][0]), float(found[-1][1])) if found else None
