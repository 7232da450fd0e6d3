"""profiles/slurm's per-rule settings, from what the last run in a directory measured.

``make slurm-resources`` (``python -m boostrank.workflow.cluster_resources``) reads every job
of that run -- its rule from Snakemake's metadata (``.snakemake/metadata``: one record per
output, naming the rule and the log files of the job that wrote it), its peak RSS from the
resource line its log ends with (:mod:`boostrank.workflow.job_resources`; the benchmark's
sampled ``max_rss`` where larger), its wall time from its ``benchmark:`` file (the log's path
under ``benchmarks/``, ``.tsv``) -- and rewrites the profile between its BEGIN/END marker lines:

- ``set-resources``: ``mem_mb`` = 2 x the rule's largest peak RSS + 500 MB, rounded up to
  250 MB (at least 1000), times Snakemake's ``attempt`` (1, then 2, 3 on the profile's
  ``retries``) for a rule whose jobs' peak RSS varies (the largest at least twice the median):
  another data set or config may need more than this run's largest; ``runtime`` (minutes) =
  3 x the longest wall time, rounded up (at least 5).
- ``groups`` / ``group-components``: each rule whose longest job took under 10 s (and that has
  more than one job) is its own group, of up to 10 jobs per SLURM submission, so that a
  1-second job does not wait in SLURM's queue and start Snakemake on a node on its own.

Run it after a full ``make reproduce``; a rule without a measured job keeps the profile's
default-resources and is not grouped.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import statistics
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

BEGIN = "# BEGIN generated"
END = "# END generated"
MEM_FACTOR, MEM_EXTRA_MB, MEM_STEP_MB, MEM_MIN_MB = 2.0, 500, 250, 1000
TIME_FACTOR, TIME_MIN_MINUTES = 3.0, 5
VARIES = 2.0  # largest / median peak RSS from which a rule's memory grows with the attempt
SHORT_S = 10.0  # a rule whose longest job is shorter is grouped
GROUP_COMPONENTS = 10  # jobs per group submission (docs/cluster.md: why 10)


@dataclass
class RuleUsage:
    """The measured jobs of one rule: (wall seconds, peak RSS MB) each."""

    rule: str
    jobs: list[tuple[float, float]] = field(default_factory=list)

    @property
    def max_s(self) -> float:
        return max(s for s, _ in self.jobs)

    @property
    def max_rss_mb(self) -> float:
        return max(rss for _, rss in self.jobs)

    @property
    def median_rss_mb(self) -> float:
        return statistics.median(rss for _, rss in self.jobs)

    @property
    def varies(self) -> bool:
        """Whether the largest job's peak RSS is at least VARIES x the median job's."""
        return self.max_rss_mb >= VARIES * self.median_rss_mb

    @property
    def short(self) -> bool:
        """Whether to group the rule's jobs: all shorter than SHORT_S, and more than one."""
        return len(self.jobs) > 1 and self.max_s < SHORT_S

    @property
    def mem_mb(self) -> int:
        need = MEM_FACTOR * self.max_rss_mb + MEM_EXTRA_MB
        return max(MEM_MIN_MB, int(math.ceil(need / MEM_STEP_MB) * MEM_STEP_MB))

    @property
    def runtime(self) -> int:
        return max(TIME_MIN_MINUTES, math.ceil(TIME_FACTOR * self.max_s / 60))


