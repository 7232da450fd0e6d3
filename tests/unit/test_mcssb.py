"""MCSSB (dissertation chapter 2, Algorithm 3; Valizadegan, Jin and Jain, ECML PKDD 2008): the
closed forms against the equations summed term by term, Lemma 2's bound against the exact
objective, Theorem 3's alpha against a numerical minimisation, the objective never rising,
non-negative weights, the supervised limit, the float32 path and the baseline tree."""

from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from boostrank.boosting import mcssb as mc
from boostrank.boosting.base import (
    TreeClassifier,
    fit_sample,
    one_hot,
    resample,
    sample_size,
)
from boostrank.boosting.mcssb import MCSSB, Similarity
from boostrank.errors import BoostrankError


def _blobs(n_per=15, m=3, d=2, spread=0.6, seed=0, n_labelled=2):
    """m Gaussian blobs; n_labelled rows of each class labelled, the rest y = -1."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 3, (m, d))
    y = np.repeat(np.arange(m), n_per)
    X = centres[y] + rng.normal(0, spread, (len(y), d))
    order = rng.permutation(len(y))
    X, y = X[order], y[order]
    yy = np.full(len(y), -1)
    counts = n_labelled if isinstance(n_labelled, list | tuple) else [n_labelled] * m
    for c in range(m):
        yy[np.flatnonzero(y == c)[: counts[c]]] = c
    return X.astype(np.float32), y, yy


def _brute(H, S, yy, C):
    """F, alpha_i^k, beta_i^k (Eqs. 2.1-2.12) with explicit loops over i, j, k."""
    n, m = H.shape
    b = np.exp(H) / np.exp(H).sum(axis=1, keepdims=True)
    lab = [i for i in range(n) if yy[i] >= 0]
    Y = np.zeros((n, m))
    for i in lab:
        Y[i, yy[i]] = 1
    F_u = sum(S[i, j] / (b[i] @ b[j]) for i in range(n) for j in range(n))
    F_l = sum(S[i, j] / (Y[i] @ b[j]) for i in lab for j in range(n))
    alpha = np.zeros((n, m))
    beta = np.zeros((n, m))
    for i in range(n):
        for k in range(m):
            for j in range(n):
                z = b[i] @ b[j]
                tau = b[i, k] * b[j, k] / z  # Eq. 2.10
                alpha[i, k] += S[i, j] * (b[i, k] - tau) / z
            for j in lab:
                phi = sum(Y[j, kk] * b[i, k] / b[i, kk] for kk in range(m)) - Y[j, k] / b[i, k]
                beta[i, k] += 0.5 * S[i, j] * phi
    return F_u + C * F_l, alpha, beta


def _brute_bound_terms(H, h, S, yy):
    """A_u, A_l, B_u, B_l of Eqs. 2.15-2.18, term by term."""
    n, m = H.shape
    b = np.exp(H) / np.exp(H).sum(axis=1, keepdims=True)
    lab = [i for i in range(n) if yy[i] >= 0]
    a_u = b_u = a_l = b_l = 0.0
    for i in range(n):
        for j in range(n):
            z = b[i] @ b[j]
            a_u += S[i, j] / z * sum(h[i, k] * b[i, k] for k in range(m))
            b_u += S[i, j] / z * sum(h[i, k] * b[i, k] * b[j, k] / z for k in range(m))
    for i in lab:
        for j in range(n):
            y = np.eye(m)[yy[i]]
            a_l += (
                0.5
                * S[i, j]
                * sum(y[k] / b[j, k] * b[j, kk] * h[j, kk] for k in range(m) for kk in range(m))
            )
            b_l += 0.5 * S[i, j] * sum(y[k] * h[j, k] / b[j, k] for k in range(m))
    return a_u, a_l, b_u, b_l


def _exact_F(H, sim, yy, C):
    n, m = H.shape
    Y = np.zeros((n, m))
    Y[yy >= 0] = one_hot(yy[yy >= 0], m)
    M = sim.labelled_mass(Y, yy >= 0)
    fu, fl = mc.objective_terms(H, sim, M)
    return fu + C * fl


@pytest.fixture
def small():
    X, y, yy = _blobs(n_per=4, m=3, seed=1, n_labelled=1)
    rng = np.random.default_rng(2)
    H = rng.normal(0, 1.5, (len(y), 3))
    return X, y, yy, H


@pytest.mark.parametrize("kind", ["gaussian", "uniform", "absolute"])
def test_closed_forms_match_the_equations_term_by_term(small, kind):
    X, _, yy, H = small
    C = 7.0
    sim = Similarity.make(kind, X.astype(np.float64), zero_diagonal=True)
    S = sim.dense()
    n, m = H.shape
    Y = np.zeros((n, m))
    Y[yy >= 0] = one_hot(yy[yy >= 0], m)
    M = sim.labelled_mass(Y, yy >= 0)
    B, P = mc.softmax_and_inverse(H)
    r, qb = sim.pair_terms(B)
    alpha, beta = mc.gradient_terms(B, P, r, qb, M)
    F, alpha_ref, beta_ref = _brute(H, S, yy, C)
    np.testing.assert_allclose(alpha, alpha_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(beta, beta_ref, rtol=1e-10, atol=1e-12)
    assert _exact_F(H, sim, yy, C) == pytest.approx(F, rel=1e-12)
    # Theorem 1's remark: the rows of alpha and beta sum to zero
    np.testing.assert_allclose((alpha + C * beta).sum(axis=1), 0, atol=1e-9)
    h = one_hot(np.random.default_rng(3).integers(0, m, n), m)
    terms = mc.bound_terms(h, B, P, r, qb, M)
    np.testing.assert_allclose(terms, _brute_bound_terms(H, h, S, yy), rtol=1e-10)


@pytest.mark.parametrize("kind", ["gaussian", "uniform", "absolute"])
def test_lemma2_bounds_the_exact_change_and_eq_2_19_minimises_it(small, kind):
    X, _, yy, H = small
    sim = Similarity.make(kind, X.astype(np.float64))
    n, m = H.shape
    rng = np.random.default_rng(5)
    for C in (0.5, 1e4):
        F0 = _exact_F(H, sim, yy, C)
        for _ in range(4):
            h = one_hot(rng.integers(0, m, n), m)
            terms = _brute_bound_terms(H, h, sim.dense(), yy)
            for a in (-0.7, -0.1, 0.05, 0.3, 1.0, 2.5):
                change = _exact_F(H + a * h, sim, yy, C) - F0
                assert change <= mc.lemma2_bound(a, terms, C) + 1e-9 * abs(F0)
            best = minimize_scalar(
                lambda a, t=terms, c=C: mc.lemma2_bound(a, t, c),
                bounds=(-5, 5),
                method="bounded",
                options={"xatol": 1e-10},
            )
            assert mc.optimal_alpha(terms, C) == pytest.approx(best.x, abs=1e-6)


@pytest.mark.parametrize("kind", ["gaussian", "uniform", "absolute"])
@pytest.mark.parametrize("weight", ["gain", "max"])
def test_objective_never_rises_and_weights_are_nonnegative(kind, weight):
    # unequal labelled counts: with equal ones MCSSB-Uniform's first alpha is exactly 0
    X, _y, yy = _blobs(n_per=20, m=4, seed=3, n_labelled=[1, 2, 3, 4])
    # every row sampled: with unlabelled rows only, MCSSB-Absolute has no weight (reading 2)
    model = MCSSB(n_iterations=15, similarity=kind, weight=weight, sampled_rows="all")
    model.set_params(random_state=0).fit(X, yy)
    F = np.array(model.objective_)
    assert len(F) >= 2
    assert np.all(np.diff(F) <= 1e-9 * F[:-1]), F
    for rec in model.history_:
        assert rec["min_raw_weight"] >= -1e-9 * max(1.0, rec["F"])
        assert rec["min_weight"] >= 0
        assert rec["g_row_sum_max"] <= 1e-6 * max(1.0, rec["F"])
    # the objective recorded at each start equals the exact one after the kept updates
    H = np.zeros((len(X), 4))
    sim = model.make_similarity(X)
    for a, tree, f in zip(model.alphas_, model.trees_, F[1:], strict=False):
        H[np.arange(len(X)), tree.predict(X)] += a
        assert _exact_F(H, sim, yy, model.C) == pytest.approx(f, rel=1e-9)


def test_mcssb_uses_the_unlabelled_rows_on_well_separated_clusters():
    X, y, yy = _blobs(n_per=30, m=3, spread=0.4, seed=4, n_labelled=1)
    model = MCSSB(n_iterations=20, random_state=0).fit(X, yy)
    assert np.mean(model.predict(X) != y) <= 0.05
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    assert model.n_iterations_ >= 1 and model.stop_reason_ in ("max_iterations", "alpha<=0")


def _supervised_booster(X, y, m, n_iterations, depth, seed):
    """A supervised multi-class booster written from its loss alone: minimise
    L(H) = sum_i sum_k exp(H_i^k - H_i^{y_i}) = sum_i 1 / b_i^{y_i}; each round weighs row i by
    the loss it would lose (1/b_i^{y_i} - 1)/2, trains the tree on a weighted resample of the
    true labels, and steps 1/4 log(B/A), the minimiser of the Lemma 2 bound of L with
    A = 1/2 sum_i (h_i . b_i) / b_i^{y_i}, B = 1/2 sum_i h_i^{y_i} / b_i^{y_i}."""
    rng = np.random.default_rng(seed)
    n = len(y)
    H = np.zeros((n, m))
    alphas, preds = [], []
    for _ in range(n_iterations):
        loss_i = np.array([np.exp(H[i] - H[i, y[i]]).sum() for i in range(n)])  # 1 / b^y
        w = 0.5 * (loss_i - 1.0)
        idx = resample(w, sample_size(n), rng)
        tree = fit_sample(X, y, idx, m, depth, rng)
        pred = tree.predict(X)
        b = np.exp(H - H.max(1, keepdims=True))
        b /= b.sum(1, keepdims=True)
        A = 0.5 * sum(b[i, pred[i]] / b[i, y[i]] for i in range(n))
        B = 0.5 * sum((pred[i] == y[i]) / b[i, y[i]] for i in range(n))
        a = 0.25 * np.log(B / A)
        if a <= 0:
            break
        H[np.arange(n), pred] += a
        alphas.append(a)
        preds.append(pred)
    return np.array(alphas), H


def test_infinite_c_without_unlabelled_rows_is_a_supervised_booster():
    X, y, _ = _blobs(n_per=25, m=3, spread=1.5, seed=6)
    ref_alphas, ref_H = _supervised_booster(X, y, 3, 12, 2, seed=11)
    model = MCSSB(n_iterations=12, C=1e12, similarity="absolute", sampled_rows="all")
    model.set_params(random_state=11).fit(X, y)
    assert len(ref_alphas) >= 3
    np.testing.assert_allclose(model.alphas_, ref_alphas, rtol=1e-6)
    np.testing.assert_allclose(model.train_scores_, ref_H, rtol=1e-6)
    assert np.mean(model.predict(X) == y) > 0.8


def test_float32_path_matches_float64_even_where_z_underflows():
    rng = np.random.default_rng(0)
    n, m = 300, 5
    X = rng.normal(size=(n, 3))
    S64, _ = mc.gaussian_similarity(X, dtype=np.float64)
    H = rng.normal(0, 2, (n, m))
    H[:20] *= 40  # margins of hundreds: b as small as 1e-100, Z far below float32's range
    B, _ = mc.softmax_and_inverse(H)
    r64, q64 = Similarity("dense", n, S64, 64, np.float64).pair_terms(B)
    r32, q32 = Similarity("dense", n, S64.astype(np.float32), 64, np.float32).pair_terms(B)
    assert np.isfinite(r32).all() and np.isfinite(q32).all()
    np.testing.assert_allclose(r32, r64, rtol=2e-4)
    np.testing.assert_allclose(q32, q64, rtol=2e-4, atol=1e-6 * np.abs(q64).max())
    ones32 = Similarity("ones", n, None, 64, np.float32).pair_terms(B)[0]
    np.testing.assert_allclose(ones32, Similarity("ones", n).pair_terms(B)[0], rtol=2e-4)


def test_gaussian_width_is_a_fraction_of_the_distance_range():
    X = np.array([[0.0], [1.0], [3.0], [10.0]])
    S, sigma = mc.gaussian_similarity(X, width=0.15, zero_diagonal=False)
    assert sigma == pytest.approx(0.15 * (10 - 1))
    assert S[0, 1] == pytest.approx(np.exp(-1 / sigma**2))
    np.testing.assert_allclose(np.diag(S), 1)
    S0, _ = mc.gaussian_similarity(X, zero_diagonal=True)
    np.testing.assert_allclose(np.diag(S0), 0)
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_allclose(S0[off], S[off] / S[off].max())  # rescaled: largest entry 1
    # far-apart rows: exp(-d^2 / sigma^2) underflows float32, the rescaled S does not
    far = np.array([[0.0], [100.0], [101.0], [102.0]])
    S32, _ = mc.gaussian_similarity(far, dtype=np.float32)
    assert S32[2, 3] == 1.0 and S32[1, 2] > 0
    assert Similarity.make("uniform", n=4).dense().sum() == 16
    np.testing.assert_array_equal(Similarity.make("absolute", n=4).dense(), np.eye(4))


def test_the_kernel_form_and_the_feature_scaling_readings():
    """exp(-d^2 / (2 sigma^2)) is the square root of exp(-d^2 / sigma^2) (the rescaled S too);
    standardised features make S blind to each feature's unit, the features as given do not."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 4))
    S1, sigma1 = mc.gaussian_similarity(X, form="sigma2")
    S2, sigma2 = mc.gaussian_similarity(X, form="two_sigma2")
    assert sigma1 == sigma2
    np.testing.assert_allclose(S2, np.sqrt(S1), rtol=1e-12)
    units = X * np.array([1.0, 1000.0, 0.01, 5.0]) + 7.0
    std, _ = mc.gaussian_similarity(X, scaling="standard")
    np.testing.assert_allclose(mc.gaussian_similarity(units, scaling="standard")[0], std)
    assert not np.allclose(mc.gaussian_similarity(units)[0], S1)
    with pytest.raises(BoostrankError, match="kernel form"):
        mc.gaussian_similarity(X, form="sigma")


