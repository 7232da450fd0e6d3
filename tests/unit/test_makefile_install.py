"""`make install`: the interpreter is checked first, and a failed install leaves no .venv that a
later one would reuse. Run on fake interpreters (shell scripts) in a temporary folder: no
network, no real virtual environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A fake interpreter: reports the version it is given, passes the Makefile's version check
# exactly when that version is in range, makes a "virtual environment" whose python is this
# script again (keeping one that exists, as a real venv keeps its interpreter), and fails every
# pip install while the file FAIL_PIP exists in the working folder.
FAKE = """#!/bin/sh
here=$(dirname "$0")
version=$(cat "$here/VERSION" 2>/dev/null || cat "$here/../../VERSION")
case "$1" in
  -V) echo "Python $version" ;;
  -c) case "$version" in 3.11.*|3.12.*) exit 0 ;; *) exit 1 ;; esac ;;
  -m)
    if [ "$2" = venv ]; then
      [ -e "$3/bin/python" ] && exit 0
      mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
      echo "$version" > "$3/VERSION"
    elif [ -e "$here/../../FAIL_PIP" ]; then
      echo "pip: no network" >&2; exit 1
    fi ;;
esac
"""


def _python(folder: Path, version: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "VERSION").write_text(version)
    script = folder / "python"
    script.write_text(FAKE)
    script.chmod(0o755)
    return script


def _install(work: Path, python: Path) -> subprocess.CompletedProcess[str]:
    # a top-level make, as a user's: under `make test` the inherited MAKELEVEL would make it
    # a sub-make, whose error line reads "make[1]: ***"
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    return subprocess.run(
        ["make", "-f", str(ROOT / "Makefile"), "install", f"PYTHON={python}"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


@pytest.fixture
def work(tmp_path: Path) -> Path:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    for name in ("pyproject.toml", "requirements.lock"):
        (tmp_path / name).write_text("")
    return tmp_path


def test_a_python_outside_the_required_versions_is_one_line_and_leaves_no_venv(work):
    proc = _install(work, _python(work / "py310", "3.10.14"))
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("make: ***"), proc.stderr  # make's own line
    assert "is Python 3.10.14, but boostrank needs Python >=3.11,<3.13" in lines[0]
    assert "make install PYTHON=python3.11" in lines[0]
    assert not (work / ".venv").exists()


def test_a_failed_install_leaves_no_venv_that_the_next_install_reuses(work):
    (work / "FAIL_PIP").write_text("")
    assert _install(work, _python(work / "py311", "3.11.9")).returncode != 0
    (work / ".venv" / "left-by-the-failed-install").write_text("")
    (work / "FAIL_PIP").unlink()
    proc = _install(work, _python(work / "py311", "3.11.9"))
    assert proc.returncode == 0, proc.stderr
    assert "removing .venv, which an unfinished install or another Python left" in proc.stdout
    assert not (work / ".venv" / "left-by-the-failed-install").exists()
    assert (work / ".venv" / ".boostrank-installed").exists()
    assert not (work / ".venv" / ".boostrank-partial").exists()


def test_a_venv_of_another_python_is_replaced_not_reused(work):
    """A .venv made by Python 3.10 (before the check existed) is not reused by 3.11."""
    _python(work / ".venv" / "bin", "3.10.14")
    (work / ".venv" / "VERSION").write_text("3.10.14")
    proc = _install(work, _python(work / "py311", "3.11.9"))
    assert proc.returncode == 0, proc.stderr
    assert (work / ".venv" / "VERSION").read_text().strip() == "3.11.9"


def test_the_makefile_names_the_versions_pyproject_requires():
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^PYTHON_VERSIONS := (.*)$", makefile, re.M).group(1) == required
    low, high = re.fullmatch(r">=3\.(\d+),<3\.(\d+)", required).groups()
    check = re.search(r"^PYTHON_OK := (.*)$", makefile, re.M).group(1)
    assert f"(3, {low}) <= sys.version_info[:2] < (3, {high})" in check
