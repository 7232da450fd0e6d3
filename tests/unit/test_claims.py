"""Claims: verdicts PASS / FAIL / NOT-COMPARABLE from results CSVs."""

from dataclasses import replace

import pandas as pd
import pytest

from boostrank.errors import BoostrankError
from boostrank.report.claims import Claim, evaluate, load_claims, published_value


def _claim(cid, published, column, dataset="a", rule=None, file="results/x.csv"):
    ref = {"file": file, "row": {"dataset": dataset}, "column": column}
    return Claim(cid, "src", "stmt", published, ref, rule or {"type": "equal"})


@pytest.fixture
def results(tmp_path):
    (tmp_path / "results").mkdir()
    pd.DataFrame(
        {
            "dataset": ["a", "b", "c"],
            "n": [10, 10, ""],
            "ndcg": [0.451, 0.40, 0.5],
            "data_kind": ["mirror", "synthetic", "embedded"],
            "provenance": ["mirror: x", "synthetic stand-in", "embedded: y"],
            "note": ["", "", "cannot be established"],
        }
    ).to_csv(tmp_path / "results" / "x.csv", index=False)
    return tmp_path


def _verdicts(claims, root):
    return dict(zip(*evaluate(claims, root)[["claim_id", "verdict"]].T.values, strict=True))


def test_verdicts(results):
    claims = [
        _claim("w.t1.equal_pass", 10, "n"),
        _claim("w.t1.equal_fail", 26, "n"),
        _claim("w.t1.synthetic", 10, "n", dataset="b"),
        _claim("w.t1.blank", 10, "n", dataset="c"),
        _claim("w.t1.abs_pass", 0.45, "ndcg", rule={"type": "abs", "tol": 0.005}),
        _claim("w.t1.abs_fail", 0.44, "ndcg", rule={"type": "abs", "tol": 0.005}),
        _claim("w.t1.rel_pass", 0.46, "ndcg", rule={"type": "rel", "tol": 0.05}),
        _claim("w.t1.missing_file", 1, "n", file="results/absent.csv"),
        _claim(
            "w.t1.ordinal",
            None,
            "ndcg",
            dataset="a",
            rule={
                "type": "ordinal",
                "relation": ">",
                "other": {"file": "results/x.csv", "row": {"dataset": "c"}, "column": "ndcg"},
            },
        ),
    ]
    assert _verdicts(claims, results) == {
        "w.t1.equal_pass": "PASS",
        "w.t1.equal_fail": "FAIL",
        "w.t1.synthetic": "NOT-COMPARABLE",
        "w.t1.blank": "NOT-COMPARABLE",
        "w.t1.abs_pass": "PASS",
        "w.t1.abs_fail": "FAIL",
        "w.t1.rel_pass": "PASS",
        "w.t1.missing_file": "NOT-COMPARABLE",
        "w.t1.ordinal": "FAIL",
    }


def test_rows_carry_provenance_and_notes(results):
    row = evaluate([_claim("w.t1.c", 10, "n", dataset="c")], results).iloc[0]
    assert row["provenance"] == "embedded: y" and "cannot be established" in row["note"]
    assert row["figure"] == "w-t1"


def test_ambiguous_reference_is_an_error(results):
    bad = Claim("w.t1.x", "s", "s", 1, {"file": "results/x.csv", "row": {}, "column": "n"})
    with pytest.raises(BoostrankError, match="matches 3 rows"):
        evaluate([bad], results)


def test_a_row_the_run_left_out_is_not_comparable(results):
    """A smaller configuration (config/quick.yaml) runs fewer data sets: their claims say so."""
    absent = _claim("w.t1.absent", 10, "n", dataset="not-run")
    row = evaluate([absent], results).iloc[0]
    assert row["verdict"] == "NOT-COMPARABLE" and "not part of this run" in row["note"]


def test_registry_rejects_duplicate_and_malformed_ids(tmp_path):
    path = tmp_path / "c.yaml"
    entry = "- {id: %s, source: s, statement: s, published: 1, reproduce: {file: f, column: c}}\n"
    path.write_text("claims:\n" + entry % "a.b.c" + entry % "a.b.c")
    with pytest.raises(BoostrankError, match="appears twice"):
        load_claims(path)
    path.write_text("claims:\n" + entry % "a.b")
    with pytest.raises(BoostrankError, match=r"must be <work>\.<item>\.<name>"):
        load_claims(path)


