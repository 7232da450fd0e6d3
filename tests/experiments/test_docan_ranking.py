"""The document-analysis ranking experiments (Sengupta 2018): data choice, toy, demo, fold+merge."""

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from boostrank.cli import main
from boostrank.errors import BoostrankError
from boostrank.experiments.docan import jobs_ranking as dr
from boostrank.experiments.docan import make_ranking, spec
from boostrank.io import save_npz, write_json
from boostrank.metrics.ranking import ndcg_at_k
from boostrank.report.claims import evaluate, load_claims

ROOT = Path(__file__).resolve().parents[2]


def _meta(name, kind):
    line = "synthetic stand-in" if kind == "synthetic" else f"{kind}: {name}"
    return {"dataset": name, "provenance": {"kind": kind}, "provenance_line": line}


def test_mq2007_only_from_a_real_source_else_mq2008_labelled_substitute():
    meta, label = dr.choose_dataset([_meta("mq2007", "mirror"), _meta("mq2008", "mirror")])
    assert (meta["dataset"], label) == ("mq2007", "MQ2007")
    meta, label = dr.choose_dataset([_meta("mq2007", "synthetic"), _meta("mq2008", "mirror")])
    assert (meta["dataset"], label) == ("mq2008", "MQ2008 (substitute for MQ2007)")
    _, label = dr.choose_dataset([_meta("mq2007", "synthetic"), _meta("mq2008", "synthetic")])
    assert "synthetic" in label and "substitute" in label
    with pytest.raises(BoostrankError, match="mq2008"):
        dr.choose_dataset([_meta("mq2007", "synthetic")])


def _printed_rows(table: str) -> set[str]:
    """The configurations a printed table's claims name (config/claims.yaml)."""
    claims = load_claims(ROOT / "config/claims.yaml")
    (claim,) = [c for c in claims if c.table and c.figure == table]
    return set(claim.table["rows"])


def test_config_keys_match_the_published_tables():
    assert dr.config_key("docan-table2", {"trees": 125}) == "trees=125"
    assert dr.config_key("docan-table4", {"l2": 1e5}) in _printed_rows("docan-table4")
    assert dr.config_key("docan-table4", {"l2": 1e-10}) in _printed_rows("docan-table4")
    row = {"n_components": 2000, "c_exp": 3, "gamma_exp": -7}
    assert dr.config_key("docan-table5", row) == "N=2000 C=2^3 gamma=2^-7"
    assert "N=2000 C=2^3 gamma=2^-7" in _printed_rows("docan-table5")
    row = {"epochs": 100, "layers": 2, "nodes": 10}
    assert dr.config_key("docan-table3", row) in _printed_rows("docan-table3")


def test_every_configuration_of_the_config_is_a_printed_row():
    """The configured grids are the rows the report prints, so each has its claims."""
    import yaml

    settings = yaml.safe_load((ROOT / "config/config.yaml").read_text())["docan_ranking"]
    for table in spec.LETOR_TABLES:
        section = settings[spec.CONFIG_SECTION[table]]
        keys = {dr.config_key(table, r) for r in dr.table_rows(table, section)}
        assert keys == _printed_rows(table), table


def test_printed_trees_on_toy_query_4_give_the_hand_computed_ndcg():
    X, y, qid = dr.toy_arrays()
    q4 = qid == spec.TOY_TEST_QUERY
    score = dr.printed_trees_score(X[q4])
    # F6 in {1, 2} <= 3 everywhere: trees 1-5 add the same to every document; F5 > 0.04 only
    # for D2 (0.04157) and D4 (0.040183): trees 6-10 put them above D1, D3, D5.
    low = 0.1 * (-0.4060202 - 0.35845292 - 0.28415188 - 0.3184343 - 0.2543091)
    left = 0.1 * (-0.46357542 - 0.77627546 - 0.90781724 - 0.67229265 - 0.58660144)
    right = 0.1 * (1.3221567 + 1.2945518 + 1.4976496 + 1.1416975 + 1.0191938)
    assert score == pytest.approx([low + left, low + right, low + left, low + right, low + left])
    # Ties in document order: D2 D4 D1 D3 D5 -> labels 1 0 1 0 1 (relevant at ranks 1, 3, 5).
    by_hand = (1 + 1 / math.log2(4) + 1 / math.log2(6)) / (1 + 1 / math.log2(3) + 1 / math.log2(4))
    got = ndcg_at_k(y[q4], score, qid[q4], 5, formula="report")[0]
    assert got == pytest.approx(by_hand) and round(got, 4) == 0.8855


