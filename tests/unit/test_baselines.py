"""LETOR 3.0 baselines of the dissertation's Figure 3.1: AdaRank-NDCG, FRank, ListNet, SVM-MAP,
and RankSVM's validation-chosen C."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import minimize

from boostrank.errors import BoostrankError
from boostrank.metrics.ranking import mean_average_precision, mean_ndcg, ndcg_at_k
from boostrank.ranking.adarank import AdaRank, adarank_alpha, query_weights
from boostrank.ranking.frank import FRank, fidelity_loss, reference_round
from boostrank.ranking.listnet import ListNet, listnet_loss_and_grad
from boostrank.ranking.ranksvm import RankSVM
from boostrank.ranking.svm_map import SVMMAP, most_violated_ranking, solve_working_set


def _toy(n_queries: int = 8, docs: int = 10, n_features: int = 5, seed: int = 0):
    """Feature 0 orders every query's documents by label (0, 1, 2); the others are noise."""
    rng = np.random.default_rng(seed)
    qid = np.repeat(np.arange(1, n_queries + 1), docs)
    y = rng.choice(3, size=len(qid), p=[0.6, 0.25, 0.15])
    y[::docs] = 2  # every query has a relevant document
    X = rng.random((len(qid), n_features))
    X[:, 0] = (y + 0.3 * rng.random(len(qid))) / 2.5
    return X, y, qid


def _noisy(n_queries: int = 12, docs: int = 15, seed: int = 1):
    """Labels depend on a linear signal plus noise: no feature ranks perfectly."""
    rng = np.random.default_rng(seed)
    qid = np.repeat(np.arange(1, n_queries + 1), docs)
    X = rng.random((len(qid), 6))
    signal = X @ np.array([2.0, -1.0, 1.0, 0.0, 0.0, 0.5]) + rng.normal(0.0, 0.4, len(qid))
    y = (signal > np.quantile(signal, 0.7)).astype(int) + (signal > np.quantile(signal, 0.9))
    return X, y, qid


def _models():
    return {
        "adarank": AdaRank(50),
        "frank": FRank(30),
        "listnet": ListNet(100, learning_rate=0.5),
        "ranksvm": RankSVM(10.0, kernel_map=None),
    }


@pytest.mark.parametrize("name", ["adarank", "frank", "listnet", "ranksvm"])
def test_each_baseline_ranks_the_separable_toy_problem_perfectly(name):
    X, y, qid = _toy()
    model = _models()[name].fit(X, y, qid)
    assert mean_ndcg(y, model.predict(X), qid, 10, formula="report") == pytest.approx(1.0)


def test_svm_map_ranks_the_separable_toy_problem_perfectly_in_map():
    X, y, qid = _toy()
    model = SVMMAP(C=100.0).fit(X, y, qid)
    assert mean_average_precision(y, model.predict(X), qid) == pytest.approx(1.0)
    assert model.C_ == 100.0


def test_adarank_alpha_and_query_weights_on_a_two_query_example():
    # Query A (labels 1,0,0) and B (0,1,0); feature 0 scores (3,2,1), feature 1 (1,3,2).
    X = np.array([[3, 1], [2, 3], [1, 2], [3, 1], [2, 3], [1, 2]], dtype=float)
    y = np.array([1, 0, 0, 0, 1, 0])
    qid = np.array([1, 1, 1, 2, 2, 2])
    # NDCG (gain 2^r - 1, discount 1/log2(1 + p)): feature 0 -> A 1, B 1/log2(3);
    # feature 1 -> A 1/log2(4) = 0.5, B 1.
    e0 = np.array([1.0, 1.0 / np.log2(3.0)])
    e1 = np.array([0.5, 1.0])
    model = AdaRank(2, k=3, formula="report", tol=None, max_repeats=None).fit(X, y, qid)
    # Round 1: P = (1/2, 1/2); weighted NDCG 0.815 (feature 0) > 0.75 (feature 1).
    alpha1 = 0.5 * np.log((3.0 + e0[1]) / (1.0 - e0[1]))  # sum P (1 + E) / sum P (1 - E)
    p2 = np.exp(-e0) / np.exp(-e0).sum()  # f_1 = alpha1 x_0 ranks as feature 0
    assert p2 @ e1 > p2 @ e0  # so round 2 picks feature 1
    alpha2 = 0.5 * np.log((p2 @ (1.0 + e1)) / (p2 @ (1.0 - e1)))
    assert model.features_.tolist() == [0, 1]
    assert model.alphas_ == pytest.approx([alpha1, alpha2])
    assert model.query_weights_[0] == pytest.approx([0.5, 0.5])
    assert model.query_weights_[1] == pytest.approx(p2)
    f2 = alpha1 * X[:, 0] + alpha2 * X[:, 1]
    e_f2 = ndcg_at_k(y, f2, qid, 3, formula="report")
    assert model.query_weights_[2] == pytest.approx(np.exp(-e_f2) / np.exp(-e_f2).sum())
    assert model.predict(X) == pytest.approx(f2)
    assert adarank_alpha([0.5, 0.5], e0) == pytest.approx(alpha1)
    assert query_weights(e0) == pytest.approx(p2)


