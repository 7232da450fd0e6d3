"""The figure job of Zheng et al. (2007), section 4: merge the training jobs' runs into Table 1
and Figure 1 (:mod:`.summary`), write their results CSVs and samples, render the table and
draw the figure (:mod:`.figure`)."""

from __future__ import annotations

from typing import Any

from boostrank.experiments.qbrank.figure import draw_figure, write_table
from boostrank.experiments.qbrank.spec import FIGURE_ID, PERCENTS, TABLE_ID, FigureSpec
from boostrank.experiments.qbrank.summary import figure1, figure1_samples, load_runs, table1


def make_outputs(spec: FigureSpec) -> dict[str, Any]:
    """Merge the jobs into Table 1, Figure 1 and their results CSVs (``figure_samples``: each
    L3 query's DCG, from the jobs' per-query files ``queries``)."""
    from boostrank.io import write_text

    runs = load_runs(spec.inputs)
    t_tidy, t_stats = table1(runs, spec.table_trees)
    f_tidy, f_stats = figure1(runs, spec.convergence_trees)
    write_text(spec.table_csv, t_tidy.to_csv(index=False))
    write_text(spec.table_summary, t_stats.to_csv(index=False))
    write_text(spec.figure_csv, f_tidy.to_csv(index=False))
    write_text(spec.figure_summary, f_stats.to_csv(index=False))
    if spec.figure_samples is not None:
        write_text(spec.figure_samples, figure1_samples(spec.queries).to_csv(index=False))
    write_table(t_tidy, spec.table_prefix, spec.table_trees, spec.trees, spec.ties)
    draw_figure(f_tidy, spec.figure_prefix, str(f_tidy["measure"].iloc[0]))
    return {TABLE_ID: t_tidy, FIGURE_ID: f_tidy, "percents": PERCENTS}


__all__ = ["make_outputs"]
