"""LETOR 3.0 OHSUMED: the 45 query-document features rebuilt from the raw statistics in ``Meta/``.

Qin, Liu, Xu and Li, "LETOR: A benchmark collection for research on learning to rank for
information retrieval", *Information Retrieval* 13(4):346-374, 2010 (LETOR 3.0), list the OHSUMED
features: the same 15 features on each of three streams, title (features 1-15), abstract (16-30)
and title + abstract (31-45). Within a stream, with c(q_i, d) the frequency of query term q_i in the
stream of d, |d| the stream's length, |C| the number of documents in the collection, df(q_i) and
c(q_i, C) the document and collection frequency of q_i in the stream:

 1. sum c(q_i, d)                      6. sum log(log(|C| / df(q_i)))      11. BM25
 2. sum log(c(q_i, d) + 1)             7. sum log(|C| / c(q_i, C) + 1)     12. log(BM25)
 3. sum c(q_i, d) / |d|                8. sum log(c/|d| * log(|C|/df) + 1) 13. LMIR.DIR
 4. sum log(c(q_i, d) / |d| + 1)       9. sum c(q_i, d) * log(|C| / df)    14. LMIR.JM
 5. sum log(|C| / df(q_i))            10. sum log(c/|d| * |C|/c(q_i,C) + 1) 15. LMIR.ABS

Logarithms are natural. BM25 follows Robertson et al. (Okapi at TREC-3) with k1 = 1.2, b = 0.75,
k3 = 7, idf log((|C| - df + 0.5) / (df + 0.5)) and average length (stream tokens) / |C|; the
language models are query likelihoods sum_{q_i in q} log p(q_i | d) smoothed as in Zhai and
Lafferty (SIGIR 2001): Dirichlet mu = 50, Jelinek-Mercer lambda = 0.5, absolute discounting
delta = 0.5, with p(w | C) = c(w, C) / (tokens in the stream). These parameters are the ones stated
for LETOR 4.0 (Qin and Liu 2013, also quoted by Sengupta 2018); the check against the distributed
files shows that LETOR 3.0's OHSUMED features were made with the same (k3 shows in the queries
that repeat a word: 22, 25, 46, 63, 67, 95, 99).

The feature order above (LETOR's) is confirmed by the distributed files: each rebuilt column
matches its namesake. Details that the papers leave open and that this module takes from the
distributed files (the verification table reports how each one agrees):

* the sums of features 5-7 run over all query terms, whether or not d contains them (so they are
  constant within a query); query terms absent from a stream of the whole collection
  (df = 0) contribute nothing to any feature of that stream;
* a query word that occurs twice is two terms in every sum except BM25, which counts it once with
  query frequency qtf and the weight (k3 + 1) qtf / (k3 + qtf);
* BM25, log(BM25) and the three LMIR features are NULL when no query term occurs in the stream
  (``Feature-null``). ``Feature-min`` replaces that NULL by 0 for BM25 and log(BM25) and by the
  query's minimum for the LMIR features (``fill_null_like_feature_min``);
* ``QueryLevelNorm`` is (x - min) / (max - min) per query and feature, 0 when max = min, applied to
  the ``Feature-min`` values (``query_level_normalise``).
"""

from __future__ import annotations

import argparse
import io
import logging
import re
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from boostrank.data import formats
from boostrank.data.provenance import Provenance
from boostrank.errors import BoostrankError
from boostrank.io import read_json, save_npz, write_json, write_text
from boostrank.report.render import write_table

if TYPE_CHECKING:  # pandas, scipy.stats and sklearn load only in the commands that use them
    import pandas as pd

log = logging.getLogger(__name__)

STREAMS = ("title", "abstract", "title+abstract")  # stream ids 1, 2, 3 of Meta/*.xml
N_BASE = 15
N_FEATURES = N_BASE * len(STREAMS)

