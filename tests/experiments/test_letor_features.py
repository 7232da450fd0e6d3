"""LETOR 3.0 OHSUMED features rebuilt from Meta/ (Qin et al. 2010): formulas on a hand-made
fixture, NULL handling and normalisation, row alignment, and (with the mirror) the real files."""

from __future__ import annotations

import gzip
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from boostrank.data.provenance import Provenance
from boostrank.errors import BoostrankError
from boostrank.experiments import job
from boostrank.experiments.datasets.jobs_letor import AGREE_TOL
from boostrank.experiments.datasets.spec import Letor3FeaturesSpec
from boostrank.io import read_json, save_npz, write_json
from boostrank.preprocess import letor_features as lf

ROOT = Path(__file__).resolve().parents[2]
N_DOCS = 1000
TOKENS = (8000, 60000, 68000)  # title, abstract, title + abstract

# query id -> list of (word, [(df, cf) per stream]); "heart" occurs twice in query 1, "zzz" occurs
# nowhere in the collection.
QUERIES = {
    1: [
        ("heart", [(50, 55), (200, 300), (220, 355)]),
        ("attack", [(20, 20), (80, 100), (90, 120)]),
        ("heart", [(50, 55), (200, 300), (220, 355)]),
        ("zzz", [(0, 0), (0, 0), (0, 0)]),
    ],
    2: [("cancer", [(30, 31), (100, 150), (120, 181)])],
}
# (qid, docid, label, [(length, unique length, [tf per query term]) per stream])
DOCS = [
    (1, "11", 2, [(5, 5, [1, 1, 1, 0]), (50, 40, [3, 0, 3, 0]), (55, 44, [4, 1, 4, 0])]),
    (1, "12", 0, [(4, 4, [0, 0, 0, 0]), (0, 0, [0, 0, 0, 0]), (4, 4, [0, 0, 0, 0])]),
    (2, "21", 1, [(6, 6, [2]), (100, 70, [5]), (106, 75, [7])]),
]


def _stream(sid: int, body: str) -> str:
    return f"<stream>\n<streamid>{sid}</streamid>\n{body}</stream>\n"


def write_meta(folder: Path, gz: bool = False) -> Path:
    """A Meta/ folder in LETOR 3.0's XML layout (collectioninfo.xml, query-<id>.xml)."""
    meta = folder / "Meta"
    meta.mkdir(parents=True)
    streams = "".join(
        f"<stream><streamid>{s}</streamid><streamdescription>x</streamdescription>"
        f"<uniquetermnum>9</uniquetermnum><totaltermnum>{TOKENS[s - 1]}</totaltermnum></stream>\n"
        for s in (1, 2, 3)
    )
    (meta / "collectioninfo.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<collectioninfo>\n<name>T</name>\n'
        f"<docnum>{N_DOCS}</docnum>\n<streamnum>3</streamnum>\n{streams}</collectioninfo>\n"
    )
    for qid, terms in QUERIES.items():
        term_xml = "".join(
            f"<term>\n<termid>{t}</termid>\n<word>{word}</word>\n"
            + "".join(
                _stream(
                    s,
                    f"<streamfrequency>{df}</streamfrequency>\n"
                    f"<streamtermfrequency>{cf}</streamtermfrequency>\n",
                )
                for s, (df, cf) in enumerate(stats, 1)
            )
            + "</term>\n"
            for t, (word, stats) in enumerate(terms, 1)
        )
        docs = [d for d in DOCS if d[0] == qid]
        doc_xml = "".join(
            f"<doc>\n<docid>{docid}</docid>\n<label>{label}</label>\n"
            + "".join(
                _stream(
                    s,
                    f"<length>{length}</length>\n<uniquelength>{unique}</uniquelength>\n"
                    + "".join(
                        f"<term>\n<termid>{t}</termid>\n<termfrequency>{f}</termfrequency>\n"
                        "</term>\n"
                        for t, f in enumerate(tfs, 1)
                    ),
                )
                for s, (length, unique, tfs) in enumerate(streams, 1)
            )
            + "</doc>\n"
            for _, docid, label, streams in docs
        )
        text = (
            f'<?xml version="1.0" encoding="utf-8"?>\n<query>\n<id>{qid}</id>\n<streaminfo>\n'
            + "".join(
                _stream(s, f"<streamspecificquerylength>{len(terms)}</streamspecificquerylength>\n")
                for s in (1, 2, 3)
            )
            + f"</streaminfo>\n<terminfo>\n<termnum>{len(terms)}</termnum>\n{term_xml}"
            f"</terminfo>\n<docinfo>\n<docnum>{len(docs)}</docnum>\n{doc_xml}</docinfo>\n"
            "</query>\n"
        )
        path = meta / f"query-{qid}.xml"
        if gz:
            with gzip.open(path.with_name(path.name + ".gz"), "wt") as handle:
                handle.write(text)
        else:
            path.write_text(text)
    return meta


