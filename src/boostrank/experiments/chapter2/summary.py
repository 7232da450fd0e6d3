"""Figures 2.1-2.3 of Valizadegan (2010), chapter 2, section 2.4: the merge of the run CSVs
(:mod:`boostrank.experiments.chapter2.jobs`) into the tidy results (mean test error over the
repeats per data set, method and setting), the summary statistics the claims read, and the
numbers the figures show besides the errors (:mod:`boostrank.experiments.chapter2.figure`
draws them, :mod:`boostrank.experiments.chapter2.make` writes them).

Summary statistics over several data sets ("on most data sets") use the data sets made from
real data only; the synthetic stand-ins (Isolet, Protein here) are left out of them and their
own rows are marked synthetic, so their claims are NOT-COMPARABLE. Every statistic a claim
reads is written for every data set of section 1.6.1, empty where the run did not cover it.

Kept apart from the training code so that redrawing never retrains.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter2.spec import DATASETS, LABEL, METHODS
from boostrank.report.stat_rows import stat_row

if TYPE_CHECKING:
    import pandas as pd


def read_runs(paths: Sequence[Path | str]) -> pd.DataFrame:
    """All run rows of the given CSVs."""
    import pandas as pd

    frames = [pd.read_csv(p, dtype={"depth": str}, keep_default_na=False) for p in paths]
    runs = pd.concat(frames, ignore_index=True)
    runs["error"] = pd.to_numeric(runs["error"], errors="coerce")
    runs["full_depth"] = pd.to_numeric(runs["full_depth"], errors="coerce")
    return runs


def aggregate(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd of the test error over the repeats, per (data set, method, setting)."""
    import numpy as np
    import pandas as pd

    keys = ["dataset", "method_id", "fraction", "C", "depth"]
    done = runs[runs["error"].notna()].copy()
    # runs that predict one class only, and runs whose labelled sample misses a class
    done["constant"] = pd.to_numeric(done.get("predicted_classes", np.nan), errors="coerce") == 1
    done["missing"] = done.get("missing_classes", pd.Series("", index=done.index)).astype(str) != ""
    grouped = done.groupby(keys, sort=False)
    tidy = grouped.agg(
        dataset_label=("dataset_label", "first"),
        method=("method", "first"),
        error=("error", "mean"),
        sd=("error", lambda v: float(v.std(ddof=1)) if len(v) > 1 else float("nan")),
        n_repeats=("error", "size"),
        n_train=("n_train", "mean"),
        n_labelled=("n_labelled", "mean"),
        n_iterations=("n_iterations", lambda v: float(np.mean(v.astype(float)))),
        full_depth=("full_depth", "mean"),
        constant_share=("constant", "mean"),
        missing_class_share=("missing", "mean"),
        data_kind=("data_kind", "first"),
        provenance=("provenance", "first"),
    ).reset_index()
    tidy["accuracy"] = (1 - tidy["error"]).round(6)
    for col in ("error", "sd", "n_labelled", "n_iterations", "full_depth", "n_train",
                "constant_share", "missing_class_share"):  # fmt: skip
        tidy[col] = tidy[col].round(6)
    order = {d: i for i, d in enumerate(DATASETS)}
    morder = {m.key: i for i, m in enumerate(METHODS)}
    tidy["_d"] = tidy["dataset"].map(order)
    tidy["_m"] = tidy["method_id"].map(morder)
    tidy["_depth"] = tidy["depth"].map(lambda d: 1e9 if d == "full" else float(d))
    tidy = tidy.sort_values(["_d", "_m", "fraction", "C", "_depth"]).drop(
        columns=["_d", "_m", "_depth"]
    )
    return tidy.reset_index(drop=True)


def select(tidy: pd.DataFrame, figure: str, options: dict[str, Any]) -> pd.DataFrame:
    """The cells a figure shows (Figures 2.2 and 2.3 at the reference fraction, C, depth)."""
    fraction = float(options.get("fraction", 2))
    C = float(options.get("C", 1e4))
    depth = str(options.get("depth", "2"))
    if figure == "thesis-fig2_1":
        return tidy[(tidy["C"] == C) & (tidy["depth"] == depth)]
    at = tidy[tidy["fraction"] == fraction]
    if figure == "thesis-fig2_2":
        return at[
            (at["depth"] == depth)
            & ((at["method_id"] == "mcssb") | ((at["method_id"] == "tree") & (at["C"] == C)))
        ]
    return at[(at["C"] == C) & at["method_id"].isin(["tree", "assemble", "mcssb"])]


