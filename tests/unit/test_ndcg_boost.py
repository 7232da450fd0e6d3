"""NDCG_Boost (dissertation chapter 3, Algorithm 5; Valizadegan et al., NIPS 2009): the relaxed
objective, alpha (Eq. 3.15) against the bounds of Proposition 2 and Theorem 6, Lemma 4 by
enumeration, the sign of w (Eq. 3.17), the weak learner, determinism and chunking."""

import itertools

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import expit
from sklearn.tree import DecisionTreeClassifier

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.metrics.ranking import ndcg_at_k
from boostrank.ranking import ndcg_boost as nb
from boostrank.ranking.ndcg_boost import NDCGBoost


def _letor_like(n_queries=6, sizes=(6, 14), n_features=5, seed=0, noise=1.0):
    """Small queries, grades 0-2 growing with a noisy linear score of the features."""
    rng = np.random.default_rng(seed)
    m = rng.integers(sizes[0], sizes[1] + 1, n_queries)
    qid = np.repeat(np.arange(10, 10 + n_queries), m)
    X = rng.random((len(qid), n_features)).astype(np.float32)
    latent = X @ np.linspace(1.0, 0.2, n_features) + noise * rng.normal(0, 0.3, len(qid))
    y = np.zeros(len(qid), dtype=int)
    for q in np.unique(qid):
        rows = qid == q
        y[rows] = np.searchsorted(np.quantile(latent[rows], [0.55, 0.85]), latent[rows])
    shuffle = rng.permutation(len(qid))  # queries interleaved, as the fit must cope with
    return X[shuffle], y[shuffle], qid[shuffle]


def _dense_terms(s, y, qid):
    """Per query (float64, straight from the equations): theta (3.14 with j != i), the Mbar
    coefficients c_i = (2^r_i - 1)/(n Z_k) (3.11) and gains 2^r / Z_k."""
    queries = np.unique(qid)
    out = []
    for q in queries:
        rows = np.flatnonzero(qid == q)
        r = y[rows].astype(float)
        z = ((2.0 ** np.sort(r)[::-1] - 1.0) / np.log2(np.arange(2, len(r) + 2))).sum()
        if z == 0:
            continue
        d = np.abs(s[rows][:, None] - s[rows][None, :])
        theta = np.exp(-d) / (1.0 + np.exp(-d)) ** 2  # Eq. 3.14, even in s_i - s_j
        np.fill_diagonal(theta, 0.0)
        out.append((rows, theta, (2.0**r - 1.0) / (len(queries) * z), 2.0**r / z))
    return out


def _dense_objective(s, y, qid):
    total = 0.0
    for rows, _, c, _ in _dense_terms(s, y, qid):
        A = expit(s[rows][None, :] - s[rows][:, None])  # 1/(1 + exp(s_i - s_j)), (3.10)
        np.fill_diagonal(A, 0.0)
        total += c @ A.sum(axis=1)
    return total


def _dense_weights(s, y, qid):
    w = np.zeros(len(y))
    for rows, theta, _, g in _dense_terms(s, y, qid):
        w[rows] = ((g[:, None] - g[None, :]) * theta).sum(axis=1)  # (3.17)
    return w


def _scores_before(model, X, t):
    """s = F_i = 2F(d_i) after the first t iterations, and f of iteration t + 1."""
    s = 2.0 * model.predict(X, n_iterations=t)
    return s, model.stumps_[t].predict(X).astype(float)


# 1. Mbar (3.11) never rises -----------------------------------------------------------------


@pytest.mark.parametrize(("dtype", "rtol"), [("float64", 1e-12), ("float32", 1e-6)])
def test_relaxed_objective_never_rises(dtype, rtol):
    X, y, qid = _letor_like(seed=1)
    model = NDCGBoost(n_iterations=40, random_state=3, dtype=dtype, block=4).fit(X, y, qid)
    obj = model.objective_
    assert model.n_iterations_ >= 10 and len(obj) == model.n_iterations_ + 1
    assert np.all(np.diff(obj) <= rtol * obj[:-1])
    assert obj[-1] < 0.6 * obj[0]
    # the recorded values are Mbar itself: from scratch at F = 0 and at the final scores
    assert obj[0] == pytest.approx(_dense_objective(np.zeros(len(y)), y, qid), rel=1e-6)
    s = 2.0 * model.predict(X)
    assert obj[-1] == pytest.approx(_dense_objective(s, y, qid), rel=1e-5)


