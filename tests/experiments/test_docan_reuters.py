"""The document-analysis report's Reuters experiments on a tiny synthetic corpus: the k-NN vote,
the elbow rules, the corpus builder, and that every docan claim finds its one results row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.neighbors import KNeighborsClassifier

from boostrank.experiments.docan import jobs as D
from boostrank.experiments.docan import make as M
from boostrank.experiments.docan.spec import ForestMergeSpec, PlotSpec, Table1Spec
from boostrank.io import write_json
from boostrank.preprocess.reuters import ReutersDoc
from boostrank.preprocess.reuters_corpus import (
    CorpusSettings,
    build_corpus,
    load_corpus,
    save_corpus,
)
from boostrank.report.claims import evaluate, load_claims

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------- k-NN


@pytest.mark.parametrize("metric", ["cosine", "euclidean"])
def test_knn_counts_equal_scikit_learn_for_every_k(metric):
    rng = np.random.default_rng(3)
    X_train = sp.csr_matrix(rng.random((120, 15)) * (rng.random((120, 15)) < 0.4))
    dense_test = rng.random((50, 15)) * (rng.random((50, 15)) < 0.4)
    dense_test[0] = 0  # an all-zero document, as a test text with no training word would be
    X_test = sp.csr_matrix(dense_test)
    y_train = rng.integers(0, 4, 120)
    y_test = rng.integers(0, 4, 50)
    ks = [1, 3, 4, 9, 25]
    correct = D.knn_correct(X_train, y_train, X_test, y_test, ks, metric=metric, chunk=7)
    assert correct.shape == (50, len(ks))
    for k, right in zip(ks, correct.T, strict=True):
        model = KNeighborsClassifier(k, algorithm="brute", metric=metric).fit(X_train, y_train)
        assert (right == (model.predict(X_test) == y_test)).all(), k


def test_knn_tied_vote_goes_to_the_lower_class_and_equal_distances_to_the_earlier_row():
    X_train = sp.csr_matrix(np.array([[1.0, 0], [1.0, 0], [0, 1.0], [0, 1.0]]))
    y_train = np.array([1, 0, 0, 1])
    X_test = sp.csr_matrix(np.array([[1.0, 0.0]]))
    # k=1: rows 0 and 1 are equally near; the earlier (class 1) wins. k=2: one vote each, so 0.
    assert D.knn_correct(
        X_train, y_train, X_test, np.array([1]), [1, 2], metric="euclidean"
    ).tolist() == [[True, False]]
    assert D.knn_correct(
        X_train, y_train, X_test, np.array([0]), [1, 2], metric="euclidean"
    ).tolist() == [[False, True]]


# --------------------------------------------------------------------------- elbows


def test_elbow_rules_on_a_known_curve():
    ks = np.arange(1, 9)
    wss = np.array([100.0, 60, 25, 22, 20, 18, 16.5, 15])
    assert D.kneedle_elbow(ks, wss) == 3
    assert D.second_difference_elbow(ks, wss) == 3
    later = np.array([100.0, 90, 80, 70, 30, 28, 26, 24])
    assert D.kneedle_elbow(ks, later) == 5
    assert D.second_difference_elbow(ks, later) == 5


# --------------------------------------------------------------------------- corpus and outputs

WORDS = {
    "earn": "profit net shares dividend quarter revenue",
    "acq": "acquire merger stake takeover bid company",
    "crude": "oil barrel opec crude prices refinery",
}


def _docs() -> list[ReutersDoc]:
    rng = np.random.default_rng(0)
    docs, newid = [], 0
    for split, n in (("TRAIN", 14), ("TEST", 6)):
        for i in range(n):
            for topic, words in WORDS.items():
                newid += 1
                body = " ".join(rng.choice(words.split(), 8)) + f" {i} said."
                topics = (topic,) if i % 5 else (topic, "trade")
                docs.append(ReutersDoc(newid, split, "YES", topics, "T", body))
    docs.append(ReutersDoc(newid + 1, "TRAIN", "YES", ("earn",), "T", "It is 1987."))  # empties
    docs.append(ReutersDoc(newid + 2, "TRAIN", "NO", ("earn",), "T", "ignored words"))
    return docs


def test_build_corpus_selects_labels_and_weights():
    corpus, stats = build_corpus(_docs(), CorpusSettings(top_topics=3))
    assert corpus.topics == ["earn", "acq", "crude"]  # 21, 20, 20 (ties a-z); trade 15 is 4th
    assert corpus.X_train.shape[0] == len(corpus.y_train) == 42
    assert corpus.X_test.shape == (18, len(corpus.terms))
    assert stats["train"]["dropped_empty"] == 1 and stats["train"]["selected_documents"] == 43
    assert "said" in corpus.terms and "it" not in corpus.terms
    for j, topic in enumerate(corpus.topics):
        assert (corpus.y_train == j).sum() == stats["train"]["per_topic"][topic] == 14
    single, _ = build_corpus(_docs(), CorpusSettings(top_topics=3, multi_topic="single"))
    assert single.X_train.shape[0] < corpus.X_train.shape[0]


def test_corpus_round_trip(tmp_path):
    corpus, _ = build_corpus(_docs(), CorpusSettings(top_topics=3))
    save_corpus(tmp_path / "c.npz", corpus)
    back = load_corpus(tmp_path / "c.npz")
    assert (back.X_train != corpus.X_train).nnz == 0 and (back.X_test != corpus.X_test).nnz == 0
    assert back.topics == corpus.topics and back.terms == corpus.terms
    np.testing.assert_array_equal(back.newid_test, corpus.newid_test)


def test_outputs_carry_provenance_and_every_docan_claim_finds_its_row(tmp_path, monkeypatch):
    docs = _docs()
    corpus, stats = build_corpus(docs, CorpusSettings(top_topics=3))
    save_corpus(tmp_path / "c.npz", corpus)
    meta = {
        "dataset": "reuters21578",
        "data_kind": "mirror",
        "provenance_line": "mirror: test",
        "settings": vars(CorpusSettings(top_topics=3)),
        "stats": stats,
    }
    write_json(tmp_path / "c.json", meta)
    monkeypatch.chdir(tmp_path)
    claims_path = ROOT / "config/claims.yaml"
    c, m = tmp_path / "c.npz", tmp_path / "c.json"
    D.clustering_curves(
        c, m, "results/docan-fig5.csv", seed=1, k_max=4, n_init=1, svd_dim=3, gmm_max=3
    )
    for fig, metric in (("fig6", "cosine"), ("fig7", "euclidean")):
        D.knn_curve(c, m, f"results/docan-{fig}.csv", metric=metric, ks=[1, 3, 5],
                    samples=tmp_path / f"results/docan-{fig}.samples.csv")  # fmt: skip
        best = pd.read_csv(f"results/docan-{fig}.csv", dtype={"k": str}).set_index("k")
        units = pd.read_csv(f"results/docan-{fig}.samples.csv")
        assert len(units) == best.loc["best", "n_test"]  # one unit per test document
        assert units["value"].mean() == pytest.approx(best.loc["best", "accuracy"], abs=1e-6)
        plot = PlotSpec(fig, f"results/docan-{fig}.csv", str(claims_path), f"figures/docan-{fig}")
        M.make_plot(plot)
    M.make_plot(PlotSpec("fig5", "results/docan-fig5.csv", str(claims_path), "figures/docan-fig5"))
    # Two replicate forests (replicate 1 grows from the seed itself), then their mean.
    grown = [
        D.random_forest_accuracy(
            c, m, f"forest/r{r}.csv", seed=1, n_estimators=15,
            samples=tmp_path / f"forest/r{r}.samples.csv", replicate=r,
        ).set_index("split")
        for r in (1, 2)
    ]  # fmt: skip
    assert (
        "seed 1;" in grown[0].loc["train", "note"]
        and "seed 1;" not in grown[1].loc["train", "note"]
    )
    M.make_forest_merge(
        ForestMergeSpec(["forest/r1.csv"], ["forest/r1.samples.csv"], "one.csv", "one.s.csv")
    )
    assert Path("one.csv").read_bytes() == Path("forest/r1.csv").read_bytes()
    assert Path("one.s.csv").read_bytes() == Path("forest/r1.samples.csv").read_bytes()
    forest = M.make_forest_merge(
        ForestMergeSpec(
            ["forest/r1.csv", "forest/r2.csv"],
            ["forest/r1.samples.csv", "forest/r2.samples.csv"],
            "results/docan-table1.csv",
            "results/docan-table1.samples.csv",
        )
    ).set_index("split")
    assert "mean over 2 forests" in forest.loc["train", "note"]
    units = pd.read_csv("results/docan-table1.samples.csv")
    for split, kind in (("train", "train"), ("test", "test")):  # every document, once
        mine = units[units["split"] == split]
        assert len(mine) == forest.loc[split, "documents"] == mine["unit"].nunique()
        assert mine["unit"].str.startswith(kind).all()
        both = (grown[0].loc[split, "accuracy"] + grown[1].loc[split, "accuracy"]) / 2
        assert forest.loc[split, "accuracy"] == pytest.approx(both, abs=1e-6)
        assert mine["value"].mean() == pytest.approx(forest.loc[split, "accuracy"], abs=1e-6)
        assert mine["value"].isin([0, 0.5, 1]).all()  # each document's share of 2 forests
    oob = units[units["split"] == "oob"]  # the documents some tree left out
    assert 0 < len(oob) <= forest.loc["oob", "documents"] and oob["unit"].is_unique
    M.make_table1(
        Table1Spec("results/docan-table1.csv", str(claims_path), "figures/tables/docan-table1")
    )
    for name in ("docan-fig5", "docan-fig6", "docan-fig7"):
        assert (tmp_path / f"figures/{name}.png").stat().st_size > 0
        assert (tmp_path / f"figures/{name}.pdf").stat().st_size > 0
    for csv in (
        "results/docan-fig5.csv",
        "results/docan-fig6.csv",
        "figures/tables/docan-table1.csv",
    ):
        table = pd.read_csv(csv, keep_default_na=False)
        assert (table["data_kind"] == "mirror").all() and (
            table["provenance"] == "mirror: test"
        ).all()
    table = pd.read_csv("figures/tables/docan-table1.csv", keep_default_na=False).set_index("split")
    assert float(table.loc["test", "published_accuracy"]) == 0.8653
    assert table.loc["oob", "published_accuracy"] == ""
    # Every claim of these outputs (Figure 4's are made from the real SGML) reads exactly one row.
    mine = ("docan.fig5.", "docan.fig6.", "docan.fig7.", "docan.table1.")
    claims = [c for c in load_claims(claims_path) if c.id.startswith(mine)]
    verdicts = evaluate(claims, tmp_path)
    assert len(verdicts) == 5
    assert "NOT-COMPARABLE" not in set(verdicts["verdict"])  # each found its row
    spread_n = verdicts.set_index("claim_id")["n"]
    assert spread_n["docan.table1.rf_test_accuracy"] == forest.loc["test", "documents"]
    knn = pd.read_csv("results/docan-fig6.csv", dtype=str, keep_default_na=False).set_index("k")
    assert knn.loc["best", "accuracy"] == max(knn.drop("best")["accuracy"], key=float)
