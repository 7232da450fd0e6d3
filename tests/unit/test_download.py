"""Tests for boostrank.data.download: archive extraction and HTTP fetching (local server only)."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import struct
import tarfile
import time
import zipfile
import zlib
from pathlib import Path

import pytest
from unrar.cffi.rarfile import RarFile

from boostrank.data import download as D
from boostrank.errors import SourceUnavailable

MEMBERS = {
    "a.txt": b"alpha\n",
    "data/b.csv": b"1,2,3\r\n4,5,6\r\n",
    "data/deep/c.bin": bytes(range(256)),
}


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative posix path -> bytes)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


# --------------------------------------------------------------------------- archive builders


def make_zip(path: Path, members: dict[str, bytes], *, dirs: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in dirs:
            zf.writestr(name, b"")
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def make_tar(path: Path, members: dict[str, bytes], mode: str = "w") -> Path:
    with tarfile.open(path, mode) as tf:
        folder = tarfile.TarInfo("data")
        folder.type = tarfile.DIRTYPE
        tf.addfile(folder)
        link = tarfile.TarInfo("link-to-a")
        link.type, link.linkname = tarfile.SYMTYPE, "a.txt"
        tf.addfile(link)
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 0
            tf.addfile(info, io.BytesIO(data))
    return path


def _rar_block(head_type: int, flags: int, body: bytes, data: bytes = b"") -> bytes:
    """A RAR 1.5-4.x block: HEAD_CRC is the low 16 bits of the CRC32 of HEAD_TYPE..end of header."""
    header = struct.pack("<BHH", head_type, flags, 7 + len(body)) + body
    return struct.pack("<H", zlib.crc32(header) & 0xFFFF) + header + data


def make_rar(path: Path, members: dict[str, bytes]) -> Path:
    """A RAR 4 archive with every member *stored* (method 0x30), as the RAR 2.x-4.x technote."""
    out = b"Rar!\x1a\x07\x00"  # marker block
    out += _rar_block(0x73, 0x0000, b"\x00" * 6)  # archive header: RESERVED1 (2) + RESERVED2 (4)
    dos_time = (44 << 25) | (1 << 21) | (1 << 16)  # 2024-01-01 00:00:00
    for name, data in members.items():
        raw_name = name.replace("/", "\\").encode("ascii")
        body = struct.pack(
            "<IIBIIBBHI",
            len(data),  # PACK_SIZE
            len(data),  # UNP_SIZE
            2,  # HOST_OS: Win32
            zlib.crc32(data),  # FILE_CRC
            dos_time,  # FTIME
            29,  # UNP_VER
            0x30,  # METHOD: store
            len(raw_name),  # NAME_SIZE
            0x20,  # ATTR: archive
        )
        out += _rar_block(0x74, 0x8000, body + raw_name, data)  # 0x8000: data follows the header
    out += _rar_block(0x7B, 0x4000, b"")  # end of archive
    path.write_bytes(out)
    return path


# --------------------------------------------------------------------------- extract


@pytest.mark.parametrize("kind", ["zip", "tar", "tar.gz"])
def test_extract_multi_member_archives(tmp_path: Path, kind: str) -> None:
    if kind == "zip":
        archive = make_zip(tmp_path / "x.zip", MEMBERS, dirs=("data/", "empty/"))
    else:
        archive = make_tar(tmp_path / "x.tar", MEMBERS, "w" if kind == "tar" else "w:gz")
    out = tmp_path / "out"
    written = D.extract(archive, kind, out)
    assert tree(out) == MEMBERS
    assert sorted(written) == sorted(out / name for name in MEMBERS)


@pytest.mark.parametrize(
    ("kind", "compress"),
    [("none", lambda b: b), ("gz", lambda b: gzip.compress(b, mtime=0)), ("bz2", bz2.compress)],
)
def test_extract_single_payload(tmp_path: Path, kind: str, compress) -> None:
    payload = MEMBERS["data/deep/c.bin"] * 3
    archive = tmp_path / "payload.bin"
    archive.write_bytes(compress(payload))
    out = tmp_path / "out"
    assert D.extract(archive, kind, out, member="c.bin") == [out / "c.bin"]
    assert tree(out) == {"c.bin": payload}


def test_extract_single_payload_into_subfolder(tmp_path: Path) -> None:
    """Registry names may have folders (``file: emotions/emotions.arff`` with ``archive: none``)."""
    archive = tmp_path / "payload.gz"
    archive.write_bytes(gzip.compress(b"@relation x\n", mtime=0))
    out = tmp_path / "out"
    D.extract(archive, "gz", out, member="emotions/emotions.arff")
    assert tree(out) == {"emotions/emotions.arff": b"@relation x\n"}


def test_extract_single_payload_needs_member(tmp_path: Path) -> None:
    archive = tmp_path / "p"
    archive.write_bytes(b"x")
    with pytest.raises(ValueError, match="needs the registry file name"):
        D.extract(archive, "none", tmp_path / "out")
    with pytest.raises(ValueError, match="unknown archive type"):
        D.extract(archive, "7z", tmp_path / "out", member="p")


@pytest.mark.parametrize("kind", ["zip", "tar"])
@pytest.mark.parametrize("bad", ["../escaped.txt", "data/../../escaped.txt", "{abs}"])
def test_extract_rejects_unsafe_member(tmp_path: Path, kind: str, bad: str) -> None:
    box = tmp_path / "box"
    box.mkdir()
    bad = bad.format(abs=tmp_path / "abs-escaped.txt")
    members = {"ok.txt": b"fine\n", bad: b"evil\n"}
    if kind == "zip":
        archive = make_zip(box / "evil.zip", members)
    else:
        archive = make_tar(box / "evil.tar", members)
    before = sorted(tmp_path.rglob("*"))
    out = box / "out"
    with pytest.raises(ValueError, match="outside"):
        D.extract(archive, kind, out)
    assert not (tmp_path / "abs-escaped.txt").exists()
    assert not (tmp_path / "escaped.txt").exists() and not (box / "escaped.txt").exists()
    created = [p for p in sorted(tmp_path.rglob("*")) if p not in before]
    assert all(p == out or out in p.parents for p in created), created


@pytest.mark.parametrize("kind", ["none", "gz"])
@pytest.mark.parametrize("member", ["../escaped.txt", "{abs}"])
def test_extract_single_payload_rejects_unsafe_member(
    tmp_path: Path, kind: str, member: str
) -> None:
    member = member.format(abs=tmp_path / "abs-escaped.txt")
    archive = tmp_path / "p"
    archive.write_bytes(gzip.compress(b"x") if kind == "gz" else b"x")
    with pytest.raises(ValueError, match="outside"):
        D.extract(archive, kind, tmp_path / "out", member=member)
    assert not (tmp_path / "escaped.txt").exists()
    assert not (tmp_path / "abs-escaped.txt").exists()


def test_handmade_rar_opens_with_unrar(tmp_path: Path) -> None:
    archive = make_rar(tmp_path / "x.rar", MEMBERS)
    rar = RarFile(str(archive))
    assert rar.namelist() == list(MEMBERS)
    for name, data in MEMBERS.items():
        assert rar.read(name) == data


def test_extract_rar(tmp_path: Path) -> None:
    archive = make_rar(tmp_path / "x.rar", MEMBERS)
    out = tmp_path / "out"
    written = D.extract(archive, "rar", out)
    assert tree(out) == MEMBERS
    assert sorted(written) == sorted(out / name for name in MEMBERS)


# --------------------------------------------------------------------------- fetch_url


def test_fetch_url_exact_bytes(http_server, tmp_path: Path) -> None:
    payload = bytes(range(256)) * 1000
    (http_server.root / "blob.bin").write_bytes(payload)
    dest = tmp_path / "dl" / "nested" / "blob.bin"
    assert D.fetch_url(f"{http_server.url}/blob.bin", dest, retries=1) == dest
    assert dest.read_bytes() == payload
    assert sorted(p.name for p in dest.parent.iterdir()) == ["blob.bin"]


def test_fetch_url_404_is_not_retried(http_server, tmp_path: Path, monkeypatch) -> None:
    sleeps: list[float] = []
    monkeypatch.setattr(time, "sleep", sleeps.append)
    dest = tmp_path / "dl" / "missing.bin"
    start = time.monotonic()
    with pytest.raises(SourceUnavailable, match="404"):
        D.fetch_url(f"{http_server.url}/missing.bin", dest, retries=3)
    assert time.monotonic() - start < 2.0
    assert http_server.requests == ["/missing.bin"]
    assert sleeps == []
    assert not dest.exists()
    assert not dest.parent.exists() or list(dest.parent.iterdir()) == []


def test_fetch_url_retries_server_error(http_server, tmp_path: Path, monkeypatch) -> None:
    sleeps: list[float] = []
    monkeypatch.setattr(time, "sleep", sleeps.append)
    (http_server.root / "flaky.txt").write_bytes(b"finally\n")
    http_server.failures["/flaky.txt"] = [500]
    dest = tmp_path / "flaky.txt"
    D.fetch_url(f"{http_server.url}/flaky.txt", dest, retries=2)
    assert dest.read_bytes() == b"finally\n"
    assert http_server.requests == ["/flaky.txt", "/flaky.txt"]
    assert len(sleeps) == 1
    assert list(tmp_path.glob("*.part")) == []


def test_fetch_url_gives_up_after_retries(http_server, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(time, "sleep", lambda _s: None)
    (http_server.root / "down.txt").write_bytes(b"never served\n")
    http_server.failures["/down.txt"] = [503, 503, 503]
    dest = tmp_path / "out" / "down.txt"
    with pytest.raises(SourceUnavailable, match="503"):
        D.fetch_url(f"{http_server.url}/down.txt", dest, retries=3)
    assert http_server.requests == ["/down.txt"] * 3
    assert not dest.exists()
    assert not dest.parent.exists() or list(dest.parent.iterdir()) == []


def test_fetch_url_truncated_body_leaves_nothing(http_server, tmp_path: Path, monkeypatch) -> None:
    """A download that dies mid-body leaves neither dest nor a ``*.part`` file behind."""
    monkeypatch.setattr(time, "sleep", lambda _s: None)
    dest = tmp_path / "out" / "big.bin"
    dest.parent.mkdir()

    class Broken(io.BytesIO):
        headers: dict[str, str] = {"Content-Length": "100"}  # noqa: RUF012

        def read(self, *_args: object) -> bytes:
            raise ConnectionAbortedError("connection dropped mid-body")

    monkeypatch.setattr(D.urllib.request, "urlopen", lambda *_a, **_k: Broken())
    with pytest.raises(SourceUnavailable, match="dropped"):
        D.fetch_url("http://127.0.0.1:9/big.bin", dest, retries=2)
    assert list(dest.parent.iterdir()) == []


def test_fetch_url_missing_local_file_is_not_retried(tmp_path: Path, monkeypatch) -> None:
    """A ``file://`` mirror (accepted by sources._from_mirror) that lacks a name fails at once."""
    sleeps: list[float] = []
    monkeypatch.setattr(time, "sleep", sleeps.append)
    with pytest.raises(SourceUnavailable):
        D.fetch_url((tmp_path / "absent.txt").as_uri(), tmp_path / "out.txt", retries=3)
    assert sleeps == []


# --------------------------------------------------------------------------- hashing


def test_sha256_payload_of_gz_hashes_uncompressed_bytes(tmp_path: Path) -> None:
    payload = b"some payload\n" * 100
    gz = tmp_path / "x.txt.gz"
    gz.write_bytes(gzip.compress(payload, mtime=0))
    plain = tmp_path / "x.txt"
    plain.write_bytes(payload)
    expected = hashlib.sha256(payload).hexdigest()
    assert D.sha256_payload(gz) == expected
    assert D.sha256_payload(plain) == expected
    assert D.sha256_file(gz) == hashlib.sha256(gz.read_bytes()).hexdigest() != expected