# 2. alpha (3.15) minimises the Proposition 2 bound; Theorem 6 as read --------------------------


def test_alpha_minimises_the_bound_of_proposition_2():
    X, y, qid = _letor_like(seed=2)
    model = NDCGBoost(n_iterations=12, random_state=0, dtype="float64").fit(X, y, qid)
    assert model.n_iterations_ == 12
    n_queries = len(np.unique(qid))
    for t in (0, 3, 7, 11):
        s, f = _scores_before(model, X, t)
        terms = _dense_terms(s, y, qid)
        m0 = _dense_objective(s, y, qid)

        def prop2(a, terms=terms, f=f, m0=m0):
            """Mbar(F) + sum c_i theta_ij [exp(a (f_j - f_i)) - 1], Eq. 3.13 in 3.11."""
            return m0 + sum(
                c @ (theta * np.expm1(a * (f[rows][None, :] - f[rows][:, None]))).sum(axis=1)
                for rows, theta, c, _ in terms
            )

        best = minimize_scalar(
            prop2, bounds=(-5.0, 5.0), method="bounded", options={"xatol": 1e-10}
        )
        alpha = model.alphas_[t]
        assert alpha == pytest.approx(best.x, abs=1e-6)
        after = _dense_objective(s + alpha * f, y, qid)
        assert after <= prop2(alpha) + 1e-12 < m0  # the bound holds and falls

        # alpha_1 - alpha_2 = 1/n sum_i f_i w_i: alpha > 0 exactly when the stump agrees with w
        a1, a2 = nb.alpha_terms(s, y, qid, f.astype(bool))
        fw = f @ _dense_weights(s, y, qid) / n_queries
        assert a1 - a2 == pytest.approx(fw, rel=1e-9) and fw > 0
        assert alpha == pytest.approx(0.5 * np.log(a1 / a2), rel=1e-12)

        # Theorem 6 with the sign of (A.4): an upper bound at every alpha, but its minimiser is
        # 1/6 log(Theta / (Theta - sum f w / n)), not Eq. 3.15 (module docstring, reading 4).
        big_theta = sum(c @ theta.sum(axis=1) for _, theta, c, _ in terms)

        def thm6(a, sign, m0=m0, big_theta=big_theta, fw=fw):
            """Mbar(F) + gamma(alpha) + sign (exp(3 alpha) - 1)/3 sum_i f_i w_i / n (A.7)."""
            gam = (np.exp(3 * a) + np.exp(-3 * a) - 2.0) / 3.0 * big_theta
            return m0 + gam + sign * np.expm1(3 * a) / 3.0 * fw

        for a in (0.5 * alpha, alpha, 2.0 * alpha):
            assert _dense_objective(s + a * f, y, qid) <= thm6(a, -1.0) + 1e-12
        a6 = minimize_scalar(lambda a: thm6(a, -1.0), bounds=(-5, 5), method="bounded").x
        assert a6 == pytest.approx(np.log(big_theta / (big_theta - fw)) / 6.0, abs=1e-5)
        assert abs(a6 - alpha) > 1e-3
        # as printed (+ sign) the bound rises for every alpha > 0: no stump would be accepted
        printed = minimize_scalar(lambda a: thm6(a, 1.0), bounds=(-5, 5), method="bounded").x
        assert printed < 0


# 3. Lemma 4 by enumeration of all m! permutations of Eq. 3.6 ----------------------------------


def test_permutation_model_forms_agree():
    rng = np.random.default_rng(0)
    F = rng.normal(size=5)
    for pi in itertools.islice(itertools.permutations(range(1, 6)), 0, 120, 7):
        pairwise, linear = nb.permutation_log_weight(F, np.array(pi))
        assert pairwise == pytest.approx(linear, abs=1e-12)


