"""LRR (Eq. 4.9, RankBoost on gamma W + T), Rocchio (Eq. 4.20) and Personality Diagnosis."""

import numpy as np
import pytest

from boostrank.ranking.lrr import DEFAULT_GAMMAS, LRR
from boostrank.ranking.refinement import base_matrix, feedback_pairs
from boostrank.ranking.rocchio import Rocchio, rocchio_scores, settings
from boostrank.recommend.personality_diagnosis import PersonalityDiagnosis


def _fixture(n=35, d=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    y = (X[:, 0] > 0.6).astype(int) + (X[:, 1] > 0.85)
    g = X[:, 2] + 0.5 * X[:, 0]
    o = np.argsort(-g, kind="stable")
    return X[o], y[o], g[o], feedback_pairs(y[o][:10])


def test_default_grid_is_0_1_to_10():
    assert len(DEFAULT_GAMMAS) == 100
    assert DEFAULT_GAMMAS[0] == 0.1 and DEFAULT_GAMMAS[-1] == 10.0


def test_all_gammas_at_once_equal_one_gamma_at_a_time():
    X, _y, g, pairs = _fixture()
    gammas = [0.1, 1.0, 7.5]
    batch = LRR(gammas, 12, dtype="float64").fit(X, g, pairs)
    for k, gamma in enumerate(gammas):
        one = LRR([gamma], 12, dtype="float64").fit(X, g, pairs)
        assert np.allclose(batch.train_scores_[:, k], one.train_scores_[:, 0])
    assert np.allclose(batch.predict(X), batch.train_scores_)
    f32 = LRR(gammas, 12).fit(X, g, pairs)  # float32 products pick the same rankers here
    assert np.array_equal(f32.features_, batch.features_)


def test_first_round_is_rankboost_on_the_dense_pair_distribution():
    X, _y, g, pairs = _fixture()
    gamma, eta = 2.0, 0.5
    model = LRR([gamma], 1, eta=eta, n_thresholds=1000, dtype="float64").fit(X, g, pairs)
    W = base_matrix(g, model.lam_)
    T = np.full(W.shape, eta / 2)
    T[pairs[:, 0], pairs[:, 1]] += 1 - eta
    D = gamma * W + T  # F = 0
    D /= D.sum()
    pi = D.sum(1) - D.sum(0)
    best = -1.0
    for k in range(X.shape[1]):
        for theta in np.unique(X[:, k])[:-1]:
            h = X[:, k] > theta
            best = max(best, abs(pi[h].sum()))
    r = np.tanh(model.alpha_[0, 0])  # alpha = 1/2 ln((1 + r) / (1 - r))
    assert abs(r) == pytest.approx(best)
    assert model.objective_[0, 0] == pytest.approx(np.log((gamma * W + T).sum()))
    assert model.objective_[1, 0] < model.objective_[0, 0]


def test_rocchio_eq_4_20():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]])
    rel = np.array([True, False, False, False])
    non = np.array([False, True, True, False])
    grid = settings([1, 2], [1])
    S = rocchio_scores(X, rel, non, grid)
    q = np.array([1.0, 0.0]) - np.array([0.5, 1.0])  # alpha = beta = 1, Q_0 = 0
    assert np.allclose(S[:, 0], X @ q)
    assert np.allclose(S[:, 1], X @ (2 * np.array([1.0, 0.0]) - np.array([0.5, 1.0])))
    model = Rocchio(2, 1).fit(X[:3], np.array([1, 0, 0]))
    assert np.allclose(model.predict(X), S[:, 1])


def test_personality_diagnosis_worked_example():
    R = np.array([[5.0, 1.0, 5.0], [1.0, 5.0, 1.0]])  # two training users, three items
    pd_model = PersonalityDiagnosis(sigma=1.0).fit(R)
    post = pd_model.posterior(np.array([0]), np.array([5]))  # the active user rated item 0: 5
    assert post[0] == pytest.approx(1 / (1 + np.exp(-8)))  # exp(0) vs exp(-16/2)
    dist = pd_model.distribution(np.array([0]), np.array([5]), np.array([2]))
    x = np.arange(1, 6)
    k = post[0] * np.exp(-((x - 5) ** 2) / 2) + post[1] * np.exp(-((x - 1) ** 2) / 2)
    assert np.allclose(dist[0], k / k.sum())
    expected = pd_model.predict(np.array([0]), np.array([5]), np.array([2]))[0]
    assert expected == pytest.approx(dist[0] @ x)
    mode = PersonalityDiagnosis(score="mode").fit(R)
    assert mode.predict(np.array([0]), np.array([5]), np.array([1, 2]))[1] == 5
    # an item no training user rated: uniform, expected rating 3
    R2 = np.array([[5.0, np.nan], [1.0, np.nan]])
    assert PersonalityDiagnosis().fit(R2).predict([0], [5], [1])[0] == pytest.approx(3.0)
