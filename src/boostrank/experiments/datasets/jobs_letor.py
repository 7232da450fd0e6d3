"""The job of LETOR 3.0's OHSUMED feature list (Qin et al. 2010; used in dissertation section
1.6.2): rebuild the 45 OHSUMED features from the raw statistics in ``Meta/``
(:mod:`boostrank.preprocess.letor_features`), check each one against the distributed
``Feature-min``, ``Feature-null`` and ``QueryLevelNorm`` files, and write the normalised
features in the layout of ``data/processed/ohsumed.npz`` (for config ``letor.ohsumed_features``).
:mod:`.make_letor` runs it and writes the table (:mod:`.figure_letor`)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from boostrank.data import formats
from boostrank.data.provenance import Provenance
from boostrank.errors import BoostrankError
from boostrank.io import read_json, save_npz, write_json
from boostrank.preprocess.letor_features import (
    BASE_FEATURES,
    BM25_B,
    BM25_K1,
    BM25_K3,
    LMIR_ABS_DELTA,
    LMIR_DIR_MU,
    LMIR_JM_LAMBDA,
    N_BASE,
    N_FEATURES,
    NULL_TO_ZERO,
    NULLABLE,
    STREAMS,
    align_rows,
    compute_features,
    fill_null_like_feature_min,
    group_reduce,
    query_level_normalise,
    read_letor_float64,
    read_meta,
)

if TYPE_CHECKING:  # pandas and scipy.stats load only in the commands that use them
    import pandas as pd

log = logging.getLogger(__name__)

# Verdict thresholds: the distributed files print 6 decimals (QueryLevelNorm truncates them), so
# agreement means |rebuilt - distributed| <= one unit in the sixth decimal.
AGREE_TOL = 1e-6
RHO_MIN = 0.999

FEATURE_MIN_FILE = "Feature-min/ALL/OHSUMED.txt"
FEATURE_NULL_FILE = "Feature-null/ALL/OHSUMED.txt"
META_DIR = "Meta"


@dataclass(frozen=True)
class FeatureCheck:
    """What the job found: one row per feature (:func:`verify`), the raw data's provenance,
    whether the features were rebuilt, and why (or why not)."""

    table: pd.DataFrame
    provenance: Provenance
    rebuilt: bool
    why: str


def _rho(a: np.ndarray, b: np.ndarray) -> float:
    from scipy.stats import spearmanr

    if len(a) == 0:
        return float("nan")
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return 1.0 if np.allclose(a, b, rtol=0, atol=AGREE_TOL) else float("nan")
    return float(spearmanr(a, b).statistic)


def normalised_bound(feature_min: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """Per cell, how far a normalised rebuilt value may lie from QueryLevelNorm when the raw value
    agrees with Feature-min to ``AGREE_TOL``: LETOR normalised the Feature-min values as printed
    (6 decimals), and (x - min) / (max - min) turns raw differences of up to 2 tol in x - min and in
    max - min into at most 4 tol / (max - min); QueryLevelNorm's own rounding adds 5e-7."""
    span = group_reduce(feature_min, qid, "max") - group_reduce(feature_min, qid, "min")
    return 5e-7 + np.where(span > 0, 4 * AGREE_TOL / np.where(span > 0, span, 1.0), 0.0)