BM25_K1 = 1.2
BM25_B = 0.75
BM25_K3 = 7.0
LMIR_DIR_MU = 50.0
LMIR_JM_LAMBDA = 0.5
LMIR_ABS_DELTA = 0.5

# Verdict thresholds: the distributed files print 6 decimals (QueryLevelNorm truncates them), so
# agreement means |rebuilt - distributed| <= one unit in the sixth decimal.
AGREE_TOL = 1e-6
RHO_MIN = 0.999

FEATURE_MIN_FILE = "Feature-min/ALL/OHSUMED.txt"
FEATURE_NULL_FILE = "Feature-null/ALL/OHSUMED.txt"
META_DIR = "Meta"

# (short name, definition) of features 1..15 of a stream, in LETOR 3.0's order.
BASE_FEATURES: tuple[tuple[str, str], ...] = (
    ("sum tf", "sum_i c(q_i,d)"),
    ("sum log tf", "sum_i log(c(q_i,d)+1)"),
    ("sum normalised tf", "sum_i c(q_i,d)/|d|"),
    ("sum log normalised tf", "sum_i log(c(q_i,d)/|d|+1)"),
    ("sum idf", "sum_i log(|C|/df(q_i))"),
    ("sum log idf", "sum_i log(log(|C|/df(q_i)))"),
    ("sum log icf", "sum_i log(|C|/c(q_i,C)+1)"),
    ("sum log tf-idf", "sum_i log(c(q_i,d)/|d| * log(|C|/df(q_i))+1)"),
    ("sum tf*idf", "sum_i c(q_i,d) * log(|C|/df(q_i))"),
    ("sum log tf-icf", "sum_i log(c(q_i,d)/|d| * |C|/c(q_i,C)+1)"),
    ("BM25", f"Okapi BM25, k1={BM25_K1}, b={BM25_B}, k3={BM25_K3:g}"),
    ("log BM25", "log(BM25)"),
    ("LMIR.DIR", f"sum_i log p(q_i|d), Dirichlet mu={LMIR_DIR_MU:g}"),
    ("LMIR.JM", f"sum_i log p(q_i|d), Jelinek-Mercer lambda={LMIR_JM_LAMBDA}"),
    ("LMIR.ABS", f"sum_i log p(q_i|d), absolute discounting delta={LMIR_ABS_DELTA}"),
)
_NULLABLE = (10, 11, 12, 13, 14)  # 0-based: BM25, log BM25, LMIR.DIR, LMIR.JM, LMIR.ABS
_NULL_TO_ZERO = (10, 11)  # Feature-min's NULL of BM25 and log(BM25) is 0; LMIR's is the minimum


def feature_columns(base: tuple[int, ...]) -> list[int]:
    """0-based columns of the given 0-based base features, in every stream."""
    return [s * N_BASE + b for s in range(len(STREAMS)) for b in base]


# --------------------------------------------------------------------------- Meta/ parsing


@dataclass(frozen=True)
class LetorMeta:
    """The statistics of ``Meta/``: one row per judged (query, document), one entry per
    (row, query term); the last axis of the per-stream arrays is the stream (title, abstract,
    title + abstract)."""

    n_docs: int  # |C|, documents in the collection
    stream_tokens: np.ndarray  # (3,) tokens in each stream of the collection
    qid: np.ndarray  # (n,) int32
    docid: np.ndarray  # (n,) str
    label: np.ndarray  # (n,) int8
    length: np.ndarray  # (n, 3) |d| per stream
    unique_length: np.ndarray  # (n, 3) distinct terms of d per stream
    entry_row: np.ndarray  # (m,) row of each entry
    word: np.ndarray  # (m,) the (Porter-stemmed) query word
    tf: np.ndarray  # (m, 3) c(q_i, d)
    df: np.ndarray  # (m, 3) df(q_i)
    cf: np.ndarray  # (m, 3) c(q_i, C)
    qtf: np.ndarray  # (m,) times the entry's word occurs in its query