def test_project_claims_registry_covers_tables_1_1_and_1_2():
    claims = load_claims("config/claims.yaml")
    ids = {c.id for c in claims}
    for ds in ("isolet", "mnist", "protein", "optdigits", "nursery", "letter", "pendigits"):
        assert {
            f"thesis.table1_1.{ds}_{col}" for col in ("instances", "features", "classes")
        } <= ids
    for ds in ("ohsumed", "td2003", "td2004", "hp2003", "hp2004", "np2003", "np2004"):
        cols = ("pairs", "queries", "relevance", "features")
        assert {f"thesis.table1_2.{ds}_{col}" for col in cols} <= ids
    # The published Table 1.1 misprints 26 classes for the digit sets; the registry says so.
    table = "figures/tables/thesis-table1_1.csv"
    assert published_value(claims, table, {"dataset": "optdigits"}, "classes") == 26
    optdigits = next(c for c in claims if c.id == "thesis.table1_1.optdigits_classes")
    assert "10" in optdigits.erratum


def test_requires_dataset_makes_another_data_set_not_comparable(tmp_path):
    (tmp_path / "results").mkdir()
    pd.DataFrame(
        {
            "config": ["a", "b"],
            "ndcg": [0.45, 0.45],
            "dataset": ["mq2008", "mq2007"],
            "dataset_label": ["MQ2008 (substitute for MQ2007)", "MQ2007"],
            "data_kind": ["mirror", "real"],
        }
    ).to_csv(tmp_path / "results" / "y.csv", index=False)

    def claim(cid, config):
        ref = {"file": "results/y.csv", "row": {"config": config}, "column": "ndcg"}
        return Claim(
            cid, "s", "s", 0.45, ref, {"type": "abs", "tol": 0.01}, requires_dataset="mq2007"
        )

    out = evaluate([claim("w.t2.sub", "a"), claim("w.t2.same", "b")], tmp_path)
    out = out.set_index("claim_id")
    assert out.loc["w.t2.sub", "verdict"] == "NOT-COMPARABLE"
    assert "MQ2008 (substitute for MQ2007)" in out.loc["w.t2.sub", "note"]
    assert out.loc["w.t2.sub", "reproduced"] == "0.45"
    assert out.loc["w.t2.same", "verdict"] == "PASS"


def test_a_claim_family_expands_to_one_claim_per_published_row(tmp_path):
    """Published values that arrive as data (LETOR's baseline table): one claim per row with a
    value; stand-in rows are NOT-COMPARABLE; no value at all leaves one NOT-COMPARABLE row."""
    (tmp_path / "results").mkdir()
    pd.DataFrame(
        {
            "dataset": ["ohsumed", "ohsumed", "td2003", "ohsumed"],
            "algorithm": ["FRank", "FRank", "FRank", "NDCG_Boost"],
            "k": [3, 5, 3, 3],
            "ndcg": [0.47, 0.40, 0.30, 0.47],
            "letor_published": ["0.4812", "0.4588", "0.2", ""],
            "data_kind": ["mirror", "mirror", "synthetic", "mirror"],
        }
    ).to_csv(tmp_path / "results" / "fig.csv", index=False)
    family = Claim(
        id="thesis.fig3_1.letor",
        source="LETOR",
        statement="{algorithm} reaches NDCG@{k} on {dataset}",
        published=None,
        reproduce={"file": "results/fig.csv", "column": "ndcg"},
        rule={"type": "abs", "tol": 0.03},
        expand={
            "published": "letor_published",
            "keys": ["dataset", "algorithm", "k"],
            "id": "{dataset}_{k}",
        },
    )
    table = evaluate([family], tmp_path).set_index("claim_id")
    assert list(table.index) == [
        "thesis.fig3_1.letor__ohsumed_3",
        "thesis.fig3_1.letor__ohsumed_5",
        "thesis.fig3_1.letor__td2003_3",
    ]
    assert table["verdict"].tolist() == ["PASS", "FAIL", "NOT-COMPARABLE"]
    member = table.loc["thesis.fig3_1.letor__ohsumed_3"]
    assert member["statement"] == "FRank reaches NDCG@3 on ohsumed"
    assert table.loc["thesis.fig3_1.letor__ohsumed_5", "published"] == pytest.approx(0.4588)
    (tmp_path / "results" / "fig.csv").unlink()
    alone = evaluate([family], tmp_path)
    assert len(alone) == 1 and alone["verdict"].iloc[0] == "NOT-COMPARABLE"
    assert "no published values" in alone["note"].iloc[0]


