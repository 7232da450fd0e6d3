"""QBRank and GBT (Zheng et al. 2007, NIPS) and the Table 1 / Figure 1 experiment code."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize_scalar

from boostrank.errors import BoostrankError
from boostrank.experiments.qbrank import jobs as exp
from boostrank.experiments.qbrank import make as qbrank_make
from boostrank.experiments.qbrank import spec
from boostrank.experiments.qbrank import summary as qbrank_summary
from boostrank.metrics.ranking import ndcg_at_k
from boostrank.ranking.gbt import GBT
from boostrank.ranking.pairs import query_pairs
from boostrank.ranking.qbrank import QBRank, line_search, regression_set


def letor_like(n_queries: int = 24, docs: int = 8, seed: int = 0):
    rng = np.random.default_rng(seed)
    qid = np.repeat(np.arange(n_queries), docs)
    X = rng.normal(size=(len(qid), 5))
    y = np.clip(np.round(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.5, len(qid))), 0, 2)
    y = y.astype(np.int64)
    y[qid < 4] = 0  # four single-grade queries (L1)
    return X, y, qid


@pytest.mark.parametrize("w", [0.5, 0.3])
@pytest.mark.parametrize("duplicates", ["count", "single"])
def test_qbrank_without_pairs_is_gbt_bit_for_bit(w, duplicates):
    X, y, qid = letor_like()
    gbt = GBT(30, random_state=7).fit(X, y)
    qb = QBRank(30, random_state=7, w=w, duplicates=duplicates).fit(
        X, y, qid, pair_mask=np.zeros(len(y), bool), label_mask=np.ones(len(y), bool)
    )
    assert np.array_equal(gbt.predict(X), qb.predict(X))
    assert np.array_equal(gbt.staged_predict(X, [1, 10, 30]), qb.staged_predict(X, [1, 10, 30]))
    assert gbt.model_.steps == qb.model_.steps


def test_gbt_is_least_squares_boosting():
    X, y, _ = letor_like()
    gbt = GBT(60, learning_rate=0.1, random_state=1).fit(X, y)
    stages = gbt.staged_predict(X, range(61))
    assert np.allclose(stages[0], y.mean())
    mse = ((stages - y) ** 2).mean(axis=1)
    assert np.all(np.diff(mse) <= 1e-12)  # training error never grows
    assert np.allclose(np.array(gbt.model_.steps) / 0.1, 1.0)  # rho = 1 for an LS tree
    assert all(t.get_n_leaves() <= 20 for t in gbt.model_.trees)


def test_staged_predictions_equal_shorter_runs():
    X, y, qid = letor_like()
    long = QBRank(40, random_state=3).fit(X, y, qid)
    short = QBRank(15, random_state=3).fit(X, y, qid)
    assert np.allclose(long.staged_predict(X, [15])[0], short.predict(X))
    with pytest.raises(BoostrankError):
        long.staged_predict(X, [20, 10])


def test_line_search_is_the_exact_minimiser():
    rng = np.random.default_rng(0)
    for _ in range(100):
        P, L = rng.integers(0, 25), rng.integers(0, 15)
        if P + L == 0:
            continue
        c, d = rng.normal(size=P), rng.normal(size=P) * (rng.random(P) > 0.2)
        r, g = rng.normal(size=L), rng.normal(size=L)
        pw, lw = 0.2 + rng.random(), 0.2 + rng.random()

        def f(s, c=c, d=d, r=r, g=g, pw=pw, lw=lw):
            return pw / 2 * np.sum(np.maximum(0, c + s * d) ** 2) + lw / 2 * np.sum(
                (r - s * g) ** 2
            )

        s = line_search(c, d, r, g, pw, lw)
        ref = minimize_scalar(f, bounds=(-100, 100), method="bounded", options={"xatol": 1e-10})
        assert f(s) <= ref.fun + 1e-8


def test_regression_set_worked_example():
    # a > b and a > c (tau 1, 2), h = 0; d labelled 2. v = 1 and 2.
    h = np.zeros(4)
    pi, pj, tau = np.array([0, 0]), np.array([1, 2]), np.array([1.0, 2.0])
    lz, labels = np.array([3]), np.array([2.0])
    t, w = regression_set(h, pi, pj, tau, lz, labels, 0.5, 0.5, "single")
    assert np.allclose(t, [1.5, -1.0, -2.0, 2.0])  # a: mean of +1 and +2
    assert np.allclose(w, 0.5)
    t, w = regression_set(h, pi, pj, tau, lz, labels, 0.5, 0.5, "count")
    assert np.allclose(t, [1.5, -1.0, -2.0, 2.0])
    assert np.allclose(w, [1.0, 0.5, 0.5, 0.5])  # a occurs twice
    # satisfied pairs contribute 0: h(a) - h(b) = 3 >= tau
    t, _ = regression_set(np.array([3.0, 0, 0, 2]), pi, pj, tau, lz, labels, 0.5, 0.5)
    assert np.allclose(t, [0.0, 0.0, 0.0, 0.0])


def test_qbrank_decreases_its_objective_and_ranks():
    X, y, qid = letor_like(seed=2)
    model = QBRank(40, learning_rate=0.3, random_state=0).fit(X, y, qid)
    i, j = query_pairs(y, qid)
    tau = (y[i] - y[j]).astype(float)
    staged = model.staged_predict(X, range(41))
    risk = 0.5 * (np.maximum(0, staged[:, j] - staged[:, i] + tau) ** 2).sum(axis=1)
    assert np.all(np.diff(risk) <= 1e-9)
    assert risk[-1] < 0.5 * risk[0]
    assert np.mean(staged[-1, i] > staged[-1, j]) > 0.8


def test_qbrank_rejects_bad_inputs():
    X, y, qid = letor_like()
    with pytest.raises(BoostrankError):  # checked in fit: the constructor stores as given
        QBRank(w=1.5).fit(X, y, qid)
    with pytest.raises(BoostrankError):
        QBRank(5, w=1.0).fit(X, y, qid, label_mask=np.ones(len(y), bool))


def test_make_split_follows_the_paper():
    _, y, qid = letor_like()
    sets = exp.make_split(y, qid, 0.5, seed=11)
    assert np.array_equal(sets == 1, qid < 4)  # single-grade queries
    for q in np.unique(qid):
        assert len(np.unique(sets[qid == q])) == 1  # by query
    assert {2, 3} <= set(sets.tolist())
    assert np.array_equal(sets, exp.make_split(y, qid, 0.5, seed=11))
    assert not np.array_equal(sets, exp.make_split(y, qid, 0.5, seed=12))


def test_dcg_worked_example():
    y = np.array([2, 0, 1, 0, 1, 2])
    scores = np.array([0.9, 0.8, 0.1, 0.5, 0.4, 0.3])
    qid = np.array([1, 1, 1, 2, 2, 2])
    dcg = exp.dcg_at_k(y, scores, qid, 5)
    q1 = 3 + 0 + 1 / np.log2(4)  # ranked 2, 0, 1
    q2 = 0 + 1 / np.log2(3) + 3 / np.log2(4)  # ranked 0, 1, 2
    assert np.allclose(dcg, [q1, q2])
    ideal = exp.dcg_at_k(y, y.astype(float), qid, 5)
    assert np.allclose(dcg / ideal, ndcg_at_k(y, scores, qid, 5, formula="report"))


def test_precision_at_percent_worked_example():
    diff = np.array([[3.0, -2.0, 1.0, 0.0]])  # sorted |diff|: 3 (+), 2 (-), 1 (+), 0 (tie)
    p = exp.precision_at_percent(diff, [25, 50, 75, 100], "half")
    assert np.allclose(p, [[1.0, 0.5, 2 / 3, 2.5 / 4]])
    assert np.allclose(exp.precision_at_percent(diff, [100], "wrong"), [[0.5]])
    assert np.allclose(exp.precision_at_percent(diff, [100], "right"), [[0.75]])


def train_model(model, npz, meta, params, out, queries=None):
    """The training job of ``model`` on split 1 of the data set ``toy``."""
    return exp.train_model(
        spec.TrainSpec(
            dataset="toy", model=model, split=1, npz=str(npz), meta=str(meta), params=params,
            seed=5, out=str(out), record=str(out.with_suffix(".json")),
            queries=None if queries is None else str(queries),
        )
    )  # fmt: skip


def make_outputs(p, inputs, table_trees, trees, ties, queries=(), figure_samples=None):
    """The merge job: Table 1 and Figure 1 of the run CSVs ``inputs``, written into ``p``."""
    return qbrank_make.make_outputs(
        spec.FigureSpec(
            inputs=list(map(str, inputs)), queries=list(map(str, queries)),
            table_trees=table_trees, convergence_trees=100, trees=trees, ties=ties,
            table_csv=str(p / "t.csv"),
            table_summary=str(p / "ts.csv"), figure_csv=str(p / "f.csv"),
            figure_summary=str(p / "fs.csv"),
            figure_samples=None if figure_samples is None else str(figure_samples),
            table_prefix=str(p / "table"), figure_prefix=str(p / "fig"),
        )
    )  # fmt: skip


def test_train_and_merge_end_to_end(tmp_path):
    X, y, qid = letor_like(n_queries=30)
    npz = tmp_path / "toy.npz"
    np.savez(npz, X=X.astype(np.float32), y=y.astype(np.int8), qid=qid)
    meta = tmp_path / "toy.json"
    meta.write_text(
        json.dumps(
            {"dataset": "toy", "provenance": {"kind": "mirror"}, "provenance_line": "mirror: toy"}
        )
    )
    params = {
        "l2_fraction": 0.5,
        "stages": [5, 10],
        "trees": {"max_leaf_nodes": 4, "learning_rate": 0.1},
        "qbrank": {"w": 0.5, "margin": "grade_difference", "duplicates": "count"},
        "ranksvm": {"C": 1.0},
        "ties": "half",
        "dcg_k": 5,
    }
    outs, queries = [], []
    for m in spec.MODELS:
        out = tmp_path / f"{m.key}.csv"
        queries.append(tmp_path / f"{m.key}.queries.csv")
        train_model(m.key, npz, meta, params, out, queries[-1])
        outs.append(out)
    record = json.loads((tmp_path / "qbrank_p2l1.json").read_text())
    assert record["queries"]["L1"] >= 4 and record["train_pairs"] > 0
    p = tmp_path
    make_outputs(p, outs, 10, params["trees"], "wrong", queries, p / "f.samples.csv")
    # each L3 query's DCG averages to Figure 1's value; every model ranks the same queries
    samples = pd.read_csv(p / "f.samples.csv", keep_default_na=False, dtype={"trees": str})
    figure = pd.read_csv(p / "f.csv", keep_default_na=False, dtype={"trees": str})
    means = samples.groupby(["model", "trees"])["value"].mean()
    for row in figure.itertuples():
        assert means[(row.model, row.trees)] == pytest.approx(row.dcg5, abs=1e-5)
    assert samples.groupby(["model", "trees"])["unit"].apply(frozenset).nunique() == 1
    table = pd.read_csv(p / "t.csv")
    assert set(table["model"]) == {"qbrank_p2", "gbt_l2", "ranksvm_p2"}
    assert len(table) == 30 and table["value"].between(0, 1).all()
    curves = pd.read_csv(p / "f.csv", keep_default_na=False)
    assert set(curves["model"]) == {m.key for m in spec.MODELS}
    stats = pd.read_csv(p / "fs.csv")
    best = stats[stats["statistic"] == "best_fraction"]
    assert np.isclose(best["value"].sum(), 1.0)
    change = stats[stats["statistic"] == "last_relative_change"]
    assert {"qbrank_p2", "qbrank_p2l1"} <= set(change["model"]) and (change["value"] >= 0).all()
    assert (p / "fig.png").exists() and (p / "table.md").exists()
    # The caption states the settings this run used, not the paper's.
    caption = (p / "table.md").read_text()
    leaves = params["trees"]["max_leaf_nodes"]
    assert f"{leaves} leaves" in caption and "ties count as wrongly ordered" in caption
    # A table_trees that is none of the stages leaves Table 1's statistics empty, readable.
    other = tmp_path / "other"
    other.mkdir()
    make_outputs(other, outs, 7, params["trees"], "wrong")
    empty = pd.read_csv(other / "ts.csv")
    assert empty.empty and list(empty.columns) == qbrank_summary.STAT_COLUMNS


def test_convergence_is_the_change_over_the_last_hundred_trees():
    """Figure 1's "clear convergence trend of QBrank": each boosted curve's relative change
    of DCG from 300 to 400 trees, under 0.01 (footnote 3's 1%) for a settled curve; a curve
    still climbing fails. RankSVM, one value, is no curve."""
    wide = pd.DataFrame(
        {
            "qbrank_p2": [6.60, 6.75, 6.80, 6.81, 6.82],  # settles: 0.01 / 6.82
            "qbrank_p2l1": [6.00, 6.20, 6.40, 6.60, 6.90],  # still climbing: 0.3 / 6.9
            "ranksvm_p2": 6.181,
        },
        index=pd.Index([50, 100, 200, 300, 400], name="n"),
    )
    rows = qbrank_summary.convergence_rows(
        wide, "dcg5", last_trees=100, dataset="d", data_kind="real", provenance="p"
    )
    got = {r["model"]: r["value"] for r in rows}
    assert set(got) == {"qbrank_p2", "qbrank_p2l1"}
    assert got["qbrank_p2"] == pytest.approx(0.01 / 6.82, abs=1e-6) and got["qbrank_p2"] < 0.01
    assert got["qbrank_p2l1"] == pytest.approx(0.3 / 6.9, abs=1e-6) and got["qbrank_p2l1"] > 0.01
    assert all(r["statistic"] == "last_relative_change" for r in rows)
    assert "300..400" in rows[0]["note"]
    # a shorter axis (no count 100 trees before the last) measures from its first count
    short = qbrank_summary.convergence_rows(
        wide.loc[[50, 100]], "dcg5", last_trees=100, dataset="d", data_kind="real", provenance="p"
    )
    assert short[0]["value"] == pytest.approx(0.15 / 6.75, abs=1e-6)


def test_the_convergence_window_is_the_configured_trees():
    """Reading qbrank_convergence_trees: over the last 50 trees (350..400) a curve that still
    climbs from 300 to 350 and then levels off has settled; over the last 100 it has not."""
    wide = pd.DataFrame(
        {"qbrank_p2": [6.60, 6.75, 6.82, 6.83]}, index=pd.Index([100, 300, 350, 400], name="n")
    )

    def change(last_trees):
        rows = qbrank_summary.convergence_rows(
            wide, "dcg5", last_trees=last_trees, dataset="d", data_kind="real", provenance="p"
        )
        return rows[0]

    hundred, fifty = change(100)["value"], change(50)["value"]
    assert hundred == pytest.approx(0.08 / 6.83, abs=1e-6) and hundred > 0.01
    assert fifty == pytest.approx(0.01 / 6.83, abs=1e-6) and fifty < 0.01
    assert "350..400 (convergence_trees 50)" in change(50)["note"]


def test_a_stand_in_without_single_grade_queries(tmp_path):
    X, y, qid = letor_like(n_queries=20)
    y[::8], y[1::8] = 0, 2  # every query has two grades: L1 is empty
    npz = tmp_path / "toy.npz"
    np.savez(npz, X=X.astype(np.float32), y=y.astype(np.int8), qid=qid)
    meta = tmp_path / "toy.json"
    meta.write_text(
        json.dumps(
            {"dataset": "toy", "provenance": {"kind": "synthetic"}, "provenance_line": "syn"}
        )
    )
    params = {
        "l2_fraction": 0.5,
        "stages": [3],
        "trees": {"max_leaf_nodes": 4, "learning_rate": 0.1},
        "qbrank": {"w": 0.5, "margin": 1.0, "duplicates": "count"},
        "ranksvm": {"C": 1.0},
        "ties": "half",
        "dcg_k": 5,
    }
    outs = []
    for m in spec.MODELS:
        out = tmp_path / f"{m.key}.csv"
        train_model(m.key, npz, meta, params, out)
        outs.append(out)
    l1 = pd.read_csv(tmp_path / "gbt_l1.csv")
    assert l1["value"].isna().all() and (l1["note"] == "L1 empty on this data set").all()
    p = tmp_path
    make_outputs(p, outs, 3, params["trees"], "half")
    stats = pd.read_csv(p / "fs.csv")
    assert "gbt_l1" not in set(stats["model"])


def test_the_figure_reads_every_split_the_workflow_counts_for_each_data_set():
    """One file per (data set, split, model), the splits counted per data set by the
    workflow's ``replicates`` (configured on real data, 1 on a stand-in)."""
    config = {"qbrank": {"datasets": ["mq2007", "mq2008"], "splits": 3}}
    asked = []

    def replicates(configured, dataset):
        asked.append((configured, dataset))
        return 1 if dataset == "mq2008" else configured

    files = spec.run_files(config, ".queries.csv", replicates)
    assert sorted(set(asked)) == [(3, "mq2007"), (3, "mq2008")]
    assert len(files) == len(set(files)) == (3 + 1) * len(spec.MODELS)
    assert files[0] == spec.run_file("mq2007", 1, spec.MODELS[0].key, ".queries.csv")
    assert files[0] == f"{spec.RUNS}/mq2007/split1/{spec.MODELS[0].key}.queries.csv"
    assert not [f for f in files if "mq2008/split2" in f]
    assert {f.rsplit("/", 1)[1] for f in files} == {f"{m.key}.queries.csv" for m in spec.MODELS}
