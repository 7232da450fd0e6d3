"""ASSEMBLE (dissertation section 2.3.2, Algorithm 2; Bennett, Demiriz and Maclin, KDD 2002):
the steps against a loop written from the algorithm, the pseudo-labels, the initial labeller,
the printed loop to T iterations, the exit option and the guards on the tree weight."""

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


def _reference(X, yy, m, T, depth, share, seed, rule="printed"):
    """Algorithm 2 step by step (loops), with Bennett et al.'s initial weights and labels;
    rule printed runs all T iterations, printed_exit and samme leave the loop at a <= 0."""
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
        if rule == "samme":  # Zhu et al. 2009
            a = 10.0 if eps == 0 else np.log((1 - eps) / eps) + np.log(m - 1)
        else:
            a = 10.0 if eps == 0 else 0.5 * np.log((1 - eps) / eps)  # step 7
        if a <= 0 and rule != "printed":
            break
        for i in range(n):
            F[i, pred[i]] += a  # step 8
            if pred[i] != target[i]:
                w[i] *= np.exp(a)  # step 9
        w /= w.sum()
        alphas.append(a)
    return np.array(alphas), F


@pytest.mark.parametrize("share", [0.9, 1.0])
@pytest.mark.parametrize("rule", ["samme", "printed", "printed_exit"])
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
    model = Assemble(n_iterations=10, depth=2, alpha_rule="samme", random_state=0).fit(X, yy)
    assert model.errors_[0] > 0.5
    assert model.n_iterations_ > 1 and all(a > 0 for a in model.alphas_)


def test_the_printed_loop_runs_every_iteration_with_negative_weights():
    """Steps 7-10 as printed (the default): a tree that errs on more than half the weight gets
    a_t < 0, the loop goes on to T, and step 9 shrinks the misclassified rows' weights."""
    X, _y, yy = _data(n_per=20, m=10, seed=3, n_labelled=2, spread=2.5)
    model = Assemble(n_iterations=10, depth=1, random_state=0).fit(X, yy)
    assert model.alpha_rule == "printed" and model.errors_[0] > 0.5
    assert model.n_iterations_ == 10 and model.stop_reason_ == "max_iterations"
    assert model.alphas_[0] == pytest.approx(
        0.5 * np.log((1 - model.errors_[0]) / model.errors_[0])
    )
    assert model.alphas_[0] < 0
    assert "assemble_alpha" not in model.guards_  # the printed loop has no exit
    proba = model.predict_proba(X)
    assert (proba >= 0).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1)
    np.testing.assert_array_equal(
        np.argmax(proba, axis=1), np.argmax(model.decision_function(X), 1)
    )


def test_step_9_with_a_negative_weight_shrinks_the_misclassified_rows(monkeypatch):
    """One iteration by hand: a tree wrong on 3/4 of the weight gets a = 1/2 ln(1/3) < 0; the
    wrong rows' weights fall by exp(a) before normalising, the right rows' do not."""
    import boostrank.boosting.assemble as asm

    X = np.arange(8, dtype=np.float32)[:, None]
    yy = np.array([0, 0, 1, 1, 2, 2, 3, 3])

    class Wrong:  # predicts class 0 everywhere: wrong on rows 2..7 (3/4 of the weight)
        def predict(self, X_):
            return np.zeros(len(X_), dtype=np.int64)

    monkeypatch.setattr(asm, "fit_sample", lambda *a, **k: Wrong())
    model = Assemble(n_iterations=2, random_state=0).fit(X, yy)
    a = 0.5 * np.log(0.25 / 0.75)
    assert model.errors_[0] == pytest.approx(0.75)
    assert model.alphas_[0] == pytest.approx(a)
    # the second round's error: the wrong rows' share after step 9
    assert model.errors_[1] == pytest.approx(0.75 * np.exp(a) / (0.25 + 0.75 * np.exp(a)))
    assert model.n_iterations_ == 2


def test_the_exit_option_stops_at_a_nonpositive_weight_and_keeps_the_first_tree():
    # ten classes and stumps: the weighted error of the first tree is far above 1/2
    X, _y, yy = _data(n_per=20, m=10, seed=3, n_labelled=2, spread=2.5)
    model = Assemble(n_iterations=10, depth=1, alpha_rule="printed_exit", random_state=0)
    model.fit(X, yy)
    assert model.errors_[0] > 0.5
    assert model.n_iterations_ == 1 and model.alphas_ == [1.0]
    assert model.stop_reason_ == "alpha<=0" and model.guards_["assemble_alpha"] == 1
    assert set(model.predict(X)) <= set(range(10))
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1)


def test_the_alpha_cap_fires_only_on_a_tree_without_error():
    """eps_t = 0 makes step 7's weight infinite: it becomes max_alpha and the guard counts it;
    on overlapping classes (every eps_t > 0) it never fires."""
    X, y, _ = _data(n_per=20, m=3, seed=0, spread=0.2)  # well apart: a tree makes no error
    clean = Assemble(n_iterations=3, depth=None, random_state=0).fit(X, y)
    assert clean.errors_[0] == 0 and clean.alphas_[0] == 10.0
    assert clean.guards_["boosting_alpha_cap"] >= 1
    X, _, yy = _data(seed=1, spread=2.5)
    noisy = Assemble(n_iterations=3, random_state=5).fit(X, yy)
    assert min(noisy.errors_) > 0 and noisy.n_iterations_ == 3
    assert dict(noisy.guards_) == {"boosting_alpha_cap": 0}


def test_finite_weights_are_clipped_only_with_the_clip_option():
    X, _, yy = _data(seed=1, spread=2.5)
    small = Assemble(n_iterations=3, max_alpha=0.05, random_state=5).fit(X, yy)
    assert max(abs(a) for a in small.alphas_) > 0.05  # the printed weights, unclipped
    clipped = Assemble(n_iterations=3, max_alpha=0.05, clip_alpha=True, random_state=5)
    clipped.fit(X, yy)
    assert max(abs(a) for a in clipped.alphas_) == pytest.approx(0.05)
    assert clipped.guards_["boosting_alpha_clip"] >= 1
    assert clipped.guards_["boosting_alpha_cap"] == 0


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
