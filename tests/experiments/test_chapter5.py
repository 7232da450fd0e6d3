"""Figures 5.1, 5.2, 6.1, 6.2 (Valizadegan 2010, chapters 5-6): the run jobs and the figure
job on a small made-up data set, and the claims' summary statistics."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter5_6 import jobs, spec
from boostrank.experiments.chapter5_6 import make as ch5_make


def _dataset(tmp_path, name, kind="mirror", n=240, d=5, K=3, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(K, d)) * 3
    y = rng.integers(0, K, n).astype(np.int32)
    X = (centres[y] + rng.normal(size=(n, d))).astype(np.float32)
    npz = tmp_path / f"{name}.npz"
    np.savez(npz, X=X, y=y, classes=np.array([f"c{k}" for k in range(K)]))
    meta = tmp_path / f"{name}.json"
    meta.write_text(
        json.dumps(
            {
                "dataset": name,
                "provenance": {"kind": kind},
                "provenance_line": f"{kind}: test data {name}",
                "stats": {"rows": n, "split": "train"},
            }
        )
    )
    return npz, meta


ROOT = Path(__file__).resolve().parents[2]
# The run job's parameters the tests leave at the config's defaults.
RUN_DEFAULTS = {
    "gammas": (), "sweep": None, "points": 100, "max_trials": None, "scaling": "none",
    "importance": "printed", "eta_factor": 1e-5, "lam1": 0.1, "lam2": 0.1, "finals": None,
}  # fmt: skip


def _finals(out):
    return out.with_suffix(".finals.csv")


def _paths(fields):
    return {k: str(v) if isinstance(v, Path) else v for k, v in fields.items()}


def run_method(**fields):
    """A run job: ``fields`` of :class:`spec.RunSpec`, the others at the config's defaults."""
    return jobs.run_method(spec.RunSpec(**_paths({**RUN_DEFAULTS, **fields})))


def make_figure(figure, files, csv, summary, prefix, finals=(), samples=None):
    """A figure job on the run CSVs ``files``."""
    return ch5_make.make_figure(
        spec.FigureSpec(
            figure=figure, inputs=list(map(str, files)), finals=list(map(str, finals)),
            claims=str(ROOT / "config/claims.yaml"), tolerance=0.01, gap=0.05, csv=str(csv),
            summary=str(summary), samples=None if samples is None else str(samples),
            figure_prefix=str(prefix),
        )
    )  # fmt: skip


def eta_sweep(dataset, npz, meta, factors, input_scales, gammas, runs, seed, out):
    """The eta sweep job (whole data set, printed importance weights)."""
    return jobs.eta_sweep(
        spec.EtaSweepSpec(
            dataset=dataset, npz=str(npz), meta=str(meta), factors=factors,
            input_scales=input_scales, gammas=gammas, runs=runs, seed=seed, max_trials=None,
            importance="printed", out=str(out),
        )
    )  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ch5")
    out = {}
    for name, kind in (("nursery", "mirror"), ("protein", "synthetic")):
        npz, meta = _dataset(tmp, name, kind, seed=len(name))
        common = {"dataset": name, "npz": npz, "meta": meta, "seed": 3, "points": 15}
        for method in spec.SWEEP_METHODS:
            out[(name, method)] = tmp / f"{name}-{method}.csv"
            run_method(
                figure="thesis-fig5_2",
                method=method,
                runs=2,
                out=out[(name, method)],
                finals=_finals(out[(name, method)]),
                gammas=[0.05, 0.2, 0.4],
                **common,
            )
        out[(name, "perceptron")] = tmp / f"{name}-perceptron.csv"
        run_method(
            figure="thesis-fig5_1",
            method="perceptron",
            runs=2,
            out=out[(name, "perceptron")],
            finals=_finals(out[(name, "perceptron")]),
            **common,
        )
        for method in spec.ADAPTIVE:
            out[(name, method)] = tmp / f"{name}-{method}.csv"
            run_method(
                figure="thesis-fig6_2",
                method=method,
                runs=3,
                out=out[(name, method)],
                finals=_finals(out[(name, method)]),
                **common,
            )
        out[(name, "bw")] = tmp / f"{name}-bw.csv"
        run_method(
            figure="thesis-fig6_2",
            method="banditron_best_worst",
            runs=3,
            out=out[(name, "bw")],
            finals=_finals(out[(name, "bw")]),
            sweep=out[(name, "banditron")],
            **common,
        )
    return tmp, out