@pytest.mark.parametrize("m", [2, 3, 4, 5, 6, 7])
def test_lemma_4_brackets_the_exact_pairwise_marginals(m):
    rng = np.random.default_rng(m)
    for scale in (0.1, 0.7, 2.0):
        F = rng.normal(0.0, scale, m)
        if m > 2:
            F[-1] = F[0]  # a tie
        exact = nb.permutation_marginals(F)
        logistic = nb.logistic_marginals(F)
        d = np.subtract.outer(F, F)
        far = 1.0 / (1.0 + np.exp(2.0 * (m - 1) * d))  # the same swap with pi(i) - pi(j) <= m-1
        off = ~np.eye(m, dtype=bool)
        assert np.allclose((exact + exact.T)[off], 1.0)  # Pr(pi(i) > pi(j)) + Pr(pi(j) > pi(i))
        ahead = off & (d > 0)  # F(d_i) > F(d_j): Lemma 4, Eq. 3.7
        assert np.all(exact[ahead] <= logistic[ahead] + 1e-12)
        assert np.all(exact[ahead] >= far[ahead] - 1e-12)
        behind = off & (d < 0)  # the mirror image
        assert np.all(exact[behind] >= logistic[behind] - 1e-12)
        assert np.all(exact[behind] <= far[behind] + 1e-12)
        if m > 2:
            assert np.allclose(exact[0, m - 1], 0.5) and np.allclose(logistic[0, m - 1], 0.5)
        else:  # one swap, pi(i) - pi(j) = 1: Lemma 4 is exact
            assert np.allclose(exact[off], logistic[off])
        # Eq. 3.5: <pi(i)> = 1 + sum_j Pr(pi(i) > pi(j)), against the enumerated expectation
        pos = np.array(list(itertools.permutations(range(1, m + 1))))
        logp = (m - 2 * pos + 1) @ F
        p = np.exp(logp - logp.max())
        mean_rank = (p / p.sum()) @ pos
        assert np.allclose(mean_rank, 1.0 + (exact * off).sum(axis=1))


def test_relaxed_objective_uses_lemma_4_with_doubled_scores():
    """A_i of Eq. 3.10 at s = 2F equals sum_{j != i} of Lemma 4's logistic model (3.8)."""
    y = np.array([2, 0, 1, 0, 1])
    F = np.array([0.3, -0.2, 0.5, 0.1, -0.4])
    qid = np.zeros(5, dtype=int)
    z = ((2.0 ** np.sort(y)[::-1] - 1) / np.log2(np.arange(2, 7))).sum()
    logistic = nb.logistic_marginals(F)
    np.fill_diagonal(logistic, 0.0)
    expected = ((2.0**y - 1) / z) @ logistic.sum(axis=1)
    assert nb.relaxed_objective(2.0 * F, y, qid) == pytest.approx(expected, rel=1e-12)
    assert nb.relaxed_objective(F, y, qid) != pytest.approx(expected, rel=1e-3)


# 4. A feature that orders the documents perfectly -------------------------------------------


def test_perfect_feature_reaches_ndcg_1_on_training_data():
    rng = np.random.default_rng(5)
    sizes = rng.integers(12, 25, 8)
    qid = np.repeat(np.arange(8), sizes)
    y = rng.choice(3, size=len(qid), p=[0.6, 0.25, 0.15])
    y[np.r_[0, np.cumsum(sizes)[:-1]]] = 2  # every query has a relevant document
    X = rng.random((len(qid), 4))
    X[:, 2] = y + 0.9 * rng.random(len(qid))  # feature 2 sorts by grade
    model = NDCGBoost(n_iterations=40, random_state=1).fit(X, y, qid)
    for formula in ("letor", "report"):
        assert np.all(ndcg_at_k(y, model.predict(X), qid, 10, formula=formula) == 1.0)
    assert 2 in model.features_


# 5. The sign of w (3.17) --------------------------------------------------------------------