@pytest.fixture
def meta(tmp_path: Path) -> lf.LetorMeta:
    return lf.read_meta(write_meta(tmp_path, gz=True))


def _row(meta: lf.LetorMeta, docid: str) -> int:
    return int(np.flatnonzero(meta.docid == docid)[0])


def test_read_meta_structure(meta):
    assert meta.n_docs == N_DOCS
    assert meta.stream_tokens.tolist() == list(TOKENS)
    assert meta.qid.tolist() == [1, 1, 2]
    assert meta.docid.tolist() == ["11", "12", "21"]
    assert meta.label.tolist() == [2, 0, 1]
    assert meta.length[0].tolist() == [5, 50, 55]
    assert meta.unique_length[2].tolist() == [6, 70, 75]
    assert len(meta.entry_row) == 4 + 4 + 1  # every (row, query term)
    assert meta.qtf[:4].tolist() == [2, 1, 2, 1]  # "heart" twice in query 1
    assert meta.tf[meta.entry_row == 2, 2].tolist() == [7]


def test_read_meta_subset_and_missing(tmp_path):
    folder = write_meta(tmp_path)
    assert lf.read_meta(folder, qids=[2]).docid.tolist() == ["21"]
    with pytest.raises(BoostrankError, match="qid"):
        lf.read_meta(folder, qids=[7])


def test_classic_features_by_hand(meta):
    X = lf.compute_features(meta)
    x = X[_row(meta, "11"), :15]  # title: |d| = 5, tf heart 1 (twice in q), attack 1, zzz 0
    log = math.log
    idf_h, idf_a = log(N_DOCS / 50), log(N_DOCS / 20)
    expected = [
        3,
        3 * log(2),
        3 / 5,
        3 * log(1 + 1 / 5),
        2 * idf_h + idf_a,  # zzz (df = 0) adds nothing
        2 * log(idf_h) + log(idf_a),
        2 * log(N_DOCS / 55 + 1) + log(N_DOCS / 20 + 1),
        2 * log(0.2 * idf_h + 1) + log(0.2 * idf_a + 1),
        2 * idf_h + idf_a,
        2 * log(0.2 * N_DOCS / 55 + 1) + log(0.2 * N_DOCS / 20 + 1),
    ]
    assert x[:10] == pytest.approx(expected, rel=1e-12)
    # Abstract of doc 11: tf 3, 0, 3, 0 over |d| = 50.
    a = X[_row(meta, "11"), 15:30]
    assert a[0] == 6 and a[2] == pytest.approx(6 / 50)
    assert a[8] == pytest.approx(6 * log(N_DOCS / 200))
    # Features 5-7 are sums over all query terms: the same for every document of the query.
    assert X[_row(meta, "12"), [4, 5, 6]] == pytest.approx(X[_row(meta, "11"), [4, 5, 6]])


def test_bm25_by_hand(meta):
    X = lf.compute_features(meta)
    log = math.log
    avgdl = TOKENS[0] / N_DOCS  # 8
    k1, b, k3 = 1.2, 0.75, 7.0
    norm = k1 * (1 - b + b * 5 / avgdl)
    sat = 1 * (k1 + 1) / (1 + norm)
    heart = log((N_DOCS - 50 + 0.5) / (50 + 0.5)) * sat * (k3 + 1) * 2 / (k3 + 2)  # qtf = 2
    attack = log((N_DOCS - 20 + 0.5) / (20 + 0.5)) * sat
    x = X[_row(meta, "11")]
    assert x[10] == pytest.approx(heart + attack, rel=1e-12)
    assert x[11] == pytest.approx(log(heart + attack), rel=1e-12)
    # Query 2, title + abstract: one term, tf 7, |d| = 106, avgdl 68.
    norm = k1 * (1 - b + b * 106 / 68)
    single = log((N_DOCS - 120 + 0.5) / 120.5) * 7 * (k1 + 1) / (7 + norm)
    assert X[_row(meta, "21"), 40] == pytest.approx(single, rel=1e-12)


