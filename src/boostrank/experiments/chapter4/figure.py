"""Figures 4.1-4.6 of Valizadegan (2010), chapter 4: the drawing of each figure from the frames
of :mod:`.summary` (and its modules per figure); :mod:`.make` writes its files."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.spec import ORDER, PROTOCOL_FIGURES
from boostrank.experiments.chapter4.summary_curves import band, curve, datasets_in
from boostrank.experiments.chapter4.summary_feedback import (
    base_quality_rows,
    base_record,
    sizes_of,
    view4_2,
    view4_4,
)
from boostrank.experiments.chapter4.summary_movies import (
    parts4_5,
    timing_fit,
    timing_frame,
    timing_groups,
)
from boostrank.experiments.chapter4.summary_objective import (
    example_query,
    lp_ratio,
    objective_frame,
    objective_runs,
)

if TYPE_CHECKING:
    import pandas as pd

STYLE = {
    "Base ranker": ("#7f7f7f", "o"),
    "Rocchio": ("#1f77b4", "s"),
    "Ranking-SVM": ("#2ca02c", "^"),
    "LRR-Best": ("#ff7f0e", "D"),
    "LRR-Worst": ("#8c564b", "v"),
    "MRR": ("#d62728", "o"),
}
SIZE_COLOURS = ["#fdae61", "#f46d43", "#d73027", "#a50026", "#67001f"]


# --------------------------------------------------------------------------- helpers
def _plot(ax: Any, frame: pd.DataFrame, match: dict[str, Any], colour: str, **style: Any) -> Any:
    """The NDCG curve of the rows matching ``match``, with its 95% band over queries where the
    rows have one; the line's handle (None without rows)."""
    from boostrank.plots import shade_band

    c = curve(frame, **match)
    if c.empty:
        return None
    interval = band(frame, **match)
    if interval is not None:
        shade_band(ax, interval.index, interval["ci_low"], interval["ci_high"], colour)
    (line,) = ax.plot(c.index, c.values, color=colour, **style)
    return line


def _panels(n: int, cols: int = 4) -> tuple[Any, Any, Any]:
    from boostrank.plots import pyplot

    plt = pyplot()
    rows = -(-(n + 1) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols, 3.3 * rows), squeeze=False)
    return plt, fig, axes.ravel()


def _finish_panels(
    fig: Any, flat: Any, used: int, handles: list[Any], text: str, title: str
) -> None:
    import textwrap

    for ax in flat[used:]:
        ax.axis("off")
    if used < len(flat):
        leg = flat[used]
        leg.legend(handles=handles, loc="upper left", frameon=False, fontsize=8)
        leg.text(
            0.0,
            0.0,
            "\n".join(textwrap.wrap(text, 58)),
            fontsize=7,
            va="bottom",
            color="#444444",
            transform=leg.transAxes,
        )
    fig.suptitle(title, fontsize=12)
    fig.tight_layout()


def _style_axis(ax: Any, label: str, k_max: int) -> None:
    ax.set_title(label, fontsize=10, color="#a33" if "synthetic" in label else "black")
    ax.set_xlabel("truncation level k", fontsize=8)
    ax.set_ylabel("NDCG@k", fontsize=8)
    ax.set_xlim(0.5, k_max + 0.5)
    ax.grid(alpha=0.3)
    ax.tick_params(labelsize=8)


def _eval_note(evaluated: str) -> str:
    return (
        "whole list of each query (judged documents included)"
        if evaluated == "all"
        else "unjudged remainder of each query"
        if evaluated == "residual"
        else "held-out rated movies of each test user"
    )


def _mrr_label(view: pd.DataFrame) -> str:
    """The legend name of the configured MRR, with the reading of T (Eq. 4.3) it ran with (its
    rows' ``variant``, ``t_scope=...``), beside the dashed alternative's."""
    scopes = view.loc[view["algorithm"] == "MRR", "variant"].str.removeprefix("t_scope=")
    return f"MRR (T on {scopes.iloc[0]} pairs)" if len(scopes) else "MRR"


def _replicates_note(frame: pd.DataFrame) -> str:
    """Which data sets' curves average several replicates (config ``chapter4.replicates``;
    a synthetic stand-in runs once)."""
    if "replicates" not in frame.columns:
        return ""
    counts = frame.groupby("dataset_label", sort=False)["replicates"].max()
    many = counts[counts > 1]
    if many.empty:
        return ""
    return (
        f" Each query's NDCG averaged over {int(many.max())} replicates (own seeds: tie break, "
        f"MRR's samples, Ranking-SVM's solver) on {', '.join(map(str, many.index))}"
        + ("; the stand-ins run once." if len(many) < len(counts) else ".")
    )


