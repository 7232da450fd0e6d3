"""Hashes pinned on first use: for a file the registry has no trusted sha256 for (the .Gov sets,
Isolet, Protein), the first fetch that succeeds records its sha256 in a lock file
(``data.registry_lock``, ``data/registry.lock`` by default) that a user can commit; every later
fetch, here or on another machine with that file, must give the same bytes.

The lock file is YAML, data set -> file -> sha256, written whole (atomically) under an
advisory lock, so fetch jobs running side by side each add their own pins.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator, Mapping
from pathlib import Path

from boostrank.errors import BoostrankError, ChecksumError

PINNED = "pinned on first use"
_HEADER = (
    "# sha256 of each data file the registry (config/datasets.yaml) has no trusted hash for,\n"
    "# recorded by its first successful fetch; every later fetch must match. Commit this file\n"
    "# to hold other machines to the same bytes; delete a line to accept a new file.\n"
)


def load_pins(path: Path | str) -> dict[str, dict[str, str]]:
    """The pins of the lock file at ``path`` (none when it does not exist)."""
    import yaml

    path = Path(path)
    if not path.is_file():
        return {}
    try:
        pins = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise BoostrankError(f"{path}: not valid YAML ({exc}); fix or delete the file") from None
    ok = isinstance(pins, dict) and all(
        isinstance(files, dict) and all(isinstance(h, str) for h in files.values())
        for files in pins.values()
    )
    if not ok:
        raise BoostrankError(
            f"{path}: expected 'data set: {{file: sha256}}' entries; fix or delete the file"
        )
    return pins


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".flock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pin(path: Path | str, dataset: str, hashes: Mapping[str, str]) -> None:
    """Record ``hashes`` (file -> sha256) of ``dataset`` where no pin exists yet; an existing
    pin is never overwritten (:func:`check_pin` refuses a different file before this runs)."""
    import yaml

    from boostrank.io import write_text

    path = Path(path)
    with _locked(path):
        pins = load_pins(path)
        files = pins.setdefault(dataset, {})
        new = {name: digest for name, digest in hashes.items() if name not in files}
        if not new:
            return
        files.update(new)
        ordered = {d: dict(sorted(f.items())) for d, f in sorted(pins.items())}
        write_text(path, _HEADER + yaml.safe_dump(ordered, sort_keys=False))


def check_pin(path: Path | str | None, dataset: str, name: str, actual: str, origin: str) -> None:
    """Stop, naming the file and both hashes, when ``name`` of ``dataset`` has a pin in the lock
    file at ``path`` and ``actual`` is not it."""
    if path is None:
        return
    pinned = load_pins(path).get(dataset, {}).get(name)
    if pinned is not None and pinned != actual:
        raise ChecksumError(
            f"'{name}' of data set '{dataset}' ({origin}) has sha256 {actual}, but {path} pinned "
            f"{pinned} on its first fetch: the file changed; nothing was cached. Fetch the "
            f"pinned file, or delete its line from {path} to accept this one."
        )


__all__ = ["PINNED", "check_pin", "load_pins", "pin"]
