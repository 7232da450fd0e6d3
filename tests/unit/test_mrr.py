"""MRR (Valizadegan 2010, chapter 4, Algorithm 6) and the pair sums it rests on."""

import numpy as np
import pytest

from boostrank.errors import BoostrankError
from boostrank.ranking.mrr import MRR
from boostrank.ranking.refinement import (
    PairModel,
    ThresholdBank,
    base_matrix,
    feedback_pairs,
    fit_stump,
    pair_sums,
    top_std_lambda,
)


def _fixture(n=40, d=6, judged=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    y = (X[:, 0] + 0.5 * rng.random(n) > 0.9).astype(int) + (X[:, 1] > 0.8)
    g = X[:, 2] + 0.3 * X[:, 0]
    order = np.argsort(-g, kind="stable")
    X, y, g = X[order], y[order], g[order]
    mask = np.arange(n) < judged
    return X, y, g, feedback_pairs(y[:judged]), mask


def _dense(n, pairs, eta, mask=None):
    T = np.full((n, n), eta / 2)
    if mask is not None:
        T[~mask, :] = 0
        T[:, ~mask] = 0
    T[pairs[:, 0], pairs[:, 1]] += 1 - eta
    return T


def test_eq_4_1_and_lambda_rule():
    g = np.array([3.0, 1.0, 1.0])
    W = base_matrix(g, 2.0)
    assert W[0, 1] == pytest.approx(np.exp(6) / (np.exp(6) + np.exp(2)))
    assert W[1, 2] == 0.5 and np.allclose(W + W.T, 1.0)
    assert np.all(base_matrix(g, 0.0) == 0.5)
    top = np.arange(20.0)
    assert top_std_lambda(top, 10) == pytest.approx(1 / np.std(np.arange(10.0, 20.0)))


@pytest.mark.parametrize("scope", ["all", "judged"])
def test_pair_sums_match_the_dense_n_by_n_sums(scope):
    X, y, g, pairs, mask = _fixture()
    n, eta = len(y), 0.5
    m = mask if scope == "judged" else None
    W, T = base_matrix(g, 3.0), _dense(n, pairs, eta, m)
    F = np.random.default_rng(1).normal(size=(n, 3)) * 2
    fast = PairModel(W, pairs, eta, m).sums(F)
    slow = pair_sums(W, pairs, eta, F, m)
    for c in range(3):
        E = np.exp(F[None, :, c] - F[:, None, c])  # E_ij = exp(F_j - F_i)
        for M, r, col, tot in (
            (W, fast.rw, fast.cw, fast.log_w),
            (T, fast.rt, fast.ct, fast.log_t),
        ):
            S = (M * E).sum()
            assert tot[c] == pytest.approx(np.log(S))
            assert np.allclose(r[:, c], (M * E).sum(1) / S)
            assert np.allclose(col[:, c], (M * E).sum(0) / S)
        assert np.allclose(np.exp(slow.row_w[:, c]), (W * E).sum(1))
        assert np.allclose(np.exp(slow.col_t[:, c]), (T * E).sum(0))
    # mu and nu of Algorithm 6, step 8 (one run)
    f = (X[:, 0] > 0.5).astype(float)
    s1 = PairModel(W, pairs, eta, m).sums(F[:, 0])
    mu, nu = PairModel(W, pairs, eta, m).blocks(s1, f)
    E = np.exp(F[None, :, 0] - F[:, None, 0])
    gam = W * E / (W * E).sum() + T * E / (T * E).sum()
    P = f > 0
    assert mu == pytest.approx(gam[np.ix_(P, ~P)].sum())
    assert nu == pytest.approx(gam[np.ix_(~P, P)].sum())


def test_log_domain_path_agrees_when_F_spans_a_huge_range():
    X, y, g, pairs, _mask = _fixture()
    W = base_matrix(g, 3.0)
    F = np.linspace(0, 50, len(y))
    model = PairModel(W, pairs, 0.5)
    lin = model.sums(F)
    model.LINEAR_RANGE = 1.0  # force the log-domain path
    log = model.sums(F)
    assert log.linear is None and lin.linear is not None
    for a, b in (
        (lin.rw, log.rw),
        (lin.ct, log.ct),
        (lin.log_w, log.log_w),
        (lin.log_t, log.log_t),
    ):
        assert np.allclose(a, b)
    f = (X[:, 1] > 0.5).astype(float)
    assert np.allclose(PairModel(W, pairs, 0.5).blocks(lin, f), model.blocks(log, f))


@pytest.mark.parametrize("weak", ["sampled_stump", "thresholds"])
@pytest.mark.parametrize("scope", ["all", "judged"])
def test_lp_never_rises_and_theorem9_holds(weak, scope):
    X, _y, g, pairs, mask = _fixture()
    model = MRR(40, weak_learner=weak, t_scope=scope, random_state=3).fit(X, g, pairs, judged=mask)
    obj = model.objective_
    assert len(obj) == 41
    assert np.all(np.diff(obj) <= 1e-10)  # L_p (Eq. 4.10) never rises
    assert obj[-1] < obj[0] - 1e-3  # and it does fall
    assert np.all(obj <= model.theorem9_bound() + 1e-10)  # Eq. 4.15
    assert np.allclose(model.predict(X), model.train_scores_)


def test_objective_is_the_product_of_the_two_errors():
    X, y, g, pairs, _mask = _fixture()
    model = MRR(5, random_state=0).fit(X, g, pairs)
    F = model.train_scores_
    E = np.exp(F[None, :] - F[:, None])
    W, T = base_matrix(g, model.lam_), _dense(len(y), pairs, 0.5)
    assert model.objective_[-1] == pytest.approx(np.log((W * E).sum() * (T * E).sum()))
    assert model.objective_[0] == pytest.approx(np.log(W.sum() * T.sum()))  # F = 0


def test_theorem10_as_printed_fails_while_its_proof_step_holds():
    """Appendix A.12 shows eta_t = mu_t - nu_t >= (sqrt(mu_t) - sqrt(nu_t))^2 -- true -- and
    substitutes it into Theorem 9, but that makes the bound smaller, not larger: Eq. 4.19
    does not follow, and on this fixture it is violated after the first iteration."""
    X, _y, g, pairs, _mask = _fixture()
    model = MRR(20, random_state=3).fit(X, g, pairs)
    assert np.allclose(model.edge_, model.mu_ - model.nu_)
    assert np.all(model.edge_ + 1e-12 >= (np.sqrt(model.mu_) - np.sqrt(model.nu_)) ** 2)
    t10 = model.theorem10_bound()
    assert t10[0] == pytest.approx(model.objective_[0])  # equality at t = 0
    assert np.any(model.objective_[1:] > t10[1:] + 1e-6)  # the printed bound fails


def test_lambda_zero_ignores_the_base_ranker():
    X, _y, g, pairs, _mask = _fixture()
    other = np.random.default_rng(9).random(len(g))
    a = MRR(15, lam=0.0, random_state=4).fit(X, g, pairs)
    b = MRR(15, lam=0.0, random_state=4).fit(X, other, pairs)
    assert np.array_equal(a.train_scores_, b.train_scores_)
    c = MRR(15, random_state=4).fit(X, g, pairs)
    d = MRR(15, random_state=4).fit(X, other, pairs)
    assert not np.array_equal(c.train_scores_, d.train_scores_)  # lambda > 0 does not


def test_feedback_moves_the_ranking_towards_the_judged_order():
    X, _y, g, pairs, mask = _fixture()
    F = MRR(40, t_scope="judged", random_state=1).fit(X, g, pairs, judged=mask).train_scores_
    won = np.mean(F[pairs[:, 0]] > F[pairs[:, 1]])
    base = np.mean(g[pairs[:, 0]] > g[pairs[:, 1]])
    assert won > base


def test_stump_and_threshold_bank():
    Xs = np.array([[0.1, 5.0], [0.2, 1.0], [0.8, 2.0], [0.9, 3.0]])
    ys = np.array([-1, -1, 1, 1])
    s = fit_stump(Xs, ys)
    assert (s.feature, s.above) == (0, True) and s.threshold == pytest.approx(0.5)
    assert np.array_equal(s.predict(Xs), [0, 0, 1, 1])
    assert fit_stump(np.ones((3, 2)), np.array([1, -1, 1])) is None
    column = np.array([[0.0], [1.0], [2.0], [3.0]])
    thinned = ThresholdBank(column, n_thresholds=2)
    assert np.allclose(thinned.thresholds, [0.5, 2.5])  # evenly spaced among the midpoints
    bank = ThresholdBank(column, n_thresholds=16)
    idx, r = bank.best(np.array([-1.0, -1.0, 1.0, 1.0]))
    assert r[0] == pytest.approx(2.0) and bank.thresholds[idx[0]] == pytest.approx(1.5)


def test_bad_arguments():
    X, _y, g, pairs, _mask = _fixture()
    with pytest.raises(BoostrankError, match="eta"):
        MRR(2, eta=1.5).fit(X, g, pairs)
    with pytest.raises(BoostrankError, match="weak_learner"):
        MRR(2, weak_learner="tree").fit(X, g, pairs)  # type: ignore[arg-type]
    with pytest.raises(BoostrankError, match="out of range"):
        MRR(2).fit(X, g, np.array([[0, 99]]))


def test_the_smoothing_guard_fires_only_where_eq_4_14_is_infinite():
    """With eta = 0 and a base ranker so steep that W is 0 or 1, a feature that agrees with the
    base order and the feedback leaves no pair the wrong way: nu = 0, Eq. 4.14's alpha is
    infinite and the smoothing sets it (counted each iteration); with eta = 0.5, T puts
    weight on every pair, nu > 0 and the guard stays at 0."""
    g = np.arange(10, 0, -1, dtype=float)
    X, pairs = g[:, None].copy(), np.array([[0, 9], [1, 8], [2, 7]])
    steep = MRR(3, eta=0.0, lam=1000.0).fit(X, g, pairs)
    assert (steep.nu_ == 0.0).all() and np.isfinite(steep.alpha_).all()
    assert steep.guards_ == {"mrr_alpha_smoothing": 3}
    smooth = MRR(3, eta=0.5, lam=1000.0).fit(X, g, pairs)
    assert (smooth.nu_ > 0.0).all() and smooth.guards_ == {"mrr_alpha_smoothing": 0}
    X, _, g, pairs, judged = _fixture()
    assert MRR(20).fit(X, g, pairs, judged=judged).guards_ == {"mrr_alpha_smoothing": 0}
