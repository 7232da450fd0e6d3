"""The power check: every reproduction claim of the registry can fail and can pass."""

from pathlib import Path

import pytest

from boostrank.report.claims import Claim, load_claims
from boostrank.report.power import power_problems
from boostrank.report.words import WORDS, markdown_table, word_problem

ROOT = Path(__file__).resolve().parents[2]
REF = {"file": "results/x.csv", "row": {"dataset": "a"}, "column": "value"}
OTHER = {"file": "results/x.csv", "row": {"dataset": "b"}, "column": "value"}


def _claim(rule, published=0.5, reproduce=REF, **fields):
    return Claim("thesis.fig9_9.toy", "s", "s", published, reproduce, rule, **fields)


def test_every_reproduction_claim_of_the_registry_can_fail_and_pass():
    problems = power_problems(load_claims(ROOT / "config/claims.yaml"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "rule",
    [
        {"type": "abs", "tol": 0.005, "basis": "rounding: two decimals printed", "null": 0},
        {"type": "rel", "tol": 0.01, "basis": "rounding: three digits printed"},
        {"type": "ordinal", "relation": ">", "value": 0.5, "word": "most"},
        {"type": "ordinal", "relation": "<=", "value": 0.1, "word": "comparable"},
        {"type": "ordinal", "relation": "<", "other": OTHER},
        {"type": "equal"},
    ],
)
def test_a_sound_claim_passes_the_check(rule):
    assert power_problems([_claim(rule)]) == []


@pytest.mark.parametrize(
    ("rule", "column", "found"),
    [
        # a gain of 0.04 judged with a tolerance of 0.05: no gain at all still passes
        (
            {"type": "abs", "tol": 0.05, "basis": "rounding: a wide one here", "null": 0},
            "value",
            "the null 0 (no effect) does not FAIL",
        ),
        ({"type": "abs", "tol": 0.01}, "value", "names no basis"),
        ({"type": "ordinal", "relation": ">", "other": REF}, "value", "the same value"),
        ({"type": "equal"}, "letor_published", "reads a published column"),
        (
            {"type": "ordinal", "relation": ">", "value": 0.5, "word": "almost all"},
            "value",
            "'almost all' is an ordinal rule with relation '>='",
        ),
    ],
)
def test_the_check_finds_a_claim_that_cannot_fail(rule, column, found):
    claim = _claim(rule, published=0.04, reproduce={**REF, "column": column})
    problems = power_problems([claim])
    assert any(found in p for p in problems), problems


def test_text_consistency_checks_and_tests_are_exempt():
    rule = {"type": "abs", "tol": 0.01}  # no basis: a reproduction claim would be flagged
    for kind in ("text-consistency", "test"):
        assert power_problems([_claim(rule, claim_class=kind)]) == []
    assert power_problems([_claim(rule)])


def test_a_table_claim_checks_every_cell():
    table = {"key": "config", "columns": ["value"], "rows": {"x=1": [0.4], "x=2": [0.41]}}
    rule = {"type": "abs", "tol": 0.02}
    problems = power_problems([_claim(rule, published="per cell", table=table)])
    assert len(problems) == 2


def test_every_word_has_one_threshold_and_the_docs_print_it():
    assert word_problem({"type": "ordinal", "relation": ">", "value": 0.5, "word": "most"}) == ""
    assert word_problem({"type": "ordinal", "relation": ">=", "value": 0.8, "word": "most"})
    assert (
        word_problem({"type": "ordinal", "relation": ">=", "value": 0.8, "word": "almost always"})
        == ""
    )
    assert (
        word_problem({"type": "ordinal", "relation": "<", "other": OTHER, "word": "on average"})
        == ""
    )
    assert word_problem({"type": "ordinal", "relation": "<", "value": 1, "word": "on average"})
    assert set(WORDS) >= {"all", "almost all", "most", "on average", "comparable", "considerably"}
    assert markdown_table() in (ROOT / "docs/verdicts.md").read_text(encoding="utf-8")