# --------------------------------------------------------------------------- summaries
def _mean_error(cells: pd.DataFrame, dataset: str, method: str) -> tuple[float, pd.DataFrame]:
    part = cells[(cells["dataset"] == dataset) & (cells["method_id"] == method)]
    return (float(part["error"].mean()) if len(part) else float("nan")), part


def _real(cells: pd.DataFrame) -> pd.DataFrame:
    return cells[cells["data_kind"] != "synthetic"]


# Figure 2.1's labelled fractions (section 2.4.1: "between 2 to 10 percent", config
# chapter2.fractions of the full protocol): its per-fraction statistics are written for each,
# empty where the run did not cover it.
FRACTIONS = (2, 4, 6, 8, 10)


def _fraction_stats(cells: pd.DataFrame, frac: float) -> list[dict[str, Any]]:
    """Figure 2.1 at one labelled fraction: per data set MCSSB's mean error minus Tree's
    (section 2.4.3: on Protein MCSSB's gain "for larger amount of labeled data (as large as
    4%) is significant"); over the real data sets, the fraction of data sets where ASSEMBLE's
    error is below Tree's (section 2.4.2: ASSEMBLE "is unable to make improvement over the base
    classifier regardless of the number of labeled examples")."""
    at = cells[cells["fraction"] == frac]
    stats = []
    for ds in DATASETS:
        part = at[(at["dataset"] == ds) & at["method_id"].isin(["mcssb", "tree"])]
        by = part.set_index("method_id")["error"]
        value = by["mcssb"] - by["tree"] if {"mcssb", "tree"} <= set(by.index) else None
        note = f"difference of the mean test errors with {frac:g}% labelled"
        stats.append(
            stat_row(
                statistic=f"mcssb_minus_tree_at_{frac:g}pct",
                dataset=ds,
                method="MCSSB - Tree",
                value=value,
                part=part,
                note=note,
                flag_missing=True,
            )
        )
    real = _real(at[at["method_id"].isin(["assemble", "tree"])])
    wide = real.pivot_table(index="dataset", columns="method_id", values="error")
    pair = wide.dropna() if {"assemble", "tree"} <= set(wide.columns) else wide.iloc[0:0]
    value = float((pair["assemble"] < pair["tree"]).mean()) if len(pair) else None
    note = (
        f"fraction of data sets where ASSEMBLE's mean error is below Tree's with {frac:g}% "
        "labelled, over the data sets made from real data (synthetic stand-ins left out)"
    )
    part = real[real["dataset"].isin(pair.index)]
    stats.append(
        stat_row(
            statistic=f"assemble_beats_tree_fraction_at_{frac:g}pct",
            dataset="all",
            method="ASSEMBLE vs Tree",
            value=value,
            part=part,
            note=note,
            flag_missing=True,
        )
    )
    return stats


