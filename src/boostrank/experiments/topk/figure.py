"""Renders Table 1 (CSV, Markdown, LaTeX) and draws Figure 2 of Zhang, Jung & Tewari (2019) from
the frames of :mod:`boostrank.experiments.topk.summary`; the jobs (:mod:`.make`) write the
results CSVs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from boostrank.experiments.topk.summary import Figure2, table1_shown

if TYPE_CHECKING:
    import pandas as pd


def write_table1(frame: pd.DataFrame, prefix: Path | str) -> None:
    """Table 1 as ``<prefix>.{csv,md,tex}``: its shown cells and caption."""
    from boostrank.report.render import write_table

    shown, caption = table1_shown(frame)
    write_table(prefix, frame, shown, caption)


def draw_figure2(data: Figure2, prefix: Path | str) -> None:
    """Figure 2: TopkBBM's learning curves on one data set for several k (mean over seeds of
    the loss averaged over each window of rounds), the mean's 95% band over the seeds."""
    import numpy as np

    from boostrank.plots import pyplot, save_figure, shade_band

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
    save_figure(fig, prefix, [data.provenance])


__all__ = ["draw_figure2", "write_table1"]
