"""The texts' quantifier words, one threshold each (docs/verdicts.md, "Words").

A claim whose statement reads one of these words names it in ``rule.word``; its rule must then
use the word's relation and threshold, so "most" or "almost always" means the same in every
claim. The thresholds were set before any claim was judged with them: a fraction of cells,
data sets or runs for the counting words; a relative gap (|a - b| / |b|) for "comparable" and
a relative gain ((a - b) / |b|) for "considerably"; "on average" compares means over paired
units (the signed-rank test of docs/verdicts.md), with no threshold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Word:
    """One quantifier: the relation and threshold its claims use, and what is measured."""

    relation: str | None
    value: float | None
    measures: str
    basis: str


WORDS: dict[str, Word] = {
    "all": Word(">=", 1.0, "fraction of the units (cells, data sets, runs)", "every one"),
    "almost all": Word(
        ">=", 0.8, "fraction of the units", "convention: four in five, the usual reading"
    ),
    "most": Word(">", 0.5, "fraction of the units", "more than half"),
    "on average": Word(
        None, None, "the two means over paired units", "signed-rank test at 0.05 (no threshold)"
    ),
    "comparable": Word(
        "<=", 0.1, "relative gap |a - b| / |b|", "convention: within 10% of the other"
    ),
    "considerably": Word(
        ">=", 0.1, "relative gain (a - b) / |b|", "convention: a gain of at least 10%"
    ),
}
ALIASES = {"almost always": "almost all"}  # the texts' other spelling of a word


def word_problem(rule: dict[str, Any]) -> str:
    """Why ``rule`` does not use its ``word``'s threshold, or "" when it does (or names none)."""
    name = rule.get("word")
    if name is None:
        return ""
    word = WORDS[ALIASES.get(name, name)]
    if word.relation is None:
        if rule.get("type") != "ordinal" or "value" in rule:
            return f"'{name}' compares two means: an ordinal rule with 'other', no threshold"
        return ""
    if rule.get("type") != "ordinal" or rule.get("relation") != word.relation:
        return f"'{name}' is an ordinal rule with relation '{word.relation}'"
    if rule.get("value") != word.value:
        return f"'{name}' has the threshold {word.value}, not {rule.get('value')}"
    return ""


def markdown_table() -> str:
    """The words table of docs/verdicts.md."""
    rows = ["| word | measured | rule | basis |", "|---|---|---|---|"]
    for name, word in WORDS.items():
        rule = "paired test" if word.relation is None else f"{word.relation} {word.value:g}"
        also = [a for a, w in ALIASES.items() if w == name]
        label = " / ".join([f'"{name}"', *(f'"{a}"' for a in also)])
        rows.append(f"| {label} | {word.measures} | {rule} | {word.basis} |")
    return "\n".join(rows)