# --------------------------------------------------------------------------- Figure 4.1
def figure4_1(d: dict[str, Any], prefix: str) -> None:
    """L_p against iterations on OHSUMED, with Theorems 9-10."""
    from boostrank.plots import pyplot, save_figure

    obj = objective_frame(d)
    runs = objective_runs(obj)
    main, learner = runs[0]
    scopes = [s for s, w in runs if w == learner]
    label = str(obj["dataset_label"].iloc[0])
    obj_main = obj[obj["weak_learner"] == learner]  # drawn: the configured weak learner
    plt = pyplot()
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.2))
    part = obj_main[obj_main["t_scope"] == main]
    example = example_query(part)
    ex = part[part["qid"] == example]
    ax_a.plot(
        ex["iteration"],
        ex["log_lp"] - ex["log_lp"].iloc[0],
        color="#d62728",
        lw=2,
        label="log L_p^t / L_p^0",
    )
    ax_a.plot(
        ex["iteration"],
        ex["log_theorem9"] - ex["log_lp"].iloc[0],
        color="#1f77b4",
        ls="--",
        label="Theorem 9 bound (Eq. 4.15)",
    )
    ax_a.plot(
        ex["iteration"],
        ex["log_theorem10"] - ex["log_lp"].iloc[0],
        color="#7f7f7f",
        ls=":",
        label="Theorem 10 'bound' (Eq. 4.19)",
    )
    ax_a.set_ylim(min(-2.0, float((ex["log_lp"] - ex["log_lp"].iloc[0]).min()) * 1.5), 0.05)
    ax_a.set_title(
        f"(a) {label} query {example} ({int(ex['documents'].iloc[0])} documents)", fontsize=10
    )
    ax_a.set_xlabel("iteration t")
    ax_a.set_ylabel("log (L_p^t / L_p^0)")
    ax_a.legend(fontsize=8)
    ax_a.grid(alpha=0.3)
    colours = {main: "#d62728"}
    for scope in scopes:
        ratio = lp_ratio(obj_main[obj_main["t_scope"] == scope])
        if scope == main:
            ax_b.plot(ratio.index, ratio.values, color="#cccccc", lw=0.5)
        ax_b.plot(
            ratio.index,
            ratio.median(axis=1),
            lw=2.2,
            color=colours.get(scope, "#1f77b4"),
            label=f"median over queries, T on {scope} pairs",
        )
    ax_b.set_yscale("log")
    ax_b.set_title(f"(b) L_p^t / L_p^0, every {label} query (grey: T on {main} pairs)", fontsize=10)
    ax_b.set_xlabel("iteration t")
    ax_b.set_ylabel("L_p^t / L_p^0")
    ax_b.legend(fontsize=8)
    ax_b.grid(alpha=0.3, which="both")
    fig.suptitle(
        "Figure 4.1 (Valizadegan 2010): reduction of L_p by MRR (Algorithm 6) on OHSUMED",
        fontsize=11,
    )
    fig.tight_layout()
    save_figure(fig, prefix, obj["provenance"])


# --------------------------------------------------------------------------- Figure 4.2
def figure4_2(d: dict[str, Any], prefix: str, evaluated: str) -> None:
    """NDCG@1..25 of the six methods on each data set (and MRR with the other reading of T,
    dashed)."""
    from boostrank.plots import save_figure

    view, alt_names = view4_2(d["frame"], evaluated)
    datasets = datasets_in(view)
    k_max = int(view["k"].max())
    _plt, fig, flat = _panels(len(datasets))
    handles: dict[str, Any] = {}
    for ax, ds in zip(flat, datasets, strict=False):
        part = view[view["dataset"] == ds]
        for alg in ORDER + alt_names:
            colour, marker = STYLE.get(alg, ("#d62728", "."))
            h = _plot(
                ax,
                part,
                {"algorithm": alg},
                colour,
                marker=marker,
                markersize=3,
                lw=2.2 if alg == "MRR" else 1.2,
                ls="--" if alg in alt_names else "-",
                label=_mrr_label(view) if alg == "MRR" else alg,
            )
            if h is not None:
                handles.setdefault(alg, h)
        _style_axis(ax, str(part["dataset_label"].iloc[0]), k_max)
    ordered = [handles[a] for a in ORDER + alt_names if a in handles]
    text = (
        f"NDCG ({view['formula'].iloc[0]} formula) of the {_eval_note(evaluated)}, mean over "
        "all queries (shaded: 95% interval over the queries, mean +- 1.96 sd/sqrt(queries)); "
        "feedback: true grades of the base ranker's top 20. Dashed: MRR with the other reading "
        "of T (Eq. 4.3)." + _replicates_note(view)
    )
    _finish_panels(
        fig,
        flat,
        len(datasets),
        handles=ordered,
        text=text,
        title="Figure 4.2 (Valizadegan 2010): NDCG of relevance feedback",
    )
    save_figure(fig, prefix, view["provenance"])


