"""Which package modules a job runs: the modules named, and every ``boostrank`` module they
import, transitively -- at the top of a file or inside a function (the lazy imports the
entry points use) -- found by parsing the sources, without importing anything. The
Snakemake rules list these files as inputs (``code()`` in ``workflow/rules/common.smk``), so
editing a module reruns exactly the jobs that run it.

Parsing every module at each Snakemake start would slow every start; with
:func:`boostrank.workflow.stamp_cache.use` each file's imports are kept between runs, keyed by
its size and modification time, and only changed files are parsed again.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from boostrank.workflow import stamp_cache

PACKAGE = "boostrank"


def module_file(root: Path, name: str) -> Path | None:
    """The source file of module ``name`` (dotted, without the package) under ``root``."""
    path = root.joinpath(*name.split("."))
    file = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return file if file.is_file() else None


@cache
def _file_imports(file: Path) -> tuple[str, ...]:
    """The package modules one source file imports (parsed once per process: the workflow
    asks for the same files for every rule and job; once per change with the disk cache,
    :mod:`boostrank.workflow.stamp_cache`)."""
    key = f"imports:{file}"
    kept = stamp_cache.get(key, [file])
    if kept is not None:
        return tuple(kept)
    found = tuple(_imports(file.read_text(encoding="utf-8")))
    stamp_cache.put(key, [file], list(found))
    return found


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
    root = Path(src) if src is not None else Path(__file__).resolve().parents[1]  # src/boostrank
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


__all__ = ["imported_modules", "module_file"]
