"""Figure 3.1 of Valizadegan (2010), chapter 3, section 3.4.2: the merge of the data sets'
evaluations (:mod:`boostrank.experiments.chapter3`) into the tidy results, the summary statistics
the claims read, the figure (one panel per LETOR 3.0 data set, NDCG@k against k = 1..10, one
line per algorithm, LambdaMART dashed) and its table of NDCG@1, 3, 5, 10.

The dissertation compares NDCG_Boost with "the baseline results published with LETOR" (sections
1.6.2, 3.4.1). Those numbers are the registry's ``letor3_baselines`` data set (fetched like any
other, from the mirror); each retrained baseline's cell carries LETOR's value
(``letor_published``, one per cell, sources preferred in :data:`LETOR_SOURCES` order) and the
figure draws it as an open marker of the baseline's colour. Where the data are a stand-in (the
.Gov panels here) those markers are the only real numbers in the panel.

Kept apart from the training code so that redrawing never retrains: only the figure job lists
this module among its inputs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter3 import ALGORITHMS, BY_KEY, FIGURE_ID, TABLE_KS, TIE_BREAKS

if TYPE_CHECKING:
    import pandas as pd

# Line colour and marker of each algorithm (NDCG_Boost red and thicker, LambdaMART dashed).
STYLE = {
    "ndcg_boost": ("#d62728", "o"),
    "adarank_ndcg": ("#1f77b4", "s"),
    "regression": ("#7f7f7f", "v"),
    "ranksvm": ("#2ca02c", "^"),
    "frank": ("#ff7f0e", "D"),
    "listnet": ("#9467bd", "P"),
    "svm_map": ("#8c564b", "X"),
    "lambdamart": ("#17becf", "."),
}


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


def _formula_note(formula: str) -> str:
    if formula == "letor":
        return (
            "NDCG of LETOR's evaluation script (gain 2^r-1; positions 1-2 undiscounted, then "
            "1/log2(p); no-relevant queries score 0)"
        )
    return "NDCG with gain 2^r-1 and discount 1/log2(1+p) (trec_eval's ndcg_cut)"


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


def draw_figure(
    tidy: pd.DataFrame, prefix: Path | str, formula: str, sources: Sequence[str] = ()
) -> None:
    """Figure 3.1: one panel per data set, NDCG@k against k, one line per algorithm;
    ``sources``: more provenance lines for the footer (LETOR's published values)."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(tidy["dataset"]))
    n_cols = 4
    n_rows = -(-(len(datasets) + 1) // n_cols)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(4.0 * n_cols, 3.3 * n_rows), squeeze=False)
    flat = axes.ravel()
    handles: dict[str, Any] = {}
    k_max = int(tidy["k"].max())
    for ax, ds in zip(flat, datasets, strict=False):
        part = tidy[tidy["dataset"] == ds]
        for alg in ALGORITHMS:
            line = part[(part["algorithm_id"] == alg.key) & part["ndcg"].notna()]
            if line.empty:
                continue
            (h,) = ax.plot(
                line["k"],
                line["ndcg"],
                color=STYLE[alg.key][0],
                marker=STYLE[alg.key][1],
                markersize=4 if not alg.reference else 0,
                linewidth=2.2 if alg.key == "ndcg_boost" else 1.3,
                linestyle="--" if alg.reference else "-",
                label=alg.label + (" (reference)" if alg.reference else ""),
                zorder=3 if alg.key == "ndcg_boost" else 2,
            )
            handles.setdefault(alg.key, h)
            stated = line[line["published"].notna()]
            for k, value in zip(stated["k"], stated["published"], strict=True):
                star = ax.scatter(
                    [k],
                    [float(value)],
                    marker="*",
                    s=140,
                    color=STYLE[alg.key][0],
                    edgecolors="black",
                    linewidths=0.8,
                    zorder=5,
                    label="value stated in section 3.4.2",
                )
                handles.setdefault("published", star)
        for alg in ALGORITHMS:
            pub = part[(part["algorithm_id"] == alg.key) & part["letor_published"].notna()]
            if pub.empty:
                continue
            mark = ax.scatter(
                pub["k"],
                pub["letor_published"].astype(float),
                marker=STYLE[alg.key][1],
                s=46,
                facecolors="none",
                edgecolors=STYLE[alg.key][0],
                linewidths=1.4,
                zorder=4,
                label="LETOR 3.0 published value (open marker, same colour)",
            )
            handles.setdefault("letor", mark)
        label = part["dataset_label"].iloc[0]
        folds = int(part["n_folds"].max())
        ax.set_title(
            label + ("" if folds == 5 else f" ({folds} fold{'s' * (folds > 1)})"),
            fontsize=10,
            color="#a33" if "synthetic" in label else "black",
        )
        ax.set_xticks(range(1, k_max + 1))
        ax.set_xlim(0.7, k_max + 0.3)
        ax.grid(alpha=0.3)
        ax.set_xlabel("truncation level k", fontsize=8)
        ax.set_ylabel("NDCG@k", fontsize=8)
        ax.tick_params(labelsize=8)
    for ax in flat[len(datasets) :]:
        ax.axis("off")
    legend_ax = flat[len(datasets)] if len(datasets) < len(flat) else None
    ordered = [handles[a.key] for a in ALGORITHMS if a.key in handles]
    if "published" in handles:
        ordered.append(handles["published"])
    if "letor" in handles:
        ordered.append(handles["letor"])
    missing = [a.label for a in ALGORITHMS if a.key not in handles]
    tie = str(tidy["tie_break"].iloc[0]) if "tie_break" in tidy else "random"
    text = (
        _formula_note(formula)
        + "; mean over each fold's test queries, then over the folds; equal scores in "
        + ("a seeded random order." if tie == "random" else "file order.")
    )
    if "letor" in handles:
        text += (
            " Open markers: the NDCG LETOR 3.0 published for its baselines (the reference the "
            "dissertation compares with); lines: our retrained baselines."
        )
        if (tidy["data_kind"] == "synthetic").any():
            text += (
                " On the panels marked [synthetic stand-in] our lines are made from stand-in "
                "data: only the published markers there are real numbers."
            )
    else:
        text += " LETOR's published baseline values: not fetched (no mirror holds them)."
    if missing:
        text += " Not available yet: " + ", ".join(missing) + "."
    if legend_ax is not None:
        legend_ax.legend(handles=ordered, loc="upper left", frameon=False, fontsize=9)
    else:
        fig.legend(handles=ordered, loc="lower center", ncol=4, frameon=False, fontsize=9)
    caption = _wrap(text, 40 * n_cols)
    bottom = (0.13 * (caption.count("\n") + 1) + 0.15) / fig.get_figheight()  # room for it
    fig.suptitle("Figure 3.1 (Valizadegan 2010): NDCG@1-10 on the LETOR 3.0 data sets", fontsize=12)
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig.text(0.01, bottom - 0.01, caption, fontsize=7.5, va="top", color="#444444")
    save_figure(fig, prefix, [*tidy["provenance"], *sources])


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def write_results_table(tidy: pd.DataFrame, prefix: Path | str) -> pd.DataFrame:
    """``figures/tables/thesis-fig3_1.{csv,md,tex}``: NDCG@1,3,5,10 per data set and algorithm."""
    import pandas as pd

    from boostrank.report.render import beside, write_table

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
    formula = str(tidy["formula"].iloc[0])
    caption = (
        f"Figure 3.1 (Valizadegan 2010) as a table: test NDCG@1, 3, 5, 10, mean ± sd over the "
        f"LETOR folds; {_formula_note(formula)}; published values (section 3.4.2) in "
        "parentheses. LambdaMART is a reference, not in the dissertation."
    )
    write_table(prefix, table, pd.DataFrame(shown), caption)
    return table


def make_figure(
    evaluations: Sequence[Path | str],
    claims_path: Path | str,
    tolerance: float,
    results_csv: Path | str,
    summary_csv: Path | str,
    figure_prefix: Path | str,
    table_prefix: Path | str,
    letor_provenance: Path | str | None = None,
    tie_break: str = "random",
) -> pd.DataFrame:
    """Merge the data sets' evaluations into the results CSVs, Figure 3.1 and its table;
    ``letor_provenance``: the fetched ``letor3_baselines`` (LETOR's published values)."""
    from boostrank.io import write_text

    letor = letor_published(letor_provenance)
    tidy, stats = summarise(evaluations, claims_path, tolerance, letor=letor, tie_break=tie_break)
    formula = str(tidy["formula"].iloc[0])
    write_text(results_csv, tidy.to_csv(index=False))
    write_text(summary_csv, stats.to_csv(index=False))
    write_results_table(tidy, table_prefix)
    sources = []
    if letor_provenance is not None:
        from boostrank.data.provenance import Provenance

        line = Provenance.load(letor_provenance).describe()
        sources.append(f"published baselines (open markers): {line}")
    draw_figure(tidy, figure_prefix, formula, sources)
    return tidy


# --------------------------------------------------------------------------- command line
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter3-figure`` sub-command."""
    p = subparsers.add_parser("chapter3-figure", help="Figure 3.1, its table and results CSVs")
    p.add_argument("--evaluations", nargs="+", required=True)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--tolerance", type=float, default=0.005)
    p.add_argument("--tie-break", choices=TIE_BREAKS, default="random", help="drawn and claimed")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--table-prefix", required=True)
    p.add_argument(
        "--letor-published", default=None, help="provenance.json of the fetched letor3_baselines"
    )
    p.set_defaults(
        func=lambda a: make_figure(
            a.evaluations,
            a.claims,
            a.tolerance,
            a.csv,
            a.summary,
            a.figure_prefix,
            a.table_prefix,
            a.letor_published,
            a.tie_break,
        )
    )
