"""Captions for Snakemake's own report (``make report``: ``snakemake --report``).

Every figure's PNG and every table's CSV is marked ``report(...)`` in the workflow, all with one
caption file: this module writes it after the run, so each caption carries what the run found
(the data each figure was made from, its claims' verdicts), not only what the catalogue says.
Snakemake renders a caption as a Jinja template with the job that made the file as
``snakemake``; the file holds one block per figure, shown when that figure's files are among the
job's outputs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from boostrank.io import write_text
from boostrank.report import guard_counts
from boostrank.report.claims import verdict_tally
from boostrank.report.protocol import Reduction, label, reduced_for
from boostrank.workflow.catalog import Figure

if TYPE_CHECKING:
    import pandas as pd


def _rst(text: object) -> str:
    """``text`` with reStructuredText's inline markup characters escaped."""
    out = str(text).replace("\\", "\\\\")
    for char in "*`|_":
        out = out.replace(char, "\\" + char)
    return out


def _data_line(figure: Figure, inventory: pd.DataFrame) -> str:
    if not figure.datasets or not len(inventory):
        return ""
    kinds = inventory.set_index("dataset")["data_kind"].to_dict()
    parts = []
    for name in figure.datasets:
        kind = kinds.get(name, "not fetched")
        shown = "**synthetic stand-in**" if kind == "synthetic" else kind
        parts.append(f"{_rst(name)} ({shown})")
    return "Data this run used: " + ", ".join(parts) + "."


def _claims_lines(figure: Figure, claims: pd.DataFrame) -> list[str]:
    mine = claims[claims["figure"] == figure.id]
    if not len(mine):
        return ["No published number of this figure is checked as a claim."]
    lines = [f"Claims: {verdict_tally(mine['verdict'])}.", ""]
    for row in mine.itertuples():
        diagnosis = getattr(row, "diagnosis", "")
        lines.append(
            f"- ``{row.claim_id}``: {row.verdict} (published {_rst(row.published or '-')}, "
            f"reproduced {_rst(row.reproduced or '-')}{_interval(row)})"
            + (f"; {_rst(diagnosis)}" if diagnosis else "")
        )
    return lines


def _interval(row: Any) -> str:
    """``, mean m [low, high] over n queries`` where the claim has samples, else nothing."""
    if str(row.n) in ("", "1") or not row.ci_low:
        return ""
    return _rst(f"; mean {row.mean}, 95% interval [{row.ci_low}, {row.ci_high}], {row.interval}")


def caption(
    figure: Figure,
    claims: pd.DataFrame,
    inventory: pd.DataFrame,
    reduced: list[Reduction] | None = None,
    guards: pd.DataFrame | None = None,
) -> str:
    """A figure's caption in reStructuredText; it says "Reduced protocol" where the run changed
    a printed key of the figure's section (``reduced``: the run's reduced keys), and lists the
    figure's guard counts (``guards``: :func:`boostrank.report.guard_counts.summary`)."""
    lines = [f"**{_rst(figure.title)}** ({_rst(figure.id)})", "", f"{_rst(figure.source)}."]
    if figure.description:
        lines += ["", _rst(" ".join(figure.description.split()))]
    mine = label(reduced_for(figure.id, reduced or []))
    if mine:
        lines += ["", f"**{_rst(mine[0].upper() + mine[1:])}**: not the reproduction's result."]
    data = _data_line(figure, inventory)
    if data:
        lines += ["", data]
    lines += ["", *_claims_lines(figure, claims)]
    fired = [] if guards is None else guard_counts.figure_lines(guards, figure.id)
    if fired:
        lines += ["", "Guards (steps the text lacks; results/guards/):", ""]
        lines += [f"- {_rst(text)}" for text in fired]
    return "\n".join(lines)


def _jinja_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_captions(
    out: str,
    figures: Iterable[Figure],
    claims: pd.DataFrame,
    inventory: pd.DataFrame,
    reduced: list[Reduction] | None = None,
    guards: pd.DataFrame | None = None,
) -> None:
    """Write the one caption file every ``report(...)`` output points to."""
    blocks = ["{% set made = snakemake.output | list %}"]
    for figure in figures:
        files = ", ".join(_jinja_string(o) for o in figure.outputs)
        blocks += [
            f"{{% if [{files}] | select('in', made) | list %}}",
            "{% raw %}",
            caption(figure, claims, inventory, reduced, guards),
            "{% endraw %}",
            "{% endif %}",
        ]
    write_text(out, "\n".join(blocks) + "\n")