def test_document_weight_signs_on_three_documents():
    y, qid = np.array([2, 1, 0]), np.zeros(3, dtype=int)
    z = 3.0 + 1.0 / np.log2(3.0)
    gains = 2.0**y / z

    def w(s):
        got = nb.document_weights(np.asarray(s, dtype=float), y, qid)
        theta = nb.gamma_matrix(s)
        np.fill_diagonal(theta, 0.0)
        assert np.allclose(got, ((gains[:, None] - gains[None, :]) * theta).sum(axis=1))
        return got

    # the middle document ranked too low (below the irrelevant one): pushed up
    too_low = w([10.0, 0.0, 1.0])
    assert too_low[1] > 0
    # ranked too high (above the most relevant one): pushed down
    too_high = w([0.0, 1.0, -10.0])
    assert too_high[1] < 0
    # the best document can only go up, the worst only down, wherever they are
    for s in ([10.0, 0.0, 1.0], [0.0, 1.0, -10.0], [-3.0, 0.0, 3.0], [0.0, 0.0, 0.0]):
        ws = w(s)
        assert ws[0] > 0 > ws[2]
        assert ws.sum() == pytest.approx(0.0, abs=1e-12)  # theta is symmetric
    # a mis-ranked document weighs more than the same document ranked correctly
    assert w([-3.0, 0.0, 3.0])[0] > w([3.0, 0.0, -3.0])[0]


# 6. Determinism; chunked and unchunked pair sums --------------------------------------------


def test_fit_is_deterministic_given_random_state():
    X, y, qid = _letor_like(seed=3)
    a = NDCGBoost(n_iterations=15, random_state=7).fit(X, y, qid)
    b = NDCGBoost(n_iterations=15, random_state=7).fit(X, y, qid, validation=(X, y, qid))
    c = NDCGBoost(n_iterations=15, random_state=8).fit(X, y, qid)
    assert a.stumps_ == b.stumps_
    assert np.array_equal(a.alphas_, b.alphas_) and np.array_equal(a.objective_, b.objective_)
    assert np.array_equal(a.predict(X), b.predict(X))
    assert a.stumps_ != c.stumps_


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_chunked_and_unchunked_pair_sums_agree(dtype):
    _, y, qid = _letor_like(n_queries=5, sizes=(3, 20), seed=4)
    rng = np.random.default_rng(0)
    tol = 1e-12 if dtype == "float64" else 2e-6
    for spread in (0.0, 3.0, 300.0):  # 300: beyond float32's product range, clipped path
        s = spread * rng.normal(size=len(y))
        ref_w = _dense_weights(s, y, qid)
        ref_obj = _dense_objective(s, y, qid)
        f = rng.random(len(y)) < 0.4
        ref_alpha = nb.alpha_terms(s, y, qid, f, block=None, dtype="float64")
        for block in (None, 1, 2, 3, 7, 512):
            w = nb.document_weights(s, y, qid, block=block, dtype=dtype)
            assert np.allclose(w, ref_w, rtol=tol, atol=tol * np.abs(ref_w).max())
            obj = nb.relaxed_objective(s, y, qid, block=block, dtype=dtype)
            assert obj == pytest.approx(ref_obj, rel=tol)
            got = nb.alpha_terms(s, y, qid, f, block=block, dtype=dtype)
            assert np.allclose(got, ref_alpha, rtol=tol, atol=1e-300)
        d = np.subtract.outer(s[qid == qid[0]], s[qid == qid[0]])
        gamma = expit(d) * expit(-d)  # exp(d)/(1 + exp(d))^2
        assert np.allclose(nb.gamma_matrix(s[qid == qid[0]]), gamma, rtol=1e-12, atol=1e-300)


def test_chunking_and_refresh_do_not_change_the_model():
    X, y, qid = _letor_like(seed=6, sizes=(10, 30))
    base = NDCGBoost(n_iterations=20, dtype="float64", block=None, refresh=None).fit(X, y, qid)
    for block, refresh in ((3, None), (5, 1), (64, 7)):
        other = NDCGBoost(n_iterations=20, dtype="float64", block=block, refresh=refresh)
        other.fit(X, y, qid)
        assert other.stumps_ == base.stumps_
        assert np.allclose(other.alphas_, base.alphas_, rtol=1e-10)
        assert np.allclose(other.objective_, base.objective_, rtol=1e-10)


# The weak learner and the interface ---------------------------------------------------------


def _gini_proxy(X, labels, counts, feature, threshold):
    left = X[:, feature].astype(np.float64) <= threshold
    total = 0.0
    for side in (left, ~left):
        k = np.array([counts[side & (labels > 0)].sum(), counts[side & (labels < 0)].sum()])
        total += (k @ k) / k.sum()
    return total