def test_run_csv_has_curves_for_every_gamma_with_provenance(runs):
    _, out = runs
    table = pd.read_csv(out[("nursery", "banditron")])
    assert sorted(table["gamma"].unique()) == [0.05, 0.2, 0.4]
    assert (table.groupby("gamma")["trial"].max() == 240).all()
    assert table["error"].between(0, 1).all()
    assert set(table["data_kind"]) == {"mirror"} and table["provenance"].str.len().min() > 0
    assert (table["runs"] == 2).all()
    adaptive = pd.read_csv(out[("nursery", "ag2")])
    assert adaptive["mean_gamma_t"].between(0, 0.5).all()
    assert (
        pd.read_csv(out[("protein", "ag0")])["dataset_label"]
        .iloc[0]
        .endswith("[synthetic stand-in]")
    )


def test_best_and_worst_follow_the_sweep(runs):
    _, out = runs
    best, worst = jobs.best_worst_gammas(out[("nursery", "banditron")])
    bw = pd.read_csv(out[("nursery", "bw")])
    got = bw.groupby("method")["gamma"].first()
    assert got["Banditron_Best"] == best and got["Banditron_Worst"] == worst
    sweep = pd.read_csv(out[("nursery", "banditron")])
    final = sweep[sweep["trial"] == 240].groupby("gamma")["error"].mean()
    assert final[best] == final.min() and final[worst] == final.max()


def test_same_seed_same_numbers(runs, tmp_path):
    tmp, out = runs
    again = tmp_path / "again.csv"
    run_method(
        figure="thesis-fig5_2",
        dataset="nursery",
        method="exp_gradient",
        npz=tmp / "nursery.npz",
        meta=tmp / "nursery.json",
        runs=2,
        seed=3,
        out=again,
        gammas=[0.05, 0.2, 0.4],
        points=15,
    )
    assert again.read_text() == out[("nursery", "exp_gradient")].read_text()


def test_figures_and_summaries(runs, tmp_path):
    _, out = runs
    sweeps = [out[(d, m)] for d in ("nursery", "protein") for m in spec.SWEEP_METHODS]
    inputs = {
        "thesis-fig5_2": sweeps,
        "thesis-fig6_1": [out[(d, "banditron")] for d in ("nursery", "protein")],
        "thesis-fig5_1": sweeps + [out[(d, "perceptron")] for d in ("nursery", "protein")],
        "thesis-fig6_2": [
            out[(d, m)] for d in ("nursery", "protein") for m in (*spec.ADAPTIVE, "bw")
        ],
    }
    for figure, files in inputs.items():
        prefix = tmp_path / figure
        tidy = make_figure(
            figure, files, tmp_path / f"{figure}.csv", tmp_path / f"{figure}_s.csv", prefix
        )
        assert (tmp_path / f"{figure}.png").stat().st_size > 0
        assert (tmp_path / f"{figure}.pdf").stat().st_size > 0
        assert {"data_kind", "provenance"} <= set(tidy.columns)
    s51 = pd.read_csv(tmp_path / "thesis-fig5_1_s.csv")
    methods = set(pd.read_csv(tmp_path / "thesis-fig5_1.csv")["method"])
    assert methods == {"Exp. gradient", "Banditron", "Banditron_Pos", "Perceptron"}
    gap = s51[(s51["statistic"] == "full_partial_gap") & (s51["dataset"] == "nursery")]
    assert len(gap) == 1
    # the aggregate counts only real data: protein (synthetic here) does not vote
    agg = s51[s51["statistic"] == "eg_faster_than_pos"].iloc[0]
    assert agg["data_kind"] == "mirror" and "protein" in agg["note"]
    s61 = pd.read_csv(tmp_path / "thesis-fig6_1_s.csv")
    best = s61[s61["statistic"] == "best_gamma"].set_index("dataset")["value"]
    assert set(best.index) == {"nursery", "protein"} and best.isin([0.05, 0.2, 0.4]).all()
    s62 = pd.read_csv(tmp_path / "thesis-fig6_2_s.csv")
    fractions = s62[s62["dataset"] == "all"].set_index("statistic")["value"]
    assert fractions.drop(["example_ag0_ag2_count", "example_ag23_best_count"]).between(0, 1).all()


