"""The PRank family (Crammer & Singer 2005, "Online Ranking by Projecting"), the MCP and WH
baselines, and the Figure 6 / Figure 7 experiment code."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import nnls

from boostrank.errors import BoostrankError
from boostrank.experiments.prank import jobs as prank_jobs
from boostrank.experiments.prank import make as prank_make
from boostrank.experiments.prank import summary as prank_summary
from boostrank.experiments.prank.spec import Fig6Spec, Fig7Spec
from boostrank.online.ordinal_baselines import MCP, WidrowHoff
from boostrank.online.prank import (
    MuPRank,
    NoPRank,
    PRank,
    SiPRank,
    kernel_prank_scores,
    noprank_dual,
    poly2_features,
    poly2_kernel,
    predict_ranks,
    rank_signs,
)


def random_stream(n_runs=6, rounds=300, dim=4, k=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n_runs, rounds, dim))
    w = rng.normal(size=dim)
    score = X @ w + rng.normal(0, 0.3, (n_runs, rounds))
    y = 1 + np.searchsorted(np.quantile(score, np.linspace(0, 1, k + 1)[1:-1]), score)
    return X, y


def test_figure1_worked_example():
    """k = 5, y = 4, y_hat = 1: b_1..b_3 drop by one, w += 3x, then y_hat = 3."""
    learner = PRank(3, 5)
    learner.b[:] = [1.0, 2.0, 4.0, 5.0]
    x = np.array([[0.5, 0.5, 0.0]])  # |x|^2 = 1/2: w.x rises from 0 to 1.5
    assert learner.partial_fit(x, np.array([4]))[0] == 1
    assert np.allclose(learner.b, [[0.0, 1.0, 3.0, 5.0]])
    assert np.allclose(learner.w, 3 * x)
    assert learner.predict(x)[0] == 3


def test_prediction_rule():
    b = np.array([[-1.0, 0.0, 0.0, 2.0]])
    assert [predict_ranks(np.array([s]), b)[0] for s in (-2, -1, 0, 1.9, 2, 9)] == [
        1,
        2,
        4,
        4,
        5,
        5,
    ]
    assert np.array_equal(rank_signs(np.array([1, 3, 5]), 5)[1], [1, 1, -1, -1])


@pytest.mark.parametrize("cls", [PRank, SiPRank, NoPRank, MuPRank])
def test_thresholds_stay_ordered(cls):
    X, y = random_stream()
    if cls is MuPRank:
        learner = cls(X.shape[2], 5, n_runs=X.shape[0], eta=2.0)
    else:
        learner = cls(X.shape[2], 5, n_runs=X.shape[0])
    for t in range(X.shape[1]):
        learner.partial_fit(X[:, t], y[:, t])
        assert np.all(np.diff(learner.b, axis=1) >= -1e-12)
        if cls in (PRank, SiPRank):
            assert np.array_equal(learner.b, np.round(learner.b))  # integers (Lemma 1)
    if cls is MuPRank:  # normalised ranking rule
        assert np.allclose(learner.w.sum(1) + learner.b.sum(1), 1.0)


def test_si_prank_moves_one_threshold():
    learner = SiPRank(2, 5)
    learner.b[:] = [-1.0, 0.0, 1.0, 2.0]
    x = np.array([[0.5, 0.0]])  # w.x = 0: y_hat = 3
    learner.partial_fit(x, np.array([5]))  # too low: r = y_hat = 3 moves down
    assert np.allclose(learner.b, [[-1.0, 0.0, 0.0, 2.0]]) and np.allclose(learner.w, x)
    learner.partial_fit(-4 * x, np.array([1]))  # w.x = -1: y_hat = 2 > 1, r = 1 moves up
    assert np.allclose(learner.b, [[0.0, 0.0, 0.0, 2.0]])


def test_vectorised_runs_equal_single_runs():
    X, y = random_stream(n_runs=4)
    for make in (
        lambda n: PRank(4, 5, n_runs=n),
        lambda n: NoPRank(4, 5, n_runs=n, beta=0.5),
        lambda n: MuPRank(4, 5, n_runs=n, eta=1.0),
        lambda n: MCP(4, 5, n_runs=n),
        lambda n: WidrowHoff(4, 5, n_runs=n, learning_rate=0.05),
    ):
        together = make(4)
        apart = [make(1) for _ in range(4)]
        for t in range(X.shape[1]):
            joint = together.partial_fit(X[:, t], y[:, t])
            single = [
                a.partial_fit(X[r : r + 1, t], y[r : r + 1, t])[0] for r, a in enumerate(apart)
            ]
            assert np.array_equal(joint, single)


def test_kernel_and_explicit_map_agree():
    rng = np.random.default_rng(3)
    x = rng.random((400, 2))
    assert np.allclose(poly2_features(x) @ poly2_features(x).T, poly2_kernel(x, x))
    _, y = prank_jobs.synthetic_sequences(1, 400, seed=4)
    dual_preds, dual_b = kernel_prank_scores(x, y[0], 5)
    primal = PRank(6, 5)
    phi = poly2_features(x)
    preds = np.array([primal.partial_fit(phi[t : t + 1], y[0, t : t + 1])[0] for t in range(400)])
    assert np.array_equal(preds, dual_preds)
    assert np.allclose(primal.b[0], dual_b)


def separable_stream(n=2000, dim=5, k=5, margin=0.1, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=dim)
    b = np.sort(rng.normal(size=k - 1))
    norm = np.sqrt(w @ w + b @ b)
    w, b = w / norm, b / norm
    X, y = [], []
    while len(X) < n:
        x = rng.uniform(-1, 1, dim)
        s = x @ w
        if np.min(np.abs(s - b)) >= margin:
            X.append(x)
            y.append(1 + int((s > b).sum()))
    X, y = np.array(X), np.array(y)
    ys = rank_signs(y, k)
    gamma = float(np.min(((X @ w)[:, None] - b[None, :]) * ys))
    return X, y, gamma


def test_theorem1_mistake_bound_on_separable_data():
    X, y, gamma = separable_stream()
    R2 = float((X**2).sum(1).max())
    bound = (5 - 1) * (R2 + 1) / gamma**2  # Theorem 1
    for cls in (PRank, SiPRank):  # the bound holds for Si-PRank too (section 3)
        learner = cls(X.shape[1], 5)
        loss = sum(
            abs(learner.partial_fit(X[t : t + 1], y[t : t + 1])[0] - y[t]) for t in range(len(y))
        )
        assert 0 < loss <= bound
    learner = NoPRank(X.shape[1], 5, beta=1.0)  # Corollary 1: mistakes <= 2(R^2+1)/gamma^2
    mistakes = sum(
        learner.partial_fit(X[t : t + 1], y[t : t + 1])[0] != y[t] for t in range(len(y))
    )
    assert mistakes <= 2 * (R2 + 1) / gamma**2
    assert learner.tau_sum[0] <= 2 * 1.0 / gamma**2 + 1e-9  # Theorem 3


def test_noprank_dual_is_exact_and_projects():
    rng = np.random.default_rng(5)
    runs, k, beta = 200, 5, 0.7
    x = rng.normal(size=(runs, 3))
    y = rng.integers(1, k + 1, runs)
    w, b = rng.normal(size=(runs, 3)), np.sort(rng.normal(size=(runs, k - 1)), axis=1)
    ys = rank_signs(y, k)
    s = np.einsum("rd,rd->r", w, x)
    c = ys * (s[:, None] - b) - beta
    a = (x**2).sum(1)
    tau = noprank_dual(a, ys, c)
    for r in range(runs):  # scipy's NNLS on the same QP: Q = a yy^T + I = L L^T
        Q = a[r] * np.outer(ys[r], ys[r]) + np.eye(k - 1)
        L = np.linalg.cholesky(Q)
        ref, _ = nnls(L.T, -np.linalg.solve(L, c[r]))
        assert np.allclose(tau[r], ref, atol=1e-9)
    w_new = w + (tau * ys).sum(1)[:, None] * x  # (4.3), (4.4): the constraints of (4.1) hold
    b_new = b - tau * ys
    margins = ys * (np.einsum("rd,rd->r", w_new, x)[:, None] - b_new)
    assert np.all(margins >= beta - 1e-9)
    satisfied = np.all(c >= 0, axis=1)  # Lemma 2: no update when the margin is already met
    assert np.all(tau[satisfied] == 0)


def test_mu_prank_matches_the_plain_update():
    X, y = random_stream(n_runs=1, rounds=100, dim=3)
    learner = MuPRank(3, 5, eta=0.5)
    w, b = np.full(3, 1 / 7), np.full(4, 1 / 7)
    for t in range(100):
        x = X[0, t]
        s = w @ x
        pred = predict_ranks(np.array([s]), b[None])[0]
        assert learner.partial_fit(X[:, t], y[:, t])[0] == pred
        if pred != y[0, t]:
            ys = rank_signs(y[:, t], 5)[0]
            tau = np.where((s - b) * ys <= 0, ys, 0.0)
            w, b = w * np.exp(0.5 * x * tau.sum()), b * np.exp(-0.5 * tau)
            z = w.sum() + b.sum()
            w, b = w / z, b / z
        assert np.allclose(learner.w[0], w) and np.allclose(learner.b[0], b)
    with pytest.raises(BoostrankError):
        learner.partial_fit(np.full((1, 3), 2.0), np.array([1]))


def test_mcp_and_widrow_hoff_updates():
    mcp = MCP(2, 3)
    x = np.array([[1.0, 2.0]])
    assert mcp.partial_fit(x, np.array([3]))[0] == 1  # all prototypes 0: ties go to rank 1
    assert np.allclose(mcp.M[0], [[-0.5, -1.0], [-0.5, -1.0], [1.0, 2.0]])  # E = {1, 2}
    assert mcp.predict(x)[0] == 3
    top = MCP(2, 3, update="max")
    top.partial_fit(x, np.array([3]))
    assert np.allclose(top.M[0], [[-1.0, -2.0], [0.0, 0.0], [1.0, 2.0]])
    wh = WidrowHoff(2, 5, learning_rate=0.1)
    assert wh.partial_fit(x, np.array([4]))[0] == 1  # 0 rounds to 0, clipped to rank 1
    assert np.allclose(wh.w, 0.1 * 4 * x)  # w += eta (y - w.x) x
    assert wh.predict(x)[0] == 2  # w.x = 0.4 * 5 = 2.0
    assert WidrowHoff(2, 5, learning_rate=0.1, intercept=True).partial_fit(x, np.array([4]))[0] == 1


def test_synthetic_generator_follows_the_recipe():
    _, y = prank_jobs.synthetic_sequences(3, 5000, seed=1)
    assert y.min() == 1 and y.max() == 5
    x, y = prank_jobs.synthetic_sequences(1, 20000, seed=2)
    f = 10 * (x[0, :, 0] - 0.5) * (x[0, :, 1] - 0.5)
    clear = np.abs(f[:, None] - np.array([-1, -0.1, 0.25, 1])).min(1) > 0.6  # noise < 4.8 sd
    assert np.array_equal(y[0, clear], 1 + (f[clear, None] > [-1, -0.1, 0.25, 1]).sum(1))


def test_crossover_round():
    ours = {
        "a": np.array([3.0, 2, 1, 1]),
        "b": np.array([3.0, 3, 0.5, 1]),
        "c": np.array([1.0, 2.5, 2, 2]),
    }
    assert prank_summary.crossover_round(ours, ["a", "b"], ["c"]) == 3
    assert prank_summary.crossover_round(ours, ["c"], ["a"]) == 5  # never below at the end


def test_below_fraction_counts_the_rounds_along_the_run():
    """Figure 7's "along the entire run": the fraction of rounds at which the time-averaged
    loss is below the other's (mean curves), or significantly so (paired 95% interval)."""
    ours = np.tile([2, 0, 0, 0], (3, 1))  # time-averaged 2, 1, 2/3, 1/2
    other = np.ones((3, 4), dtype=int)  # time-averaged 1 throughout
    assert prank_summary.below_fraction(ours, other) == 0.5  # rounds 3, 4 (a tie is not below)
    assert prank_summary.below_fraction(other, ours) == 0.25  # round 1 only: the text fails
    assert prank_summary.below_fraction(np.zeros((3, 4)), other, prank_summary.Z_95) == 1.0
    # below on average but not significantly: differences -1, -1, +0.5 (se 0.5, upper 0.48)
    noisy, base = np.array([[0], [0], [1.5]]), np.ones((3, 1))
    assert prank_summary.below_fraction(noisy, base) == 1.0
    assert prank_summary.below_fraction(noisy, base, prank_summary.Z_95) == 0.0
    assert np.isnan(prank_summary.below_fraction(noisy[:1], base[:1], prank_summary.Z_95))