def test_language_models_by_hand(meta):
    X = lf.compute_features(meta)
    log = math.log
    x = X[_row(meta, "11")]
    pc_h, pc_a = 55 / TOKENS[0], 20 / TOKENS[0]  # title; zzz (c(w, C) = 0) is skipped
    dirichlet = 2 * log((1 + 50 * pc_h) / (5 + 50)) + log((1 + 50 * pc_a) / (5 + 50))
    jm = 2 * log(0.5 * 1 / 5 + 0.5 * pc_h) + log(0.5 * 1 / 5 + 0.5 * pc_a)
    absd = 2 * log(0.5 / 5 + 0.5 * 5 / 5 * pc_h) + log(0.5 / 5 + 0.5 * 5 / 5 * pc_a)
    assert x[12:15] == pytest.approx([dirichlet, jm, absd], rel=1e-12)
    # Abstract of doc 11: attack has tf 0, so only the collection model is left for it.
    pa_h, pa_a = 300 / TOKENS[1], 100 / TOKENS[1]
    dirichlet = 2 * log((3 + 50 * pa_h) / 100) + log(50 * pa_a / 100)
    absd = 2 * log(2.5 / 50 + 0.5 * 40 / 50 * pa_h) + log(0.5 * 40 / 50 * pa_a)
    assert X[_row(meta, "11"), [27, 29]] == pytest.approx([dirichlet, absd], rel=1e-12)


def test_null_when_no_query_term_in_the_stream(meta):
    X = lf.compute_features(meta)
    x = X[_row(meta, "12")]  # no query term anywhere; empty abstract
    for stream in range(3):
        block = x[15 * stream : 15 * stream + 15]
        assert np.isnan(block[10:]).all()  # BM25, log BM25, LMIR.*
        assert not np.isnan(block[:10]).any()
        assert block[[0, 1, 2, 3, 7, 8, 9]].tolist() == [0] * 7
    assert not np.isnan(X[_row(meta, "11")]).any()


def test_fill_like_feature_min():
    qid = np.array([1, 1, 1, 2])
    X = np.zeros((4, lf.N_FEATURES))
    X[:, 10] = [np.nan, 3.0, 5.0, np.nan]  # BM25: NULL -> 0
    X[:, 11] = [np.nan, -0.5, 0.2, 1.0]  # log BM25: NULL -> 0 even below the minimum
    X[:, 12] = [np.nan, -30.0, -20.0, np.nan]  # LMIR.DIR: NULL -> query minimum; none -> 0
    out = lf.fill_null_like_feature_min(X, qid)
    assert out[:, 10].tolist() == [0, 3, 5, 0]
    assert out[:, 11].tolist() == [0, -0.5, 0.2, 1.0]
    assert out[:, 12].tolist() == [-30, -30, -20, 0]
    assert not np.isnan(out).any()


def test_query_level_normalisation_edge_cases():
    qid = np.array([5, 5, 5, 9])
    X = np.array([[2.0, 7.0, -3.0], [4.0, 7.0, -1.0], [3.0, 7.0, -3.0], [1.0, 1.0, 1.0]])
    out = lf.query_level_normalise(X, qid)
    assert out[:, 0].tolist() == [0, 1, 0.5, 0]  # (x - min) / (max - min); one-row query -> 0
    assert out[:, 1].tolist() == [0, 0, 0, 0]  # constant within the query -> 0
    assert out[:, 2].tolist() == [0, 1, 0, 0]
    # A NULL LMIR value is first filled with the query minimum (Feature-min), so it normalises to
    # 0, as in the distributed QueryLevelNorm files.
    raw = np.zeros((3, lf.N_FEATURES))
    raw[:, 13] = [np.nan, -40.0, -35.0]
    normed = lf.query_level_normalise(lf.fill_null_like_feature_min(raw, qid[:3]), qid[:3])
    assert normed[:, 13].tolist() == [0, 0, 1]


def test_align_rows():
    index = lf.align_rows(
        np.array([2, 1, 1]),
        np.array(["a", "b", "a"]),
        np.array([1, 1, 2]),
        np.array(["a", "b", "a"]),
    )
    assert index.tolist() == [2, 1, 0]
    with pytest.raises(BoostrankError, match="missing"):
        lf.align_rows(np.array([3]), np.array(["a"]), np.array([1]), np.array(["a"]))
    with pytest.raises(BoostrankError, match="more than once"):
        lf.align_rows(np.array([1]), np.array(["a"]), np.array([1, 1]), np.array(["a", "a"]))


