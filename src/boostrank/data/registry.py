"""The data registry (``config/datasets.yaml``): one entry per data set any source paper uses.

See ``config/REGISTRY_SCHEMA.md`` for the keys. Hashes are sha256 of the *uncompressed* file bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
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
        raise BoostrankError(f"data registry {path} is not valid YAML: {exc}") from None
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


def _parse_entry(path: Path, name: str, entry: Any) -> DatasetSpec:
    where = f"{path}: data set '{name}'"
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
