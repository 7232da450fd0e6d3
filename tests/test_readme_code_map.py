"""The README's figure-to-code table names every figure of the catalogue, and every rule,
module, function and class it names exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from boostrank.workflow.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]


def _rows() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### From a figure to the code that computed it", 1)[1]
    section = section.split("\n## ", 1)[0]
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| figures")
    ]


def _ids(cell: str, catalog: dict) -> set[str]:
    """The figure ids a cell names; ``a … b`` is every catalogue id from a to b."""
    ids = set(re.findall(r"[a-z]+-(?:fig|table|supp)\w+", cell))
    if "…" in cell:
        first, last = (part.strip() for part in cell.split("…"))
        keys = list(catalog)
        ids |= set(keys[keys.index(first) : keys.index(last) + 1])
    return ids


def test_every_figure_has_a_row_and_every_name_exists():
    catalog = load_catalog(ROOT / "config/figures.yaml")
    rules = set(
        re.findall(
            r"^rule (\w+):", "".join(p.read_text() for p in ROOT.glob("workflow/rules/*.smk")), re.M
        )
    )
    covered: set[str] = set()
    for figures, rule_cell, function_cell, estimator_cell in _rows():
        covered |= _ids(figures, catalog)
        assert set(re.findall(r"`(\w+)`", rule_cell)) <= rules, rule_cell
        for cell in (function_cell, estimator_cell):
            module = None
            for token in re.findall(r"`([\w/.]+)`", cell):
                if token.endswith(".py"):
                    module = importlib.import_module("boostrank." + token[:-3].replace("/", "."))
                else:
                    assert module is not None and hasattr(module, token), (cell, token)
    assert covered == set(catalog), sorted(set(catalog) ^ covered)
