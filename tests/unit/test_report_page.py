"""The claims page (results/report.html) on a toy run: each FAIL shows its diagnosis beside the
verdict, the undiagnosed ones are listed at the top, a reduced protocol is announced above the
tally, and the readings section names the readings that decide a verdict with their basis."""

import re
from pathlib import Path

import pandas as pd
import pytest

from boostrank.report.claims import Claim, evaluate
from boostrank.report.html import write_report
from boostrank.report.protocol import Reduction
from boostrank.report.readings import COLUMNS, findings
from boostrank.workflow.catalog import Figure

FIGURE = Figure(
    id="thesis-fig3_1",
    title="Dissertation Figure 3.1: NDCG@1-10",
    kind="figure",
    source="Valizadegan (2010), section 3.4.2, Figure 3.1",
    outputs=("results/thesis-fig3_1.csv",),
)
FOLDS = Reduction("chapter3.folds", [1], [1, 2, 3, 4, 5])
APPROXIMATION = {"kind": "approximation", "note": "LightGBM's lambdarank in place of RankLib's"}


def _claim(cid, published=0.50, **fields):
    ref = {"file": "results/thesis-fig3_1.csv", "row": {"dataset": "a"}, "column": "ndcg"}
    return Claim(cid, "s", f"statement of {cid}", published, ref, {"type": "abs", "tol": 0.01},
                 **fields)  # fmt: skip


def _readings(root: Path, protocol: str) -> pd.DataFrame:
    """make readings' table: reading toy decides by_reading (b passes where the default fails)."""
    rows = [
        ("a", True, "FAIL"),
        ("b", False, "PASS"),
    ]
    frame = pd.DataFrame(
        [
            {
                "reading": "toy",
                "option": option,
                "is_default": default,
                "claim_id": "thesis.fig3_1.by_reading",
                "verdict": verdict,
                "default_verdict": "FAIL",
                "shift_in_tolerances": "",
                "protocol": protocol,
                "variant": "default" if default else f"toy.{option}",
            }
            for option, default, verdict in rows
        ],
        columns=COLUMNS,
    ).fillna("")
    frame.to_csv(root / "results/readings.csv", index=False)
    return pd.read_csv(root / "results/readings.csv", keep_default_na=False)


def _page(root: Path, reduced: list[Reduction]) -> tuple[str, pd.DataFrame]:
    (root / "results").mkdir(parents=True)
    (root / "results/thesis-fig3_1.csv").write_text(
        "dataset,ndcg,data_kind,provenance\na,0.40,mirror,mirror: a\n"
    )
    registry = root / "readings.yaml"
    registry.write_text(
        "readings:\n"
        "  - {id: toy, source: s, quote: q, choice: c, config: chapter3.tie_break,"
        " options: [a, b], default: a, basis: silent,"
        " evidence: 'the toy text says nothing of the order', claims: ['thesis.fig3_1.*']}\n"
        "  - {id: unrun, source: s, quote: q, choice: c, config: chapter3.folds,"
        " options: [a, b], default: a, basis: silent,"
        " evidence: 'the toy text says nothing of folds', claims: ['thesis.fig3_1.*']}\n"
    )
    label = "reduced protocol (chapter3: folds)" if reduced else ""
    table = _readings(root, label)
    claims = evaluate(
        [
            _claim("thesis.fig3_1.by_registry", diagnosis=APPROXIMATION),
            _claim("thesis.fig3_1.by_reading"),
            _claim("thesis.fig3_1.unexplained"),
            _claim("thesis.fig3_1.passes", published=0.40),
        ],
        root,
        findings=findings(table, reduced),
    )
    inventory = pd.DataFrame({"dataset": ["a"], "data_kind": ["mirror"]})
    write_report(
        root / "results/report.html",
        {FIGURE.id: FIGURE},
        claims,
        inventory,
        bench_dir=root / "benchmarks",
        root=root,
        reduced=reduced,
        readings=table,
        readings_registry=registry,
    )
    return (root / "results/report.html").read_text(encoding="utf-8"), claims


def _rows(page: str, table_id: str | None = None) -> list[list[str]]:
    """The cells of each row of the first table after ``table_id`` (or of the figure's claims)."""
    start = page.index(f"id='{table_id}'") if table_id else page.index("<details class='claims'>")
    table = page[start : page.index("</table>", start)]
    return [
        [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table)
    ]


