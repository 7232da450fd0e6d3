"""The figure job of Figures 2.1-2.3 (Valizadegan 2010, section 2.4): merge and summarise the
run CSVs (:mod:`.summary`), write the results CSVs, draw (:mod:`.figure`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from boostrank.experiments.chapter2.figure import draw
from boostrank.experiments.chapter2.spec import FigureSpec
from boostrank.experiments.chapter2.summary import (
    figure_cells,
    figure_guards,
    read_runs,
    summarise,
    summary_samples,
)

if TYPE_CHECKING:
    import pandas as pd


def make_figure(spec: FigureSpec) -> pd.DataFrame:
    """Merge the run CSVs into the figure's results CSV, summary CSV and its samples (each
    repeat's value, beside it as ``<summary>.samples.csv``), guard table (``spec.guards``),
    PNG and PDF; ``spec.seed`` seeds the bands' bootstrap."""
    from boostrank import guards
    from boostrank.io import write_text

    figure, options = spec.figure, {"fraction": spec.fraction, "C": spec.C, "depth": spec.depth}
    frame = read_runs(spec.runs)
    cells = figure_cells(figure, frame, options, spec.seed)
    stats = summarise(figure, cells)
    write_text(spec.csv, cells.to_csv(index=False))
    write_text(spec.summary, stats.to_csv(index=False))
    samples = summary_samples(figure, frame, options)
    write_text(Path(spec.summary).with_suffix(".samples.csv"), samples.to_csv(index=False))
    guards.write_table(spec.guards, figure, figure_guards(figure, frame, options))
    draw(figure, cells, spec.figure_prefix)
    return cells


__all__ = ["make_figure"]