# --------------------------------------------------------------------------- Figure 4.3
def figure4_3(d: dict[str, Any], prefix: str, evaluated: str) -> None:
    """MRR with the worst, a medium and the best base ranker per data set."""
    from boostrank.plots import save_figure

    frame = d["frame"]
    view = frame[frame["evaluated"] == evaluated]
    datasets = datasets_in(view)
    k_max = int(view["k"].max())
    _plt, fig, flat = _panels(len(datasets))
    colours = {"worst": "#1f77b4", "medium": "#ff7f0e", "best": "#d62728"}
    for ax, ds in zip(flat, datasets, strict=False):
        part = view[view["dataset"] == ds]
        base = base_record(d, ds)
        for which in ("worst", "medium", "best"):
            mrr, g = base_quality_rows(part, which)
            _plot(
                ax,
                mrr,
                {},
                colours[which],
                lw=2,
                marker="o",
                markersize=3,
                label=f"MRR, feature {int(base[which])}",
            )
            g = curve(g)
            ax.plot(g.index, g.values, color=colours[which], lw=1, ls="--")
        ax.legend(fontsize=7, loc="best")
        _style_axis(ax, str(part["dataset_label"].iloc[0]), k_max)
    text = (
        f"Solid: MRR (shaded: 95% interval over the queries); dashed: the base ranker alone "
        f"(same colour). NDCG of the "
        f"{_eval_note(evaluated)}. Worst, median and best single feature by mean NDCG@1..{k_max}."
        + _replicates_note(view)
    )
    _finish_panels(
        fig,
        flat,
        len(datasets),
        handles=[],
        text=text,
        title="Figure 4.3 (Valizadegan 2010): MRR with different base rankers",
    )
    save_figure(fig, prefix, view["provenance"])


# --------------------------------------------------------------------------- Figure 4.4
def figure4_4(d: dict[str, Any], prefix: str, evaluated: str) -> None:
    """MRR with 5, 10, 15 and 20 feedback documents."""
    from boostrank.plots import save_figure

    view, base_rows = view4_4(d["frame"], evaluated)
    datasets = datasets_in(view)
    k_max = int(view["k"].max())
    _plt, fig, flat = _panels(len(datasets))
    handles: dict[int, Any] = {}
    for ax, ds in zip(flat, datasets, strict=False):
        s = sizes_of(view, base_rows, ds)
        part = s["part"]
        for i, size in enumerate(s["sizes"]):
            colour = SIZE_COLOURS[min(i, len(SIZE_COLOURS) - 1)]
            h = _plot(
                ax,
                part,
                {"feedback": size},
                colour,
                lw=1.6,
                marker="o",
                markersize=3,
                label=f"MRR, {size} feedback documents",
            )
            if h is not None:
                handles.setdefault(size, h)
        b = curve(s["base"])
        if not b.empty:
            (h,) = ax.plot(b.index, b.values, color="#7f7f7f", lw=1, ls="--", label="Base ranker")
            handles.setdefault(-1, h)
        _style_axis(ax, str(part["dataset_label"].iloc[0]), k_max)
    ordered = [handles[k] for k in sorted(handles) if k >= 0] + (
        [handles[-1]] if -1 in handles else []
    )
    top = int(view["feedback"].max())
    scored = (
        f"documents after the largest feedback set ({top}), the same for every size"
        if evaluated == "residual"
        else _eval_note(evaluated)
    )
    text = (
        f"NDCG of the {scored} (shaded: 95% interval over the queries); "
        "feedback: the base ranker's top m documents." + _replicates_note(view)
    )
    _finish_panels(
        fig,
        flat,
        len(datasets),
        handles=ordered,
        text=text,
        title="Figure 4.4 (Valizadegan 2010): MRR with different numbers of feedback documents",
    )
    save_figure(fig, prefix, view["provenance"])


