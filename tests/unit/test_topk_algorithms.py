"""Online boosting with top-k feedback (Zhang, Jung & Tewari, 2019): rank losses, the
exploration step and the unbiased estimator (Eq. 1, checked by exact enumeration), the exact
potentials, the cost vectors, the weak learners and the four boosters."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from boostrank.errors import BoostrankError
from boostrank.online import topk_boosting
from boostrank.online.multilabel_weak import OnlineSoftmaxLearners
from boostrank.online.rank_loss import (
    pairwise_rank_loss,
    ranking,
    unweighted_rank_loss,
    weighted_rank_loss,
)
from boostrank.online.topk_boosting import (
    AdaOLMR,
    OnlineBMR,
    PairPotential,
    TopkAdaptive,
    TopkBBM,
    logistic_costs,
    potential_costs,
)
from boostrank.online.topk_feedback import (
    check_feedback,
    estimate_bound,
    estimate_pairwise_loss,
    exploration_outcomes,
    explore,
    full_pairs,
    observed_pairs,
    pair_probability,
    pair_rank_loss,
)


# ---------------------------------------------------------------- rank losses
def test_rank_loss_worked_example_and_ties():
    # Y = {1, 2}: label 0 (irrelevant) above both -> 2 of 2 pairs wrong
    assert weighted_rank_loss([[3.0, 2.0, 1.0]], [[0, 1, 1]])[0] == 1.0
    assert unweighted_rank_loss([[3.0, 2.0, 1.0]], [[0, 1, 1]])[0] == 2.0
    # a tie counts 1/2: pairs (1,0) tie, (2,0) right
    assert weighted_rank_loss([[1.0, 1.0, 2.0]], [[0, 1, 1]])[0] == pytest.approx(0.25)
    # empty Y or empty Y^c scores 0
    assert weighted_rank_loss(
        [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], [[0, 0, 0], [1, 1, 1]]
    ).tolist() == [0, 0]


def test_rank_loss_matches_the_double_loop():
    rng = np.random.default_rng(1)
    S = rng.integers(0, 3, (300, 7)).astype(float)  # many ties
    Y = rng.integers(0, 2, (300, 7))
    ref = [pairwise_rank_loss(s, y) for s, y in zip(S, Y, strict=True)]
    np.testing.assert_allclose(weighted_rank_loss(S, Y), ref)


def test_ranking_breaks_ties_towards_the_smaller_label():
    assert ranking(np.array([1.0, 2.0, 2.0, 0.0])).tolist() == [1, 2, 0, 3]


# ---------------------------------------------------------------- exploration and Eq. 1
def _enumerated_pair_probability(m, k, rho, q, a, b):
    sigma = np.arange(m)
    return sum(p for p, out in exploration_outcomes(sigma, k, rho, q) if {a, b} <= set(out[:k]))


@pytest.mark.parametrize(("m", "k", "q"), [(7, 3, 2), (6, 4, 2), (9, 5, 3)])
def test_pair_probabilities_match_the_enumeration(m, k, q):
    rho = 0.3
    outcomes = exploration_outcomes(np.arange(m), k, rho, q)
    assert sum(p for p, _ in outcomes) == pytest.approx(1.0)
    for a in range(m):
        for b in range(a + 1, m):
            want = _enumerated_pair_probability(m, k, rho, q, a, b)
            got = pair_probability(np.array(a < k), np.array(b < k), m, k, rho, q)
            assert float(got) == pytest.approx(want), (a, b)
            assert want > 0


def test_exploration_swaps_highest_with_highest():
    # Figure 1's construction: chosen top positions (0, 2), bottom positions (3, 5)
    sigma = np.array([10, 11, 12, 13, 14, 15])
    outs = {tuple(o) for _, o in exploration_outcomes(sigma, 3, 1.0, 2)}
    assert (13, 11, 15, 10, 14, 12) in outs
    assert (15, 11, 13, 10, 14, 12) not in outs


def test_sampler_draws_the_enumerated_distribution():
    m, k, rho, q = 6, 3, 0.5, 2
    sigma = np.arange(m)
    probs = {tuple(o[:k]): 0.0 for _, o in exploration_outcomes(sigma, k, rho, q)}
    for p, o in exploration_outcomes(sigma, k, rho, q):
        probs[tuple(o[:k])] += p
    rng = np.random.default_rng(3)
    n = 20000
    counts = dict.fromkeys(probs, 0)
    for _ in range(n):
        out, _ = explore(sigma, k, rho, rng, q)
        counts[tuple(out[:k])] += 1
    for key, p in probs.items():
        assert abs(counts[key] / n - p) < 4 * np.sqrt(p * (1 - p) / n) + 1e-3


def _exact_expectation(s, y, sigma, k, rho, q, pair_loss):
    total = 0.0
    for p, out in exploration_outcomes(sigma, k, rho, q):
        pairs = observed_pairs(sigma, out, y, k, rho, q)
        total += p * float(estimate_pairwise_loss(s, pairs, pair_loss))
    return total


@pytest.mark.parametrize(("m", "k"), [(6, 3), (7, 4), (8, 3)])
def test_estimator_is_unbiased_by_exact_enumeration(m, k):
    """Lemma 5: E[L_hat(s)] = L(s) for any s, whatever ranking the booster showed."""
    rng = np.random.default_rng(m * 10 + k)

    def hinge(a, b):
        return np.maximum(0.0, 1.0 + b - a)

    for _ in range(5):
        y = rng.integers(0, 2, m)
        y[0], y[1] = 1, 0
        s = rng.normal(size=m)
        sigma = ranking(rng.normal(size=m))  # the shown ranking need not be s's
        for f in (pair_rank_loss, hinge):
            truth = float(estimate_pairwise_loss(s, full_pairs(y, normalize=False), f))
            assert _exact_expectation(s, y, sigma, k, 0.25, 2, f) == pytest.approx(truth)


def test_one_swap_is_biased():
    """With a single swap two labels from the bottom are never shown together: Eq. 1 loses
    their pair, so the expectation falls short (the check can fail)."""
    m, k = 6, 3
    y = np.array([0, 0, 0, 1, 0, 0])
    s = np.zeros(m)
    sigma = np.arange(m)
    truth = float(estimate_pairwise_loss(s, full_pairs(y, normalize=False), pair_rank_loss))
    assert _exact_expectation(s, y, sigma, k, 0.25, 1, pair_rank_loss) < truth - 0.1
    with pytest.raises(BoostrankError, match="n_swap"):
        check_feedback(m, k, 1)
    with pytest.raises(BoostrankError, match="3 <= k"):
        check_feedback(6, 2, 2)


# ---------------------------------------------------------------- potentials and costs
def test_pair_potential_interpolation_is_exact():
    pot = PairPotential(6, p_rel=0.3, p_irr=0.1, margin=1.0)
    rng = np.random.default_rng(0)
    n = rng.integers(0, 7, 40)
    z = rng.uniform(-10, 10, (40, 1, 1))
    got = pot(n, z)[:, 0, 0]
    want = [pot.reference(int(a), float(b)) for a, b in zip(n, z[:, 0, 0], strict=True)]
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_ground_truth_potential_is_pairwise():
    """OnlineBMR's potential E L(s + Multinomial(n, u_gamma^Y)) computed by enumerating every
    vote vector equals the sum of the exact pair potentials."""
    m, n, gamma, margin = 4, 3, 0.2, 1.0
    y = np.array([1, 0, 1, 0])
    s = np.array([0.3, 0.7, -0.2, 0.1])
    u = np.full(m, (1 - gamma * y.sum()) / m) + gamma * y
    brute = 0.0
    for votes in product(range(m), repeat=n):
        counts = np.bincount(votes, minlength=m)
        f = np.maximum(0.0, margin + (s + counts)[None, y == 0] - (s + counts)[y == 1, None])
        brute += np.prod(u[list(votes)]) * f.sum()
    pot = PairPotential(n, u[0], u[1], margin)
    rel, irr = np.flatnonzero(y), np.flatnonzero(1 - y)
    z = (s[irr][None, :] - s[rel][:, None])[None]
    assert pot(np.array([n]), z).sum() == pytest.approx(brute)


def test_potential_costs_by_definition():
    rng = np.random.default_rng(5)
    N, m = 4, 5
    pot = PairPotential(N, 0.4, 0.1, 1.0)
    S_prev = rng.normal(size=(N, m))
    rel, irr = np.array([0, 3]), np.array([1, 2, 4])
    w = rng.uniform(0.5, 3.0, (2, 3))
    remaining = N - 1 - np.arange(N)
    got = potential_costs(S_prev, rel, irr, w, pot, remaining)
    for i in range(N):

        def total(s, i=i):
            return sum(
                w[a, b] * pot.reference(int(remaining[i]), s[irr[b]] - s[rel[a]])
                for a in range(2)
                for b in range(3)
            )

        base = total(S_prev[i])
        for j in range(m):
            assert got[i, j] == pytest.approx(total(S_prev[i] + np.eye(m)[j]) - base)


def test_logistic_costs_are_the_gradient():
    rng = np.random.default_rng(6)
    S_prev = rng.normal(size=(3, 5))
    rel, irr = np.array([1, 4]), np.array([0, 2, 3])
    w = rng.uniform(0.5, 2.0, (2, 3))
    got = logistic_costs(S_prev, rel, irr, w)

    def loss(s):
        return float((w * np.log1p(np.exp(s[irr][None, :] - s[rel][:, None]))).sum())

    eps = 1e-6
    for i in range(3):
        for j in range(5):
            e = np.eye(5)[j] * eps
            fd = (loss(S_prev[i] + e) - loss(S_prev[i] - e)) / (2 * eps)
            assert got[i, j] == pytest.approx(fd, abs=1e-6)


# ---------------------------------------------------------------- weak learners
@pytest.mark.parametrize("update", ["expected_cost", "weighted_ce"])
def test_weak_learners_lower_their_cost(update):
    rng = np.random.default_rng(0)
    wl = OnlineSoftmaxLearners(3, 4, 6, rng, n_sub=4, lr=0.2, update=update)
    x = rng.normal(size=6)
    cost = np.tile([1.0, 0.0, 1.0, 1.0], (3, 1))  # label 1 is the cheap one
    relevant = np.array([0.0, 1.0, 0.0, 0.0])
    before = (wl.predict_rows(x[None])[0] * cost).sum(axis=1)
    for _ in range(50):
        h = wl.predict_rows(x[None])[0]
        assert wl.partial_fit(x, lambda _h: (cost, relevant)) == pytest.approx(h)
    after = (wl.predict_rows(x[None])[0] * cost).sum(axis=1)
    assert (after < before - 0.2).all()


def test_weak_learners_adagrad_steps_follow_the_formula_row_after_row():
    """Each round's step is -lr g / sqrt(sum of g^2) on the row just predicted (the learners
    reuse their arrays from round to round: a second row must not see the first's)."""
    rng = np.random.default_rng(3)
    wl = OnlineSoftmaxLearners(3, 4, 6, rng, n_sub=4, lr=0.2, update="expected_cost")
    W, g2 = wl.W.copy(), np.zeros_like(wl.W)
    seen = []
    for x, cost in ((rng.normal(size=6), rng.random((3, 4))) for _ in range(3)):
        xs = np.concatenate([x[wl.features], np.ones((3, 1))], axis=1)
        z = np.einsum("nmd,nd->nm", W, xs)
        h = np.exp(z - z.max(axis=1, keepdims=True))
        h /= h.sum(axis=1, keepdims=True)

        def feedback(played, cost=cost):
            seen.append(played.copy())
            return cost, None

        played = wl.partial_fit(x, feedback)
        assert played == pytest.approx(h, rel=1e-12)
        assert np.array_equal(seen[-1], played)  # the feedback saw the distributions played
        g = (h * (cost - (cost * h).sum(axis=1, keepdims=True)))[:, :, None] * xs[:, None, :]
        g2 += g * g
        W -= 0.2 * g / (np.sqrt(g2) + 1e-12)
        np.testing.assert_allclose(wl.W, W, rtol=1e-12, atol=1e-15)


