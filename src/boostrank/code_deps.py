"""Which package modules a job runs: the modules named, and every ``boostrank`` module they
import, transitively -- at the top of a file or inside a function (the lazy imports the
entry points use) -- found by parsing the sources, without importing anything. The
Snakemake rules list these files as inputs (``code()`` in ``workflow/rules/common.smk``), so
editing a module reruns exactly the jobs that run it.

Parsing every module costs about half a second at each Snakemake start; with
:func:`use_disk_cache` each file's imports are kept between runs, keyed by its size and
modification time, and only changed files are parsed again.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = "boostrank"
_DISK: dict[str, list] = {}  # file -> [[mtime_ns, size], imports] (use_disk_cache)
_DISK_STATE: dict[str, object] = {"path": None, "dirty": False}


def module_file(root: Path, name: str) -> Path | None:
    """The source file of module ``name`` (dotted, without the package) under ``root``."""
    path = root.joinpath(*name.split("."))
    file = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return file if file.is_file() else None


@cache
def _file_imports(file: Path) -> tuple[str, ...]:
    """The package modules one source file imports (parsed once per process: the workflow
    asks for the same files for every rule and job; once per change with the disk cache)."""
    stat = file.stat()
    stamp = [stat.st_mtime_ns, stat.st_size]
    kept = _DISK.get(str(file))
    if kept is not None and kept[0] == stamp:
        return tuple(kept[1])
    found = tuple(_imports(file.read_text(encoding="utf-8")))
    if _DISK_STATE["path"] is not None:
        _DISK[str(file)] = [stamp, list(found)]
        _DISK_STATE["dirty"] = True
    return found


def use_disk_cache(path: Path | str) -> None:
    """Keep each file's imports in ``path`` (JSON) between processes: read it now, write it
    back (atomically) at exit when a file was parsed anew. A corrupt or foreign file is
    ignored and replaced."""
    import atexit
    import json

    path = Path(path)
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        _DISK.update(kept if isinstance(kept, dict) else {})
    except (OSError, ValueError):
        pass
    if _DISK_STATE["path"] is None:
        atexit.register(_save_disk_cache)
    _DISK_STATE["path"] = path


def _save_disk_cache() -> None:
    import json
    import os
    import tempfile

    path = _DISK_STATE["path"]
    if not isinstance(path, Path) or not _DISK_STATE["dirty"]:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".part", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(_DISK, handle)
        os.replace(tmp, path)
        _DISK_STATE["dirty"] = False
    except OSError:
        pass  # a cache: the next run parses again


def _imports(source: str) -> list[str]:
    """The package modules a source imports (``from boostrank.x import y`` names ``x`` and,
    in case ``y`` is a module, ``x.y``)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [a.name.removeprefix(f"{PACKAGE}.") for a in node.names
                    if a.name.startswith(f"{PACKAGE}.")]  # fmt: skip
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == PACKAGE:
                out += [a.name for a in node.names]
            elif node.module.startswith(f"{PACKAGE}."):
                base = node.module.removeprefix(f"{PACKAGE}.")
                out += [base, *(f"{base}.{a.name}" for a in node.names)]
    return out


def imported_modules(*modules: str, src: Path | str | None = None) -> list[str]:
    """``modules`` and every package module they import, transitively, sorted; names that
    are not modules (a class imported from a module) are dropped."""
    root = Path(src) if src is not None else Path(__file__).resolve().parent
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        file = module_file(root, name)
        if file is None:
            continue
        seen.add(name)
        todo += _file_imports(file)
    return sorted(seen)


__all__ = ["imported_modules", "module_file", "use_disk_cache"]
