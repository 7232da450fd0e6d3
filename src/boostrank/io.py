"""Atomic file output: readers never see a half-written file; a failure leaves nothing behind.

Every file written under the workflow's ``results/`` (the tables the claims and the report read)
also gets a fingerprint beside it (``.<name>.fingerprint``: size, mtime and sha256), so a run can
tell a file the pipeline wrote from one edited by hand (:func:`set_aside_edited`).
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

RESULTS = "results"  # the workflow's results folder, relative to its working directory


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; it replaces ``path`` if the block succeeds.

    Temporary files of ``path`` left by a killed writer (``kill -9``, power loss) are removed
    first; one output has one writer at a time (Snakemake's jobs own their outputs).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f".{glob.escape(path.name)}.????????.part"):
        stale.unlink(missing_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get open()'s mode
        os.replace(tmp_path, path)
        if path.resolve().is_relative_to(Path.cwd() / RESULTS):
            _write_fingerprint(path)
    finally:
        tmp_path.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_open(path: Path | str, mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; it replaces ``path`` when the block exits cleanly."""
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as handle:
        yield handle


def write_text(path: Path | str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (UTF-8)."""
    with atomic_open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def write_json(path: Path | str, data: Any) -> None:
    """Write ``data`` as indented, key-sorted JSON, atomically."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True, default=_json_default) + "\n")


def read_json(path: Path | str) -> Any:
    """Read a JSON file."""
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def read_yaml(path: Path | str) -> Any:
    """A YAML file's data, parsed by libyaml where PyYAML has it (the registries are read at
    every workflow start, and by every variant of ``make readings``; same safe constructor)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=loader)


def json_object(text: str) -> dict[str, Any]:
    """Parse a command-line option holding a JSON object (rules pass parameters this way)."""
    from boostrank.errors import BoostrankError

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoostrankError(f"parameters are not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise BoostrankError("parameters must be a JSON object")
    return value


def save_npz(path: Path | str, **arrays: Any) -> None:
    """Save arrays to a compressed ``.npz`` atomically."""
    import numpy as np

    with atomic_open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def _json_default(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot serialise {type(value).__name__} to JSON")


# ---------------------------------------------------------------------- hand-edit detection


def _fingerprint_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.fingerprint")


def sha256_file(path: Path | str) -> str:
    """sha256 of a file's bytes."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _write_fingerprint(path: Path) -> None:
    stat = path.stat()
    record = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha256_file(path)}
    fingerprint = _fingerprint_path(path)
    # A temporary name of its own: two processes may refresh the same fingerprint at once.
    fd, tmp = tempfile.mkstemp(prefix=fingerprint.name, suffix=".part", dir=fingerprint.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(record))
    os.replace(tmp, fingerprint)


def _files(root: Path, skip: tuple[str, ...], prefix: str, suffix: str) -> list[Path]:
    """The files under ``root`` named ``<prefix>...<suffix>``, leaving out its top-level
    folders named in ``skip`` (one walk, pruned)."""
    found = []
    for folder, subfolders, names in os.walk(root):
        if Path(folder) == root:
            subfolders[:] = [d for d in subfolders if d not in skip]
        found += [Path(folder, n) for n in names if n.startswith(prefix) and n.endswith(suffix)]
    return sorted(found)


def edited_files(root: Path | str, skip: tuple[str, ...] = ()) -> list[Path]:
    """Files under ``root`` (but not in its top-level folders ``skip``) whose content is no
    longer what the pipeline wrote.

    A file whose size and mtime match its fingerprint is taken as unchanged without reading it;
    one that was only touched (same content, new mtime) is not edited.
    """
    edited = []
    for fingerprint in _files(Path(root), skip, ".", ".fingerprint"):
        path = fingerprint.with_name(fingerprint.name[1 : -len(".fingerprint")])
        try:
            stat = path.stat()
            record = json.loads(fingerprint.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # the file is gone (it will be remade) or the fingerprint is unreadable
        if (stat.st_size, stat.st_mtime_ns) == (record.get("size"), record.get("mtime_ns")):
            continue
        if stat.st_size != record.get("size") or sha256_file(path) != record.get("sha256"):
            edited.append(path)
        else:
            _write_fingerprint(path)  # only touched: remember the new mtime, skip the hash
    return edited


def set_aside_edited(
    root: Path | str, *, dry_run: bool = False, skip: tuple[str, ...] = ()
) -> list[Path]:
    """Move files edited by hand under ``root`` to ``<name>.edited``; return every file set
    aside and not yet recomputed (this run's and earlier runs').

    The workflow's default target lists the returned files, so their jobs run again; no job reads
    an edit, so the claims and the report see the pipeline's numbers. Snakemake by itself reruns
    only what *depends* on an edited file (its ``rerun-triggers`` compare a job's inputs,
    parameters and code, not its own outputs), and a missing file only when a job that needs it
    must run. A dry run moves nothing; it says what a run would do.
    """
    for path in edited_files(root, skip):
        if dry_run:
            print(f"boostrank: {path} was edited by hand; a run will recompute it", file=sys.stderr)
            continue
        kept = path.with_name(path.name + ".edited")
        os.replace(path, kept)
        _fingerprint_path(path).unlink(missing_ok=True)
        print(
            f"boostrank: {path} was edited by hand: kept as {kept.name}; recomputing it",
            file=sys.stderr,
        )
    kept_files = _files(Path(root), skip, "", ".edited")
    owed = (kept.with_name(kept.name[: -len(".edited")]) for kept in kept_files)
    return sorted(path for path in owed if not path.exists())
