"""Tests for boostrank.data.sources: how each source kind fills data/raw/<name>/.

Everything is built in tmp_path (tiny files, hashes computed here) and served, where HTTP is
needed, by the ``http_server`` fixture on 127.0.0.1; nothing touches /work/shared or the network.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import re
import socket
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from boostrank.data.provenance import Provenance
from boostrank.data.registry import DatasetSpec, Download
from boostrank.data.sources import (
    MIRROR_ENV,
    FetchSettings,
    fetch_dataset,
    identity,
    mirror_line,
    mirror_setting,
    rerun_key,
    sources_key,
)
from boostrank.errors import BoostrankError, ChecksumError, SourceUnavailable

TRAIN = b"1 qid:1 1:0.5 2:0.25\n0 qid:1 1:0.1 2:0.75\n"
TEST = b"2 qid:7 1:0.9 2:0.0\n"
EXTRA = b"an optional file\n"
FOLDER = "toy_folder"
SYNTH = {"generator": "letor", "queries": 3, "features": 2}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_spec(**changes: object) -> DatasetSpec:
    """Two required files (one in a sub-folder) and one optional file."""
    spec = DatasetSpec(
        name="toy",
        title="Toy ranking set",
        task="ranking",
        citation="nobody, 2024",
        mirror_folder=FOLDER,
        files={"train.txt": sha(TRAIN), "sub/test.txt": sha(TEST)},
        optional_files={"extra.txt": sha(EXTRA)},
        synthetic=SYNTH,
    )
    return replace(spec, **changes)


def write_mirror(
    root: Path, *, train: bytes = TRAIN, extra: bool = True, test: bool = True
) -> Path:
    """``<root>/toy_folder/``: train.txt plain, sub/test.txt stored as .gz, extra.txt plain."""
    folder = root / FOLDER
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    (folder / "train.txt").write_bytes(train)
    if test:
        (folder / "sub" / "test.txt.gz").write_bytes(gzip.compress(TEST, mtime=0))
    if extra:
        (folder / "extra.txt").write_bytes(EXTRA)
    return root


def leftovers(parent: Path) -> list[str]:
    """Staging folders (dot-names) left beside raw_dir."""
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def part_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.name.endswith(".part"))


def assert_verified(prov: Provenance, names: set[str]) -> None:
    assert set(prov.files) == names
    expected = make_spec().all_files
    for name, entry in prov.files.items():
        assert entry["check"] == "verified", name
        assert entry["sha256"] == expected[name], name


@pytest.fixture
def raw_dir(tmp_path: Path) -> Path:
    return tmp_path / "data" / "raw" / "toy"


@pytest.fixture
def no_env_mirror(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MIRROR_ENV, raising=False)


# --------------------------------------------------------------------------- mirror: directory


@pytest.mark.usefixtures("no_env_mirror")
def test_mirror_directory_fills_raw_dir(tmp_path: Path, raw_dir: Path) -> None:
    mirror = write_mirror(tmp_path / "mirror")
    prov = fetch_dataset(
        make_spec(), raw_dir, FetchSettings(sources=("mirror",), mirror=str(mirror))
    )

    assert prov.kind == "mirror"
    assert prov.location == f"{mirror}/{FOLDER}"
    assert_verified(prov, {"train.txt", "sub/test.txt", "extra.txt"})
    assert (raw_dir / "train.txt").read_bytes() == TRAIN
    assert (raw_dir / "extra.txt").read_bytes() == EXTRA
    # the .gz copy is kept as stored; its payload hash is what was verified
    assert not (raw_dir / "sub" / "test.txt").exists()
    assert gzip.decompress((raw_dir / "sub" / "test.txt.gz").read_bytes()) == TEST
    assert prov.files["sub/test.txt"]["stored_as"].endswith("test.txt.gz")
    assert prov.files["train.txt"]["stored_as"] == "train.txt"
    # provenance sidecar written, staging gone
    assert Provenance.load(raw_dir / "provenance.json").to_dict() == prov.to_dict()
    assert prov.detail["sources_skipped"] == []
    assert leftovers(raw_dir.parent) == []


def test_the_mirror_setting_says_where_it_was_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MIRROR_ENV, raising=False)
    assert mirror_setting(None) == (None, "")
    assert "none (data.mirror is null and $BOOSTRANK_DATA_MIRROR is unset)" in mirror_line(None, "")
    monkeypatch.setenv(MIRROR_ENV, "/from/env")
    assert mirror_setting(None) == ("/from/env", "$BOOSTRANK_DATA_MIRROR")
    # the config beats the environment
    assert mirror_setting("/from/config") == ("/from/config", "data.mirror in the config files")
    assert mirror_line("/m", "$X") == "data mirror: /m (from $X)"
    monkeypatch.setenv(MIRROR_ENV, "")
    assert mirror_setting(None) == (None, "")


def test_the_fetch_command_asks_the_environment_only_without_mirror(
    tmp_path: Path, raw_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``boostrank fetch`` without --mirror reads $BOOSTRANK_DATA_MIRROR; the workflow always
    passes --mirror (empty for none), so a job's environment never decides."""
    import yaml

    from boostrank.cli import main

    registry = tmp_path / "registry.yaml"
    entry = {k: v for k, v in make_spec().__dict__.items() if k != "name" and v}
    registry.write_text(yaml.safe_dump({"datasets": {"toy": entry}}))
    mirror = write_mirror(tmp_path / "env_mirror")
    monkeypatch.setenv(MIRROR_ENV, str(mirror))
    fetch = ["fetch", "toy", "--registry", str(registry), "--raw-dir", str(raw_dir)]
    assert main([*fetch, "--sources", "mirror"]) == 0
    assert Provenance.load(raw_dir / "provenance.json").location == f"{mirror}/{FOLDER}"
    assert main([*fetch, "--sources", "mirror", "--mirror", ""]) == 1  # none: not the env's


