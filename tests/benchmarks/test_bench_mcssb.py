"""MCSSB's time per iteration against its FLOP count (pytest-benchmark; `make bench`).

One boosting iteration of MCSSB (Valizadegan 2010, Algorithm 3) is dominated by the pair terms
of Eq. 2.12 over the dense similarity S (N x N): Z = B B^T (2 N^2 m flops), S / Z and its
division by Z again (2 N^2), and (S / Z^2) B (2 N^2 m): about 4 N^2 m + 2 N^2 flops. At the
Isolet stand-in's training part (N = 1,560 of 7,797 rows, m = 26 classes) that is 0.26 GFLOP
per iteration, 13 GFLOP for T = 50. The benchmark times one iteration's pair terms in float32
(the config's dtype) and one whole iteration (softmax, pair terms, weights, tree, alpha), and
records the achieved GFLOP/s of the pair terms.
"""

import numpy as np
import pytest

from boostrank.boosting.mcssb import MCSSB, Similarity, softmax_and_inverse

N, M, D = 1560, 26, 617  # the Isolet stand-in's training part: rows, classes, features


def pair_term_flops(n: int, m: int) -> float:
    """4 N^2 m + 2 N^2: the two products with B and the two divisions by Z."""
    return 4.0 * n * n * m + 2.0 * n * n


@pytest.fixture(scope="module")
def problem() -> tuple[np.ndarray, np.ndarray, Similarity]:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N, D)).astype(np.float32)
    y = rng.integers(0, M, size=N)
    y[rng.random(N) > 0.02 * 5] = -1  # 10% labelled
    y[:M] = np.arange(M)  # every class labelled at least once
    sim = MCSSB(dtype="float32").make_similarity(X)
    return X, y, sim


def test_pair_terms_per_iteration(benchmark, seconds, problem):
    _, _, sim = problem
    rng = np.random.default_rng(1)
    B, _ = softmax_and_inverse(rng.normal(size=(N, M)))
    r, qb = benchmark.pedantic(sim.pair_terms, args=(B,), rounds=5, iterations=1)
    assert r.shape == (N,) and qb.shape == (N, M) and np.isfinite(qb).all()
    mean = seconds("mean")
    benchmark.extra_info["gflop"] = pair_term_flops(N, M) / 1e9
    benchmark.extra_info["gflop_per_s"] = pair_term_flops(N, M) / mean / 1e9


def test_one_fit_of_five_iterations(benchmark, seconds, problem):
    X, y, sim = problem

    def fit() -> MCSSB:
        return MCSSB(n_iterations=5, dtype="float32", random_state=0).fit(X, y, M, similarity=sim)

    model = benchmark.pedantic(fit, rounds=3, iterations=1)
    assert model.n_iterations_ >= 1
    per_iteration = seconds("mean") / 5
    benchmark.extra_info["seconds_per_iteration"] = per_iteration
    benchmark.extra_info["pair_term_gflop_per_iteration"] = pair_term_flops(N, M) / 1e9