def test_a_claim_over_a_column_is_checked_once_per_value(tmp_path):
    """Chapter 4's claims under both evaluation protocols: one member per value, each reading
    its own row (an ordinal ``other`` too), the statement naming the protocol."""
    (tmp_path / "results").mkdir()
    pd.DataFrame(
        {
            "statistic": ["gain", "gain", "floor", "floor"],
            "evaluated": ["all", "residual", "all", "residual"],
            "value": [0.2, -0.04, 0.1, 0.0],
            "data_kind": ["mirror"] * 4,
        }
    ).to_csv(tmp_path / "results" / "s.csv", index=False)
    claim = Claim(
        id="thesis.fig4_2.gain",
        source="s",
        statement="MRR gains",
        published="gain > floor",
        reproduce={"file": "results/s.csv", "row": {"statistic": "gain"}, "column": "value"},
        rule={
            "type": "ordinal",
            "relation": ">",
            "other": {"file": "results/s.csv", "row": {"statistic": "floor"}, "column": "value"},
        },
        over={"evaluated": {"all": "whole list", "residual": "residual collection"}},
    )
    table = evaluate([claim], tmp_path).set_index("claim_id")
    assert list(table.index) == ["thesis.fig4_2.gain__all", "thesis.fig4_2.gain__residual"]
    assert table["verdict"].tolist() == ["PASS", "FAIL"]  # 0.2 > 0.1; -0.04 < 0.0
    assert table.loc["thesis.fig4_2.gain__residual", "statement"] == (
        "MRR gains [residual collection]"
    )
    assert table.loc["thesis.fig4_2.gain__all", "figure"] == "thesis-fig4_2"


def test_a_failure_the_source_explains_is_an_erratum_not_a_fail(results):
    """FAIL means only a number we could not reproduce: a claim whose erratum note says the
    source contradicts itself fails as ERRATUM; other notes (a likely explanation) keep FAIL,
    and a passing claim with an erratum note still passes."""
    ref = {"file": "results/x.csv", "row": {"dataset": "a"}, "column": "n"}
    claims = [
        Claim("w.t1.source", "s", "s", 26, ref, erratum="Erratum in the source: 10 digits."),
        Claim("w.t1.guess", "s", "s", 26, ref, erratum="Probably the out-of-bag estimate."),
        Claim("w.t1.noted", "s", "s", 10, ref, erratum="Erratum in the source: the text says 9."),
    ]
    assert _verdicts(claims, results) == {
        "w.t1.source": "ERRATUM",
        "w.t1.guess": "FAIL",
        "w.t1.noted": "PASS",
    }


# ------------------------------------------------------------------ diagnoses
APPROXIMATION = {"kind": "approximation", "note": "LightGBM's lambdarank in place of RankLib's"}


@pytest.fixture
def failing(tmp_path):
    """One results file whose rows fail their claims: real data, a substitute, a stand-in."""
    (tmp_path / "results").mkdir()
    pd.DataFrame(
        {
            "dataset": ["a", "mq2008", "s"],
            "dataset_label": ["A", "MQ2008 (substitute for MQ2007)", "S"],
            "ndcg": [0.40, 0.40, 0.40],
            "data_kind": ["mirror", "mirror", "synthetic"],
            "provenance": ["mirror: a", "mirror: mq2008", "synthetic stand-in"],
        }
    ).to_csv(tmp_path / "results" / "thesis-fig3_1.csv", index=False)
    return tmp_path


def _fails(cid, dataset="a", published=0.50, **fields):
    ref = {"file": "results/thesis-fig3_1.csv", "row": {"dataset": dataset}, "column": "ndcg"}
    return Claim(cid, "s", "s", published, ref, {"type": "abs", "tol": 0.01}, **fields)


def _diagnoses(claims, root, findings=None):
    table = evaluate(claims, root, findings=findings).set_index("claim_id")
    return table["verdict"].to_dict(), table["diagnosis"].to_dict(), table["note"].to_dict()


def _readings_csv(tmp_path, rows):
    """A toy make-readings table: (reading, option, is_default, claim, verdict)."""
    from boostrank.report.readings import COLUMNS

    frame = pd.DataFrame(
        [
            {"reading": r, "option": o, "is_default": d, "claim_id": c, "verdict": v}
            for r, o, d, c, v in rows
        ],
        columns=COLUMNS,
    ).fillna("")
    path = tmp_path / "readings.csv"
    frame.to_csv(path, index=False)
    return pd.read_csv(path, keep_default_na=False)  # as the report reads it back