def _trend_stats(cells: pd.DataFrame) -> list[dict[str, Any]]:
    """Figure 2.1 over the real data sets (section 2.4.2, its last paragraph): the fraction
    of (data set, method) curves whose error at the largest labelled fraction is below that at
    the smallest ("as the number of labeled examples increases, the performance of different
    methods improves"), and of (data set, fraction) cells where MCSSB's error is below both
    Tree's and ASSEMBLE's ("MCSSB keeps its superiority for most of the cases")."""
    real = _real(cells)
    curves = real.pivot_table(index=["dataset", "method_id"], columns="fraction", values="error")
    value = None
    if curves.shape[1] >= 2:
        ends = curves[[min(curves.columns), max(curves.columns)]].dropna()
        value = float((ends.iloc[:, 1] < ends.iloc[:, 0]).mean()) if len(ends) else None
    note_real = "over the data sets made from real data (synthetic stand-ins left out)"
    stats = [
        stat_row(
            statistic="more_labels_better_fraction",
            dataset="all",
            method="all methods",
            value=value,
            part=real,
            note="fraction of (data set, method) curves whose mean error at the largest "
            "labelled fraction is below that at the smallest, " + note_real,
            flag_missing=True,
        )
    ]
    wide = real.pivot_table(index=["dataset", "fraction"], columns="method_id", values="error")
    value = None
    if {"mcssb", "tree", "assemble"} <= set(wide.columns):
        trio = wide[["mcssb", "tree", "assemble"]].dropna()
        below = (trio["mcssb"] < trio["tree"]) & (trio["mcssb"] < trio["assemble"])
        value = float(below.mean()) if len(trio) else None
    part = real[real["method_id"].isin(["mcssb", "tree", "assemble"])]
    note = "fraction of (data set, labelled fraction) cells where MCSSB's mean error is below "
    stats.append(
        stat_row(
            statistic="mcssb_superior_fraction",
            dataset="all",
            method="MCSSB",
            value=value,
            part=part,
            note=note + "both Tree's and ASSEMBLE's, " + note_real,
            flag_missing=True,
        )
    )
    return stats


def _dataset_stats(cells: pd.DataFrame, ds: str) -> list[dict[str, Any]]:
    """Figure 2.1 on one data set: each method's mean error over the labelled fractions,
    MCSSB minus Tree and ASSEMBLE, MCSSB-Absolute minus MCSSB, and Tree's and MCSSB's accuracy
    with 2% and 8% labelled (section 2.4.2)."""
    stats = []
    over = "mean over the labelled fractions"
    errors = {}
    for m in METHODS:
        errors[m.key], part = _mean_error(cells, ds, m.key)
        stats.append(
            stat_row(
                statistic="mean_error",
                dataset=ds,
                method=m.label,
                value=errors[m.key],
                part=part,
                note=over,
                flag_missing=True,
            )
        )
    for a, b in (("mcssb", "tree"), ("mcssb", "assemble"), ("mcssb_absolute", "mcssb")):
        part = cells[(cells["dataset"] == ds) & cells["method_id"].isin([a, b])]
        stats.append(
            stat_row(
                statistic=f"{a}_minus_{b}",
                dataset=ds,
                method=f"{LABEL[a]} - {LABEL[b]}",
                value=errors[a] - errors[b],
                part=part,
                note=f"difference of the mean test errors ({over})",
                flag_missing=True,
            )
        )
    for frac in (2, 8):
        for key in ("tree", "mcssb"):
            part = cells[
                (cells["dataset"] == ds) & (cells["method_id"] == key) & (cells["fraction"] == frac)
            ]
            value = float(part["accuracy"].iloc[0]) if len(part) else None
            stats.append(
                stat_row(
                    statistic=f"accuracy_at_{frac}pct",
                    dataset=ds,
                    method=LABEL[key],
                    value=value,
                    part=part,
                    note=f"test accuracy with {frac}% labelled",
                    flag_missing=True,
                )
            )
    return stats


def _standing_stats(cells: pd.DataFrame) -> list[dict[str, Any]]:
    """Figure 2.1 over the real data sets (section 2.4.2): how often ASSEMBLE and
    MCSSB-Uniform have a higher mean error than Tree, and each method's mean rank by mean error
    and its rank by that."""
    import numpy as np
    import pandas as pd

    stats = []
    real = _real(cells)
    means = real.groupby(["dataset", "method_id"])["error"].mean().unstack()
    covered = means.dropna()
    note_real = "over the data sets made from real data (synthetic stand-ins left out)"
    for key, name in (("assemble", "assemble"), ("mcssb_uniform", "uniform")):
        value = float((covered[key] > covered["tree"]).mean()) if len(covered) else None
        part = real[real["dataset"].isin(covered.index)]
        stats.append(
            stat_row(
                statistic=f"{name}_worse_than_tree_fraction",
                dataset="all",
                method=LABEL[key],
                value=value,
                part=part,
                note=f"fraction of data sets where {LABEL[key]}'s mean error exceeds "
                f"Tree's, {note_real}",
                flag_missing=True,
            )
        )
    ranks = covered.rank(axis=1, method="min").mean() if len(covered) else pd.Series(dtype=float)
    overall = ranks.rank(method="min")
    for m in METHODS:
        value = float(overall[m.key]) if m.key in overall.index else None
        part = real[real["dataset"].isin(covered.index)]
        stats.append(
            stat_row(
                statistic="overall_rank",
                dataset="all",
                method=m.label,
                value=value,
                part=part,
                note="rank (1 = best) of the method's mean rank by mean error, " + note_real,
                flag_missing=True,
            )
        )
    mean_rank = {k: v for k, v in ranks.items() if not np.isnan(v)}
    for m in METHODS:
        part = real[real["dataset"].isin(covered.index)]
        stats.append(
            stat_row(
                statistic="mean_rank",
                dataset="all",
                method=m.label,
                value=mean_rank.get(m.key),
                part=part,
                note="mean over data sets of the rank by mean error, " + note_real,
                flag_missing=True,
            )
        )
    return stats


