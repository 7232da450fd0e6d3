"""Figures 5.1, 5.2, 6.1 and 6.2 of Valizadegan (2010), chapters 5-6, drawn from the run CSVs of
:mod:`boostrank.experiments.chapter5`, with their tidy CSVs and the summary statistics the
claims read (one row per statistic and data set).

Aggregate statistics ("on most data sets") are computed over the data sets made from real data
only; synthetic stand-ins keep their own per-data-set rows (NOT-COMPARABLE) but do not vote.
Kept apart from the run code: redrawing never reruns a learner.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter5 import DATASETS, LABELS

if TYPE_CHECKING:
    import pandas as pd

TITLES = {
    "thesis-fig5_1": "Figure 5.1 (Valizadegan 2010): cumulative error over trials at each "
    "method's best gamma",
    "thesis-fig5_2": "Figure 5.2 (Valizadegan 2010): final error against gamma",
    "thesis-fig6_1": "Figure 6.1 (Valizadegan 2010): Banditron's final error against gamma",
    "thesis-fig6_2": "Figure 6.2 (Valizadegan 2010): cumulative error over trials, adaptive "
    "exploration",
}
STYLE = {
    "Exp. gradient": ("#d62728", "o", "-"),
    "Banditron": ("#1f77b4", "s", "-"),
    "Banditron_Pos": ("#2ca02c", "^", "-"),
    "Perceptron": ("#000000", "", "--"),
    "Banditron_Best": ("#1f77b4", "", "-"),
    "Banditron_Worst": ("#7f7f7f", "", ":"),
    "Banditron_ag0": ("#ff7f0e", "", "-"),
    "Banditron_ag1": ("#8c564b", "", "-"),
    "Banditron_ag2": ("#d62728", "", "-"),
    "Banditron_ag3": ("#9467bd", "", "--"),
}


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


def _stat(
    statistic: str, dataset: str, method: str, value: Any, part: pd.DataFrame, note: str
) -> dict[str, Any]:
    kinds = sorted(set(part["data_kind"]))
    kind = "synthetic" if "synthetic" in kinds else "+".join(kinds)
    return {
        "statistic": statistic,
        "dataset": dataset,
        "method": method,
        "value": "" if value is None else round(float(value), 6),
        "data_kind": kind,
        "provenance": "; ".join(dict.fromkeys(part["provenance"])),
        "note": note,
    }


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
        stats.append(_stat("best_gamma", row.dataset, row.method, row.gamma, part, ""))
        stats.append(_stat("best_final_error", row.dataset, row.method, row.final_error, part, ""))
    for ds, part in best.groupby("dataset", sort=False):
        by = part.set_index("method")["final_error"]
        if {"Exp. gradient", "Banditron"} <= set(by.index):
            diff = by["Exp. gradient"] - by["Banditron"]
            note = "final error at each method's best gamma: exp. gradient minus Banditron"
            stats.append(_stat("eg_minus_banditron", ds, "Exp. gradient", diff, part, note))
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
            stats.append(_stat("full_partial_gap", ds, "Perceptron", gap, part, note))
        eg = part[part["method"] == "Exp. gradient"].set_index("trial")["error"]
        pos = part[part["method"] == "Banditron_Pos"].set_index("trial")["error"]
        if len(eg) and len(pos):
            common = eg.index.intersection(pos.index)
            frac = float((eg[common] < pos[common]).mean())
            note = "fraction of checkpoints where exp. gradient's error < Banditron_Pos's"
            stats.append(_stat("eg_below_pos_fraction", ds, "Exp. gradient", frac, part, note))
            flags[ds] = frac > 0.5
    value = _fraction(flags, curves)
    note = "fraction of data sets where exp. gradient is below Banditron_Pos at most checkpoints"
    stats.append(
        _stat(
            "eg_faster_than_pos",
            "all",
            "Exp. gradient",
            value,
            _real(curves),
            note + "; " + _aggregate_note(curves),
        )
    )
    return stats


def stats_fig6_2(final: pd.DataFrame, tolerance: float) -> list[dict[str, Any]]:
    """The comparisons of section 6.4.2, per data set and as fractions over data sets."""
    stats = []
    by_ds = {ds: p.set_index("method")["final_error"] for ds, p in final.groupby("dataset")}
    names = {
        r: LABELS[r] for r in ("ag0", "ag1", "ag2", "ag3", "banditron_best", "banditron_worst")
    }
    need = set(names.values())
    flags: dict[str, dict[str, bool]] = {
        k: {}
        for k in (
            "ag23_best_adaptive",
            "ag2_beats_ag0",
            "ag3_beats_ag0",
            "ag23_match_best",
            "ag1_worse_than_ag23",
            "ag1_beats_worst",
            "best_worst_gap",
        )
    }
    ex1 = ex2 = 0
    for ds, e in by_ds.items():
        if not need <= set(e.index):
            continue
        ag0, ag1, ag2, ag3 = (e[names[r]] for r in ("ag0", "ag1", "ag2", "ag3"))
        best, worst = e[names["banditron_best"]], e[names["banditron_worst"]]
        part = final[final["dataset"] == ds]
        flags["ag23_best_adaptive"][ds] = min(ag2, ag3) <= min(ag0, ag1)
        flags["ag2_beats_ag0"][ds] = ag2 < ag0
        flags["ag3_beats_ag0"][ds] = ag3 < ag0
        flags["ag23_match_best"][ds] = min(ag2, ag3) <= best + tolerance
        flags["ag1_worse_than_ag23"][ds] = ag1 > max(ag2, ag3)
        flags["ag1_beats_worst"][ds] = ag1 < worst
        flags["best_worst_gap"][ds] = worst - best >= 0.05
        stats.append(_stat("worst_minus_best", ds, "Banditron_Best", worst - best, part, ""))
        stats.append(_stat("ag0_minus_ag2", ds, "Banditron_ag2", ag0 - ag2, part, ""))
        stats.append(
            _stat(
                "best_minus_ag23",
                ds,
                "Banditron_ag2",
                best - max(ag2, ag3),
                part,
                "Banditron_Best's final error minus the worse of ag2 and ag3",
            )
        )
        if part["data_kind"].iloc[0] != "synthetic":
            ex1 += ag0 - ag2 >= 0.07
            ex2 += (best - max(ag2, ag3) >= 0.04) and (ag0 - max(ag2, ag3) >= 0.06)
    notes = {
        "ag23_best_adaptive": "fraction of data sets where the better of ag2/ag3 has the lowest "
        "final error of the four rules",
        "ag2_beats_ag0": "fraction of data sets where ag2's final error < ag0's",
        "ag3_beats_ag0": "fraction of data sets where ag3's final error < ag0's",
        "ag23_match_best": f"fraction of data sets where the better of ag2/ag3 ends within "
        f"{tolerance} of Banditron_Best or below it",
        "ag1_worse_than_ag23": "fraction of data sets where ag1 ends above both ag2 and ag3",
        "ag1_beats_worst": "fraction of data sets where ag1 ends below Banditron_Worst",
        "best_worst_gap": "fraction of data sets where Banditron_Worst ends >= 0.05 above "
        "Banditron_Best",
    }
    agg = _aggregate_note(final)
    for key, fl in flags.items():
        stats.append(
            _stat(key, "all", "", _fraction(fl, final), _real(final), notes[key] + "; " + agg)
        )
    real = _real(final)
    stats.append(
        _stat(
            "example_ag0_ag2_count",
            "all",
            "Banditron_ag2",
            ex1,
            real,
            "data sets where ag2 ends >= 0.07 below ag0 (as 45% vs 38%); " + agg,
        )
    )
    stats.append(
        _stat(
            "example_ag23_best_count",
            "all",
            "Banditron_ag2",
            ex2,
            real,
            "data sets where ag2 and ag3 both end >= 0.04 below Banditron_Best and >= 0.06 "
            "below ag0 (as 56% vs 60% and 62%); " + agg,
        )
    )
    return stats


# --------------------------------------------------------------------------- drawing
def _panels(n: int, plt: Any) -> tuple[Any, Any]:
    cols = 4
    rows = -(-(n + 1) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols, 3.2 * rows), squeeze=False)
    return fig, axes.ravel()


def _finish(fig: Any, flat: Any, n: int, handles: dict[str, Any], title: str, text: str) -> None:
    import textwrap

    for ax in flat[n:]:
        ax.axis("off")
    if n < len(flat):
        flat[n].legend(handles=list(handles.values()), loc="upper left", frameon=False, fontsize=8)
    note = "\n".join(textwrap.wrap(text, 160))
    fig.suptitle(f"{title}\n{note}", fontsize=10)
    fig.tight_layout()


def _style(ax: Any, label: str, synthetic: bool) -> None:
    ax.set_title(label, fontsize=10, color="#a33" if synthetic else "black")
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=8)


def draw_against_gamma(
    final: pd.DataFrame, prefix: Path | str, title: str, text: str, published: dict[str, float]
) -> None:
    """Final error against gamma, one panel per data set, one line per method."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(final["dataset"]))
    fig, flat = _panels(len(datasets), plt)
    handles: dict[str, Any] = {}
    for ax, ds in zip(flat, datasets, strict=False):
        part = final[final["dataset"] == ds]
        for method, line in part.groupby("method", sort=False):
            colour, marker, style = STYLE.get(method, ("#333333", "o", "-"))
            (h,) = ax.plot(
                line["gamma"],
                line["final_error"],
                color=colour,
                marker=marker or "o",
                markersize=3.5,
                linestyle=style,
                label=method,
            )
            handles.setdefault(method, h)
        if ds in published:
            h = ax.axvline(
                published[ds],
                color="#999999",
                linestyle=":",
                linewidth=1.2,
                label="best gamma stated in section 6.1",
            )
            handles.setdefault("published", h)
        _style(ax, part["dataset_label"].iloc[0], part["data_kind"].iloc[0] == "synthetic")
        ax.set_xlabel("gamma", fontsize=8)
        ax.set_ylabel("final cumulative error rate", fontsize=8)
    _finish(fig, flat, len(datasets), handles, title, text)
    save_figure(fig, prefix, final["provenance"])