# ---------------------------------------------------------------- boosters
def _toy(n=400, m=6, d=8, seed=0):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, m)) < 0.35).astype(np.int8)
    Y[Y.sum(axis=1) == 0, 0] = 1
    X = Y @ rng.normal(0, 1.5, (m, d)) + rng.normal(0, 0.5, (n, d))
    return X, Y


@pytest.mark.parametrize("make", [TopkBBM, TopkAdaptive, OnlineBMR, AdaOLMR])
def test_boosters_learn_and_are_deterministic(make):
    X, Y = _toy()
    order = np.tile(np.arange(300), 3)

    def run(seed):
        b = make(X.shape[1], 6, n_learners=8, random_state=seed, weak={"lr": 0.1, "n_sub": 4})
        b.partial_fit(X[order], Y[order])
        return b.decision_scores(X[300:])

    first = run(1)
    assert weighted_rank_loss(first, Y[300:]).mean() < 0.25  # random scores: 0.5
    assert np.array_equal(run(1), first)
    assert not np.allclose(run(2), first)


def test_topk_booster_reads_only_the_shown_labels(monkeypatch):
    """Relevance outside the shown top k must not change a top-k booster's run."""
    X, Y = _toy(n=60)
    explored, original = [], topk_boosting.explore

    def explore(*args, **kw):  # records the explored rankings
        explored.append(original(*args, **kw))
        return explored[-1]

    monkeypatch.setattr(topk_boosting, "explore", explore)
    b1 = TopkBBM(X.shape[1], 6, k=3, n_learners=4, random_state=0)
    b2 = TopkBBM(X.shape[1], 6, k=3, n_learners=4, random_state=0)
    for x, y in zip(X, Y, strict=True):
        b1.partial_fit(x[None], y[None])
        shown = explored[-1][0][:3]
        y2 = np.full_like(y, 1) - y  # flip everything ...
        y2[shown] = y[shown]  # ... except the shown labels
        b2.partial_fit(x[None], y2[None])
        assert np.array_equal(b1.weak.W, b2.weak.W)