def test_subnormal_similarities_are_zero_and_change_no_fit():
    """gaussian_similarity sets entries below float32's smallest normal number to 0 (they are
    10-20 times slower to compute with on some CPUs); a fit on the raw S, subnormals kept,
    takes the same steps."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(240, 50))  # distances concentrate: exponents down to about -110
    y = rng.integers(0, 3, 240)
    yy = np.where(rng.random(240) < 0.1, y, -1)
    S, _ = mc.gaussian_similarity(X, dtype=np.float32)
    tiny = np.finfo(np.float32).tiny
    d2 = mc.squared_distances(X)
    np.fill_diagonal(d2, np.inf)
    d_min = np.sqrt(d2.min())
    np.fill_diagonal(d2, 0.0)
    sigma = 0.15 * (np.sqrt(d2.max()) - d_min)
    exponent = -d2 / sigma**2
    np.fill_diagonal(exponent, -np.inf)
    raw = np.exp((exponent - exponent.max()).astype(np.float32))
    subnormal = (raw > 0) & (raw < tiny)
    assert subnormal.sum() > 100  # the case is exercised
    assert not (np.less(S, tiny) & (S != 0)).any()
    np.testing.assert_array_equal(S[~subnormal], raw[~subnormal])
    fits = [
        MCSSB(n_iterations=10, dtype="float32", random_state=2).fit(
            X, yy, 3, similarity=Similarity.make("gaussian", matrix=m, dtype=np.float32)
        )
        for m in (S, raw)
    ]
    np.testing.assert_array_equal(fits[0].alphas_, fits[1].alphas_)
    np.testing.assert_array_equal(fits[0].predict(X), fits[1].predict(X))


def test_scaling_the_similarity_changes_nothing_but_the_objective_scale():
    X, _, yy = _blobs(n_per=15, m=3, seed=10)
    S, _ = mc.gaussian_similarity(X.astype(np.float64), zero_diagonal=True)
    fits = []
    for scale in (1.0, 1e-30):
        sim = Similarity.make("gaussian", matrix=S * scale)
        fits.append(MCSSB(n_iterations=8, random_state=4).fit(X, yy, similarity=sim))
    np.testing.assert_allclose(fits[0].alphas_, fits[1].alphas_, rtol=1e-9)
    np.testing.assert_allclose(np.array(fits[1].objective_), np.array(fits[0].objective_) * 1e-30)


def test_deterministic_and_labelled_target_options():
    X, _, yy = _blobs(n_per=15, m=3, seed=8)
    a = MCSSB(n_iterations=5, random_state=3).fit(X, yy).predict(X)
    b = MCSSB(n_iterations=5, random_state=3).fit(X, yy).predict(X)
    np.testing.assert_array_equal(a, b)
    for rows in ("all", "unlabelled"):
        model = MCSSB(n_iterations=5, sampled_rows=rows, random_state=3).fit(X, yy)
        assert model.n_iterations_ >= 1
        sampled = [rec["sampled_labelled"] for rec in model.history_]
        assert (max(sampled) == 0) == (rows == "unlabelled"), sampled
    with pytest.raises(BoostrankError, match="labelled_targets"):
        MCSSB(labelled_targets="exclude").fit(X, yy)
    with pytest.raises(BoostrankError):
        MCSSB(similarity="cosine").fit(X, yy)
    with pytest.raises(BoostrankError):
        MCSSB().fit(X, np.full(len(X), -1))


def test_uniform_similarity_gives_no_step_from_balanced_labels():
    # S_ij = 1 and H = 0: every row feels the same pull M_i^c = n_c towards each class, so
    # with equal labelled counts g = alpha + C beta is 0 everywhere and MCSSB cannot start
    X, _, yy = _blobs(n_per=20, m=4, seed=3, n_labelled=2)
    model = MCSSB(n_iterations=5, similarity="uniform", random_state=0).fit(X, yy)
    assert model.n_iterations_ == 0 and model.stop_reason_ == "zero_weights"
    assert model.history_[0]["min_raw_weight"] == pytest.approx(0, abs=1e-9)


def test_tree_baseline_fits_labelled_rows_only_with_global_classes():
    X, _y, yy = _blobs(n_per=10, m=4, seed=9)
    yy[yy == 3] = -1  # class 3 has no labelled row
    tree = TreeClassifier(depth=None, random_state=0).fit(X, yy, n_classes=4)
    assert set(tree.predict(X)) <= {0, 1, 2}
    assert tree.predict_proba(X).shape == (len(X), 4)
    assert TreeClassifier(depth=1, random_state=0).fit(X, yy).depth_ == 1


def test_labelled_rows_keep_their_own_label_by_default(monkeypatch):
    """Algorithm 3 step 5 assigns k* to the *unlabelled* rows; where labelled rows are sampled
    too, "own" (default) trains the tree on every labelled row's own label, "argmin" on k*."""
    X, _, yy = _blobs(n_per=20, m=4, seed=11, n_labelled=[1, 2, 3, 4])
    labelled = yy >= 0
    seen = []

    def spy(X_, target, idx, *args, **kwargs):
        seen.append(target.copy())
        return fit_sample(X_, target, idx, *args, **kwargs)

    monkeypatch.setattr(mc, "fit_sample", spy)
    MCSSB(n_iterations=5, sampled_rows="all", random_state=0).fit(X, yy)
    assert seen and all(np.array_equal(t[labelled], yy[labelled]) for t in seen)
    seen.clear()
    argmin = MCSSB(n_iterations=5, C=1.0, sampled_rows="all", labelled_targets="argmin")
    argmin.set_params(random_state=0).fit(X, yy)
    shares = [rec["labelled_argmin_own"] for rec in argmin.history_]
    assert any(not np.array_equal(t[labelled], yy[labelled]) for t in seen) == (min(shares) < 1)


