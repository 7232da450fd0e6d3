"""Speed of the top-k boosters (pytest-benchmark; `make bench`): rounds per second of each of
the four boosters with N = 20 weak learners on Yeast's shape (m = 14, d = 103) and on
Mediamill's (m = 101, d = 120). Target: Table 1 and Figure 2 (about 1.6 million rounds, most of
them Mediamill's top-k passes) within 10 minutes on 2 cores."""

import numpy as np
import pytest

from boostrank.online.topk_boosting import AdaOLMR, OnlineBMR, TopkAdaptive, TopkBBM

ROUNDS = 1000
MAKERS = {"topopt": TopkBBM, "topada": TopkAdaptive, "fullopt": OnlineBMR, "fullada": AdaOLMR}


@pytest.mark.parametrize("m, d, card", [(14, 103, 4.2), (101, 120, 4.4)])
@pytest.mark.parametrize("name", sorted(MAKERS))
def test_rounds_per_second(benchmark, seconds, name, m, d, card):
    rng = np.random.default_rng(0)
    Y = (rng.random((ROUNDS, m)) < card / m).astype(np.int8)
    X = Y @ rng.normal(size=(m, d)) + rng.normal(size=(ROUNDS, d))

    def run():
        booster = MAKERS[name](d, m, n_learners=20, random_state=0)
        return booster.partial_fit(X, Y)

    shown = benchmark.pedantic(run, rounds=3)
    assert shown.shape == (ROUNDS, m)
    benchmark.extra_info["rounds_per_second"] = ROUNDS / seconds("mean")