def _letor_line(label: int, qid: int, values: np.ndarray, docid: str) -> str:
    cells = " ".join(
        f"{j}:{'NULL' if np.isnan(v) else f'{v:.6f}'}" for j, v in enumerate(values, 1)
    )
    return f"{label} qid:{qid} {cells} #docid = {docid} inc = 1 prob = 0.5\n"


def test_read_letor_float64_keeps_precision_and_null(tmp_path):
    path = tmp_path / "f.txt"
    values = np.full(lf.N_FEATURES, 123456.654321)
    values[3] = np.nan
    path.write_text(_letor_line(2, 7, values, "99") + _letor_line(0, 7, values * 0, "98"))
    rows = lf.read_letor_float64(path)
    assert rows.X[0, 0] == 123456.654321 and np.isnan(rows.X[0, 3])
    assert rows.qid.tolist() == [7, 7] and rows.docid.tolist() == ["99", "98"]
    assert rows.y.tolist() == [2, 0]


def _raw_dir(tmp_path: Path, kind: str = "mirror") -> Path:
    raw = tmp_path / "raw"
    raw.mkdir()
    Provenance("ohsumed", kind, "here", {}, {"short_location": "fixture"}).save(
        raw / "provenance.json"
    )
    return raw


def _distributed(raw: Path, meta: lf.LetorMeta, order: np.ndarray, tmp_path: Path):
    """Feature-min / Feature-null / processed npz as LETOR would print them (6 decimals)."""
    X = lf.compute_features(meta)
    filled = lf.fill_null_like_feature_min(X, meta.qid)
    for folder, values in (("Feature-null", X), ("Feature-min", filled)):
        path = raw / folder / "ALL" / "OHSUMED.txt"
        path.parent.mkdir(parents=True)
        path.write_text(
            "".join(
                _letor_line(int(meta.label[i]), int(meta.qid[i]), values[i], str(meta.docid[i]))
                for i in range(len(meta.qid))
            )
        )
    qln = np.round(lf.query_level_normalise(np.round(filled, 6), meta.qid), 6)
    arrays = {
        "X": qln[order].astype(np.float32),
        "y": meta.label[order],
        "qid": meta.qid[order],
        "part": np.array([3, 1, 1], dtype=np.int8)[order],
        "docid": meta.docid[order],
    }
    save_npz(tmp_path / "ohsumed.npz", **arrays)
    write_json(tmp_path / "ohsumed.json", {"dataset": "ohsumed", "stats": {"folds": "official"}})
    return arrays


def _rebuild(raw: Path, tmp_path: Path) -> pd.DataFrame:
    """The LETOR 3.0 feature table's job as a rule runs it (``boostrank job
    datasets.letor3_features``, its parameters as JSON): rebuild and check, then write the
    features, their table and its summary."""
    out = tmp_path / "out"
    spec = Letor3FeaturesSpec(raw_dir=str(raw), npz=str(tmp_path / "ohsumed.npz"),
                        meta=str(tmp_path / "ohsumed.json"), out_npz=str(out / "r.npz"),
                        out_meta=str(out / "r.json"), table_prefix=str(out / "table"),
                        summary=str(out / "summary.csv"))  # fmt: skip
    return job.run("datasets.letor3_features", spec.to_json())


def test_rebuild_writes_the_processed_layout_and_verifies(tmp_path):
    raw = _raw_dir(tmp_path)
    write_meta(raw)
    meta = lf.read_meta(raw / "Meta")
    order = np.array([2, 0, 1])  # the processed file's row order differs from Meta's
    arrays = _distributed(raw, meta, order, tmp_path)
    table = _rebuild(raw, tmp_path)
    assert len(table) == lf.N_FEATURES and set(table["verdict"]) == {"agrees"}
    assert (table["null_mismatches"] == 0).all()
    out = dict(np.load(tmp_path / "out" / "r.npz"))
    assert sorted(out) == sorted(arrays)
    for key in ("y", "qid", "part", "docid"):
        assert out[key].dtype == arrays[key].dtype and (out[key] == arrays[key]).all()
    assert out["X"].dtype == np.float32 and out["X"].shape == arrays["X"].shape
    assert np.abs(out["X"] - arrays["X"]).max() < 2e-6
    sidecar = read_json(tmp_path / "out" / "r.json")
    assert sidecar["dataset"] == "ohsumed_rebuilt" and sidecar["features"]["source"] == "rebuilt"
    assert sidecar["stats"]["rows"] == 3 and sidecar["stats"]["queries"] == 2
    assert sidecar["provenance_line"].endswith("features rebuilt from Meta/")
    summary = pd.read_csv(tmp_path / "out" / "summary.csv").set_index("quantity")
    assert summary.loc["features_agree", "value"] == lf.N_FEATURES
    csv = pd.read_csv(tmp_path / "out" / "table.csv")
    assert {"data_kind", "provenance", "verdict", "note"} <= set(csv.columns)
    assert (csv["data_kind"] == "mirror").all()
    assert (tmp_path / "out" / "table.md").exists() and (tmp_path / "out" / "table.tex").exists()