def job_rules(metadata_dir: Path) -> dict[str, str]:
    """Log path -> rule of every job Snakemake kept a metadata record of (one record per
    output file; the directory is Snakemake's file persistence, ``.snakemake/metadata``)."""
    rules: dict[str, str] = {}
    for folder, _, files in os.walk(metadata_dir):
        for name in files:
            try:
                record = json.loads(Path(folder, name).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # being written, or not a record
            for log in record.get("log") or []:
                if record.get("rule"):
                    rules[log] = record["rule"]
    return rules


def read_benchmark(path: Path) -> tuple[float, float] | None:
    """(wall seconds, max_rss MB; 0 where unmeasured) of a Snakemake benchmark TSV, the
    largest over its repeats; None if it has no row."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    if not rows:
        return None

    def number(value: str | None) -> float:
        try:
            return float(value or "nan")
        except ValueError:  # "-": too short a job for a sample
            return float("nan")

    def largest(column: str) -> float:
        values = [number(row.get(column)) for row in rows]
        return max((v for v in values if not math.isnan(v)), default=0.0)

    return largest("s"), largest("max_rss")


def _jobs(root: Path) -> Iterator[tuple[Path, Path]]:
    """(benchmark, log) paths, relative to ``root``, of every benchmarked job."""
    from boostrank.workflow.job_resources import job_log

    bench_dir = root / "benchmarks"
    for path in sorted(bench_dir.rglob("*.tsv")):
        relative = path.relative_to(root)
        yield relative, job_log(relative)


def measure(root: Path) -> dict[str, RuleUsage]:
    """Usage per rule of the jobs whose benchmark, log and metadata record are under
    ``root`` (rules sorted by name)."""
    from boostrank.workflow.job_resources import logged_resources

    rules = job_rules(root / ".snakemake" / "metadata")
    usage: dict[str, RuleUsage] = {}
    for bench, log in _jobs(root):
        rule = rules.get(log.as_posix())
        if rule is None or (measured := read_benchmark(root / bench)) is None:
            continue
        # The job's own peak RSS (getrusage) where its log has it: the benchmark's is a
        # sample, taken every 30 s after a job's first 15 s, and can miss the peak.
        logged = logged_resources(root / log)
        rss = max(measured[1], logged[1] if logged else 0.0)
        usage.setdefault(rule, RuleUsage(rule)).jobs.append((measured[0], rss))
    return dict(sorted(usage.items()))


def render(usage: dict[str, RuleUsage]) -> str:
    """The generated profile keys (without the marker lines): set-resources, groups and
    group-components."""
    lines = ["set-resources:"]
    for u in usage.values():
        mem = f"{u.mem_mb} * attempt" if u.varies else f"{u.mem_mb}"
        lines.append(
            f"  {u.rule}: {{mem_mb: {mem}, runtime: {u.runtime}}}  # {len(u.jobs)} job(s):"
            f" max {u.max_s:.1f} s, {u.max_rss_mb:.0f} MB (median {u.median_rss_mb:.0f} MB)"
        )
    short = [u.rule for u in usage.values() if u.short]
    if short:
        lines.append("groups:")
        lines += [f"  {rule}: short_{rule}" for rule in short]
        lines.append("group-components:")
        lines += [f"  short_{rule}: {GROUP_COMPONENTS}" for rule in short]
    return "\n".join(lines) + "\n"


def update_profile(profile: Path, block: str) -> None:
    """Replace what lies between the BEGIN/END marker lines of ``profile`` with ``block``."""
    from boostrank.errors import BoostrankError
    from boostrank.io import write_text

    text = profile.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith(BEGIN))
        stop = next(i for i, line in enumerate(lines) if line.startswith(END))
    except StopIteration:
        raise BoostrankError(f"{profile}: no '{BEGIN}' / '{END}' marker lines") from None
    # The BEGIN marker may continue on comment lines; keep them.
    while start + 1 < stop and lines[start + 1].startswith("#"):
        start += 1
    write_text(profile, "".join(lines[: start + 1]) + block + "".join(lines[stop:]))


def main(argv: Sequence[str] | None = None) -> int:
    """Print the block, and write it into the profile unless --print-only."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="profiles/slurm/config.yaml")
    parser.add_argument("--workdir", default=".", help="where the measured run ran")
    parser.add_argument("--print-only", action="store_true", help="do not edit the profile")
    args = parser.parse_args(argv)
    usage = measure(Path(args.workdir))
    block = render(usage)
    print(block, end="")
    grouped = [u for u in usage.values() if u.short]
    jobs = sum(len(u.jobs) for u in usage.values())
    short_jobs = sum(len(u.jobs) for u in grouped)
    submissions = sum(math.ceil(len(u.jobs) / GROUP_COMPONENTS) for u in grouped)
    print(
        f"{jobs} measured jobs of {len(usage)} rules; {short_jobs} jobs of {len(grouped)} "
        f"grouped rules go in {submissions} submissions",
        file=sys.stderr,
    )
    if not args.print_only:
        update_profile(Path(args.profile), block)
        print(f"written to {args.profile}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