def test_uniform_similarity_with_unbalanced_labels_targets_the_largest_class():
    """S_ij = 1 and H = 0 give g_i^k = C/2 (N_l - m N_k) for every row
    (alpha = 0, since Z_ij = 1/m), so every unlabelled row's k* is the most frequent labelled
    class: the weak learner sees one class and MCSSB-Uniform predicts a constant class."""
    X, _y, yy = _blobs(n_per=20, m=4, seed=3, n_labelled=[1, 2, 5, 2])
    C = 10.0
    B, P = mc.softmax_and_inverse(np.zeros((len(X), 4)))
    sim = Similarity.make("uniform", n=len(X))
    Y = np.zeros((len(X), 4))
    Y[yy >= 0] = one_hot(yy[yy >= 0], 4)
    M = sim.labelled_mass(Y, yy >= 0)
    r, qb = sim.pair_terms(B)
    alpha, beta = mc.gradient_terms(B, P, r, qb, M)
    counts = np.bincount(yy[yy >= 0], minlength=4)
    np.testing.assert_allclose(alpha, 0, atol=1e-9)
    np.testing.assert_allclose(
        alpha + C * beta, np.tile(C / 2 * (counts.sum() - 4 * counts), (len(X), 1))
    )
    model = MCSSB(
        n_iterations=5, C=C, similarity="uniform", labelled_targets="argmin", random_state=0
    ).fit(X, yy)
    assert len(set(model.predict(X))) == 1 and model.predict(X)[0] == 2