def _int(element: ET.Element, tag: str, path: Path) -> int:
    text = element.findtext(tag)
    if text is None:
        raise ValueError(f"{path}: <{element.tag}> has no <{tag}>")
    return int(text.strip())


def _streams(element: ET.Element, path: Path) -> dict[int, ET.Element]:
    found = {_int(s, "streamid", path): s for s in element.findall("stream")}
    if sorted(found) != [1, 2, 3]:
        raise ValueError(f"{path}: <{element.tag}> has streams {sorted(found)}, expected 1, 2, 3")
    return found


def read_collection_info(path: Path | str) -> tuple[int, np.ndarray]:
    """``collectioninfo.xml``: (documents in the collection, tokens in each of the 3 streams)."""
    path = Path(path)
    with formats.open_binary(path) as handle:
        root = ET.parse(handle).getroot()
    streams = _streams(root, path)
    return _int(root, "docnum", path), np.array(
        [_int(streams[s], "totaltermnum", path) for s in (1, 2, 3)], dtype=np.float64
    )


def _query_files(meta_dir: Path) -> dict[int, Path]:
    files: dict[int, Path] = {}
    for path in meta_dir.iterdir():
        match = re.fullmatch(r"query-(\d+)\.xml(\.gz)?", path.name)
        if match:
            files[int(match.group(1))] = meta_dir / f"query-{match.group(1)}.xml"
    return dict(sorted(files.items()))


def read_meta(meta_dir: Path | str, qids: list[int] | None = None) -> LetorMeta:
    """Parse ``collectioninfo.xml`` and ``query-<q>.xml[.gz]`` (all queries, or ``qids``)."""
    meta_dir = Path(meta_dir)
    n_docs, tokens = read_collection_info(meta_dir / "collectioninfo.xml")
    files = _query_files(meta_dir)
    if qids is not None:
        missing = sorted(set(qids) - set(files))
        if missing:
            raise BoostrankError(f"{meta_dir}: no query file for qid {missing}")
        files = {q: files[q] for q in qids}
    if not files:
        raise BoostrankError(f"{meta_dir}: no query-<id>.xml files")
    rows: dict[str, list[Any]] = {k: [] for k in ("qid", "docid", "label", "len", "ulen")}
    ent: dict[str, list[Any]] = {k: [] for k in ("row", "word", "tf", "df", "cf", "qtf")}
    for number, path in files.items():
        with formats.open_binary(path) as handle:
            root = ET.parse(handle).getroot()
        qid = _int(root, "id", path)
        if qid != number:
            raise ValueError(f"{path}: <id> is {qid}")
        terms = root.find("terminfo")
        docs = root.find("docinfo")
        if terms is None or docs is None:
            raise ValueError(f"{path}: no <terminfo> or <docinfo>")
        term_ids, words, dfs, cfs = [], [], [], []
        for term in terms.findall("term"):
            streams = _streams(term, path)
            term_ids.append(_int(term, "termid", path))
            words.append((term.findtext("word") or "").strip())
            dfs.append([_int(streams[s], "streamfrequency", path) for s in (1, 2, 3)])
            cfs.append([_int(streams[s], "streamtermfrequency", path) for s in (1, 2, 3)])
        qtf = [words.count(w) for w in words]
        position = {t: i for i, t in enumerate(term_ids)}
        for doc in docs.findall("doc"):
            row = len(rows["qid"])
            streams = _streams(doc, path)
            tf = np.zeros((len(term_ids), 3), dtype=np.int64)
            for s in (1, 2, 3):
                for term in streams[s].findall("term"):
                    tf[position[_int(term, "termid", path)], s - 1] = _int(
                        term, "termfrequency", path
                    )
            rows["qid"].append(qid)
            rows["docid"].append((doc.findtext("docid") or "").strip())
            rows["label"].append(_int(doc, "label", path))
            rows["len"].append([_int(streams[s], "length", path) for s in (1, 2, 3)])
            rows["ulen"].append([_int(streams[s], "uniquelength", path) for s in (1, 2, 3)])
            ent["row"].extend([row] * len(term_ids))
            ent["word"].extend(words)
            ent["tf"].append(tf)
            ent["df"].extend(dfs)
            ent["cf"].extend(cfs)
            ent["qtf"].extend(qtf)
    shape3 = (-1, 3)
    return LetorMeta(
        n_docs=n_docs,
        stream_tokens=tokens,
        qid=np.asarray(rows["qid"], dtype=np.int32),
        docid=np.asarray(rows["docid"], dtype=str),
        label=np.asarray(rows["label"], dtype=np.int8),
        length=np.asarray(rows["len"], dtype=np.float64).reshape(shape3),
        unique_length=np.asarray(rows["ulen"], dtype=np.float64).reshape(shape3),
        entry_row=np.asarray(ent["row"], dtype=np.int64),
        word=np.asarray(ent["word"], dtype=str),
        tf=np.concatenate(ent["tf"]).astype(np.float64) if ent["tf"] else np.zeros((0, 3)),
        df=np.asarray(ent["df"], dtype=np.float64).reshape(shape3),
        cf=np.asarray(ent["cf"], dtype=np.float64).reshape(shape3),
        qtf=np.asarray(ent["qtf"], dtype=np.float64),
    )