def summary_fig2_1(cells: pd.DataFrame) -> list[dict[str, Any]]:
    """Per data set, :func:`_dataset_stats`; over the real data sets, :func:`_standing_stats`;
    per labelled fraction and across them, :func:`_fraction_stats` and :func:`_trend_stats`."""
    stats = [row for ds in DATASETS for row in _dataset_stats(cells, ds)]
    stats += _standing_stats(cells)
    for frac in FRACTIONS:
        stats += _fraction_stats(cells, frac)
    return stats + _trend_stats(cells)


def _worst_over_c(cells: pd.DataFrame, dataset: str) -> dict[str, Any]:
    """Figure 2.2 on one data set: MCSSB's highest mean error over C minus Tree's, the C where
    MCSSB gains least on the tree (section 2.4.3: "the improvement of MCSSB on the base
    classifier for dataset 'Protein' is very marginal for some values of C")."""
    mcssb = cells[(cells["dataset"] == dataset) & (cells["method_id"] == "mcssb")]
    tree = cells[(cells["dataset"] == dataset) & (cells["method_id"] == "tree")]
    value = (
        float(mcssb["error"].max() - tree["error"].iloc[0]) if len(mcssb) and len(tree) else None
    )
    note = "highest MCSSB error over C minus Tree's error"
    return stat_row(
        statistic="worst_mcssb_minus_tree",
        dataset=dataset,
        method="MCSSB - Tree",
        value=value,
        part=mcssb,
        note=note,
        flag_missing=True,
    )


def summary_fig2_2(cells: pd.DataFrame, threshold: float = 1e3) -> list[dict[str, Any]]:
    """Per data set: the range (max - min) of MCSSB's error over C >= 10^3, and MCSSB minus
    Tree at each end (:func:`_worst_over_c`); over the real data sets: the largest such
    range."""
    import pandas as pd

    stats = []
    mc = cells[(cells["method_id"] == "mcssb") & (cells["C"] >= threshold)]
    ranges = {}
    for ds in DATASETS:
        part = mc[mc["dataset"] == ds]
        value = float(part["error"].max() - part["error"].min()) if len(part) > 1 else None
        if value is not None:
            ranges[ds] = (value, part)
        stats.append(
            stat_row(
                statistic="error_range_large_c",
                dataset=ds,
                method="MCSSB",
                value=value,
                part=part,
                note=f"max - min of MCSSB's mean error over C >= {threshold:g}",
                flag_missing=True,
            )
        )
        all_c = cells[(cells["dataset"] == ds) & (cells["method_id"] == "mcssb")]
        tree = cells[(cells["dataset"] == ds) & (cells["method_id"] == "tree")]
        if len(all_c) and len(tree):
            best = float(all_c["error"].min() - tree["error"].iloc[0])
            part = pd.concat([all_c, tree])
        else:
            best, part = None, all_c
        stats.append(
            stat_row(
                statistic="best_mcssb_minus_tree",
                dataset=ds,
                method="MCSSB - Tree",
                value=best,
                part=part,
                note="lowest MCSSB error over C minus Tree's error",
                flag_missing=True,
            )
        )
        stats.append(_worst_over_c(cells, ds))
    real = {d: v for d, v in ranges.items() if v[1]["data_kind"].iloc[0] != "synthetic"}
    if real:
        part = pd.concat([v[1] for v in real.values()])
        value = max(v[0] for v in real.values())
    else:
        part, value = None, None
    stats.append(
        stat_row(
            statistic="max_error_range_large_c",
            dataset="all",
            method="MCSSB",
            value=value,
            part=part,
            note=f"largest per-data-set range of MCSSB's error over C >= {threshold:g}, "
            "over the data sets made from real data",
            flag_missing=True,
        )
    )
    return stats


