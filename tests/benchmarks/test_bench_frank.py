"""Speed of FRank's rounds (pytest-benchmark; `make bench`), the Figure 3.1 baseline that ranks
most pairs: a training fold shaped like a small .Gov one (30 queries of 300 documents, 64
features, a few relevant per query: about 42k pairs), 20 rounds with the config's screening (8
candidates, 4 Newton steps). A round's floor is a few passes over the pairs: the fidelity loss
and its derivatives (one tanh and one sqrt per pair) at the round's start, then the same on the
pairs each screened candidate splits; the benchmark records the pairs per second."""

import numpy as np

from boostrank.ranking.frank import FRank

QUERIES, DOCS, D, ROUNDS = 30, 300, 64, 20


def _fold() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.random((QUERIES * DOCS, D))
    y = (X[:, 0] + 0.3 * rng.random(len(X)) > 1.2).astype(int)
    qid = np.repeat(np.arange(QUERIES), DOCS)
    return X, y, qid


def test_frank_rounds(benchmark, seconds):
    X, y, qid = _fold()

    def fit() -> FRank:
        return FRank(n_rounds=ROUNDS, metric="map").fit(X, y, qid)

    model = benchmark.pedantic(fit, rounds=3, iterations=1)
    assert model.rounds_trained_ >= 1
    benchmark.extra_info["pairs"] = model.n_pairs_
    benchmark.extra_info["pair_rounds_per_s"] = (
        model.n_pairs_ * model.rounds_trained_ / seconds("min")
    )
