"""The rankers of boostrank.ranking: pairs, RankNet's gradient, RankSVM, LambdaMART, ridge."""

import numpy as np
import pytest

from boostrank.errors import BoostrankError
from boostrank.metrics.ranking import mean_ndcg
from boostrank.ranking.lambdamart import LambdaMART
from boostrank.ranking.linear import LinearRanker
from boostrank.ranking.pairs import pairwise_transform, query_pairs
from boostrank.ranking.ranknet import RankNet, init_params, loss_and_grad
from boostrank.ranking.ranksvm import RankSVM


def _queries(n_queries=12, size=8, n_features=5, seed=0, noise=0.0):
    """Queries whose labels grow with a fixed linear score of the features."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_queries * size, n_features))
    w = np.arange(1, n_features + 1, dtype=float)
    latent = X @ w + noise * rng.normal(size=len(X))
    qid = np.repeat(np.arange(n_queries), size)
    y = np.zeros(len(X), dtype=int)
    for q in range(n_queries):
        rows = qid == q
        y[rows] = np.searchsorted(np.quantile(latent[rows], [0.5, 0.8]), latent[rows])
    return X, y, qid, w


def test_query_pairs_are_within_queries_oriented_and_capped():
    y = np.array([0, 1, 2, 1, 0, 0])
    qid = np.array([1, 1, 1, 2, 2, 2])
    i, j = query_pairs(y, qid)
    assert sorted(zip(i.tolist(), j.tolist(), strict=True)) == [
        (1, 0),
        (2, 0),
        (2, 1),
        (3, 4),
        (3, 5),
    ]
    assert (qid[i] == qid[j]).all() and (y[i] > y[j]).all()
    capped = query_pairs(y, qid, max_pairs_per_query=1, seed=0)
    assert len(capped[0]) == 2
    assert capped[0].tolist() == query_pairs(y, qid, max_pairs_per_query=1, seed=0)[0].tolist()


def test_pairwise_transform_differences_and_balanced_signs():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 3.0]])
    y = np.array([0, 1, 2])
    diff, sign = pairwise_transform(X, y, np.zeros(3))
    assert sign.tolist() == [1.0, -1.0, 1.0]
    # pairs (1,0), (2,0), (2,1); every other one flipped
    assert diff.tolist() == [[1.0, -1.0], [-3.0, -2.0], [2.0, 3.0]]


def test_ranknet_gradient_matches_finite_differences():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(7, 3))
    i, j = np.array([0, 2, 4, 5]), np.array([1, 3, 1, 6])
    for layers in (1, 2):
        params = init_params(3, layers, 4, 0.5, seed=2)
        _, grads = loss_and_grad(params, X, i, j, sigma=1.3)
        for (W, b), (gW, gb) in zip(params, grads, strict=True):
            for arr, g in ((W, gW), (b, gb)):
                flat, gflat = arr.reshape(-1), g.reshape(-1)
                for idx in range(flat.size):
                    old = flat[idx]
                    flat[idx] = old + 1e-6
                    up = loss_and_grad(params, X, i, j, sigma=1.3)[0]
                    flat[idx] = old - 1e-6
                    down = loss_and_grad(params, X, i, j, sigma=1.3)[0]
                    flat[idx] = old
                    assert gflat[idx] == pytest.approx((up - down) / 2e-6, abs=1e-7)


def test_ranknet_loss_falls_and_ranks_a_toy_problem():
    X, y, qid, _ = _queries(seed=4)
    net = RankNet(1, 8, 60, learning_rate=0.5, batch_queries=4, random_state=0).fit(
        X, y, qid, checkpoints=(30,)
    )
    assert net.loss_curve_[-1] < 0.5 * net.loss_curve_[0]
    assert mean_ndcg(y, net.predict(X), qid, 5, formula="report") > 0.9
    assert not np.array_equal(net.predict(X, epochs=30), net.predict(X))
    again = RankNet(1, 8, 60, learning_rate=0.5, batch_queries=4, random_state=0).fit(X, y, qid)
    assert np.array_equal(again.predict(X), net.predict(X))


def test_ranksvm_recovers_the_order_of_separable_data():
    X, y, qid, w = _queries(seed=5)
    model = RankSVM(10.0, kernel_map=None).fit(X, y, qid)
    cos = model.coef_ @ w / np.linalg.norm(model.coef_) / np.linalg.norm(w)
    assert cos > 0.95
    assert mean_ndcg(y, model.predict(X), qid, 8, formula="report") == pytest.approx(1.0)


@pytest.mark.parametrize("kind", ["nystroem", "rff"])
def test_ranksvm_on_a_kernel_map_scores_like_its_explicit_features(kind):
    X, y, qid, _ = _queries(seed=6, noise=0.3)
    model = RankSVM(1.0, kernel_map=kind, n_components=40, gamma=0.05, random_state=1).fit(
        X, y, qid
    )
    explicit = model.feature_map_.transform(X) @ model.coef_
    assert model.predict(X) == pytest.approx(explicit, abs=1e-9)
    assert mean_ndcg(y, model.predict(X), qid, 8, formula="report") > 0.8


def test_ranksvm_without_pairs_is_an_error():
    with pytest.raises(BoostrankError, match="no within-query pair"):
        RankSVM(kernel_map=None).fit(np.zeros((3, 2)), np.zeros(3), np.arange(3))


def test_lambdamart_is_deterministic_and_tree_counts_follow_early_stopping():
    X, y, qid, _ = _queries(n_queries=40, seed=7, noise=2.0)
    train, valid = qid < 30, qid >= 30
    kwargs = dict(
        num_leaves=6,
        learning_rate=0.1,
        min_data_in_leaf=5,
        early_stopping_rounds=10,
        random_state=3,
    )
    fit = lambda: LambdaMART(300, **kwargs).fit(  # noqa: E731
        X[train], y[train], qid[train], validation=(X[valid], y[valid], qid[valid])
    )
    a, b = fit(), fit()
    assert np.array_equal(a.predict(X), b.predict(X))
    assert a.rounds_trained_ < 300  # early stopping triggered
    best = int(np.argmax(a.valid_curve_)) + 1
    assert a.best_iteration_for(300) == best == a.best_iteration_for(a.rounds_trained_)
    assert a.best_iteration_for(5) == int(np.argmax(a.valid_curve_[:5])) + 1
    assert np.array_equal(a.predict(X, n_trees=1000), a.predict(X, n_trees=300))


def test_linear_ranker_is_ridge_on_the_labels():
    X, y, qid, w = _queries(seed=8)
    model = LinearRanker(1e-10).fit(X, y, qid)
    pred = model.predict(X)
    residual = y - pred
    assert abs(residual.mean()) < 1e-9 and np.allclose(
        X.T @ (residual - residual.mean()), 0, atol=1e-6
    )
    assert model.coef_ @ w > 0


def test_ranksvm_default_c_follows_svm_light():
    """SVM-light's default C on the pair differences d: svm_learn.c computes
    1 / (mean_k sqrt(d_k . d_k))^2 (estimate_r_delta_average); its usage text says
    "[avg. x*x]^-1", 1 / mean(d . d). Both by hand on a two-query example."""
    from boostrank.ranking.ranksvm import RankSVM, pair_design, svm_light_default_C

    X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 4.0], [1.0, 1.0], [0.0, 0.0]])
    y = np.array([1, 0, 2, 1, 0])
    qid = np.array([1, 1, 2, 2, 2])
    diff, _sign = pair_design(None, X, y, qid)
    d = [X[0] - X[1], X[2] - X[3], X[2] - X[4], X[3] - X[4]]  # every within-query pair
    norms = [float(np.sqrt(v @ v)) for v in d]
    code = 1.0 / (sum(norms) / 4) ** 2
    usage = 1.0 / (sum(float(v @ v) for v in d) / 4)
    assert svm_light_default_C(diff) == pytest.approx(code)
    assert svm_light_default_C(diff, "usage") == pytest.approx(usage)
    assert usage < code
    assert pytest.approx(code) == RankSVM(C=None).fit(X, y, qid).C_
    assert pytest.approx(usage) == RankSVM(C=None, default_C="usage").fit(X, y, qid).C_
    with pytest.raises(BoostrankError, match="default_C"):
        RankSVM(C=None, default_C="mean").fit(X, y, qid)
