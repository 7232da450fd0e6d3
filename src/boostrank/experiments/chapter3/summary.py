"""Figure 3.1 of Valizadegan (2010), chapter 3, section 3.4.2: the merge of the data sets'
evaluations (:mod:`boostrank.experiments.chapter3.jobs`) into the tidy results, the summary
statistics the claims read, LETOR 3.0's published values of the retrained baselines and the
numbers of the figure's table (NDCG@1, 3, 5, 10); pandas and numpy only.

The dissertation compares NDCG_Boost with "the baseline results published with LETOR" (sections
1.6.2, 3.4.1). Those numbers are the registry's ``letor3_baselines`` data set (fetched like any
other, from the mirror); each retrained baseline's cell carries LETOR's value
(``letor_published``, one per cell, sources preferred in :data:`LETOR_SOURCES` order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter3.spec import ALGORITHMS, BY_KEY, FIGURE_ID, TABLE_KS

if TYPE_CHECKING:
    import pandas as pd


# Which transcription of LETOR's table wins where several give a cell (they agree after rounding
# on every cell of the baselines retrained here; see letor3_baselines/PROVENANCE.md).
LETOR_SOURCES = ("tax2015", "rankbca2016", "liu2011_table11_1")


def letor_published(provenance: Path | str | None) -> pd.DataFrame:
    """LETOR 3.0's published NDCG@k per (dataset, algorithm_id, k) of the baselines retrained
    here, one value per cell; empty (with the columns) when the data set was not fetched."""
    import pandas as pd

    from boostrank.io import read_json

    cols = ["dataset", "algorithm_id", "k", "letor_published", "letor_source"]
    if provenance is None:
        return pd.DataFrame(columns=cols)
    prov = read_json(provenance)
    entry = prov.get("files", {}).get("ndcg.csv", {})
    table = pd.read_csv(Path(provenance).parent / entry.get("stored_as", "ndcg.csv"))
    need = {"dataset", "algorithm", "cutoff", "value", "source"}
    if not need <= set(table.columns):
        raise BoostrankError(f"{provenance}: ndcg.csv lacks columns {sorted(need - set(table))}")
    by_name = {a.letor_name: a.key for a in ALGORITHMS if a.letor_name}
    table = table[table["algorithm"].isin(by_name)].copy()
    table["algorithm_id"] = table["algorithm"].map(by_name)
    table["dataset"] = table["dataset"].str.lower()
    rank = {s: i for i, s in enumerate(LETOR_SOURCES)}
    table["order"] = table["source"].map(lambda s: rank.get(s, len(rank)))
    table = table.sort_values(["dataset", "algorithm_id", "cutoff", "order"], kind="stable")
    table = table.drop_duplicates(["dataset", "algorithm_id", "cutoff"])
    table = table.rename(
        columns={"cutoff": "k", "value": "letor_published", "source": "letor_source"}
    )
    return table[cols].reset_index(drop=True)


def rank_within(values: pd.Series) -> pd.Series:
    """1 = best; equal values share the better rank."""
    return values.rank(ascending=False, method="min")


def best_or_tied(cells: pd.DataFrame, tolerance: float, label: str = "NDCG_Boost") -> pd.Series:
    """Per (data set, k): is ``label`` within ``tolerance`` of the best dissertation algorithm?"""
    own = cells[~cells["reference"]]
    best = own.groupby(["dataset", "k"])["ndcg"].max()
    mine = own[own["algorithm"] == label].set_index(["dataset", "k"])["ndcg"]
    return (mine >= best.loc[mine.index] - tolerance - 1e-12).rename("best_or_tied")


def summarise(
    evaluations: Sequence[Path | str],
    claims_path: Path | str,
    tolerance: float,
    expected: Iterable[str] | None = None,
    letor: pd.DataFrame | None = None,
    tie_break: str = "random",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tidy results (one row per data set, algorithm and k; missing algorithms with empty
    values; LETOR's published value of a retrained baseline where ``letor`` has one) and the
    summary statistics the claims read."""
    import numpy as np
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value

    frames = [pd.read_csv(p, dtype={"fold": str}, keep_default_na=False) for p in evaluations]
    evals = pd.concat(frames, ignore_index=True)
    all_means = evals[evals["fold"] == "mean"].copy()
    for col in ("ndcg", "sd", "tied_share"):
        all_means[col] = pd.to_numeric(all_means[col], errors="coerce")
    means = all_means[all_means["tie_break"] == tie_break]  # drawn and claimed
    other_ties = {
        (r.dataset, r.algorithm_id, int(r.k)): float(r.ndcg)
        for r in all_means[all_means["tie_break"] != tie_break].itertuples()
    }
    k_max = int(means["k"].max())
    datasets = list(dict.fromkeys(means["dataset"]))
    wanted = [BY_KEY[k] for k in (expected or [a.key for a in ALGORITHMS])]
    claims = load_claims(claims_path)
    rows = []
    for ds in datasets:
        info = means[means["dataset"] == ds].iloc[0]
        for alg in wanted:
            got = means[(means["dataset"] == ds) & (means["algorithm_id"] == alg.key)]
            for k in range(1, k_max + 1):
                cell = got[got["k"] == k]
                row = {
                    "dataset": ds,
                    "dataset_label": info["dataset_label"],
                    "algorithm": alg.label,
                    "algorithm_id": alg.key,
                    "reference": alg.reference,
                    "k": k,
                    "ndcg": float(cell["ndcg"].iloc[0]) if len(cell) else np.nan,
                    "sd": float(cell["sd"].iloc[0]) if len(cell) else np.nan,
                    "tie_break": tie_break,
                    "ndcg_other_tie_break": other_ties.get((ds, alg.key, k), np.nan),
                    "tied_share": float(cell["tied_share"].iloc[0]) if len(cell) else np.nan,
                    "n_folds": int(cell["n_folds"].iloc[0]) if len(cell) else 0,
                    "replicates": (
                        int(cell["replicates"].iloc[0]) if len(cell) and "replicates" in cell else 0
                    ),
                    "formula": info["formula"],
                    "data_kind": info["data_kind"],
                    "provenance": info["provenance"],
                }
                notes = []
                if alg.reference:
                    notes.append("reference, not in the dissertation (LightGBM lambdarank)")
                if not len(cell):
                    notes.append(f"not run: {alg.import_path} is not available yet")
                if info["data_kind"] == "synthetic":
                    notes.append("synthetic stand-in at the published size")
                row["note"] = "; ".join(notes)
                rows.append(row)
    tidy = pd.DataFrame(rows)
    own = ~tidy["reference"] & tidy["ndcg"].notna()
    tidy["rank"] = np.nan
    tidy.loc[own, "rank"] = tidy[own].groupby(["dataset", "k"])["ndcg"].transform(rank_within)
    published = [
        published_value(
            claims, f"results/{FIGURE_ID}.csv", {"dataset": d, "algorithm": a, "k": int(k)}, "ndcg"
        )
        for d, a, k in zip(tidy["dataset"], tidy["algorithm"], tidy["k"], strict=True)
    ]  # the NDCG values section 3.4.2 states (numbers only; relations are claims too)
    tidy["published"] = [
        float(v) if isinstance(v, int | float) and not isinstance(v, bool) else np.nan
        for v in published
    ]
    if letor is None:
        letor = letor_published(None)
    tidy = tidy.merge(letor, on=["dataset", "algorithm_id", "k"], how="left", validate="1:1")
    tidy["letor_source"] = tidy["letor_source"].fillna("")
    for col in ("ndcg", "sd", "ndcg_other_tie_break", "tied_share"):
        tidy[col] = tidy[col].round(6)
    tidy["rank"] = tidy["rank"].astype("Int64")

    stats = []

    def kind_of(frame: pd.DataFrame) -> tuple[str, str]:
        kinds = list(dict.fromkeys(frame["data_kind"]))
        kind = "synthetic" if "synthetic" in kinds else kinds[0] if len(kinds) == 1 else "mixed"
        return kind, "; ".join(dict.fromkeys(frame["provenance"]))

    ran = tidy[tidy["ndcg"].notna()]
    for (ds, alg), group in ran.groupby(["dataset", "algorithm"], sort=False):
        kind, prov = kind_of(group)
        stats.append(
            {
                "statistic": f"mean_ndcg_1_{k_max}",
                "dataset": ds,
                "algorithm": alg,
                "value": round(float(group["ndcg"].mean()), 6),
                "data_kind": kind,
                "provenance": prov,
                "note": f"mean of NDCG@1..{k_max}",
            }
        )
    has_boost = (ran["algorithm"] == "NDCG_Boost").any()
    for scope in [*datasets, "all"]:
        part = tidy if scope == "all" else tidy[tidy["dataset"] == scope]
        kind, prov = kind_of(part)
        note = (
            f"fraction of (data set, k) cells where NDCG_Boost is within {tolerance} of the "
            "best dissertation algorithm (LambdaMART excluded)"
        )
        value: Any = ""
        if has_boost:
            flags = best_or_tied(part[part["ndcg"].notna()], tolerance)
            value = round(float(flags.mean()), 6) if len(flags) else ""
        else:
            note += "; NDCG_Boost not available yet"
        stats.append(
            {
                "statistic": "best_or_tied_fraction",
                "dataset": scope,
                "algorithm": "NDCG_Boost",
                "value": value,
                "data_kind": kind,
                "provenance": prov,
                "note": note,
            }
        )
    return tidy, pd.DataFrame(stats)


