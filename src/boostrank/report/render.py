"""Render a table as CSV, Markdown and LaTeX, side by side with the published values."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from boostrank.io import write_text

if TYPE_CHECKING:
    import pandas as pd


def markdown(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table."""
    header = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = [
        "| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |"
        for row in frame.itertuples(index=False)
    ]
    return "\n".join([header, rule, *body]) + "\n"


# Characters LaTeX reads as markup, as text-mode commands; ``<``, ``>`` and ``|`` too, which
# the default OT1 font encoding would print as other glyphs.
_LATEX_TEXT = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "#": r"\#",
    "$": r"\$",
    "%": r"\%",
    "&": r"\&",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "\u2013": "--",
    "\u2014": "---",
    "\u2018": "`",
    "\u2019": "'",
    "\u201c": "``",
    "\u201d": "''",
    "\u2026": r"\ldots{}",
    "\u2022": r"\textbullet{}",
}
# Symbols pdflatex's default set-up has no glyph for outside math mode.
_LATEX_MATH = {
    "\u2212": "-",
    "\u2264": r"\leq",
    "\u2265": r"\geq",
    "\u2260": r"\neq",
    "\u2248": r"\approx",
    "\u2192": r"\rightarrow",
    "\u2190": r"\leftarrow",
    "\u221e": r"\infty",
    "\u221a": r"\surd",
    "\u2211": r"\sum",
    "\u2208": r"\in",
    "\u2202": r"\partial",
    "\u2207": r"\nabla",
}
# Greek capitals with a LaTeX command (the others look like Latin letters and have none).
_GREEK_CAPITALS = {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi"}
_GREEK_CAPITALS |= {"Psi", "Omega"}


def _latex_char(char: str) -> str:
    """One character as LaTeX that pdflatex's default set-up (utf8 input, OT1 and TS1 fonts)
    prints; a character it cannot print comes out as its code point, ``[U+2603]``."""
    if char in _LATEX_TEXT:
        return _LATEX_TEXT[char]
    if char in _LATEX_MATH:
        return f"\\ensuremath{{{_LATEX_MATH[char]}}}"
    if ord(char) < 0x100:  # ASCII and Latin-1: utf8 input and the OT1/TS1 encodings cover them
        return char
    kind, _, letter = unicodedata.name(char, "").partition(" LETTER ")
    if kind == "GREEK SMALL" and letter.isalpha() and letter != "OMICRON":
        return f"\\ensuremath{{\\{letter.lower()}}}"
    if kind == "GREEK CAPITAL" and letter.title() in _GREEK_CAPITALS:
        return f"\\ensuremath{{\\{letter.title()}}}"
    ascii_form = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return "".join(map(_latex_char, ascii_form)) or f"[U+{ord(char):04X}]"


def latex_text(value: object) -> str:
    """``value`` as LaTeX that typesets its characters as they are (no markup, no math)."""
    return "".join(map(_latex_char, str(value)))


def latex(frame: pd.DataFrame, caption: str) -> str:
    """A booktabs LaTeX table; every cell, heading and the caption are text."""

    def row(values: Iterable[object]) -> str:
        return " & ".join(map(latex_text, values)) + " \\\\"

    lines = [
        "\\begin{table}[ht]",
        "\\centering",
        f"\\caption{{{latex_text(caption)}}}",
        "\\begin{tabular}{" + "l" * len(frame.columns) + "}",
        "\\toprule",
        row(frame.columns),
        "\\midrule",
        *(row(values) for values in frame.itertuples(index=False)),
        "\\bottomrule",
        "\\end{tabular}",
        "\\end{table}",
    ]
    return "\n".join(lines) + "\n"


def beside(reproduced: object, published: object) -> str:
    """``10 (published 26)`` where they differ, else the value alone."""
    if reproduced in ("", None):
        return f"n/a (published {published})"
    if published in (None, "") or str(reproduced) == str(published):
        return str(reproduced)
    return f"{reproduced} (published {published})"


def write_table(prefix: Path | str, tidy: pd.DataFrame, shown: pd.DataFrame, caption: str) -> None:
    """Write ``<prefix>.csv`` (tidy, machine-readable) and ``.md``/``.tex`` (for people)."""
    prefix = Path(prefix)
    write_text(prefix.with_suffix(".csv"), tidy.to_csv(index=False))
    write_text(prefix.with_suffix(".md"), f"**{caption}**\n\n" + markdown(shown))
    write_text(prefix.with_suffix(".tex"), latex(shown, caption))
