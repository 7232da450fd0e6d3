"""The document-analysis report's Reuters experiments on a tiny synthetic corpus: the k-NN vote,
the elbow rules, the corpus builder, and that every docan claim finds its one results row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.neighbors import KNeighborsClassifier

from boostrank.errors import BoostrankError
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


# --------------------------------------------------------------------------- Figure 4's summary
# Figure 3 of the report: the SGML of NEWID 9, the worked pre-processing example.
FIGURE3 = """<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET"
OLDID="5552" NEWID="9">
<DATE>26-FEB-1987 15:17:11.20</DATE>
<TOPICS><D>earn</D></TOPICS>
<PLACES><D>usa</D></PLACES>
<TEXT>&#2;
<TITLE>CHAMPION PRODUCTS &lt;CH> APPROVES STOCK SPLIT</TITLE>
<DATELINE> ROCHESTER, N.Y., Feb 26 - </DATELINE><BODY>Champion
Products Inc said its
board of directors approved a two-for-one stock split of its
common shares for shareholders of record as of April 1, 1987.
The company also said its board voted to recommend to
shareholders at the annual meeting April 23 an increase in the
authorized capital stock from five mln to 25 mln shares.
Reuter
&#3;</BODY></TEXT>
</REUTERS>
"""
STEP_CLAIMS = {
    "raw": "docan.fig4.preprocess_raw",
    "lower_case": "docan.fig4.preprocess_lower_case",
    "numbers_removed": "docan.fig4.preprocess_numbers",
    "punctuation_removed": "docan.fig4.preprocess_punctuation",
    "stop_words_removed": "docan.fig4.preprocess_stop_words",
    "stemmed": "docan.fig4.preprocess_stemmed",
}


def _fig4_claims() -> list:
    """The claims of Figure 4's summary CSV (not its topic counts)."""
    claims = load_claims(ROOT / "config/claims.yaml")
    return [c for c in claims if c.reproduce["file"] == "results/docan-fig4_summary.csv"]


def test_the_top_topics_share_and_the_word_most():
    from boostrank.experiments.docan.summary import top_topics_share
    from boostrank.report.claims import judge

    assert top_topics_share([5, 5, 30, 50, 10], 2) == pytest.approx(0.8)  # 50 + 30 of 100
    (most,) = [c for c in _fig4_claims() if c.id == "docan.fig4.top10_share_most"]
    assert judge(most, top_topics_share([5, 5, 30, 50, 10], 2))[0] == "PASS"
    assert judge(most, top_topics_share([10] * 10, 2))[0] == "FAIL"  # two of ten equal topics
    with pytest.raises(BoostrankError, match="no topic frequencies"):
        top_topics_share([0, 0], 1)


def test_the_worked_example_gives_every_printed_step_but_the_fourth():
    """Steps 1-6 of the report's example on its printed text: step 4 prints 'two-for-one'
    with the hyphens that step 5's 'twoforone' has lost (the erratum of its claim)."""
    from boostrank.experiments.docan.summary import preprocessing_steps
    from boostrank.preprocess.reuters import parse_sgml
    from boostrank.preprocess.text import preprocess

    (doc,) = parse_sgml(FIGURE3)
    steps = preprocessing_steps(doc.body)
    published = {c.id: c.published for c in _fig4_claims()}
    same = {step: steps[step] == published[claim] for step, claim in STEP_CLAIMS.items()}
    assert [s for s, ok in same.items() if not ok] == ["punctuation_removed"]
    assert "a twoforone stock" in steps["punctuation_removed"]
    assert steps["stemmed"] == " ".join(preprocess(doc.body))
    # the corpus's settings apply: words shorter than four letters go, nothing is stemmed
    short = preprocessing_steps(doc.body, {"min_word_length": 4, "stemmer": "none"})
    assert " inc " not in short["stemmed"] and "shareholders" in short["stemmed"]


