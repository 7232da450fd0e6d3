"""Speed of the chapter 5-6 online learners (pytest-benchmark; `make bench`): 500 trials of each
learner at Figure 5.2's sweep size on MNIST's shape (d = 784, K = 10, R = 10 runs x 10 gamma
values = 100) and Figure 6.2's (R = 50). Target: the four figures' 67 jobs at the full protocol
in under 10 minutes on 2 cores, i.e. a few thousand trials per second at R = 100."""

import numpy as np
import pytest

from boostrank.online.adaptive_exploration import AdaptiveGamma
from boostrank.online.banditron import Banditron
from boostrank.online.exponential_gradient import ExponentialGradient
from boostrank.online.perceptron import Perceptron
from boostrank.online.streams import run_stream, scale_inputs, stream_orders

T, D, K = 500, 784, 10


def _make(name, R):
    seeds = np.arange(R)
    gamma = np.repeat(np.linspace(0.01, 0.45, 10), R // 10) if R % 10 == 0 else 0.1
    if name == "perceptron":
        return Perceptron(D, K, seeds)
    if name == "exp_gradient":
        return ExponentialGradient(D, K, seeds, gamma=gamma, n_trials=T)
    if name.startswith("ag"):
        return Banditron(D, K, seeds, gamma=AdaptiveGamma(name))
    return Banditron(D, K, seeds, gamma=gamma, positive=name == "banditron_pos")


@pytest.mark.parametrize(
    ("name", "R"),
    [("perceptron", 10), ("banditron", 100), ("banditron_pos", 100), ("exp_gradient", 100),
     ("ag3", 50), ("banditron", 50)],
)  # fmt: skip
def test_trials_per_second(benchmark, seconds, name, R):
    rng = np.random.default_rng(0)
    X = scale_inputs(rng.random((T, D)))
    y = rng.integers(0, K, T)
    orders = stream_orders(T, np.arange(R))

    def run():
        return run_stream(_make(name, R), X, y, orders, np.array([T]))

    counts = benchmark.pedantic(run, rounds=3)
    assert counts.shape == (R, 1)
    benchmark.extra_info["trials_per_second"] = T / seconds("mean")
