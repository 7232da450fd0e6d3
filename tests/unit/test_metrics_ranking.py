"""NDCG@k, P@k and MAP: hand-computed values, the report's worked example, and LETOR 4.0's
Eval-Score-4.0.pl transcribed line by line as the reference on random data."""

import math

import numpy as np
import pytest

from boostrank.errors import BoostrankError
from boostrank.metrics.ranking import (
    average_precision,
    mean_average_precision,
    mean_ndcg,
    ndcg_at_k,
    precision_at_k,
)


def _eval_score_4(labels_by_query, scores_by_query, k):
    """Eval-Score-4.0.pl per query: (NDCG@1..k, P@1..k, AP), undefined NDCG entries as 0."""
    out = []
    for labels, scores in zip(labels_by_query, scores_by_query, strict=True):
        order = sorted(range(len(labels)), key=lambda d: -scores[d])  # stable, like Perl's sort
        rates = [labels[d] for d in order]

        def dcg(rates, top_n):
            gains = [2**r - 1 for r in rates] + [0] * max(0, top_n - len(rates))
            values = [gains[0]]
            for pos in range(1, top_n):
                disc = 1.0 if pos < 2 else math.log(2.0) / math.log(pos + 1.0)
                values.append(values[-1] + gains[pos] * disc)
            return values

        n = len(rates)
        d, best = dcg(rates, n), dcg(sorted(rates, reverse=True), n)
        ndcg = [d[p] / best[p] if best[p] != 0 else 0.0 for p in range(n)]
        ndcg = (ndcg + [0.0] * k)[:k]  # the script's undefined entries add 0 to the mean
        rel = [1 if r >= 1 else 0 for r in rates] + [0] * k
        prec = [sum(rel[: p + 1]) / (p + 1) for p in range(k)]
        hits, ap = 0, 0.0
        for pos, r in enumerate(rates):
            if r >= 1:
                hits += 1
                ap += hits / (pos + 1)
        out.append((ndcg, prec, ap / hits if hits else 0.0))
    return out


def test_reports_worked_example_uses_the_report_formula():
    # Sengupta (2018), "Information Retrieval measures": ideal (3,3,2,2,1,1,1), ranked
    # (2,3,2,3,1,1,1): NDCG 0.43, 0.65, 0.69 at positions 1..3 (gain 2^r-1, 1/log2(1+p)).
    y = np.array([2, 3, 2, 3, 1, 1, 1])
    scores, qid = -np.arange(7.0), np.zeros(7)
    got = [ndcg_at_k(y, scores, qid, k, formula="report")[0] for k in (1, 2, 3)]
    assert [round(v, 2) for v in got] == [0.43, 0.65, 0.69]
    assert got[1] == pytest.approx(7.41 / 11.41, abs=1e-3)
    # LETOR's script discounts positions 1 and 2 alike: DCG 3, 10, 10 + 3/log2(3).
    letor = [ndcg_at_k(y, scores, qid, k)[0] for k in (1, 2, 3)]
    assert letor == pytest.approx(
        [3 / 7, 10 / 14, (10 + 3 / math.log2(3)) / (14 + 3 / math.log2(3))]
    )


def test_hand_computed_ndcg_precision_and_ap():
    y = np.array([0, 1, 2, 0])
    scores = np.array([0.9, 0.8, 0.1, 0.5])  # ranked labels 0, 1, 0, 2
    qid = np.ones(4)
    dcg = 0 + 1 + 0 + 3 / math.log2(4)
    ideal = 3 + 1 + 0 + 0
    assert ndcg_at_k(y, scores, qid, 4)[0] == pytest.approx(dcg / ideal)
    report = (1 / math.log2(3) + 3 / math.log2(5)) / (3 + 1 / math.log2(3))
    assert ndcg_at_k(y, scores, qid, 4, formula="report")[0] == pytest.approx(report)
    assert precision_at_k(y, scores, qid, 2)[0] == 0.5
    assert average_precision(y, scores, qid)[0] == pytest.approx((1 / 2 + 2 / 4) / 2)


def test_ties_keep_the_original_document_order():
    y = np.array([0, 2, 1])
    flat = np.zeros(3)  # all tied: ranked as given, labels 0, 2, 1
    assert ndcg_at_k(y, flat, np.zeros(3), 3)[0] == pytest.approx(
        (3 + 1 / math.log2(3)) / (3 + 1 + 0)
    )
    # The same documents in another file order rank differently under the same tie.
    assert ndcg_at_k(y[::-1], flat, np.zeros(3), 1)[0] == pytest.approx(1 / 3)


def test_query_without_relevant_documents_scores_zero_and_stays_in_the_mean():
    y = np.array([0, 0, 0, 1, 0])
    qid = np.array([1, 1, 1, 2, 2])
    scores = np.array([0.1, 0.2, 0.3, 0.9, 0.1])
    per_query = ndcg_at_k(y, scores, qid, 1)
    assert list(per_query) == [0.0, 1.0]
    assert mean_ndcg(y, scores, qid, 1) == 0.5
    assert list(precision_at_k(y, scores, qid, 1)) == [0.0, 1.0]
    assert mean_average_precision(y, scores, qid) == 0.5


def test_short_queries_score_zero_at_cutoffs_beyond_their_length_in_letor_only():
    y, scores, qid = np.array([1, 0]), np.array([1.0, 0.0]), np.zeros(2)
    assert ndcg_at_k(y, scores, qid, 2)[0] == 1.0
    assert ndcg_at_k(y, scores, qid, 3)[0] == 0.0  # Eval-Score-4.0.pl: position 3 undefined
    assert ndcg_at_k(y, scores, qid, 10, formula="report")[0] == 1.0  # top min(k, n)
    assert precision_at_k(y, scores, qid, 10)[0] == 0.1  # holes count as irrelevant


def test_agrees_with_eval_score_4_on_random_queries():
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 25, size=60)
    qid = np.repeat(rng.permutation(60) + 100, sizes)  # query ids not sorted
    y = rng.choice(3, size=len(qid), p=[0.7, 0.2, 0.1])
    scores = np.round(rng.normal(size=len(qid)), 1)  # many ties
    queries = np.unique(qid)
    labels_by_q = [list(y[qid == q]) for q in queries]
    scores_by_q = [list(scores[qid == q]) for q in queries]
    ref = _eval_score_4(labels_by_q, scores_by_q, 10)
    for k in (1, 3, 5, 10):
        assert ndcg_at_k(y, scores, qid, k) == pytest.approx([r[0][k - 1] for r in ref])
        assert precision_at_k(y, scores, qid, k) == pytest.approx([r[1][k - 1] for r in ref])
    assert average_precision(y, scores, qid) == pytest.approx([r[2] for r in ref])


def test_bad_inputs_are_refused():
    with pytest.raises(BoostrankError, match="one length"):
        ndcg_at_k(np.zeros(3), np.zeros(2), np.zeros(3), 1)
    with pytest.raises(BoostrankError, match="positive integer"):
        ndcg_at_k(np.zeros(3), np.zeros(3), np.zeros(3), 0)
    with pytest.raises(BoostrankError, match="NaN"):
        ndcg_at_k(np.zeros(2), np.array([np.nan, 1.0]), np.zeros(2), 1)
    with pytest.raises(BoostrankError, match="unknown NDCG formula"):
        ndcg_at_k(np.zeros(2), np.zeros(2), np.zeros(2), 1, formula="trec")