def test_the_worked_examples_stop_word_step_is_snowballs_not_scikit_learns():
    """Step 5 ("After removing stop words") keeps "also", "five" and "inc": the Snowball list
    (the default) gives the printed step, scikit-learn's 318 words remove all three."""
    from boostrank.experiments.docan.summary import preprocessing_steps
    from boostrank.preprocess.reuters import parse_sgml

    (doc,) = parse_sgml(FIGURE3)
    published = {c.id: c.published for c in _fig4_claims()}[STEP_CLAIMS["stop_words_removed"]]
    snowball = preprocessing_steps(doc.body, {"stop_words": "snowball"})["stop_words_removed"]
    sklearn = preprocessing_steps(doc.body, {"stop_words": "sklearn"})["stop_words_removed"]
    assert snowball == published and sklearn != published
    assert {"also", "five", "inc"} <= set(snowball.split())
    assert not {"also", "five", "inc"} & set(sklearn.split())


def test_make_fig4_writes_the_sections_statistics_beside_the_figure(tmp_path, monkeypatch):
    """Figure 4's job on two articles (Figure 3's and one more) in the 22 SGML files, with a
    corpus sidecar: the summary CSV holds each statistic its claims read. Two articles are
    not 21578 (a FAIL), and step 4's print is the source's erratum."""
    from boostrank.data.provenance import Provenance
    from boostrank.experiments.docan.spec import CORPUS_META, Fig4Spec
    from boostrank.preprocess.reuters import SGML_FILES

    monkeypatch.chdir(tmp_path)
    raw = Path("data/raw/reuters21578")
    raw.mkdir(parents=True)
    other = FIGURE3.replace('NEWID="9"', 'NEWID="10"').replace(
        "<D>earn</D></TOPICS>", "<D>acq</D></TOPICS>"
    )
    for n, name in enumerate(SGML_FILES):
        (raw / name).write_text(FIGURE3 + other if n == 0 else "", encoding="latin-1")
    Provenance("reuters21578", "mirror", "here", {}).save(raw / "provenance.json")
    non_sparsity = {
        "train": 0.0027,
        "test_own_vocabulary": 0.00414,
        "test_shared_vocabulary": 0.002,
    }
    meta = {"dataset": "reuters21578", "settings": {}, "stats": {"non_sparsity": non_sparsity}}
    write_json(CORPUS_META, meta)
    claims = str(ROOT / "config/claims.yaml")
    fig4 = Fig4Spec(str(raw), str(raw / "provenance.json"), claims, "results/docan-fig4.csv",
                    "figures/docan-fig4", 10, "tags")  # fmt: skip
    M.make_fig4(fig4)
    found = pd.read_csv("results/docan-fig4_summary.csv", keep_default_na=False)
    values = found.set_index("statistic")["value"]
    assert values["sgml_records"] == "2" and float(values["top_topics_share"]) == 1.0
    assert set(found["data_kind"]) == {"mirror"} and set(found["dataset"]) == {"reuters21578"}
    verdicts = evaluate(_fig4_claims(), tmp_path).set_index("claim_id")["verdict"]
    assert verdicts["docan.fig4.sgml_articles"] == "FAIL"
    assert verdicts["docan.fig4.preprocess_punctuation"] == "ERRATUM"
    passing = set(verdicts.index) - {
        "docan.fig4.sgml_articles",
        "docan.fig4.preprocess_punctuation",
    }
    assert set(verdicts[sorted(passing)]) == {"PASS"} and len(passing) == 8
    non_sparsity["test_own_vocabulary"] = 0.0042  # 0.42%, outside the printed 0.41%
    write_json(CORPUS_META, meta)
    M.make_fig4(fig4)
    verdicts = evaluate(_fig4_claims(), tmp_path).set_index("claim_id")["verdict"]
    assert verdicts["docan.fig4.non_sparsity_test"] == "FAIL"


def test_fig4_files_follow_the_results_root():
    assert M.fig4_files("results/docan-fig4.csv") == (
        "data/interim/reuters_tfidf.json",
        "results/docan-fig4_summary.csv",
    )
    assert M.fig4_files("results/readings/v/results/docan-fig4.csv") == (
        "results/readings/v/data/interim/reuters_tfidf.json",
        "results/readings/v/results/docan-fig4_summary.csv",
    )
