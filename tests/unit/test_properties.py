"""Property-based tests (hypothesis):

- NDCG@k (trec form), P@k and MAP agree with trec_eval (pytrec_eval) on random rankings, ties
  and queries with no relevant document included;
- the LETOR, ARFF and IDX parsers, fed random byte mutations of valid files, either parse or
  raise the package's FormatError naming the file -- never anything else;
- rankers fitted twice with the same ``random_state`` / ``seed`` predict the same scores.
"""

from __future__ import annotations

import gzip
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boostrank.data import formats as F
from boostrank.metrics.ranking import average_precision, ndcg_at_k, precision_at_k

pytrec_eval = pytest.importorskip("pytrec_eval")
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rankings(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries of 1-12 documents, grades 0-2 (some queries all 0), scores on a coarse grid
    (many ties)."""
    sizes = draw(st.lists(st.integers(1, 12), min_size=1, max_size=6))
    qid = np.repeat(np.arange(1, len(sizes) + 1), sizes)
    y = np.array(draw(st.lists(st.integers(0, 2), min_size=len(qid), max_size=len(qid))))
    scores = np.array(draw(st.lists(st.integers(-3, 3), min_size=len(qid), max_size=len(qid))))
    return y, scores.astype(float), qid


@FAST
@given(rankings())
def test_metrics_agree_with_trec_eval(ranking):
    y, scores, qid = ranking
    # trec_eval breaks score ties by docid descending: docids descending along the file give
    # the file order this package uses
    docid = [f"d{len(y) - i:04d}" for i in range(len(y))]
    qrels, run = {}, {}
    for q, d, r, s in zip(qid, docid, y, scores, strict=True):
        qrels.setdefault(str(q), {})[d] = int(2**r - 1)
        run.setdefault(str(q), {})[d] = float(s)
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.1,3,5,10", "P.5", "map"}).evaluate(run)
    queries = [str(q) for q in np.unique(qid)]
    for k in (1, 3, 5, 10):
        ours = ndcg_at_k(y, scores, qid, k, formula="report")
        assert ours == pytest.approx([ref[q][f"ndcg_cut_{k}"] for q in queries], abs=1e-12)
    assert precision_at_k(y, scores, qid, 5) == pytest.approx([ref[q]["P_5"] for q in queries])
    assert average_precision(y, scores, qid) == pytest.approx([ref[q]["map"] for q in queries])


# --------------------------------------------------------------------------- parsers
LETOR = (
    b"2 qid:85 1:0.5 2:NULL 3:-1.25 #docid = 244338 inc = 0.04\n"
    b"0 qid:85 1:1 3:2.5 #docid = GX004-93-7097963\n"
    b"1 qid:7 2:3 #docid = 9\n"
)
ARFF = (
    b"@relation e\n@attribute a numeric\n@attribute b REAL\n@attribute l1 {0,1}\n"
    b"@attribute l2 {0,1}\n@data\n0.5,1.25,1,0\n-2,?,0,1\n"
)
XML = (
    b'<labels xmlns="http://mulan.sourceforge.net/labels">'
    b'<label name="l1"/><label name="l2"/></labels>'
)
IDX = struct.pack(">IIII", 2051, 2, 2, 2) + bytes(range(8))


def _mutate(data: bytes, edits: list[tuple[int, int]], cut: int | None) -> bytes:
    buf = bytearray(data)
    for position, value in edits:
        buf[position % len(buf)] = value
    return bytes(buf[:cut] if cut is not None else buf)


mutations = st.tuples(
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=4),
    st.one_of(st.none(), st.integers(0, 200)),
    st.booleans(),  # gzip the mutated bytes, or mutate the gzip stream itself
)


def _write(tmp: Path, name: str, data: bytes, mutation) -> Path:
    edits, cut, gz = mutation
    path = tmp / name
    if gz:
        Path(f"{path}.gz").write_bytes(_mutate(gzip.compress(data, mtime=0), edits, cut))
    else:
        path.write_bytes(_mutate(data, edits, cut))
    return path


def _parses_or_names_the_file(read, path: Path) -> None:
    try:
        read()
    except F.FormatError as exc:
        assert path.name in str(exc), str(exc)


@FAST
@given(mutation=mutations)
def test_letor_reader_on_damaged_bytes(tmp_path_factory, mutation):
    path = _write(tmp_path_factory.mktemp("letor"), "l.txt", LETOR, mutation)
    _parses_or_names_the_file(lambda: F.read_letor(path), path)


@FAST
@given(mutation=mutations)
def test_arff_reader_on_damaged_bytes(tmp_path_factory, mutation):
    tmp = tmp_path_factory.mktemp("arff")
    path = _write(tmp, "e.arff", ARFF, mutation)
    xml = tmp / "e.xml"
    xml.write_bytes(XML)
    _parses_or_names_the_file(lambda: F.read_arff_multilabel(path, xml), path)


@FAST
@given(mutation=mutations)
def test_idx_reader_on_damaged_bytes(tmp_path_factory, mutation):
    path = _write(tmp_path_factory.mktemp("idx"), "i.idx", IDX, mutation)
    _parses_or_names_the_file(lambda: F.read_idx(path), path)


# --------------------------------------------------------------------------- estimators
@st.composite
def letor_sets(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_q = draw(st.integers(2, 4))
    qid = np.repeat(np.arange(n_q), 8)
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    X = rng.normal(size=(len(qid), 4))
    y = (X[:, 0] + rng.normal(scale=0.5, size=len(qid)) > 0.3).astype(int)
    return X, y, qid


def _rankers():
    """Every learning-to-rank estimator that draws random numbers, small: ``fit(X, y, qid)``."""
    from boostrank.ranking.adarank import AdaRank
    from boostrank.ranking.frank import FRank
    from boostrank.ranking.lambdamart import LambdaMART
    from boostrank.ranking.listnet import ListNet
    from boostrank.ranking.ndcg_boost import NDCGBoost
    from boostrank.ranking.qbrank import QBRank
    from boostrank.ranking.ranknet import RankNet
    from boostrank.ranking.ranksvm import RankSVM
    from boostrank.ranking.svm_map import SVMMAP

    return [
        lambda s: NDCGBoost(n_iterations=5, random_state=s),
        lambda s: ListNet(n_epochs=5, random_state=s),
        lambda s: RankSVM(C=1.0, max_iter=50, random_state=s),
        lambda s: AdaRank(n_rounds=5, random_state=s),
        lambda s: FRank(n_rounds=3, random_state=s),
        lambda s: SVMMAP(C=1.0, C_grid=None, max_iter=20, random_state=s),
        lambda s: RankNet(1, 4, 3, random_state=s),
        lambda s: QBRank(5, max_leaf_nodes=4, random_state=s),
        lambda s: LambdaMART(5, min_data_in_leaf=2, random_state=s),
    ]


def _classifiers():
    """The semi-supervised boosting classifiers of Chapter 2: ``fit(X, y)``, -1 unlabelled."""
    from boostrank.boosting.assemble import Assemble
    from boostrank.boosting.mcssb import MCSSB

    return [
        lambda s: MCSSB(n_iterations=3, random_state=s),
        lambda s: Assemble(n_iterations=3, random_state=s),
    ]


@settings(max_examples=10, deadline=None)
@given(data=letor_sets(), seed=st.integers(0, 1000))
def test_every_estimator_is_deterministic_given_its_random_state(data, seed):
    X, y, qid = data
    for make in _rankers():
        first = make(seed).fit(X, y, qid).predict(X)
        again = make(seed).fit(X, y, qid).predict(X)
        np.testing.assert_array_equal(first, again)
    labels = np.where(np.arange(len(y)) % 3 == 0, y, -1)  # a third labelled
    for make in _classifiers():
        first = make(seed).fit(X, labels, n_classes=2).predict(X)
        again = make(seed).fit(X, labels, n_classes=2).predict(X)
        np.testing.assert_array_equal(first, again)