# --------------------------------------------------------------------------- the features


def _safe_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b, out=np.zeros(np.broadcast(a, b).shape), where=b > 0)


def _safe_log(x: np.ndarray, where: np.ndarray) -> np.ndarray:
    """log(x) where ``where`` holds, else 0 (a term that contributes nothing)."""
    return np.log(x, out=np.zeros(x.shape), where=where)


def stream_features(
    tf: np.ndarray,
    length: np.ndarray,
    unique_length: np.ndarray,
    df: np.ndarray,
    cf: np.ndarray,
    qtf: np.ndarray,
    n_docs: int,
    tokens: float,
) -> np.ndarray:
    """The 15 per-entry contributions of one stream, shape (m, 15); a row's feature is the sum of
    its entries (every feature of LETOR 3.0's OHSUMED list is a sum over query terms, Qin et al.
    2010, with log(BM25) taken after summing). Arrays are per entry (row, query term)."""
    n = float(n_docs)
    present = df > 0  # the term occurs in this stream of the collection
    ntf = _safe_div(tf, length)  # c(q_i, d) / |d|; 0 for an empty stream
    idf = _safe_log(_safe_div(np.full_like(df, n), df), present)  # log(|C| / df)
    icf = _safe_div(np.full_like(cf, n), cf)  # |C| / c(q_i, C)
    out = np.zeros((len(tf), N_BASE))
    out[:, 0] = tf
    out[:, 1] = np.log1p(tf)
    out[:, 2] = ntf
    out[:, 3] = np.log1p(ntf)
    out[:, 4] = idf
    out[:, 5] = _safe_log(idf, present & (idf > 0))
    out[:, 6] = np.where(present, np.log1p(icf), 0.0)
    out[:, 7] = np.log1p(ntf * idf)
    out[:, 8] = tf * idf
    out[:, 9] = np.log1p(ntf * icf)
    # BM25 (Robertson et al., TREC-3); summed over entries, a word repeated qtf times adds up to
    # (k3 + 1) qtf / (k3 + qtf) times its term weight.
    avgdl = tokens / n
    bm25_idf = np.log((n - df + 0.5) / (df + 0.5))
    norm = BM25_K1 * (1.0 - BM25_B + BM25_B * length / avgdl)
    saturation = _safe_div(tf * (BM25_K1 + 1.0), tf + norm)
    out[:, 10] = bm25_idf * saturation * (BM25_K3 + 1.0) / (BM25_K3 + qtf)
    # Language models (Zhai and Lafferty 2001), p(w | C) = c(w, C) / tokens of the stream.
    p_c = cf / tokens
    p_dir = (tf + LMIR_DIR_MU * p_c) / (length + LMIR_DIR_MU)
    p_jm = (1.0 - LMIR_JM_LAMBDA) * ntf + LMIR_JM_LAMBDA * p_c
    p_abs = (
        _safe_div(np.maximum(tf - LMIR_ABS_DELTA, 0.0), length)
        + LMIR_ABS_DELTA * _safe_div(unique_length, length) * p_c
    )
    out[:, 12] = _safe_log(p_dir, present)
    out[:, 13] = _safe_log(p_jm, present & (p_jm > 0))
    out[:, 14] = _safe_log(p_abs, present & (p_abs > 0))
    return out