# --------------------------------------------------------------------------- mirror: base URL


@pytest.mark.parametrize("slash", ["", "/"])
def test_mirror_base_url_with_gz_fallback(http_server, raw_dir: Path, slash: str) -> None:
    write_mirror(http_server.root)
    settings = FetchSettings(sources=("mirror",), mirror=http_server.url + slash, retries=3)
    prov = fetch_dataset(make_spec(), raw_dir, settings)

    assert prov.kind == "mirror"
    assert prov.location == f"{http_server.url}/{FOLDER}"
    assert_verified(prov, {"train.txt", "sub/test.txt", "extra.txt"})
    assert (raw_dir / "train.txt").read_bytes() == TRAIN
    assert gzip.decompress((raw_dir / "sub" / "test.txt.gz").read_bytes()) == TEST
    assert not (raw_dir / "sub" / "test.txt").exists()
    # the plain name 404s once (no retry), then the .gz is fetched
    gz_requests = [r for r in http_server.requests if r.startswith(f"/{FOLDER}/sub/")]
    assert gz_requests == [f"/{FOLDER}/sub/test.txt", f"/{FOLDER}/sub/test.txt.gz"]
    assert part_files(raw_dir) == []
    assert leftovers(raw_dir.parent) == []


# --------------------------------------------------------------------------- download


def _zip_bytes() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("toy-1.0/", b"")
        zf.writestr("toy-1.0/train.txt", TRAIN)
        zf.writestr("toy-1.0/sub/test.txt", TEST)
        zf.writestr("toy-1.0/README", b"not a registry file\n")
    return buf.getvalue()


def _tar_gz_bytes() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in [
            ("toy-1.0/train.txt", TRAIN),
            ("toy-1.0/sub/test.txt", TEST),
            ("toy-1.0/README", b"not a registry file\n"),
        ]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.parametrize(
    ("archive", "filename", "payload"),
    [("zip", "toy.zip", _zip_bytes), ("tar.gz", "toy.tar.gz", _tar_gz_bytes)],
)
def test_download_archive_and_single_gz(
    http_server, raw_dir: Path, archive: str, filename: str, payload
) -> None:
    (http_server.root / filename).write_bytes(payload())
    (http_server.root / "extra.txt.gz").write_bytes(gzip.compress(EXTRA, mtime=0))
    downloads = (
        Download(f"{http_server.url}/{filename}", archive, strip_prefix="toy-1.0/"),
        Download(f"{http_server.url}/extra.txt.gz", "gz", file="extra.txt"),
    )
    prov = fetch_dataset(
        make_spec(downloads=downloads), raw_dir, FetchSettings(sources=("download",))
    )

    assert prov.kind == "real"
    assert all(d.url in prov.location for d in downloads)
    assert_verified(prov, {"train.txt", "sub/test.txt", "extra.txt"})
    assert (raw_dir / "train.txt").read_bytes() == TRAIN
    assert (raw_dir / "sub" / "test.txt").read_bytes() == TEST
    assert (raw_dir / "extra.txt").read_bytes() == EXTRA
    # only registry files and the sidecar end up in raw_dir: no archive, README or work folder
    kept = sorted(str(p.relative_to(raw_dir)) for p in raw_dir.rglob("*") if p.is_file())
    assert kept == ["extra.txt", "provenance.json", "sub/test.txt", "train.txt"]
    assert leftovers(raw_dir.parent) == []


