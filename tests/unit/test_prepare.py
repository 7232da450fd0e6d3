"""The prepare step: raw files or a stand-in -> processed .npz + sidecar, integrity checks."""

import gzip

import numpy as np
import pytest

from boostrank.data.prepare import prepare_dataset
from boostrank.data.provenance import Provenance
from boostrank.data.registry import DatasetSpec
from boostrank.errors import BoostrankError


def _spec(name, task, **kw):
    return DatasetSpec(
        name=name, title=name, task=task, citation="c", mirror_folder=name, files={}, **kw
    )


def _raw(tmp_path, kind="mirror", **detail):
    raw = tmp_path / "raw"
    raw.mkdir(exist_ok=True)
    Provenance("x", kind, "here", {}, detail).save(raw / "provenance.json")
    return raw


def _prepare(spec, raw, tmp_path, seed=1, scale=1.0):
    npz, meta = tmp_path / "p.npz", tmp_path / "p.json"
    out = prepare_dataset(spec, raw, npz, meta, seed=seed, synthetic_scale=scale)
    return dict(np.load(npz)), out


LETOR_LOADER = {"format": "letor", "fold_test_files": "Fold{fold}/test.txt", "features": 3}


def _write_letor_folds(raw):
    # Fold k's test file holds part S_(k+4): one query per part, qid = 10 * part.
    for fold in range(1, 6):
        part = (fold + 3) % 5 + 1
        path = raw / f"Fold{fold}" / "test.txt"
        path.parent.mkdir(parents=True)
        lines = [f"{g} qid:{10 * part} 1:{part} 3:0.5 #docid = d{part}{g}" for g in (2, 0)]
        path.write_text("\n".join(lines) + "\n")


def test_letor_folds_give_each_query_its_part_in_s1_to_s5_order(tmp_path):
    raw = _raw(tmp_path)
    _write_letor_folds(raw)
    spec = _spec(
        "r",
        "ranking",
        loader=LETOR_LOADER,
        published={"rows": 10, "queries": 5, "features": 3, "grades": 2},
    )
    arrays, meta = _prepare(spec, raw, tmp_path)
    assert arrays["part"].tolist() == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert arrays["qid"].tolist() == [10, 10, 20, 20, 30, 30, 40, 40, 50, 50]
    assert arrays["X"][0].tolist() == [1.0, 0.0, 0.5]
    assert arrays["docid"][:2].tolist() == ["d12", "d10"]
    assert meta["stats"]["queries"] == 5 and meta["stats"]["grade_counts"] == {0: 5, 2: 5}
    assert meta["provenance"]["kind"] == "mirror"


def test_a_copy_that_differs_from_the_published_statistics_is_refused(tmp_path):
    raw = _raw(tmp_path)
    _write_letor_folds(raw)
    spec = _spec(
        "r", "ranking", loader=LETOR_LOADER, published={"rows": 10, "queries": 106, "features": 3}
    )
    with pytest.raises(BoostrankError, match="queries: published 106, parsed 5"):
        _prepare(spec, raw, tmp_path)
    assert not (tmp_path / "p.npz").exists()


def test_dropped_class_is_removed_but_the_published_count_is_of_the_raw_file(tmp_path):
    raw = _raw(tmp_path)
    (raw / "d.data").write_text("a,x,keep\nb,y,keep\na,y,rare\nb,x,other\n")
    loader = {"format": "uci_csv", "file": "d.data", "categorical": True, "drop_classes": ["rare"]}
    spec = _spec(
        "n",
        "classification",
        loader=loader,
        published={"rows": 4, "features": 2, "classes": 3, "split": "all"},
    )
    arrays, meta = _prepare(spec, raw, tmp_path)
    assert len(arrays["y"]) == 3 and arrays["classes"].tolist() == ["keep", "other"]
    stats = meta["stats"]
    assert (stats["rows"], stats["rows_raw"], stats["classes"]) == (3, 4, 2)
    assert stats["split_rows"] == {"all": 4}


def _idx(path, magic, shape, data):
    header = magic.to_bytes(4, "big") + b"".join(n.to_bytes(4, "big") for n in shape)
    with gzip.open(path, "wb") as handle:
        handle.write(header + bytes(data))


def test_mnist_without_training_images_uses_the_test_split_and_counts_training_labels(tmp_path):
    raw = _raw(tmp_path)
    _idx(raw / "t10k-images-idx3-ubyte.gz", 2051, (3, 2, 2), range(12))
    _idx(raw / "t10k-labels-idx1-ubyte.gz", 2049, (3,), [7, 2, 1])
    _idx(raw / "train-labels-idx1-ubyte.gz", 2049, (5,), [5, 0, 4, 1, 9])
    loader = {
        "format": "idx",
        "images": "train-images-idx3-ubyte",
        "labels": "train-labels-idx1-ubyte",
        "fallback_images": "t10k-images-idx3-ubyte",
        "fallback_labels": "t10k-labels-idx1-ubyte",
        "count_labels": "train-labels-idx1-ubyte",
    }
    spec = _spec(
        "m",
        "classification",
        loader=loader,
        published={"rows": 5, "features": 4, "classes": 3, "split": "train"},
    )
    arrays, meta = _prepare(spec, raw, tmp_path)
    assert arrays["X"].shape == (3, 4) and arrays["y"].tolist() == [7, 2, 1]
    assert meta["stats"]["split"] == "test"
    assert meta["stats"]["split_rows"] == {"test": 3, "train": 5}


