"""This machine's throughput on the operations the heavy job kinds are made of (pytest-benchmark;
`make bench`), one thread as the jobs run: the floors in docs/performance.md divide a kind's
operation count by these rates.

- ``gemm``: a float32 and a float64 matrix product of LRR's and MCSSB's shapes (n x n times
  n x G), in GFLOP/s;
- ``gemv``: a float64 n x n matrix times a vector, MRR's product with W, in GB/s of the matrix
  read;
- ``tanh`` and ``exp``: float64 elementwise, FRank's sigmoid and the refinement's weights, in
  million values per second;
- ``small call``: one numpy ufunc on a 100-element array, the per-call cost that bounds the
  online learners (top-k's rounds, MovieLens' small queries), in microseconds.
"""

import numpy as np
import pytest

N, G = 1000, 100  # a .Gov query's documents, LRR's number of gammas
VALUES = 2_000_000  # FRank's pairs on a .Gov fold (order of magnitude)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gemm(benchmark, seconds, dtype):
    rng = np.random.default_rng(0)
    A = rng.random((N, N)).astype(dtype)
    B = rng.random((N, G)).astype(dtype)
    out = benchmark(np.matmul, A, B)
    assert out.shape == (N, G)
    benchmark.extra_info["gflop_per_s"] = 2.0 * N * N * G / seconds("min") / 1e9


def test_gemv(benchmark, seconds):
    rng = np.random.default_rng(0)
    A = rng.random((N, N))
    v = rng.random(N)
    out = benchmark(np.matmul, A, v)
    assert out.shape == (N,)
    benchmark.extra_info["gb_per_s"] = A.nbytes / seconds("min") / 1e9


@pytest.mark.parametrize("ufunc", ["tanh", "exp"])
def test_transcendental(benchmark, seconds, ufunc):
    x = np.random.default_rng(0).normal(size=VALUES)
    out = np.empty_like(x)
    benchmark(getattr(np, ufunc), x, out=out)
    assert np.isfinite(out).all()
    benchmark.extra_info["million_per_s"] = VALUES / seconds("min") / 1e6


def test_small_call(benchmark, seconds):
    x = np.random.default_rng(0).random(100)
    out = np.empty_like(x)
    benchmark(np.multiply, x, 0.5, out=out)
    assert out[0] == 0.5 * x[0]
    benchmark.extra_info["microseconds"] = seconds("min") * 1e6
