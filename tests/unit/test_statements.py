"""The statements ledger (config/statements.yaml) against the claims registry: it loads, follows
its schema, names only registry claims and every one of them, and problems() reports each kind
of defect on small hand-made ledgers. With BOOSTRANK_SEEDS set to the folder of the five texts,
every quote is checked to be the text's own words."""

import json
import os
import re
from pathlib import Path

import pytest

from boostrank.report.statements import (
    WORKS,
    Statement,
    coverage,
    load_statements,
    problems,
    registry_ids,
)
from boostrank.workflow.config_check import check_registry

ROOT = Path(__file__).resolve().parents[2]
LEDGER = ROOT / "config/statements.yaml"


def test_the_ledger_loads_and_follows_its_schema():
    check_registry(LEDGER, ROOT / "workflow/schemas/statements.schema.yaml")
    statements = load_statements(LEDGER)
    assert statements and all(isinstance(s, Statement) for s in statements)
    assert {s.work for s in statements} == set(WORKS)


def test_the_ledger_and_the_registry_agree():
    found = problems(load_statements(LEDGER), registry_ids(ROOT / "config/claims.yaml"))
    assert found == [], "\n".join(found)


def test_coverage_counts_each_answer_per_work():
    table = coverage(load_statements(LEDGER))
    assert list(table) == list(WORKS)
    for checked, not_checkable, unchecked, made in table.values():
        assert checked + not_checkable + unchecked == made > 0


def _s(sid: str, **answer) -> Statement:
    work = sid.split(".")[0]
    return Statement(sid, work, "section 1", "a quote", **answer)


def test_problems_reports_each_defect():
    ledger = [
        _s("thesis.a", claims=("thesis.fig1.x",)),
        _s("thesis.a", unchecked="a claim on x would check it"),  # duplicate id
        _s("thesis.b"),  # no answer
        _s("thesis.c", claims=("thesis.fig1.x",), not_checkable="the data are gone"),  # two
        _s("thesis.d", claims=("thesis.fig9.typo",)),  # unknown claim
        Statement("qbrank.e", "thesis", "s", "q", unchecked="u"),  # work is not the id's prefix
    ]
    found = problems(ledger, ["thesis.fig1.x", "thesis.fig2.y"])
    expected = [
        "duplicate statement id 'thesis.a'",
        "thesis.b: give exactly one of claims, not_checkable, unchecked (given: none)",
        "thesis.c: give exactly one of claims, not_checkable, unchecked "
        "(given: claims, not_checkable)",
        "thesis.d: unknown claim id 'thesis.fig9.typo'",
        "qbrank.e: work 'thesis' must be one of",
        "registry claim 'thesis.fig2.y' is in no statement's claims",
    ]
    assert len(found) == len(expected), found
    for line, start in zip(found, expected, strict=True):
        assert line.startswith(start), (line, start)


def test_a_sound_ledger_has_no_problems_and_counts_its_answers():
    ledger = [
        _s("topk.a", claims=("topk.table1.x",)),
        _s("topk.b", not_checkable="the data were never released"),
        _s("docan.c", unchecked="a claim on the count would check it"),
        _s("docan.d"),  # no answer: made, but neither checked nor explained
    ]
    assert problems(ledger[:3], ["topk.table1.x"]) == []
    table = coverage(ledger)
    assert table["topk"] == (1, 1, 0, 2)
    assert table["docan"] == (0, 0, 1, 2)
    assert table["thesis"] == (0, 0, 0, 0)


def test_a_ledger_without_its_list_is_named(tmp_path):
    from boostrank.errors import BoostrankError

    path = tmp_path / "statements.yaml"
    path.write_text("statement: []\n", encoding="utf-8")
    with pytest.raises(BoostrankError, match="expected a list under 'statements'"):
        load_statements(path)
    path.write_text("statements:\n  - {id: thesis.a, work: thesis}\n", encoding="utf-8")
    with pytest.raises(BoostrankError, match=r"statements\[0\] lacks 'where'"):
        load_statements(path)


def _normalised(text: str) -> str:
    """Extraction whitespace and markdown escapes ("NDCG\\_Boost") do not count."""
    return re.sub(r"\s+", " ", text.replace("\\_", "_")).strip()


def _seed_texts(folder: Path) -> list[str]:
    texts = []
    for path in sorted(folder.glob("*.txt")):
        raw = path.read_text(encoding="utf-8")
        if raw.lstrip().startswith("{"):  # a web page's JSON record: its string fields
            raw = "\n".join(v for v in json.loads(raw).values() if isinstance(v, str))
        texts.append(_normalised(raw))
    return texts


# The five texts: BOOSTRANK_SEEDS, else the shared folder beside the clone (as on CI).
SEEDS = Path(
    os.environ.get("BOOSTRANK_SEEDS") or Path(__file__).resolve().parents[3] / "shared/seeds"
)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the five texts are not here (BOOSTRANK_SEEDS)")
def test_every_quote_is_the_texts_own_words():
    texts = _seed_texts(SEEDS)
    assert texts, f"no *.txt in {SEEDS}"
    missing = [
        s.id
        for s in load_statements(LEDGER)
        if not any(_normalised(s.quote) in text for text in texts)
    ]
    assert missing == []


def test_the_claims_page_shows_the_coverage_per_work(tmp_path):
    from boostrank.report.html import _coverage

    ledger = tmp_path / "statements.yaml"
    ledger.write_text(
        "statements:\n"
        "  - {id: topk.a, work: topk, where: s, quote: q, claims: [topk.table1.x]}\n"
        "  - {id: topk.b, work: topk, where: s, quote: q, unchecked: a claim on y would do}\n"
        "  - {id: docan.c, work: docan, where: s, quote: q, not_checkable: the data are gone}\n",
        encoding="utf-8",
    )
    table = _coverage(ledger)
    rows = re.findall(r"<tr><th>(\w+)</th>((?:<td>\d+</td>)+)</tr>", table)
    counts = {work: re.findall(r"\d+", cells) for work, cells in rows}
    assert counts["topk"] == ["1", "0", "1", "2"]
    assert counts["docan"] == ["0", "1", "0", "1"]
    assert counts["all"] == ["1", "1", "1", "3"]
    assert _coverage(tmp_path / "absent.yaml") == "" and _coverage(None) == ""