def test_printed_linear_weights_read_bias_first_give_the_reports_0_6183():
    X, y, qid = dr.toy_arrays()
    q4 = qid == spec.TOY_TEST_QUERY
    score = dr.printed_linear_score(X[q4], bias_first=True)
    # relevant documents at ranks 3, 4, 5: the worst ordering
    worst = (1 / math.log2(4) + 1 / math.log2(5) + 1 / math.log2(6)) / (
        1 + 1 / math.log2(3) + 1 / math.log2(4)
    )
    assert ndcg_at_k(y[q4], score, qid[q4], 5, formula="report")[0] == pytest.approx(worst)
    claims = load_claims(ROOT / "config/claims.yaml")
    (linear,) = [c for c in claims if c.id == "docan.table7.linear_ndcg"]
    assert round(worst, 4) == linear.published


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    """Table 7's job once, into its own root: (the root, the job's spec)."""
    import yaml

    root = tmp_path_factory.mktemp("toy")
    settings = yaml.safe_load((ROOT / "config/config.yaml").read_text())["docan_ranking"]["toy"]
    toy = spec.ToySpec(
        settings,
        0,
        str(ROOT / "config/claims.yaml"),
        str(root / "figures/tables/docan-table7"),
        str(root / "results/docan-table7_features.csv"),
    )
    make_ranking.make_toy_table(toy)  # writes the features and the matrix beside Table 7
    return root, toy


def test_the_toy_documents_give_the_matrix_features_but_document_3s_tfidf(toy_run):
    """Features 2, 3 and 5 of the toy matrix from its five printed documents: the matrix's
    document 3 TF-IDF row mean (0.03684) is the text's 0.03634 misprinted."""
    tmp_path, toy = toy_run
    features = pd.read_csv(toy.features)
    derived = dr.toy_features()
    pd.testing.assert_frame_equal(features[derived.columns], derived, check_dtype=False)
    X, _, qid = dr.toy_arrays()
    q1 = X[qid == 1]
    assert list(features["words"]) == list(q1[:, 1])  # feature 2
    np.testing.assert_allclose(features["tf_row_mean"], q1[:, 2], atol=5e-5)  # feature 3
    slips = np.abs(features["tfidf_row_mean"] - q1[:, 4]) > 5e-5  # feature 5
    assert list(slips) == [False, False, True, False, False]
    claims = [c for c in load_claims(ROOT / "config/claims.yaml") if "tfidf_row_mean" in c.id]
    verdicts = evaluate(claims, tmp_path).set_index("claim_id")["verdict"]
    matrix = "docan.table7.tfidf_row_mean_matrix_d3"
    assert verdicts[matrix] == "ERRATUM"  # it fails, as the source contradicts itself
    assert len(verdicts) == 6 and set(verdicts.drop(matrix)) == {"PASS"}  # the text's five


TOY_CLAIMS = (
    "docan.table7.tf_table",
    "docan.table7.tfidf_table",
    "docan.table7.tf_row_means",
    "docan.table7.df_row_means",
    "docan.table7.boolean_retrieval",
    "docan.table7.matrix_words",
)


def test_the_printed_toy_tables_against_the_documents(toy_run, tmp_path):
    """The printed TF and TF-IDF tables, TF row means and the matrix's word counts are what the
    five documents give; the DF row means are not (open); the Boolean table's rows for queries
    1 and 4 cannot be ('Animals' is in no document: an erratum). A wrong cell FAILs."""
    root, toy = toy_run
    claims = [c for c in load_claims(ROOT / "config/claims.yaml") if c.id in TOY_CLAIMS]
    verdicts = evaluate(claims, root).set_index("claim_id")["verdict"]
    family = verdicts.index.str.split("__").str[0]
    for name in ("tf_table", "tfidf_table", "tf_row_means", "matrix_words"):
        assert set(verdicts[family == f"docan.table7.{name}"]) == {"PASS"}, name
    assert (family == "docan.table7.tf_table").sum() == 5 * 17
    assert set(verdicts[family == "docan.table7.df_row_means"]) == {"FAIL"}
    boolean = verdicts[family == "docan.table7.boolean_retrieval"]  # Q1 D1 ... Q4 D5
    assert boolean.tolist() == ["ERRATUM"] * 5 + ["PASS"] * 10 + ["ERRATUM"] * 5
    matrix = pd.read_csv(root / "results/docan-table7_matrix.csv").set_index("pair")
    X, _, _ = dr.toy_arrays()  # the printed matrix: features 2 and 6 per row, in the same order
    assert matrix["f2"].tolist() == X[:, 1].tolist()
    assert (matrix["f6"].to_numpy() == X[:, 5]).tolist() == [False] * 5 + [True] * 10 + [False] * 5
    features = pd.read_csv(toy.features)
    features.loc[features["document"] == 1, "tf_dog"] = 2  # document 1 holds 'dog' once
    (tmp_path / "results").mkdir()
    features.to_csv(tmp_path / "results/docan-table7_features.csv", index=False)
    (tf,) = [c for c in claims if c.id == "docan.table7.tf_table"]
    found = evaluate([tf], tmp_path).set_index("claim_id")["verdict"]
    assert found[found != "PASS"].index.tolist() == ["docan.table7.tf_table__1_tf_dog"]
    assert found["docan.table7.tf_table__1_tf_dog"] == "FAIL"


