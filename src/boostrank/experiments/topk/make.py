"""The table and figure jobs of Zhang, Jung & Tewari (2019), sections 4.1-4.2: merge the run
records into Table 1 and Figure 2 (:mod:`.summary`), write their results CSVs, render the
table and draw the figure (:mod:`.figure`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boostrank.experiments.topk.figure import draw_figure2, write_table1
from boostrank.experiments.topk.spec import FIGURE_ID, TABLE_ID, Figure2Spec, Table1Spec
from boostrank.experiments.topk.summary import (
    figure2_summary,
    table1_frame,
    table1_samples,
    table1_summary,
)


def write_guards(path: str | None, figure: str, runs: Sequence[Path | str]) -> None:
    """The figure's guard table (:func:`boostrank.guards.write_table`) from its run records
    (a record written before the learners counted guards has none)."""
    from boostrank import guards
    from boostrank.io import read_json

    if path is None:
        return
    guards.write_table(path, figure, [read_json(r) for r in runs])


def make_table1(spec: Table1Spec) -> Any:
    """Write results/topk-table1.csv, its summary, each seed's loss (``samples``: the claims'
    intervals), the table (CSV, Markdown, LaTeX) and the guard table."""
    from boostrank.io import write_text

    frame = table1_frame(spec.runs, spec.splits, spec.claims)
    write_text(spec.csv, frame.to_csv(index=False))
    if spec.samples is not None:
        write_text(spec.samples, table1_samples(spec.runs).to_csv(index=False))
    write_text(spec.summary, table1_summary(frame).to_csv(index=False))
    write_table1(frame, spec.table_prefix)
    write_guards(spec.guards, TABLE_ID, spec.runs)
    return frame


def make_figure2(spec: Figure2Spec) -> Any:
    """Figure 2: TopkBBM's learning curves on one data set for several k, its CSV, the
    convergence summary and the guard table."""
    from boostrank.io import write_text

    data = figure2_summary(spec.runs, spec.tolerance, spec.smooth)
    draw_figure2(data, spec.figure_prefix)
    write_text(spec.csv, data.frame.to_csv(index=False))
    write_text(spec.summary, data.summary.to_csv(index=False))
    write_guards(spec.guards, FIGURE_ID, spec.runs)
    return data.frame


__all__ = ["make_figure2", "make_table1", "write_guards"]
