"""HTTP(S) download with a timeout and retries, and archive extraction (zip, tar, gz, bz2, rar).

Downloads go to a temporary file that is renamed into place only when complete. Errors that mean
"there is no network" (name resolution, connection refused, unreachable) are not retried, so an
offline machine falls through to the next data source in well under a second.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import logging
import shutil
import socket
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from boostrank.errors import SourceUnavailable, UnreadableGzip
from boostrank.io import atomic_path, sha256_file

log = logging.getLogger(__name__)
_CHUNK = 1 << 20
ARCHIVES = ("none", "gz", "bz2", "zip", "tar", "tar.gz", "rar")


def sha256_payload(path: Path) -> str:
    """sha256 of the uncompressed bytes: a ``.gz`` file is hashed after gunzip."""
    if path.suffix != ".gz":
        return sha256_file(path)
    digest = hashlib.sha256()
    try:
        with gzip.open(path, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except (OSError, EOFError, zlib.error) as exc:  # a flipped bit, a truncated file
        raise UnreadableGzip(path, str(exc) or type(exc).__name__) from None
    return digest.hexdigest()


def _permanent(exc: BaseException) -> bool:
    """Errors a retry cannot mend: no network, a missing file, a client error."""
    if isinstance(exc, urllib.error.HTTPError):
        return exc.code < 500
    reason = getattr(exc, "reason", exc)
    permanent = (socket.gaierror, ConnectionRefusedError, ConnectionResetError, FileNotFoundError)
    return isinstance(reason, permanent) or "unreachable" in str(reason).lower()


def fetch_url(url: str, dest: Path, *, timeout: float = 30.0, retries: int = 3) -> Path:
    """Download ``url`` to ``dest`` atomically; raise :class:`SourceUnavailable` on failure."""
    last: BaseException | None = None
    for attempt in range(1, retries + 1):
        try:
            with (
                urllib.request.urlopen(url, timeout=timeout) as response,
                atomic_path(dest) as tmp,
            ):
                total = int(response.headers.get("Content-Length") or 0)
                done, next_report = 0, time.monotonic() + 5
                with open(tmp, "wb") as out:
                    while chunk := response.read(_CHUNK):
                        out.write(chunk)
                        done += len(chunk)
                        if time.monotonic() > next_report:
                            pct = f" ({100 * done / total:.0f}%)" if total else ""
                            log.info("  %s: %.1f MB%s", url, done / 1e6, pct)
                            next_report += 5
            return dest
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            last = exc
            if _permanent(exc):
                break
            if attempt < retries:
                time.sleep(min(2**attempt, 10))
    raise SourceUnavailable(f"download of {url} failed: {last}")


def extract(archive: Path, kind: str, out_dir: Path, *, member: str | None = None) -> list[Path]:
    """Unpack ``archive`` of type ``kind`` into ``out_dir``; return the files written.

    For ``none``/``gz``/``bz2`` the single payload is written as ``out_dir/member``.
    """
    if kind not in ARCHIVES:
        raise ValueError(f"unknown archive type {kind!r}; expected one of {ARCHIVES}")
    out_dir.mkdir(parents=True, exist_ok=True)
    if kind in ("none", "gz", "bz2"):
        if not member:
            raise ValueError(f"archive type {kind!r} needs the registry file name it yields")
        target = _safe_target(out_dir, member)
        target.parent.mkdir(parents=True, exist_ok=True)
        with _open_compressed(archive, kind) as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, _CHUNK)
        return [target]
    if kind == "zip":
        with zipfile.ZipFile(archive) as zf:
            return _write_members(
                out_dir, ((i.filename, zf.open(i)) for i in zf.infolist() if not i.is_dir())
            )
    if kind in ("tar", "tar.gz"):
        with tarfile.open(archive, "r:*") as tf:
            members = ((m.name, tf.extractfile(m)) for m in tf.getmembers() if m.isfile())
            return _write_members(out_dir, members)
    return _extract_rar(archive, out_dir)


def _open_compressed(archive: Path, kind: str) -> io.BufferedIOBase:
    """``archive`` opened for reading its bytes, decompressed if ``kind`` is gz or bz2."""
    if kind == "gz":
        return gzip.open(archive, "rb")
    if kind == "bz2":
        return bz2.open(archive, "rb")
    return open(archive, "rb")


def _extract_rar(archive: Path, out_dir: Path) -> list[Path]:
    # unrar2-cffi bundles the UnRAR library: no external tool and no network needed.
    from unrar.cffi.rarfile import RarFile

    rar = RarFile(str(archive))
    names = [info.filename for info in rar.infolist() if not info.is_dir()]
    return _write_members(out_dir, ((n, rar.open(n)) for n in names))


def _write_members(out_dir: Path, members) -> list[Path]:  # type: ignore[no-untyped-def]
    written = []
    for name, handle in members:
        target = _safe_target(out_dir, name.replace("\\", "/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        with handle as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, _CHUNK)
        written.append(target)
    return written


def _safe_target(out_dir: Path, name: str) -> Path:
    rel = PurePosixPath(name)
    if rel.is_absolute() or ".." in rel.parts:
        raise ValueError(f"archive member {name!r} would be written outside {out_dir}")
    return out_dir.joinpath(*rel.parts)