def test_adarank_runs_every_round_as_printed_and_counts_its_repeat_guard():
    X, y, qid = _noisy()
    printed = AdaRank(50).fit(X, y, qid)  # Algorithm 4: until the maximum number of rounds
    assert printed.stop_reason_ == "n_rounds" and printed.rounds_trained_ == 50
    assert printed.guards_ == {"adarank_repeated_feature": 0}
    stop = AdaRank(50, on_repeat="stop").fit(X, y, qid)
    assert stop.stop_reason_ == "repeats"
    assert stop.features_.tolist() == [stop.features_[0]] * 5  # the weights never changed
    assert stop.guards_ == {"adarank_repeated_feature": 1}
    remove = AdaRank(50, on_repeat="remove").fit(X, y, qid)
    assert len(set(remove.features_.tolist())) > 1
    assert remove.guards_["adarank_repeated_feature"] >= 1
    with pytest.raises(BoostrankError, match="formula='report'"):
        AdaRank(k=None).fit(X, y, qid)
    full = AdaRank(5, k=None, formula="report").fit(X, y, qid)
    assert mean_ndcg(y, full.predict(X), qid, 10) > 0.5


@pytest.mark.parametrize("target", [1.0, 0.5, 0.2])
def test_fidelity_loss_value_and_derivatives(target):
    o = np.linspace(-4.0, 4.0, 17)
    loss, d1, d2 = fidelity_loss(o, target)
    p = 1.0 / (1.0 + np.exp(-o))
    assert loss == pytest.approx(1.0 - np.sqrt(target * p) - np.sqrt((1 - target) * (1 - p)))
    h = 1e-5
    up, down = fidelity_loss(o + h, target), fidelity_loss(o - h, target)
    assert d1 == pytest.approx((up[0] - down[0]) / (2 * h), abs=1e-8)
    assert d2 == pytest.approx((up[1] - down[1]) / (2 * h), abs=1e-8)
    # zero exactly where the model probability equals the target
    assert fidelity_loss(np.log(target / (1 - target)) if target < 1 else 50.0, target)[
        0
    ] == pytest.approx(0.0, abs=1e-10)


def test_frank_loss_decreases_and_validation_keeps_a_prefix():
    X, y, qid = _noisy()
    Xv, yv, qv = _noisy(seed=2)
    model = FRank(20, n_thresholds=8).fit(X, y, qid, validation=(Xv, yv, qv))
    assert np.all(np.diff(model.loss_curve_) < 0)
    assert model.loss_curve_[0] == pytest.approx(1.0 - np.sqrt(0.5))
    assert 1 <= model.n_rounds_ <= model.rounds_trained_ <= 20
    assert len(model.learners_) == model.n_rounds_
    assert int(np.argmax(model.valid_curve_)) + 1 == model.n_rounds_


def test_listnet_gradient_matches_finite_differences():
    rng = np.random.default_rng(3)
    X, y, w = rng.random((7, 4)), np.array([2, 0, 1, 0, 0, 1, 0]), rng.normal(size=4)
    _, grad = listnet_loss_and_grad(w, X, y)
    h = 1e-6
    numeric = [
        (listnet_loss_and_grad(w + h * e, X, y)[0] - listnet_loss_and_grad(w - h * e, X, y)[0])
        / (2 * h)
        for e in np.eye(4)
    ]
    assert grad == pytest.approx(numeric, abs=1e-7)


