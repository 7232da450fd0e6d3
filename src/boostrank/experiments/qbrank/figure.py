"""Zheng et al. (2007), NIPS, section 4: Table 1 (precision at K% on P3 of QBRank on P2, GBT
on L2 and RankSVM on P2), Figure 1 (DCG-5 on L3 against the number of trees; RankSVM a
horizontal line), drawn from the frames of :mod:`boostrank.experiments.qbrank.summary`; the
figure job (:mod:`.make`) writes their tidy CSVs.

Kept apart from the training code so that redrawing never retrains.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.qbrank.spec import MODELS, TIE_RULES
from boostrank.experiments.qbrank.summary import table1_cells

if TYPE_CHECKING:
    import pandas as pd

STYLE = {
    "gbt_l2": ("#1f77b4", "o"),
    "gbt_l1": ("#7f7f7f", "s"),
    "gbt_l1l2": ("#2ca02c", "^"),
    "qbrank_p2": ("#ff7f0e", "D"),
    "qbrank_p2l1": ("#d62728", "v"),
    "ranksvm_p2": ("#9467bd", ""),
}


def draw_figure(curves: pd.DataFrame, prefix: Path | str, measure: str) -> None:
    """Figure 1: DCG against trees, one panel per data set; RankSVM a horizontal line."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(curves["dataset"]))
    fig, axes = plt.subplots(1, len(datasets), figsize=(6.4 * len(datasets), 4.6), squeeze=False)
    for ax, ds in zip(axes[0], datasets, strict=True):
        part = curves[curves["dataset"] == ds]
        # the y range of every curve but a far-off one (GBT on MQ2008's all-zero L1 is a
        # constant scorer, far below the rest): that one is named, not drawn
        rest = part.loc[part["model"] != "gbt_l1", measure]
        lo, hi = float(rest.min()), float(rest.max())
        pad = max(0.15 * (hi - lo), 0.01)
        for model in MODELS:
            line = part[part["model"] == model.key]
            if line.empty:
                continue
            color, marker = STYLE[model.key]
            if line[measure].max() < lo - 3 * pad:
                ax.plot(
                    [],
                    [],
                    color=color,
                    marker=marker,
                    label=f"{model.label}: {float(line[measure].mean()):.3f}, below the axis",
                )
                continue
            if model.algorithm == "ranksvm":
                ax.axhline(
                    float(line[measure].iloc[0]),
                    color=color,
                    linestyle="--",
                    label=f"{model.label} ({float(line[measure].iloc[0]):.4f})",
                )
                continue
            n = line["trees"].astype(int)
            ax.plot(
                n,
                line[measure],
                color=color,
                marker=marker,
                markersize=4,
                label=model.label,
                linewidth=2.0 if model.algorithm == "qbrank" else 1.3,
            )
        splits = int(part["n_splits"].max())
        ax.set_title(
            f"{part['dataset_label'].iloc[0]}: {measure.upper().replace('DCG', 'DCG-')} v. "
            "iterations" + (f" (mean of {splits} splits)" if splits > 1 else ""),
            fontsize=10,
        )
        ax.set_xlabel("Iterations (number of trees)")
        ax.set_ylabel(
            f"{measure.upper().replace('DCG', 'DCG-')} on L3 (gain 2^r-1, discount 1/log2(1+i))"
        )
        ax.set_ylim(lo - pad, hi + pad)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    fig.suptitle(
        "Figure 1 (Zheng et al. 2007) on LETOR 4.0 in place of the Yahoo! data; "
        "gains 2^r-1 (the paper's are not given)",
        fontsize=10,
    )
    fig.tight_layout()
    save_figure(fig, prefix, curves["provenance"])


def write_table(
    tidy: pd.DataFrame,
    prefix: Path | str,
    table_trees: int,
    trees: dict[str, Any],
    ties: str,
) -> None:
    """``figures/tables/qbrank-table1.{csv,md,tex}``: precision at K% per data set; the caption
    states the tree settings and tie rule of the config that made it."""
    from boostrank.report.render import write_table as render

    splits = int(tidy["n_splits"].max())
    caption = (
        f"Table 1 (Zheng et al. 2007): precision at K% on P3, QBRank and GBT after "
        f"{table_trees} trees ({trees['max_leaf_nodes']} leaves, shrinkage "
        f"{trees['learning_rate']:g}), linear RankSVM; "
        + (
            f"mean ± sd over {splits} random L2/L3 splits; "
            if splits > 1
            else "one random L2/L3 split; "
        )
        + f"{TIE_RULES[ties]}. LETOR 4.0 in place of the paper's Yahoo! data: compare orderings, "
        "not values."
    )
    render(prefix, tidy, table1_cells(tidy), caption)


__all__ = ["STYLE", "draw_figure", "write_table"]
