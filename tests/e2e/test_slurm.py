"""The cluster profile on a real single-node SLURM: the same results as a local run.

tests/slurm/start_slurm.sh installs slurm-wlm and munge (Debian packages) when missing, writes
the munge key and /etc/slurm/slurm.conf (with a TaskProlog that takes $BOOSTRANK_DATA_MIRROR out
of every job's environment), and starts munged, slurmctld and slurmd; the fixture
stops exactly those daemons (by PID) afterwards and puts back the slurm.conf it found (or
removes its own: one naming a stopped controller makes every Snakemake start wait 9 s).
Needs root; skipped elsewhere, except under CI (CI=true), where a set-up failure fails the
test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from e2e_helpers import (
    ROOT,
    TINY_TARGETS,
    assert_same_csvs,
    copy_repo,
    run,
    snakemake_cmd,
    snakemake_env,
)

from boostrank.data.provenance import Provenance
from boostrank.data.sources import MIRROR_ENV
from boostrank.workflow.cluster_resources import RuleUsage, render, update_profile

SLURM_DIR = ROOT / "tests" / "slurm"
# Without accounting (no sacct), squeue reports job status; MinJobAge=600 in slurm.conf keeps
# finished jobs visible to it. No account on this test cluster.
SLURM_ARGS = [
    "--slurm-no-account",
    "--slurm-status-command",
    "squeue",
    "--slurm-init-seconds-before-status-checks",
    "1",
    "--seconds-between-status-checks",
    "2",
    "-j",
    "4",
]


def _unavailable_reason() -> str | None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root to install and start SLURM"
    if not (shutil.which("slurmctld") or shutil.which("apt-get")):
        return "no SLURM and no apt-get to install it"
    return None


@pytest.fixture(scope="module")
def slurm_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    reason = _unavailable_reason()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the SLURM test cannot run in CI: {reason}")
        pytest.skip(reason)
    state = tmp_path_factory.mktemp("slurm")
    start = subprocess.run(
        ["bash", str(SLURM_DIR / "start_slurm.sh"), str(state)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    try:
        if start.returncode != 0:
            message = f"SLURM set-up failed ({start.returncode}): {start.stderr[-3000:]}"
            if os.environ.get("CI") or start.returncode not in (4,):
                pytest.fail(message)
            pytest.skip(message)  # 4: a SLURM not ours is running here
        yield state
    finally:
        subprocess.run(["bash", str(SLURM_DIR / "stop_slurm.sh"), str(state)], timeout=60)


@pytest.mark.e2e
def test_slurm_profile_gives_the_local_results(slurm_cluster, tiny_reference, tmp_path):
    repo = copy_repo(tmp_path)
    started = time.monotonic()
    # The data first (docs/cluster.md): Snakemake 9.27.1 crashes when a `fetch` checkpoint
    # finishes while a group job runs.
    fetched = run(repo, *SLURM_ARGS, *TINY_TARGETS, "--until", "fetch", profile="profiles/slurm")
    assert fetched.returncode == 0, (fetched.stdout + fetched.stderr)[-6000:]
    proc = run(repo, *SLURM_ARGS, *TINY_TARGETS, profile="profiles/slurm")
    elapsed = time.monotonic() - started
    out = proc.stdout + proc.stderr
    logs = "\n".join(p.read_text()[-2000:] for p in (slurm_cluster / "log").glob("*.log"))
    assert proc.returncode == 0, out[-6000:] + logs[-3000:]
    # Every job went through SLURM (the profile has no local rules among these targets), the
    # short ones in group jobs.
    submitted = out.count("has been submitted with SLURM jobid")
    done, total = re.findall(r"(\d+) of (\d+) steps", out)[-1]
    groups = set(re.findall(r"slurm_logs/group_(short_\w+)/", out))  # <group>_<rules>
    assert done == total and submitted < int(total), out[-3000:]  # jobs shared submissions
    for rule in ("prepare", "chapter3_qrels", "chapter3_evaluate"):
        assert f"short_{rule}_{rule}" in groups, groups
    assert_same_csvs(repo, tiny_reference)
    # The timing record gives what a job pays on the cluster beyond its own run time.
    record = pd.read_csv(repo / "results/timing.csv").set_index("name")
    latency = record.loc["job latency"]
    assert latency["scope"] == "run" and 0 < latency["jobs"] <= int(total)
    print(f"SLURM run: {total} jobs in {submitted} submissions, {elapsed:.0f} s")
    print(f"job latency over {int(latency['jobs'])} jobs: {latency['note']}")
    # The daemons we started are still ours to stop: their PIDs are alive.
    pids = (slurm_cluster / "pids").read_text().split()
    assert all(Path(f"/proc/{pid}").exists() for pid in pids)


MIRROR = os.environ.get(MIRROR_ENV) or (
    str(ROOT.parent / "shared" / "data") if (ROOT.parent / "shared" / "data").is_dir() else ""
)


@pytest.mark.e2e
@pytest.mark.skipif(not MIRROR, reason="no data mirror (set BOOSTRANK_DATA_MIRROR)")
@pytest.mark.parametrize("setting", ["config", "environment"])
def test_a_fetch_on_a_node_gets_the_mirror_its_environment_lacks(slurm_cluster, tmp_path, setting):
    """The mirror set in the config (data.mirror), or only in the submitting shell's
    environment, reaches the fetch job on a node whose environment lacks the variable."""
    probe = subprocess.run(
        ["srun", "-n1", "sh", "-c", f"echo ${{{MIRROR_ENV}:-absent}}"],
        env={**os.environ, MIRROR_ENV: MIRROR},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.stdout.strip() == "absent", probe.stdout + probe.stderr  # a node's job lacks it
    repo = copy_repo(tmp_path)
    if setting == "config":
        (repo / "mirror.yaml").write_text(f"data:\n  mirror: {MIRROR}\n")
        args, env = ["mirror.yaml"], snakemake_env()  # after quick.yaml and tiny.yaml
        origin = "data.mirror in the config files"
    else:
        args, env = [], snakemake_env(MIRROR)
        origin = f"${MIRROR_ENV}"
    targets = ["data/raw/nursery/provenance.json", "data/processed/nursery.json"]
    cmd = snakemake_cmd(*SLURM_ARGS, *targets, profile="profiles/slurm")
    proc = subprocess.run(
        cmd + args, cwd=repo, env=env, capture_output=True, text=True, timeout=900
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-6000:]
    assert f"data mirror: {MIRROR} (from {origin})" in out
    assert out.count("has been submitted with SLURM jobid") == 2, out[-3000:]
    prov = Provenance.load(repo / "data/raw/nursery/provenance.json")
    assert prov.kind == "mirror" and prov.location == f"{MIRROR}/uci_nursery"
    assert [f["check"] for f in prov.files.values()] == ["verified"]


# Three short jobs; the second fails on its first attempt (once: it leaves a mark).
PROBE_RULE = """
rule slurm_probe:
    output:
        "results/probe/{i}.txt",
    shell:
        "if [ {wildcards.i} = 1 ] && [ ! -e results/probe/failed-once ]; then"
        " touch results/probe/failed-once; exit 1; fi;"
        " echo {resources.mem_mb} $SLURM_JOB_ID > {output}"
