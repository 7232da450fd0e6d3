"""NDCG_Boost's weak learner: :func:`fit_stump` against scikit-learn's depth-1 tree, which it
reimplements (Valizadegan 2010, section 3.3; module docstring of ranking/ndcg_boost.py, reading
8), on a TD2003-shaped sample (pytest-benchmark; `make bench`). Both must pick the same split;
the benchmark prints each one's time per fit."""

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from boostrank.ranking.ndcg_boost import fit_stump

N, D = 5900, 64  # a TD2003-shaped sample: documents drawn per iteration, LETOR features


@pytest.fixture(scope="module")
def sample() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.random((N, D)).astype(np.float32)
    labels = np.where(X[:, 7] + 0.3 * rng.random(N) > 0.6, 1, -1)
    return X, labels


def test_fit_stump(benchmark, sample):
    X, labels = sample
    stump = benchmark.pedantic(fit_stump, args=(X, labels), rounds=20, iterations=1)
    tree = DecisionTreeClassifier(max_depth=1).fit(X, labels).tree_
    assert stump is not None and stump.feature == tree.feature[0]


def test_sklearn_depth1_tree(benchmark, sample):
    X, labels = sample
    model = DecisionTreeClassifier(max_depth=1, random_state=0)
    benchmark.pedantic(model.fit, args=(X, labels), rounds=20, iterations=1)
