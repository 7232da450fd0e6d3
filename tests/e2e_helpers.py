"""Helpers for the tests that run Snakemake end to end in temporary copies of the repository.

The small runs (`TINY`) make two experiment families' figures (Figure 3.1 on td2003, Figure 5.1
on nursery) from config/quick.yaml + tests/config/tiny.yaml: about 20 jobs. Targets are named
explicitly, so the tests do not depend on the rest of the (growing) DAG.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TINY_CONFIG = ["--configfile", "config/quick.yaml", "tests/config/tiny.yaml"]
TINY_TARGETS = ["figures/thesis-fig3_1.pdf", "figures/thesis-fig5_1.pdf"]


def copy_repo(dest: Path) -> Path:
    """Copy the repository's files (tracked and untracked, not ignored ones) into ``dest``."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def clone_run(src: Path, dest: Path) -> Path:
    """Copy a finished run (outputs and Snakemake's metadata) to ``dest``, keeping mtimes."""
    shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True)
    shutil.rmtree(dest / ".snakemake" / "locks", ignore_errors=True)
    return dest


def snakemake_env(mirror: str = "") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "BOOSTRANK_DATA_MIRROR"}
    if mirror:
        env["BOOSTRANK_DATA_MIRROR"] = mirror
    return env


def snakemake_cmd(*args: str, profile: str = "profiles/local", tiny: bool = True) -> list[str]:
    """``snakemake <args> --profile <profile> [--configfile quick tiny]`` (targets in ``args``)."""
    cmd = [sys.executable, "-m", "snakemake", *args, "--profile", profile]
    return cmd + (TINY_CONFIG if tiny else [])


def run(
    repo: Path, *args: str, profile: str = "profiles/local", tiny: bool = True, timeout: int = 900
) -> subprocess.CompletedProcess:
    return subprocess.run(
        snakemake_cmd(*args, profile=profile, tiny=tiny),
        cwd=repo,
        env=snakemake_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_ok(repo: Path, *args: str, **kwargs) -> str:  # type: ignore[no-untyped-def]
    proc = run(repo, *args, **kwargs)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    return proc.stdout + proc.stderr


# Measurements of the run itself, not results: they differ from run to run by nature.
MEASUREMENTS = {"results/timing.csv"}


def result_csvs(repo: Path) -> dict[str, bytes]:
    """Every results CSV (results/ and figures/tables/), by path, as bytes; the run's own
    timing record (:data:`MEASUREMENTS`) is not a result."""
    return {
        name: p.read_bytes()
        for folder in ("results", "figures/tables")
        for p in sorted((repo / folder).rglob("*.csv"))
        if (name := str(p.relative_to(repo))) not in MEASUREMENTS
    }


def assert_same_csvs(repo: Path, reference: Path) -> None:
    got, want = result_csvs(repo), result_csvs(reference)
    assert sorted(got) == sorted(want)
    assert len(want) >= 8, sorted(want)
    differ = [name for name in want if got[name] != want[name]]
    assert not differ, f"CSVs differ from the reference run: {differ}"


_JOB = re.compile(r"^(?:local)?(?:rule|checkpoint) (\w+):$")


def dry_run_jobs(repo: Path, *targets: str) -> list[tuple[str, dict[str, str]]]:
    """(rule, wildcards) of every job ``snakemake -n`` would run for ``targets``."""
    return planned_jobs(run_ok(repo, "-n", *targets))


def planned_jobs(out: str) -> list[tuple[str, dict[str, str]]]:
    """(rule, wildcards) of every job in the output ``out`` of ``snakemake -n``."""
    jobs: list[tuple[str, dict[str, str]]] = []
    for line in out.splitlines():
        match = _JOB.match(line)
        if match:
            jobs.append((match.group(1), {}))
        elif jobs and line.startswith("    wildcards: "):
            pairs = line.split(": ", 1)[1].split(", ")
            jobs[-1][1].update(p.split("=", 1) for p in pairs)  # type: ignore[arg-type]
    if not jobs:
        assert "Nothing to be done" in out, out[-3000:]
    return jobs
