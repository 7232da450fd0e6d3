"""The chapter 5-6 online learners (Valizadegan 2010): Banditron (Algorithm 7), Banditron_Pos,
the exponential gradient (Algorithm 9), the adaptive exploration rules (Algorithm 10) and the
Perceptron; checked by exact enumeration, worked examples and cross-checks."""

import numpy as np
import pytest

from boostrank.errors import BoostrankError
from boostrank.online.adaptive_exploration import RULES, AdaptiveGamma
from boostrank.online.banditron import (
    Banditron,
    delta_weight,
    dense_delta,
    label_probability,
    sample_labels,
)
from boostrank.online.exponential_gradient import ExponentialGradient, eg_step_size
from boostrank.online.perceptron import Perceptron
from boostrank.online.streams import checkpoints, run_stream, scale_inputs, stream_orders


def _data(n=300, d=6, K=4, seed=0, signed=True):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(K, d)) * 2
    y = rng.integers(0, K, n)
    X = centres[y] + rng.normal(size=(n, d))
    if not signed:
        X = np.abs(X)
    return scale_inputs(X), y, K


@pytest.mark.parametrize("K", [2, 3, 7])
@pytest.mark.parametrize("gamma", [0.01, 0.2, 0.45])
def test_expected_delta_is_one_hot_difference_by_exact_enumeration(K, gamma):
    """Proposition 3: E_t[delta_t] = 1_{y_hat} - 1_y, summing p_k delta(y~ = k) over all k."""
    for y_hat in range(K):
        for y in range(K):
            yh = np.array([y_hat])
            yy = np.array([y])
            g = np.array([gamma])
            p = label_probability(yh, g, K)[0]
            assert p.sum() == pytest.approx(1.0)
            expected = np.zeros(K)
            for k in range(K):
                yt = np.array([k])
                c = delta_weight(yy, yh, yt, p[[k]], p[[y_hat]], "p_tilde")
                expected += p[k] * dense_delta(yh, yt, c, K)[0]
            target = np.zeros(K)
            target[y_hat] += 1
            target[y] -= 1
            np.testing.assert_allclose(expected, target, atol=1e-12)


def test_printed_p_hat_denominator_is_biased():
    """Algorithms 8-9 print p_{y_hat}: then E[delta] != 1_{y_hat} - 1_y when y_hat != y."""
    K, gamma, y_hat, y = 4, 0.2, 0, 2
    yh, yy = np.array([y_hat]), np.array([y])
    p = label_probability(yh, np.array([gamma]), K)[0]
    expected = sum(
        p[k]
        * dense_delta(
            yh, np.array([k]), delta_weight(yy, yh, np.array([k]), p[[k]], p[[y_hat]], "p_hat"), K
        )[0]
        for k in range(K)
    )
    assert expected[y] == pytest.approx(-(gamma / K) / p[y_hat])
    assert abs(expected[y] + 1) > 0.5


def test_sampling_has_the_law_p():
    """y~ from one uniform has law p_k = (1-gamma)[k = y_hat] + gamma/K (grid of 100,000 u)."""
    K, gamma, n = 5, 0.3, 100_000
    u = (np.arange(n) + 0.5) / n
    y_hat = np.full(n, 3)
    y_tilde, p_tilde = sample_labels(y_hat, u, np.full(n, gamma), K)
    freq = np.bincount(y_tilde, minlength=K) / n
    p = label_probability(np.array([3]), np.array([gamma]), K)[0]
    np.testing.assert_allclose(freq, p, atol=1e-4)
    np.testing.assert_allclose(p_tilde, p[y_tilde])


def test_banditron_worked_example():
    """Two trials by hand: d = 2, K = 3, gamma = 0.3, uniforms 0.05 then 0.15."""
    learner = Banditron(2, 3, seeds=[0], gamma=0.3)
    uniforms = iter([np.array([0.05]), np.array([0.15])])
    learner._uniforms.next = lambda: next(uniforms)
    # trial 1: W = 0, y_hat = 0 (tie); u = 0.05 < 0.3 -> y~ = floor(0.05*3/0.3) = 0 = y_hat;
    # y = 2, so no reward: delta = 1_0, W[:, 0] -= x
    assert learner.partial_fit(np.array([[1.0, 0.0]]), np.array([2]))[0] == 0  # the label played
    # trial 2: scores (0, 0, 0) -> y_hat = 0; u = 0.15 -> y~ = floor(1.5) = 1 = y; reward;
    # p_{y~} = gamma / K = 0.1: delta = 1_0 - 10 * 1_1
    assert learner.partial_fit(np.array([[0.0, 1.0]]), np.array([1]))[0] == 1
    np.testing.assert_allclose(learner.coef_[0], [[-1.0, 0.0, 0.0], [-1.0, 10.0, 0.0]])


