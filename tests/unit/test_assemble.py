"""ASSEMBLE (dissertation section 2.3.2, Algorithm 2; Bennett, Demiriz and Maclin, KDD 2002):
the steps against a loop written from the algorithm, the pseudo-labels, the initial labeller
and the stopping rule."""

import numpy as np
import pytest

from boostrank.boosting.assemble import Assemble, nearest_labelled
from boostrank.boosting.base import fit_sample, resample, sample_size
from boostrank.errors import BoostrankError


def _data(n_per=30, m=3, seed=0, n_labelled=3, spread=1.2):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 3, (m, 2))
    y = np.repeat(np.arange(m), n_per)
    X = (centres[y] + rng.normal(0, spread, (len(y), 2))).astype(np.float32)
    yy = np.full(len(y), -1)
    for c in range(m):
        yy[np.flatnonzero(y == c)[:n_labelled]] = c
    return X, y, yy


def _reference(X, yy, m, T, depth, share, seed, rule="samme"):
    """Algorithm 2 step by step (loops), with Bennett et al.'s initial weights and labels."""
    rng = np.random.default_rng(seed)
    n = len(yy)
    lab = yy >= 0
    w = np.array([share / lab.sum() if lab[i] else (1 - share) / (~lab).sum() for i in range(n)])
    target = yy.copy()
    for i in range(n):  # 1-NN among the labelled rows
        if not lab[i]:
            d = [np.sum((X[i] - X[j]) ** 2) if lab[j] else np.inf for j in range(n)]
            target[i] = yy[int(np.argmin(d))]
    F = np.zeros((n, m))
    alphas = []
    for t in range(T):
        if t:
            for i in range(n):
                if not lab[i]:
                    target[i] = int(np.argmax(F[i]))  # step 5
        idx = resample(w, sample_size(n), rng)
        tree = fit_sample(X, target, idx, m, depth, rng)
        pred = tree.predict(X)
        eps = sum(w[i] for i in range(n) if pred[i] != target[i])  # step 6
        if rule == "printed":
            a = 10.0 if eps == 0 else min(0.5 * np.log((1 - eps) / eps), 10.0)  # step 7, capped
        else:  # SAMME (Zhu et al. 2009)
            a = 10.0 if eps == 0 else min(np.log((1 - eps) / eps) + np.log(m - 1), 10.0)
        if a <= 0:
            break
        for i in range(n):
            F[i, pred[i]] += a  # step 8
            if pred[i] != target[i]:
                w[i] *= np.exp(a)  # step 9
        w /= w.sum()
        alphas.append(a)
    return np.array(alphas), F


@pytest.mark.parametrize("share", [0.9, 1.0])
@pytest.mark.parametrize("rule", ["samme", "printed"])
def test_matches_algorithm_2_written_as_loops(share, rule):
    X, _, yy = _data(seed=1, spread=2.5)  # overlapping classes: every eps_t > 0
    alphas, F = _reference(X, yy, 3, 8, 2, share, seed=5, rule=rule)
    model = Assemble(n_iterations=8, labelled_share=share, alpha_rule=rule, random_state=5)
    model.fit(X, yy)
    assert len(alphas) >= 2
    np.testing.assert_allclose(model.alphas_, alphas, rtol=1e-9)
    np.testing.assert_allclose(model.decision_function(X), F, rtol=1e-9, atol=1e-12)
    eps = np.array(model.errors_[: len(alphas)])
    assert ((eps >= 0) & (eps < 0.5)).all()


def test_nearest_labelled_is_the_closest_labelled_row():
    X, _, yy = _data(n_per=10, seed=2, n_labelled=2)
    got = nearest_labelled(X, yy)
    lab = np.flatnonzero(yy >= 0)
    for i in range(len(X)):
        want = yy[i] if yy[i] >= 0 else yy[lab[np.argmin(((X[lab] - X[i]) ** 2).sum(1))]]
        assert got[i] == want


def test_ten_classes_keep_more_than_one_tree():
    """Reading 4: with ten classes the first depth-2 tree errs on more than half the weight;
    the SAMME weight stays positive (better than chance, 9/10) and boosting goes on."""
    X, _y, yy = _data(n_per=20, m=10, seed=3, n_labelled=2, spread=2.5)
    model = Assemble(n_iterations=10, depth=2, random_state=0).fit(X, yy)
    assert model.errors_[0] > 0.5
    assert model.n_iterations_ > 1 and all(a > 0 for a in model.alphas_)
    printed = Assemble(n_iterations=10, depth=2, alpha_rule="printed", random_state=0)
    assert printed.fit(X, yy).n_iterations_ == 1


def test_first_tree_is_kept_when_its_error_exceeds_one_half():
    # ten classes and stumps: the weighted error of the first tree is far above 1/2
    X, _y, yy = _data(n_per=20, m=10, seed=3, n_labelled=2, spread=2.5)
    model = Assemble(n_iterations=10, depth=1, alpha_rule="printed", random_state=0).fit(X, yy)
    assert model.errors_[0] > 0.5
    assert model.n_iterations_ == 1 and model.alphas_ == [1.0]
    assert model.stop_reason_ == "alpha<=0"
    assert set(model.predict(X)) <= set(range(10))
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1)


def test_options_and_errors():
    X, _y, yy = _data(seed=4)
    for init in ("nearest", "tree"):
        for sampling in ("resample", "weights"):
            model = Assemble(n_iterations=5, init=init, sampling=sampling, random_state=1)
            assert model.fit(X, yy).n_iterations_ >= 1
    a = Assemble(n_iterations=5, random_state=2).fit(X, yy).predict(X)
    np.testing.assert_array_equal(a, Assemble(n_iterations=5, random_state=2).fit(X, yy).predict(X))
    with pytest.raises(BoostrankError):
        Assemble(init="knn").fit(X, yy)
    with pytest.raises(BoostrankError, match="alpha_rule"):
        Assemble(alpha_rule="m1").fit(X, yy)
    with pytest.raises(BoostrankError):
        Assemble(labelled_share=0).fit(X, yy)