def results_table(tidy: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The table of Figure 3.1: NDCG@1,3,5,10 (mean, sd, published value) per data set and
    algorithm, as numbers (the CSV) and as the cells people read (Markdown, LaTeX)."""
    import pandas as pd

    from boostrank.report.render import beside

    rows, shown = [], []
    for (ds, alg_id), group in tidy.groupby(["dataset", "algorithm_id"], sort=False):
        by_k = group.set_index("k")
        first = group.iloc[0]
        row = {
            "dataset": ds,
            "dataset_label": first["dataset_label"],
            "algorithm": first["algorithm"],
            "algorithm_id": alg_id,
        }
        cells = {"Data set": first["dataset_label"], "Algorithm": first["algorithm"]}
        for k in TABLE_KS:
            if k not in by_k.index:
                continue
            value, sd, pub = by_k.loc[k, "ndcg"], by_k.loc[k, "sd"], by_k.loc[k, "published"]
            row[f"ndcg{k}"] = value
            row[f"sd{k}"] = sd
            row[f"published_ndcg{k}"] = pub
            text = "n/a" if pd.isna(value) else f"{value:.4f}"
            if not pd.isna(sd):
                text += f" ± {sd:.3f}"
            cells[f"NDCG@{k}"] = beside(text, "" if pub is None or pd.isna(pub) else pub)
        row.update(
            n_folds=int(group["n_folds"].max()),
            formula=first["formula"],
            data_kind=first["data_kind"],
            provenance=first["provenance"],
            note=first["note"],
        )
        rows.append(row)
        shown.append(cells)
    table = pd.DataFrame(rows)
    return table, pd.DataFrame(shown)


def query_samples(paths: Sequence[Path | str], tie_break: str) -> pd.DataFrame:
    """The data sets' per-query NDCG@k under the drawn tie break: the samples of the results
    rows (``results/thesis-fig3_1.samples.csv``, read by :mod:`boostrank.report.claims`)."""
    import pandas as pd

    frames = [pd.read_csv(p, dtype=str, keep_default_na=False) for p in paths]
    merged = pd.concat(frames, ignore_index=True)
    return merged[merged["tie_break"] == tie_break].drop(columns="tie_break")


__all__ = [
    "LETOR_SOURCES",
    "best_or_tied",
    "letor_published",
    "query_samples",
    "rank_within",
    "results_table",
    "summarise",
]