def test_each_kind_of_diagnosis(failing, tmp_path):
    """A FAIL is explained by the registry, a reading that makes it PASS, the substitute it was
    measured on, or it is undiagnosed; a PASS or NOT-COMPARABLE shows only the registry's."""
    from boostrank.report.readings import findings

    readings = _readings_csv(
        tmp_path,
        [
            ("toy", "a", True, "thesis.fig3_1.by_reading", "FAIL"),
            ("toy", "b", False, "thesis.fig3_1.by_reading", "PASS"),
            ("toy", "a", True, "thesis.fig3_1.default_passes", "PASS"),
            ("toy", "b", False, "thesis.fig3_1.default_passes", "FAIL"),
        ],
    )
    claims = [
        _fails("thesis.fig3_1.by_registry", diagnosis=APPROXIMATION),
        _fails("thesis.fig3_1.by_reading"),
        _fails("thesis.fig3_1.default_passes"),
        replace(
            _fails("thesis.fig3_1.by_substitute", dataset="mq2008"),
            rule={"type": "ordinal", "relation": ">", "value": 0.5},
        ),
        _fails("thesis.fig3_1.unexplained"),
        _fails("thesis.fig3_1.passes", published=0.40),
        _fails("thesis.fig3_1.passes_noted", published=0.40, diagnosis=APPROXIMATION),
        _fails("thesis.fig3_1.stand_in", dataset="s"),
    ]
    verdicts, diagnoses, _ = _diagnoses(claims, failing, findings(readings, []))
    assert verdicts["thesis.fig3_1.passes"] == "PASS"
    assert diagnoses == {
        "thesis.fig3_1.by_registry": "approximation: LightGBM's lambdarank in place of RankLib's",
        "thesis.fig3_1.by_reading": "reading: toy = b gives PASS",
        # the default passes in make readings' run: no other option would flip this failure
        "thesis.fig3_1.default_passes": diagnoses["thesis.fig3_1.default_passes"],
        "thesis.fig3_1.by_substitute": "data substitute: measured on MQ2008 (substitute for "
        "MQ2007) (measured 0.4, claimed > 0.5)",
        "thesis.fig3_1.unexplained": diagnoses["thesis.fig3_1.unexplained"],
        "thesis.fig3_1.passes": "",
        "thesis.fig3_1.passes_noted": "approximation: LightGBM's lambdarank in place of RankLib's",
        "thesis.fig3_1.stand_in": "",
    }
    for undiagnosed in ("thesis.fig3_1.default_passes", "thesis.fig3_1.unexplained"):
        assert diagnoses[undiagnosed].startswith("undiagnosed: no registry diagnosis")
        assert "results/readings.csv" in diagnoses[undiagnosed]  # what was looked at
    # Without make readings' table the reading is not found, and the text says so.
    _, alone, _ = _diagnoses(claims, failing)
    assert alone["thesis.fig3_1.by_reading"].startswith("undiagnosed")
    assert "no make readings table" in alone["thesis.fig3_1.by_reading"]


def test_the_registry_diagnosis_comes_first_and_what_the_run_found_is_added(failing, tmp_path):
    from boostrank.report.readings import findings

    readings = _readings_csv(
        tmp_path,
        [
            ("toy", "a", True, "thesis.fig3_1.both", "FAIL"),
            ("toy", "b", False, "thesis.fig3_1.both", "PASS"),
            ("toy", "c", False, "thesis.fig3_1.both", "PASS"),
        ],
    )
    claim = replace(
        _fails("thesis.fig3_1.both", dataset="mq2008", diagnosis=APPROXIMATION),
        rule={"type": "ordinal", "relation": ">", "value": 0.5},  # an ordering: judged
    )
    _, diagnoses, _ = _diagnoses([claim], failing, findings(readings, []))
    assert diagnoses["thesis.fig3_1.both"] == (
        f"approximation: {APPROXIMATION['note']}; also reading: toy = b gives PASS, "
        "toy = c gives PASS; also data substitute: measured on MQ2008 (substitute for MQ2007) "
        "(measured 0.4, claimed > 0.5)"
    )


def test_an_erratum_diagnosis_makes_a_failure_an_erratum(failing):
    """The registry's erratum kind is the erratum note's rule: the source contradicts itself."""
    erratum = {"kind": "erratum", "note": "section 3.4 prints 0.50, its own table 0.40"}
    verdicts, diagnoses, _ = _diagnoses([_fails("thesis.fig3_1.x", diagnosis=erratum)], failing)
    assert verdicts["thesis.fig3_1.x"] == "ERRATUM"
    assert diagnoses["thesis.fig3_1.x"] == f"erratum: {erratum['note']}"


