"""The figure jobs of chapters 5 and 6 (Valizadegan 2010, sections 5.4 and 6.4): merge and
summarise the run CSVs (:mod:`.summary`), write the tidy CSV, the summary statistics the
claims read and their samples, draw (:mod:`.figure`); and the same for the supplementary eta
sweep."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boostrank.experiments.chapter5_6.figure import draw, draw_eta_sweep
from boostrank.experiments.chapter5_6.spec import EtaFigureSpec, FigureSpec
from boostrank.experiments.chapter5_6.summary import (
    eta_best,
    figure_tables,
    load_eta_runs,
    load_finals,
    load_runs,
    published_best_gamma,
    summary_samples,
)

if TYPE_CHECKING:
    import pandas as pd


def make_figure(spec: FigureSpec) -> pd.DataFrame:
    """Draw one figure and write its tidy CSV and its summary statistics (``claims``: the
    registry Figure 6.1's published best gammas are read from), and from the runs' ``finals``
    the summary's ``samples``."""
    from boostrank.io import write_text

    figure = spec.figure
    runs = load_runs(spec.inputs)
    drawn, tidy, stats = figure_tables(figure, runs, spec.tolerance, gap=spec.gap)
    if spec.samples is not None:
        found = summary_samples(figure, drawn, load_finals(spec.finals))
        write_text(spec.samples, found.to_csv(index=False))
    published = (
        published_best_gamma(spec.claims, drawn["dataset"].unique())
        if figure == "thesis-fig6_1"
        else {}
    )
    draw(figure, drawn, runs, spec.figure_prefix, published)
    write_text(spec.csv, tidy.to_csv(index=False))
    write_text(spec.summary, stats.to_csv(index=False))
    return tidy


def eta_sweep_figure(spec: EtaFigureSpec) -> pd.DataFrame:
    """The eta sweep's job: its runs merged into one CSV, the exponential gradient's best
    gamma per (data set, input scale, factor) drawn."""
    from boostrank.io import write_text

    runs = load_eta_runs(spec.inputs)
    write_text(spec.csv, runs.to_csv(index=False))
    best = eta_best(runs)
    draw_eta_sweep(best, spec.figure_prefix, runs["provenance"])
    return best


__all__ = ["eta_sweep_figure", "make_figure"]