def test_wh_initially_smallest_reads_the_instantaneous_loss():
    """Figure 6's "WH initially suffers the smallest instantaneous loss": the round's own loss
    averaged over the sequences, not the time-averaged loss (they can disagree)."""
    losses = {
        "wh": np.array([[3, 0, 0], [3, 0, 0]]),
        "prank": np.ones((2, 3), dtype=int),
        "siprank": np.ones((2, 3), dtype=int),
        "mcp": np.array([[2, 1, 0], [2, 1, 2]]),  # instantaneous 2, 1, 1
    }
    instant = prank_summary.instant_means(losses)
    assert np.allclose(instant["mcp"], [2, 1, 1])
    means = {k: prank_jobs.averaged(v)[0] for k, v in losses.items()}
    stats = prank_summary.early_stats(means, instant, 3, {})
    got = {r["statistic"]: r["value"] for r in stats}
    assert got["lowest_instant_fraction_early"] == pytest.approx(2 / 3)  # rounds 2 and 3
    assert got["lowest_fraction_early"] == 0.0  # time-averaged 3, 1.5, 1: never strictly lowest
    # a tie with another learner is not the smallest loss
    tied = {"wh": np.array([1.0, 0]), "mcp": np.array([1.0, 1])}
    assert prank_summary.lowest_fraction(tied, "wh", ["mcp"]) == 0.5