def test_an_inconclusive_claim_with_a_source_erratum_is_diagnosed_erratum():
    from boostrank.report.diagnosis import Findings, diagnose

    note = "Erratum in the source: the proof substitutes a bound the other way round"
    assert diagnose("w.t.x", "w-t", "INCONCLUSIVE", note, None, "", Findings()) == (
        f"erratum: {note}"
    )
    assert diagnose("w.t.x", "w-t", "ERRATUM", note, None, "", Findings()) == ""


def test_a_reduced_protocol_labels_the_claims_of_its_section_only(failing):
    """config/quick.yaml's one fold of five: Figure 3.1's claims say so in the note, and a
    failure nothing else explains is diagnosed by it; another section's claims are not."""
    from boostrank.report.diagnosis import Findings
    from boostrank.report.protocol import Reduction

    (failing / "results/thesis-fig2_1.csv").write_text(
        "dataset,error,data_kind,provenance\na,0.4,mirror,mirror: a\n"
    )
    elsewhere = Claim(
        "thesis.fig2_1.x",
        "s",
        "s",
        0.5,
        {"file": "results/thesis-fig2_1.csv", "row": {"dataset": "a"}, "column": "error"},
        {"type": "abs", "tol": 0.01},
    )
    reduced = Findings(reduced=(Reduction("chapter3.folds", [1], [1, 2, 3, 4, 5]),))
    claims = [_fails("thesis.fig3_1.x"), _fails("thesis.fig3_1.ok", published=0.40), elsewhere]
    verdicts, diagnoses, notes = _diagnoses(claims, failing, reduced)
    assert notes["thesis.fig3_1.x"].startswith("reduced protocol (chapter3: folds)")
    assert notes["thesis.fig3_1.ok"].startswith("reduced protocol (chapter3: folds)")
    assert diagnoses["thesis.fig3_1.x"] == "reduced protocol (chapter3: folds)"
    assert diagnoses["thesis.fig3_1.ok"] == ""  # a PASS: labelled in its note only
    assert verdicts["thesis.fig2_1.x"] == "FAIL" and "reduced" not in notes["thesis.fig2_1.x"]
    assert diagnoses["thesis.fig2_1.x"].startswith("undiagnosed")


def test_claims_cli_lists_the_undiagnosed_and_fails(failing, capsys):
    from boostrank.cli import main

    table = evaluate(
        [_fails("thesis.fig3_1.open"), _fails("thesis.fig3_1.known", diagnosis=APPROXIMATION)],
        failing,
    )
    path = failing / "results/claims.csv"
    table.to_csv(path, index=False)
    assert main(["claims", str(path)]) == 0
    out = capsys.readouterr()
    assert "2 reproduction claims: FAIL 2" in out.out and "diagnosis undiagnosed: 1" in out.out
    assert main(["claims", str(path), "--undiagnosed"]) == 1
    out = capsys.readouterr()
    assert "FAIL\tthesis.fig3_1.open" in out.out and "thesis.fig3_1.known" not in out.out
    assert "1 FAIL/INCONCLUSIVE claims" in out.err
    table.loc[table["claim_id"] == "thesis.fig3_1.open", "diagnosis"] = "open: ruled out x"
    table.to_csv(path, index=False)
    assert main(["claims", str(path), "--undiagnosed"]) == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("approximation: LightGBM", "approximation"),
        ("data substitute: measured on MQ2008", "data substitute"),
        ("reduced protocol (chapter3: folds)", "reduced protocol"),
        ("undiagnosed: no registry diagnosis", "undiagnosed"),
        ("", ""),
    ],
)
def test_the_kind_of_a_diagnosis(text, expected):
    from boostrank.report.diagnosis import kind

    assert kind(text) == expected