def test_onlinebmr_counts_its_edge_guard_on_rows_with_too_many_labels():
    """gamma |Y| > 1 leaves u_gamma^Y no distribution: the guard topk_bmr_edge fires once per
    such row; 'lower' still updates there (gamma 1/|Y|), 'skip' leaves the learners alone."""
    X, Y = _toy(n=40)
    wide = Y.sum(axis=1) >= 3  # gamma 0.4: 3 labels give 1.2 > 1
    assert 0 < wide.sum() < len(Y)
    boosters = {
        rule: OnlineBMR(X.shape[1], 6, n_learners=4, gamma=0.4, edge_guard=rule, random_state=0)
        for rule in ("lower", "skip")
    }
    for rule, b in boosters.items():
        for x, y, fires in zip(X, Y, wide, strict=True):
            before = b.weak.W.copy()
            b.partial_fit(x[None], y[None])
            if fires:
                assert np.array_equal(b.weak.W, before) == (rule == "skip")
        assert b.guards_ == {"topk_bmr_edge": int(wide.sum())}
    assert TopkBBM(X.shape[1], 6, k=3, gamma=0.4).guards_ == {}  # top-k: votes on one label
    with pytest.raises(BoostrankError, match="edge_guard"):
        OnlineBMR(X.shape[1], 6, edge_guard="clip")