"""


@pytest.mark.e2e
def test_a_group_job_runs_its_members_and_a_failed_one_is_retried_with_more_memory(
    slurm_cluster, tmp_path
):
    """The profile's generated block for a rule measured as short and of varying memory: its
    jobs go to SLURM as one group job, and the failed attempt is submitted again with the
    memory doubled."""
    repo = copy_repo(tmp_path)
    (repo / "workflow/rules/slurm_probe.smk").write_text(PROBE_RULE)
    with open(repo / "Snakefile", "a") as snakefile:
        snakefile.write('\ninclude: "workflow/rules/slurm_probe.smk"\n')
    # Measured: 1-2 s jobs (short: grouped), peak RSS 100-300 MB (varies: x attempt).
    probe = RuleUsage("slurm_probe", [(1.0, 100.0), (2.0, 300.0), (1.0, 100.0)])
    update_profile(repo / "profiles/slurm/config.yaml", render({"slurm_probe": probe}))
    targets = [f"results/probe/{i}.txt" for i in range(3)]
    proc = run(repo, *SLURM_ARGS, *targets, profile="profiles/slurm", timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-6000:]
    # One submission for the three jobs, one more for the retry after the failure.
    assert out.count("has been submitted with SLURM jobid") == 2, out[-3000:]
    written = {i: (repo / t).read_text().split() for i, t in enumerate(targets)}
    assert written[1][0] == str(2 * probe.mem_mb)  # attempt 2: mem_mb x 2
    # Every member ran inside a group job: the retried one and the others shared a SLURM job.
    assert all(job != "" for _, job in written.values())
    assert len({job for _, job in written.values()}) <= 2
