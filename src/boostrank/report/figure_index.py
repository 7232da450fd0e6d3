"""``docs/figures.md``: from each figure or table of the catalogue (``config/figures.yaml``'s
prose joined with each work's ``spec.FIGURES``) to the Snakemake rules and the functions that
compute and draw it, generated from the catalogue alone (``make docs-figures``) so that it
cannot drift from it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boostrank.workflow.catalog import Figure

HEADER = """\
<!-- Generated from config/figures.yaml and spec.FIGURES by make docs-figures; do not edit. -->
# From a figure to the code that computed it

Every figure and table the pipeline reproduces: the paper it comes from, the Snakemake rules of
its jobs (from the prepared data to its outputs, in pipeline order), the functions those rules'
commands call (`module:function`, computing first, drawing last) and the files it writes.
`make figure FIG=<id>` makes one from cached results; `make list-figures` prints this list.
"""


def entry_file(entry: str) -> str:
    """The source file of a ``module:function`` entry, relative to the repository root."""
    return "src/" + entry.partition(":")[0].replace(".", "/") + ".py"


def _cell(items: Iterable[str]) -> str:
    return "<br>".join(items)


def _text(value: str) -> str:
    return " ".join(value.split()).replace("|", "\\|")


def figure_index(figures: Iterable[Figure]) -> str:
    """The Markdown page: one table row per figure, in catalogue order."""
    lines = [
        HEADER,
        "| id | title | source | rules | entry functions | outputs |",
        "|---|---|---|---|---|---|",
    ]
    for f in figures:
        entries = (f"[`{e}`](../{entry_file(e)})" for e in f.entries)
        cells = (
            f"`{f.id}`",
            _text(f.title),
            _text(f.source),
            _cell(f"`{r}`" for r in f.rules),
            _cell(entries),
            _cell(f"`{o}`" for o in f.outputs),
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


__all__ = ["HEADER", "entry_file", "figure_index"]
