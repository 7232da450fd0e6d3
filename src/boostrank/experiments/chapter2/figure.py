"""Figures 2.1-2.3 of Valizadegan (2010), chapter 2, section 2.4, drawn from the tidy results
of :mod:`boostrank.experiments.chapter2.summary`:

- Figure 2.1: one panel per data set, error against % labelled, one line per method;
- Figure 2.2: MCSSB's error against C (log scale) at 2% labelled, Tree as a horizontal line;
- Figure 2.3: error against tree depth at 2% labelled (stump to fully grown) for Tree,
  ASSEMBLE and MCSSB.

Kept apart from the training code so that redrawing never retrains; the figure job
(:mod:`.make`) writes the results files.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter2.spec import DATASETS, METHODS, Method
from boostrank.experiments.chapter2.summary import (
    constant_class_share,
    depth_positions,
    mean_full_depth,
)
from boostrank.plots import BAND_ALPHA, shade_band

if TYPE_CHECKING:
    import pandas as pd

STYLE = {
    "tree": ("#7f7f7f", "s", "--"),
    "assemble": ("#1f77b4", "^", "-"),
    "mcssb": ("#d62728", "o", "-"),
    "mcssb_uniform": ("#9467bd", "v", ":"),
    "mcssb_absolute": ("#2ca02c", "D", "-."),
}
TITLES = {
    "thesis-fig2_1": "Figure 2.1 (Valizadegan 2010): error rates with 2-10% labelled examples",
    "thesis-fig2_2": "Figure 2.2 (Valizadegan 2010): MCSSB error rate against C (2% labelled)",
    "thesis-fig2_3": "Figure 2.3 (Valizadegan 2010): error rate against tree depth (2% labelled)",
}


def _panel_grid(n: int) -> tuple[Any, Any, Any]:
    from boostrank.plots import pyplot

    plt = pyplot()
    cols = 4
    rows = -(-(n + 1) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols, 3.2 * rows), squeeze=False)
    return plt, fig, axes.ravel()


XLABELS = {
    "thesis-fig2_1": "% labelled examples",
    "thesis-fig2_2": "C",
    "thesis-fig2_3": "tree depth",
}
FULL_NOTE = "The last point of each panel is the fully grown tree (at its mean depth)"


def _plot_method(ax: Any, figure: str, method: Method, line: pd.DataFrame, full: float) -> Any:
    """One method's line of a panel with its band: error against % labelled (Figure 2.1),
    against C on a log scale with Tree as a horizontal line (Figure 2.2), or against the depth
    with the fully grown tree at ``full`` (Figure 2.3). Returns its legend handle."""
    key = method.key
    color, marker, style = STYLE[key]
    kw = {
        "color": color,
        "marker": marker,
        "markersize": 4,
        "linestyle": style,
        "linewidth": 2.0 if key == "mcssb" else 1.3,
        "label": method.label,
    }
    if figure == "thesis-fig2_1":
        line = line.sort_values("fraction")
        (h,) = ax.plot(line["fraction"], line["error"], **kw)
        _band(ax, line["fraction"], line, color)
    elif figure == "thesis-fig2_2" and key == "tree":
        h = ax.axhline(
            float(line["error"].iloc[0]),
            color=color,
            linestyle="--",
            linewidth=1.3,
            label="Tree (2% labelled)",
        )
        low, high = float(line["ci_low"].iloc[0]), float(line["ci_high"].iloc[0])
        ax.axhspan(low, high, color=color, alpha=BAND_ALPHA, linewidth=0)
    elif figure == "thesis-fig2_2":
        line = line.sort_values("C")
        (h,) = ax.plot(line["C"], line["error"], **kw)
        _band(ax, line["C"], line, color)
        ax.set_xscale("log")
    else:
        line = line.assign(x=depth_positions(line, full)).sort_values("x")
        (h,) = ax.plot(line["x"], line["error"], **kw)
        _band(ax, line["x"], line, color)
    return h


def _draw_panel(
    ax: Any, figure: str, cells: pd.DataFrame, ds: str, handles: dict[str, Any]
) -> bool:
    """One data set's panel: a line per method, the title and axes. True when a method's line
    ends at the fully grown tree (Figure 2.3)."""
    part = cells[cells["dataset"] == ds]
    label = part["dataset_label"].iloc[0]
    full = mean_full_depth(cells, ds) if figure == "thesis-fig2_3" else float("nan")
    drawn = False
    for m in METHODS:
        line = part[part["method_id"] == m.key]
        if line.empty:
            continue
        handles.setdefault(m.key, _plot_method(ax, figure, m, line, full))
        drawn = True
    n_rep = int(part["n_repeats"].max())
    ax.set_title(
        f"{label} ({n_rep} repeats)",
        fontsize=10,
        color="#a33" if "synthetic" in label else "black",
    )
    ax.set_xlabel(XLABELS[figure], fontsize=8)
    ax.set_ylabel("test error rate", fontsize=8)
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=8)
    return drawn and figure == "thesis-fig2_3"


def draw(figure: str, cells: pd.DataFrame, prefix: Path | str) -> None:
    """Draw one of Figures 2.1-2.3 (PNG and PDF)."""
    from boostrank.plots import save_figure

    datasets = [d for d in DATASETS if d in set(cells["dataset"])]
    _, fig, flat = _panel_grid(len(datasets))
    handles: dict[str, Any] = {}
    full_drawn = [
        _draw_panel(ax, figure, cells, ds, handles) for ax, ds in zip(flat, datasets, strict=False)
    ]
    note = FULL_NOTE if any(full_drawn) else ""
    for ax in flat[len(datasets) :]:
        ax.axis("off")
    ordered = [handles[m.key] for m in METHODS if m.key in handles]
    text = (
        "Mean test error over the repeats (bands: its 95% bootstrap interval over the "
        "repeats); one of five stratified partitions trains, four test. "
        + (note + ". " if note else "")
        + _constant_notes(cells)
    )
    legend_ax = flat[len(datasets)]
    legend_ax.legend(handles=ordered, loc="upper left", frameon=False, fontsize=9)
    legend_ax.text(
        0.0,
        0.0,
        _wrap(text, 50),
        fontsize=7,
        va="bottom",
        color="#444444",
        transform=legend_ax.transAxes,
    )
    fig.suptitle(TITLES[figure], fontsize=12)
    fig.tight_layout()
    save_figure(fig, prefix, cells["provenance"])


def _band(ax: Any, x: Any, line: pd.DataFrame, color: str) -> None:
    """Shade a line's 95% interval over the repeats (``ci_low`` .. ``ci_high``)."""
    shade_band(ax, x, line["ci_low"], line["ci_high"], color)


# The MCSSB baselines of section 2.4.1 whose similarity can leave them one class to predict:
# with S_ij = 1 every row gets the same target (tests/unit/test_mcssb.py gives the closed form);
# with S = I an unlabelled row has no similar row, so Algorithm 3's sample of unlabelled rows
# (mcssb_sampled_rows = unlabelled) has weight 0 and no tree is trained.
CONSTANT_CANDIDATES = {
    "mcssb_uniform": "MCSSB-Uniform (S_ij = 1)",
    "mcssb_absolute": "MCSSB-Absolute (S = I)",
}


def _constant_notes(cells: pd.DataFrame) -> str:
    """For each baseline of CONSTANT_CANDIDATES with runs that predicted a single class, the
    share of such runs: at 100% its curve is a constant-class error."""
    notes = []
    for method_id, label in CONSTANT_CANDIDATES.items():
        share = constant_class_share(cells, method_id)
        if share == 1.0:
            notes.append(
                f"{label} predicted a single class in every run: its curve is a "
                "constant-class error."
            )
        elif share:
            notes.append(f"{label} predicted a single class in {share:.0%} of its runs.")
    return " ".join(notes)


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


__all__ = ["STYLE", "TITLES", "draw"]
