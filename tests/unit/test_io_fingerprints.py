"""Hand-edit detection (boostrank.io): what the fingerprints promise, and that checking them
reads only."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boostrank import io as bio
from boostrank.io import (
    edit_reason,
    edited_files,
    output_files,
    owed_files,
    set_aside,
    write_text,
)


def _tree(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under ``root``: bytes, mode and mtime."""
    return {
        str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mode, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_touch_is_not_an_edit_and_checking_writes_nothing(workdir):
    write_text("results/a.csv", "x\n1\n")
    write_text("results/sub/b.csv", "x\n2\n")
    os.utime("results/a.csv", ns=(1, 1))  # touched, same content
    before = _tree(workdir)
    assert edited_files("results") == []
    assert _tree(workdir) == before  # not even a refreshed fingerprint


def test_a_same_size_edit_with_its_times_put_back_is_seen(workdir):
    """``touch -r`` after an edit of the same size: the size and times match, the bytes do not."""
    write_text("results/claims/b.csv", "x\n0.25\n")
    path = Path("results/claims/b.csv")
    times = path.stat()
    path.write_text("x\n9.25\n")
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert path.stat().st_size == times.st_size
    assert edited_files("results") == [path]
    assert edit_reason(path) == "its content is not what the pipeline wrote"


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.binary(min_size=1, max_size=200), data=st.data())
def test_any_changed_byte_is_seen_whatever_the_times(workdir, content, data):
    path = workdir / "results" / "t.bin"
    with bio.atomic_open(path, "wb") as handle:
        handle.write(content)
    times = path.stat()
    at = data.draw(st.integers(0, len(content) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != content[at]))
    path.write_bytes(content[:at] + bytes([byte]) + content[at + 1 :])
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert edit_reason(path) is not None


def test_a_missing_or_unreadable_fingerprint_counts_as_an_edit(workdir):
    write_text("results/a.csv", "x\n1\n")
    write_text("results/b.csv", "x\n2\n")
    write_text("results/c.csv", "x\n3\n")
    Path("results/.a.csv.fingerprint").unlink()
    Path("results/.b.csv.fingerprint").write_text("{not json")
    assert edit_reason("results/a.csv") == "it has no fingerprint"
    assert edit_reason("results/b.csv") == "its fingerprint cannot be read"
    assert edited_files("results") == [Path("results/a.csv"), Path("results/b.csv")]


def test_the_printed_tables_are_fingerprinted_and_other_folders_are_not(workdir):
    write_text("figures/tables/t.md", "| a |\n")
    write_text("figures/plot.txt", "x\n")
    write_text("elsewhere/c.csv", "x\n3\n")
    assert Path("figures/tables/.t.md.fingerprint").is_file()
    assert not list(Path("figures").glob(".*")) and not list(Path("elsewhere").glob(".*"))
    assert edited_files("figures/tables") == []
    Path("figures/tables/t.md").write_text("| b |\n")
    assert edited_files("figures/tables") == [Path("figures/tables/t.md")]


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_fingerprint_has_its_outputs_permissions(workdir, umask):
    old = os.umask(umask)
    try:
        write_text("results/a.csv", "x\n1\n")
    finally:
        os.umask(old)
    mode = stat.S_IMODE(Path("results/a.csv").stat().st_mode)
    assert mode == 0o666 & ~umask
    assert stat.S_IMODE(Path("results/.a.csv.fingerprint").stat().st_mode) == mode


def test_a_failed_fingerprint_write_leaves_no_temporary_file(workdir, monkeypatch):
    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bio, "json", SimpleNamespace(dumps=full_disk, loads=json.loads))
    with pytest.raises(OSError, match="No space left"):
        write_text("results/a.csv", "x\n1\n")
    assert sorted(p.name for p in Path("results").iterdir()) == ["a.csv"]


def test_set_aside_keeps_the_edit_and_the_file_is_owed_until_written_again(workdir):
    write_text("results/sub/b.csv", "x\n2\n")
    Path("results/sub/b.csv").write_text("x\n9\n")
    kept = set_aside("results/sub/b.csv")
    assert kept == Path("results/sub/b.csv.edited") and kept.read_text() == "x\n9\n"
    assert not Path("results/sub/.b.csv.fingerprint").exists()
    assert output_files("results") == [] and edited_files("results") == []
    assert owed_files("results") == [Path("results/sub/b.csv")]
    write_text("results/sub/b.csv", "x\n2\n")
    assert owed_files("results") == [] and edited_files("results") == []


def test_skipped_folders_and_hidden_files_are_not_outputs(workdir):
    write_text("results/readings/v/x.csv", "x\n")
    Path("results/readings/v/x.csv").write_text("edited\n")
    Path("results/.hidden").write_text("x\n")
    assert edited_files("results", skip=("readings",)) == []
    assert edited_files("results") == [Path("results/readings/v/x.csv")]


def test_an_old_fingerprint_with_times_still_checks_the_content(workdir):
    """Fingerprints written before this release also hold ``mtime_ns``: it is ignored."""
    write_text("results/a.csv", "x\n1\n")
    record = json.loads(Path("results/.a.csv.fingerprint").read_text())
    Path("results/.a.csv.fingerprint").write_text(json.dumps(record | {"mtime_ns": 1}))
    assert edited_files("results") == []


def test_the_main_workflow_leaves_every_readings_stage_to_its_variants(workdir):
    """common.smk skips each stage's root (boostrank.report.roots) under results/: a variant's
    logs, written without a fingerprint, are not the main run's hand edits."""
    from boostrank.report.roots import ROOTS

    skip = tuple(Path(root).name for root in ROOTS.values())
    for root in ROOTS.values():
        Path(root, "v/logs").mkdir(parents=True)
        Path(root, "v/logs/x.log").write_text("log\n")
    assert edited_files("results", skip=skip) == []
    assert len(edited_files("results", skip=("readings",))) == 1  # stage 2's, before