def test_banditron_exploit_hit_update():
    """y_hat = y~ = y: delta = (1 - 1/p) 1_y with p = 1 - gamma + gamma/K."""
    learner = Banditron(2, 2, seeds=[0], gamma=0.2)
    learner._uniforms.next = lambda: np.array([0.9])  # exploit
    learner.partial_fit(np.array([[0.5, 0.5]]), np.array([0]))
    p = 1 - 0.2 + 0.1
    np.testing.assert_allclose(learner.coef_[0][:, 0], -(1 - 1 / p) * np.array([0.5, 0.5]))


@pytest.mark.parametrize("gamma", [0.0, 1e-9])
def test_full_feedback_banditron_with_vanishing_gamma_is_the_perceptron(gamma):
    X, y, K = _data()
    seeds = [11, 12, 13]
    orders = stream_orders(len(y), [1, 2, 3])
    points = checkpoints(len(y), 20)
    band = Banditron(X.shape[1], K, seeds, gamma=gamma, feedback="full")
    perc = Perceptron(X.shape[1], K, seeds)
    counts = run_stream(perc, X, y, orders, points)
    np.testing.assert_array_equal(run_stream(band, X, y, orders, points), counts)
    assert np.array_equal(band.coef_, perc.coef_)  # bit for bit
    assert counts[:, -1].min() > 0


def _learners(d, K, seeds, gamma):
    yield "banditron", lambda s, g: Banditron(d, K, s, gamma=g)
    yield "banditron_pos", lambda s, g: Banditron(d, K, s, gamma=g, positive=True)
    yield "exp_gradient", lambda s, g: ExponentialGradient(d, K, s, gamma=g, n_trials=200)
    yield "perceptron", lambda s, g: Perceptron(d, K, s)
    for rule in RULES:
        yield rule, lambda s, g, rule=rule: Banditron(d, K, s, gamma=AdaptiveGamma(rule))


def test_vectorised_equals_separate_scalar_runs_bit_for_bit():
    X, y, K = _data(n=200, d=9, K=5, seed=3)
    d = X.shape[1]
    R = 6
    seeds = np.arange(100, 100 + R, dtype=np.uint64)
    gamma = np.linspace(0.05, 0.45, R)
    orders = stream_orders(len(y), np.arange(R) + 7)
    points = checkpoints(len(y), 10)
    for name, make in _learners(d, K, seeds, gamma):
        many = make(seeds, gamma)
        counts = run_stream(many, X, y, orders, points)
        for r in range(R):
            one = make(seeds[r : r + 1], gamma[r])
            single = run_stream(one, X, y, orders[r : r + 1], points)
            assert np.array_equal(single[0], counts[r]), name
            assert np.array_equal(one.coef_[0], many.coef_[r]), name


@pytest.mark.parametrize("rule", RULES)
def test_adaptive_gamma_stays_in_half_open_interval(rule):
    """gamma_t in (0, 1/2] for every rule on random streams (sections 6.3.2-6.3.4)."""
    for seed in range(3):
        X, y, K = _data(n=400, d=5, K=3 + seed, seed=seed)
        learner = Banditron(X.shape[1], K, seeds=np.arange(8) + seed, gamma=AdaptiveGamma(rule))
        orders = stream_orders(len(y), np.arange(8) + 50)
        seen = []
        for t in range(orders.shape[1]):
            seen.append(learner.current_gamma().copy())
            learner.partial_fit(X[orders[:, t]], y[orders[:, t]])
        g = np.array(seen)
        assert np.all(g > 0) and np.all(g <= 0.5), rule
        assert learner.s_tau_.max() <= len(y) and learner.s_mu_.max() <= 2 * len(y)


def test_adaptive_rules_first_values_and_formulas():
    """t = 1 (no history): ag0 = 1/2, ag1 = 1/2 (Eq. 6.4), ag2 = 2^(-0.9)/2 (Eq. 6.5), ag3 =
    1/2 (Eq. 6.3); later values follow the closed forms with omega(z) = (1+z)^0.1."""
    z = np.zeros(1)
    assert AdaptiveGamma("ag0")(1, z, z)[0] == pytest.approx(0.5)
    assert AdaptiveGamma("ag1")(1, z, z)[0] == pytest.approx(0.5)
    assert AdaptiveGamma("ag2")(1, z, z)[0] == pytest.approx(0.5 * 2**-0.9)
    assert AdaptiveGamma("ag3")(1, z, z)[0] == pytest.approx(0.5)
    t, s_mu, s_tau = 101, np.array([120.0]), np.array([40.0])
    assert AdaptiveGamma("ag0")(t, s_mu, s_tau)[0] == pytest.approx(0.5 * 101 ** (-1 / 3))
    assert AdaptiveGamma("ag1")(t, s_mu, s_tau)[0] == pytest.approx(0.5 * (1 + 220) ** -0.9)
    assert AdaptiveGamma("ag2")(t, s_mu, s_tau)[0] == pytest.approx(0.5 * (41 / 102) ** 0.9)
    assert AdaptiveGamma("ag3")(t, s_mu, s_tau)[0] == pytest.approx(0.5 * (41 / 221) ** 0.9)
    with pytest.raises(BoostrankError):
        AdaptiveGamma("ag9")


