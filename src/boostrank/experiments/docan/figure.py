"""Sengupta (2018), *Document Analysis*: draws Figures 4-7 (matplotlib) and writes the tables
(CSV, Markdown, LaTeX) from what :mod:`boostrank.experiments.docan.summary` makes of the
results; :mod:`.make` runs the jobs that do both."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boostrank.experiments.docan.summary import Figure5, KnnCurve, Table
from boostrank.plots import pyplot, save_figure

if TYPE_CHECKING:
    import pandas as pd

_HIGHLIGHT, _OTHER, _PUBLISHED = "#1f77b4", "#b0b0b0", "#d62728"


def write_table(prefix: Path | str, table: Table) -> pd.DataFrame:
    """A table as ``<prefix>.csv/.md/.tex`` (its tidy frame is the CSV)."""
    from boostrank.report.render import write_table

    write_table(prefix, table.tidy, table.shown, table.caption)
    return table.tidy


# --------------------------------------------------------------------------- Figure 4


def draw_figure4(
    table: pd.DataFrame, prefix: Path | str, *, top_n: int = 10, shown: int = 30
) -> None:
    """Figure 4: the ``shown`` most frequent topics (:func:`.summary.figure4_table`), the top
    ``top_n`` highlighted, with the published counts beside them."""
    plt = pyplot()
    head = table.head(shown)
    fig, ax = plt.subplots(figsize=(10, 4.8), layout="constrained")
    colours = [_HIGHLIGHT if t else _OTHER for t in head["top10"]]
    x = np.arange(len(head))
    ax.bar(x, head["count"], color=colours, label=f"top {top_n} topics (reproduced)")
    pub = head[head["published_count"] != ""]
    ax.scatter(
        x[pub.index.to_numpy()],
        pub["published_count"].astype(float),
        marker="_",
        s=220,
        linewidths=2.5,
        color=_PUBLISHED,
        zorder=3,
        label="published (Figure 4 table)",
    )
    for xi, value in zip(x[:top_n], head["count"][:top_n], strict=True):
        ax.annotate(str(value), (xi, value), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, head["topic"], rotation=70, ha="right", fontsize=8)
    ax.set_xlabel("Topic")
    ax.set_ylabel("Frequency")
    ax.set_title(
        f"Figure 4: topics vs frequency (Reuters-21578 ModApte, {shown} most frequent "
        f"of {len(table)} topics)"
    )
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    save_figure(fig, prefix, table["provenance"])


# --------------------------------------------------------------------------- Figure 5


def draw_figure5(data: Figure5, prefix: Path | str) -> None:
    """Figure 5: the WSS curve, its elbows and the published elbow band; the mixture's
    information criteria."""
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4), layout="constrained")
    left.plot(data.ks, data.wss, "o-", color=_HIGHLIGHT, label="K-means")
    knee, second = data.knee, data.second
    left.axvline(knee, color=_PUBLISHED, ls="--", lw=1, label=f"elbow (Kneedle): k = {knee}")
    left.axvline(second, color="grey", ls=":", lw=1, label=f"largest 2nd difference: k = {second}")
    if data.band is not None:
        low, high = data.band
        left.axvspan(
            low,
            high,
            color="orange",
            alpha=0.15,
            label=f"published elbow (k = {low:g} to {high:g})",
        )
    left.set_xlabel("Number of clusters k")
    left.set_ylabel("Total within-cluster sum of squares")
    left.set_title("K-means on the training TF-IDF matrix")
    left.legend(frameon=False, fontsize=8)
    for name, marker in (("gmm_aic", "o-"), ("gmm_bic", "s-")):
        components, values = data.criteria[name]
        right.plot(components, values, marker, ms=4, label=name.removeprefix("gmm_").upper())
    right.set_xlabel("Number of mixture components")
    right.set_ylabel("Information criterion (lower is better)")
    right.set_title("Gaussian mixture on a TruncatedSVD of it")
    right.legend(frameon=False, fontsize=8)
    for ax in (left, right):
        ax.grid(alpha=0.3)
    fig.suptitle(
        "Figure 5: total within-cluster sum of squares vs number of clusters (Reuters-21578)"
    )
    save_figure(fig, prefix, data.provenance)


# --------------------------------------------------------------------------- Figures 6 and 7

_KNN_TITLES = {"cosine": "Figure 6: cosine distance vs k", "euclidean": "Figure 7: Euclidean vs k"}


def draw_knn(data: KnnCurve, prefix: Path | str) -> None:
    """Figure 6 or 7: accuracy against k, with the published maximum where one exists."""
    ks, accuracy, published = data.ks, data.accuracy, data.published
    best_k, best_accuracy = data.best_k, data.best_accuracy
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    ax.plot(ks, accuracy, "o-", ms=3, color=_HIGHLIGHT, label="reproduced (test set)")
    ax.plot(best_k, best_accuracy, "*", ms=12, color=_HIGHLIGHT)
    near_left = best_k - ks.min() < 0.15 * (ks.max() - ks.min())
    ax.annotate(
        f"max {best_accuracy:.1f}% at k = {best_k}",
        (best_k, best_accuracy),
        textcoords="offset points",
        xytext=(6 if near_left else 0, 9),
        ha="left" if near_left else "center",
        fontsize=8,
    )
    low = min(accuracy.min(), 100 * float(published) if published is not None else 100)
    ax.set_ylim(low - 3, best_accuracy + 4)
    if published is not None:
        ax.axhline(
            100 * float(published),
            color=_PUBLISHED,
            ls="--",
            lw=1,
            label=f"published maximum ({100 * float(published):.1f}%)",
        )
    ax.set_xlabel("k (number of neighbours)")
    ax.set_ylabel("Test accuracy (%)")
    ax.set_title(_KNN_TITLES.get(data.metric, f"{data.metric} vs k"))
    ax.legend(frameon=False, fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    save_figure(fig, prefix, data.provenance)


__all__ = ["draw_figure4", "draw_figure5", "draw_knn", "write_table"]