def draw_over_trials(curves: pd.DataFrame, prefix: Path | str, title: str, text: str) -> None:
    """Cumulative error against trials, one panel per data set, one line per method."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    datasets = list(dict.fromkeys(curves["dataset"]))
    fig, flat = _panels(len(datasets), plt)
    handles: dict[str, Any] = {}
    for ax, ds in zip(flat, datasets, strict=False):
        part = curves[curves["dataset"] == ds]
        for (method, gamma), line in part.groupby(["method", "gamma"], sort=False, dropna=False):
            colour, _, style = STYLE.get(method, ("#333333", "", "-"))
            tag = "" if gamma != gamma else f" (gamma {gamma:g})"  # NaN: no fixed gamma
            (h,) = ax.plot(
                line["trial"],
                line["error"],
                color=colour,
                linestyle=style,
                linewidth=1.3,
                label=method,
            )
            handles.setdefault(method, h)
            if tag:
                ax.annotate(
                    tag.strip(" ()"),
                    (line["trial"].iloc[-1], line["error"].iloc[-1]),
                    fontsize=6,
                    color=colour,
                    xytext=(2, 0),
                    textcoords="offset points",
                )
        _style(ax, part["dataset_label"].iloc[0], part["data_kind"].iloc[0] == "synthetic")
        ax.set_xscale("log")
        ax.set_xlabel("trials", fontsize=8)
        ax.set_ylabel("cumulative error rate", fontsize=8)
    _finish(fig, flat, len(datasets), handles, title, text)
    save_figure(fig, prefix, curves["provenance"])


# --------------------------------------------------------------------------- entry point
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
    "data_kind",
    "provenance",
]


def make_figure(
    figure: str,
    inputs: Sequence[Path | str],
    csv: Path | str,
    summary: Path | str,
    prefix: Path | str,
    tolerance: float = 0.01,
    claims: Path | str = "config/claims.yaml",
) -> pd.DataFrame:
    """Draw one figure and write its tidy CSV and its summary statistics (``claims``: the
    registry Figure 6.1's published best gammas are read from)."""
    import pandas as pd

    from boostrank.io import write_text

    runs = load_runs(inputs)
    runs_note = ", ".join(
        f"{m}: {int(r)} runs" for m, r in runs.groupby("method", sort=False)["runs"].first().items()
    )
    common = (
        "Cumulative error = mistakes of the predicted label / trials so far, mean over "
        f"random orderings ({runs_note})."
    )
    if figure in ("thesis-fig5_2", "thesis-fig6_1"):
        final = finals(runs)
        if figure == "thesis-fig6_1":
            final = final[final["method"] == "Banditron"]
        tidy = final[FINAL_COLUMNS].copy()
        tidy["figure"] = figure
        stats = stats_fig5_2(final)
        text = common + " Each point: one gamma of the grid; lower is better."
        draw_against_gamma(
            final,
            prefix,
            TITLES[figure],
            text,
            published_best_gamma(claims, final["dataset"].unique())
            if figure == "thesis-fig6_1"
            else {},
        )
    elif figure == "thesis-fig5_1":
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
        stats = stats_fig5_1(tidy)
        text = (
            common + " Bandit methods at the gamma of their lowest final error (grid of "
            "Figure 5.2); the Perceptron gets full feedback."
        )
        draw_over_trials(tidy, prefix, TITLES[figure], text)
    elif figure == "thesis-fig6_2":
        tidy = runs[CURVE_COLUMNS].copy()
        tidy["figure"] = figure
        stats = stats_fig6_2(finals(runs), tolerance)
        text = (
            common + " Banditron_Best/Worst: the best and worst gamma of Figure 6.1's "
            "sweep, rerun; ag0-ag3: adaptive gamma_t (omega(z) = (1+z)^0.1)."
        )
        draw_over_trials(tidy, prefix, TITLES[figure], text)
    else:
        raise BoostrankError(f"unknown figure '{figure}'")
    write_text(csv, tidy.to_csv(index=False))
    write_text(summary, pd.DataFrame(stats).to_csv(index=False))
    return tidy


def eta_sweep_figure(
    inputs: Sequence[Path | str], results_csv: Path | str, prefix: Path | str
) -> pd.DataFrame:
    """Supplementary to Figures 5.1/5.2: the exponential gradient's final error at its best
    gamma against the factor on Eq. 5.12's step, for inputs scaled to ||x||_inf <= 1 and raw,
    one panel per data set, with how far theta moved (max |theta - theta^0|)."""
    import pandas as pd

    from boostrank.io import write_text
    from boostrank.plots import pyplot, save_figure

    runs = pd.concat([pd.read_csv(p) for p in inputs], ignore_index=True)
    write_text(results_csv, runs.to_csv(index=False))
    best = runs.loc[runs.groupby(["dataset", "input_scale", "eta_factor"])["error"].idxmin()]
    plt = pyplot()
    datasets = list(dict.fromkeys(best["dataset"]))
    fig, axes = plt.subplots(2, len(datasets), figsize=(4.2 * len(datasets), 5.6), squeeze=False)
    style = {"linf": ("#d62728", "o", "inputs scaled, ||x||_inf <= 1"),
             "raw": ("#1f77b4", "s", "raw inputs")}  # fmt: skip
    for col, ds in enumerate(datasets):
        part = best[best["dataset"] == ds]
        for scale, (color, marker, label) in style.items():
            line = part[part["input_scale"] == scale].sort_values("eta_factor")
            if line.empty:
                continue
            axes[0, col].plot(line["eta_factor"], line["error"], color=color, marker=marker,
                              label=label)  # fmt: skip
            axes[1, col].plot(line["eta_factor"], line["theta_shift"], color=color,
                              marker=marker, label=label)  # fmt: skip
        axes[0, col].set_title(part["dataset_label"].iloc[0], fontsize=10)
        axes[0, col].set_ylabel("final error at the best gamma", fontsize=8)
        axes[1, col].set_ylabel("max |theta - theta0|", fontsize=8)
        axes[1, col].set_yscale("log")
        for ax in axes[:, col]:
            ax.set_xscale("log")
            ax.set_xlabel("factor on Eq. 5.12's step (section 5.4: 1e-5)", fontsize=8)
            ax.grid(alpha=0.3)
            ax.tick_params(labelsize=8)
    axes[0, 0].legend(fontsize=8, frameon=False)
    fig.suptitle("Supplementary to Figures 5.1-5.2: the exponential gradient's step factor",
                 fontsize=11)  # fmt: skip
    fig.tight_layout()
    save_figure(fig, prefix, runs["provenance"])
    return best


# --------------------------------------------------------------------------- command line
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter5-eta-figure``, ``chapter5-figure`` sub-commands."""
    p = subparsers.add_parser("chapter5-eta-figure", help="supplementary: the eta sweep figure")
    p.add_argument("--inputs", nargs="+", required=True)
    p.add_argument("--csv", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.set_defaults(func=lambda a: eta_sweep_figure(a.inputs, a.csv, a.figure_prefix))

    p = subparsers.add_parser("chapter5-figure", help="Figure 5.1, 5.2, 6.1 or 6.2 and its CSVs")
    p.add_argument("figure", choices=("thesis-fig5_1", "thesis-fig5_2", "thesis-fig6_1",
                                      "thesis-fig6_2"))  # fmt: skip
    p.add_argument("--inputs", nargs="+", required=True, help="the run CSVs")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--tolerance", type=float, default=0.01)
    p.add_argument("--claims", default="config/claims.yaml")
    p.set_defaults(
        func=lambda a: make_figure(
            a.figure, a.inputs, a.csv, a.summary, a.figure_prefix, a.tolerance, a.claims
        )
    )