def _final_curves(finals: dict[str, float]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Curves (mean, 95% half-width) of two rounds that end at ``finals``."""
    return {k: (np.array([1.0, v]), np.array([0.1, 0.1])) for k, v in finals.items()}


def test_mu_eta_rank_finds_the_best_learning_rate():
    """Figure 7's "the best learning rate is eta=4 for the first partition": eta=4's rank
    among the Mu-PRank copies is 1 when it ends lowest, and above 1 (the claim fails) when
    another copy does; a tie shares the best rank."""
    mus = ["mu_eta0.5", "mu_eta1", "mu_eta4", "mu_eta16"]
    curves = _final_curves(dict(zip(mus, [0.9, 0.8, 0.6, 1.2], strict=True)))
    stats = prank_summary.mu_eta_stats(">=100", curves, mus, {})
    rank = {r["key"]: r["value"] for r in stats if r["statistic"] == "mu_eta_rank"}
    assert rank == {"mu_eta0.5": 3, "mu_eta1": 2, "mu_eta4": 1, "mu_eta16": 4}
    best = next(r for r in stats if r["statistic"] == "best_mu_eta")
    assert best["value"] == 4.0 and best["key"] == "mu_eta4"
    spread = next(r for r in stats if r["statistic"] == "mu_eta_spread_over_ci")
    assert spread["value"] == pytest.approx((1.2 - 0.6) / 0.2)
    curves = _final_curves(dict(zip(mus, [0.5, 0.8, 0.6, 1.2], strict=True)))  # eta=0.5 best
    stats = prank_summary.mu_eta_stats(">=100", curves, mus, {})
    rank = {r["key"]: r["value"] for r in stats if r["statistic"] == "mu_eta_rank"}
    assert rank["mu_eta4"] == 2 and rank["mu_eta0.5"] == 1
    tied = _final_curves({"mu_eta1": 0.5, "mu_eta4": 0.5})
    stats = prank_summary.mu_eta_stats(">=100", tied, ["mu_eta1", "mu_eta4"], {})
    assert [r["value"] for r in stats if r["statistic"] == "mu_eta_rank"] == [1, 1]


def test_mu_against_the_other_learners():
    """Figure 7's "Mu-PRank outperforms most of the other algorithms ... for a broad range of
    learning rates" counts the (eta, other) pairs Mu-PRank wins by final loss; "the multiplicative
    version outperforms regression and classification" the learning rates at which it ends
    below WH, MCP. A tie is not a win."""
    others = {"prank": 0.7, "siprank": 0.65, "mcp": 1.0, "wh": 0.9}
    mus = {"mu_eta0.5": 0.6, "mu_eta4": 0.95}
    stats = prank_summary.mu_against_others_stats(
        ">=100", _final_curves({**others, **mus}), list(mus), {}
    )
    got = {r["statistic"]: r["value"] for r in stats}
    assert got["mu_beats_others_fraction"] == pytest.approx(5 / 8)  # eta 0.5: 4, eta 4: MCP
    assert got["mu_below_mcp_eta_fraction"] == 1.0
    assert got["mu_below_wh_eta_fraction"] == 0.5  # eta 4 is above WH: 'most' fails
    worse = {"mu_eta0.5": 0.9, "mu_eta4": 1.1}  # a tie with WH, then above everything
    stats = prank_summary.mu_against_others_stats(
        ">=100", _final_curves({**others, **worse}), list(worse), {}
    )
    got = {r["statistic"]: r["value"] for r in stats}
    assert got["mu_beats_others_fraction"] == pytest.approx(1 / 8)  # the statement fails
    assert got["mu_below_wh_eta_fraction"] == 0.0 and got["mu_below_mcp_eta_fraction"] == 0.5


def siprank_stats(means, mus, start_rounds):
    """Si-PRank against the Mu-PRank copies, statistic -> value."""
    rows = prank_summary.siprank_mu_stats("p", means, mus, {}, start_rounds=start_rounds)
    return {r["statistic"]: r["value"] for r in rows}


def test_the_start_is_the_configured_rounds():
    """Reading prank_start_rounds: "the start of the training process" is rounds 1..20 or
    1..30; Si-PRank behind a copy until round 25 is behind in all of the first and 24 of 30 of
    the second, and the note names the setting."""
    t = np.arange(1, 41, dtype=float)
    means = {"siprank": 1.0 / t, "mu_eta1": np.full(40, 1 / 24.5)}
    assert siprank_stats(means, ["mu_eta1"], 20)["siprank_above_mu_fraction_start"] == 1.0
    got = siprank_stats(means, ["mu_eta1"], 30)["siprank_above_mu_fraction_start"]
    assert got == pytest.approx(24 / 30, abs=1e-6)
    rows = prank_summary.siprank_mu_stats("p", means, ["mu_eta1"], {}, start_rounds=30)
    assert "rounds 1..30" in rows[-1]["note"] and "start_rounds 30" in rows[-1]["note"]


def test_siprank_against_the_mu_prank_copies():
    """Figure 7's bottom left: Si-PRank behind most Mu-PRank copies at the start, best from
    some round on; and a run where it leads from the start and ends behind (both fail)."""
    rounds = 30
    t = np.arange(1, rounds + 1, dtype=float)
    means = {
        "siprank": 1.0 / t,  # falls fastest: behind until round 25, then best
        "mu_eta1": np.full(rounds, 1 / 24.5),
        "mu_eta4": np.full(rounds, 1 / 24.5),
        "mu_eta16": np.full(rounds, 0.5),
    }
    mus = ["mu_eta1", "mu_eta4", "mu_eta16"]
    got = siprank_stats(means, mus, 20)
    assert got["siprank_best_from_round"] == 25
    assert got["siprank_minus_best_mu_final"] == pytest.approx(1 / 30 - 1 / 24.5, abs=1e-6)
    # rounds 1..20: above eta 1 and 4 throughout, above eta 16 at round 1 only (1 > 0.5)
    assert got["siprank_above_mu_fraction_start"] == pytest.approx((20 + 20 + 1) / 60)
    means["siprank"] = np.full(rounds, 0.01) + (t > 20) * 0.1  # leads early, behind at the end
    got = siprank_stats(means, mus, 20)
    assert got["siprank_best_from_round"] == rounds + 1  # never below at the end
    assert got["siprank_minus_best_mu_final"] > 0
    assert got["siprank_above_mu_fraction_start"] == 0.0


def test_rating_matrix_and_runs():
    data = {
        "user": np.array([1, 1, 2, 2, 2, 3]),
        "item": np.array([1, 2, 1, 2, 3, 3]),
        "rating": np.array([5, 3, 2, 4, 3, 1]),
    }
    M = prank_jobs.rating_matrix(data, "user_mean", 0.25)
    assert M.shape == (3, 3)
    assert np.allclose(M[:, 0], [0.25, -0.25, 0.0])  # user 1: mean 4, unrated movie 3 is 0
    assert np.allclose(M.sum(0), 0.0)
    # the printed step (minus the scale's midpoint) maps 1..5 stars onto -0.5 .. 0.5
    printed = prank_jobs.rating_matrix(data, "scale_midpoint", 0.25)
    assert np.allclose(printed[:, 1], [-0.25, 0.25, 0.0]) and printed[2, 2] == -0.5
    targets, movies, _ = prank_jobs.movie_runs(data, 3, 5, seed=0)
    assert np.all(targets == 1) and movies.shape == (5, 3)
    assert np.array_equal(np.sort(movies, 1), np.tile([0, 1, 2], (5, 1)))
    with pytest.raises(BoostrankError):
        prank_jobs.movie_runs(data, 4, 5, seed=0)


def make_fig7(npz, meta, settings, seed, tmp_path):
    """Figure 7's job (``boostrank job prank.fig7``): the runs, then its CSVs and figure."""
    return prank_make.figure7(
        Fig7Spec(
            npz=str(npz), meta=str(meta), settings=settings, seed=seed,
            csv=str(tmp_path / "c.csv"), summary=str(tmp_path / "s.csv"), samples=None,
            figure_prefix=str(tmp_path / "fig"),
        )
    )  # fmt: skip


def fig_settings():
    return {
        "runs": 6,
        "rounds": 300,
        "algorithms": ["prank", "siprank", "mcp", "wh", "noprank"],
        "noprank_beta": 1.0,
        "mcp_update": "uniform",
        "early_rounds": 50,
        "wh": {"step": 0.1, "intercept": False, "sensitivity": [4]},
    }


def test_fig6_outputs(tmp_path):
    settings = fig_settings()
    stats = prank_make.figure6(
        Fig6Spec(
            settings=settings, seed=3, csv=str(tmp_path / "c.csv"),
            summary=str(tmp_path / "s.csv"), samples=str(tmp_path / "s.samples.csv"),
            figure_prefix=str(tmp_path / "fig"),
        )
    )  # fmt: skip
    curves = pd.read_csv(tmp_path / "c.csv")
    # each run's final loss averages to the summary's, and runs pair across learners
    samples = pd.read_csv(tmp_path / "s.samples.csv")
    by_key = samples.groupby("key")
    assert all(list(units) == [f"run{r}" for r in range(1, 7)] for _, units in by_key["unit"])
    got = by_key["value"].mean()
    want = stats[stats["statistic"] == "final_loss"].set_index("key")["value"]
    assert np.allclose(got.sort_index(), want.sort_index().astype(float), atol=2e-6)
    assert set(curves["key"]) == {"prank", "siprank", "mcp", "wh", "noprank", "wh_x4", "wh_flip"}
    assert (curves["data_kind"] == "generated").all()
    final = stats[stats["statistic"] == "final_loss"].set_index("key")["value"]
    last = curves[curves["round"] == 300].set_index("key")["mean_loss"]
    assert np.allclose(final.sort_index(), last.sort_index())
    # the instantaneous losses of rounds 1..T average to the time-averaged loss at T
    wh = curves[(curves["key"] == "wh") & (curves["round"] <= 100)].sort_values("round")
    running = wh["instant_loss"].cumsum() / np.arange(1, len(wh) + 1)
    assert np.allclose(running, wh["mean_loss"], atol=1e-5)
    early = stats.set_index("statistic")["value"]
    assert 0 <= float(early["lowest_instant_fraction_early"]) <= 1
    assert (tmp_path / "fig.png").exists()


def test_fig7_on_a_tiny_ratings_set(tmp_path):
    rng = np.random.default_rng(0)
    users, items = 12, 40
    mask = rng.random((users, items)) < 0.6
    u, i = np.nonzero(mask)
    taste = rng.normal(size=items)
    rating = np.clip(np.round(3 + taste[i] + rng.normal(0, 0.5, len(i))), 1, 5).astype(np.int8)
    npz = tmp_path / "ml.npz"
    np.savez(npz, user=(u + 1).astype(np.int32), item=(i + 1).astype(np.int32), rating=rating)
    meta = tmp_path / "ml.json"
    meta.write_text(
        json.dumps(
            {
                "dataset": "movielens_100k",
                "provenance": {"kind": "mirror"},
                "provenance_line": "mirror: toy",
            }
        )
    )
    settings = {
        **fig_settings(),
        "runs": 8,
        "min_ratings": [15, 20],
        "mu_etas": [0.5, 4],
        "centre": "user_mean",
        "scale": 0.25,
        "start_rounds": 20,
        "algorithms": ["prank", "siprank", "mcp", "wh"],
    }
    stats = make_fig7(npz, meta, settings, 1, tmp_path)
    curves = pd.read_csv(tmp_path / "c.csv")
    assert set(curves["panel"]) == {">=15", ">=20"}
    assert curves[curves["panel"] == ">=20"]["round"].max() == 20
    assert "mu_eta_spread_over_ci" in set(stats["statistic"])
    ranks = stats[stats["statistic"] == "mu_eta_rank"]
    assert len(ranks) == 2 * 2 and set(ranks["value"].astype(int)) <= {1, 2}
    for statistic in (
        "mu_beats_others_fraction", "mu_below_wh_eta_fraction", "mu_below_mcp_eta_fraction",
        "siprank_best_from_round", "siprank_minus_best_mu_final",
        "siprank_above_mu_fraction_start",
    ):  # fmt: skip
        assert (stats["statistic"] == statistic).sum() == 2  # one per panel
    along = stats[stats["statistic"].str.match(r"(significantly_)?below_")]
    assert len(along) == 2 * 2 * 2 * 2  # 2 panels x PRank, Si-PRank x MCP, WH x (sig or not)
    assert set(along["statistic"]) == {
        "below_mcp_fraction", "below_wh_fraction",
        "significantly_below_mcp_fraction", "significantly_below_wh_fraction",
    }  # fmt: skip
    wide = along.pivot_table(index=["panel", "key"], columns="statistic", values="value")
    assert (wide["significantly_below_wh_fraction"] <= wide["below_wh_fraction"]).all()
    assert "instant_loss" in curves.columns
    assert (tmp_path / "fig.png").exists()


def test_fig7_stand_in_too_small_uses_its_most_active_users(tmp_path):
    rng = np.random.default_rng(1)
    u, i = np.nonzero(rng.random((10, 30)) < 0.5)
    npz = tmp_path / "ml.npz"
    rating = rng.integers(1, 6, len(u)).astype(np.int8)
    np.savez(npz, user=(u + 1).astype(np.int32), item=(i + 1).astype(np.int32), rating=rating)
    meta = tmp_path / "ml.json"
    meta.write_text(
        json.dumps(
            {
                "dataset": "movielens_100k",
                "provenance": {"kind": "synthetic"},
                "provenance_line": "synthetic: toy",
            }
        )
    )
    settings = {
        **fig_settings(),
        "runs": 4,
        "min_ratings": [100],
        "mu_etas": [1],
        "centre": "user_mean",
        "scale": 0.25,
        "start_rounds": 20,
        "algorithms": ["prank", "wh"],
    }
    stats = make_fig7(npz, meta, settings, 1, tmp_path)
    note = stats.loc[stats["statistic"] == "eligible_users", "note"].iloc[0]
    assert "stand-in" in note
    curves = pd.read_csv(tmp_path / "c.csv")
    assert curves["round"].max() == np.bincount(u).max() and set(curves["panel"]) == {">=100"}
    meta.write_text(
        json.dumps(
            {
                "dataset": "movielens_100k",
                "provenance": {"kind": "mirror"},
                "provenance_line": "mirror: toy",
            }
        )
    )
    with pytest.raises(BoostrankError):
        make_fig7(npz, meta, settings, 1, tmp_path)