def test_each_failure_shows_its_diagnosis_beside_the_verdict(tmp_path):
    page, _ = _page(tmp_path, [])
    for rows in (_rows(page), _rows(page, "all-claims")):
        head, *body = rows
        verdict = head.index("verdict")
        assert head[verdict + 1] == "diagnosis"
        shown = {r[0]: (r[verdict], r[verdict + 1]) for r in body}
        assert shown["thesis.fig3_1.by_registry"] == (
            "FAIL",
            "approximation: LightGBM&#x27;s lambdarank in place of RankLib&#x27;s",
        )
        assert shown["thesis.fig3_1.by_reading"] == ("FAIL", "reading: toy = b gives PASS")
        assert shown["thesis.fig3_1.unexplained"][1].startswith("undiagnosed: ")
        assert shown["thesis.fig3_1.passes"] == ("PASS", "")
    assert "data-diagnosis='reading'" in page and "id='diagnosis-filter'" in page
    assert "approximation: 1, reading: 1, undiagnosed: 1" in page  # why claims fail, tallied
    # The undiagnosed failures are listed at the top, before the figures.
    box = page[
        page.index("id='undiagnosed'") : page.index("</div>", page.index("id='undiagnosed'"))
    ]
    assert "thesis.fig3_1.unexplained" in box and "thesis.fig3_1.by_reading" not in box
    assert page.index("id='undiagnosed'") < page.index(f"id='{FIGURE.id}'")
    assert "id='reduced-protocol'" not in page and "id='readings-reduced'" not in page


def test_a_reduced_protocol_is_announced_above_the_tally(tmp_path):
    page, claims = _page(tmp_path, [FOLDS])
    box = page.index("id='reduced-protocol'")
    assert box < page.index("<th>Reproduction claims</th>")
    assert "chapter3</b>: folds = [1] (printed [1, 2, 3, 4, 5])" in page
    assert claims["note"].str.startswith("reduced protocol (chapter3: folds)").all()
    # A failure nothing else explains is put down to the reduction, not left undiagnosed.
    unexplained = claims.set_index("claim_id").loc["thesis.fig3_1.unexplained", "diagnosis"]
    assert unexplained == "reduced protocol (chapter3: folds)"
    by_reading = claims.set_index("claim_id").loc["thesis.fig3_1.by_reading", "diagnosis"]
    assert by_reading == "reading: toy = b gives PASS (make readings, on a reduced protocol)"
    assert "id='undiagnosed'" not in page


def test_the_readings_section_names_the_deciding_reading_its_basis_and_the_flip(tmp_path):
    page, _ = _page(tmp_path, [FOLDS])
    section = page[page.index("id='readings'") :]
    assert "Readings that decide a verdict: <b>toy (silent)</b>" in section
    head, row = _rows(section.replace("<table>", "<table id='deciding'>", 1), "deciding")
    decided = dict(zip(head, row, strict=True))
    assert decided["basis"] == "silent" and decided["default"] == "a"
    assert decided["the claims (the options giving PASS and FAIL)"] == (
        "thesis.fig3_1.by_reading (PASS under b, FAIL under a)"
    )
    assert "id='readings-reduced'" in section and "reduced protocol (chapter3: folds)" in section
    assert "1 of 2 readings have no row" in section and "left them out: unrun." in section
    assert "id='readings-outside'" not in section  # option a ran as the run itself


def test_the_snakemake_report_caption_says_reduced_protocol():
    from boostrank.report.captions import caption

    claims = pd.DataFrame(columns=["figure"])
    inventory = pd.DataFrame(columns=["dataset", "data_kind"])
    assert "Reduced protocol (chapter3: folds)" in caption(FIGURE, claims, inventory, [FOLDS])
    assert "educed" not in caption(FIGURE, claims, inventory, [])


def test_the_page_and_its_filters_run_in_a_browser(tmp_path):
    from browser import chromium, probe_page

    browser = chromium()  # installed from Debian's archive when missing, as root
    if browser is None:
        pytest.skip("no Chromium, and it cannot be installed here")
    _, claims = _page(tmp_path / "run", [FOLDS])
    seen = probe_page(browser, tmp_path / "run/results/report.html", tmp_path)
    assert seen["errors"] == []
    assert seen["claim_rows"] == len(claims)
    passed = int((claims["verdict"] == "PASS").sum())
    assert seen["pass_filtered"] == {"shown": passed, "counter": passed}


def test_the_readings_section_says_which_rows_are_stage_2s():
    """With stage 2's rows in the table, the reduced-protocol box says they are at the printed
    protocol and the stages line names the readings stage 2 reran; without, every row is the
    screen's."""
    from boostrank.report.html import _readings_reduced_box, _readings_stages

    label = ["reduced protocol (chapter3: folds)"]
    screen = pd.DataFrame({"reading": ["a", "b"], "stage": ["screen", "screen"]})
    assert "printed protocol" not in _readings_reduced_box(label, confirmed=False)
    assert "Stage 2's rows" in _readings_reduced_box(label, confirmed=True)
    assert _readings_reduced_box([], confirmed=True) == ""
    assert "has not run: every row is the screen's" in _readings_stages(screen)[0]
    both = screen.assign(stage=["screen", "confirm"])
    assert "reran 1 readings at the printed protocol" in _readings_stages(both)[0]
    assert ": b. The other readings' rows are the screen's." in _readings_stages(both)[0]
