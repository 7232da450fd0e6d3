"""Writes Table 1 (CSV, Markdown, LaTeX) and draws Figure 2 of Zhang, Jung & Tewari (2019) from
the frames of :mod:`boostrank.experiments.topk.summary`."""

from __future__ import annotations

from typing import Any

from boostrank.experiments.topk.spec import Figure2Spec, Table1Spec
from boostrank.experiments.topk.summary import (
    figure2_summary,
    table1_frame,
    table1_samples,
    table1_shown,
    table1_summary,
)


def make_table1(spec: Table1Spec) -> Any:
    """Write results/topk-table1.csv, its summary, each seed's loss (``samples``: the claims'
    intervals), and the table (CSV, Markdown, LaTeX)."""
    from boostrank.io import write_text
    from boostrank.report.render import write_table

    frame = table1_frame(spec.runs, spec.splits, spec.claims)
    write_text(spec.csv, frame.to_csv(index=False))
    if spec.samples is not None:
        write_text(spec.samples, table1_samples(spec.runs).to_csv(index=False))
    write_text(spec.summary, table1_summary(frame).to_csv(index=False))
    shown, caption = table1_shown(frame)
    write_table(spec.table_prefix, frame, shown, caption)
    return frame


def make_figure2(spec: Figure2Spec) -> Any:
    """Figure 2: TopkBBM's learning curves on one data set for several k (mean over seeds of
    the loss averaged over each ``window`` rounds), its CSV and the convergence summary."""
    import numpy as np

    from boostrank.io import write_text
    from boostrank.plots import pyplot, save_figure, shade_band

    data = figure2_summary(spec.runs, spec.tolerance, spec.smooth)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for curve in data.curves:
        x, mean, sd = curve.rounds, curve.mean, curve.sd
        line = ax.plot(x, mean, lw=1.2, label=f"k = {curve.k}")[0]
        if curve.n_seeds > 1:  # the mean's 95% interval over the seeds
            half = 1.96 * sd / np.sqrt(curve.n_seeds)
            shade_band(ax, x, mean - half, mean + half, line.get_color())
    ax.set_xlabel("round")
    ax.set_ylabel(f"weighted rank loss (mean of {data.window} rounds)")
    seeds = data.seeds
    over = (
        f"mean over {seeds[0]} seeds, shaded: mean ± 1.96 sd/√seeds" if seeds[0] > 1 else "one seed"
    )
    ax.set_title(f"TopkBBM on {data.label}, by k ({over})", fontsize=10)
    ax.legend()
    ax.grid(alpha=0.3)
    save_figure(fig, spec.figure_prefix, [data.provenance])
    curves_frame = data.frame
    write_text(spec.csv, curves_frame.to_csv(index=False))
    write_text(spec.summary, data.summary.to_csv(index=False))
    return curves_frame


__all__ = ["make_figure2", "make_table1"]