def verify(
    raw: np.ndarray,
    filled: np.ndarray,
    normalised: np.ndarray,
    qid: np.ndarray,
    feature_min: np.ndarray | None,
    feature_null: np.ndarray | None,
    query_level_norm: np.ndarray | None,
) -> pd.DataFrame:
    """One row per feature: the rebuilt values against the distributed ones (rows aligned).

    Columns: max |rebuilt - Feature-min| and Spearman's rho (NULLs filled as Feature-min does),
    rows whose NULL status differs from Feature-null, max |normalised rebuilt - QueryLevelNorm| and
    its largest ratio to :func:`normalised_bound`, and max |normalised Feature-min -
    QueryLevelNorm| (LETOR's normalisation reproduced on LETOR's own raw values)."""
    import pandas as pd

    bound = None
    if feature_min is not None and query_level_norm is not None:
        bound = normalised_bound(feature_min, qid)
        from_min = np.abs(query_level_normalise(feature_min, qid) - query_level_norm)
    rows = []
    for j in range(N_FEATURES):
        stream, base = divmod(j, N_BASE)
        name, definition = BASE_FEATURES[base]
        row: dict[str, Any] = {
            "feature": j + 1,
            "stream": STREAMS[stream],
            "name": name,
            "definition": definition,
            "max_abs_diff_feature_min": "",
            "max_rel_diff_feature_min": "",
            "spearman_rho": "",
            "null_mismatches": "",
            "max_abs_diff_query_level_norm": "",
            "query_level_norm_bound_ratio": "",
            "max_abs_diff_normalised_feature_min": "",
        }
        if feature_min is not None:
            diff = np.abs(filled[:, j] - feature_min[:, j])
            row["max_abs_diff_feature_min"] = float(diff.max(initial=0.0))
            scale = np.maximum(np.abs(feature_min[:, j]), 1e-6)
            row["max_rel_diff_feature_min"] = float((diff / scale).max(initial=0.0))
            row["spearman_rho"] = _rho(filled[:, j], feature_min[:, j])
        if feature_null is not None:
            row["null_mismatches"] = int(
                (np.isnan(raw[:, j]) != np.isnan(feature_null[:, j])).sum()
            )
        if query_level_norm is not None:
            diff = np.abs(normalised[:, j] - query_level_norm[:, j])
            row["max_abs_diff_query_level_norm"] = float(diff.max(initial=0.0))
            if bound is not None:
                row["query_level_norm_bound_ratio"] = float((diff / bound[:, j]).max(initial=0.0))
                row["max_abs_diff_normalised_feature_min"] = float(from_min[:, j].max(initial=0.0))
        row["verdict"], row["note"] = _verdict(row, base)
        rows.append(row)
    return pd.DataFrame(rows)


def _verdict(row: dict[str, Any], base: int) -> tuple[str, str]:
    """``agrees``: within the printed precision, raw and normalised; ``correlates``: Spearman's
    rho >= RHO_MIN; else ``differs``. The note says what the comparison rests on."""
    diff, rho, ratio = (
        row["max_abs_diff_feature_min"],
        row["spearman_rho"],
        row["query_level_norm_bound_ratio"],
    )
    notes = []
    if base in NULL_TO_ZERO:
        notes.append(
            "NULL (no query term in the stream) filled with 0 as Feature-min does "
            "(LETOR's documentation says the query minimum)"
        )
    elif base in NULLABLE:
        notes.append("NULL (no query term in the stream) filled with the query minimum")
    if base in (4, 5, 6):
        notes.append("sum over all query terms: constant within a query, 0 after normalising")
    if base == 10:
        notes.append("a repeated query word counts once, with its qtf")
    if row["null_mismatches"] not in ("", 0):
        notes.append(f"NULL status differs from Feature-null in {row['null_mismatches']} rows")
    if diff == "":
        return "n/a", "; ".join([*notes, "Feature-min not available"])
    if ratio != "" and ratio > 1:
        notes.append(
            f"normalised values differ from QueryLevelNorm by up to "
            f"{row['max_abs_diff_query_level_norm']:.1e}, beyond the propagated precision"
        )
    if diff <= AGREE_TOL and (ratio == "" or ratio <= 1):
        if row["max_abs_diff_query_level_norm"] > AGREE_TOL:
            notes.append(
                "normalised difference within the precision that Feature-min's 6 decimals keep "
                "after division by the query's max - min"
            )
        return "agrees", "; ".join(notes)
    notes.append(
        f"differs from Feature-min by up to {diff:.1e} (relative "
        f"{row['max_rel_diff_feature_min']:.1e}), beyond the 6 printed decimals"
    )
    if base == 10:
        notes.append(
            "consistent with LETOR using a slightly different average stream length than "
            "tokens / documents of collectioninfo.xml; LETOR does not publish its value, so it "
            "is not fitted"
        )
    if not np.isnan(rho) and rho >= RHO_MIN:
        return "correlates", "; ".join(notes)
    return "differs", "; ".join(notes)