def test_by_default_no_labelled_row_is_sampled(monkeypatch):
    """Algorithm 3's input: s examples sampled "from (N - N_l) unlabeled examples" (the
    default, as config/config.yaml sets for the three variants)."""
    import yaml

    from boostrank.experiments.chapter2.jobs import make_model
    from boostrank.experiments.chapter2.spec import BY_KEY

    X, _, yy = _blobs(n_per=20, m=4, seed=11, n_labelled=[1, 2, 3, 4])
    labelled = yy >= 0
    drawn = []

    def spy(w, size, rng):
        drawn.append((w.copy(), resample(w, size, rng)))
        return drawn[-1][1]

    monkeypatch.setattr(mc, "resample", spy)
    root = Path(__file__).resolve().parents[2]
    config = yaml.safe_load((root / "config/config.yaml").read_text(encoding="utf-8"))
    config = config["chapter2"]["methods"]
    for key in ("mcssb", "mcssb_uniform"):
        assert config[key]["sampled_rows"] == "unlabelled"
        model = make_model(BY_KEY[key], {**config[key], "dtype": "float64"}, 10.0, 2, 0)
        model.fit(X, yy)
        assert model.n_iterations_ >= 1
    assert drawn
    for w, idx in drawn:
        assert (w[labelled] == 0).all() and not labelled[idx].any()
    assert MCSSB().sampled_rows == "unlabelled"