def test_listnet_chooses_the_epochs_on_validation():
    X, y, qid = _noisy()
    Xv, yv, qv = _noisy(seed=2)
    model = ListNet(40, learning_rate=0.1).fit(X, y, qid, validation=(Xv, yv, qv))
    assert 1 <= model.n_epochs_ <= 40
    assert len(model.valid_curve_) == 40
    assert int(np.argmax(model.valid_curve_)) + 1 == model.n_epochs_
    assert ListNet(40, learning_rate=0.1).fit(X, y, qid).n_epochs_ == 40


def _brute_force_objective(order, s, rel):
    """1 - AP + w . Psi of a ranking, from the definitions (Yue et al. 2007, Eq. 4)."""
    pos = np.empty(len(order), dtype=int)
    pos[np.asarray(order)] = np.arange(len(order))
    R, N = np.flatnonzero(rel), np.flatnonzero(~rel)
    ranks = np.sort(pos[R]) + 1
    ap = np.mean(np.arange(1, len(R) + 1) / ranks)
    y_ij = np.where(pos[R][:, None] < pos[N][None, :], 1.0, -1.0)
    psi = (y_ij * (s[R][:, None] - s[N][None, :])).sum() / (len(R) * len(N))
    return 1.0 - ap + psi


def test_svm_map_top_relevance_is_the_highest_grade_of_the_data():
    """relevant_from="top" trains on the highest grade only: on graded labels as if only grade 2
    were relevant, on binary labels as relevant_from=1."""
    X, y, qid = _toy()
    top = SVMMAP(C=100.0, relevant_from="top").fit(X, y, qid).predict(X)
    two = SVMMAP(C=100.0).fit(X, (y == 2).astype(int), qid).predict(X)
    one = SVMMAP(C=100.0).fit(X, y, qid).predict(X)
    assert np.array_equal(top, two) and not np.array_equal(top, one)
    binary = (y >= 1).astype(int)
    assert np.array_equal(
        SVMMAP(C=100.0, relevant_from="top").fit(X, binary, qid).predict(X),
        SVMMAP(C=100.0).fit(X, binary, qid).predict(X),
    )


def test_svm_map_most_violated_ranking_is_the_brute_force_argmax():
    rng = np.random.default_rng(4)
    checked = 0
    for trial in range(40):
        n = int(rng.integers(3, 8))
        rel = np.zeros(n, dtype=bool)
        rel[rng.choice(n, size=int(rng.integers(1, n)), replace=False)] = True
        s = rng.normal(0.0, [0.05, 0.5, 3.0][trial % 3], n)
        if trial % 4 == 0:
            s = np.round(s)  # ties
        best = max(_brute_force_objective(p, s, rel) for p in itertools.permutations(range(n)))
        order, coef, value = most_violated_ranking(s, rel)
        assert value == pytest.approx(best, abs=1e-12)
        assert _brute_force_objective(order, s, rel) == pytest.approx(best, abs=1e-12)
        # coef gives Psi(x, ybar) = coef @ X: with X = I, w . Psi = coef @ s
        ap_loss = _brute_force_objective(order, np.zeros(n), rel)
        assert coef @ s == pytest.approx(best - ap_loss, abs=1e-12)
        checked += 1
    assert checked == 40


@pytest.mark.parametrize("C", [0.05, 1.0, 50.0])
def test_svm_map_working_set_qp_matches_a_generic_solver(C):
    rng = np.random.default_rng(6)
    A, loss = rng.normal(size=(12, 4)), rng.random(12)
    w, xi = solve_working_set(A, loss, C)
    assert np.all(A @ w >= loss - xi - 1e-9) and xi >= 0.0
    ref = minimize(
        lambda v: 0.5 * v[:4] @ v[:4] + C * v[4],
        np.zeros(5),
        method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda v: A @ v[:4] - loss + v[4]}],
        bounds=[(None, None)] * 4 + [(0.0, None)],
        options={"ftol": 1e-12, "maxiter": 500},
    )
    assert 0.5 * w @ w + C * xi == pytest.approx(ref.fun, abs=1e-7)


def test_svm_map_beats_a_random_ranking_in_map():
    X, y, qid = _noisy()
    model = SVMMAP(C_grid=(1.0, 100.0)).fit(X, y, qid, validation=_noisy(seed=2))
    assert model.C_ in (1.0, 100.0)
    assert set(model.validation_scores_) == {1.0, 100.0}
    random = np.random.default_rng(5).random(len(y))
    learned = mean_average_precision(y, model.predict(X), qid)
    assert learned > mean_average_precision(y, random, qid) + 0.2


