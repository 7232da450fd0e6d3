"""A wrong configuration on Snakemake's command line, or a run from another folder, stops while
the workflow is parsed with one line saying what is wrong and how to fix it (Snakemake puts
the file and line it was raised at around it), never a traceback or a whole file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from e2e_helpers import copy_repo, snakemake_env

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_repo(tmp_path_factory.mktemp("config-errors"))


def _snakemake(cwd: Path, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", *args],
        cwd=cwd,
        env=snakemake_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out and len(out.splitlines()) < 12, out
    return out


def _line(out: str, text: str) -> str:
    (line,) = [line for line in out.splitlines() if text in line]
    return line


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("data=notadict", "config 'data': 'notadict' is not of type 'object'"),
        ("registry=/etc/passwd", "/etc/passwd is not a registry (it reads as str"),
        ("registry=config/{x}.yaml", "config 'registry': 'config/{x}.yaml' does not match"),
    ],
)
def test_a_wrong_value_on_the_command_line_is_one_line(repo, setting, expected):
    line = _line(_snakemake(repo, "--config", setting), expected)
    assert len(line) < 400, line  # /etc/passwd is named, not printed


@pytest.mark.parametrize("snakefile", ["Snakefile", "workflow/readings.smk"])
def test_run_from_another_folder_says_where_it_looked(repo, tmp_path, snakefile):
    out = _snakemake(
        tmp_path, "-s", str(repo / snakefile), "--configfile", str(repo / "config/quick.yaml")
    )
    line = _line(out, "no config/config.yaml in the working directory")
    assert str(tmp_path) in line and f"--directory {repo}" in line
    assert "is a required property" not in out