def compute_features(meta: LetorMeta) -> np.ndarray:
    """The 45 raw features of every row (float64), NaN where LETOR writes NULL: BM25, log(BM25)
    and the LMIR features of a stream in which the document contains no query term (log(BM25)
    is also NaN if BM25 <= 0, which no OHSUMED row has)."""
    n_rows = len(meta.qid)
    X = np.zeros((n_rows, N_FEATURES))
    for s in range(len(STREAMS)):
        length = meta.length[meta.entry_row, s]
        contrib = stream_features(
            meta.tf[:, s],
            length,
            meta.unique_length[meta.entry_row, s],
            meta.df[:, s],
            meta.cf[:, s],
            meta.qtf,
            meta.n_docs,
            float(meta.stream_tokens[s]),
        )
        block = np.zeros((n_rows, N_BASE))
        np.add.at(block, meta.entry_row, contrib)
        with np.errstate(invalid="ignore", divide="ignore"):
            block[:, 11] = np.where(block[:, 10] > 0, np.log(block[:, 10]), np.nan)
        covered = np.bincount(meta.entry_row, weights=meta.tf[:, s], minlength=n_rows) > 0
        block[np.ix_(~covered, list(_NULLABLE))] = np.nan
        X[:, s * N_BASE : (s + 1) * N_BASE] = block
    return X


def _group_reduce(X: np.ndarray, qid: np.ndarray, how: str) -> np.ndarray:
    import pandas as pd

    frame = pd.DataFrame(X)
    return frame.groupby(qid, sort=False).transform(how).to_numpy()


