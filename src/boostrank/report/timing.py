"""The timing record of a run: what each figure's jobs cost, and what Snakemake itself cost.

- Per figure: the jobs' ``benchmark:`` files (``benchmarks/<figure id>/...``; the data jobs
  under ``benchmarks/data/``, counted once as ``data``): job count, summed CPU-seconds and
  wall-seconds, the largest peak RSS.
- A job's CPU-seconds and peak RSS are its own ``getrusage`` (the process and its children),
  the last line of the job's log (``logs/<same path>.log``,
  :mod:`boostrank.workflow.job_resources`).
  Snakemake's ``cpu_time`` and ``max_rss`` are samples that miss up to 30 s of each longer
  job; they serve only for a job whose log has no such line.
- Per run (written when a run ends, from Snakemake's ``onsuccess``): Snakemake's own CPU
  (``getrusage(RUSAGE_SELF)``), the jobs' CPU (``RUSAGE_CHILDREN``), the wall time since the
  workflow was parsed, the peak RSS of Snakemake and of the largest job.

Each run that ran jobs writes its own record, ``logs/timing/<start>-<pid>.csv``, and then
puts a copy at ``results/timing.csv``, which so holds the last run to end; the report draws its
per-family CPU against the budgets (config ``timing.budgets_cpu_s``). Both are written
atomically under a temporary name of their own: two runs in one folder with separate targets
(Snakemake lets them run side by side) each keep their record, and ``results/timing.csv`` is
always one whole record, never a mix.
"""

from __future__ import annotations

import fnmatch
import os
import re
import resource
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.workflow.job_resources import logged_resources

if TYPE_CHECKING:
    import pandas as pd

    from boostrank.report.schedule import JobRecord

DATA = "data"  # benchmarks/data/: fetch and prepare jobs, shared by the figures
COLUMNS = (
    "scope", "name", "jobs", "cpu_s", "wall_s", "peak_rss_mb", "budget_cpu_s", "cpu_from", "note"
)  # fmt: skip


def benchmark_rows(bench_dir: Path | str, log_dir: Path | str | None = None) -> pd.DataFrame:
    """One row per ``benchmark:`` file: its ``path``, ``group`` (its first folder: a figure id
    or ``data``), ``wall_s``, ``cpu_s``, ``max_rss_mb``, and ``measured``: ``rusage`` where the
    job's log (same relative path under ``log_dir``, ``.log``) has its resource line, else
    ``sampled`` (Snakemake's own figures)."""
    import pandas as pd

    rows = []
    for path in sorted(Path(bench_dir).rglob("*.tsv")):
        table = pd.read_csv(path, sep="\t")
        if table.empty:
            continue
        relative = path.relative_to(bench_dir)
        logged = logged_resources(Path(log_dir, relative).with_suffix(".log")) if log_dir else None
        if logged is None:
            cpu = float(pd.to_numeric(table["cpu_time"], errors="coerce").fillna(0).sum())
            rss = float(pd.to_numeric(table["max_rss"], errors="coerce").max())
        else:
            cpu, rss = logged
        rows.append(
            {
                "path": f"{Path(bench_dir).as_posix()}/{relative.as_posix()}",
                "group": relative.parts[0],
                "wall_s": float(table["s"].sum()),
                "cpu_s": cpu,
                "max_rss_mb": rss,
                "measured": "sampled" if logged is None else "rusage",
            }
        )
    columns = ["path", "group", "wall_s", "cpu_s", "max_rss_mb", "measured"]
    return pd.DataFrame(rows, columns=columns)


def budget_of(name: str, budgets: Mapping[str, float]) -> tuple[str, float | None]:
    """The budget pattern ``name`` falls under (first match, fnmatch style) and its CPU-s."""
    for pattern, seconds in budgets.items():
        if any(fnmatch.fnmatchcase(name, p.strip()) for p in pattern.split("|")):
            return pattern, float(seconds)
    return "", None