def test_the_absolute_variant_has_no_weight_on_unlabelled_rows_alone():
    """S = I: an unlabelled row has M_i = 0 (beta = 0) and, at H = 0, alpha = 0, so with only
    unlabelled rows sampled the first weights are all 0 and no tree is trained."""
    X, _, yy = _blobs(n_per=15, m=3, seed=8)
    model = MCSSB(n_iterations=5, similarity="absolute", random_state=0).fit(X, yy)
    assert model.n_iterations_ == 0 and model.stop_reason_ == "zero_weights"


def test_the_alpha_cap_acts_only_where_eq_2_19_is_infinite():
    from boostrank.boosting.base import bounded_alpha
    from boostrank.guards import Guards

    guards = Guards.of("boosting_alpha_cap")
    infinite = mc.optimal_alpha((0.0, 0.0, 1.0, 2.0), C=1.0)  # A = 0 < B: no error
    assert infinite == np.inf
    assert bounded_alpha(infinite, 10.0, False, guards) == 10.0
    assert guards["boosting_alpha_cap"] == 1
    big = mc.optimal_alpha((1e-30, 0.0, 1.0, 0.0), C=1.0)  # finite, above 10
    assert big == pytest.approx(0.25 * np.log(1e30)) and big > 10
    assert bounded_alpha(big, 10.0, False, guards) == big  # the printed value
    assert guards["boosting_alpha_cap"] == 1
    assert bounded_alpha(big, 10.0, True, guards) == 10.0  # the clip option
    assert guards["boosting_alpha_clip"] == 1
    # an ordinary fit: every alpha finite, the guard present and never fired
    X, _, yy = _blobs(n_per=15, m=3, seed=8)
    model = MCSSB(n_iterations=5, random_state=3).fit(X, yy)
    assert model.guards_["boosting_alpha_cap"] == 0 and "boosting_alpha_clip" not in model.guards_