def test_fit_stump_matches_scikit_learn():
    rng = np.random.default_rng(0)
    for trial in range(40):
        n, d = int(rng.integers(20, 200)), int(rng.integers(1, 8))
        X = rng.random((n, d)).astype(np.float32)
        if trial % 3 == 0:
            X = np.round(X * 6) / 6  # repeated values
        labels = np.where(X @ rng.normal(size=d) + rng.normal(0, 0.5, n) > 0, 1, -1)
        counts = rng.integers(1, 4, n)
        ours = nb.fit_stump(X, labels, counts)
        rows = np.repeat(np.arange(n), counts)
        tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X[rows], labels[rows])
        if tree.tree_.node_count == 1:
            assert ours is None
            continue
        theirs = (int(tree.tree_.feature[0]), float(tree.tree_.threshold[0]))
        if (ours.feature, ours.threshold) != theirs:  # only a tie, which it breaks at random
            assert _gini_proxy(X, labels, counts, *theirs) == _gini_proxy(
                X, labels, counts, ours.feature, ours.threshold
            )
            continue
        assert np.array_equal(ours.predict(X), (tree.predict(X) > 0).astype(np.int8))


def test_predict_is_half_the_boosted_sum_and_stops_without_signal():
    X, y, qid = _letor_like(seed=8)
    model = NDCGBoost(n_iterations=5).fit(X, y, qid)
    f = np.array([t.predict(X) for t in model.stumps_], dtype=float)
    assert np.allclose(model.predict(X), 0.5 * model.alphas_ @ f)  # F(d) = s / 2 (reading 1)
    assert np.allclose(model.predict(X, n_iterations=2), 0.5 * model.alphas_[:2] @ f[:2])
    flat = NDCGBoost().fit(X, np.ones_like(y), qid)  # every grade equal: w = 0
    assert flat.n_iterations_ == 0 and flat.stop_reason_ == "all w = 0"
    assert np.array_equal(flat.predict(X), np.zeros(len(X)))
    assert len(flat.objective_) == 1
    with pytest.raises(BoostrankError):
        NDCGBoost(dtype="float16").fit(X, y, qid)
    with pytest.raises(BoostrankError):
        NDCGBoost().fit(X, -y, qid)


def test_combination_weight_edge_cases():
    assert nb.combination_weight(4.0, 1.0) == pytest.approx(0.5 * np.log(4.0))
    assert nb.combination_weight(1.0, 0.0, max_alpha=7.0) == 7.0
    assert np.isnan(nb.combination_weight(0.0, 0.0))
    assert nb.combination_weight(0.0, 1.0) == -np.inf
    assert nb.combination_weight(1.0, 2.0) < 0


def test_only_an_infinite_alpha_is_capped_by_default():
    """Eq. 3.15 defines alpha wherever alpha_2 > 0: by default a finite alpha above max_alpha
    is used as printed, and only alpha_2 = 0 (alpha infinite) gets max_alpha; cap_scope
    "all" caps both. Each cap that acts is counted under its reading's id."""
    big = (np.exp(30.0), 1.0)  # 1/2 log(e^30) = 15 > max_alpha = 10
    counts = Guards.of(nb.ALPHA_CAP, nb.CAP_SCOPE)
    assert nb.combination_weight(*big, guards=counts) == pytest.approx(15.0)
    assert counts == {nb.ALPHA_CAP: 0, nb.CAP_SCOPE: 0}
    assert nb.combination_weight(*big, cap_scope="all", guards=counts) == 10.0
    assert counts == {nb.ALPHA_CAP: 0, nb.CAP_SCOPE: 1}
    assert nb.combination_weight(1.0, 0.0, guards=counts) == 10.0  # infinite: capped always
    assert counts == {nb.ALPHA_CAP: 1, nb.CAP_SCOPE: 1}
    assert nb.combination_weight(0.5, 1.0, cap_scope="all", guards=counts) < 0
    assert counts == {nb.ALPHA_CAP: 1, nb.CAP_SCOPE: 1}  # nothing capped