def test_download_single_file_into_subfolder(http_server, raw_dir: Path) -> None:
    """``archive: none`` with ``file: sub/test.txt`` (as the registry's emotions/scene entries)."""
    (http_server.root / "train.txt").write_bytes(TRAIN)
    (http_server.root / "test.txt").write_bytes(TEST)
    downloads = (
        Download(f"{http_server.url}/train.txt", "none", file="train.txt"),
        Download(f"{http_server.url}/test.txt", "none", file="sub/test.txt"),
    )
    prov = fetch_dataset(
        make_spec(downloads=downloads), raw_dir, FetchSettings(sources=("download",))
    )
    assert prov.kind == "real"
    assert (raw_dir / "sub" / "test.txt").read_bytes() == TEST


def test_download_failed_url_falls_back_to_later_url(http_server, raw_dir: Path) -> None:
    """A later URL yielding the same file is a fallback (as the registry's mnist entry says)."""
    (http_server.root / "train.txt").write_bytes(TRAIN)
    (http_server.root / "test.txt").write_bytes(TEST)
    downloads = (
        Download(f"{http_server.url}/gone/train.txt", "none", file="train.txt"),  # 404
        Download(f"{http_server.url}/train.txt", "none", file="train.txt"),
        Download(f"{http_server.url}/test.txt", "none", file="test.txt"),
    )
    spec = make_spec(downloads=downloads, files={"train.txt": sha(TRAIN), "test.txt": sha(TEST)})
    prov = fetch_dataset(spec, raw_dir, FetchSettings(sources=("download", "synthetic")))
    assert prov.kind == "real", prov.detail.get("sources_skipped")
    assert (raw_dir / "train.txt").read_bytes() == TRAIN


# --------------------------------------------------------------------------- embedded

FAKE_MODULE = "boostrank_test_fake_embedded"
EMBEDDED = b"1,2,positive\n3,4,negative\n"


@pytest.fixture
def fake_embedded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """An importable module shipping data/toy.dat, with dist-info so its version can be read."""
    site = tmp_path / "site"
    pkg = site / FAKE_MODULE
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "data" / "toy.dat").write_bytes(EMBEDDED)
    dist = site / "boostrank_test_fake_embedded_dist-1.2.3.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: boostrank-test-fake-embedded-dist\nVersion: 1.2.3\n"
    )
    monkeypatch.syspath_prepend(str(site))
    yield {
        "package": "boostrank-test-fake-embedded-dist",
        "module": FAKE_MODULE,
        "resource": "data/toy.dat",
        "sha256": sha(EMBEDDED),
        "split": "train",
    }
    sys.modules.pop(FAKE_MODULE, None)


def test_embedded_resource(fake_embedded: dict[str, str], raw_dir: Path) -> None:
    spec = make_spec(embedded=fake_embedded)
    prov = fetch_dataset(spec, raw_dir, FetchSettings(sources=("embedded",)))
    assert prov.kind == "embedded"
    assert (raw_dir / "toy.dat").read_bytes() == EMBEDDED
    assert prov.files == {
        "toy.dat": {"sha256": sha(EMBEDDED), "check": "verified", "stored_as": "toy.dat"}
    }
    assert prov.detail["package"] == "boostrank-test-fake-embedded-dist"
    assert prov.detail["version"] == "1.2.3"
    assert prov.detail["split"] == "train"
    assert "1.2.3" in prov.location and "data/toy.dat" in prov.location


def test_embedded_wrong_hash_raises(fake_embedded: dict[str, str], raw_dir: Path) -> None:
    bad = "0" * 64
    spec = make_spec(embedded={**fake_embedded, "sha256": bad})
    with pytest.raises(ChecksumError) as info:
        fetch_dataset(spec, raw_dir, FetchSettings(sources=("embedded", "synthetic")))
    assert bad in str(info.value) and sha(EMBEDDED) in str(info.value)
    assert not raw_dir.exists()
    assert leftovers(raw_dir.parent) == []


