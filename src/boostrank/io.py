"""Atomic file output: readers never see a half-written file; a failure leaves nothing behind."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO


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
    finally:
        tmp_path.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_open(path: Path | str, mode: str = "w", **kwargs: Any) -> Iterator[TextIO | BinaryIO]:
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
