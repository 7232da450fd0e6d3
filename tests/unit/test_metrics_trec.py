"""NDCG@k, P@k and MAP cross-checked against trec_eval (pytrec_eval) and by hand, and the TREC run
and qrels files of Figure 3.1 (Valizadegan 2010, chapter 3).

trec_eval's ``ndcg_cut.k`` uses the qrels' relevance values as gains and discounts rank p by
``1/log2(1 + p)``: with the gains ``2^r - 1`` in the qrels it is this package's ``report``
formula. trec_eval sorts a run by score and then by docid *descending*; the runs below either
have no ties or docids chosen so that the two orders agree.
"""

import math

import numpy as np
import pytest

from boostrank.errors import BoostrankError
from boostrank.metrics.ranking import (
    average_precision,
    ndcg_at_k,
    ndcg_curve,
    precision_at_k,
)
from boostrank.metrics.trec import (
    evaluate_run,
    ranked_order,
    read_qrels,
    read_run,
    write_qrels,
    write_run,
)

pytrec_eval = pytest.importorskip("pytrec_eval")
MEASURES = {"ndcg_cut.1,3,5,10", "P.5,10", "map"}


def _random_queries(seed: int, n_queries: int = 40, ties: bool = False):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 30, size=n_queries)
    qid = np.repeat(rng.permutation(n_queries) + 1, sizes)
    y = rng.choice(3, size=len(qid), p=[0.6, 0.25, 0.15])
    scores = np.round(rng.normal(size=len(qid)), 1) if ties else rng.normal(size=len(qid))
    return y, scores, qid


def _trec(y, scores, qid, docid, gains=True):
    """pytrec_eval's per-query results, qrels relevance = 2^r - 1 (or r)."""
    qrels, run = {}, {}
    for q, d, r, s in zip(qid, docid, y, scores, strict=True):
        qrels.setdefault(str(q), {})[d] = int(2**r - 1) if gains else int(r)
        run.setdefault(str(q), {})[d] = float(s)
    return pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)


def _ours(values, qid):
    return dict(zip(np.unique(qid).astype(str), values, strict=True))


def test_report_formula_precision_and_map_agree_with_trec_eval_on_random_rankings():
    y, scores, qid = _random_queries(7)
    docid = np.array([f"d{i:05d}" for i in range(len(y))])
    ref = _trec(y, scores, qid, docid)
    for k in (1, 3, 5, 10):
        ours = _ours(ndcg_at_k(y, scores, qid, k, formula="report"), qid)
        for q, value in ours.items():
            assert value == pytest.approx(ref[q][f"ndcg_cut_{k}"], abs=1e-12), (q, k)
    for k in (5, 10):
        ours = _ours(precision_at_k(y, scores, qid, k), qid)
        assert all(v == pytest.approx(ref[q][f"P_{k}"]) for q, v in ours.items())
    ours = _ours(average_precision(y, scores, qid), qid)
    assert all(v == pytest.approx(ref[q]["map"]) for q, v in ours.items())


def test_ties_agree_with_trec_eval_when_docids_descend_in_file_order():
    # trec_eval breaks score ties by docid descending; LETOR by file order. Docids that
    # descend along the file make the two the same ranking.
    y, scores, qid = _random_queries(11, ties=True)
    assert len(np.unique(scores)) < len(scores) / 2  # plenty of ties
    docid = np.array([f"d{len(y) - i:05d}" for i in range(len(y))])
    ref = _trec(y, scores, qid, docid)
    for k in (1, 3, 5, 10):
        ours = _ours(ndcg_at_k(y, scores, qid, k, formula="report"), qid)
        assert all(v == pytest.approx(ref[q][f"ndcg_cut_{k}"]) for q, v in ours.items())
    ours = _ours(average_precision(y, scores, qid), qid)
    assert all(v == pytest.approx(ref[q]["map"]) for q, v in ours.items())


def test_worked_example_with_trec_eval_and_by_hand():
    # Sengupta (2018): grades (3,3,2,2,1,1,1) ranked as (2,3,2,3,1,1,1): 0.43, 0.65, 0.69.
    y = np.array([2, 3, 2, 3, 1, 1, 1])
    scores, qid = -np.arange(7.0), np.zeros(7, dtype=int)
    docid = np.array([f"d{i}" for i in range(7)])
    ref = pytrec_eval.RelevanceEvaluator(
        {"0": {d: int(2**r - 1) for d, r in zip(docid, y, strict=True)}}, {"ndcg_cut.1,2,3"}
    ).evaluate({"0": {d: float(s) for d, s in zip(docid, scores, strict=True)}})["0"]
    ours = [ndcg_at_k(y, scores, qid, k, formula="report")[0] for k in (1, 2, 3)]
    assert [round(v, 2) for v in ours] == [0.43, 0.65, 0.69]
    assert ours == pytest.approx([ref["ndcg_cut_1"], ref["ndcg_cut_2"], ref["ndcg_cut_3"]])
    by_hand = (3 + 7 / math.log2(3) + 3 / 2) / (7 + 7 / math.log2(3) + 3 / 2)
    assert ours[2] == pytest.approx(by_hand)