def test_embedded_module_not_installed_is_skipped(raw_dir: Path) -> None:
    emb = {"package": "no-such-dist", "module": "boostrank_no_such_module", "resource": "x.dat"}
    prov = fetch_dataset(
        make_spec(embedded=emb), raw_dir, FetchSettings(sources=("embedded", "synthetic"))
    )
    assert prov.kind == "synthetic"
    assert "embedded: package no-such-dist is not installed" in prov.detail["sources_skipped"][0]


# --------------------------------------------------------------------------- synthetic


@pytest.mark.usefixtures("no_env_mirror")
def test_synthetic_when_no_mirror(raw_dir: Path) -> None:
    settings = FetchSettings(sources=("mirror", "synthetic"))
    prov = fetch_dataset(make_spec(), raw_dir, settings)
    assert prov.kind == "synthetic"  # made at the prepare step, from its seed
    assert prov.files == {}
    assert len(prov.detail["sources_skipped"]) == 1
    assert prov.detail["sources_skipped"][0].startswith("mirror: no mirror configured")
    assert sorted(p.name for p in raw_dir.iterdir()) == ["provenance.json"]
    assert Provenance.load(raw_dir / "provenance.json").to_dict() == prov.to_dict()


@pytest.mark.usefixtures("no_env_mirror")
def test_synthetic_disallowed_lists_each_reason(raw_dir: Path) -> None:
    settings = FetchSettings(sources=("mirror", "download", "synthetic"), allow_synthetic=False)
    with pytest.raises(BoostrankError) as info:
        fetch_dataset(make_spec(), raw_dir, settings)
    message = str(info.value)
    assert not isinstance(info.value, SourceUnavailable)
    assert "no source could provide data set 'toy'" in message
    assert "mirror: no mirror configured" in message
    assert "download: the registry lists no canonical URL" in message
    assert "synthetic: synthetic stand-ins are disabled" in message
    assert not raw_dir.exists()
    assert leftovers(raw_dir.parent) == []


@pytest.mark.usefixtures("no_env_mirror")
def test_strict_refuses_synthetic(tmp_path: Path, raw_dir: Path) -> None:
    with pytest.raises(BoostrankError, match="strict"):
        fetch_dataset(
            make_spec(), raw_dir, FetchSettings(sources=("mirror", "synthetic"), strict=True)
        )
    assert not raw_dir.exists()
    # strict still accepts a real source
    mirror = write_mirror(tmp_path / "mirror")
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(mirror), strict=True)
    assert fetch_dataset(make_spec(), raw_dir, settings).kind == "mirror"


def test_unknown_source_rejected() -> None:
    with pytest.raises(BoostrankError, match="unknown data source"):
        FetchSettings(sources=("mirror", "ftp"))


# --------------------------------------------------------------------------- checksum mismatch


@pytest.mark.parametrize("corrupt", ["plain", "gz"])
def test_checksum_mismatch_caches_nothing(tmp_path: Path, raw_dir: Path, corrupt: str) -> None:
    mirror = write_mirror(tmp_path / "mirror")
    bad = b"tampered\n"
    if corrupt == "plain":
        (mirror / FOLDER / "train.txt").write_bytes(bad)
        name, expected = "train.txt", sha(TRAIN)
    else:
        (mirror / FOLDER / "sub" / "test.txt.gz").write_bytes(gzip.compress(bad, mtime=0))
        name, expected = "sub/test.txt", sha(TEST)
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(mirror))
    with pytest.raises(ChecksumError) as info:
        fetch_dataset(make_spec(), raw_dir, settings)
    message = str(info.value)
    assert f"'{name}'" in message
    assert expected in message and sha(bad) in message
    assert not raw_dir.exists()
    assert leftovers(raw_dir.parent) == []


