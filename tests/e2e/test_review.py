"""Regenerating one figure for a review: only the jobs an edit affects rerun.

Every rule lists the package modules it runs among its inputs (``code(...)`` in
workflow/rules/common.smk). With the rerun triggers profiles/local and profiles/slurm use (the
defaults: mtime, params, input, software-env, code), an input whose mtime is newer than the
outputs reruns the job only if its content changed; a bare ``touch`` reruns nothing.
Each test works on a copy of the finished small run (tests/e2e_helpers.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from e2e_helpers import (
    ROOT,
    TINY_CONFIG,
    TINY_TARGETS,
    clone_run,
    dry_run_jobs,
    run_ok,
    snakemake_env,
)

from boostrank.experiments.job import figure_code
from boostrank.workflow.catalog import load_catalog

pytestmark = pytest.mark.e2e


@pytest.fixture
def reviewed(tiny_reference: Path, tmp_path: Path) -> Path:
    return clone_run(tiny_reference, tmp_path / "repo")


def _edit(path: Path) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("\n# a reviewer's edit\n")


def _rules(jobs: list[tuple[str, dict[str, str]]]) -> list[str]:
    return sorted(rule for rule, _ in jobs)


def test_profiles_use_content_aware_rerun_triggers():
    for profile in ("local", "slurm"):
        settings = yaml.safe_load((ROOT / "profiles" / profile / "config.yaml").read_text())
        triggers = settings["rerun-triggers"]
        assert {"mtime", "params", "input", "code"} <= set(triggers), profile


def test_finished_run_has_nothing_to_do_and_touch_alone_reruns_nothing(reviewed):
    assert dry_run_jobs(reviewed, *TINY_TARGETS) == []
    for module in ("experiments/chapter3/figure.py", "ranking/listnet.py", "io.py"):
        (reviewed / "src/boostrank" / module).touch()
    assert dry_run_jobs(reviewed, *TINY_TARGETS) == []


@pytest.mark.parametrize(
    ("module", "rule", "figure"),
    [
        ("experiments/chapter3/figure.py", "chapter3_figure", "thesis-fig3_1"),
        ("experiments/chapter5_6/figure.py", "chapter5_figure", "thesis-fig5_1"),
    ],
)
def test_editing_a_plotting_module_reruns_only_its_plot_job(reviewed, module, rule, figure):
    _edit(reviewed / "src/boostrank" / module)
    jobs = dry_run_jobs(reviewed, *TINY_TARGETS)
    assert _rules(jobs) == [rule]
    assert jobs[0][1].get("figure", figure) == figure


def test_editing_an_algorithm_reruns_only_the_training_jobs_that_use_it(reviewed):
    tiny = yaml.safe_load((ROOT / "tests/config/tiny.yaml").read_text())
    quick = yaml.safe_load((ROOT / "config/quick.yaml").read_text())
    # one job per (data set, fold): ListNet draws no random numbers, so one replicate
    expected = len(tiny["chapter3"]["datasets"]) * len(quick["chapter3"]["folds"])
    _edit(reviewed / "src/boostrank/ranking/listnet.py")
    jobs = dry_run_jobs(reviewed, *TINY_TARGETS)
    training = [w for rule, w in jobs if rule == "chapter3_train"]
    assert len(training) == expected
    assert {w["algorithm"] for w in training} == {"listnet"}
    # Downstream of the new run files only: Figure 3.1's evaluation and plot, nothing else.
    others = sorted({rule for rule, _ in jobs} - {"chapter3_train"})
    assert others == ["chapter3_evaluate", "chapter3_figure"], others


def test_make_figure_rebuilds_exactly_one_figure(reviewed):
    for path in ("figures/thesis-fig5_1.pdf", "figures/thesis-fig5_1.png"):
        (reviewed / path).unlink()
    before = (reviewed / "results/thesis-fig3_1.csv").stat().st_mtime_ns
    make = [
        "make",
        "--no-print-directory",
        f"VENV={ROOT / '.venv'}",
        "figure",
        "FIG=thesis-fig5_1",
        "ARGS=" + " ".join(TINY_CONFIG),
    ]
    out = subprocess.run(
        make, cwd=reviewed, env=snakemake_env(), capture_output=True, text=True, timeout=600
    )
    log = out.stdout + out.stderr
    assert out.returncode == 0, log[-4000:]
    assert (reviewed / "figures/thesis-fig5_1.pdf").stat().st_size > 0
    assert log.count("rule chapter5_figure:") == 1 and "1 of 1 steps" in log, log[-3000:]
    assert (reviewed / "results/thesis-fig3_1.csv").stat().st_mtime_ns == before
    # NAME= is the older spelling of FIG=; FORCE=1 redraws even when up to date.
    out = subprocess.run(
        [*make[:-2], "NAME=thesis-fig5_1", "FORCE=1", make[-1]],
        cwd=reviewed,
        env=snakemake_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0 and "rule chapter5_figure:" in out.stdout + out.stderr


def test_snakemake_on_one_pdf_reruns_only_its_plot(reviewed):
    (reviewed / "figures/thesis-fig3_1.pdf").unlink()
    assert _rules(dry_run_jobs(reviewed, "figures/thesis-fig3_1.pdf")) == ["chapter3_figure"]
    out = run_ok(reviewed, "figures/thesis-fig3_1.pdf")
    assert "1 of 1 steps (100%) done" in out


def test_list_figures_shows_source_and_rule_of_every_figure():
    out = subprocess.run(
        [sys.executable, "-m", "boostrank", "figures", "--rules"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    catalog = load_catalog(ROOT / "config/figures.yaml", figure_code())
    blocks = out.stdout.split("\n" + " " * max(map(len, catalog)) + "  snakemake ")
    assert len(blocks) == len(catalog) + 1  # every entry once
    text = out.stdout
    for fid, entry in catalog.items():
        assert re.search(rf"^{re.escape(fid)} +{re.escape(entry.title)}$", text, re.M), fid
        assert f"source: {entry.source}" in text
        assert f"rules:  {', '.join(entry.rules)}   (make figure FIG={fid})" in text