# --------------------------------------------------------------------------- Figure 4.5
def figure4_5(d: dict[str, Any], prefix: str) -> None:
    """(a) NDCG of the algorithms on MovieLens; (b) MRR with 5..25 rated movies."""
    from boostrank.plots import pyplot, save_figure

    frame = d["frame"]
    k_max = int(frame["k"].max())
    main, sizes_part, sizes = parts4_5(frame)
    plt = pyplot()
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for alg in ORDER:
        colour, marker = STYLE[alg]
        _plot(
            ax_a,
            main,
            {"algorithm": alg},
            colour,
            marker=marker,
            markersize=3,
            lw=2.2 if alg == "MRR" else 1.2,
            label=alg,
        )
    n_users = int(main["queries"].max())
    feedback = ", ".join(str(int(f)) for f in sorted(main["feedback"].unique()))
    splits = int(frame["replicates"].max()) if "replicates" in frame.columns else 1
    over = f" over {splits} random splits" if splits > 1 else ""
    ax_a.set_title(
        f"(a) algorithms, {feedback} rated movies as feedback ({n_users} test users{over})",
        fontsize=10,
    )
    for i, size in enumerate(sizes):
        b = curve(sizes_part, feedback=size, algorithm="Base ranker")
        colour = SIZE_COLOURS[min(i, len(SIZE_COLOURS) - 1)]
        _plot(
            ax_b,
            sizes_part,
            {"feedback": size, "algorithm": "MRR"},
            colour,
            lw=1.8,
            marker="o",
            markersize=3,
            label=f"MRR, {size} rated movies",
        )
        ax_b.plot(b.index, b.values, color=colour, lw=1, ls="--")
    if sizes:
        ax_b.set_title(
            f"(b) MRR (solid) and PD base ranker (dashed), "
            f"{int(sizes_part['queries'].max())} users",
            fontsize=10,
        )
    for ax in (ax_a, ax_b):
        _style_axis(ax, ax.get_title(), k_max)
        ax.legend(fontsize=8)
    fig.suptitle(
        "Figure 4.5 (Valizadegan 2010): ranking for the recommender system (MovieLens "
        "100K, 19 genre features; NDCG of the held-out rated movies; shaded: 95% interval "
        "over the users)"
        + (
            f"\neach user's NDCG averaged over the {splits} replicates (each its own 20 training "
            "users and feedback movies) in which it is a test user"
            if splits > 1
            else ""
        ),
        fontsize=10,
    )
    fig.tight_layout()
    save_figure(fig, prefix, frame["provenance"])


# --------------------------------------------------------------------------- Figure 4.6
def figure4_6(d: dict[str, Any], prefix: str, bin_width: int = 50) -> None:
    """MRR's running time against the number of rated movies, users grouped by that number."""
    import numpy as np

    from boostrank.plots import pyplot, save_figure

    t = timing_frame(d)
    groups = timing_groups(t, bin_width)
    coef, r2, _share = timing_fit(groups)
    x, y = groups["rated_movies"].to_numpy(), groups["seconds"].to_numpy()
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    ax.scatter(t["rated_movies"], t["seconds"], s=4, color="#cccccc", label="one test user")
    ax.errorbar(
        x,
        y,
        yerr=groups["sd"].fillna(0),
        fmt="o",
        color="#d62728",
        label=f"mean per group of {bin_width} movies",
    )
    if np.isfinite(r2):
        xs = np.linspace(0, x.max(), 50)
        ax.plot(
            xs, np.polyval(coef, xs), color="#1f77b4", lw=1.2, label=f"linear fit (R^2 {r2:.3f})"
        )
    ax.set_xlabel("number of rated movies of the test user")
    ax.set_ylabel(f"MRR running time (s, {int(t['iterations'].iloc[0])} iterations)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.suptitle(
        "Figure 4.6 (Valizadegan 2010): running time of MRR (numpy, one core)", fontsize=10
    )
    fig.tight_layout()
    save_figure(fig, prefix, t["provenance"])


# --------------------------------------------------------------------------- entry point
PROTOCOL_DRAW = {
    "thesis-fig4_2": figure4_2,
    "thesis-fig4_3": figure4_3,
    "thesis-fig4_4": figure4_4,
}


def draw_figure(
    figure: str, d: dict[str, Any], prefix: str, evaluated: str = "all", bin_width: int = 50
) -> None:
    """Draw one of thesis-fig4_1 .. thesis-fig4_6 (Figures 4.2-4.4 under ``evaluated``)."""
    if figure == "thesis-fig4_1":
        figure4_1(d, prefix)
    elif figure in PROTOCOL_FIGURES:
        PROTOCOL_DRAW[figure](d, prefix, evaluated)
    elif figure == "thesis-fig4_5":
        figure4_5(d, prefix)
    elif figure == "thesis-fig4_6":
        figure4_6(d, prefix, bin_width)
    else:
        raise BoostrankError(f"unknown chapter 4 figure {figure!r}")


__all__ = [
    "draw_figure",
    "figure4_1",
    "figure4_2",
    "figure4_3",
    "figure4_4",
    "figure4_5",
    "figure4_6",
]
