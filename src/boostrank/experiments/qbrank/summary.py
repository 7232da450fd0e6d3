"""Zheng et al. (2007), NIPS, section 4: the merge of the per-model jobs of
:mod:`boostrank.experiments.qbrank.jobs` into Table 1 (precision at K% on P3 of QBRank on P2,
GBT on L2 and RankSVM on P2), Figure 1's curves (DCG-5 on L3 against the number of trees) and
the summary statistics the ordinal claims read; pandas and numpy only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from boostrank.experiments.qbrank.spec import BY_KEY, TABLE_MODELS

if TYPE_CHECKING:
    import pandas as pd


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


STAT_COLUMNS = ["dataset", "statistic", "value", "data_kind", "provenance", "note"]


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
    # A table_trees that is none of the run's stages leaves no rows: the header still names the
    # columns, so the claims read "no row" (NOT-COMPARABLE), not an unreadable file.
    return tidy, pd.DataFrame(stats, columns=STAT_COLUMNS)


def convergence_rows(
    wide: pd.DataFrame, measure: str, *, last_trees: int, **common: str
) -> list[dict[str, object]]:
    """Figure 1's "The clear convergence trend of QBrank is also demonstrated in Figure 1"
    (section 4): for each boosted curve of ``wide`` (DCG-k by tree count, a column per model;
    RankSVM, a constant, left out) the relative change over the last ``last_trees`` trees,
    |DCG(top) - DCG(start)| / DCG(top): top the largest tree count, start the largest count at
    most top - ``last_trees`` (else the smallest). ``last_trees`` is config
    ``qbrank.convergence_trees``, reading ``qbrank_convergence_trees`` (the text gives the
    window no length). The text's footnote 3, "a 1% dcg gain is considered significant", reads
    a change under 0.01 as a settled curve."""
    counts = sorted(int(n) for n in wide.index)
    top = counts[-1]
    start = max((n for n in counts if n <= top - last_trees), default=counts[0])
    rows: list[dict[str, object]] = []
    for key in (k for k in wide.columns if k != "ranksvm_p2"):
        end, before = float(wide.loc[top, key]), float(wide.loc[start, key])
        change = abs(end - before) / abs(end) if end != 0 else float("nan")
        rows.append(
            {
                "dataset": common["dataset"],
                "statistic": "last_relative_change",
                "model": key,
                "value": round(change, 6),
                "data_kind": common["data_kind"],
                "provenance": common["provenance"],
                "note": f"|{measure}({top}) - {measure}({start})| / {measure}({top}) of "
                f"{BY_KEY[key].label}: its change over the trees {start}..{top} "
                f"(convergence_trees {last_trees})",
            }
        )
    return rows


def figure1(runs: pd.DataFrame, convergence_trees: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 1's curves (tidy: dataset, model, trees, DCG) and their summary statistics
    (``convergence_trees``: the window of :func:`convergence_rows`)."""
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
        stats += convergence_rows(
            wide,
            measure,
            last_trees=convergence_trees,
            dataset=ds,
            data_kind=kind,
            provenance=prov,
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


def figure1_samples(paths: Sequence[Path | str]) -> pd.DataFrame:
    """Each L3 query's DCG-k per (data set, model, trees), from the jobs' per-query files:
    the samples of ``results/qbrank-fig1.csv`` (read by :mod:`boostrank.report.claims`).
    A unit is a (split, query); the split is its stratum, so the mean of the strata's means
    is Figure 1's mean over splits, and every model of a split ranks the same L3 queries."""
    import pandas as pd

    frame = pd.concat(
        [pd.read_csv(p, dtype={"trees": str}, keep_default_na=False) for p in paths],
        ignore_index=True,
    )
    return pd.DataFrame(
        {
            "dataset": frame["dataset"],
            "model": frame["model"],
            "trees": frame["trees"],
            "measure": frame["measure"],
            "unit_kind": "query",
            "unit": "split" + frame["split"].astype(str) + ":q" + frame["query"].astype(str),
            "stratum": frame["split"],
            "value": frame["value"],
        }
    )


def table1_cells(tidy: pd.DataFrame) -> pd.DataFrame:
    """Table 1 as people read it (Markdown, LaTeX): one row per data set and K%, the mean
    precision (± sd over the splits) of each of Table 1's models."""
    import pandas as pd

    rows = []
    for (_ds, k), part in tidy.groupby(["dataset", "k_percent"], sort=False):
        by = part.set_index("model")
        row = {"Data set": part["dataset_label"].iloc[0], "%K": f"{k}%"}
        for key in TABLE_MODELS:
            if key in by.index:
                value, sd = by.loc[key, "value"], by.loc[key, "sd"]
                row[BY_KEY[key].label] = f"{value:.4f}" + ("" if pd.isna(sd) else f" ± {sd:.4f}")
        rows.append(row)
    return pd.DataFrame(rows)


__all__ = ["convergence_rows", "figure1", "figure1_samples", "load_runs", "table1", "table1_cells"]
