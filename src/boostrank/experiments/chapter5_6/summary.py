"""The tables and claim statistics of Figures 5.1, 5.2, 6.1 and 6.2 of Valizadegan (2010),
chapters 5-6, from the run CSVs of :mod:`boostrank.experiments.chapter5_6.jobs`: each figure's
tidy CSV and the summary statistics the claims read (one row per statistic and data set), and
the supplementary eta sweep's best gammas. No drawing: that is in ``figure``.

Aggregate statistics ("on most data sets") are computed over the data sets made from real data
only; synthetic stand-ins keep their own per-data-set rows (NOT-COMPARABLE) but do not vote.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter5_6.spec import DATASETS, LABELS
from boostrank.report.stat_rows import stat_row

if TYPE_CHECKING:
    import pandas as pd

# The default of config chapter5.gap (reading chapter6_big_gap): final errors this far apart
# are a "big gap" (section 6.4.2, Banditron_Worst against Banditron_Best) and, over the gamma
# grid, what "sensitive to the choice of parameter gamma" (section 5.4.1) reads.
GAP = 0.05


def _row(**fields: Any) -> dict[str, Any]:
    """A statistic's row (:func:`stat_row`); one that reads several data kinds (synthetic and
    real) names them all, joined."""
    return stat_row(kinds="joined", **fields)


def load_runs(inputs: Sequence[Path | str]) -> pd.DataFrame:
    """Concatenate the run CSVs (``gamma`` stays numeric; NaN for rules and the Perceptron)."""
    import pandas as pd

    frames = [pd.read_csv(p, keep_default_na=True) for p in inputs]
    if not frames:
        raise BoostrankError("no run CSVs given")
    runs = pd.concat(frames, ignore_index=True)
    order = {d: i for i, d in enumerate(DATASETS)}
    runs["_order"] = runs["dataset"].map(lambda d: order.get(d, len(order)))
    return runs.sort_values(["_order", "method", "gamma", "trial"], kind="stable").drop(
        columns="_order"
    )


def finals(runs: pd.DataFrame) -> pd.DataFrame:
    """The rows of the last trial (final cumulative error) of every curve."""
    out = runs[runs["trial"] == runs["trials"]].copy()
    return out.rename(columns={"error": "final_error"})


def best_rows(final: pd.DataFrame) -> pd.DataFrame:
    """Per (data set, method): the gamma of the lowest final error (ties: smallest gamma)."""
    ordered = final.sort_values(["dataset", "method", "final_error", "gamma"], kind="stable")
    return ordered.groupby(["dataset", "method"], sort=False).head(1)


def _real(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["data_kind"] != "synthetic"]


def _aggregate_note(frame: pd.DataFrame) -> str:
    real = list(dict.fromkeys(_real(frame)["dataset"]))
    left = sorted(set(frame["dataset"]) - set(real))
    note = f"over the {len(real)} data sets with real data ({', '.join(real)})"
    if left:
        note += f"; synthetic stand-ins left out: {', '.join(left)}"
    return note


def _fraction(flags: dict[str, bool], frame: pd.DataFrame) -> float | None:
    real = set(_real(frame)["dataset"])
    votes = [v for d, v in flags.items() if d in real]
    return sum(votes) / len(votes) if votes else None


# --------------------------------------------------------------------------- statistics
def stats_fig5_2(final: pd.DataFrame) -> list[dict[str, Any]]:
    """Best gamma and final error per method; exp. gradient minus Banditron per data set."""
    stats = []
    best = best_rows(final)
    for row in best.itertuples():
        part = final[final["dataset"] == row.dataset]
        for statistic, value in (("best_gamma", row.gamma), ("best_final_error", row.final_error)):
            stats.append(
                _row(
                    statistic=statistic,
                    dataset=row.dataset,
                    method=row.method,
                    value=value,
                    part=part,
                    note="",
                )
            )
    for ds, part in best.groupby("dataset", sort=False):
        by = part.set_index("method")["final_error"]
        if {"Exp. gradient", "Banditron"} <= set(by.index):
            diff = by["Exp. gradient"] - by["Banditron"]
            note = "final error at each method's best gamma: exp. gradient minus Banditron"
            stats.append(
                _row(
                    statistic="eg_minus_banditron",
                    dataset=ds,
                    method="Exp. gradient",
                    value=diff,
                    part=part,
                    note=note,
                )
            )
    return stats


def stats_fig5_2_overall(final: pd.DataFrame, *, gap: float = GAP) -> list[dict[str, Any]]:
    """Figure 5.2 across data sets (section 5.4.1): the relative gap |EG - Banditron| /
    Banditron of the two methods' best-gamma final errors averaged over the real data sets
    ("the exponential gradient algorithm shows comparable performance compared with the
    original Banditron algorithm"); per (data set, method) the range of the final error over the
    gamma grid and per method the fraction of real data sets where it is at least ``gap``
    ("these algorithms are sensitive to the choice of parameter gamma")."""
    stats = []
    agg = _aggregate_note(final)
    best = best_rows(_real(final)).pivot_table(
        index="dataset", columns="method", values="final_error"
    )
    value = None
    if {"Exp. gradient", "Banditron"} <= set(best.columns):
        both = best[["Exp. gradient", "Banditron"]].dropna().mean()
        if both["Banditron"] > 0:
            value = abs(both["Exp. gradient"] - both["Banditron"]) / both["Banditron"]
    note = "|EG - Banditron| / Banditron of the mean best-gamma final errors; " + agg
    stats.append(
        _row(
            statistic="eg_banditron_relative_gap",
            dataset="all",
            method="Exp. gradient",
            value=value,
            part=_real(final),
            note=note,
        )
    )
    flags: dict[str, dict[str, bool]] = {}
    for (ds, method), part in final.groupby(["dataset", "method"], sort=False):
        if part["gamma"].nunique() < 2:
            continue
        spread = float(part["final_error"].max() - part["final_error"].min())
        flags.setdefault(method, {})[ds] = spread >= gap
        note = "max - min of the final error over the gamma grid"
        stats.append(
            _row(
                statistic="final_error_range_over_gamma",
                dataset=ds,
                method=method,
                value=spread,
                part=part,
                note=note,
            )
        )
    for method, fl in flags.items():
        note = f"fraction of data sets where the final error spans >= {gap:g} over the gamma grid"
        stats.append(
            _row(
                statistic="gamma_sensitive_fraction",
                dataset="all",
                method=method,
                value=_fraction(fl, final),
                part=_real(final),
                note=note + "; " + agg,
            )
        )
    return stats


def stats_fig5_1(curves: pd.DataFrame) -> list[dict[str, Any]]:
    """Full-vs-partial gap, and where the exp. gradient's curve lies below Banditron_Pos's."""
    stats = []
    flags = {}
    for ds, part in curves.groupby("dataset", sort=False):
        last = part[part["trial"] == part["trials"]].set_index("method")["error"]
        bandit = [m for m in ("Exp. gradient", "Banditron", "Banditron_Pos") if m in last.index]
        if "Perceptron" in last.index and bandit:
            gap = float(last[bandit].min() - last["Perceptron"])
            note = "best bandit method's final error minus the Perceptron's (full feedback)"
            stats.append(
                _row(
                    statistic="full_partial_gap",
                    dataset=ds,
                    method="Perceptron",
                    value=gap,
                    part=part,
                    note=note,
                )
            )
        eg = part[part["method"] == "Exp. gradient"].set_index("trial")["error"]
        pos = part[part["method"] == "Banditron_Pos"].set_index("trial")["error"]
        if len(eg) and len(pos):
            common = eg.index.intersection(pos.index)
            frac = float((eg[common] < pos[common]).mean())
            note = "fraction of checkpoints where exp. gradient's error < Banditron_Pos's"
            stats.append(
                _row(
                    statistic="eg_below_pos_fraction",
                    dataset=ds,
                    method="Exp. gradient",
                    value=frac,
                    part=part,
                    note=note,
                )
            )
            flags[ds] = frac > 0.5
    value = _fraction(flags, curves)
    note = "fraction of data sets where exp. gradient is below Banditron_Pos at most checkpoints"
    stats.append(
        _row(
            statistic="eg_faster_than_pos",
            dataset="all",
            method="Exp. gradient",
            value=value,
            part=_real(curves),
            note=note + "; " + _aggregate_note(curves),
        )
    )
    return stats


# Figure 6.2's lines (section 6.4.2): the adaptive Banditrons ag0-ag3 and the Banditron with
# its best and worst gamma.
FIG6_2_LINES = ("ag0", "ag1", "ag2", "ag3", "banditron_best", "banditron_worst")


def _fig6_2_flags(e: dict[str, float], tolerance: float, gap: float) -> dict[str, bool]:
    """Section 6.4.2's comparisons on one data set, from its final errors ``e`` by line."""
    ag0, ag1, ag2, ag3 = e["ag0"], e["ag1"], e["ag2"], e["ag3"]
    best, worst = e["banditron_best"], e["banditron_worst"]
    return {
        # "banditron_ag2 and banditron_ag3 yields the best performance among the algorithms
        # in comparison": against every other line of Figure 6.2
        "ag23_best_overall": min(ag2, ag3) <= min(ag0, ag1, best, worst),
        "ag2_beats_ag0": ag2 < ag0,
        "ag3_beats_ag0": ag3 < ag0,
        "ag23_match_best": min(ag2, ag3) <= best + tolerance,
        "ag1_worse_than_ag23": ag1 > max(ag2, ag3),
        "ag1_beats_worst": ag1 < worst,
        "best_worst_gap": worst - best >= gap,
        # "our adaptive strategy is better than the Banditron with a single best gamma"
        "ag23_beat_best": min(ag2, ag3) < best,
    }


def _fig6_2_gaps(ds: str, e: dict[str, float], part: pd.DataFrame) -> list[dict[str, Any]]:
    """Figure 6.2 on one data set: Banditron_Worst minus Banditron_Best, ag0 minus ag2, and
    Banditron_Best minus the worse of ag2 and ag3 (final errors ``e`` by line)."""
    ag23 = max(e["ag2"], e["ag3"])
    gaps = (
        ("worst_minus_best", "Banditron_Best", e["banditron_worst"] - e["banditron_best"], ""),
        ("ag0_minus_ag2", "Banditron_ag2", e["ag0"] - e["ag2"], ""),
        (
            "best_minus_ag23",
            "Banditron_ag2",
            e["banditron_best"] - ag23,
            "Banditron_Best's final error minus the worse of ag2 and ag3",
        ),
    )
    return [
        _row(
            statistic=statistic,
            dataset=ds,
            method=method,
            value=value,
            part=part,
            note=note,
        )
        for statistic, method, value, note in gaps
    ]


def _fig6_2_fractions(
    final: pd.DataFrame, flags: dict[str, dict[str, bool]], tolerance: float, gap: float
) -> list[dict[str, Any]]:
    """Each comparison of :func:`_fig6_2_flags` as the fraction of the real data sets where
    it holds (``flags``: by comparison, whether it holds on each data set)."""
    notes = {
        "ag23_best_overall": "fraction of data sets where the better of ag2/ag3 has the lowest "
        "final error of the algorithms of Figure 6.2 (ag0-ag3, Banditron_Best, Banditron_Worst)",
        "ag2_beats_ag0": "fraction of data sets where ag2's final error < ag0's",
        "ag3_beats_ag0": "fraction of data sets where ag3's final error < ag0's",
        "ag23_match_best": f"fraction of data sets where the better of ag2/ag3 ends within "
        f"{tolerance} of Banditron_Best or below it",
        "ag1_worse_than_ag23": "fraction of data sets where ag1 ends above both ag2 and ag3",
        "ag1_beats_worst": "fraction of data sets where ag1 ends below Banditron_Worst",
        "best_worst_gap": f"fraction of data sets where Banditron_Worst ends >= {gap:g} above "
        "Banditron_Best",
        "ag23_beat_best": "fraction of data sets where the better of ag2/ag3 ends below "
        "Banditron_Best",
    }
    agg = _aggregate_note(final)
    return [
        _row(
            statistic=key,
            dataset="all",
            method="",
            value=_fraction(flags.get(key, {}), final),
            part=_real(final),
            note=note + "; " + agg,
        )
        for key, note in notes.items()
    ]


def _fig6_2_examples(
    final: pd.DataFrame, by_line: dict[str, dict[str, float]]
) -> list[dict[str, Any]]:
    """How many real data sets show section 6.4.2's two worked examples (ag2 45% against
    ag0's 38%; ag2 and ag3 at 56% against Banditron_Best's 60% and ag0's 62%)."""
    real = _real(final)
    ex1 = ex2 = 0
    for ds, e in by_line.items():
        if final.loc[final["dataset"] == ds, "data_kind"].iloc[0] != "synthetic":
            ag23 = max(e["ag2"], e["ag3"])
            ex1 += e["ag0"] - e["ag2"] >= 0.07
            ex2 += (e["banditron_best"] - ag23 >= 0.04) and (e["ag0"] - ag23 >= 0.06)
    agg = _aggregate_note(final)
    return [
        _row(
            statistic="example_ag0_ag2_count",
            dataset="all",
            method="Banditron_ag2",
            value=ex1,
            part=real,
            note="data sets where ag2 ends >= 0.07 below ag0 (as 45% vs 38%); " + agg,
        ),
        _row(
            statistic="example_ag23_best_count",
            dataset="all",
            method="Banditron_ag2",
            value=ex2,
            part=real,
            note="data sets where ag2 and ag3 both end >= 0.04 below Banditron_Best and >= 0.06 "
            "below ag0 (as 56% vs 60% and 62%); " + agg,
        ),
    ]


def stats_fig6_2(
    final: pd.DataFrame, tolerance: float, *, gap: float = GAP
) -> list[dict[str, Any]]:
    """The comparisons of section 6.4.2, per data set (:func:`_fig6_2_gaps`) and as fractions
    over data sets (:func:`_fig6_2_fractions`, :func:`_fig6_2_examples`; ``tolerance``:
    "similar or better"; ``gap``: a "big gap"), on the data sets that have every line."""
    stats = []
    flags: dict[str, dict[str, bool]] = {}
    by_line = {}
    for ds, p in final.groupby("dataset"):
        e = p.set_index("method")["final_error"]
        if not {LABELS[r] for r in FIG6_2_LINES} <= set(e.index):
            continue
        by_line[ds] = {r: e[LABELS[r]] for r in FIG6_2_LINES}
        for key, holds in _fig6_2_flags(by_line[ds], tolerance, gap).items():
            flags.setdefault(key, {})[ds] = holds
        stats += _fig6_2_gaps(ds, by_line[ds], final[final["dataset"] == ds])
    stats += _fig6_2_fractions(final, flags, tolerance, gap)
    return stats + _fig6_2_examples(final, by_line)


# --------------------------------------------------------------------------- figures
def published_best_gamma(claims: Path | str, datasets: Sequence[str]) -> dict[str, float]:
    """Section 6.1's best gamma per data set, from the claims registry (Figure 6.1 draws
    them as markers; the claims check them)."""
    from boostrank.report.claims import load_claims, published_value

    registry = load_claims(claims)
    out = {}
    for ds in datasets:
        row = {"statistic": "best_gamma", "dataset": ds}
        value = published_value(registry, "results/thesis-fig6_1_summary.csv", row, "value")
        if value is not None:
            out[ds] = float(value)
    return out


CURVE_COLUMNS = [
    "figure",
    "dataset",
    "dataset_label",
    "method",
    "gamma",
    "mean_gamma_t",
    "runs",
    "trial",
    "trials",
    "error",
    "sd",
    "scaling",
    "importance",
    "eta_factor",
    "data_kind",
    "provenance",
]
FINAL_COLUMNS = [
    "dataset",
    "dataset_label",
    "method",
    "gamma",
    "runs",
    "trials",
    "final_error",
    "sd",
    "scaling",
    "importance",
    "eta_factor",
    "data_kind",
    "provenance",
]


def figure_tables(
    figure: str, runs: pd.DataFrame, tolerance: float = 0.01, *, gap: float = GAP
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One figure's frames from its runs (:func:`load_runs`): the rows it draws (final errors
    against gamma for Figures 5.2 and 6.1, curves over trials for 5.1 and 6.2), its tidy CSV
    and its summary statistics (``tolerance``: Figure 6.2's "similar or better"; ``gap``: its
    "big gap" and section 5.4.1's "sensitive to the choice of parameter gamma")."""
    import pandas as pd

    if figure in ("thesis-fig5_2", "thesis-fig6_1"):
        final = finals(runs)
        if figure == "thesis-fig6_1":
            final = final[final["method"] == "Banditron"]
        tidy = final[FINAL_COLUMNS].copy()
        tidy["figure"] = figure
        stats = stats_fig5_2(final)
        if figure == "thesis-fig5_2":
            stats += stats_fig5_2_overall(final, gap=gap)
        return final, tidy, pd.DataFrame(stats)
    if figure == "thesis-fig5_1":
        final = finals(runs)
        best = best_rows(final[final["method"] != "Perceptron"])
        keep = pd.concat(
            [
                best[["dataset", "method", "gamma"]],
                final[final["method"] == "Perceptron"][["dataset", "method", "gamma"]],
            ]
        )
        tidy = runs.merge(keep, on=["dataset", "method", "gamma"])
        tidy = tidy[CURVE_COLUMNS].copy()
        tidy["figure"] = figure
        return tidy, tidy, pd.DataFrame(stats_fig5_1(tidy))
    if figure == "thesis-fig6_2":
        tidy = runs[CURVE_COLUMNS].copy()
        tidy["figure"] = figure
        return tidy, tidy, pd.DataFrame(stats_fig6_2(finals(runs), tolerance, gap=gap))
    raise BoostrankError(f"unknown figure '{figure}'")


def load_finals(inputs: Sequence[Path | str]) -> pd.DataFrame:
    """Each run's final error (the runs' ``.finals.csv``), indexed by (data set, method,
    gamma, run); the Perceptron's and the adaptive rules' gamma is -1."""
    import pandas as pd

    frame = pd.concat([pd.read_csv(p) for p in inputs], ignore_index=True)
    frame["gamma"] = frame["gamma"].fillna(-1.0)
    return frame.set_index(["dataset", "method", "gamma", "run"])["final_error"].sort_index()


def _per_run(per_run: pd.Series, dataset: str, method: str, gamma: float) -> pd.Series:
    """One curve's final errors by run (``gamma`` NaN: a method without one)."""
    return per_run.loc[(dataset, method, -1.0 if gamma != gamma else round(float(gamma), 6))]


def summary_samples(figure: str, drawn: pd.DataFrame, per_run: pd.Series) -> pd.DataFrame:
    """Each run's value of the per-data-set differences of final errors (eg_minus_banditron,
    full_partial_gap, Figure 6.2's worst_minus_best, ag0_minus_ag2, best_minus_ag23): the
    samples of the summary (``results/<figure>_summary.samples.csv``), one unit per random
    ordering, shared by the methods compared. The method each side stands for (its best gamma,
    the best bandit method) is the one the summary picked on the mean over runs. ``drawn``:
    the rows the figure draws (:func:`figure_tables`), final errors for Figure 5.2 and
    curves for Figures 5.1 and 6.2."""

    from boostrank.report.spread import samples_table

    rows: list[tuple[str, str, str, pd.Series]] = []
    if figure == "thesis-fig5_2":
        best = best_rows(drawn).set_index(["dataset", "method"])["gamma"]
        for ds in dict.fromkeys(best.index.get_level_values(0)):
            if {(ds, "Exp. gradient"), (ds, "Banditron")} <= set(best.index):
                eg = _per_run(per_run, ds, "Exp. gradient", best[(ds, "Exp. gradient")])
                bandit = _per_run(per_run, ds, "Banditron", best[(ds, "Banditron")])
                rows.append(("eg_minus_banditron", ds, "Exp. gradient", eg - bandit))
    elif figure == "thesis-fig5_1":
        for ds, part in finals(drawn).groupby("dataset", sort=False):
            by = part.set_index("method")
            bandit = [m for m in ("Exp. gradient", "Banditron", "Banditron_Pos") if m in by.index]
            if "Perceptron" in by.index and bandit:
                m = by.loc[bandit, "final_error"].idxmin()
                gap = _per_run(per_run, ds, m, by.loc[m, "gamma"]) - _per_run(
                    per_run, ds, "Perceptron", float("nan")
                )
                rows.append(("full_partial_gap", ds, "Perceptron", gap))
    elif figure == "thesis-fig6_2":
        names = {r: LABELS[r] for r in ("ag0", "ag2", "ag3", "banditron_best", "banditron_worst")}
        for ds, part in finals(drawn).groupby("dataset", sort=False):
            by = part.set_index("method")
            if not set(names.values()) <= set(by.index):
                continue
            e = {r: _per_run(per_run, ds, n, by.loc[n, "gamma"]) for r, n in names.items()}
            worse23 = "ag2" if by.loc[names["ag2"], "final_error"] >= by.loc[
                names["ag3"], "final_error"] else "ag3"  # fmt: skip
            rows += [
                (
                    "worst_minus_best",
                    ds,
                    "Banditron_Best",
                    e["banditron_worst"] - e["banditron_best"],
                ),
                ("ag0_minus_ag2", ds, "Banditron_ag2", e["ag0"] - e["ag2"]),
                ("best_minus_ag23", ds, "Banditron_ag2", e["banditron_best"] - e[worse23]),
            ]
    keys = ["statistic", "dataset", "method"]
    groups = [
        (
            {"statistic": stat, "dataset": ds, "method": method},
            [f"run{r}" for r in diff.index],
            diff,
        )
        for stat, ds, method, diff in rows
    ]
    return samples_table(groups, "run", keys)


def runs_per_method(runs: pd.DataFrame) -> dict[str, int]:
    """Each method's number of runs (the figures' notes state them)."""
    return {m: int(r) for m, r in runs.groupby("method", sort=False)["runs"].first().items()}


# --------------------------------------------------------------------------- eta sweep
def load_eta_runs(inputs: Sequence[Path | str]) -> pd.DataFrame:
    """Concatenate the eta sweep's per-data-set CSVs."""
    import pandas as pd

    return pd.concat([pd.read_csv(p) for p in inputs], ignore_index=True)


def eta_best(runs: pd.DataFrame) -> pd.DataFrame:
    """Per (data set, input scale, factor): the row of the gamma with the lowest final error."""
    return runs.loc[runs.groupby(["dataset", "input_scale", "eta_factor"])["error"].idxmin()]


__all__ = [
    "CURVE_COLUMNS",
    "FINAL_COLUMNS",
    "GAP",
    "best_rows",
    "eta_best",
    "figure_tables",
    "finals",
    "load_eta_runs",
    "load_finals",
    "load_runs",
    "published_best_gamma",
    "runs_per_method",
    "stats_fig5_1",
    "stats_fig5_2",
    "stats_fig5_2_overall",
    "stats_fig6_2",
    "summary_samples",
]
