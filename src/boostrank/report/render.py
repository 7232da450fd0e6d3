"""Render a table as CSV, Markdown and LaTeX, side by side with the published values."""

from __future__ import annotations

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


def latex(frame: pd.DataFrame, caption: str) -> str:
    """A booktabs LaTeX table."""

    def esc(value: object) -> str:
        text = str(value)
        for char in "\\&%$#_{}":
            text = text.replace(char, "\\" + char)
        return text.replace("~", "\\textasciitilde{}")

    lines = [
        "\\begin{table}[ht]",
        "\\centering",
        f"\\caption{{{esc(caption)}}}",
        "\\begin{tabular}{" + "l" * len(frame.columns) + "}",
        "\\toprule",
        " & ".join(esc(c) for c in frame.columns) + " \\\\",
        "\\midrule",
        *(" & ".join(esc(v) for v in row) + " \\\\" for row in frame.itertuples(index=False)),
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