def test_each_runs_differences_average_to_the_summary(runs, tmp_path):
    _, out = runs
    sweeps = [out[(d, m)] for d in ("nursery", "protein") for m in spec.SWEEP_METHODS]
    inputs = {
        "thesis-fig5_2": sweeps,
        "thesis-fig5_1": sweeps + [out[(d, "perceptron")] for d in ("nursery", "protein")],
        "thesis-fig6_2": [
            out[(d, m)] for d in ("nursery", "protein") for m in (*spec.ADAPTIVE, "bw")
        ],
    }
    expected = {
        "thesis-fig5_2": ({"eg_minus_banditron"}, 2),
        "thesis-fig5_1": ({"full_partial_gap"}, 2),
        "thesis-fig6_2": ({"worst_minus_best", "ag0_minus_ag2", "best_minus_ag23"}, 3),
    }
    for figure, files in inputs.items():
        make_figure(
            figure, files, tmp_path / f"{figure}.csv", tmp_path / f"{figure}_s.csv",
            tmp_path / figure, finals=[_finals(f) for f in files],
            samples=tmp_path / f"{figure}_s.samples.csv",
        )  # fmt: skip
        stats = pd.read_csv(tmp_path / f"{figure}_s.csv")
        samples = pd.read_csv(tmp_path / f"{figure}_s.samples.csv")
        names, n_runs = expected[figure]
        assert set(samples["statistic"]) == names
        assert set(samples["unit"]) == {f"run{r}" for r in range(1, n_runs + 1)}
        means = samples.groupby(["statistic", "dataset"])["value"].mean()
        for (stat, ds), mean in means.items():
            value = stats[(stats["statistic"] == stat) & (stats["dataset"] == ds)]["value"]
            assert float(value.iloc[0]) == pytest.approx(mean, abs=2e-6), (figure, stat, ds)


def test_unknown_method_and_missing_grid():
    with pytest.raises(BoostrankError):
        jobs.make_learner("banditron_x", 3, 2, np.array([1]), gamma=None, n_trials=10, options={})


def test_eta_sweep_covers_every_factor_and_scale_and_theta_moves_with_the_factor(tmp_path):
    """The supplementary sweep: one row per (input scale, factor, gamma);
    theta moves further with a larger factor, and raw inputs move it further than scaled."""
    npz, meta = _dataset(tmp_path, "pendigits", n=300, d=6, K=4, seed=2)
    table = eta_sweep("pendigits", npz, meta, [1e-5, 1e-2, 1.0], ["linf", "raw"],
                               [0.1, 0.3], 2, 5, tmp_path / "eta.csv")  # fmt: skip
    assert len(table) == 2 * 3 * 2 and table["finite"].all()
    shift = table.groupby(["input_scale", "eta_factor"])["theta_shift"].mean()
    for scale in ("linf", "raw"):
        assert shift[scale][1e-5] < shift[scale][1e-2] < shift[scale][1.0]
        assert shift["linf"][1e-5] < 1e-3  # the text's factor on scaled inputs: ~linear
    assert (shift["raw"] > shift["linf"]).all()
    again = eta_sweep("pendigits", npz, meta, [1e-5, 1e-2, 1.0], ["linf", "raw"],
                               [0.1, 0.3], 2, 5, tmp_path / "eta2.csv")  # fmt: skip
    pd.testing.assert_frame_equal(table, again)
    best = ch5_make.eta_sweep_figure(
        spec.EtaFigureSpec(inputs=[str(tmp_path / "eta.csv")], csv=str(tmp_path / "all.csv"),
                           figure_prefix=str(tmp_path / "fig"))
    )  # fmt: skip
    assert (tmp_path / "fig.png").exists() and len(best) == 6
    with pytest.raises(BoostrankError, match="input_scales"):
        eta_sweep("pendigits", npz, meta, [1.0], ["l2"], [0.1], 1, 5, tmp_path / "x")


def test_each_figure_reads_the_runs_of_its_family():
    """Figures 5.1, 5.2 and 6.1 are drawn from the gamma sweep ("extracted from Figure 5.2",
    section 6.1), 5.1 with the Perceptron's runs too, 6.2 from its own family; the finals
    files are the same runs'."""
    config = {
        "chapter5": {"datasets": ["protein", "nursery"], "eta_sweep": {"datasets": ["letter"]}}
    }
    runs = {f: spec.figure_runs(config, f) for f in spec.CURVE_FIGURES}
    families = {f: {Path(r).parts[-3] for r in files} for f, files in runs.items()}
    assert families == {
        "thesis-fig5_1": {"thesis-fig5_1", "thesis-fig5_2"},
        "thesis-fig5_2": {"thesis-fig5_2"},
        "thesis-fig6_1": {"thesis-fig5_2"},
        "thesis-fig6_2": {"thesis-fig6_2"},
    }
    methods = {f: {Path(r).stem for r in files} for f, files in runs.items()}
    assert methods["thesis-fig5_2"] == set(spec.SWEEP_METHODS)
    assert methods["thesis-fig5_1"] == {*spec.SWEEP_METHODS, "perceptron"}
    assert methods["thesis-fig6_1"] == {"banditron"}
    assert methods["thesis-fig6_2"] == {*spec.ADAPTIVE, "banditron_best_worst"}
    for figure, files in runs.items():
        assert {Path(r).parent.name for r in files} == {"protein", "nursery"}
        finals = spec.figure_runs(config, figure, ".finals.csv")
        assert finals == [r.removesuffix(".csv") + ".finals.csv" for r in files]
    assert spec.eta_runs(config) == [spec.eta_run_file("letter")]
    assert spec.eta_run_file("letter").startswith(spec.RUNS + "/")