def test_rescaling_the_similarity_changes_no_decision_and_counts_its_flushes():
    """Reading 6: S divided by its largest entry gives the same k*, weights, trees and alphas
    (MCSSB is invariant to the scale of S); the flush of subnormal entries is counted."""
    X, _, yy = _blobs(n_per=15, m=3, seed=10)
    fits = [
        MCSSB(n_iterations=8, rescale_similarity=rescale, random_state=4).fit(X, yy)
        for rescale in (True, False)
    ]
    np.testing.assert_allclose(fits[0].alphas_, fits[1].alphas_, rtol=1e-9)
    np.testing.assert_array_equal(fits[0].predict(X), fits[1].predict(X))
    assert fits[0].guards_["mcssb_similarity_rescale"] == 0  # nothing subnormal here
    assert "mcssb_similarity_rescale" not in fits[1].guards_
    rng = np.random.default_rng(5)
    far = rng.normal(size=(240, 50))  # distances concentrate: many subnormal float32 entries
    sim = MCSSB(dtype="float32").make_similarity(far)
    flushed = sim.guards["mcssb_similarity_rescale"]
    S, _ = mc.gaussian_similarity(far, dtype=np.float32, rescale=False)
    assert flushed > 100
    yy = np.where(rng.random(240) < 0.1, rng.integers(0, 3, 240), -1)
    model = MCSSB(n_iterations=2, dtype="float32", random_state=0).fit(far, yy, similarity=sim)
    assert model.guards_["mcssb_similarity_rescale"] == flushed
    assert S.dtype == np.float32 and np.diag(S).max() == 0
