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

import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from boostrank.data import formats
from boostrank.errors import BoostrankError

STREAMS = ("title", "abstract", "title+abstract")  # stream ids 1, 2, 3 of Meta/*.xml
N_BASE = 15
N_FEATURES = N_BASE * len(STREAMS)

BM25_K1 = 1.2
BM25_B = 0.75
BM25_K3 = 7.0
LMIR_DIR_MU = 50.0
LMIR_JM_LAMBDA = 0.5
LMIR_ABS_DELTA = 0.5

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
NULLABLE = (10, 11, 12, 13, 14)  # 0-based: BM25, log BM25, LMIR.DIR, LMIR.JM, LMIR.ABS
NULL_TO_ZERO = (10, 11)  # Feature-min's NULL of BM25 and log(BM25) is 0; LMIR's is the minimum


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
            qtf=meta.qtf,
            n_docs=meta.n_docs,
            tokens=float(meta.stream_tokens[s]),
        )
        block = np.zeros((n_rows, N_BASE))
        np.add.at(block, meta.entry_row, contrib)
        with np.errstate(invalid="ignore", divide="ignore"):
            block[:, 11] = np.where(block[:, 10] > 0, np.log(block[:, 10]), np.nan)
        covered = np.bincount(meta.entry_row, weights=meta.tf[:, s], minlength=n_rows) > 0
        block[np.ix_(~covered, np.array(NULLABLE))] = np.nan
        X[:, s * N_BASE : (s + 1) * N_BASE] = block
    return X


def group_reduce(X: np.ndarray, qid: np.ndarray, how: Literal["min", "max"]) -> np.ndarray:
    """Each row's reduction ``how`` (min, max) over the rows of its query, per feature."""
    import pandas as pd

    frame = pd.DataFrame(X)
    return frame.groupby(qid, sort=False).transform(how).to_numpy()


def fill_null_like_feature_min(X: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """Replace NULL (NaN) as LETOR 3.0's ``Feature-min`` does: 0 for BM25 and log(BM25), the
    query's minimum of the non-NULL values for the LMIR features (0 if the query has none)."""
    out = np.array(X, dtype=np.float64)
    zero = feature_columns(NULL_TO_ZERO)
    out[:, zero] = np.nan_to_num(out[:, zero], nan=0.0)
    lowest = np.nan_to_num(group_reduce(out, qid, "min"), nan=0.0)
    missing = np.isnan(out)
    out[missing] = lowest[missing]
    return out


def query_level_normalise(X: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """LETOR's QueryLevelNorm: (x - min) / (max - min) per query and feature; 0 where the
    feature is constant within the query (max = min)."""
    X = np.asarray(X, dtype=np.float64)
    low = group_reduce(X, qid, "min")
    span = group_reduce(X, qid, "max") - low
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