def test_substitute_data_one_rule(failing):
    """On real data standing in for the published data (the row says so, or it is from
    another data set than the claim requires), an absolute value is NOT-COMPARABLE and an
    ordering is judged, its FAIL diagnosed as a data substitute."""
    absolute = _fails("thesis.fig3_1.value_on_substitute", dataset="mq2008")
    ordered = replace(
        _fails("thesis.fig3_1.order_on_substitute", dataset="mq2008"),
        rule={"type": "ordinal", "relation": "<", "value": 0.5},
    )
    required = replace(
        _fails("thesis.fig3_1.order_required", dataset="a"),
        rule={"type": "ordinal", "relation": ">", "value": 0.5},
        requires_dataset="mq2007",
    )
    value_required = replace(_fails("thesis.fig3_1.value_required"), requires_dataset="mq2007")
    verdicts, diagnoses, notes = _diagnoses([absolute, ordered, required, value_required], failing)
    assert verdicts == {
        "thesis.fig3_1.value_on_substitute": "NOT-COMPARABLE",
        "thesis.fig3_1.order_on_substitute": "PASS",
        "thesis.fig3_1.order_required": "FAIL",
        "thesis.fig3_1.value_required": "NOT-COMPARABLE",
    }
    assert "an absolute value measured on MQ2008" in notes["thesis.fig3_1.value_on_substitute"]
    assert diagnoses["thesis.fig3_1.order_required"] == (
        "data substitute: measured on A, standing in for mq2007 (measured 0.4, claimed > 0.5)"
    )


def test_stage_2_rows_are_not_called_reduced_beside_the_screens(failing, tmp_path):
    """A claim judged by stage 2 (the printed protocol) under one reading and by the screen (a
    reduced protocol) under another: only the screen's reading is said to be on a reduced
    protocol, in the flips and in what is ruled out."""
    from boostrank.report.readings import combined, findings

    claim = "thesis.fig3_1.tried"
    rows = [
        ("kept", "a", True, claim, "FAIL"),
        ("kept", "b", False, claim, "FAIL"),
        ("moved", "x", True, claim, "FAIL"),
        ("moved", "y", False, claim, "PASS"),
        ("tried", "p", True, claim, "FAIL"),
        ("tried", "q", False, claim, "PASS"),
    ]
    screen = _readings_csv(tmp_path, rows).assign(protocol="reduced protocol (chapter3: folds)")
    confirm = _readings_csv(tmp_path, [*rows[2:4], ("also", "u", True, claim, "FAIL")])
    table = combined(screen.assign(stage="screen"), confirm.assign(stage="confirm"))
    _, diagnoses, _ = _diagnoses([_fails(claim)], failing, findings(table, []))
    assert diagnoses[claim] == (
        "reading: tried = q gives PASS (make readings, on a reduced protocol), moved = y gives "
        "PASS; make readings: no option of also gives PASS; make readings (reduced protocol): "
        "no option of kept gives PASS"
    )
    # with the screen's rows alone, every reading is on the reduced protocol
    _, diagnoses, _ = _diagnoses([_fails(claim)], failing, findings(screen, []))
    assert diagnoses[claim].count("reduced protocol") == 3


def test_the_readings_tried_without_a_pass_are_named_as_ruled_out(failing, tmp_path):
    """A failing claim that no option of a reading makes PASS gets that reading named as ruled
    out, after its diagnosis; a reading with a passing option is not named."""
    from boostrank.report.readings import findings

    readings = _readings_csv(
        tmp_path,
        [
            ("toy", "a", True, "thesis.fig3_1.tried", "FAIL"),
            ("toy", "b", False, "thesis.fig3_1.tried", "INCONCLUSIVE"),
            ("other", "x", True, "thesis.fig3_1.tried", "FAIL"),
            ("other", "y", False, "thesis.fig3_1.tried", "PASS"),
        ],
    )
    _, diagnoses, _ = _diagnoses([_fails("thesis.fig3_1.tried")], failing, findings(readings, []))
    assert diagnoses["thesis.fig3_1.tried"] == (
        "reading: other = y gives PASS; make readings: no option of toy gives PASS"
    )
    # An open diagnosis says why the table judges no reading for it; an approximation does not.
    passing = _readings_csv(tmp_path, [("toy", "a", True, "thesis.fig3_1.tried", "PASS")])
    open_note = {"kind": "open", "note": "nothing found yet. Ruled out: the tie order"}
    for note, said in ((open_note, True), (APPROXIMATION, False)):
        claims = [_fails("thesis.fig3_1.tried", diagnosis=note), _fails("thesis.fig3_1.no_row")]
        _, diagnoses, _ = _diagnoses(claims, failing, findings(passing, []))
        suffix = "; make readings: PASS under the default there, so it judges no reading"
        assert diagnoses["thesis.fig3_1.tried"].endswith(suffix) is said
    claims = [_fails("thesis.fig3_1.no_row", diagnosis=open_note)]
    _, diagnoses, _ = _diagnoses(claims, failing, findings(passing, []))
    assert diagnoses["thesis.fig3_1.no_row"].endswith(
        "; make readings: no row for it (no reading judged it on real data there)"
    )