@pytest.mark.parametrize("damage", ["bit_flip", "truncated"])
def test_a_corrupt_gz_in_the_mirror_is_one_line_naming_the_mirror_file(
    tmp_path: Path, raw_dir: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A flipped bit (CRC error) or a cut-off .gz (EOFError) used to end in a raw traceback
    naming no file; the checksum error named a deleted staging folder."""
    mirror = write_mirror(tmp_path / "mirror")
    gz = mirror / FOLDER / "sub" / "test.txt.gz"
    data = bytearray(gz.read_bytes())
    if damage == "bit_flip":
        data[-6] ^= 0x01  # inside the CRC-32 trailer
    else:
        data = data[: len(data) // 2]
    gz.write_bytes(bytes(data))
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(mirror))
    with pytest.raises(ChecksumError) as info:
        fetch_dataset(make_spec(), raw_dir, settings)
    message = str(info.value)
    assert str(gz) in message and "'sub/test.txt'" in message and "\n" not in message
    assert "not a readable gzip file" in message and "Replace the file" in message
    assert ".part" not in message and f"{raw_dir.name}." not in message  # no staging path
    assert not raw_dir.exists() and leftovers(raw_dir.parent) == []


def test_failed_fetch_keeps_earlier_good_copy(tmp_path: Path, raw_dir: Path) -> None:
    mirror = write_mirror(tmp_path / "mirror")
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(mirror))
    good = fetch_dataset(make_spec(), raw_dir, settings)
    before = {p: p.read_bytes() for p in raw_dir.rglob("*") if p.is_file()}

    (mirror / FOLDER / "train.txt").write_bytes(b"tampered\n")
    with pytest.raises(ChecksumError):
        fetch_dataset(make_spec(), raw_dir, settings)
    assert {p: p.read_bytes() for p in raw_dir.rglob("*") if p.is_file()} == before
    assert Provenance.load(raw_dir / "provenance.json").to_dict() == good.to_dict()
    # a fetch that finds no source at all leaves it alone too
    with pytest.raises(BoostrankError):
        fetch_dataset(make_spec(), raw_dir, replace(settings, sources=("download",)))
    assert {p: p.read_bytes() for p in raw_dir.rglob("*") if p.is_file()} == before
    assert leftovers(raw_dir.parent) == []


# --------------------------------------------------------------------------- offline downloads


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("where", ["unresolvable", "closed_port"])
def test_offline_download_falls_back_fast(
    raw_dir: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.setenv("no_proxy", "*")
    url = (
        "http://boostrank-offline.invalid/x.zip"
        if where == "unresolvable"
        else f"http://127.0.0.1:{_closed_port()}/x.zip"
    )
    spec = make_spec(downloads=(Download(url, "zip", strip_prefix="toy-1.0/"),))
    settings = FetchSettings(sources=("download", "synthetic"), retries=3, timeout=30.0)
    start = time.monotonic()
    prov = fetch_dataset(spec, raw_dir, settings)
    elapsed = time.monotonic() - start
    assert elapsed < 5.0, f"offline fallback took {elapsed:.1f} s"
    assert prov.kind == "synthetic"
    (skipped,) = prov.detail["sources_skipped"]
    assert skipped.startswith("download:") and url in skipped
    assert leftovers(raw_dir.parent) == []


# --------------------------------------------------------------------------- missing files


def test_missing_required_file_moves_on(tmp_path: Path, raw_dir: Path) -> None:
    mirror = write_mirror(tmp_path / "mirror", test=False)
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(mirror))
    prov = fetch_dataset(make_spec(), raw_dir, settings)
    assert prov.kind == "synthetic"
    (skipped,) = prov.detail["sources_skipped"]
    assert skipped.startswith("mirror:") and "lacks 1 required file(s)" in skipped
    assert "sub/test.txt" in skipped
    assert sorted(p.name for p in raw_dir.iterdir()) == ["provenance.json"]
    assert leftovers(raw_dir.parent) == []


def test_missing_mirror_folder_moves_on(tmp_path: Path, raw_dir: Path) -> None:
    (tmp_path / "empty_mirror").mkdir()
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(tmp_path / "empty_mirror"))
    prov = fetch_dataset(make_spec(), raw_dir, settings)
    assert prov.kind == "synthetic"
    assert "mirror has no folder" in prov.detail["sources_skipped"][0]


def test_missing_optional_file_is_skipped(tmp_path: Path, raw_dir: Path) -> None:
    mirror = write_mirror(tmp_path / "mirror", extra=False)
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(mirror))
    prov = fetch_dataset(make_spec(), raw_dir, settings)
    assert prov.kind == "mirror"
    assert_verified(prov, {"train.txt", "sub/test.txt"})
    assert not (raw_dir / "extra.txt").exists()


def test_a_mistyped_or_empty_mirror_stops_at_start_up(tmp_path: Path) -> None:
    """data.mirror: /no/such/dir used to fall back to stand-ins quietly and exit 0."""
    from boostrank.data.sources import check_mirror
    from boostrank.errors import BoostrankError

    with pytest.raises(BoostrankError, match="'/no/such/dir', which is not a directory"):
        check_mirror("/no/such/dir", [FOLDER])
    with pytest.raises(BoostrankError, match="holds none of the registry's folders"):
        check_mirror(str(tmp_path), [FOLDER])
    check_mirror(str(write_mirror(tmp_path / "mirror")), [FOLDER, "other"])  # one is enough
    check_mirror(None, [FOLDER])  # no mirror: fine
    check_mirror("https://example.org/mirror", [FOLDER])  # a URL is checked file by file


def test_a_run_with_stand_ins_names_them(tmp_path: Path, raw_dir: Path) -> None:
    from boostrank.data.inventory import standin_summary

    assert standin_summary(tmp_path / "nothing") == ""
    fetch_dataset(make_spec(), raw_dir, FetchSettings(sources=("synthetic",)))
    text = standin_summary(raw_dir.parent)
    assert "synthetic stand-ins" in text and make_spec().name in text and "data.mirror" in text


# --------------------------------------------------------------------------- real data stay


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.usefixtures("no_env_mirror")
def test_real_data_are_not_replaced_by_a_stand_in(tmp_path: Path, raw_dir: Path) -> None:
    mirror = write_mirror(tmp_path / "mirror")
    with_mirror = FetchSettings(mirror=str(mirror))
    fetch_dataset(make_spec(), raw_dir, with_mirror)
    before = tree_bytes(raw_dir)

    without = FetchSettings()  # no mirror, no URL, no package: only the stand-in is left
    with pytest.raises(BoostrankError) as info:
        fetch_dataset(make_spec(), raw_dir, without)
    message = str(info.value)
    assert "\n" not in message
    assert "data set 'toy' came from a real source (mirror: toy_folder (3 files" in message
    assert f"set data.mirror (or $BOOSTRANK_DATA_MIRROR) to {mirror} again" in message
    assert "--config replace_real=true" in message
    assert tree_bytes(raw_dir) == before and leftovers(raw_dir.parent) == []

    # asked for by name, a stand-in may take its place
    prov = fetch_dataset(make_spec(), raw_dir, replace(without, replace_real=True))
    assert prov.kind == "synthetic" and tree_bytes(raw_dir).keys() == {"provenance.json"}
    # a stand-in gives way to real data as soon as a source has them
    assert fetch_dataset(make_spec(), raw_dir, with_mirror).kind == "mirror"


def test_an_embedded_copy_is_not_replaced_either(
    fake_embedded: dict[str, str], raw_dir: Path
) -> None:
    spec = make_spec(embedded=fake_embedded)
    fetch_dataset(spec, raw_dir, FetchSettings(sources=("embedded", "synthetic")))
    with pytest.raises(BoostrankError, match=r"install boostrank-test-fake-embedded-dist 1\.2\.3"):
        fetch_dataset(make_spec(), raw_dir, FetchSettings(sources=("synthetic",)))


@pytest.mark.usefixtures("no_env_mirror")
def test_the_rerun_key_follows_the_sources_for_a_stand_in_only(
    tmp_path: Path, raw_dir: Path
) -> None:
    """The fetch job's params: its identity and this key. A stand-in is fetched again when a
    real source may now have it (or strict=true refuses it); real data never for where they
    were found: their key is the one their fetch was given, read back from the provenance."""
    mirror = str(write_mirror(tmp_path / "mirror"))
    none, with_mirror = FetchSettings(), FetchSettings(mirror=mirror)
    spec = make_spec()
    assert rerun_key(spec, none, raw_dir) == sources_key(spec, none)  # not fetched yet
    fetch_dataset(spec, raw_dir, none, key=rerun_key(spec, none, raw_dir))  # a stand-in
    assert rerun_key(spec, none, raw_dir) == sources_key(spec, none)
    assert rerun_key(spec, with_mirror, raw_dir) != rerun_key(spec, none, raw_dir)
    assert rerun_key(spec, replace(none, strict=True), raw_dir) != rerun_key(spec, none, raw_dir)

    # a mirror that lacks the data set is no reason to fetch its stand-in again, even where it
    # has the data set's folder (one folder may hold several data sets, as MULAN's does)
    lacking = replace(none, mirror=str(tmp_path))
    assert rerun_key(spec, lacking, raw_dir) == rerun_key(spec, none, raw_dir)
    shared = tmp_path / "shared"
    (shared / FOLDER).mkdir(parents=True)
    (shared / FOLDER / "another_data_set.arff").write_text("@relation other\n")
    folder_only = replace(none, mirror=str(shared))
    assert rerun_key(spec, folder_only, raw_dir) == rerun_key(spec, none, raw_dir)

    given = rerun_key(spec, with_mirror, raw_dir)
    fetch_dataset(spec, raw_dir, with_mirror, key=given)  # real data now
    for later in (none, replace(with_mirror, mirror=mirror + "/"), replace(none, strict=True)):
        assert rerun_key(spec, later, raw_dir) == given
    moved = replace(spec, mirror_folder="elsewhere", downloads=(Download("http://x/y"),))
    assert rerun_key(moved, none, raw_dir) == given


def test_identity_is_the_files_hashes_not_where_they_are() -> None:
    spec = make_spec()
    assert identity(replace(spec, mirror_folder="moved", homepage="h")) == identity(spec)
    assert identity(replace(spec, downloads=(Download("http://x/toy.zip", "zip"),))) == identity(
        spec
    )
    assert identity(replace(spec, files={**spec.files, "train.txt": sha(b"v2")})) != identity(spec)
    assert identity(replace(spec, optional_files={})) != identity(spec)


# --------------------------------------------------------------------------- pinned on first use


def test_a_file_without_a_trusted_hash_is_pinned_by_its_first_download(
    http_server, tmp_path: Path
) -> None:
    """First download: recorded in the lock file; a changed file later (here or on a machine
    that has the lock file) stops with both hashes, caching nothing; deleting the pin accepts it."""
    from boostrank.data.pins import PINNED, load_pins

    (http_server.root / "train.txt").write_bytes(TRAIN)
    (http_server.root / "test.txt").write_bytes(TEST)
    downloads = (
        Download(f"{http_server.url}/train.txt", "none", file="train.txt"),
        Download(f"{http_server.url}/test.txt", "none", file="test.txt"),
    )
    spec = make_spec(
        downloads=downloads,
        files={"train.txt": "unknown", "test.txt": sha(TEST)},
        optional_files={},
    )
    lock = tmp_path / "registry.lock"
    settings = FetchSettings(sources=("download",), lock=lock)
    first = fetch_dataset(spec, tmp_path / "raw" / "toy", settings)
    assert first.files["train.txt"]["check"] == PINNED
    assert first.files["test.txt"]["check"] == "verified"
    assert "1/2 sha256 verified, 1 pinned on first use)" in first.describe()
    assert load_pins(lock) == {"toy": {"train.txt": sha(TRAIN)}}  # the trusted one is not pinned

    again = fetch_dataset(spec, tmp_path / "raw2" / "toy", settings)  # same bytes: accepted
    assert again.files["train.txt"]["sha256"] == sha(TRAIN)

    changed = TRAIN + b"0 qid:2 1:0.3 2:0.3\n"
    (http_server.root / "train.txt").write_bytes(changed)
    with pytest.raises(ChecksumError) as error:
        fetch_dataset(spec, tmp_path / "raw" / "toy", settings)
    message = str(error.value)
    assert "\n" not in message and "'train.txt' of data set 'toy'" in message
    assert sha(changed) in message and sha(TRAIN) in message and str(lock) in message
    assert (tmp_path / "raw" / "toy" / "train.txt").read_bytes() == TRAIN  # nothing cached
    assert load_pins(lock) == {"toy": {"train.txt": sha(TRAIN)}}

    lock.write_text("toy: {}\n")  # the user deletes the pin's line: the new file is accepted
    fetch_dataset(spec, tmp_path / "raw" / "toy", settings)
    assert load_pins(lock) == {"toy": {"train.txt": sha(changed)}}


def test_pins_from_fetches_side_by_side_are_all_kept(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from boostrank.data.pins import load_pins, pin

    lock = tmp_path / "registry.lock"
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda i: pin(lock, f"set{i}", {"a.txt": f"{i:064x}"}), range(32)))
    assert load_pins(lock) == {f"set{i}": {"a.txt": f"{i:064x}"} for i in range(32)}
    pin(lock, "set0", {"a.txt": "f" * 64})  # an existing pin is never overwritten
    assert load_pins(lock)["set0"] == {"a.txt": f"{0:064x}"}


def test_a_damaged_lock_file_is_one_error_naming_it(tmp_path: Path) -> None:
    from boostrank.data.pins import load_pins

    lock = tmp_path / "registry.lock"
    lock.write_text("toy: [a, b]\n")
    with pytest.raises(BoostrankError, match=re.escape("registry.lock: expected 'data set: {")):
        load_pins(lock)


# ----------------------------------------------------------------- paths stay inside the project


def _unpinned_csv_spec() -> DatasetSpec:
    """A data set with a loader and no trusted hash (as isolet): pinned on first use."""
    return make_spec(
        task="classification",
        files={"toy.data": "unknown"},
        optional_files={},
        loader={"format": "uci_csv", "file": "toy.data"},
        published={"rows": 2, "features": 1, "classes": 2},
    )


def test_a_symlink_out_of_the_mirror_is_refused_in_one_line(tmp_path: Path, raw_dir: Path) -> None:
    """The mirror's toy.data is a link to a file outside it (as to /etc/passwd): the fetch stops
    naming it; nothing is cached or pinned."""
    outside = tmp_path / "secret.txt"
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n")
    (tmp_path / "mirror" / FOLDER).mkdir(parents=True)
    (tmp_path / "mirror" / FOLDER / "toy.data").symlink_to(outside)
    lock = tmp_path / "registry.lock"
    settings = FetchSettings(sources=("mirror", "synthetic"), mirror=str(tmp_path / "mirror"),
                             lock=lock)  # fmt: skip
    with pytest.raises(BoostrankError) as error:
        fetch_dataset(_unpinned_csv_spec(), raw_dir, settings)
    message = str(error.value)
    assert "\n" not in message and f"{FOLDER}/toy.data" in message
    assert "outside" in message and "symbolic link" in message
    assert not raw_dir.exists() and not lock.exists() and leftovers(raw_dir.parent) == []


def test_a_link_inside_the_mirror_is_followed(tmp_path: Path, raw_dir: Path) -> None:
    write_mirror(tmp_path / "mirror")
    folder = tmp_path / "mirror" / FOLDER
    (folder / "train.txt").rename(folder / "real-train.txt")
    (folder / "train.txt").symlink_to(folder / "real-train.txt")
    prov = fetch_dataset(make_spec(), raw_dir, FetchSettings(mirror=str(tmp_path / "mirror")))
    assert prov.kind == "mirror" and (raw_dir / "train.txt").read_bytes() == TRAIN


def test_a_file_key_that_leaves_the_folder_writes_nothing_outside(tmp_path: Path) -> None:
    """A spec built without the registry's checks (a registry given with --config registry=...
    is checked on load): the fetch still refuses to write outside its staging folder."""
    project = tmp_path / "project"
    mirror = tmp_path / "mirror" / FOLDER
    (mirror / "sub").mkdir(parents=True)
    (mirror / "sub" / "evil.data").write_text("x\n")
    spec = make_spec(files={"sub/../../../../probe-escape/evil.data": "unknown"}, optional_files={})
    settings = FetchSettings(sources=("mirror",), mirror=str(tmp_path / "mirror"),
                             lock=project / "data" / "registry.lock")  # fmt: skip
    with pytest.raises(BoostrankError, match="outside"):
        fetch_dataset(spec, project / "data" / "raw" / "toy", settings)
    assert not (tmp_path / "probe-escape").exists() and not (project / "probe-escape").exists()
    assert not (project / "data" / "registry.lock").exists()


def test_nothing_is_pinned_until_the_file_has_parsed(tmp_path: Path, raw_dir: Path) -> None:
    """A file with no trusted hash that the prepare step cannot parse is never pinned; one
    that parses is pinned by the prepare step."""
    from boostrank.data.pins import load_pins
    from boostrank.data.prepare import prepare_dataset

    mirror = tmp_path / "mirror" / FOLDER
    mirror.mkdir(parents=True)
    lock = tmp_path / "registry.lock"
    settings = FetchSettings(sources=("mirror",), mirror=str(tmp_path / "mirror"), lock=lock)
    spec = _unpinned_csv_spec()
    npz, meta = tmp_path / "p.npz", tmp_path / "p.json"
    (mirror / "toy.data").write_text("root:x:0:0\n")  # not the data set
    fetch_dataset(spec, raw_dir, settings)
    assert not lock.exists()  # fetched, not yet parsed
    with pytest.raises(BoostrankError):
        prepare_dataset(spec, raw_dir, npz, meta, seed=1)
    assert not lock.exists()
    (mirror / "toy.data").write_text("1,a\n2,b\n")
    fetch_dataset(spec, raw_dir, settings)
    assert not lock.exists()
    prepare_dataset(spec, raw_dir, npz, meta, seed=1)
    assert load_pins(lock) == {"toy": {"toy.data": sha(b"1,a\n2,b\n")}}