@pytest.mark.parametrize(("m", "k"), [(6, 3), (7, 4), (8, 3)])
def test_estimate_bound_is_the_largest_one_round_estimate(m, k):
    """Hedge's scale (``hedge_scale: range``): over every exploration outcome and every
    relevance vector, Eq. 1's estimate of the rank loss of any score vector reaches the bound
    and never exceeds it."""
    rho = 0.2
    sigma = np.arange(m)
    worst = 0.0
    for y in product([0, 1], repeat=m):
        y = np.array(y)
        for _p, tilde in exploration_outcomes(sigma, k, rho):
            *_pairs, w = observed_pairs(sigma, tilde, y, k, rho)
            worst = max(worst, float(w.sum()))  # every shown pair misordered
    assert worst == pytest.approx(estimate_bound(m, k, rho))


def test_range_scaled_hedge_keeps_topk_adaptive_from_collapsing_after_a_few_rounds():
    """With the raw estimate (up to 45 per round here) Hedge puts all its mass on one expert
    within 30 rounds, before any evidence; scaled to [0, 1] it concentrates only as the
    evidence accumulates. Both still learn."""
    X, Y = _toy()
    order = np.tile(np.arange(300), 3)
    entropy, loss = {}, {}
    for scale in ("none", "range"):
        b = TopkAdaptive(X.shape[1], 6, n_learners=8, random_state=1, hedge_scale=scale,
                         weak={"lr": 0.1, "n_sub": 4})  # fmt: skip
        bits = []
        for t, i in enumerate(order, start=1):
            b.partial_fit(X[i : i + 1], Y[i : i + 1])
            if t in (30, 900):
                p = b.expert_weights()
                bits.append(float(-(p[p > 0] * np.log2(p[p > 0])).sum()))
        entropy[scale] = bits
        loss[scale] = weighted_rank_loss(b.decision_scores(X[300:]), Y[300:]).mean()
    assert b.hedge_bound == pytest.approx(estimate_bound(6, 3, 0.2))
    assert entropy["none"][0] < 0.5 and entropy["range"][0] > 2.5  # uniform over 8: 3 bits
    assert entropy["range"][1] < entropy["range"][0]  # then it learns which expert is good
    assert loss["range"] < 0.3 and loss["none"] < 0.3
    with pytest.raises(BoostrankError, match="hedge_scale"):
        TopkAdaptive(4, 6, hedge_scale="log")