def test_banditron_pos_keeps_weights_non_negative():
    X, y, K = _data(signed=True)
    learner = Banditron(X.shape[1], K, seeds=[1, 2], gamma=0.2, positive=True)
    run_stream(learner, X, y, stream_orders(len(y), [3, 4]), checkpoints(len(y)))
    assert learner.coef_.min() >= 0 and learner.coef_.max() > 0


def test_exponential_gradient_columns_are_distributions_and_step_size():
    X, y, K = _data()
    X = scale_inputs(X, "linf")
    learner = ExponentialGradient(
        X.shape[1], K, seeds=[1], gamma=0.1, n_trials=len(y), eta_factor=1e-5
    )
    w0 = learner.coef_[0]
    np.testing.assert_allclose(w0, 1.0 / X.shape[1])  # theta^0 = 1 1^T / d -> uniform
    run_stream(learner, X, y, stream_orders(len(y), [5]), checkpoints(len(y)))
    np.testing.assert_allclose(learner.coef_[0].sum(axis=0), 1.0)  # each w_k a distribution
    eta = 1e-5 * np.sqrt(K * 0.9 * np.log(K) / (len(y) * 0.1))  # Eq. 5.12 x 1e-5
    assert learner.eta_[0] == pytest.approx(eta)
    assert eg_step_size(0.1, K, len(y), 1.0) == pytest.approx(eta / 1e-5)
    # softmax recomputed from theta matches the incrementally kept columns exactly
    theta = learner._theta
    full = np.exp(theta - theta.max(axis=2, keepdims=True))
    np.testing.assert_array_equal(full, learner._e)


def test_exponential_gradient_is_multiplicative_and_never_overflows():
    """With Eq. 5.12's step (factor 1) theta moves by far more than with the
    factor 1e-5 (which leaves W within ~1e-4 of uniform), and raw, unscaled inputs with the
    full step keep every weight finite (log-sum-exp softmax)."""
    X, y, K = _data(n=2000, d=8, K=4, seed=5)
    orders = stream_orders(len(y), [1, 2])
    points = checkpoints(len(y), 5)
    shifts = {}
    for factor in (1.0, 1e-5):
        learner = ExponentialGradient(8, K, [1, 2], gamma=0.2, n_trials=len(y), eta_factor=factor)
        run_stream(learner, scale_inputs(X, "linf"), y, orders, points)
        shifts[factor] = learner.theta_shift_.min()
    assert shifts[1.0] > 0.5 and shifts[1e-5] < 1e-4
    raw = ExponentialGradient(8, K, [1, 2], gamma=0.2, n_trials=len(y), eta_factor=1.0)
    err = run_stream(raw, 1e4 * X, y, orders, points)[:, -1] / len(y)
    assert np.isfinite(raw.coef_).all() and np.isfinite(raw._z).all() and (err < 1).all()


def test_learners_learn_separable_data():
    """A sanity check that can fail: on well-separated classes every learner beats chance."""
    X, y, K = _data(n=2000, d=8, K=4, seed=5)
    orders = stream_orders(len(y), [1, 2])
    points = checkpoints(len(y), 5)
    for name, make in _learners(X.shape[1], K, [1, 2], np.array([0.2, 0.2])):
        if name == "exp_gradient":
            learner = ExponentialGradient(X.shape[1], K, [1, 2], gamma=0.2, n_trials=len(y))
            data = scale_inputs(X, "linf")
        else:
            learner, data = make(np.array([1, 2]), np.array([0.2, 0.2])), X
        err = run_stream(learner, data, y, orders, points)[:, -1] / len(y)
        assert err.max() < 0.6, (name, err)  # chance is 0.75


def test_scaling_and_checkpoints():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 4)) * 7
    assert np.linalg.norm(scale_inputs(X), axis=1).max() == pytest.approx(1.0)
    assert np.abs(scale_inputs(X, "linf")).max() == pytest.approx(1.0)
    np.testing.assert_allclose(np.linalg.norm(scale_inputs(X, mode="row"), axis=1), 1.0)
    pts = checkpoints(1234, 50)
    assert pts[0] == 1 and pts[-1] == 1234 and np.all(np.diff(pts) > 0)


def test_bad_arguments_raise():
    with pytest.raises(BoostrankError):
        Banditron(3, 2, [1], gamma=0.0)  # bandit feedback needs gamma > 0
    with pytest.raises(BoostrankError):
        Banditron(3, 2, [1], gamma=0.1, importance="p_bar")
    with pytest.raises(BoostrankError):
        Banditron(3, 2, [1]).partial_fit(np.zeros((2, 3)), np.zeros(2))
