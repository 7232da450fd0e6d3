"""Every online learner follows the one protocol of :mod:`boostrank.online.base`:
``partial_fit(X, y)`` predicts, learns, and returns the prediction it made before learning, of
the kind its family documents (labels played, ranks, scores shown, distributions)."""

from __future__ import annotations

import copy
import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import boostrank.online
from boostrank.online.adaptive_exploration import AdaptiveGamma
from boostrank.online.banditron import Banditron
from boostrank.online.base import OnlineLearner
from boostrank.online.exponential_gradient import ExponentialGradient
from boostrank.online.multilabel_weak import OnlineSoftmaxLearners
from boostrank.online.ordinal_baselines import MCP, WidrowHoff
from boostrank.online.perceptron import Perceptron
from boostrank.online.prank import MuPRank, NoPRank, PRank, SiPRank
from boostrank.online.rank_loss import weighted_rank_loss
from boostrank.online.topk_boosting import AdaOLMR, OnlineBMR, TopkAdaptive, TopkBBM

R, D, K, M = 3, 5, 4, 6  # runs, features, classes or ranks, labels
BASES = {"MulticlassLearner", "ThresholdRanker"}  # abstract: their subclasses are checked


@dataclass(frozen=True)
class Family:
    """One round's inputs and two different feedbacks, and the documented return kind."""

    round: Callable[[np.random.Generator], tuple[np.ndarray, Any, Any]]
    check: Callable[[np.ndarray], None]


def _labels(rng):
    y = rng.integers(0, K, R)
    return rng.uniform(-1, 1, (R, D)), y, (y + 1) % K


def _is_labels(played):
    assert played.shape == (R,) and played.dtype.kind == "i"
    assert ((played >= 0) & (played < K)).all()


def _ranks(rng):
    y = rng.integers(1, K + 1, R)
    return rng.uniform(-1, 1, (R, D)), y, K + 1 - y


def _is_ranks(played):
    assert played.shape == (R,) and played.dtype.kind == "i"
    assert ((played >= 1) & (played <= K)).all()


def _rows(rng):
    y = np.zeros((1, M), dtype=np.int8)
    y[0, rng.choice(M, 2, replace=False)] = 1
    return rng.normal(size=(1, D)), y, 1 - y


def _is_scores(played):
    assert played.shape == (1, M) and played.dtype == np.float64
    assert 0 <= weighted_rank_loss(played, np.eye(M)[:1])[0] <= 1  # a round's loss


def _feedback(rng):
    costs = [rng.random((3, M)) for _ in range(2)]
    relevant = np.zeros(M)
    relevant[0] = 1.0
    return rng.normal(size=D), lambda h: (costs[0], relevant), lambda h: (costs[1], relevant)


def _is_distributions(played):
    assert played.shape == (3, M) and (played >= 0).all()
    np.testing.assert_allclose(played.sum(axis=1), 1.0)


MULTICLASS = Family(_labels, _is_labels)
ORDINAL = Family(_ranks, _is_ranks)
BOOSTER = Family(_rows, _is_scores)
WEAK = Family(_feedback, _is_distributions)
RUNS, ADAPTIVE = np.arange(R), AdaptiveGamma("ag3")
LEARNERS: dict[str, tuple[Callable[[], Any], Family]] = {
    "Banditron": (lambda: Banditron(D, K, RUNS, gamma=0.3), MULTICLASS),
    "Banditron ag3": (lambda: Banditron(D, K, RUNS, gamma=ADAPTIVE), MULTICLASS),
    "Perceptron": (lambda: Perceptron(D, K, RUNS), MULTICLASS),
    "ExponentialGradient": (lambda: ExponentialGradient(D, K, RUNS, gamma=0.3), MULTICLASS),
    "PRank": (lambda: PRank(D, K, n_runs=R), ORDINAL),
    "SiPRank": (lambda: SiPRank(D, K, n_runs=R), ORDINAL),
    "NoPRank": (lambda: NoPRank(D, K, n_runs=R), ORDINAL),
    "MuPRank": (lambda: MuPRank(D, K, n_runs=R), ORDINAL),
    "MCP": (lambda: MCP(D, K, n_runs=R), ORDINAL),
    "WidrowHoff": (lambda: WidrowHoff(D, K, n_runs=R, learning_rate=0.1), ORDINAL),
    "TopkBooster TopkBBM": (lambda: TopkBBM(D, M, n_learners=3), BOOSTER),
    "TopkBooster TopkAdaptive": (lambda: TopkAdaptive(D, M, n_learners=3), BOOSTER),
    "TopkBooster OnlineBMR": (lambda: OnlineBMR(D, M, n_learners=3), BOOSTER),
    "TopkBooster AdaOLMR": (lambda: AdaOLMR(D, M, n_learners=3), BOOSTER),
    "OnlineSoftmaxLearners": (
        lambda: OnlineSoftmaxLearners(3, M, D, np.random.default_rng(0), n_sub=3),
        WEAK,
    ),
}


def test_every_online_learner_is_checked():
    """Each class of ``boostrank.online`` with a ``partial_fit`` has a case below."""
    found = set()
    for info in pkgutil.iter_modules(boostrank.online.__path__):
        module = importlib.import_module(f"boostrank.online.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and hasattr(cls, "partial_fit"):
                found.add(name)
    checked = {key.split()[0] for key in LEARNERS}
    assert found - {"OnlineLearner"} - BASES == checked


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_partial_fit_predicts_then_learns_and_returns_the_prediction(name):
    make, family = LEARNERS[name]
    learner = make()
    assert isinstance(learner, OnlineLearner)
    rng = np.random.default_rng(1)
    earlier = []
    for _ in range(20):
        X, y, other = family.round(rng)
        twin = copy.deepcopy(learner)
        played = learner.partial_fit(X, y)
        family.check(played)
        # the prediction is made before the feedback: another y gives the same one
        np.testing.assert_array_equal(twin.partial_fit(X, other), played)
        earlier.append((played, played.copy()))
    for played, kept in earlier:  # the caller's copy: later rounds do not write into it
        np.testing.assert_array_equal(played, kept)


def test_multiclass_learners_play_many_trials_in_order():
    """(R, n, d) trials give the (R, n) labels played, as n single trials would."""
    rng = np.random.default_rng(2)
    X, y = rng.uniform(-1, 1, (R, 7, D)), rng.integers(0, K, (R, 7))
    batch = Banditron(D, K, RUNS, gamma=0.3)
    single = Banditron(D, K, RUNS, gamma=0.3)
    played = batch.partial_fit(X, y)
    assert played.shape == (R, 7)
    for j in range(7):
        np.testing.assert_array_equal(single.partial_fit(X[:, j], y[:, j]), played[:, j])