def summary_fig2_3(cells: pd.DataFrame) -> list[dict[str, Any]]:
    """Over the real data sets' (data set, depth) cells: how often MCSSB beats ASSEMBLE and
    ASSEMBLE beats Tree; how often Tree's fully grown tree beats its stump; per data set the
    change of Tree's and MCSSB's error from the stump to the fully grown tree."""
    stats = []
    wide = cells.pivot_table(index=["dataset", "depth"], columns="method_id", values="error")
    for ds in DATASETS:
        for key in ("tree", "mcssb"):
            part = cells[(cells["dataset"] == ds) & (cells["method_id"] == key)]
            value = None
            if {"1", "full"} <= set(part["depth"]):
                by = part.set_index("depth")["error"]
                value = float(by["full"] - by["1"])
            stats.append(
                stat_row(
                    statistic="full_minus_stump",
                    dataset=ds,
                    method=LABEL[key],
                    value=value,
                    part=part,
                    note="error of the fully grown tree minus the stump's",
                    flag_missing=True,
                )
            )
    real = _real(cells)
    real_sets = set(real["dataset"])
    w = wide[wide.index.get_level_values(0).isin(real_sets)]
    part = real
    for a, b, name in (
        ("mcssb", "assemble", "mcssb_beats_assemble_fraction"),
        ("assemble", "tree", "assemble_beats_tree_fraction"),
    ):
        pair = w[[c for c in (a, b) if c in w.columns]].dropna()
        value = float((pair[a] < pair[b]).mean()) if len(pair) and pair.shape[1] == 2 else None
        stats.append(
            stat_row(
                statistic=name,
                dataset="all",
                method=f"{LABEL[a]} vs {LABEL[b]}",
                value=value,
                part=part,
                note=f"fraction of (data set, depth) cells where {LABEL[a]}'s error is "
                f"below {LABEL[b]}'s, over the data sets made from real data",
                flag_missing=True,
            )
        )
    tree = real[real["method_id"] == "tree"].pivot_table(
        index="dataset", columns="depth", values="error"
    )
    value = None
    if {"1", "full"} <= set(tree.columns):
        pair = tree[["1", "full"]].dropna()
        value = float((pair["full"] < pair["1"]).mean()) if len(pair) else None
    stats.append(
        stat_row(
            statistic="tree_deeper_better_fraction",
            dataset="all",
            method="Tree",
            value=value,
            part=part,
            note="fraction of data sets where the fully grown tree's error is below the "
            "stump's, over the data sets made from real data",
            flag_missing=True,
        )
    )
    return stats


def summarise(figure: str, cells: pd.DataFrame) -> pd.DataFrame:
    """The summary statistics of one figure."""
    import pandas as pd

    make = {
        "thesis-fig2_1": summary_fig2_1,
        "thesis-fig2_2": summary_fig2_2,
        "thesis-fig2_3": summary_fig2_3,
    }[figure]
    return pd.DataFrame(make(cells))


# --------------------------------------------------------------------------- spread
# The summary statistics that are means of one value per repeat (a mean error over fractions,
# a difference of two such means, an accuracy); the others (fractions of data sets, ranks,
# ranges, extremes over C) are not, and rest on their one value.
PER_REPEAT = (
    "mean_error",
    "mcssb_minus_tree",
    "mcssb_minus_assemble",
    "mcssb_absolute_minus_mcssb",
    "accuracy_at_2pct",
    "accuracy_at_8pct",
    "full_minus_stump",
    *(f"mcssb_minus_tree_at_{frac:g}pct" for frac in FRACTIONS),
)


