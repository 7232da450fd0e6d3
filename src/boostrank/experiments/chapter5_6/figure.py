"""Figures 5.1, 5.2, 6.1 and 6.2 of Valizadegan (2010), chapters 5-6, drawn from the lines
:mod:`boostrank.experiments.chapter5_6.summary` computes from the run CSVs, and the
supplementary eta sweep's figure; the figure jobs (:mod:`.make`) write the results files.

Kept apart from the run code: redrawing never reruns a learner.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter5_6.summary import runs_per_method

if TYPE_CHECKING:
    import pandas as pd

TITLES = {
    "thesis-fig5_1": "Figure 5.1 (Valizadegan 2010): cumulative error over trials at each "
    "method's best gamma",
    "thesis-fig5_2": "Figure 5.2 (Valizadegan 2010): final error against gamma",
    "thesis-fig6_1": "Figure 6.1 (Valizadegan 2010): Banditron's final error against gamma",
    "thesis-fig6_2": "Figure 6.2 (Valizadegan 2010): cumulative error over trials, adaptive "
    "exploration",
}
STYLE = {
    "Exp. gradient": ("#d62728", "o", "-"),
    "Banditron": ("#1f77b4", "s", "-"),
    "Banditron_Pos": ("#2ca02c", "^", "-"),
    "Perceptron": ("#000000", "", "--"),
    "Banditron_Best": ("#1f77b4", "", "-"),
    "Banditron_Worst": ("#7f7f7f", "", ":"),
    "Banditron_ag0": ("#ff7f0e", "", "-"),
    "Banditron_ag1": ("#8c564b", "", "-"),
    "Banditron_ag2": ("#d62728", "", "-"),
    "Banditron_ag3": ("#9467bd", "", "--"),
}


def protocol_note(runs: pd.DataFrame) -> str:
    """What the learners were run with: the inputs' scaling, each method's importance weight
    (Algorithms 7, 9 and 10's delta) and the exponential gradient's factor on Eq. 5.12."""
    denominators = {"p_tilde": "p(y~)", "p_hat": "p(y^)"}
    weights = runs[runs["importance"].fillna("") != ""].groupby("method")["importance"].first()
    parts = [f"{m}: delta / {denominators[w]}" for m, w in weights.items()]
    factors = runs["eta_factor"].dropna().unique()
    if len(factors):
        parts.append("exp. gradient step: Eq. 5.12 x " + ", ".join(f"{f:g}" for f in factors))
    scaling = ", ".join(sorted(runs["scaling"].dropna().unique()))
    inputs = "as given" if scaling == "none" else f"scaled ({scaling})"
    return f"Inputs {inputs}; " + "; ".join(parts) + "."


# --------------------------------------------------------------------------- drawing
def _panels(n: int, plt: Any) -> tuple[Any, Any]:
    cols = 4
    rows = -(-(n + 1) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols, 3.2 * rows), squeeze=False)
    return fig, axes.ravel()


def _finish(fig: Any, flat: Any, n: int, handles: dict[str, Any], title: str, text: str) -> None:
    import textwrap

    for ax in flat[n:]:
        ax.axis("off")
    if n < len(flat):
        flat[n].legend(handles=list(handles.values()), loc="upper left", frameon=False, fontsize=8)
    note = "\n".join(textwrap.wrap(text, 160))
    fig.suptitle(f"{title}\n{note}", fontsize=10)
    fig.tight_layout()


def _style(ax: Any, label: str, synthetic: bool) -> None:
    ax.set_title(label, fontsize=10, color="#a33" if synthetic else "black")
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=8)


BAND = (
    "Bands: the mean's 95% interval over the runs, mean +- 1.96 sd / sqrt(runs) (the claims' "
    "intervals bootstrap each run's final error)."
)


def _band(ax: Any, x: Any, mean: Any, line: pd.DataFrame, colour: str) -> None:
    """Shade mean +- 1.96 sd / sqrt(runs) of a line (the run CSVs keep the sd over runs),
    clipped to the error rate's range [0, 1]."""
    import numpy as np

    from boostrank.plots import shade_band

    half = 1.96 * line["sd"].to_numpy(float) / np.sqrt(line["runs"].to_numpy(float))
    shade_band(ax, x, np.clip(mean - half, 0, 1), np.clip(mean + half, 0, 1), colour)


def draw_against_gamma(
    final: pd.DataFrame, prefix: Path | str, title: str, text: str, published: dict[str, float]
) -> None:
    """Final error against gamma, one panel per data set, one line per method."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(final["dataset"]))
    fig, flat = _panels(len(datasets), plt)
    handles: dict[str, Any] = {}
    for ax, ds in zip(flat, datasets, strict=False):
        part = final[final["dataset"] == ds]
        for method, line in part.groupby("method", sort=False):
            colour, marker, style = STYLE.get(method, ("#333333", "o", "-"))
            (h,) = ax.plot(
                line["gamma"],
                line["final_error"],
                color=colour,
                marker=marker or "o",
                markersize=3.5,
                linestyle=style,
                label=method,
            )
            _band(ax, line["gamma"], line["final_error"], line, colour)
            handles.setdefault(method, h)
        if ds in published:
            h = ax.axvline(
                published[ds],
                color="#999999",
                linestyle=":",
                linewidth=1.2,
                label="best gamma stated in section 6.1",
            )
            handles.setdefault("published", h)
        _style(ax, part["dataset_label"].iloc[0], part["data_kind"].iloc[0] == "synthetic")
        ax.set_xlabel("gamma", fontsize=8)
        ax.set_ylabel("final cumulative error rate", fontsize=8)
    _finish(fig, flat, len(datasets), handles=handles, title=title, text=text)
    save_figure(fig, prefix, final["provenance"])


def draw_over_trials(curves: pd.DataFrame, prefix: Path | str, title: str, text: str) -> None:
    """Cumulative error against trials, one panel per data set, one line per method."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(curves["dataset"]))
    fig, flat = _panels(len(datasets), plt)
    handles: dict[str, Any] = {}
    for ax, ds in zip(flat, datasets, strict=False):
        part = curves[curves["dataset"] == ds]
        for (method, gamma), line in part.groupby(["method", "gamma"], sort=False, dropna=False):
            colour, _, style = STYLE.get(method, ("#333333", "", "-"))
            tag = "" if gamma != gamma else f" (gamma {gamma:g})"  # NaN: no fixed gamma
            (h,) = ax.plot(
                line["trial"],
                line["error"],
                color=colour,
                linestyle=style,
                linewidth=1.3,
                label=method,
            )
            _band(ax, line["trial"], line["error"], line, colour)
            handles.setdefault(method, h)
            if tag:
                ax.annotate(
                    tag.strip(" ()"),
                    (line["trial"].iloc[-1], line["error"].iloc[-1]),
                    fontsize=6,
                    color=colour,
                    xytext=(2, 0),
                    textcoords="offset points",
                )
        _style(ax, part["dataset_label"].iloc[0], part["data_kind"].iloc[0] == "synthetic")
        ax.set_xscale("log")
        ax.set_xlabel("trials", fontsize=8)
        ax.set_ylabel("cumulative error rate", fontsize=8)
    _finish(fig, flat, len(datasets), handles=handles, title=title, text=text)
    save_figure(fig, prefix, curves["provenance"])


# --------------------------------------------------------------------------- one figure
def draw(
    figure: str,
    drawn: pd.DataFrame,
    runs: pd.DataFrame,
    prefix: Path | str,
    published: dict[str, float],
) -> None:
    """Draw one of Figures 5.1, 5.2, 6.1 and 6.2 from its drawn lines (``drawn``), its note
    on how the runs were made (``runs``) and, for Figure 6.1, the best gamma section 6.1
    states per data set (``published``)."""
    runs_note = ", ".join(f"{m}: {r} runs" for m, r in runs_per_method(runs).items())
    common = (
        "Cumulative error = mistakes of the predicted label / trials so far, mean over "
        f"random orderings ({runs_note}). {protocol_note(runs)} " + BAND
    )
    if figure in ("thesis-fig5_2", "thesis-fig6_1"):
        text = common + " Each point: one gamma of the grid; lower is better."
        draw_against_gamma(drawn, prefix, TITLES[figure], text, published)
    elif figure == "thesis-fig5_1":
        text = (
            common + " Bandit methods at the gamma of their lowest final error (grid of "
            "Figure 5.2); the Perceptron gets full feedback."
        )
        draw_over_trials(drawn, prefix, TITLES[figure], text)
    else:  # thesis-fig6_2 (figure_tables rejects any other)
        text = (
            common + " Banditron_Best/Worst: the best and worst gamma of Figure 6.1's "
            "sweep, rerun; ag0-ag3: adaptive gamma_t (omega(z) = (1+z)^0.1)."
        )
        draw_over_trials(drawn, prefix, TITLES[figure], text)


def draw_eta_sweep(best: pd.DataFrame, prefix: Path | str, provenance: Any) -> None:
    """Supplementary to Figures 5.1/5.2: the exponential gradient's final error at its best
    gamma against the factor on Eq. 5.12's step, for inputs scaled to ||x||_inf <= 1 and raw,
    one panel per data set, with how far theta moved (max |theta - theta^0|)."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(best["dataset"]))
    fig, axes = plt.subplots(2, len(datasets), figsize=(4.2 * len(datasets), 5.6), squeeze=False)
    style = {"linf": ("#d62728", "o", "inputs scaled, ||x||_inf <= 1"),
             "raw": ("#1f77b4", "s", "raw inputs")}  # fmt: skip
    for col, ds in enumerate(datasets):
        part = best[best["dataset"] == ds]
        for scale, (color, marker, label) in style.items():
            line = part[part["input_scale"] == scale].sort_values("eta_factor")
            if line.empty:
                continue
            axes[0, col].plot(line["eta_factor"], line["error"], color=color, marker=marker,
                              label=label)  # fmt: skip
            axes[1, col].plot(line["eta_factor"], line["theta_shift"], color=color,
                              marker=marker, label=label)  # fmt: skip
        axes[0, col].set_title(part["dataset_label"].iloc[0], fontsize=10)
        axes[0, col].set_ylabel("final error at the best gamma", fontsize=8)
        axes[1, col].set_ylabel("max |theta - theta0|", fontsize=8)
        axes[1, col].set_yscale("log")
        for ax in axes[:, col]:
            ax.set_xscale("log")
            ax.set_xlabel("factor on Eq. 5.12's step (section 5.4: 1e-5)", fontsize=8)
            ax.grid(alpha=0.3)
            ax.tick_params(labelsize=8)
    axes[0, 0].legend(fontsize=8, frameon=False)
    fig.suptitle("Supplementary to Figures 5.1-5.2: the exponential gradient's step factor",
                 fontsize=11)  # fmt: skip
    fig.tight_layout()
    save_figure(fig, prefix, provenance)


__all__ = ["STYLE", "TITLES", "draw", "draw_against_gamma", "draw_eta_sweep",
           "draw_over_trials"]  # fmt: skip