def test_the_demo_writes_whether_its_training_pairs_are_separable(tmp_path):
    import yaml

    settings = yaml.safe_load((ROOT / "config/config.yaml").read_text())["docan_ranking"]["demo"]
    demo = spec.DemoSpec(
        settings, str(ROOT / "config/claims.yaml"), str(tmp_path / "figures/tables/docan-table8")
    )
    make_ranking.make_demo_table(demo)
    found = pd.read_csv(tmp_path / "results/docan-table8_summary.csv").set_index("statistic")
    assert found.loc["training_pairs", "value"] > 0
    claims = [
        c
        for c in load_claims(ROOT / "config/claims.yaml")
        if c.id == "docan.table8.training_pairs_separable"
    ]
    assert evaluate(claims, tmp_path)["verdict"].tolist() == ["PASS"]


def test_toy_matrix_is_as_printed():
    X, y, qid = dr.toy_arrays()
    assert X.shape == (20, 6) and list(np.bincount(qid)[1:]) == [5, 5, 5, 5]
    assert list(y[qid == 4]) == [1, 1, 0, 0, 1]


def test_demo_generator_is_deterministic_and_reproduces_the_reports_taus():
    a, b = dr.demo_data(0), dr.demo_data(0)
    for key in a:
        assert np.array_equal(a[key], b[key])
    assert a["X"].shape == (60, 2) and len(a["test"]) == 30
    assert sorted(np.concatenate([a["train"], a["test"]]).tolist()) == list(range(60))
    assert np.bincount(a["y"][a["test"]]).tolist() == [10, 10, 10]
    from boostrank.ranking.linear import LinearRanker

    tr, te = a["train"], a["test"]
    ridge = LinearRanker(1.0).fit(a["X"][tr], a["y"][tr])
    taus = [
        stats.kendalltau(
            ridge.predict(a["X"][te][a["blocks"][te] == blk]), a["y"][te][a["blocks"][te] == blk]
        )[0]
        for blk in (0, 1)
    ]
    assert [round(t, 5) for t in taus] == [0.71122, 0.84387]
    assert not np.array_equal(dr.demo_data(1)["X"], a["X"])


def test_concordance_gamma_ignores_ties():
    assert dr.concordance_gamma(np.array([1.0, 2.0, 3.0]), np.array([0, 0, 1])) == 1.0
    assert dr.concordance_gamma(np.array([3.0, 2.0, 1.0]), np.array([0, 1, 2])) == -1.0


@pytest.fixture
def letor_tiny(tmp_path):
    """A tiny LETOR-shaped set in the processed layout, as 'mq2008' from a mirror."""
    rng = np.random.default_rng(0)
    n_q, size = 20, 8
    qid = np.repeat(np.arange(1, n_q + 1), size)
    X = rng.random((len(qid), 6)).astype(np.float32)
    y = np.clip(np.round(2 * X[:, 0] + 0.3 * rng.normal(size=len(qid)) - 0.4), 0, 2).astype(np.int8)
    part = np.repeat(np.arange(n_q) % 5 + 1, size).astype(np.int8)
    for name, kind in (("mq2007", "synthetic"), ("mq2008", "mirror")):
        save_npz(tmp_path / f"{name}.npz", X=X, y=y, qid=qid, part=part)
        write_json(tmp_path / f"{name}.json", _meta(name, kind))
    return tmp_path


