"""Sengupta (2018), *Document Analysis*: draws Figures 4-7 (matplotlib) and writes the tables
(CSV, Markdown, LaTeX) from the frames of :mod:`boostrank.experiments.docan.summary`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boostrank.experiments.docan.summary import (
    Table,
    demo_table,
    figure4_table,
    figure5_summary,
    knn_summary,
    merge_frames,
    table1_frames,
    toy_table,
)
from boostrank.plots import pyplot, save_figure

if TYPE_CHECKING:
    import pandas as pd

_HIGHLIGHT, _OTHER, _PUBLISHED = "#1f77b4", "#b0b0b0", "#d62728"


def _write_csv(path: Path | str, frame: pd.DataFrame) -> None:
    from boostrank.io import write_text

    write_text(path, frame.to_csv(index=False))


def _write_table(prefix: Path | str, table: Table) -> pd.DataFrame:
    from boostrank.report.render import write_table

    write_table(prefix, table.tidy, table.shown, table.caption)
    return table.tidy


# --------------------------------------------------------------------------- Figure 4


def figure4(
    counts: pd.DataFrame,
    provenance_path: Path,
    claims_path: Path,
    csv: Path,
    prefix: Path,
    *,
    top_n: int = 10,
    counting: str = "tags",
    shown: int = 30,
) -> pd.DataFrame:
    """Figure 4: the topic counts (:func:`.jobs.topic_frequency_table`) with the published
    counts beside them."""
    table = figure4_table(counts, provenance_path, claims_path, csv, counting=counting)
    _write_csv(csv, table)

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
    return table


# --------------------------------------------------------------------------- Figure 5


def plot_figure5(csv: Path, claims_path: Path, prefix: Path) -> None:
    """Draw Figure 5 from its results CSV (the published elbow band from the claims)."""
    data = figure5_summary(csv, claims_path)
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


def plot_knn(csv: Path, claims_path: Path, prefix: Path) -> None:
    """Draw Figure 6 or 7 from its results CSV, with the published maximum where one exists."""
    data = knn_summary(csv, claims_path)
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


# --------------------------------------------------------------------------- tables


def table1(results_csv: Path, claims_path: Path, prefix: Path) -> pd.DataFrame:
    """The random-forest table (CSV, Markdown, LaTeX) with the published accuracies beside."""
    return _write_table(prefix, table1_frames(results_csv, claims_path, prefix))


def merge(table: str, inputs: list[str], claims_path: str, prefix: Path | str) -> pd.DataFrame:
    """Tables 2-6: per-fold rows, their means over the folds, the validation-selected
    configuration and the report's published values, as ``<prefix>.csv/.md/.tex``."""
    return _write_table(prefix, merge_frames(table, inputs, claims_path, prefix))


def write_toy_table(tidy: pd.DataFrame, claims_path: str, prefix: Path | str) -> pd.DataFrame:
    """Table 7 (``<prefix>.csv/.md/.tex``) from the toy job's rows, beside the report's."""
    return _write_table(prefix, toy_table(tidy, claims_path, prefix))


def write_demo_table(tidy: pd.DataFrame, claims_path: str, prefix: Path | str) -> pd.DataFrame:
    """Table 8 (``<prefix>.csv/.md/.tex``) from the demo job's rows, beside the report's."""
    return _write_table(prefix, demo_table(tidy, claims_path, prefix))


__all__ = [
    "figure4",
    "merge",
    "plot_figure5",
    "plot_knn",
    "table1",
    "write_demo_table",
    "write_toy_table",
]
