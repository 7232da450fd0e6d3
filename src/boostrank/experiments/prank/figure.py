"""Figures 6 and 7 of Crammer & Singer (2005), "Online Ranking by Projecting", section 6:
the time-averaged rank loss against rounds with 95% bands, drawn from the curves of
:mod:`boostrank.experiments.prank.jobs`, and the tidy CSV and summary statistics of
:mod:`boostrank.experiments.prank.summary` written beside them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.common import dataset_label
from boostrank.experiments.prank.jobs import run_fig6, run_fig7_file
from boostrank.experiments.prank.spec import Fig6Spec, Fig7Spec, label_of, mu_key
from boostrank.experiments.prank.summary import fig6_outputs, fig7_outputs, final_loss_samples

if TYPE_CHECKING:
    import pandas as pd

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


def make_fig6(
    result: dict[str, Any],
    settings: dict[str, Any],
    seed: int,
    csv: Path | str,
    summary: Path | str,
    prefix: Path | str,
    samples: Path | str | None = None,
) -> pd.DataFrame:
    """Write Figure 6's CSVs (``samples``: each run's final loss) and draw it, from the curves
    of :func:`boostrank.experiments.prank.jobs.run_fig6`."""
    from boostrank.io import write_text

    tidy, stats = fig6_outputs(result, settings, seed)
    write_text(csv, tidy.to_csv(index=False))
    write_text(summary, stats.to_csv(index=False))
    if samples is not None:
        write_text(samples, final_loss_samples(result).to_csv(index=False))
    draw_fig6(result, settings, prefix, str(tidy["provenance"].iloc[0]))
    return stats


def make_fig7(
    result: dict[str, Any],
    settings: dict[str, Any],
    meta: dict[str, Any],
    csv: Path | str,
    summary: Path | str,
    prefix: Path | str,
    samples: Path | str | None = None,
) -> pd.DataFrame:
    """Write Figure 7's CSVs (``samples``: each run's final loss) and draw it, from the curves
    of :func:`boostrank.experiments.prank.jobs.run_fig7_file` on MovieLens 100K (``meta``: its
    metadata)."""
    from boostrank.io import write_text

    tidy, stats = fig7_outputs(result, settings, meta)
    write_text(csv, tidy.to_csv(index=False))
    write_text(summary, stats.to_csv(index=False))
    if samples is not None:
        write_text(samples, final_loss_samples(result).to_csv(index=False))
    stand_in = meta["provenance"]["kind"] == "synthetic"
    label = dataset_label("MovieLens 100K", "synthetic" if stand_in else "real")
    draw_fig7(result, settings, prefix, str(tidy["provenance"].iloc[0]), label)
    return stats


def figure6(spec: Fig6Spec) -> pd.DataFrame:
    """Figure 6's job: every synthetic sequence of its learners, then its CSVs and figure."""
    result = run_fig6(spec.settings, spec.seed)
    return make_fig6(
        result, spec.settings, spec.seed, spec.csv, spec.summary, spec.figure_prefix, spec.samples
    )


def figure7(spec: Fig7Spec) -> pd.DataFrame:
    """Figure 7's job: every MovieLens sequence of its learners, then its CSVs and figure."""
    result, meta = run_fig7_file(spec.npz, spec.meta, spec.settings, spec.seed)
    return make_fig7(
        result, spec.settings, meta, spec.csv, spec.summary, spec.figure_prefix, spec.samples
    )


__all__ = [
    "MU_COLORS",
    "STYLE",
    "draw_fig6",
    "draw_fig7",
    "figure6",
    "figure7",
    "make_fig6",
    "make_fig7",
]
