"""The statistics the claims on Tables 2-6's orderings read (Sengupta 2018, section "Results";
boostrank.experiments.docan.summary_ranking): each on hand-made values, with a case where the
statement fails, and the registry's ordering claims end to end, from fold CSVs through the merge
job to their verdicts: PASS on the printed tables themselves, FAIL (diagnosed data substitute)
on a counterexample. And the toy corpus's tables and matrix and the demo's pair separability
(section "Working on a toy dataset") on hand-made documents and samples."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from boostrank.errors import BoostrankError
from boostrank.experiments.docan import jobs_ranking as dr
from boostrank.experiments.docan import make_ranking, spec
from boostrank.experiments.docan import summary_ranking as sr
from boostrank.report.claims import evaluate, judge, load_claims

ROOT = Path(__file__).resolve().parents[2]
CLAIMS = ROOT / "config/claims.yaml"
SETTINGS = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
QUICK = yaml.safe_load((ROOT / "config/quick.yaml").read_text(encoding="utf-8"))["docan_ranking"]
ORDERINGS = [
    "docan.table2.lambdamart_beats_ranknet",
    "docan.table2.lambdamart_beats_linear",
    "docan.table2.lambdamart_beats_nystroem",
    "docan.table2.lambdamart_beats_rff",
    "docan.table2.test_rises_10_to_100_trees",
    "docan.table2.test_flat_from_100_trees",
    "docan.table3.two_layer_worst",
    "docan.table4.l2_1e5_worst",
    "docan.table5.larger_c_higher_train",
    "docan.table6.smaller_c_higher_train",
]
TWO_LAYERS = "epochs=100 layers=2 nodes=10"


# --------------------------------------------------------------------------- one statistic each
def test_the_gap_to_the_lowest_other_row_is_negative_only_for_the_strict_minimum() -> None:
    values = [0.42, 0.43, 0.38]
    assert sr.gap_to_lowest_other(values, 2) == pytest.approx(-0.04)  # the worst row
    assert sr.gap_to_lowest_other(values, 0) == pytest.approx(0.04)  # not the worst: fails "< 0"
    assert sr.gap_to_lowest_other([0.40, 0.40], 0) == 0  # a tie is not "the lowest"
    assert sr.gap_to_lowest_other([0.40, None], 0) is None
    assert sr.gap_to_lowest_other([0.40], 0) is None  # one row: nothing to be below


def test_the_range_from_100_trees_needs_100_and_a_larger_count() -> None:
    trees = [1500, 100, 10, 125]
    assert sr.range_from(trees, [0.449, 0.4486, 0.431, 0.4492], 100) == pytest.approx(0.0006)
    # the 10-tree value does not count; a curve still rising after 100 trees spans more
    assert sr.range_from(trees, [0.50, 0.4486, 0.10, 0.4492], 100) == pytest.approx(0.0514)
    assert sr.range_from([10, 125, 1500], [0.43, 0.44, 0.45], 100) is None  # no 100-tree row
    assert sr.range_from([10, 100], [0.43, 0.44], 100) is None  # nothing after 100
    assert sr.range_from(trees, [0.449, None, 0.431, 0.4492], 100) is None


def _svm_means(rows: list[tuple[int, int, int, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["n_components", "c_exp", "gamma_exp", "train_ndcg10"])


def test_c_is_paired_at_equal_n_and_gamma_and_the_fractions_count_strict_wins() -> None:
    means = _svm_means(
        [
            (440, 2, -6, 0.43),  # one C only: no pair
            (400, -2, -7, 0.42),
            (400, 3, -7, 0.43),
            (500, 3, -7, 0.41),  # the larger C first: still (smaller, larger)
            (500, -2, -7, 0.42),
            (2000, -2, -5, 0.44),  # another gamma: no pair
        ]
    )
    pairs = sr.c_pairs(means)
    assert pairs == [(1, 2), (4, 3)]
    values = list(means["train_ndcg10"])
    assert sr.higher_fraction(values, pairs, larger=True) == 0.5  # "all" fails at N = 500
    assert sr.higher_fraction(values, pairs, larger=False) == 0.5
    tied = [0.43, 0.42, 0.42, 0.41, 0.41, 0.44]
    assert sr.higher_fraction(tied, pairs, larger=True) == 0  # ties count for neither
    assert sr.higher_fraction(tied, pairs, larger=False) == 0
    assert sr.higher_fraction(values, [], larger=True) is None
    assert sr.higher_fraction([None, *values[1:]], pairs, larger=True) == 0.5  # row 0 unpaired
    assert sr.higher_fraction([*values[:2], None, *values[3:]], pairs, larger=True) is None


def test_the_standard_error_of_a_five_fold_mean() -> None:
    assert sr.standard_error(0.04, 5) == pytest.approx(0.04 / math.sqrt(5))  # 0.0179
    assert sr.standard_error("0.04", "5") == pytest.approx(0.0178885, abs=1e-7)
    assert sr.standard_error(None, 1) is None and sr.standard_error("", 5) is None
    assert sr.standard_error(0.04, 1) is None  # one fold has no spread


# --------------------------------------------------------------------------- the merge job
def _printed(table: str) -> dict[str, list[float]]:
    (claim,) = [c for c in load_claims(CLAIMS) if c.table and c.figure == table]
    return dict((claim.table or {})["rows"])


def _fold_frames(
    table: str, delta: float, changed: dict[str, float] | None = None, quick: bool = False
) -> list[pd.DataFrame]:
    """Two fold CSVs of ``table`` whose means are the printed cells (fold 1 + delta, fold 2 -
    delta: fold sd = delta * sqrt 2), ``changed`` moving a configuration's mean by that much;
    ``quick``: fold 1 alone, of the rows config/quick.yaml runs."""
    printed, changed = _printed(table), changed or {}
    section = spec.ranking_settings(SETTINGS, table)
    if quick:
        section = {**section, **QUICK[spec.CONFIG_SECTION[table]]}
    frames = []
    for fold, sign in ((1, 1),) if quick else ((1, 1), (2, -1)):
        rows = []
        for row in dr.table_rows(table, section):
            key = dr.config_key(table, row)
            shift = changed.get(key, 0.0) + sign * delta
            cells = {
                f"{s}_ndcg10": v + shift for s, v in zip(spec.SPLITS, printed[key], strict=True)
            }
            cells["test_ndcg10_report_formula"] = cells["test_ndcg10"]
            rows.append({"table": table, "config": key, "fold": fold, **row, **cells})
        frames.append(pd.DataFrame(rows))
    return frames


def _make_tables(
    root: Path, changed: dict[str, dict[str, float]] | None = None, quick: bool = False
) -> None:
    """Tables 2-6 and their summaries under ``root`` through the merge job, as on MQ2008."""
    source = {
        "dataset": "mq2008",
        "dataset_label": "MQ2008 (substitute for MQ2007)",
        "data_kind": "mirror",
        "provenance": "mirror: hand-made folds",
    }
    (root / "figures/tables").mkdir(parents=True, exist_ok=True)
    (root / "results").mkdir(exist_ok=True)
    for table in spec.LETOR_TABLES:
        folds = []
        frames = _fold_frames(table, 0.02, (changed or {}).get(table), quick)
        for fold, frame in enumerate(frames, 1):
            path = root / f"{table}-fold{fold}.csv"
            frame.assign(**source).to_csv(path, index=False)
            folds.append(str(path))
        merge = spec.RankingMergeSpec(
            table,
            tuple(folds),
            str(CLAIMS),
            str(root / "figures/tables" / table),
            str(root / "results" / f"{table}_summary.csv"),
            str(root / "results/guards" / f"{table}.csv"),
        )
        make_ranking.make_ranking_table(merge)


def _verdicts(root: Path) -> pd.DataFrame:
    claims = [c for c in load_claims(CLAIMS) if c.id in ORDERINGS]
    assert sorted(c.id for c in claims) == sorted(ORDERINGS)
    return evaluate(claims, root).set_index("claim_id")


def test_the_statistics_of_the_printed_tables_are_the_claims_published_values(
    tmp_path: Path,
) -> None:
    _make_tables(tmp_path)
    stats = {
        t: pd.read_csv(tmp_path / f"results/{t}_summary.csv", keep_default_na=False)
        for t in spec.LETOR_TABLES
    }
    assert list(stats["docan-table2"].columns) == sr.COLUMNS

    def value(table: str, column: str = "value", **row: str) -> float:
        frame = stats[table]
        for key, wanted in row.items():
            frame = frame[frame[key].astype(str) == wanted]
        (found,) = frame[column]
        return float(found)

    # our NDCG@10 are the printed cells here, so both columns agree with the registry's text
    for column in ("value", "printed_value"):
        gap = {"statistic": "gap_to_lowest_other", "config": TWO_LAYERS}
        assert value("docan-table3", column, **gap, split="test") == pytest.approx(-0.04266)
        assert value("docan-table3", column, **gap, split="train") == pytest.approx(-0.04392)
        gap = {"statistic": "gap_to_lowest_other", "config": "l2=100000"}
        assert value("docan-table4", column, **gap, split="validation") == pytest.approx(-0.02256)
        flat = {"statistic": "range_from_100_trees", "split": "test"}
        assert value("docan-table2", column, **flat) == pytest.approx(0.00054)
        larger = {"statistic": "larger_c_higher_fraction", "split": "train"}
        assert value("docan-table5", column, **larger) == 1.0
        assert value("docan-table6", column, **larger) == 0.0
        smaller = {"statistic": "smaller_c_higher_fraction", "split": "train"}
        assert value("docan-table6", column, **smaller) == 1.0
    # Table 6's test column is not "all" (7 of 9 N): the claims read train only
    smaller = {"statistic": "smaller_c_higher_fraction", "split": "test"}
    assert value("docan-table6", **smaller) == pytest.approx(7 / 9)
    # the fold sd is delta * sqrt 2 over 2 folds: the standard error is delta
    sem = {"statistic": "sem", "config": "trees=100", "split": "test"}
    assert value("docan-table2", **sem) == pytest.approx(0.02)
    assert set(stats["docan-table4"]["dataset_label"]) == {"MQ2008 (substitute for MQ2007)"}


def test_the_ordering_claims_pass_on_the_print_and_fail_on_a_counterexample(tmp_path: Path) -> None:
    _make_tables(tmp_path / "printed")
    verdicts = _verdicts(tmp_path / "printed")
    assert set(verdicts["verdict"]) == {"PASS"}, verdicts[["verdict", "note"]]
    assert len(verdicts) == len(ORDERINGS) + 4  # the two worst-row claims: one per split
    published = {c.id: c.published for c in load_claims(CLAIMS)}
    for claim, note in verdicts["note"].items():  # each table's selected row, as published
        if "beats" in str(claim):
            other = note.removeprefix("the other side: ")
            text = published[str(claim)]
            assert "LambdaMART 0.44894 > " in text and f" {other} (" in text
    changed = {
        "docan-table2": {"trees=100": -0.03, "trees=1500": 0.05},  # falls, then climbs again
        "docan-table3": {TWO_LAYERS: 0.06},  # the two-layer row is no longer the worst
        "docan-table4": {"l2=100000": 0.03},
        "docan-table5": {"N=800 C=2^3 gamma=2^-7": -0.02},  # one N where the larger C loses
        "docan-table6": {"N=800 C=2^3 gamma=2^-7": 0.02},
    }
    _make_tables(tmp_path / "counter", changed)
    verdicts = _verdicts(tmp_path / "counter")
    failing = verdicts[verdicts["verdict"] == "FAIL"]
    assert sorted(failing.index) == sorted(
        [c for c in ORDERINGS if "beats" not in c and "worst" not in c]
        + [f"docan.table{n}.{w}__{s}" for n, w in ((3, "two_layer_worst"), (4, "l2_1e5_worst"))
           for s in spec.SPLITS]
    )  # fmt: skip
    assert all(d.startswith("data substitute") for d in failing["diagnosis"])


def test_the_quick_configs_rows_leave_the_ordering_claims_not_comparable(tmp_path: Path) -> None:
    """config/quick.yaml runs one fold of a few rows: no 100-tree row, one RankNet row, no N
    with two values of C, no fold spread. Each statistic is then empty, with a note, or
    absent, and no ordering claim is judged on it."""
    _make_tables(tmp_path, quick=True)
    table2 = pd.read_csv(tmp_path / "results/docan-table2_summary.csv", keep_default_na=False)
    flat = table2[table2["statistic"] == "range_from_100_trees"]
    assert set(flat["value"]) == {""} and "needs 100 trees" in flat["note"].iloc[0]
    assert set(table2.loc[table2["statistic"] == "sem", "value"]) == {""}  # one fold
    table5 = pd.read_csv(tmp_path / "results/docan-table5_summary.csv", keep_default_na=False)
    fractions = table5[table5["statistic"].str.endswith("_c_higher_fraction")]
    assert set(fractions["value"]) == {""} and set(fractions["units"]) == {0}
    verdicts = _verdicts(tmp_path)
    orderings = [c for c in verdicts.index if "beats" not in c]  # the selected rows are there
    assert set(verdicts.loc[orderings, "verdict"]) == {"NOT-COMPARABLE"}, verdicts.loc[orderings]


# --------------------------------------------------------------------------- Tables 7 and 8
def test_idf_row_means_and_boolean_retrieval_on_a_hand_made_corpus() -> None:
    counts = np.array([[1, 0, 2], [0, 1, 1], [0, 0, 1]])  # terms a, b, c; c in every document
    idf = math.log2(3)  # a and b are each in one of the three documents, c has idf 0
    np.testing.assert_allclose(sr.idf_row_means(counts), [idf / 3, idf / 3, 0.0])
    # each of the query's distinct words counts once; a word the corpus lacks is in none
    hits = sr.boolean_retrieval(["a", "c", "a", "zebra"], counts, ["a", "b", "c"])
    assert hits.tolist() == [2, 1, 1]
    assert sr.boolean_retrieval(["zebra"], counts, ["a", "b", "c"]).tolist() == [0, 0, 0]


def test_the_toy_tables_and_matrix_of_hand_made_documents() -> None:
    corpus = sr.toy_corpus(["Dogs bark.", "Cats and dogs play; dogs bark."], ["Dog", "Birds"])
    assert corpus.terms == ["bark", "cat", "dog", "play"] and corpus.queries == [["dog"], ["bird"]]
    columns = sr.toy_term_columns(corpus).set_index("document")
    assert columns["tf_dog"].tolist() == [1, 2] and columns["tf_play"].tolist() == [0, 1]
    # idf log2(2 / df): 0 for bark and dog (in both), 1 for cat and play; tf over 5 words
    assert columns.loc[2, "tfidf_cat"] == pytest.approx(0.2) and columns.loc[1, "tfidf_dog"] == 0
    assert columns["df_row_mean"].tolist() == pytest.approx([0.0, 0.5])  # (1 + 1) / 4 terms
    matrix = sr.toy_matrix(corpus).set_index("pair")
    assert matrix.index.tolist() == ["Q1 D1", "Q1 D2", "Q2 D1", "Q2 D2"]
    assert matrix["f1"].tolist() == [1, 1, 1, 1] and matrix["f2"].tolist() == [2, 5, 2, 5]
    assert matrix["f3"].tolist() == pytest.approx([0.5, 1.25, 0.5, 1.25])  # counts / 4 terms
    assert matrix["f6"].tolist() == [1, 1, 0, 0]  # 'bird' is in neither document
    with pytest.raises(BoostrankError, match="left empty"):
        sr.toy_corpus(["Dogs bark.", "It is 1987."])


def test_pairs_are_separable_without_an_order_inversion_and_not_with_one() -> None:
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [5.0, 5.0]])
    blocks = np.array([0, 0, 0, 1])
    # grades rise along x within block 0 (the sample of block 1 pairs with none)
    assert sr.pairs_separable(X, np.array([0, 1, 2, 0]), blocks) == (True, 3)
    # grade 1 between two grade-0 samples: w . (1, 0) >= 1 and w . (-1, 0) >= 1 at once
    assert sr.pairs_separable(X, np.array([0, 1, 0, 2]), blocks) == (False, 2)
    with pytest.raises(BoostrankError, match="no pair"):
        sr.pairs_separable(X, np.zeros(4, dtype=int), blocks)
    (claim,) = [c for c in load_claims(CLAIMS) if c.id == "docan.table8.training_pairs_separable"]
    assert judge(claim, 1)[0] == "PASS" and judge(claim, 0)[0] == "FAIL"


def test_results_beside_a_table_follow_its_root() -> None:
    found = make_ranking.results_beside("figures/tables/docan-table8", "_summary.csv")
    assert found == "results/docan-table8_summary.csv"
    variant = make_ranking.results_beside("results/readings/v/figures/tables/docan-table7", "_m")
    assert variant == "results/readings/v/results/docan-table7_m"
