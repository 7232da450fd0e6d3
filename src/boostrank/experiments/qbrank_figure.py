"""Zheng et al. (2007), NIPS, section 4: the merge of the per-model jobs of
:mod:`boostrank.experiments.qbrank` into Table 1 (precision at K% on P3 of QBRank on P2, GBT on
L2 and RankSVM on P2), Figure 1 (DCG-5 on L3 against the number of trees; RankSVM a horizontal
line), their tidy CSVs and the summary statistics the ordinal claims read.

Kept apart from the training code so that redrawing never retrains.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.qbrank import BY_KEY, FIGURE_ID, MODELS, PERCENTS, TABLE_ID

if TYPE_CHECKING:
    import pandas as pd

TABLE_MODELS = ("qbrank_p2", "gbt_l2", "ranksvm_p2")  # Table 1's columns, in its order
STYLE = {
    "gbt_l2": ("#1f77b4", "o"),
    "gbt_l1": ("#7f7f7f", "s"),
    "gbt_l1l2": ("#2ca02c", "^"),
    "qbrank_p2": ("#ff7f0e", "D"),
    "qbrank_p2l1": ("#d62728", "v"),
    "ranksvm_p2": ("#9467bd", ""),
}


def _kind(frame: pd.DataFrame) -> tuple[str, str]:
    kinds = list(dict.fromkeys(frame["data_kind"]))
    kind = "synthetic" if "synthetic" in kinds else kinds[0] if len(kinds) == 1 else "mixed"
    return kind, "; ".join(dict.fromkeys(frame["provenance"]))


def load_runs(inputs: Sequence[Path | str]) -> pd.DataFrame:
    """Every job's tidy rows, concatenated."""
    import pandas as pd

    frames = [
        pd.read_csv(p, dtype={"trees": str, "k_percent": str}, keep_default_na=False)
        for p in inputs
    ]
    runs = pd.concat(frames, ignore_index=True)
    runs["value"] = pd.to_numeric(runs["value"], errors="coerce")  # "" = not trained
    return runs