def figure_timing(
    figure_ids: Iterable[str],
    bench_dir: Path | str,
    budgets: Mapping[str, float],
    log_dir: Path | str | None = None,
) -> pd.DataFrame:
    """Per figure (and ``data``): jobs, CPU-s, wall-s, largest peak RSS, its family's budget,
    and ``cpu_from``: ``rusage`` (every job's log had its resource line), ``sampled`` (none
    had), or ``rusage for i of n jobs``."""
    return _figure_rows(benchmark_rows(bench_dir, log_dir), figure_ids, budgets)


def _figure_rows(
    rows: pd.DataFrame, figure_ids: Iterable[str], budgets: Mapping[str, float]
) -> pd.DataFrame:
    """:func:`figure_timing` of the :func:`benchmark_rows` ``rows``."""
    import pandas as pd

    out = []
    for name in [*figure_ids, DATA]:
        mine = rows[rows["group"] == name]
        family, budget = budget_of(name, budgets)
        out.append(
            {
                "scope": "figure",
                "name": name,
                "jobs": len(mine),
                "cpu_s": round(float(mine["cpu_s"].sum()), 1),
                "wall_s": round(float(mine["wall_s"].sum()), 1),
                "peak_rss_mb": round(float(mine["max_rss_mb"].max()), 1) if len(mine) else None,
                "budget_cpu_s": budget,
                "cpu_from": _cpu_from(mine["measured"]),
                "note": family,
            }
        )
    return pd.DataFrame(out, columns=list(COLUMNS))


def _cpu_from(measured: pd.Series) -> str:
    exact = int((measured == "rusage").sum())
    if exact == len(measured):
        return "rusage" if exact else ""
    return f"rusage for {exact} of {len(measured)} jobs" if exact else "sampled"


def family_timing(figures: pd.DataFrame) -> pd.DataFrame:
    """Figures summed by budget family (the ``note`` column of :func:`figure_timing`)."""
    rows = figures[figures["scope"] == "figure"].copy()
    rows["family"] = rows["note"].where(rows["note"] != "", rows["name"])
    rows["budget_cpu_s"] = rows["budget_cpu_s"].astype(float)  # NaN: no budget
    return (
        rows.groupby("family", sort=False)
        .agg(jobs=("jobs", "sum"), cpu_s=("cpu_s", "sum"), budget_cpu_s=("budget_cpu_s", "first"))
        .reset_index()
    )


_STEPS = re.compile(r"(\d+) of (\d+) steps \(\d+%\) done")


def jobs_done(log_text: str) -> int:
    """How many jobs a Snakemake log says ran (0 for "Nothing to be done")."""
    found = _STEPS.findall(log_text)
    return int(found[-1][0]) if found else 0