def test_queries_without_relevant_documents_score_zero_in_both_and_in_the_mean():
    y = np.array([0, 0, 0, 2, 0, 1])
    qid = np.array([1, 1, 1, 2, 2, 2])
    scores = np.array([0.3, 0.2, 0.1, 0.9, 0.5, 0.1])
    docid = np.array([f"d{i}" for i in range(6)])
    ref = _trec(y, scores, qid, docid)
    assert ref["1"]["ndcg_cut_3"] == 0.0 and ref["1"]["map"] == 0.0
    for formula in ("letor", "report"):
        per_query = ndcg_at_k(y, scores, qid, 3, formula=formula)
        assert per_query[0] == 0.0 and per_query[1] > 0
        assert ndcg_curve(y, scores, qid, 10, formula=formula)[0].tolist() == [0.0] * 10
    assert average_precision(y, scores, qid)[0] == 0.0


def test_ndcg_curve_equals_ndcg_at_every_cutoff():
    y, scores, qid = _random_queries(5, ties=True)
    for formula in ("letor", "report"):
        curve = ndcg_curve(y, scores, qid, 12, formula=formula)
        assert curve.shape == (len(np.unique(qid)), 12)
        for k in range(1, 13):
            assert curve[:, k - 1] == pytest.approx(ndcg_at_k(y, scores, qid, k, formula=formula))
    # every query shorter than k_max
    short = ndcg_curve(np.array([1, 0]), np.array([0.0, 1.0]), np.zeros(2), 4, formula="report")
    assert short[0].tolist() == pytest.approx([0.0, 1 / math.log2(3)] + [1 / math.log2(3)] * 2)


def test_letor_and_report_formulas_agree_at_one_and_differ_after():
    y, scores, qid = _random_queries(9)
    letor = ndcg_curve(y, scores, qid, 10, formula="letor")
    report = ndcg_curve(y, scores, qid, 10, formula="report")
    long_enough = np.bincount(np.searchsorted(np.unique(qid), qid)) >= 1
    assert letor[long_enough, 0] == pytest.approx(report[long_enough, 0])
    assert not np.allclose(letor[:, 2], report[:, 2])


# --------------------------------------------------------------------------- run files
def test_ranked_order_breaks_ties_by_original_order():
    qid = np.array(["2", "1", "2", "1", "2"])
    scores = np.array([0.5, 0.1, 0.5, 0.9, 0.7])
    order, rank = ranked_order(qid, scores)
    assert order.tolist() == [3, 1, 4, 0, 2]
    assert rank.tolist() == [1, 2, 1, 2, 3]


def test_run_and_qrels_round_trip(tmp_path):
    y, scores, qid = _random_queries(3, n_queries=6, ties=True)
    docid = np.array([f"doc-{i}" for i in range(len(y))])
    write_run(tmp_path / "a.run", qid, docid, scores, "tag1")
    write_qrels(tmp_path / "a.qrels", qid, docid, y)
    run, qrels = read_run(tmp_path / "a.run"), read_qrels(tmp_path / "a.qrels")
    assert run.tag == "tag1" and len(run.qid) == len(y) == len(qrels.qid)
    first = (tmp_path / "a.run").read_text().splitlines()[0].split()
    assert first[1] == "Q0" and first[3] == "1"
    # scores survive exactly, and the ranking is by descending score, ties in file order
    back = {(q, d): s for q, d, s in zip(run.qid, run.docid, run.score, strict=True)}
    assert all(back[(str(q), d)] == s for q, d, s in zip(qid, docid, scores, strict=True))
    queries, curve = evaluate_run(run, qrels, 10, formula="letor")
    assert curve == pytest.approx(ndcg_curve(y, scores, qid, 10))  # numeric query order
    assert list(queries) == [str(q) for q in sorted(set(qid))]


def test_pipeline_ndcg_from_a_run_file_agrees_with_trec_eval(tmp_path):
    y, scores, qid = _random_queries(21, ties=True)
    docid = np.array([f"D{i}" for i in range(len(y))])
    write_run(tmp_path / "x.run", qid, docid, scores, "t")
    write_qrels(tmp_path / "x.qrels", qid, docid, y)
    run, qrels = read_run(tmp_path / "x.run"), read_qrels(tmp_path / "x.qrels")
    queries, curve = evaluate_run(run, qrels, 10, formula="report")
    # trec_eval on the same files: gains 2^r - 1, the run's order given by its rank column
    gains = {}
    for q, d, r in zip(qrels.qid, qrels.docid, qrels.rel, strict=True):
        gains.setdefault(q, {})[d] = int(2**r - 1)
    by_rank = {}
    for q, d, r in zip(run.qid, run.docid, run.rank, strict=True):
        by_rank.setdefault(q, {})[d] = float(-r)
    ref = pytrec_eval.RelevanceEvaluator(gains, MEASURES).evaluate(by_rank)
    for i, q in enumerate(queries):
        for k in (1, 3, 5, 10):
            assert curve[i, k - 1] == pytest.approx(ref[q][f"ndcg_cut_{k}"], abs=1e-12)


