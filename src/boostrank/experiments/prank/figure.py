"""Figures 6 and 7 of Crammer & Singer (2005), "Online Ranking by Projecting", section 6:
the time-averaged rank loss against rounds with 95% bands, drawn from the curves of
:mod:`boostrank.experiments.prank.jobs`; the figure jobs (:mod:`.make`) write the tidy CSV and
summary statistics of :mod:`boostrank.experiments.prank.summary` beside them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boostrank.experiments.prank.spec import label_of, mu_key

STYLE = {
    "prank": ("#d62728", "-"),
    "siprank": ("#ff7f0e", "-"),
    "noprank": ("#8c564b", "--"),
    "mcp": ("#1f77b4", "-"),
    "wh": ("#2ca02c", "-"),
}
MU_COLORS = ("#9467bd", "#17becf", "#bcbd22", "#e377c2", "#7f7f7f")


def _plot_curves(ax: Any, curves: dict[str, Any], keys: list[str], band: bool = True) -> None:
    import numpy as np

    from boostrank.plots import shade_band

    for i, key in enumerate(keys):
        if key not in curves:
            continue
        mean, ci = curves[key]
        T = np.arange(1, len(mean) + 1)
        color, style = STYLE.get(key, (MU_COLORS[i % len(MU_COLORS)], "-"))
        if key.startswith("mu_eta"):
            color, style = MU_COLORS[i % len(MU_COLORS)], "-"
        ax.plot(T, mean, color=color, linestyle=style, linewidth=1.4, label=label_of(key))
        if band:
            shade_band(ax, T, mean - ci, mean + ci, color)


def draw_fig6(
    result: dict[str, Any], settings: dict[str, Any], prefix: Path | str, provenance: str
) -> None:
    """Figure 6: time-averaged rank loss against rounds (log scale), 95% bands."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 4.6))
    _plot_curves(ax, result["curves"], list(settings["algorithms"]))
    ax.set_xscale("log")
    ax.set_xlabel("Round")
    ax.set_ylabel("Time-averaged rank loss")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=9)
    extra = (
        " (No-PRank is not in the paper's figure)" if "noprank" in settings["algorithms"] else ""
    )
    ax.set_title(
        f"Figure 6 (Crammer & Singer 2005): synthetic data, degree-2 polynomial kernel, "
        f"mean of {result['runs']} sequences, 95% bands{extra}",
        fontsize=9,
    )
    fig.tight_layout()
    save_figure(fig, prefix, [provenance])


def draw_fig7(
    result: dict[str, Any],
    settings: dict[str, Any],
    prefix: Path | str,
    provenance: str,
    label: str = "MovieLens 100K",
) -> None:
    """Figure 7: top additive learners, bottom Si-PRank vs Mu-PRank; one column per group."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    panels = result["panels"]
    fig, axes = plt.subplots(2, len(panels), figsize=(6.2 * len(panels), 8.0), squeeze=False)
    mus = ["siprank"] + [mu_key(e) for e in settings["mu_etas"]]
    for col, panel in enumerate(panels.values()):
        for row, keys in enumerate((list(settings["algorithms"]), mus)):
            ax = axes[row, col]
            _plot_curves(ax, panel["curves"], keys)
            ax.set_xlabel("Round")
            ax.set_ylabel("Time-averaged rank loss")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
            ax.set_title(
                f"{label} (substitute for EachMovie): users with >= "
                f"{panel['threshold_used']} ratings, {settings['runs']} runs",
                fontsize=9,
            )
    fig.suptitle(
        f"Figure 7 (Crammer & Singer 2005) on {label} in place of EachMovie "
        "(k = 5 ranks); 95% bands",
        fontsize=11,
    )
    fig.tight_layout()
    save_figure(fig, prefix, [provenance])


__all__ = ["MU_COLORS", "STYLE", "draw_fig6", "draw_fig7"]
