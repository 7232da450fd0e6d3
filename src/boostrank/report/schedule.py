"""How the run's jobs could be spread over more cores: its critical path and a simulated wall
time on p cores, from the recorded jobs (each job's own CPU-seconds, from its log) and the
recorded job graph (which job waits for which).

- The **critical path** is the longest chain of dependent jobs, summed over their CPU-seconds:
  the wall time on unlimited workers.
- The **simulated wall time** on p cores is list scheduling of the recorded jobs over the graph:
  whenever cores are free, the ready job with the longest chain still ahead of it starts
  (critical-path-first); a job holds its ``threads`` cores for its CPU-seconds divided by its
  threads, plus Snakemake's own overhead per job. Graham's bound holds for it:
  max(C, W/p) <= T_p <= W/p + (1 - 1/p) C for single-threaded jobs of total work W.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class JobRecord:
    """One job of a run: its name (benchmark path, else the job), CPU-seconds, threads and the
    names of the jobs it waits for."""

    name: str
    cpu_s: float
    threads: int = 1
    deps: tuple[str, ...] = field(default_factory=tuple)


def _duration(job: JobRecord, overhead_s: float) -> float:
    return job.cpu_s / max(job.threads, 1) + overhead_s


def _order(jobs: Mapping[str, JobRecord]) -> list[str]:
    """The jobs in an order where every job comes after the jobs it waits for."""
    indegree = {name: 0 for name in jobs}
    users: dict[str, list[str]] = {name: [] for name in jobs}
    for job in jobs.values():
        for dep in job.deps:
            indegree[job.name] += 1
            users[dep].append(job.name)
    ready = [name for name, n in indegree.items() if n == 0]
    order = []
    while ready:
        name = ready.pop()
        order.append(name)
        for user in users[name]:
            indegree[user] -= 1
            if indegree[user] == 0:
                ready.append(user)
    if len(order) != len(jobs):
        raise ValueError("the job graph has a cycle")
    return order


def _by_name(jobs: Sequence[JobRecord]) -> dict[str, JobRecord]:
    table = {job.name: job for job in jobs}
    missing = sorted({d for job in jobs for d in job.deps} - set(table))
    if missing:
        raise ValueError(f"jobs wait for unknown jobs: {missing[:3]}")
    return table


def critical_path(jobs: Sequence[JobRecord], overhead_s: float = 0.0) -> tuple[float, list[str]]:
    """(seconds, chain of job names from first to last) of the longest chain of dependent jobs,
    each counted as its duration on its own threads plus ``overhead_s``."""
    table = _by_name(jobs)
    finish: dict[str, float] = {}
    before: dict[str, str | None] = {}
    for name in _order(table):
        job = table[name]
        start, prev = max(((finish[d], d) for d in job.deps), default=(0.0, None))
        finish[name], before[name] = start + _duration(job, overhead_s), prev
    if not finish:
        return 0.0, []
    last = max(finish, key=finish.__getitem__)
    total, chain = finish[last], []
    end: str | None = last
    while end is not None:
        chain.append(end)
        end = before[end]
    return total, chain[::-1]


def from_dag(dag: Any, cpu_by_benchmark: Mapping[str, float]) -> list[JobRecord]:
    """Every job of Snakemake's ``dag`` (run now or before) whose ``benchmark:`` file is in
    ``cpu_by_benchmark`` (benchmark path -> CPU-s), or that has none (e.g. rule all: 0 CPU-s),
    named by that file (else its rule and job id), with its threads and the jobs it waits for.
    A job whose benchmark is not there is left out with its edges, as done before the run: a
    readings run's record reads its own roots' benchmarks, not the main run's."""

    def name(job: Any) -> str:
        return str(job.benchmark) if job.benchmark else f"{job.rule.name}#{job.jobid}"

    kept = [job for job in dag.jobs if not job.benchmark or str(job.benchmark) in cpu_by_benchmark]
    names = {name(job) for job in kept}
    return [
        JobRecord(
            name(job),
            float(cpu_by_benchmark[str(job.benchmark)]) if job.benchmark else 0.0,
            int(job.threads),
            tuple(sorted(n for dep in dag.dependencies[job] if (n := name(dep)) in names)),
        )
        for job in kept
    ]


def simulate(jobs: Sequence[JobRecord], cores: int, overhead_s: float = 0.0) -> float:
    """Wall seconds of a critical-path-first list schedule of ``jobs`` on ``cores`` cores (a job
    asking for more threads than there are cores gets them all)."""
    table = _by_name(jobs)
    order = _order(table)
    users: dict[str, list[str]] = {name: [] for name in table}
    waiting = {name: len(job.deps) for name, job in table.items()}
    for job in table.values():
        for dep in job.deps:
            users[dep].append(job.name)
    ahead: dict[str, float] = {}  # the longest chain from a job's start to the end of the run
    for name in reversed(order):
        rest = max((ahead[u] for u in users[name]), default=0.0)
        ahead[name] = _duration(table[name], overhead_s) + rest
    ready = [(-ahead[n], n) for n in order if waiting[n] == 0]
    heapq.heapify(ready)
    running: list[tuple[float, str]] = []
    now, free = 0.0, cores
    while ready or running:
        held: list[tuple[float, str]] = []
        while ready:
            key, name = heapq.heappop(ready)
            need = min(table[name].threads, cores)
            if need > free:
                held.append((key, name))
                continue
            free -= need
            heapq.heappush(running, (now + _duration(table[name], overhead_s), name))
        for item in held:
            heapq.heappush(ready, item)
        now, name = heapq.heappop(running)
        free += min(table[name].threads, cores)
        for user in users[name]:
            waiting[user] -= 1
            if waiting[user] == 0:
                heapq.heappush(ready, (-ahead[user], user))
    return now


__all__ = ["JobRecord", "critical_path", "from_dag", "simulate"]
