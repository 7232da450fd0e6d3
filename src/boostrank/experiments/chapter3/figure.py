"""Figure 3.1 of Valizadegan (2010), chapter 3, section 3.4.2: the figure (one panel per LETOR
3.0 data set, NDCG@k against k = 1..10, one line per algorithm, LambdaMART dashed) and its table
of NDCG@1, 3, 5, 10, drawn from the frames of :mod:`boostrank.experiments.chapter3.summary`
(the figure job, :mod:`.make`, writes the results CSVs).

Each retrained baseline's LETOR 3.0 published value is drawn as an open marker of the baseline's
colour. Where the data are a stand-in (the .Gov panels here) those markers are the only real
numbers in the panel.

Kept apart from the training code so that redrawing never retrains: only the figure job lists
this module among its inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter3.spec import ALGORITHMS
from boostrank.experiments.chapter3.summary import results_table

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


def _formula_note(formula: str) -> str:
    if formula == "letor":
        return (
            "NDCG of LETOR's evaluation script (gain 2^r-1; positions 1-2 undiscounted, then "
            "1/log2(p); no-relevant queries score 0)"
        )
    return "NDCG with gain 2^r-1 and discount 1/log2(1+p) (trec_eval's ndcg_cut)"


def _draw_lines(ax: Any, part: pd.DataFrame, handles: dict[str, Any]) -> None:
    """One panel's line per algorithm, with the values stated in section 3.4.2 as stars."""
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


def _draw_panel(
    ax: Any, part: pd.DataFrame, band: pd.DataFrame | None, k_max: int, handles: dict[str, Any]
) -> None:
    """One data set's panel: NDCG_Boost's shaded interval, the lines, LETOR's published values
    as open markers, the title (the folds when not five) and the axes."""
    from boostrank.plots import shade_band

    if band is not None and not band.empty:
        shade = shade_band(
            ax,
            band["k"],
            band["low"],
            band["high"],
            STYLE["ndcg_boost"][0],
            label="NDCG_Boost: 95% interval over the test queries",
        )
        handles.setdefault("band", shade)
    _draw_lines(ax, part, handles)
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


def _protocol_note(tidy: pd.DataFrame, formula: str) -> str:
    """The caption's first sentence: the NDCG formula, the means, the replicates and the tie
    break."""
    tie = str(tidy["tie_break"].iloc[0]) if "tie_break" in tidy else "file_order"
    replicates = int(tidy["replicates"].max()) if "replicates" in tidy else 1
    single = sorted(tidy.loc[tidy["replicates"] == 1, "dataset"].unique()) if replicates > 1 else []
    return (
        _formula_note(formula)
        + "; mean over each fold's test queries, then over the folds"
        + (
            f" (each query's NDCG averaged over {replicates} replicates: NDCG_Boost and the"
            " rankers that draw random numbers retrained with each replicate's seed"
            + (", every ranker under each replicate's tie break" if tie == "random" else "")
            + (f"; one run on the stand-ins {', '.join(single)}" if single else "")
            + ")"
            if replicates > 1
            else ""
        )
        + "; equal scores in "
        + (
            "a seeded random order."
            if tie == "random"
            else "the test file's order (LETOR's evaluation script)."
        )
    )


def _caption(tidy: pd.DataFrame, formula: str, handles: dict[str, Any], compared: str) -> str:
    """The figure's caption: the protocol, the band, what the open markers are and which
    values the comparative claims rank, and the algorithms not drawn."""
    text = _protocol_note(tidy, formula)
    if "band" in handles:
        text += (
            " Shaded: NDCG_Boost's 95% bootstrap interval over the test queries (resampled "
            "within each fold), the interval its claims are judged with."
        )
    if "letor" in handles:
        text += (
            " Open markers: the NDCG LETOR 3.0 published for its baselines (the reference the "
            "dissertation compares with); lines: our retrained baselines. The comparative "
            "claims (second best, leads, below Regression) rank NDCG_Boost among "
            + (
                "LETOR's published values (open markers)."
                if compared == "published"
                else "our retrained baselines (lines)."
            )
        )
        if (tidy["data_kind"] == "synthetic").any():
            text += (
                " On the panels marked [synthetic stand-in] our lines are made from stand-in "
                "data: only the published markers there are real numbers."
            )
    else:
        text += " LETOR's published baseline values: not fetched (no mirror holds them)."
    missing = [a.label for a in ALGORITHMS if a.key not in handles]
    if missing:
        text += " Not available yet: " + ", ".join(missing) + "."
    return text


def draw_figure(
    tidy: pd.DataFrame,
    prefix: Path | str,
    formula: str,
    sources: Sequence[str] = (),
    bands: dict[str, pd.DataFrame] | None = None,
    compared: str = "published",
) -> None:
    """Figure 3.1: one panel per data set, NDCG@k against k, one line per algorithm;
    ``sources``: more provenance lines for the footer (LETOR's published values); ``bands``:
    NDCG_Boost's interval per data set (:func:`ndcg_boost_bands`), drawn shaded; ``compared``:
    which baseline values the comparative claims rank (named in the caption)."""
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
        band = (bands or {}).get(str(ds))
        _draw_panel(ax, tidy[tidy["dataset"] == ds], band, k_max, handles)
    for ax in flat[len(datasets) :]:
        ax.axis("off")
    legend_ax = flat[len(datasets)] if len(datasets) < len(flat) else None
    ordered = [handles[a.key] for a in ALGORITHMS if a.key in handles]
    ordered += [handles[h] for h in ("band", "published", "letor") if h in handles]
    text = _caption(tidy, formula, handles, compared)
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
    from boostrank.report.render import write_table

    table, shown = results_table(tidy)
    formula = str(tidy["formula"].iloc[0])
    caption = (
        f"Figure 3.1 (Valizadegan 2010) as a table: test NDCG@1, 3, 5, 10, mean ± sd over the "
        f"LETOR folds; {_formula_note(formula)}; published values (section 3.4.2) in "
        "parentheses. LambdaMART is a reference, not in the dissertation."
    )
    write_table(prefix, table, shown, caption)
    return table


__all__ = ["STYLE", "draw_figure", "write_results_table"]