def run_rows(started: float, jobs: int, command: str) -> list[dict[str, Any]]:
    """This process's (Snakemake's) own CPU and its jobs', the wall time since ``started``,
    and peak RSS: rows of scope ``run``."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own_cpu = own.ru_utime + own.ru_stime
    jobs_cpu = children.ru_utime + children.ru_stime
    wall = time.time() - started
    return [
        {"scope": "run", "name": "snakemake", "cpu_s": round(own_cpu, 1),
         "peak_rss_mb": round(own.ru_maxrss / 1024, 1),
         "note": f"{100 * own_cpu / max(own_cpu + jobs_cpu, 1e-9):.1f}% of the run's CPU"},
        {"scope": "run", "name": "jobs", "jobs": jobs, "cpu_s": round(jobs_cpu, 1),
         "peak_rss_mb": round(children.ru_maxrss / 1024, 1), "note": "largest job's peak RSS"},
        {"scope": "run", "name": "total", "jobs": jobs, "cpu_s": round(own_cpu + jobs_cpu, 1),
         "wall_s": round(wall, 1), "note": command},
    ]  # fmt: skip


_STAMP = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]")
_JOBID = re.compile(r"^\s+jobid: (\d+)$")
_FINISHED = re.compile(r"^Finished jobid: (\d+)")


def job_spans(log_text: str) -> dict[int, tuple[float, float]]:
    """Each job's (start, finish) in a Snakemake log, to the second: the time stamp of the
    block that announces it (its start here, its submission on a cluster) and of its
    "Finished jobid" line."""
    from datetime import datetime

    stamp: float | None = None
    start: dict[int, float] = {}
    spans: dict[int, tuple[float, float]] = {}
    for line in log_text.splitlines():
        if found := _STAMP.match(line):
            stamp = datetime.strptime(found.group(1), "%a %b %d %H:%M:%S %Y").timestamp()
        elif (found := _JOBID.match(line)) and stamp is not None:
            start.setdefault(int(found.group(1)), stamp)
        elif (found := _FINISHED.match(line)) and stamp is not None:
            jobid = int(found.group(1))
            if jobid in start:
                spans[jobid] = (start[jobid], stamp)
    return spans


def latency_rows(
    dag: Any, wall_by_benchmark: Mapping[str, float], log_text: str
) -> list[dict[str, Any]]:
    """A row of scope ``run``, ``job latency``: for each job of this run with a ``benchmark:``
    file, the seconds from Snakemake announcing it (:func:`job_spans`) to its finish beyond
    its own wall time (the benchmark's): what a job pays in queueing, submission and status
    polling (on a cluster, the node's own Snakemake too), clipped at 0; median, 90th
    percentile and mean over the jobs. No row when no job qualifies."""
    import numpy as np

    spans = job_spans(log_text)
    waits = [
        max(spans[job.jobid][1] - spans[job.jobid][0] - wall_by_benchmark[str(job.benchmark)], 0.0)
        for job in dag.jobs
        if job.jobid in spans and job.benchmark and str(job.benchmark) in wall_by_benchmark
    ]
    if not waits:
        return []
    median, p90, mean = np.median(waits), np.percentile(waits, 90), np.mean(waits)
    note = (
        "seconds from Snakemake announcing a job (its start here, its submission on a cluster) "
        "to its finish, beyond the job's own wall time (log time stamps, to the second): "
        f"median {median:.1f}, 90th percentile {p90:.1f}, mean {mean:.1f}"
    )
    return [
        {"scope": "run", "name": "job latency", "jobs": len(waits),
         "wall_s": round(float(median), 1), "note": note}
    ]  # fmt: skip


SIMULATED_CORES = (2, 8, 32, 128)


def schedule_rows(
    jobs: Sequence[JobRecord], overhead_s: float, bench_dir: Path | str = "benchmarks"
) -> list[dict[str, Any]]:
    """Rows of scope ``schedule``: the critical path (CPU-s of the longest chain of dependent
    jobs, the wall time on unlimited workers), the largest job, and the simulated wall time on
    :data:`SIMULATED_CORES` cores with ``overhead_s`` of Snakemake's own per job; jobs named
    by their benchmark file are shown relative to ``bench_dir``."""
    from boostrank.report.schedule import critical_path, simulate

    def short(name: str) -> str:
        return name.removeprefix(f"{Path(bench_dir).as_posix()}/").removesuffix(".tsv")

    seconds, chain = critical_path(jobs)
    largest = max(jobs, key=lambda job: job.cpu_s)
    rows = [
        {"scope": "schedule", "name": "critical path", "jobs": len(chain),
         "cpu_s": round(seconds, 1), "note": " > ".join(short(n) for n in chain)},
        {"scope": "schedule", "name": "largest job", "jobs": 1, "cpu_s": round(largest.cpu_s, 1),
         "note": short(largest.name)},
    ]  # fmt: skip
    note = (
        f"simulated: critical-path-first list schedule of the {len(jobs)} recorded jobs, "
        f"{overhead_s:.2f} s of Snakemake's own per job"
    )
    for cores in SIMULATED_CORES:
        wall = round(simulate(jobs, cores, overhead_s), 1)
        rows.append({"scope": "schedule", "name": f"{cores} cores", "wall_s": wall, "note": note})
    return rows


def run_record(log_dir: Path | str, started: float, pid: int | None = None) -> Path:
    """This run's own timing record: ``<log_dir>/timing/<start time>-<process id>.csv``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(started))
    return Path(log_dir, "timing", f"{stamp}-{os.getpid() if pid is None else pid}.csv")


def write_whole(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file of this writer's own, renamed over
    it: a reader sees the old or the new file whole, and two writers never share a temporary
    file (measurements: no fingerprint, and no sweep of other writers' temporary files)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".writing", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(handle.fileno(), 0o666 & ~mask)  # mkstemp makes 0600; open()'s mode
            handle.write(text)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def write_timing(
    out: Path | str,
    figure_ids: Iterable[str],
    bench_dir: Path | str,
    budgets: Mapping[str, float],
    *,
    log_dir: Path | str,
    started: float,
    log_files: str | Iterable[str] | None,
    command: str,
    dag: Any = None,
    roots: Sequence[Path | str] = (".",),
) -> Path | None:
    """At the end of a run that ran jobs (as Snakemake's log files tell): write the run's own
    record (:func:`run_record`), with the schedule rows of Snakemake's ``dag`` when given, and
    the same table to ``out`` (``results/timing.csv``); return the record's path, or None if
    no job ran. The jobs are those whose benchmark files lie under ``<root>/<bench_dir>`` for
    each of ``roots`` (their logs under ``<root>/<log_dir>``): a readings run names its
    variants' roots, so its record holds its own jobs."""
    import pandas as pd

    logs = [log_files] if isinstance(log_files, str) else list(log_files or [])
    log_text = "".join(Path(p).read_text(errors="replace") for p in logs if p)
    jobs = jobs_done(log_text)
    if not jobs or not roots:
        return None
    rows = pd.concat(
        [benchmark_rows(Path(root, bench_dir), Path(root, log_dir)) for root in roots],
        ignore_index=True,
    )
    figures = _figure_rows(rows, figure_ids, budgets)
    run = run_rows(started, jobs, command)
    if dag is not None:
        from boostrank.report.schedule import from_dag

        records = from_dag(dag, dict(zip(rows["path"], rows["cpu_s"], strict=True)))
        run += latency_rows(dag, dict(zip(rows["path"], rows["wall_s"], strict=True)), log_text)
        run += schedule_rows(records, run[0]["cpu_s"] / jobs, bench_dir)
    table = pd.concat([figures, pd.DataFrame(run, columns=list(COLUMNS))], ignore_index=True)
    table["jobs"] = table["jobs"].astype("Int64")
    text = table.to_csv(index=False)
    record = run_record(log_dir, started)
    write_whole(record, text)
    write_whole(out, text)
    return record


def record_run(
    out: Path | str,
    figure_ids: Iterable[str],
    budgets: Mapping[str, float],
    *,
    made: str,
    **run: Any,
) -> None:
    """Snakemake's ``onsuccess``: :func:`write_timing` (``run``: its keyword arguments but the
    benchmark and log folders, ``benchmarks`` and ``logs``), then one line on stderr naming the
    record, or saying it could not be written (a full disk): what the run ``made`` is complete
    either way, so that is no traceback."""
    try:
        record = write_timing(out, figure_ids, "benchmarks", budgets, log_dir="logs", **run)
    except OSError as exc:
        print(
            f"boostrank: the timing record was not written ({exc.filename}: {exc.strerror}); "
            f"{made} complete; fix that (a full disk: free some space) for the next record",
            file=sys.stderr,
        )
    else:
        if record:
            print(f"timing record: {out} (this run's: {record})", file=sys.stderr)


def budget_chart(families: pd.DataFrame) -> bytes:
    """A horizontal bar per figure family: CPU-s of its jobs, its budget as a tick."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 0.35 * len(families) + 1.2))
    y = range(len(families))
    over = families["budget_cpu_s"].notna() & (families["cpu_s"] > families["budget_cpu_s"])
    ax.barh(list(y), families["cpu_s"], color=["#d9534f" if o else "#5b8def" for o in over])
    budgets = families["budget_cpu_s"]
    ax.scatter(budgets, list(y), marker="|", s=300, color="black", label="budget", zorder=3)
    ax.set_yticks(list(y), families["family"])
    ax.invert_yaxis()
    ax.set_xlabel("CPU-seconds of the jobs (each job's own getrusage, from its log)")
    ax.legend(loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    return buffer.getvalue()
