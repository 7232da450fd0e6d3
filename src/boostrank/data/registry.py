"""The data registry (``config/datasets.yaml``): one entry per data set any source paper uses.

See ``config/REGISTRY_SCHEMA.md`` for the keys. Hashes are sha256 of the *uncompressed* file bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from boostrank.errors import BoostrankError, did_you_mean
from boostrank.io import read_yaml

UNKNOWN = "unknown"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_TASKS = {"classification", "ranking", "multilabel", "ratings", "text", "reference"}
_KEYS = {
    "title",
    "task",
    "citation",
    "homepage",
    "mirror_folder",
    "downloads",
    "files",
    "optional_files",
    "loader",
    "published",
    "embedded",
    "synthetic",
}
_REQUIRED = {"title", "task", "citation", "mirror_folder", "files"}
# A data set's name is a folder name: data/raw/<name>/, data/processed/<name>.npz.
_NAME = re.compile(r"^[a-z0-9_]+$")
# Loader keys that name a file inside data/raw/<name>/.
_LOADER_PATHS = (
    "file",
    "labels_xml",
    "ratings",
    "items",
    "genres",
    "fold_test_files",
    "images",
    "labels",
    "fallback_images",
    "fallback_labels",
    "count_labels",
)
_DOWNLOAD_KEYS = {"url", "archive", "strip_prefix", "file"}


@dataclass(frozen=True)
class Download:
    """One canonical URL and how to turn what it serves into registry files."""

    url: str
    archive: str = "none"
    strip_prefix: str = ""
    file: str | None = None


@dataclass(frozen=True)
class DatasetSpec:
    """A registry entry."""

    name: str
    title: str
    task: str
    citation: str
    mirror_folder: str
    files: dict[str, str]
    optional_files: dict[str, str] = field(default_factory=dict)
    homepage: str = ""
    downloads: tuple[Download, ...] = ()
    loader: dict[str, Any] | None = None
    published: dict[str, Any] = field(default_factory=dict)
    embedded: dict[str, Any] | None = None
    synthetic: dict[str, Any] | None = None

    @property
    def all_files(self) -> dict[str, str]:
        """Required and optional files with their expected sha256."""
        return {**self.files, **self.optional_files}


def load_registry(path: Path | str) -> dict[str, DatasetSpec]:
    """Parse and check the registry; raise :class:`BoostrankError` naming any bad entry."""
    path = Path(path)
    try:
        raw = read_yaml(path)
    except FileNotFoundError:
        raise BoostrankError(f"data registry {path} not found") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise BoostrankError(
            f"data registry {path} is not valid YAML ({problem}{where}): fix the file"
        ) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("datasets"), dict):
        raise BoostrankError(f"data registry {path} must have a top-level 'datasets:' mapping")
    return {name: _parse_entry(path, name, entry) for name, entry in raw["datasets"].items()}


def get_spec(registry: dict[str, DatasetSpec], name: str) -> DatasetSpec:
    """Look a data set up by name, with a helpful error for unknown names."""
    try:
        return registry[name]
    except KeyError:
        known = ", ".join(sorted(registry))
        raise BoostrankError(
            f"unknown data set '{name}'{did_you_mean(name, registry)}; the registry has: {known}"
        ) from None


def relative_path(value: Any, what: str, *, empty: bool = False) -> str:
    """``value`` if it is a relative path that stays where it is joined (no ``..``, not
    absolute, no backslash or NUL); else :class:`BoostrankError` naming ``what``."""
    text = value if isinstance(value, str) else None
    parts = PurePosixPath(text).parts if text else ()
    bad = (
        text is None
        or (not parts and not empty)
        or PurePosixPath(text).is_absolute()
        or ".." in parts
        or any(c in text for c in "\\\0\n\r")
        or text.startswith("~")
    )
    if bad:
        raise BoostrankError(
            f"{what} is {value!r}; it must be a relative path inside its folder (no '..', no "
            "leading '/' or '~', no backslash): fix the registry"
        )
    return str(text)


def inside(root: Path | str, relative: str, what: str) -> Path:
    """``root/relative``, resolved (symbolic links followed); :class:`BoostrankError` if that
    lies outside ``root`` (itself resolved), e.g. through a symbolic link."""
    base = Path(root).resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base):
        raise BoostrankError(
            f"{what} {Path(root) / relative} leads to {target}, outside {base}; refused, nothing "
            "was cached: put the file itself there instead of a symbolic link"
        )
    return target


def _check_paths(where: str, entry: dict[str, Any]) -> None:
    """Every registry value that becomes part of a path stays inside its folder."""
    relative_path(entry["mirror_folder"], f"{where}: mirror_folder", empty=True)
    for key in ("files", "optional_files"):
        for name in entry.get(key) or {}:
            relative_path(name, f"{where}: {key} key")
    for loader in (entry.get("loader"), (entry.get("embedded") or {}).get("loader")):
        for key in _LOADER_PATHS:
            if isinstance(loader, dict) and isinstance(loader.get(key), str):
                relative_path(loader[key], f"{where}: loader {key}")
    if entry.get("embedded"):
        relative_path(entry["embedded"].get("resource"), f"{where}: embedded resource")
    for item in entry.get("downloads") or ():
        if not isinstance(item, dict) or set(item) - _DOWNLOAD_KEYS or "url" not in item:
            raise BoostrankError(
                f"{where}: each download must be a mapping with 'url' and optionally "
                f"{sorted(_DOWNLOAD_KEYS - {'url'})}, not {item!r}"
            )
        relative_path(item.get("strip_prefix", ""), f"{where}: download strip_prefix", empty=True)
        if item.get("file") is not None:
            relative_path(item["file"], f"{where}: download file")


def _parse_entry(path: Path, name: str, entry: Any) -> DatasetSpec:
    where = f"{path}: data set '{name}'"
    if not isinstance(name, str) or not _NAME.match(name):
        raise BoostrankError(
            f"{path}: data set name {name!r} must be lower-case letters, digits and '_' "
            "(it names folders under data/)"
        )
    if not isinstance(entry, dict):
        raise BoostrankError(f"{where} must be a mapping")
    unknown = set(entry) - _KEYS
    if unknown:
        raise BoostrankError(
            f"{where} has unknown key(s) {sorted(unknown)}; allowed: {sorted(_KEYS)}"
        )
    missing = _REQUIRED - set(entry)
    if missing:
        raise BoostrankError(f"{where} lacks required key(s) {sorted(missing)}")
    if entry["task"] not in _TASKS:
        raise BoostrankError(f"{where}: task must be one of {sorted(_TASKS)}")
    _check_paths(where, entry)
    files = _check_hashes(where, entry.get("files") or {})
    optional = _check_hashes(where, entry.get("optional_files") or {})
    downloads = tuple(Download(**d) for d in entry.get("downloads") or ())
    return DatasetSpec(
        name=name,
        title=entry["title"],
        task=entry["task"],
        citation=entry["citation"],
        mirror_folder=entry["mirror_folder"],
        files=files,
        optional_files=optional,
        homepage=entry.get("homepage", ""),
        downloads=downloads,
        loader=entry.get("loader"),
        published=dict(entry.get("published") or {}),
        embedded=entry.get("embedded"),
        synthetic=entry.get("synthetic"),
    )


def _check_hashes(where: str, files: dict[str, Any]) -> dict[str, str]:
    checked = {}
    for name, digest in files.items():
        digest = str(digest).lower()
        if digest != UNKNOWN and not _HEX64.match(digest):
            raise BoostrankError(
                f"{where}: file '{name}' has sha256 '{digest}'; expected 64 hex digits or 'unknown'"
            )
        checked[str(name)] = digest
    return checked