def summary_samples(figure: str, runs: pd.DataFrame, options: dict[str, Any]) -> pd.DataFrame:
    """Each repeat's value of the :data:`PER_REPEAT` statistics: the samples of the summary
    (``results/<figure>_summary.samples.csv``, read by :mod:`boostrank.report.claims`). Every
    method of a repeat shares its partition and labelled rows (section 2.4.1), so a repeat is
    a paired unit."""
    import pandas as pd

    frames = []
    for repeat, part in runs.groupby("repeat", sort=True):
        stats = summarise(figure, select(aggregate(part), figure, options))
        keep = stats[stats["statistic"].isin(PER_REPEAT) & (stats["value"] != "")]
        frames.append(
            keep[["statistic", "dataset", "method", "value"]].assign(unit=f"repeat{repeat}")
        )
    columns = ["statistic", "dataset", "method", "measure", "unit_kind", "unit", "value"]
    if not frames:
        return pd.DataFrame(columns=columns)
    samples = pd.concat(frames, ignore_index=True).assign(measure="value", unit_kind="repeat")
    return samples[columns]


def with_intervals(cells: pd.DataFrame, runs: pd.DataFrame, seed: int) -> pd.DataFrame:
    """``cells`` with ``ci_low`` and ``ci_high``: the 95% bootstrap interval of each cell's mean
    error over its repeats (:func:`boostrank.report.spread.spread`, the claims' rule), which
    the figures draw as bands."""
    from boostrank.report.spread import spread

    keys = ["dataset", "method_id", "fraction", "C", "depth"]
    errors = runs[runs["error"].notna()].groupby(keys, sort=False)["error"]
    low, high = [], []
    for key in cells[keys].itertuples(index=False, name=None):
        found = spread(errors.get_group(key).to_numpy(), "repeat", seed, "chapter2", *key)
        low.append(round(found.ci_low, 6))
        high.append(round(found.ci_high, 6))
    return cells.assign(ci_low=low, ci_high=high)


# --------------------------------------------------------------------------- figure numbers
def mean_full_depth(cells: pd.DataFrame, dataset: str) -> float:
    """Where Figure 2.3 draws a data set's fully grown tree: the mean measured depth."""
    import numpy as np

    part = cells[cells["dataset"] == dataset]
    return float(np.nanmean(part["full_depth"]))


def depth_positions(line: pd.DataFrame, full: float) -> pd.Series:
    """The x of each depth of a Figure 2.3 line: the depth, or ``full`` for the fully grown
    tree."""
    return line["depth"].map(lambda d, f=full: f if d == "full" else float(d))


def constant_class_share(cells: pd.DataFrame, method_id: str) -> float | None:
    """The share of a method's runs that predicted a single class (None when the cells hold
    no run of it)."""
    part = cells[cells["method_id"] == method_id]
    if part.empty or "constant_share" not in part:
        return None
    return float(part["constant_share"].mean())


def figure_cells(
    figure: str, runs: pd.DataFrame, options: dict[str, Any], seed: int
) -> pd.DataFrame:
    """The tidy results of one figure from its runs (:func:`read_runs`), with each cell's
    interval over the repeats."""
    cells = select(aggregate(runs), figure, options).reset_index(drop=True)
    return with_intervals(cells, runs, seed)


def figure_guards(figure: str, runs: pd.DataFrame, options: dict[str, Any]) -> list[Any]:
    """The runs (with their column ``guards``, :mod:`boostrank.guards`) the figure
    shows (:func:`select`: Figures 2.2 and 2.3 read only Figure 2.1's reference runs), one
    per run; none for runs written before the column existed."""
    if "guards" not in runs.columns:
        return []
    return select(runs, figure, options).to_dict("records")


__all__ = [
    "FRACTIONS",
    "PER_REPEAT",
    "aggregate",
    "constant_class_share",
    "depth_positions",
    "figure_cells",
    "figure_guards",
    "mean_full_depth",
    "read_runs",
    "select",
    "summarise",
    "summary_fig2_1",
    "summary_fig2_2",
    "summary_fig2_3",
    "summary_samples",
    "with_intervals",
]
