"""Atomic file output: readers never see a half-written file; a failure leaves nothing behind.

Every file written under the workflow's ``results/`` (the tables the claims and the report read)
or ``figures/tables/`` (the printed tables) also gets a fingerprint beside it
(``.<name>.fingerprint``: size and sha256, with the file's own permissions), so a run can tell a
file the pipeline wrote from one edited by hand (:func:`edit_reason`). What the check promises:
a file whose bytes differ from what the pipeline last wrote there, or that has no readable
fingerprint, is edited; its size and times are never trusted (``touch -r`` does not hide an
edit), and every file is hashed on each check (the results files are small, so hashing them
all is cheap). Reading is all a check does: moving a file aside is the
caller's step (:func:`set_aside`; ``boostrank.workflow.hand_edits`` does it when a real run
holds Snakemake's lock).
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

RESULTS = "results"  # the workflow's results folder, relative to its working directory
# The folders whose files get fingerprints: the results and the printed tables.
FINGERPRINTED = (RESULTS, "figures/tables")
EDITED_SUFFIX = ".edited"  # a file edited by hand, kept aside under its name and this suffix


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
        if any(path.resolve().is_relative_to(Path.cwd() / root) for root in FINGERPRINTED):
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
    """Write ``path``'s fingerprint atomically, with ``path``'s own permissions (whoever may read
    the file may read its fingerprint: other users' runs check it too)."""
    record = {"size": path.stat().st_size, "sha256": sha256_file(path)}
    fingerprint = _fingerprint_path(path)
    # A temporary name of its own: two processes may refresh the same fingerprint at once.
    fd, tmp = tempfile.mkstemp(prefix=f"{fingerprint.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), stat.S_IMODE(path.stat().st_mode))
            handle.write(json.dumps(record))
        os.replace(tmp, fingerprint)
    finally:
        Path(tmp).unlink(missing_ok=True)


def output_files(root: Path | str, skip: tuple[str, ...] = ()) -> list[Path]:
    """The files under ``root`` that a run may have written, leaving out its top-level folders
    named in ``skip``: not the hidden ones (fingerprints, temporary files) nor those kept aside
    as ``<name>.edited`` (one walk, pruned)."""
    return sorted(
        Path(folder, n)
        for folder, names in _walk(root, skip)
        for n in names
        if not n.startswith(".") and not n.endswith(EDITED_SUFFIX)
    )


def _walk(root: Path | str, skip: tuple[str, ...]) -> Iterator[tuple[str, list[str]]]:
    """(folder, file names) of every folder under ``root``, its top-level ``skip`` pruned."""
    root = Path(root)
    for folder, subfolders, names in os.walk(root):
        if Path(folder) == root:
            subfolders[:] = [d for d in subfolders if d not in skip]
        yield folder, names


def edit_reason(path: Path | str) -> str | None:
    """Why ``path`` is not what the pipeline wrote (one phrase), or None when it is.

    A missing or unreadable fingerprint beside an existing file counts as an edit: deleting the
    fingerprint must not switch the check off. The content is hashed every time.
    """
    path = Path(path)
    try:
        record = json.loads(_fingerprint_path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "it has no fingerprint"
    except (OSError, ValueError):
        return "its fingerprint cannot be read"
    if not isinstance(record, dict):
        return "its fingerprint cannot be read"
    try:
        if path.stat().st_size != record.get("size") or sha256_file(path) != record.get("sha256"):
            return "its content is not what the pipeline wrote"
    except OSError:
        return "it cannot be read"
    return None


def edited_files(root: Path | str, skip: tuple[str, ...] = ()) -> list[Path]:
    """Files under ``root`` (but not in its top-level folders ``skip``) whose content is no
    longer what the pipeline wrote, or that have no fingerprint (:func:`edit_reason`). Reads
    only: nothing is written, moved or refreshed."""
    return [path for path in output_files(root, skip) if edit_reason(path)]


def owed_files(root: Path | str, skip: tuple[str, ...] = ()) -> list[Path]:
    """Files under ``root`` kept aside as ``<name>.edited`` and not made again since."""
    owed = (
        Path(folder, n[: -len(EDITED_SUFFIX)])
        for folder, names in _walk(root, skip)
        for n in names
        if n.endswith(EDITED_SUFFIX) and not n.startswith(".")
    )
    return sorted(path for path in owed if not path.exists())


def set_aside(path: Path | str) -> Path:
    """Move an edited ``path`` to ``<name>.edited`` (replacing an older one) and drop its
    fingerprint; the kept file's path. Only a run that will make ``path`` again calls this."""
    path = Path(path)
    kept = path.with_name(path.name + EDITED_SUFFIX)
    os.replace(path, kept)
    _fingerprint_path(path).unlink(missing_ok=True)
    return kept