def test_fold_jobs_and_merge_write_tidy_tables_with_published_values(letor_tiny, tmp_path):
    claims = tmp_path / "claims.yaml"
    claims.write_text(
        "claims:\n"
        "  - id: docan.table4.best_test_ndcg10\n"
        "    source: s\n    statement: s\n    published: 0.42772\n"
        "    reproduce: {file: figures/tables/docan-table4.csv, "
        "row: {config: l2=1e-10, fold: mean}, column: test_ndcg10}\n"
        "    rule: {type: abs, tol: 0.02}\n    requires_dataset: mq2007\n"
    )
    metas = [str(letor_tiny / "mq2007.json"), str(letor_tiny / "mq2008.json")]
    settings = {"k": 10, "l2": [1e-10, 1.0]}
    outs = []
    for fold in (1, 2):
        out = tmp_path / f"fold{fold}.csv"
        frame = dr.run_fold(
            spec.RankingFoldSpec("docan-table4", fold, metas, settings, 11, str(out))
        )
        assert set(frame["dataset"]) == {"mq2008"} and len(frame) == 2
        outs.append(str(out))
    again = tmp_path / "again.csv"
    dr.run_fold(spec.RankingFoldSpec("docan-table4", 1, metas, settings, 11, str(again)))
    assert again.read_text() == (tmp_path / "fold1.csv").read_text()
    summary = tmp_path / "docan-table4_summary.csv"
    guards = tmp_path / "guards/docan-table4.csv"
    merge = spec.RankingMergeSpec(
        "docan-table4", outs, str(claims), str(tmp_path / "docan-table4"), str(summary), str(guards)
    )
    tidy = make_ranking.make_ranking_table(merge)
    assert pd.read_csv(guards).empty  # ridge regression has no guard
    stats = pd.read_csv(summary, keep_default_na=False)
    assert set(stats["statistic"]) == {"gap_to_lowest_other", "sem"}  # no trees, no C
    assert set(stats["dataset"]) == {"mq2008"} and set(stats["n_folds"]) == {2}
    assert sorted(set(tidy["fold"])) == ["1", "2", "mean", "selected"]
    mean = tidy[(tidy["fold"] == "mean") & (tidy["config"] == "l2=1e-10")].iloc[0]
    assert mean["published_test_ndcg10"] == 0.42772 and bool(mean["claimed"])
    folds = tidy[(tidy["fold"].isin(["1", "2"])) & (tidy["config"] == "l2=1e-10")]
    assert mean["test_ndcg10"] == pytest.approx(folds["test_ndcg10"].astype(float).mean())
    md = (tmp_path / "docan-table4.md").read_text()
    assert "MQ2008 (substitute for MQ2007)" in md and "(published 0.42772)" in md
    assert (tmp_path / "docan-table4.tex").read_text().startswith("\\begin{table}")
    csv = pd.read_csv(tmp_path / "docan-table4.csv")
    assert {
        "published_train_ndcg10",
        "published_validation_ndcg10",
        "published_test_ndcg10",
        "data_kind",
        "provenance",
        "dataset_label",
    } <= set(csv.columns)


def test_ndcg_k_as_printed_uses_log2_of_one_plus_the_position():
    """The report's NDCG(k) (section "Information Retrieval measures"), worked by hand: labels
    2, 0, 1 ranked in that order, k = 3. DCG = 3/log2(2) + 0/log2(3) + 1/log2(4) = 3.5; the
    ideal order 2, 1, 0 gives 3 + 1/log2(3) = 3.63093; NDCG = 0.963940. LETOR's script
    discounts positions 1 and 2 by 1 and position 3 by 1/log2(3): DCG 3 + 0 + 0.63093, ideal
    3 + 1 = 4, NDCG 0.907732."""
    y, s, q = np.array([2, 0, 1]), np.array([3.0, 2.0, 1.0]), np.zeros(3, dtype=int)
    assert ndcg_at_k(y, s, q, 3, formula="report")[0] == pytest.approx(3.5 / (3 + 1 / np.log2(3)))
    assert ndcg_at_k(y, s, q, 3, formula="letor")[0] == pytest.approx(0.907732, abs=1e-6)
    data = {"X": np.arange(3.0)[:, None], "y": y, "qid": q}
    masks = {split: np.ones(3, dtype=bool) for split in spec.SPLITS}
    printed = dr._evaluate(lambda X: -X[:, 0], data, masks, 3)  # the printed default
    assert printed["test_ndcg3"] == pytest.approx(0.963940, abs=1e-6)
    assert printed["test_ndcg3_letor_formula"] == pytest.approx(0.907732, abs=1e-6)
    letor = dr._evaluate(lambda X: -X[:, 0], data, masks, 3, "letor")
    assert letor["test_ndcg3"] == pytest.approx(0.907732, abs=1e-6)
    assert letor["test_ndcg3_report_formula"] == pytest.approx(0.963940, abs=1e-6)
    assert dr.ndcg_formula({}) == "report"
    with pytest.raises(BoostrankError, match="ndcg_formula"):
        dr.ndcg_formula({"ndcg_formula": "trec"})


