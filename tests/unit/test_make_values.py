"""What a user types after `make` (FIG, NAME, ARGS, RUN, READINGS_CONFIG, FORCE) is never run
as shell or make code: each value arrives intact where the recipe passes it, or stops with one
line naming it.

The Makefile runs against a stand-in environment (VENV=<tmp>): its ``python`` is the project's,
logging each call's arguments, and its ``snakemake`` only logs them; so the real recipes, the
real ``boostrank figures`` and ``boostrank.workflow.make_run`` run, and no workflow does.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boostrank.errors import BoostrankError
from boostrank.workflow import make_run

ROOT = Path(__file__).resolve().parents[2]

LOGGER = """#!{python}
import json, os, sys
with open(os.environ["ARGV_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps([os.path.basename(sys.argv[0]), *sys.argv[1:]]) + "\\n")
{tail}
"""
# The stand-in python runs the real one after logging (`-m boostrank figures` must answer).
PYTHON_TAIL = "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A stand-in VENV whose install stamp is up to date, so make installs nothing."""
    root = tmp_path_factory.mktemp("venv")
    (root / "bin").mkdir()
    for name, tail in (("python", PYTHON_TAIL), ("snakemake", "")):
        script = root / "bin" / name
        script.write_text(LOGGER.format(python=sys.executable, tail=tail))
        script.chmod(0o755)
    (root / ".boostrank-installed").touch()
    return root


def _make(venv: Path, tmp: Path, *args: str) -> tuple[subprocess.CompletedProcess, list]:
    """Run ``make <args>`` in the repository against ``venv``; the calls it made."""
    log = tmp / "argv.log"
    log.unlink(missing_ok=True)
    env = {**os.environ, "ARGV_LOG": str(log), "PYTHONPATH": str(ROOT / "src")}
    env.pop("MAKEFLAGS", None)
    proc = subprocess.run(
        ["make", "--no-print-directory", f"VENV={venv}", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return proc, calls


# Fragments that would run `touch <marker>` if any shell or make read the value as code.
def _attacks(marker: Path) -> list[str]:
    m = shlex.quote(str(marker))
    return [
        f";touch {m};#",
        f"$(touch {m})",
        f"`touch {m}`",
        f"$(shell touch {m})",
        f"' ; touch {m} ; '",
        f'" ; touch {m} ; "',
        f"\ntouch {m}\n",
        f"&& touch {m}",
        f"| touch {m}",
        "Alice's run",
        "é € 😀 ünïcødé",
        "$HOME ${HOME} %s \\ # * ?",
    ]


MARKER = Path("/tmp/boostrank-make-values-marker")
PIECES = st.lists(
    st.one_of(
        st.sampled_from(_attacks(MARKER)),
        st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=8),
    ),
    min_size=1,
    max_size=4,
).map("".join)
# make drops the leading blanks of a command-line value: a value starts with a letter.
VALUES = PIECES.map(lambda text: "x" + text)
FAST = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(autouse=True)
def _no_marker():
    MARKER.unlink(missing_ok=True)
    yield
    assert not MARKER.exists(), "a value was run as code"


def _one_line(stderr: str, start: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith(start)]
    assert len(lines) == 1, stderr
    return lines[0]


@FAST
@given(value=VALUES, name=st.sampled_from(["FIG", "NAME"]))
@example(value=f"x;touch {MARKER}", name="FIG")
def test_fig_is_checked_against_the_catalogue_never_run(venv, tmp_path, value, name):
    proc, calls = _make(venv, tmp_path, "figure", f"{name}={value}")
    assert proc.returncode != 0
    line = _one_line(proc.stderr, "boostrank figures: error:")
    assert f"unknown figure or table {value!r}" in line
    assert [c[1:4] for c in calls] == [["-m", "boostrank", "figures"]]
    assert calls[0][4:] == [value]  # arrived intact
    assert not any(c[0] == "snakemake" for c in calls)


@FAST
@given(value=VALUES)
@example(value='--config "run_name=Alice\'s run"')
@example(value=f"--config 'run_name=demo;touch {MARKER};#'")
@example(value="'unclosed")
def test_args_arrive_as_words_or_one_line(venv, tmp_path, value):
    proc, calls = _make(venv, tmp_path, "quick", f"ARGS={value}")
    try:
        words = shlex.split(value)
    except ValueError:
        assert proc.returncode != 0 and not calls[1:], proc.stderr
        assert "cannot be split into options" in _one_line(proc.stderr, "make: error:")
        return
    # Words after the recipe's own --configfile are more config files, to Snakemake too.
    named = make_run.config_files(["--configfile", "config/quick.yaml", *words])
    if missing := [f for f in named if not (ROOT / f).is_file()]:
        line = _one_line(proc.stderr, "make: error:")
        assert f"config file {missing[0]!r} does not exist" in line
        return
    assert proc.returncode == 0, proc.stderr
    snakemake = [c for c in calls if c[0] == "snakemake"]
    assert snakemake == [["snakemake", "--profile", "profiles/local", "--configfile",
                          "config/quick.yaml", *words]]  # fmt: skip


@FAST
@given(value=VALUES)
def test_a_figure_with_force_and_args_keeps_every_value(venv, tmp_path, value):
    args = f"--config run_name={shlex.quote(value)}"
    proc, calls = _make(venv, tmp_path, "figure", "FIG=thesis-fig3_1", f"FORCE={value}",
                        f"ARGS={args}")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (snakemake,) = [c for c in calls if c[0] == "snakemake"]
    assert snakemake[3] == "--force" and "figures/thesis-fig3_1.pdf" in snakemake
    assert snakemake[-2:] == ["--config", f"run_name={value}"]


@FAST
@given(value=VALUES)
def test_readings_config_arrives_intact_or_is_named(venv, tmp_path, value):
    proc, calls = _make(venv, tmp_path, "readings", f"READINGS_CONFIG={value}")
    assert proc.returncode != 0  # no such file
    line = _one_line(proc.stderr, "make: error:")
    assert f"config file {value!r} does not exist" in line
    assert not any(c[0] == "snakemake" for c in calls)


@FAST
@given(value=VALUES)
def test_run_arrives_intact(venv, tmp_path, value):
    _, calls = _make(venv, tmp_path, "readme-results", f"RUN={value}")
    (headline,) = [c for c in calls if c[1:4] == ["-m", "boostrank", "headline"]]
    assert headline[4] == f"{value}/results/claims.csv"


def test_an_existing_config_file_in_args_is_passed(venv, tmp_path):
    proc, calls = _make(venv, tmp_path, "reproduce", "ARGS=--configfile=config/quick.yaml -n")
    assert proc.returncode == 0, proc.stderr
    assert calls[-1][-2:] == ["--configfile=config/quick.yaml", "-n"]
    proc, _ = _make(venv, tmp_path, "quick", "ARGS=--configfile config/nope.yaml")
    line = _one_line(proc.stderr, "make: error:")
    assert "'config/nope.yaml' does not exist" in line


def test_config_files_are_read_from_every_spelling():
    args = ["--configfile", "a.yaml", "b.yaml", "-n", "--configfiles=c.yaml", "target"]
    assert make_run.config_files(args) == ["a.yaml", "b.yaml", "c.yaml"]
    with pytest.raises(BoostrankError, match="no closing quotation"):
        make_run.split_args("--config 'run_name=x")


@FAST
@given(value=VALUES)
@example(value=f"x;touch {MARKER}")
def test_only_and_reading_are_checked_against_the_registry_never_run(venv, tmp_path, value):
    proc, calls = _make(venv, tmp_path, "readings", f"ONLY={value}")
    assert proc.returncode != 0
    assert f"ONLY={value!r} names" in _one_line(proc.stderr, "boostrank readings-only: error:")
    assert not any(c[0] == "snakemake" for c in calls)
    proc, calls = _make(venv, tmp_path, "figure", "FIG=thesis-fig3_1", f"READING={value}")
    assert proc.returncode != 0
    _one_line(proc.stderr, "boostrank figures: error:")
    assert not any(c[0] == "snakemake" for c in calls)


@FAST
@given(value=VALUES)
def test_protocol_is_quick_or_full_or_one_line(venv, tmp_path, value):
    proc, calls = _make(venv, tmp_path, "readings", f"PROTOCOL={value}")
    assert proc.returncode != 0
    assert "PROTOCOL is neither quick" in _one_line(proc.stderr, "make readings:")
    assert not calls


def test_the_stages_and_a_reading_reach_snakemake_as_config_words(venv, tmp_path):
    proc, calls = _make(venv, tmp_path, "readings", "PROTOCOL=full")
    assert proc.returncode == 0, proc.stderr
    (snakemake,) = [c for c in calls if c[0] == "snakemake"]
    assert snakemake[-5:] == ["--configfile", "config/config.yaml", "--config",
                              "readings_stage=confirm", "readings_only="]  # fmt: skip
    proc, calls = _make(venv, tmp_path, "figure", "FIG=thesis-fig3_1",
                        "READING=chapter3_tie_break=random")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (snakemake,) = [c for c in calls if c[0] == "snakemake"]
    assert "figures/readings/thesis-fig3_1__chapter3_tie_break.random.png" in snakemake
    assert snakemake[-1] == "readings_only=chapter3_tie_break"
