"""Answers about files kept between Snakemake starts, each keyed by the (mtime, size) of the
files it was worked out from: a file that changes is worked out again.

The workflow reads and checks the same sources and registries at every start (a dry run, a
rerun, each job a cluster node parses the Snakefile for); :func:`use` keeps the answers in one
JSON file (``.snakemake/boostrank-cache.json``), written back atomically at exit when one was
added. A corrupt or foreign file is ignored and replaced.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_ENTRIES: dict[str, list[Any]] = {}  # key -> [stamps of its files, answer]
_STATE: dict[str, Any] = {"path": None, "dirty": False}


def _stamps(files: Sequence[Path | str]) -> list[list[int]]:
    out = []
    for file in files:
        stat = os.stat(file)
        out.append([stat.st_mtime_ns, stat.st_size])
    return out


def get(key: str, files: Sequence[Path | str]) -> Any:
    """The answer kept for ``key`` if none of ``files`` changed since, else None."""
    kept = _ENTRIES.get(key)
    if kept is None:
        return None
    try:
        return kept[1] if kept[0] == _stamps(files) else None
    except OSError:
        return None


def put(key: str, files: Sequence[Path | str], answer: Any) -> None:
    """Keep ``answer`` (JSON-able, not None) for ``key``, worked out from ``files`` as they
    are now; nothing is kept until :func:`use` names the file to keep it in."""
    if _STATE["path"] is None:
        return
    _ENTRIES[key] = [_stamps(files), answer]
    _STATE["dirty"] = True


def use(path: Path | str) -> None:
    """Keep the answers in ``path``: read it now, write it back at exit if one was added. A
    second call with the same path (make readings includes the workflow once per variant)
    keeps what this process already holds."""
    import atexit

    path = Path(path)
    if _STATE["path"] == path:
        return
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        _ENTRIES.update(kept if isinstance(kept, dict) else {})
    except (OSError, ValueError):
        pass
    if _STATE["path"] is None:
        atexit.register(save)
    _STATE["path"] = path


def save() -> None:
    """Write the answers back (atomically) if one was added; a failure only costs the next
    start the work again."""
    import tempfile

    path = _STATE["path"]
    if not isinstance(path, Path) or not _STATE["dirty"]:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".part", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(_ENTRIES, handle)
        os.replace(tmp, path)
        _STATE["dirty"] = False
    except OSError:
        pass


__all__ = ["get", "put", "save", "use"]
