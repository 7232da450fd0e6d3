"""Speed of chapter 4's ranking refinement (pytest-benchmark; `make bench`): MRR (50 iterations)
and LRR (50 rounds, all 100 gammas at once) on one query of a .Gov-sized list (n = 1000
documents, 64 features, 20 judged). Target: Figures 4.1-4.6 at the full protocol (575 such
queries per method family, 7 MRR runs and one 100-gamma LRR run each) within 20 minutes on 2
cores."""

import numpy as np
import pytest

from boostrank.ranking.lrr import LRR
from boostrank.ranking.mrr import MRR
from boostrank.ranking.refinement import feedback_pairs

N, D = 1000, 64


def _query():
    rng = np.random.default_rng(0)
    X = rng.random((N, D))
    y = (X[:, 0] + rng.random(N) > 1.6).astype(int)
    g = X[:, 1] + 0.5 * X[:, 0]
    o = np.argsort(-g, kind="stable")
    return X[o], g[o], feedback_pairs(y[o][:20]), np.arange(N) < 20


@pytest.mark.parametrize("method", ["mrr", "lrr"])
def test_query_refinement(benchmark, method):
    X, g, pairs, judged = _query()
    if method == "mrr":
        model = benchmark(lambda: MRR(50, random_state=0).fit(X, g, pairs, judged=judged))
    else:
        model = benchmark(lambda: LRR(n_iterations=50).fit(X, g, pairs, judged=judged))
    assert np.isfinite(model.train_scores_).all()
