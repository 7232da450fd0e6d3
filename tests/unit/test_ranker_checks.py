"""scikit-learn's estimator conventions on every ranker of ``boostrank.ranking`` (their common
interface, :mod:`boostrank.ranking.base`): ``clone``, the ``get_params`` / ``set_params`` round
trip, no validation or derivation in the constructor, inputs left unchanged by ``fit``, fitted
attributes named ``name_`` and absent before ``fit``, ``NotFittedError`` from ``predict`` before
``fit``, and the same scores from the same seed. Small settings and data: seconds in all.

scikit-learn's ``check_estimator`` as a whole does not apply: its checks fit ``(X, y)`` as a
classifier or regressor would, while a ranker needs the query of each row (and a refiner a
base ranking and feedback pairs)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import (
    check_get_params_invariance,
    check_no_attributes_set_in_init,
    check_parameters_default_constructible,
    check_set_params,
)

from boostrank.ranking.adarank import AdaRank
from boostrank.ranking.base import Ranker, RankingModel
from boostrank.ranking.frank import FRank
from boostrank.ranking.gbt import GBT
from boostrank.ranking.lambdamart import LambdaMART
from boostrank.ranking.linear import LinearRanker
from boostrank.ranking.listnet import ListNet
from boostrank.ranking.lrr import LRR
from boostrank.ranking.mrr import MRR
from boostrank.ranking.ndcg_boost import NDCGBoost
from boostrank.ranking.qbrank import QBRank
from boostrank.ranking.ranknet import RankNet
from boostrank.ranking.ranksvm import RankSVM
from boostrank.ranking.refinement import Refiner, feedback_pairs
from boostrank.ranking.rocchio import Rocchio
from boostrank.ranking.svm_map import SVMMAP

RANKERS: list[RankingModel] = [
    AdaRank(n_rounds=5),
    FRank(n_rounds=3),
    GBT(n_trees=3, max_leaf_nodes=4),
    LambdaMART(n_trees=3, min_data_in_leaf=2, early_stopping_rounds=None),
    LinearRanker(),
    ListNet(n_epochs=3),
    NDCGBoost(n_iterations=3, sample_size=10),
    QBRank(n_trees=3, max_leaf_nodes=4),
    RankNet(epochs=2, nodes=3, batch_queries=2),
    RankSVM(C_grid=(0.1, 1.0), max_iter=200),
    Rocchio(),
    SVMMAP(C_grid=(1.0, 10.0), max_iter=5),
    MRR(n_iterations=3),
    LRR(gammas=(0.5, 2.0), n_iterations=3),
]
IDS = [type(r).__name__ for r in RANKERS]


def ranking_data(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Four queries of eight documents, five features, grades 0..2 tied to the first two."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(32, 5))
    y = np.clip(np.round(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.3, 32)), 0, 2).astype(int)
    return X, y, np.repeat(np.arange(4), 8)


def fit(model: RankingModel) -> RankingModel:
    """Fit a ranker on the data (with a validation fold), a refiner on the first query."""
    X, y, qid = ranking_data()
    if isinstance(model, Refiner):
        return model.fit(X[:8], X[:8, 0], feedback_pairs(y[:8]))
    assert isinstance(model, Ranker)
    return model.fit(X, y, qid, validation=ranking_data(1))


@pytest.mark.parametrize("model", RANKERS, ids=IDS)
def test_parameters_follow_sklearn(model: RankingModel) -> None:
    name = type(model).__name__
    check_parameters_default_constructible(name, model)
    check_no_attributes_set_in_init(name, model)
    check_get_params_invariance(name, model)
    check_set_params(name, model)


@pytest.mark.parametrize("model", RANKERS, ids=IDS)
def test_clone_round_trip(model: RankingModel) -> None:
    copy = clone(model)
    assert type(copy) is type(model)
    assert copy.get_params() == model.get_params()
    copy.set_params(**model.get_params())
    assert copy.get_params() == model.get_params()


@pytest.mark.parametrize("model", RANKERS, ids=IDS)
def test_predict_before_fit_raises(model: RankingModel) -> None:
    with pytest.raises(NotFittedError):
        clone(model).predict(ranking_data()[0])


@pytest.mark.parametrize("model", RANKERS, ids=IDS)
def test_fit_sets_only_fitted_attributes(model: RankingModel) -> None:
    model = clone(model)
    params = model.get_params()
    before = set(vars(model))
    fit(model)
    added = set(vars(model)) - before
    assert added, "fit sets no attribute"
    assert all(a.endswith("_") or a.startswith("_") for a in added), sorted(added)
    assert not any(a.endswith("_") and not a.startswith("_") for a in before)
    assert model.get_params() == params  # fit changes no parameter


@pytest.mark.parametrize("model", RANKERS, ids=IDS)
def test_fit_leaves_inputs_unchanged(model: RankingModel) -> None:
    data = ranking_data()
    copies = [a.copy() for a in data]
    model = clone(model)
    if isinstance(model, Refiner):
        X, y, _ = data
        pairs = feedback_pairs(y[:8])
        saved = pairs.copy()
        model.fit(X[:8], X[:8, 0], pairs)
        assert np.array_equal(pairs, saved)
    else:
        assert isinstance(model, Ranker)
        val = ranking_data(1)
        saved_val = [a.copy() for a in val]
        model.fit(*data, validation=val)
        for a, b in zip(val, saved_val, strict=True):
            assert np.array_equal(a, b)
    for a, b in zip(data, copies, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("model", RANKERS, ids=IDS)
def test_same_seed_same_scores(model: RankingModel) -> None:
    X = ranking_data(2)[0]
    first: Any = fit(clone(model)).predict(X)
    second: Any = fit(clone(model)).predict(X)
    assert np.asarray(first).shape[0] == len(X)
    assert np.array_equal(first, second)
