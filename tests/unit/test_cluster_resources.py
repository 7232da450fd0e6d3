"""profiles/slurm's per-rule resources come from the benchmark files (make slurm-resources)."""

from __future__ import annotations

import yaml
from e2e_helpers import ROOT

from boostrank.workflow.cluster_resources import measure, render, update_profile

DRY_RUN = """\
[Sun Nov 22 03:59:11 2026]
rule chapter3_train:
    input: data/processed/td2003.npz
    output: results/runs/a.run
    jobid: 3
    benchmark: benchmarks/a/train1.tsv
    wildcards: dataset=td2003
    resources: tmpdir=/tmp
[Sun Nov 22 03:59:11 2026]
rule chapter3_train:
    output: results/runs/b.run
    benchmark: benchmarks/a/train2.tsv
[Sun Nov 22 03:59:11 2026]
rule docan_forest:
    output: results/docan-table1.csv
    benchmark: benchmarks/f.tsv
    threads: 2
localrule report:
    output: results/report.html
rule never_ran:
    benchmark: benchmarks/missing.tsv
"""
HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def _bench(path, seconds, rss):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{seconds}\t0:00:01\t{rss}\t1\t1\t1\t0\t0\t50\t1\n")


def test_resources_are_the_largest_measurement_with_headroom(tmp_path):
    _bench(tmp_path / "benchmarks/a/train1.tsv", 30.0, 400.0)
    _bench(tmp_path / "benchmarks/a/train2.tsv", 130.0, 100.0)
    _bench(tmp_path / "benchmarks/f.tsv", 2.0, "-")  # too short for a memory reading
    usage = measure(DRY_RUN, tmp_path)
    assert sorted(usage) == ["chapter3_train", "docan_forest"]  # measured rules only
    train = usage["chapter3_train"]
    assert (train.files, train.max_s, train.max_rss_mb) == (2, 130.0, 400.0)
    assert train.mem_mb == 1500  # 2 x 400 + 500 = 1300, rounded up to 250 MB
    assert train.runtime == 7  # 3 x 130 s = 6.5 min, rounded up
    forest = usage["docan_forest"]
    assert (forest.mem_mb, forest.runtime, forest.threads) == (1000, 5, 2)
    block = yaml.safe_load(render(usage))["set-resources"]
    assert block == {
        "chapter3_train": {"mem_mb": 1500, "runtime": 7},
        "docan_forest": {"mem_mb": 1000, "runtime": 5, "cpus_per_task": 2},
    }


def test_a_jobs_own_peak_rss_beats_a_sample_that_missed_it(tmp_path):
    _bench(tmp_path / "benchmarks/a/train1.tsv", 30.0, 400.0)
    log = tmp_path / "logs/a/train1.log"  # the job's log, at its benchmark's path
    log.parent.mkdir(parents=True)
    log.write_text("boostrank resources: cpu_s=29.50 peak_rss_mb=900.0\n")
    assert measure(DRY_RUN, tmp_path)["chapter3_train"].max_rss_mb == 900.0


def test_update_profile_replaces_only_the_marked_block(tmp_path):
    profile = tmp_path / "config.yaml"
    profile.write_text(
        "executor: slurm\n# BEGIN set-resources: generated\n# more words\nold: 1\n"
        "# END set-resources\njobs: 5\n"
    )
    update_profile(profile, "set-resources:\n  fetch: {mem_mb: 1000, runtime: 5}\n")
    settings = yaml.safe_load(profile.read_text())
    assert settings == {
        "executor": "slurm",
        "set-resources": {"fetch": {"mem_mb": 1000, "runtime": 5}},
        "jobs": 5,
    }
    assert "# more words" in profile.read_text()


def test_the_slurm_profile_sets_resources_for_the_experiment_rules():
    settings = yaml.safe_load((ROOT / "profiles/slurm/config.yaml").read_text())
    resources = settings["set-resources"]
    for rule in ("fetch", "prepare", "chapter3_train", "chapter5_sweep"):
        assert resources[rule]["mem_mb"] >= 1000 and resources[rule]["runtime"] >= 5, rule
    assert settings["executor"] == "slurm" and settings["rerun-incomplete"] is True
