"""Per-rule SLURM resources from the measured ``benchmark:`` files, for profiles/slurm.

``make slurm-resources`` (``python -m boostrank.workflow.cluster_resources``) maps every
benchmark file under ``benchmarks/`` to the rule that wrote it (from a forced dry run of the
workflow, which prints each job's rule and benchmark path), takes the largest wall time ``s``
and peak memory ``max_rss`` (MB) of each rule, and rewrites the ``set-resources:`` block of
``profiles/slurm/config.yaml`` between its BEGIN/END marker lines:

- ``mem_mb`` = 2 x the largest max_rss + 500 MB, rounded up to 250 MB (at least 1000);
- ``runtime`` (minutes) = 3 x the largest wall time, rounded up (at least 5);
- ``cpus_per_task`` = the rule's ``threads`` where it asks for more than one.

Run it after a full ``make reproduce`` so the numbers are the full protocol's; rules without a
benchmark file keep the profile's default-resources.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

BEGIN = "# BEGIN set-resources"
END = "# END set-resources"
MEM_FACTOR, MEM_EXTRA_MB, MEM_STEP_MB, MEM_MIN_MB = 2.0, 500, 250, 1000
TIME_FACTOR, TIME_MIN_MINUTES = 3.0, 5


@dataclass
class RuleUsage:
    """The largest measured wall time and memory of one rule's jobs."""

    rule: str
    threads: int = 1
    files: int = 0
    max_s: float = 0.0
    max_rss_mb: float = 0.0
    benchmarks: list[str] = field(default_factory=list)

    @property
    def mem_mb(self) -> int:
        need = MEM_FACTOR * self.max_rss_mb + MEM_EXTRA_MB
        return max(MEM_MIN_MB, int(math.ceil(need / MEM_STEP_MB) * MEM_STEP_MB))

    @property
    def runtime(self) -> int:
        return max(TIME_MIN_MINUTES, math.ceil(TIME_FACTOR * self.max_s / 60))


def jobs_from_dry_run(text: str) -> list[tuple[str, str | None, int]]:
    """(rule, benchmark path or None, threads) of every job block in ``snakemake -n`` output."""
    jobs: list[tuple[str, str | None, int]] = []
    rule: str | None = None
    bench: str | None = None
    threads = 1
    for line in [*text.splitlines(), ""]:
        head = re.match(r"^(?:local)?rule (\w+):$", line)
        if head or (rule and not line.startswith("    ")):
            if rule:
                jobs.append((rule, bench, threads))
            rule, bench, threads = (head.group(1), None, 1) if head else (None, None, 1)
            continue
        if rule:
            key, _, value = line.strip().partition(": ")
            if key == "benchmark":
                bench = value.strip()
            elif key == "threads":
                threads = int(value)
    return jobs


def read_benchmark(path: Path) -> tuple[float, float] | None:
    """(wall seconds, max_rss MB) of a Snakemake benchmark TSV (largest over its repeats)."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    if not rows:
        return None

    def number(value: str | None) -> float:
        try:
            return float(value or "nan")
        except ValueError:
            return float("nan")

    seconds = max(number(r.get("s")) for r in rows)
    rss = max((number(r.get("max_rss")) for r in rows), default=float("nan"))
    return (0.0 if math.isnan(seconds) else seconds, 0.0 if math.isnan(rss) else rss)


def measure(dry_run_text: str, root: Path) -> dict[str, RuleUsage]:
    """Usage per rule from the benchmark files that exist under ``root`` (and their jobs'
    logs)."""
    from boostrank.workflow.job_resources import job_log, logged_resources

    usage: dict[str, RuleUsage] = {}
    for rule, bench, threads in jobs_from_dry_run(dry_run_text):
        if bench is None:
            continue
        entry = usage.setdefault(rule, RuleUsage(rule))
        entry.threads = max(entry.threads, threads)
        path = root / bench
        if not path.is_file() or (measured := read_benchmark(path)) is None:
            continue
        # The job's own peak RSS (its log's last line) where it has one: the benchmark's is a
        # sample, taken every 30 s after a job's first 15 s, and can miss the peak.
        logged = logged_resources(root / job_log(bench))
        entry.files += 1
        entry.max_s = max(entry.max_s, measured[0])
        entry.max_rss_mb = max(entry.max_rss_mb, measured[1], logged[1] if logged else 0.0)
    return {rule: u for rule, u in sorted(usage.items()) if u.files}


def render(usage: dict[str, RuleUsage]) -> str:
    """The ``set-resources:`` block (without the marker lines)."""
    lines = ["set-resources:"]
    for u in usage.values():
        cpus = f", cpus_per_task: {u.threads}" if u.threads > 1 else ""
        lines.append(
            f"  {u.rule}: {{mem_mb: {u.mem_mb}, runtime: {u.runtime}{cpus}}}"
            f"  # {u.files} benchmark(s): max {u.max_s:.1f} s, {u.max_rss_mb:.0f} MB"
        )
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


def dry_run(snakemake_args: Sequence[str], workdir: Path) -> str:
    """The forced dry run of the whole workflow (every job, whether up to date or not)."""
    # Many cores, so that each job shows its rule's own threads.
    cmd = [sys.executable, "-m", "snakemake", "-n", "--forceall", "--nolock", "--cores", "256"]
    proc = subprocess.run([*cmd, *snakemake_args], cwd=workdir, capture_output=True, text=True)
    if proc.returncode != 0:
        from boostrank.errors import BoostrankError

        raise BoostrankError(f"snakemake dry run failed:\n{proc.stderr[-2000:]}")
    return proc.stdout + proc.stderr


def main(argv: Sequence[str] | None = None) -> int:
    """Print the block, and write it into the profile unless --print-only."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="profiles/slurm/config.yaml")
    parser.add_argument("--workdir", default=".")
    parser.add_argument("--print-only", action="store_true", help="do not edit the profile")
    parser.add_argument("snakemake_args", nargs="*", help="extra snakemake arguments")
    args = parser.parse_args(argv)
    root = Path(args.workdir)
    usage = measure(dry_run(args.snakemake_args, root), root)
    block = render(usage)
    print(block, end="")
    if not args.print_only:
        update_profile(root / args.profile, block)
        print(f"written to {root / args.profile}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