def test_ranksvm_chooses_C_on_the_validation_fold_from_its_grid():
    X, y, qid = _noisy()
    val = _noisy(seed=2)
    grid = (0.001, 1.0, 100.0)
    model = RankSVM(kernel_map=None, C_grid=grid).fit(X, y, qid, validation=val)
    assert set(model.validation_scores_) == set(grid)
    best = max(grid, key=lambda c: (model.validation_scores_[c], -grid.index(c)))
    chosen = model.C_
    assert chosen == best
    refit = RankSVM(model.C_, kernel_map=None).fit(X, y, qid)
    assert refit.predict(X) == pytest.approx(model.predict(X))
    assert RankSVM(5.0, kernel_map=None, C_grid=grid).fit(X, y, qid).C_ == 5.0


@pytest.mark.parametrize("name", ["adarank", "frank", "listnet", "svm_map", "ranksvm"])
def test_baselines_are_deterministic(name):
    X, y, qid = _noisy()
    val = _noisy(seed=2)

    def make():
        return {
            "adarank": AdaRank(20, random_state=3),
            "frank": FRank(10, max_pairs_per_query=20, random_state=3),
            "listnet": ListNet(20, random_state=3),
            "svm_map": SVMMAP(C_grid=(1.0, 10.0), random_state=3),
            "ranksvm": RankSVM(kernel_map=None, C_grid=(0.1, 1.0), random_state=3),
        }[name]

    a = make().fit(X, y, qid, validation=val).predict(X)
    b = make().fit(X, y, qid, validation=val).predict(X)
    assert np.array_equal(a, b)


def test_frank_with_all_pairs_equals_the_per_pair_objective():
    """FRank uses every within-query pair by default; its recorded objective after
    each round equals J written pair by pair (query-normalised fidelity loss at P* = 1)."""
    X, y, qid = _noisy(n_queries=3, docs=12, seed=4)
    model = FRank(6, n_thresholds=6).fit(X, y, qid)
    n_pairs = sum(int((y[qid == q][:, None] > y[qid == q][None, :]).sum()) for q in np.unique(qid))
    assert model.max_pairs_per_query is None and model.n_pairs_ == n_pairs
    H = np.zeros(len(y))
    assert model.loss_curve_[0] == pytest.approx(reference_round(X, y, qid, H, 0, 0.0, 0.0))
    for t, (k, theta, alpha) in enumerate(model.learners_, start=1):
        assert model.loss_curve_[t] == pytest.approx(
            reference_round(X, y, qid, H, k, theta, alpha), rel=1e-12
        )
        H = H + alpha * (X[:, k] > theta)
    assert np.all(np.diff(model.loss_curve_) < 0)


def test_solver_caps_and_frank_alpha_cap_are_counted_only_where_they_act():
    """The guards of the baselines (boostrank.guards): liblinear stopped at max_iter, SVM-MAP's
    cutting planes stopped at max_iter (once per C), FRank's alpha held at +-max_alpha."""
    X, y, qid = _noisy()
    assert RankSVM(10.0).fit(X, y, qid).guards_ == {"ranksvm_max_iter": 0}
    assert RankSVM(10.0, max_iter=2).fit(X, y, qid).guards_ == {"ranksvm_max_iter": 1}
    pairs = RankSVM(10.0, max_iter=2)  # fit_pairs alone (Chapter 4) counts afresh
    assert pairs.fit_pairs(np.eye(3), np.array([1.0, -1.0, 1.0])).guards_ == {"ranksvm_max_iter": 0}
    Xt, yt, qt = _toy()
    assert SVMMAP(C=100.0).fit(Xt, yt, qt).guards_ == {"svm_map_max_iter": 0}
    capped = SVMMAP(C_grid=(1.0, 100.0), max_iter=1).fit(X, y, qid, validation=_noisy(seed=2))
    assert capped.guards_ == {"svm_map_max_iter": 2}
    assert FRank(20).fit(X, y, qid).guards_ == {"frank_alpha_cap": 0}
    tight = FRank(20, max_alpha=0.05).fit(X, y, qid)
    assert tight.guards_ == {"frank_alpha_cap": tight.rounds_trained_}
    assert all(abs(alpha) == 0.05 for _, _, alpha in tight.learners_)