def fill_null_like_feature_min(X: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """Replace NULL (NaN) as LETOR 3.0's ``Feature-min`` does: 0 for BM25 and log(BM25), the
    query's minimum of the non-NULL values for the LMIR features (0 if the query has none)."""
    out = np.array(X, dtype=np.float64)
    zero = feature_columns(_NULL_TO_ZERO)
    out[:, zero] = np.nan_to_num(out[:, zero], nan=0.0)
    lowest = np.nan_to_num(_group_reduce(out, qid, "min"), nan=0.0)
    missing = np.isnan(out)
    out[missing] = lowest[missing]
    return out


def query_level_normalise(X: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """LETOR's QueryLevelNorm: (x - min) / (max - min) per query and feature; 0 where the
    feature is constant within the query (max = min)."""
    X = np.asarray(X, dtype=np.float64)
    low = _group_reduce(X, qid, "min")
    span = _group_reduce(X, qid, "max") - low
    return _safe_div(X - low, span)


# --------------------------------------------------------------------------- reference files


@dataclass(frozen=True)
class LetorRows:
    """A LETOR feature file read at full (float64) precision; NaN where it says NULL."""

    X: np.ndarray
    y: np.ndarray
    qid: np.ndarray
    docid: np.ndarray


def read_letor_float64(path: Path | str, n_features: int = N_FEATURES) -> LetorRows:
    """Read ``<grade> qid:<q> 1:<v> ... #docid = <id>`` keeping float64 precision (the project's
    :func:`boostrank.data.formats.read_letor` stores float32, too coarse for a 1e-6 check)."""
    from sklearn.datasets import load_svmlight_file

    path = Path(path)
    with formats.open_binary(path) as handle:
        data = handle.read()
    lines = [line for line in data.split(b"\n") if line.split(b"#", 1)[0].strip()]
    docid = []
    for number, line in enumerate(lines, 1):
        match = re.search(rb"docid\s*=\s*(\S+)", line)
        if match is None:
            raise ValueError(f"{path}: data line {number} has no '#docid = ...'")
        docid.append(match.group(1).decode())
    X, y, qid = load_svmlight_file(
        io.BytesIO(data.replace(b":NULL", b":nan")),
        n_features=n_features,
        dtype=np.float64,
        zero_based=False,
        query_id=True,
    )
    return LetorRows(X.toarray(), y.astype(np.int8), qid.astype(np.int32), np.asarray(docid))


def align_rows(
    qid: np.ndarray, docid: np.ndarray, ref_qid: np.ndarray, ref_docid: np.ndarray
) -> np.ndarray:
    """Index ``i`` such that reference row ``i[k]`` is (qid[k], docid[k]); every pair must exist
    exactly once in the reference."""
    import pandas as pd

    ref = pd.MultiIndex.from_arrays([np.asarray(ref_qid), np.asarray(ref_docid, dtype=str)])
    if ref.has_duplicates:
        dup = ref[ref.duplicated()][0]
        raise BoostrankError(f"(qid, docid) {dup} appears more than once in the reference")
    index = ref.get_indexer(pd.MultiIndex.from_arrays([qid, np.asarray(docid, dtype=str)]))
    if (index < 0).any():
        k = int(np.flatnonzero(index < 0)[0])
        raise BoostrankError(
            f"(qid {qid[k]}, docid {docid[k]}) and {int((index < 0).sum()) - 1} other row(s) "
            "are missing from the reference"
        )
    return index


# --------------------------------------------------------------------------- verification


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
    span = _group_reduce(feature_min, qid, "max") - _group_reduce(feature_min, qid, "min")
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
    if base in _NULL_TO_ZERO:
        notes.append(
            "NULL (no query term in the stream) filled with 0 as Feature-min does "
            "(LETOR's documentation says the query minimum)"
        )
    elif base in _NULLABLE:
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


# --------------------------------------------------------------------------- the pipeline step


def rebuild(
    raw_dir: Path | str,
    processed_npz: Path | str,
    processed_meta: Path | str,
    out_npz: Path | str,
    out_meta: Path | str,
    table_prefix: Path | str,
    summary: Path | str,
) -> pd.DataFrame:
    """Rebuild OHSUMED's features from ``raw_dir/Meta``, verify them against the distributed
    files, and write the normalised features in the layout of ``processed_npz`` (same rows, same
    order), its sidecar, Table 1.3 and its one-line summary. Without ``Meta/`` (a synthetic
    stand-in, or a copy without it) the distributed features are passed through, marked so."""
    started = time.perf_counter()
    raw_dir = Path(raw_dir)
    prov = Provenance.load(raw_dir / "provenance.json")
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
            _reference(raw_dir / FEATURE_MIN_FILE, qid, arrays["docid"]),
            _reference(raw_dir / FEATURE_NULL_FILE, qid, arrays["docid"]),
            arrays["X"].astype(np.float64),
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
        table = verify(empty, empty, empty, np.zeros(0, np.int32), None, None, None)
        table["note"] = why
    n_agree = int((table["verdict"] == "agrees").sum())
    save_npz(out_npz, **arrays)
    write_json(out_meta, _sidecar(base_meta, prov, arrays, rebuilt, why, n_agree))
    _write_outputs(table, prov, table_prefix, summary, rebuilt, why)
    log.info("ohsumed_rebuilt: %s; %d of %d features agree", why, n_agree, N_FEATURES)
    return table


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


def _fmt(value: Any, spec: str) -> str:
    return "" if value == "" else format(value, spec)


def _write_outputs(
    table: pd.DataFrame,
    prov: Provenance,
    prefix: Path | str,
    summary: Path | str,
    rebuilt: bool,
    why: str,
) -> None:
    import pandas as pd

    tidy = table.assign(data_kind=prov.kind, provenance=prov.describe())
    tidy.insert(0, "dataset", "ohsumed")  # the report lists each row's data by this column
    shown = pd.DataFrame(
        {
            "#": tidy["feature"],
            "Stream": tidy["stream"],
            "Feature": tidy["name"],
            "Definition": tidy["definition"],
            "max |Δ| Feature-min": [_fmt(v, ".1e") for v in tidy["max_abs_diff_feature_min"]],
            "Spearman ρ": [_fmt(v, ".6f") for v in tidy["spearman_rho"]],
            "max |Δ| QueryLevelNorm": [
                _fmt(v, ".1e") for v in tidy["max_abs_diff_query_level_norm"]
            ],
            "÷ bound": [_fmt(v, ".2f") for v in tidy["query_level_norm_bound_ratio"]],
            "LETOR's norm. check": [
                _fmt(v, ".1e") for v in tidy["max_abs_diff_normalised_feature_min"]
            ],
            "Verdict": tidy["verdict"],
            "Note": tidy["note"],
        }
    )
    caption = (
        "Table 1.3: LETOR 3.0 OHSUMED features rebuilt from the raw statistics in Meta/, "
        "against the distributed Feature-min and QueryLevelNorm. '÷ bound': the largest "
        "normalised difference over the precision Feature-min's 6 decimals allow after "
        "min-max normalisation (<= 1 agrees); 'LETOR's norm. check': max |QueryLevelNorm - "
        f"normalised Feature-min| (data: {prov.describe()})"
    )
    write_table(prefix, tidy, shown, caption)
    counts = tidy["verdict"].value_counts()
    quantities = {
        "features_agree": "features whose rebuilt values agree with Feature-min and "
        f"QueryLevelNorm to {AGREE_TOL:g}",
        "features_correlate": f"further features with Spearman rho >= {RHO_MIN} only",
        "features_reproduced": f"features that agree or correlate (rho >= {RHO_MIN})",
        "features_differ": "features that neither agree nor correlate",
        "features_total": "features in LETOR 3.0 OHSUMED",
    }
    values = {
        "features_agree": int(counts.get("agrees", 0)),
        "features_correlate": int(counts.get("correlates", 0)),
        "features_reproduced": int(counts.get("agrees", 0) + counts.get("correlates", 0)),
        "features_differ": int(counts.get("differs", 0)),
        "features_total": N_FEATURES,
    }
    lines = pd.DataFrame(
        {
            "quantity": list(quantities),
            "value": [v if rebuilt or k == "features_total" else "" for k, v in values.items()],
            "description": list(quantities.values()),
            "data_kind": prov.kind,
            "provenance": prov.describe(),
            "note": "" if rebuilt else why,
        }
    )
    write_text(summary, lines.to_csv(index=False))


def _cmd_rebuild(args: argparse.Namespace) -> None:
    rebuild(
        args.raw_dir,
        args.npz,
        args.meta,
        args.out_npz,
        args.out_meta,
        args.table_prefix,
        args.summary,
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``letor-features``: rebuild OHSUMED's 45 features from Meta/ and verify them."""
    p = subparsers.add_parser(
        "letor-features",
        help="rebuild LETOR 3.0 OHSUMED's 45 features from Meta/ and check them (Table 1.3)",
    )
    p.add_argument("--raw-dir", required=True, help="data/raw/ohsumed")
    p.add_argument("--npz", required=True, help="the distributed features (row order, parts)")
    p.add_argument("--meta", required=True, help="their sidecar")
    p.add_argument("--out-npz", required=True)
    p.add_argument("--out-meta", required=True)
    p.add_argument("--table-prefix", required=True)
    p.add_argument("--summary", required=True, help="CSV with the number of features that agree")
    p.set_defaults(func=_cmd_rebuild)