def test_the_folds_test_and_validate_as_the_reports_table_prints():
    """Fold1 {S1,S2,S3} S4 S5 under "Training set, Testing, Validation": fold k tests on
    S_k+3 and validates on S_k+4; LETOR 4.0's folds (its readme) swap the two."""
    part = np.repeat(np.arange(1, 6), 2)
    for fold in range(1, 6):
        printed = {s: set(part[m]) for s, m in dr.fold_masks(part, fold).items()}
        parts = [(fold - 1 + o) % 5 + 1 for o in range(5)]
        assert printed == {"train": set(parts[:3]), "test": {parts[3]}, "validation": {parts[4]}}
        letor = {s: set(part[m]) for s, m in dr.fold_masks(part, fold, "letor").items()}
        assert letor["test"] == printed["validation"] and letor["validation"] == printed["test"]
    first = dr.fold_masks(part, 1)
    assert set(part[first["test"]]) == {4} and set(part[first["validation"]]) == {5}
    with pytest.raises(BoostrankError, match="fold_roles"):
        dr.fold_masks(part, 1, "swapped")


def test_the_pair_cap_counts_the_queries_it_cuts():
    """Query 1: labels 0, 0, 1, 2 (5 comparable pairs); query 2: 0, 1 (1 pair)."""
    y, qid = np.array([0, 0, 1, 2, 0, 1]), np.array([1, 1, 1, 1, 2, 2])
    assert dr.capped_queries(y, qid, None) == 0
    assert dr.capped_queries(y, qid, 5) == 0
    assert dr.capped_queries(y, qid, 4) == 1
    assert dr.capped_queries(y, qid, 1) == 1
    from boostrank.ranking.pairs import query_pairs

    for cap in (1, 2, 4, 5):  # the count agrees with the sample query_pairs draws
        kept = len(query_pairs(y, qid, max_pairs_per_query=cap, seed=0)[0])
        assert (kept < 6) == (dr.capped_queries(y, qid, cap) > 0)


def test_the_ranksvm_table_counts_its_guards_per_fold_and_merges_them(letor_tiny, tmp_path):
    metas = [str(letor_tiny / "mq2007.json"), str(letor_tiny / "mq2008.json")]
    row = {"n_components": 20, "c_exp": 3, "gamma_exp": -3}
    settings = {"k": 10, "rows": [row], "max_pairs_per_query": 2, "max_iter": 2, "tol": 1e-12}
    outs = []
    for fold in (1, 2):
        out = tmp_path / f"fold{fold}.csv"
        frame = dr.run_fold(
            spec.RankingFoldSpec("docan-table5", fold, metas, settings, 3, str(out))
        )
        (cell,) = frame["guards"]
        counts = json.loads(cell)
        assert counts["docan_ranksvm_max_iter"] == 1  # 2 liblinear iterations: capped
        assert counts["docan_ranksvm_pairs"] > 0  # every tiny query has more than 2 pairs
        assert set(frame["fold_roles"]) == {"printed"} and set(frame["ndcg_formula"]) == {"report"}
        outs.append(str(out))
    guards = tmp_path / "guards/docan-table5.csv"
    claims = tmp_path / "claims.yaml"
    claims.write_text("claims: []\n")
    merge = spec.RankingMergeSpec(
        "docan-table5", outs, str(claims), str(tmp_path / "docan-table5"), str(tmp_path / "s.csv"),
        str(guards),
    )  # fmt: skip
    make_ranking.make_ranking_table(merge)
    table = pd.read_csv(guards).set_index("guard")
    assert set(table["dataset"]) == {"mq2008"} and set(table["data_kind"]) == {"mirror"}
    assert table.loc["docan_ranksvm_max_iter", ["fired", "jobs", "jobs_fired"]].tolist() == [
        2,
        2,
        2,
    ]
    assert table.loc["docan_ranksvm_pairs", "jobs_fired"] == 2


def test_the_fold_job_runs_from_its_spec_as_run_fold_does(letor_tiny, tmp_path):
    metas = [str(letor_tiny / "mq2007.json"), str(letor_tiny / "mq2008.json")]
    settings = {"k": 10, "l2": [1e-10]}
    direct, job = tmp_path / "direct.csv", tmp_path / "job.csv"
    fold = spec.RankingFoldSpec("docan-table4", 2, metas, settings, 5, str(job))
    dr.run_fold(replace(fold, out=str(direct)))
    assert main(["job", "docan.ranking_fold", "--spec", fold.to_json()]) == 0
    assert job.read_bytes() == direct.read_bytes()
    with pytest.raises(BoostrankError, match="field 'table'"):
        spec.RankingFoldSpec("docan-table9", 2, metas, settings, 5, str(job))