def test_synthetic_stand_in_comes_from_the_registry_shape_and_the_jobs_seed(tmp_path):
    raw = _raw(tmp_path, "synthetic")
    shape = {"generator": "classification", "rows": 60, "features": 3, "classes": 3}
    spec = _spec("s", "classification", published={"split": "train"}, synthetic=shape)
    first, meta = _prepare(spec, raw, tmp_path, seed=9)
    again, _ = _prepare(spec, raw, tmp_path, seed=9)
    assert np.array_equal(first["X"], again["X"])
    assert meta["stats"]["split_rows"] == {"train": 60}
    assert meta["provenance_line"].startswith("synthetic stand-in (seed 9")
    assert meta["provenance"]["detail"]["parameters"] == shape
    other_seed, _ = _prepare(spec, raw, tmp_path, seed=10)
    assert not np.array_equal(first["X"], other_seed["X"])
    other, _ = _prepare(_spec("t", "classification", synthetic=shape), raw, tmp_path, seed=9)
    assert not np.array_equal(first["X"], other["X"])  # each data set has its own stream


def test_unknown_loader_format_is_a_clear_error(tmp_path):
    raw = _raw(tmp_path)
    with pytest.raises(BoostrankError, match="unknown loader format 'parquet'"):
        _prepare(_spec("u", "classification", loader={"format": "parquet"}), raw, tmp_path)


# ----------------------------------------------------------------- cached data verified at use

CSV = b"1,2,a\n3,4,b\n5,6,a\n"


def _fetched(tmp_path, files=None):
    """A uci_csv data set fetched from a mirror that stores it gzipped, as the workflow does:
    (spec, data/raw/<name>)."""
    import hashlib

    from boostrank.data.sources import FetchSettings, fetch_dataset

    mirror = tmp_path / "mirror" / "toy_folder"
    mirror.mkdir(parents=True)
    (mirror / "toy.data.gz").write_bytes(gzip.compress(CSV, mtime=0))
    spec = DatasetSpec(
        name="toy",
        title="toy",
        task="classification",
        citation="c",
        mirror_folder="toy_folder",
        files=files or {"toy.data": hashlib.sha256(CSV).hexdigest()},
        loader={"format": "uci_csv", "file": "toy.data"},
        published={"rows": 3, "features": 2, "classes": 2},
    )
    raw = tmp_path / "data" / "raw" / "toy"
    lock = tmp_path / "data" / "registry.lock"
    fetch_dataset(spec, raw, FetchSettings(sources=("mirror",), mirror=str(tmp_path / "mirror"),
                                           lock=lock))  # fmt: skip
    return spec, raw


def test_a_raw_file_changed_after_its_fetch_is_refused_by_prepare_in_one_line(tmp_path):
    """One digit changed inside the cached .gz (re-gzipped): prepare stops naming the file and
    the fix, and writes nothing; the untouched copy parses."""
    spec, raw = _fetched(tmp_path)
    _prepare(spec, raw, tmp_path)  # the fetched copy parses
    (tmp_path / "p.npz").unlink()
    cached = raw / "toy.data.gz"
    cached.write_bytes(gzip.compress(CSV.replace(b"3,4", b"3,5"), mtime=0))
    with pytest.raises(BoostrankError) as error:
        _prepare(spec, raw, tmp_path)
    message = str(error.value)
    assert "\n" not in message and str(cached) in message
    assert f"delete {raw} and rerun" in message
    assert not (tmp_path / "p.npz").exists()
    cached.unlink()
    with pytest.raises(BoostrankError, match=r"toy\.data\.gz of data set 'toy' is missing"):
        _prepare(spec, raw, tmp_path)


def test_a_raw_file_changed_after_its_fetch_changes_the_prepare_parameter(tmp_path):
    """changed_since_fetch (a params entry of the prepare rule): "" for a fresh fetch or none,
    a new value after an edit, even one whose time was put back with touch -r."""
    import os
    import time

    from boostrank.data.provenance import changed_since_fetch

    assert changed_since_fetch(tmp_path / "nothing") == ""
    _, raw = _fetched(tmp_path)
    assert changed_since_fetch(raw) == ""
    cached = raw / "toy.data.gz"
    before = cached.stat()
    time.sleep(0.01)
    cached.write_bytes(gzip.compress(CSV.replace(b"3,4", b"3,5"), mtime=0))
    os.utime(cached, ns=(before.st_atime_ns, before.st_mtime_ns))  # touch -r
    first = changed_since_fetch(raw)
    assert first.startswith("toy.data: ")
    time.sleep(0.01)
    cached.write_bytes(gzip.compress(CSV, mtime=0))
    assert changed_since_fetch(raw) not in ("", first)  # each change is a new value
    cached.unlink()
    assert changed_since_fetch(raw) == "toy.data: missing"