def _mean_over_splits(runs: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    grouped = runs.groupby(keys, sort=False)
    out = grouped.agg(
        value=("value", "mean"),
        sd=("value", lambda v: float(v.std(ddof=1)) if len(v) > 1 else float("nan")),
        n_splits=("value", "size"),
        label=("label", "first"),
        dataset_label=("dataset_label", "first"),
        data_kind=("data_kind", "first"),
        provenance=("provenance", "first"),
    ).reset_index()
    out["value"] = out["value"].round(6)
    out["sd"] = out["sd"].round(6)
    return out


def table1(runs: pd.DataFrame, table_trees: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 1 (tidy: dataset, K%, model, precision) and its summary statistics."""
    import pandas as pd

    prec = runs[(runs["measure"] == "precision") & runs["model"].isin(TABLE_MODELS)]
    prec = prec[(prec["trees"] == str(table_trees)) | (prec["model"] == "ranksvm_p2")]
    tidy = _mean_over_splits(prec, ["dataset", "k_percent", "model"])
    tidy["k_percent"] = tidy["k_percent"].astype(int)
    tidy["trees"] = [table_trees if m != "ranksvm_p2" else "" for m in tidy["model"]]
    tidy = tidy.sort_values(["dataset", "k_percent"], kind="stable").reset_index(drop=True)
    stats = []
    relations = (("qbrank_p2", "ranksvm_p2"), ("ranksvm_p2", "gbt_l2"), ("qbrank_p2", "gbt_l2"))
    for ds, part in tidy.groupby("dataset", sort=False):
        wide = part.pivot(index="k_percent", columns="model", values="value")
        kind, prov = _kind(part)
        for a, b in relations:
            if a not in wide or b not in wide:
                continue
            wins = wide[a] > wide[b]
            stats.append(
                {
                    "dataset": ds,
                    "statistic": f"{a}_gt_{b}_fraction",
                    "value": round(float(wins.mean()), 6),
                    "data_kind": kind,
                    "provenance": prov,
                    "note": f"fraction of K = 10..100% where {BY_KEY[a].label} has the higher "
                    f"precision at K% on P3 than {BY_KEY[b].label}",
                }
            )
    return tidy, pd.DataFrame(stats)


def figure1(runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 1's curves (tidy: dataset, model, trees, DCG) and their summary statistics."""
    import numpy as np
    import pandas as pd

    dcg = runs[runs["measure"].str.startswith("dcg")]
    measure = str(dcg["measure"].iloc[0])
    tidy = _mean_over_splits(dcg, ["dataset", "model", "trees"])
    tidy = tidy.rename(columns={"value": measure})
    tidy["measure"] = measure
    stats = []
    for ds, part in tidy.groupby("dataset", sort=False):
        kind, prov = _kind(part)
        boosted = part[part["trees"] != ""].copy()
        boosted["n"] = boosted["trees"].astype(int)
        wide = boosted.pivot(index="n", columns="model", values=measure)
        svm = part.loc[part["model"] == "ranksvm_p2", measure]
        if len(svm):
            wide["ranksvm_p2"] = float(svm.iloc[0])
        wide = wide.dropna(axis=1, how="all")  # a model without training data
        best = wide.idxmax(axis=1)
        top = int(wide.index.max())
        for key in wide.columns:
            stats.append(
                {
                    "dataset": ds,
                    "statistic": "best_fraction",
                    "model": key,
                    "value": round(float((best == key).mean()), 6),
                    "data_kind": kind,
                    "provenance": prov,
                    "note": f"fraction of the tree counts {wide.index.min()}..{top} where "
                    f"{BY_KEY[key].label} has the highest {measure} of the six",
                }
            )
            rank = wide.loc[top].rank(ascending=False, method="min")[key]
            stats.append(
                {
                    "dataset": ds,
                    "statistic": "rank_at_max_trees",
                    "model": key,
                    "value": int(rank),
                    "data_kind": kind,
                    "provenance": prov,
                    "note": f"rank of {BY_KEY[key].label} among the six at {top} trees (1 = best)",
                }
            )
        for a, b in (("gbt_l1l2", "gbt_l2"), ("qbrank_p2l1", "qbrank_p2")):
            if a in wide and b in wide:
                stats.append(
                    {
                        "dataset": ds,
                        "statistic": f"{a}_gt_{b}_fraction",
                        "model": a,
                        "value": round(float(np.mean(wide[a] > wide[b])), 6),
                        "data_kind": kind,
                        "provenance": prov,
                        "note": f"fraction of tree counts where {BY_KEY[a].label} beats "
                        f"{BY_KEY[b].label} in {measure}",
                    }
                )
    return tidy, pd.DataFrame(stats)


def draw_figure(curves: pd.DataFrame, prefix: Path | str, measure: str) -> None:
    """Figure 1: DCG against trees, one panel per data set; RankSVM a horizontal line."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(curves["dataset"]))
    fig, axes = plt.subplots(1, len(datasets), figsize=(6.4 * len(datasets), 4.6), squeeze=False)
    for ax, ds in zip(axes[0], datasets, strict=True):
        part = curves[curves["dataset"] == ds]
        # the y range of every curve but a far-off one (GBT on MQ2008's all-zero L1 is a
        # constant scorer, about 1.2 below the rest): that one is named, not drawn
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


def write_table(tidy: pd.DataFrame, prefix: Path | str, table_trees: int) -> None:
    """``figures/tables/qbrank-table1.{csv,md,tex}``: precision at K% per data set."""
    import pandas as pd

    from boostrank.report.render import write_table as render

    rows = []
    for (_ds, k), part in tidy.groupby(["dataset", "k_percent"], sort=False):
        by = part.set_index("model")
        row = {"Data set": part["dataset_label"].iloc[0], "%K": f"{k}%"}
        for key in TABLE_MODELS:
            if key in by.index:
                value, sd = by.loc[key, "value"], by.loc[key, "sd"]
                row[BY_KEY[key].label] = f"{value:.4f}" + ("" if pd.isna(sd) else f" ± {sd:.4f}")
        rows.append(row)
    splits = int(tidy["n_splits"].max())
    caption = (
        f"Table 1 (Zheng et al. 2007): precision at K% on P3, QBRank and GBT after "
        f"{table_trees} trees (20 leaves, shrinkage 0.05), linear RankSVM; "
        + (
            f"mean ± sd over {splits} random L2/L3 splits; "
            if splits > 1
            else "one random L2/L3 split; "
        )
        + "ties count half. LETOR 4.0 in place of the paper's Yahoo! data: compare orderings, "
        "not values."
    )
    render(prefix, tidy, pd.DataFrame(rows), caption)


def make_outputs(
    inputs: Sequence[Path | str],
    claims_path: Path | str,
    table_trees: int,
    table_csv: Path | str,
    table_summary: Path | str,
    figure_csv: Path | str,
    figure_summary: Path | str,
    table_prefix: Path | str,
    figure_prefix: Path | str,
) -> dict[str, Any]:
    """Merge the jobs into Table 1, Figure 1 and their results CSVs."""
    from boostrank.io import write_text

    runs = load_runs(inputs)
    t_tidy, t_stats = table1(runs, table_trees)
    f_tidy, f_stats = figure1(runs)
    write_text(table_csv, t_tidy.to_csv(index=False))
    write_text(table_summary, t_stats.to_csv(index=False))
    write_text(figure_csv, f_tidy.to_csv(index=False))
    write_text(figure_summary, f_stats.to_csv(index=False))
    write_table(t_tidy, table_prefix, table_trees)
    draw_figure(f_tidy, figure_prefix, str(f_tidy["measure"].iloc[0]))
    return {TABLE_ID: t_tidy, FIGURE_ID: f_tidy, "percents": PERCENTS}


# --------------------------------------------------------------------------- command line
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``qbrank-figure`` sub-command."""
    p = subparsers.add_parser("qbrank-figure", help="QBRank Table 1, Figure 1 and their CSVs")
    p.add_argument("--inputs", nargs="+", required=True)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--table-trees", type=int, required=True)
    p.add_argument("--table-csv", required=True)
    p.add_argument("--table-summary", required=True)
    p.add_argument("--figure-csv", required=True)
    p.add_argument("--figure-summary", required=True)
    p.add_argument("--table-prefix", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.set_defaults(
        func=lambda a: make_outputs(
            a.inputs,
            a.claims,
            a.table_trees,
            a.table_csv,
            a.table_summary,
            a.figure_csv,
            a.figure_summary,
            a.table_prefix,
            a.figure_prefix,
        )
    )