def test_fit_counts_its_guards():
    """One query, a relevant and a non-relevant document split by one feature: every stump
    puts the relevant one alone on f = 1, alpha_2 = 0 and Eq. 3.15 is infinite, so the cap
    acts in every iteration; on noisy queries alpha_2 > 0 and no cap acts."""
    X, y, qid = np.array([[1.0], [0.0]]), np.array([1, 0]), np.array([7, 7])
    model = NDCGBoost(n_iterations=3, random_state=0).fit(X, y, qid)
    assert model.n_iterations_ == 3 and (model.alphas_ == 10.0).all()
    assert model.guards_ == {
        nb.ALPHA_CAP: 3, nb.CAP_SCOPE: 0, nb.NONPOSITIVE: 0, nb.MAX_REDRAWS: 0,
    }  # fmt: skip
    X, y, qid = _letor_like(n_queries=8, noise=6.0, seed=3)
    noisy = NDCGBoost(n_iterations=30, sample_size=20, random_state=1).fit(X, y, qid)
    assert noisy.guards_[nb.ALPHA_CAP] == noisy.guards_[nb.CAP_SCOPE] == 0
    assert noisy.guards_[nb.NONPOSITIVE] == noisy.n_flipped_ + noisy.n_redrawn_ > 0
    assert noisy.guards_[nb.MAX_REDRAWS] == 0
    with pytest.raises(BoostrankError, match="cap_scope"):
        NDCGBoost(cap_scope="some").fit(X, y, qid)


def test_alpha_of_the_flipped_stump_is_minus_alpha():
    """Reading 10: w sums to 0 within each query, so 1 - f swaps alpha_1 and alpha_2."""
    X, y, qid = _letor_like(n_queries=5, seed=4)
    rng = np.random.default_rng(0)
    scores = rng.normal(size=len(y))
    w = nb.document_weights(scores, y, qid)
    for q in np.unique(qid):
        assert abs(w[qid == q].sum()) < 1e-12
    f = X[:, 0] > np.median(X[:, 0])
    a1, a2 = nb.alpha_terms(scores, y, qid, f)
    b1, b2 = nb.alpha_terms(scores, y, qid, ~f)
    assert (b1, b2) == pytest.approx((a2, a1))
    assert nb.combination_weight(b1, b2) == pytest.approx(-nb.combination_weight(a1, a2))


def test_the_default_runs_every_iteration_where_a_stump_has_negative_alpha():
    """Algorithm 5 loops "until reach the maximum number of iterations": on noisy labels
    sampled stumps get alpha < 0, "stop" ends there, and the default keeps the flipped stump
    and runs all 100 iterations (100 stumps, each alpha > 0, Mbar falling)."""
    X, y, qid = _letor_like(n_queries=8, noise=6.0, seed=3)
    kw = dict(n_iterations=100, sample_size=20, random_state=1)
    stop = NDCGBoost(**kw, on_nonpositive_alpha="stop").fit(X, y, qid)
    flip = NDCGBoost(**kw).fit(X, y, qid)
    redraw = NDCGBoost(**kw, on_nonpositive_alpha="redraw").fit(X, y, qid)
    skip = NDCGBoost(**kw, on_nonpositive_alpha="skip").fit(X, y, qid)
    assert stop.stop_reason_ == "alpha <= 0" and stop.n_iterations_ < 100
    assert flip.on_nonpositive_alpha == "flip" and flip.n_flipped_ > 0
    for model in (flip, redraw):
        assert model.n_iterations_ == 100 and model.stop_reason_ == "n_iterations"
        assert model.n_skipped_ == 0
        assert (model.alphas_ > 0).all()
        assert (np.diff(model.objective_) <= 1e-12).all()
    assert redraw.n_redrawn_ > 0 and redraw.n_flipped_ == 0
    assert skip.n_skipped_ > 0 and skip.n_iterations_ == 100 - skip.n_skipped_
    with pytest.raises(BoostrankError, match="on_nonpositive_alpha"):
        NDCGBoost(on_nonpositive_alpha="continue").fit(X, y, qid)


def test_redraws_are_bounded():
    """A problem no stump can split (one feature, constant) ends after max_redraws draws."""
    _X, y, qid = _letor_like(n_queries=3, seed=5)
    model = NDCGBoost(n_iterations=10, max_redraws=7).fit(np.zeros((len(y), 1)), y, qid)
    assert model.n_iterations_ == 0 and model.n_redrawn_ == 7
    assert model.stop_reason_ == "no usable stump in 7 draws"
    assert model.guards_[nb.MAX_REDRAWS] == 1 and model.guards_[nb.NONPOSITIVE] == 7