def rebuild(
    raw_dir: Path | str,
    processed_npz: Path | str,
    processed_meta: Path | str,
    out_npz: Path | str,
    out_meta: Path | str,
) -> FeatureCheck:
    """Rebuild OHSUMED's features from ``raw_dir/Meta``, verify them against the distributed
    files, and write the normalised features in the layout of ``processed_npz`` (same rows, same
    order) and its sidecar; return the feature table's rows
    (:func:`.make_letor.make_letor3_features` writes them).
    Without ``Meta/`` (a synthetic stand-in, or a copy without it) the distributed features are
    passed through, marked so."""
    started = time.perf_counter()
    raw_dir = Path(raw_dir)
    prov = Provenance.load(raw_dir / "provenance.json")
    prov.verify_cached(raw_dir)  # what is parsed is what the fetch verified
    base_meta = read_json(processed_meta)
    with np.load(processed_npz) as z:
        arrays = {k: z[k] for k in z.files}
    meta_dir = raw_dir / META_DIR
    rebuilt = prov.kind != "synthetic" and (meta_dir / "collectioninfo.xml").exists()
    table = None
    if rebuilt:
        meta = read_meta(meta_dir)
        order = align_rows(arrays["qid"], arrays["docid"], meta.qid, meta.docid)
        if not np.array_equal(meta.label[order], arrays["y"]):
            raise BoostrankError(f"{meta_dir}: relevance labels differ from {processed_npz}")
        raw = compute_features(meta)[order]
        qid = arrays["qid"]
        filled = fill_null_like_feature_min(raw, qid)
        normalised = query_level_normalise(filled, qid)
        log.info("features rebuilt from Meta/ in %.1f s", time.perf_counter() - started)
        table = verify(
            raw,
            filled,
            normalised,
            qid,
            feature_min=_reference(raw_dir / FEATURE_MIN_FILE, qid, arrays["docid"]),
            feature_null=_reference(raw_dir / FEATURE_NULL_FILE, qid, arrays["docid"]),
            query_level_norm=arrays["X"].astype(np.float64),
        )
        arrays = {**arrays, "X": normalised.astype(np.float32)}
        why = "features rebuilt from Meta/"
    elif prov.kind == "synthetic":
        why = "synthetic stand-in: no Meta/ statistics, so the features are the stand-in's"
    else:
        why = f"{meta_dir} is absent: the distributed features are passed through, not rebuilt"
        log.warning("ohsumed_rebuilt: %s", why)
    if table is None:
        empty = np.zeros((0, N_FEATURES))
        table = verify(
            empty,
            empty,
            empty,
            np.zeros(0, np.int32),
            feature_min=None,
            feature_null=None,
            query_level_norm=None,
        )
        table["note"] = why
    n_agree = int((table["verdict"] == "agrees").sum())
    save_npz(out_npz, **arrays)
    write_json(
        out_meta, _sidecar(base_meta, prov, arrays, rebuilt=rebuilt, why=why, n_agree=n_agree)
    )
    log.info("ohsumed_rebuilt: %s; %d of %d features agree", why, n_agree, N_FEATURES)
    return FeatureCheck(table, prov, rebuilt, why)


def _reference(path: Path, qid: np.ndarray, docid: np.ndarray) -> np.ndarray | None:
    try:
        formats.resolve_path(path)
    except FileNotFoundError:
        log.warning("%s is absent; that comparison is left empty", path)
        return None
    ref = read_letor_float64(path)
    return ref.X[align_rows(qid, docid, ref.qid, ref.docid)]


def _sidecar(
    base: dict[str, Any],
    prov: Provenance,
    arrays: dict[str, np.ndarray],
    *,
    rebuilt: bool,
    why: str,
    n_agree: int,
) -> dict[str, Any]:
    y = arrays["y"]
    grades = np.unique(y)
    stats = {
        "rows": len(y),
        "queries": len(np.unique(arrays["qid"])),
        "features": int(arrays["X"].shape[1]),
        "grades": len(grades),
        "grade_counts": {int(g): int((y == g).sum()) for g in grades},
        **{k: base["stats"][k] for k in ("folds", "split", "split_rows") if k in base["stats"]},
        "null_values": int(np.isnan(arrays["X"]).sum()),
    }
    line = prov.describe() + ("; features rebuilt from Meta/" if rebuilt else "")
    return {
        "dataset": "ohsumed_rebuilt",
        "title": "LETOR 3.0 OHSUMED, features rebuilt from Meta/ (QueryLevelNorm)",
        "task": "ranking",
        "provenance": prov.to_dict(),
        "provenance_line": line,
        "stats": stats,
        "features": {
            "source": "rebuilt" if rebuilt else "distributed",
            "note": why,
            "rows_from": base["dataset"],
            "agree_with_distributed": n_agree if rebuilt else None,
            "parameters": {
                "bm25": {"k1": BM25_K1, "b": BM25_B, "k3": BM25_K3},
                "lmir": {
                    "dir_mu": LMIR_DIR_MU,
                    "jm_lambda": LMIR_JM_LAMBDA,
                    "abs_delta": LMIR_ABS_DELTA,
                },
                "null": "Feature-min convention, then query-level min-max normalisation",
            },
        },
    }


__all__ = [
    "AGREE_TOL",
    "FEATURE_MIN_FILE",
    "FEATURE_NULL_FILE",
    "META_DIR",
    "RHO_MIN",
    "FeatureCheck",
    "normalised_bound",
    "rebuild",
    "verify",
]