def test_rebuild_flags_a_changed_feature(tmp_path):
    raw = _raw_dir(tmp_path)
    write_meta(raw)
    meta = lf.read_meta(raw / "Meta")
    _distributed(raw, meta, np.arange(3), tmp_path)
    path = raw / "Feature-min" / "ALL" / "OHSUMED.txt"
    path.write_text(path.read_text().replace(" 1:3.000000 ", " 1:9.000000 "))
    table = _rebuild(raw, tmp_path).set_index("feature")
    assert table.loc[1, "verdict"] != "agrees"
    assert table.loc[1, "max_abs_diff_feature_min"] == pytest.approx(6.0)


def test_rebuild_passes_a_synthetic_stand_in_through(tmp_path):
    raw = _raw_dir(tmp_path, kind="synthetic")
    arrays = {
        "X": np.ones((2, lf.N_FEATURES), np.float32),
        "y": np.array([0, 1], np.int8),
        "qid": np.array([1, 1], np.int32),
        "part": np.array([1, 1], np.int8),
        "docid": np.array(["", ""]),
    }
    save_npz(tmp_path / "ohsumed.npz", **arrays)
    write_json(tmp_path / "ohsumed.json", {"dataset": "ohsumed", "stats": {}})
    table = _rebuild(raw, tmp_path)
    assert set(table["verdict"]) == {"n/a"}
    out = dict(np.load(tmp_path / "out" / "r.npz"))
    assert (out["X"] == arrays["X"]).all()
    assert read_json(tmp_path / "out" / "r.json")["features"]["source"] == "distributed"
    summary = pd.read_csv(tmp_path / "out" / "summary.csv", keep_default_na=False)
    assert (summary["data_kind"] == "synthetic").all()
    assert summary.set_index("quantity").loc["features_agree", "value"] == ""


# --------------------------------------------------------------------------- the real files

_MIRROR = os.environ.get("BOOSTRANK_DATA_MIRROR") or str(ROOT.parent / "shared" / "data")
_OHSUMED = Path(_MIRROR) / "letor3_ohsumed"


@pytest.mark.skipif(not (_OHSUMED / "Meta").is_dir(), reason="no data mirror with OHSUMED Meta/")
def test_real_meta_reproduces_feature_min(tmp_path):
    # Query 1, plus 22 and 67 whose queries repeat words (BM25's qtf).
    qids = [1, 22, 67]
    meta = lf.read_meta(_OHSUMED / "Meta", qids=qids)
    wanted = tuple(f"qid:{q} " for q in qids)
    source = _OHSUMED / "Feature-min" / "ALL" / "OHSUMED.txt"
    with gzip.open(source.with_name(source.name + ".gz"), "rt") as handle:
        lines = [line for line in handle if line.split(" ", 2)[1] + " " in wanted]
    (tmp_path / "min.txt").write_text("".join(lines))
    ref = lf.read_letor_float64(tmp_path / "min.txt")
    filled = lf.fill_null_like_feature_min(lf.compute_features(meta), meta.qid)
    expected = ref.X[lf.align_rows(meta.qid, meta.docid, ref.qid, ref.docid)]
    assert len(meta.qid) == len(ref.qid)
    bm25 = [10, 40]  # BM25 of title and of title + abstract: relative agreement only
    others = [j for j in range(lf.N_FEATURES) if j not in bm25]
    assert np.abs(filled[:, others] - expected[:, others]).max() <= AGREE_TOL
    rel = np.abs(filled[:, bm25] - expected[:, bm25]) / np.maximum(expected[:, bm25], 1e-9)
    assert rel[expected[:, bm25] > 0].max() < 2e-6