def test_a_run_that_misses_or_adds_documents_is_refused(tmp_path):
    qid, docid = np.array([1, 1, 2]), np.array(["a", "b", "c"])
    write_qrels(tmp_path / "q", qid, docid, np.array([1, 0, 1]))
    write_run(tmp_path / "short", qid[:2], docid[:2], np.array([1.0, 0.0]), "t")
    write_run(tmp_path / "alien", qid, np.array(["a", "b", "z"]), np.zeros(3), "t")
    qrels = read_qrels(tmp_path / "q")
    with pytest.raises(BoostrankError, match="qrels judge 3"):
        evaluate_run(read_run(tmp_path / "short"), qrels, 3)
    with pytest.raises(BoostrankError, match="unjudged document"):
        evaluate_run(read_run(tmp_path / "alien"), qrels, 3)
    with pytest.raises(BoostrankError, match="without spaces"):
        write_run(tmp_path / "bad", qid, np.array(["a b", "c", "d"]), np.zeros(3), "t")


def test_random_tie_break_shuffles_equal_scores_only():
    from boostrank.metrics.trec import Run, random_tie_break, tied_share

    qid = np.array(["1"] * 6 + ["2"] * 2)
    score = np.array([3.0, 1.0, 1.0, 1.0, 0.5, 2.0, 1.0, 1.0])
    run = Run(qid, np.array(list("abcdefgh")), np.arange(1, 9), score, "t")
    seen = set()
    for seed in range(30):
        ranked = random_tie_break(run, seed)
        r = dict(zip(run.docid, ranked.rank, strict=True))
        assert (r["a"], r["f"], r["e"]) == (1, 2, 6)  # distinct scores keep their places
        assert sorted([r["b"], r["c"], r["d"]]) == [3, 4, 5]
        seen.add((r["b"], r["c"], r["d"]))
        np.testing.assert_array_equal(ranked.rank, random_tie_break(run, seed).rank)
    assert len(seen) == 6  # every order of the three tied documents occurs
    assert tied_share(run) == 5 / 8


@pytest.mark.e2e
def test_every_run_file_of_a_run_rescored_by_ranx_agrees(tiny_reference):
    """A second, independent evaluator (ranx, numba) re-scores every TREC run of the tiny run
    of Figure 3.1: NDCG@k in the trec form (gains 2^r - 1, discount log2(1 + p): ranx's
    ``ndcg_burges``) and AP agree with the pipeline's to 1e-9, query by query."""
    ranx = pytest.importorskip("ranx")
    from boostrank.metrics.trec import _query_key, run_labels

    paths = sorted((tiny_reference / "results/runs/thesis-fig3_1").glob("*/*/r*/fold*.run"))
    assert len(paths) >= 8, paths  # every algorithm of Figure 3.1
    ks = (1, 3, 5, 10)
    for path in paths:
        run, qrels = read_run(path), read_qrels(path.parents[2] / f"{path.stem}.qrels")
        qids, curve = evaluate_run(run, qrels, max(ks), formula="report")
        ap = average_precision(run_labels(run, qrels), -run.rank.astype(float), _query_key(run.qid))
        judged: dict[str, dict[str, int]] = {}
        for q, d, r in zip(qrels.qid, qrels.docid, qrels.rel, strict=True):
            judged.setdefault(str(q), {})[str(d)] = int(r)
        ranked: dict[str, dict[str, float]] = {}
        for q, d, rank in zip(run.qid, run.docid, run.rank, strict=True):
            ranked.setdefault(str(q), {})[str(d)] = 1.0 / rank  # the run's own order
        other = ranx.Run(ranked)
        metrics = [f"ndcg_burges@{k}" for k in ks] + ["map"]
        ranx.evaluate(ranx.Qrels(judged), other, metrics, make_comparable=True)
        for k in ks:
            theirs = [other.scores[f"ndcg_burges@{k}"][q] for q in qids]
            np.testing.assert_allclose(theirs, curve[:, k - 1], rtol=0, atol=1e-9, err_msg=path)
        theirs = [other.scores["map"][q] for q in qids]
        np.testing.assert_allclose(theirs, ap, rtol=0, atol=1e-9, err_msg=str(path))
