"""Figures 4.1-4.6 of Valizadegan (2010), chapter 4: the merge of the method families' results
(:mod:`boostrank.experiments.chapter4`) into each figure, its tidy results CSV and the summary
statistics its claims read (one row per claim-able quantity, with ``data_kind`` and
``provenance``; a statistic over several data sets is ``synthetic`` if any of them is).

"Performance" of a curve is its mean over the truncation levels drawn (NDCG@1..25 for LETOR,
NDCG@1..10 for MovieLens).
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4 import DATASETS

if TYPE_CHECKING:
    import pandas as pd

FIRST_THREE = ("ohsumed", "td2003", "td2004")  # section 4.4.2: NDCG falls with k on these
SIMILAR_TOL = 0.02  # "similar performance": mean NDCG within this
STYLE = {
    "Base ranker": ("#7f7f7f", "o"),
    "Rocchio": ("#1f77b4", "s"),
    "Ranking-SVM": ("#2ca02c", "^"),
    "LRR-Best": ("#ff7f0e", "D"),
    "LRR-Worst": ("#8c564b", "v"),
    "MRR": ("#d62728", "o"),
}
ORDER = ["Base ranker", "Rocchio", "Ranking-SVM", "LRR-Best", "LRR-Worst", "MRR"]
SIZE_COLOURS = ["#fdae61", "#f46d43", "#d73027", "#a50026", "#67001f"]


# --------------------------------------------------------------------------- helpers
def _read(inputs: Sequence[Path | str]) -> dict[str, Any]:
    """Sort the inputs by kind: family CSVs, base-ranker JSONs, objective / timing CSVs, npz."""
    import pandas as pd

    from boostrank.io import read_json

    out: dict[str, Any] = {"results": [], "base": {}, "objective": None, "timing": None}
    for path in map(Path, inputs):
        if path.suffix == ".json":
            rec = read_json(path)
            out["base"][rec["dataset"]] = rec
        elif path.suffix == ".npz":
            out["npz"] = path
        elif "objective" in path.name:
            out["objective"] = pd.read_csv(path)
        elif "timing" in path.name:
            out["timing"] = pd.read_csv(path)
        else:
            out["results"].append(pd.read_csv(path, keep_default_na=False, dtype={"variant": str}))
    if out["results"]:
        out["frame"] = pd.concat(out["results"], ignore_index=True)
    return out


def kind_of(frame: pd.DataFrame) -> tuple[str, str]:
    """``(data_kind, provenance)`` of rows from possibly several data sets."""
    kinds = list(dict.fromkeys(frame["data_kind"]))
    kind = "synthetic" if "synthetic" in kinds else kinds[0] if len(kinds) == 1 else "mixed"
    return kind, "; ".join(dict.fromkeys(frame["provenance"]))


def _curve(frame: pd.DataFrame, **match: Any) -> pd.Series:
    """NDCG by k of the rows matching every column = value."""
    sel = frame
    for col, value in match.items():
        sel = sel[sel[col] == value]
    return sel.set_index("k")["ndcg"].sort_index()


def _stat(
    rows: list[dict[str, Any]],
    frame: pd.DataFrame,
    statistic: str,
    dataset: str,
    value: Any,
    note: str,
    algorithm: str = "",
) -> None:
    kind, prov = kind_of(frame)
    rows.append(
        {
            "statistic": statistic,
            "dataset": dataset,
            "algorithm": algorithm,
            "value": value if isinstance(value, str) else round(float(value), 6),
            "data_kind": kind,
            "provenance": prov,
            "note": note,
        }
    )


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
        leg.legend(handles=handles, loc="upper left", frameon=False, fontsize=9)
        leg.text(
            0.0,
            0.0,
            "\n".join(textwrap.wrap(text, 52)),
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


def _datasets(frame: pd.DataFrame) -> list[str]:
    present = set(frame["dataset"])
    return [d for d in DATASETS if d in present] + sorted(present - set(DATASETS))


def _mean(frame: pd.DataFrame, **match: Any) -> float:
    c = _curve(frame, **match)
    if c.empty:
        raise BoostrankError(f"no results for {match}")
    return float(c.mean())


def _published_base(d: dict[str, Any], dataset: str) -> Any:
    """Section 4.4.1's base-ranker feature for ``dataset``, from the claims registry."""
    from boostrank.report.claims import published_value

    row = {"statistic": "best_feature", "dataset": dataset}
    return published_value(d["claims"], "results/thesis-fig4_3_summary.csv", row, "value")


def _save(fig: Any, prefix: str, view: pd.DataFrame, draw: bool) -> None:
    """Write the figure, or (``draw`` False: only the statistics of another protocol) close it."""
    from boostrank.plots import pyplot, save_figure

    if draw:
        save_figure(fig, prefix, view["provenance"])
    else:
        pyplot().close(fig)


def _eval_note(evaluated: str) -> str:
    return (
        "whole list of each query (judged documents included)"
        if evaluated == "all"
        else "unjudged remainder of each query"
        if evaluated == "residual"
        else "held-out rated movies of each test user"
    )


# --------------------------------------------------------------------------- Figure 4.1
def figure4_1(d: dict[str, Any], prefix: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """L_p against iterations on OHSUMED, with Theorems 9-10, and the summary statistics."""
    import numpy as np
    import pandas as pd

    from boostrank.plots import pyplot, save_figure

    obj = d["objective"]
    if obj is None:
        raise BoostrankError("thesis-fig4_1 needs the objective CSV")
    if "weak_learner" not in obj.columns:  # an objective CSV written before the option
        obj = obj.assign(weak_learner="sampled_stump")
    runs = list(dict.fromkeys(zip(obj["t_scope"], obj["weak_learner"], strict=True)))
    main, learner = runs[0]
    scopes = [s for s, w in runs if w == learner]
    rows: list[dict[str, Any]] = []
    label = str(obj["dataset_label"].iloc[0])
    for scope, weak in runs:
        part = obj[(obj["t_scope"] == scope) & (obj["weak_learner"] == weak)]
        part = part.sort_values(["qid", "iteration"])
        suffix = "".join(f"_{v}" for v, m in ((scope, main), (weak, learner)) if v != m)
        what = f"T {scope}" + ("" if weak == learner else f", weak learner {weak}")
        step = part.groupby("qid")["log_lp"].diff().dropna()
        _stat(
            rows,
            part,
            "lp_rises_fraction" + suffix,
            "ohsumed",
            float((step > 1e-9).mean()),
            f"{what}: fraction of iterations where L_p rose (Algorithm 6)",
        )
        t9 = (part["log_lp"] <= part["log_theorem9"] + 1e-9).mean()
        t10 = (part["log_lp"] <= part["log_theorem10"] + 1e-9).mean()
        _stat(
            rows,
            part,
            "theorem9_holds_fraction" + suffix,
            "ohsumed",
            float(t9),
            f"{what}: fraction of (query, iteration) where Eq. 4.15 holds",
        )
        _stat(
            rows,
            part,
            "theorem10_holds_fraction" + suffix,
            "ohsumed",
            float(t10),
            f"{what}: fraction of (query, iteration) where Eq. 4.19 holds",
        )
        first = part.groupby("qid")["log_lp"].first()
        last = part.groupby("qid")["log_lp"].last()
        at10 = part[part["iteration"] == 10].set_index("qid")["log_lp"]
        total = first - last
        share = ((first - at10) / total)[total > 0]
        _stat(
            rows,
            part,
            "first10_share" + suffix,
            "ohsumed",
            float(share.median()),
            f"{what}: median share of the final reduction of log L_p reached after 10 "
            f"of {int(part['iteration'].max())} iterations",
        )
        _stat(
            rows,
            part,
            "lp_final_ratio" + suffix,
            "ohsumed",
            float(np.exp(-total).median()),
            f"{what}: median L_p^T / L_p^0",
        )
    obj_main = obj[obj["weak_learner"] == learner]  # drawn: the configured weak learner
    plt = pyplot()
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.2))
    part = obj_main[obj_main["t_scope"] == main]
    sizes = part.groupby("qid")["documents"].first().sort_values()
    example = int(sizes.index[len(sizes) // 2])
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
        part = obj_main[obj_main["t_scope"] == scope]
        wide = part.pivot(index="iteration", columns="qid", values="log_lp")
        ratio = np.exp(wide - wide.iloc[0])
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
    tidy = (
        obj.groupby(
            ["dataset", "dataset_label", "t_scope", "weak_learner", "iteration"], sort=False
        )
        .agg(
            median_lp_ratio=("log_lp", lambda v: float("nan")),
            queries=("qid", "nunique"),
            data_kind=("data_kind", "first"),
            provenance=("provenance", "first"),
        )
        .reset_index()
    )
    med = []
    for scope, weak in runs:
        part = obj[(obj["t_scope"] == scope) & (obj["weak_learner"] == weak)]
        wide = part.pivot(index="iteration", columns="qid", values="log_lp")
        med.append(np.exp(wide - wide.iloc[0]).median(axis=1).to_numpy())
    tidy["median_lp_ratio"] = np.round(np.concatenate(med), 8)
    return tidy, pd.DataFrame(rows)


# --------------------------------------------------------------------------- Figure 4.2
def figure4_2(
    d: dict[str, Any], prefix: str, evaluated: str, draw: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """NDCG@1..25 of the six methods on each data set, and the claims' statistics."""
    import numpy as np

    frame = d["frame"]
    main = frame[frame["algorithm"].isin(ORDER) | frame["algorithm"].str.startswith("MRR (")]
    view = main[main["evaluated"] == evaluated]
    datasets = _datasets(view)
    k_max = int(view["k"].max())
    rows: list[dict[str, Any]] = []
    _plt, fig, flat = _panels(len(datasets))
    handles: dict[str, Any] = {}
    perf: dict[str, dict[str, float]] = {}
    alt_names = sorted(a for a in view["algorithm"].unique() if a.startswith("MRR ("))
    for ax, ds in zip(flat, datasets, strict=False):
        part = view[view["dataset"] == ds]
        perf[ds] = {}
        for alg in ORDER + alt_names:
            c = _curve(part, algorithm=alg)
            if c.empty:
                continue
            colour, marker = STYLE.get(alg, ("#d62728", "."))
            (h,) = ax.plot(
                c.index,
                c.values,
                color=colour,
                marker=marker,
                markersize=3,
                lw=2.2 if alg == "MRR" else 1.2,
                ls="--" if alg in alt_names else "-",
                label=alg,
            )
            handles.setdefault(alg, h)
            perf[ds][alg] = float(c.mean())
            _stat(rows, part, "mean_ndcg", ds, c.mean(), f"mean NDCG@1..{k_max}", alg)
        _style_axis(ax, str(part["dataset_label"].iloc[0]), k_max)
        p = perf[ds]
        if "MRR" in p:
            for other, name in (
                ("LRR-Best", "lrr_best"),
                ("Base ranker", "base"),
                ("Rocchio", "rocchio"),
                ("Ranking-SVM", "svm"),
            ):
                if other in p:
                    _stat(
                        rows,
                        part,
                        f"mrr_minus_{name}",
                        ds,
                        p["MRR"] - p[other],
                        f"mean NDCG@1..{k_max}: MRR minus {other}",
                    )
            for alt in alt_names:
                if "LRR-Best" in p:
                    _stat(
                        rows,
                        part,
                        "alt_mrr_minus_lrr_best",
                        ds,
                        p[alt] - p["LRR-Best"],
                        f"{alt} minus LRR-Best (the other reading of T; information)",
                    )
            weak = frame[(frame["evaluated"] == evaluated) & (frame["dataset"] == ds)]
            for name in sorted(a for a in weak["algorithm"].unique() if a.startswith("MRR [")):
                mean_weak = _mean(weak, algorithm=name)
                if "LRR-Best" in p:
                    _stat(
                        rows,
                        part,
                        "weak_mrr_minus_lrr_best",
                        ds,
                        mean_weak - p["LRR-Best"],
                        f"{name} minus LRR-Best: the objective's effect, same weak learner "
                        "(information)",
                    )
                _stat(
                    rows,
                    part,
                    "mrr_minus_weak_mrr",
                    ds,
                    p["MRR"] - mean_weak,
                    f"MRR minus {name}: the weak learner's effect (information)",
                )
            mrr, base = _curve(part, algorithm="MRR"), _curve(part, algorithm="Base ranker")
            gain = mrr - base
            top, bottom = gain.iloc[:5].mean(), gain.iloc[-5:].mean()
            _stat(
                rows,
                part,
                "gain_top_minus_bottom",
                ds,
                top - bottom,
                "MRR minus base ranker: mean gain at k = 1..5 minus mean gain at the last 5 k",
            )
            _stat(
                rows,
                part,
                "mrr_trend",
                ds,
                mrr.iloc[-1] - mrr.iloc[0],
                f"MRR's NDCG@{k_max} minus NDCG@1 (negative: falls with k)",
            )
    have = [ds for ds in datasets if "MRR" in perf[ds]]

    def frac(name: str, scope: str, sets: Sequence[str], test: Any, note: str) -> None:
        sets = [s for s in sets if s in have]
        if not sets:
            return
        value = float(np.mean([test(perf[s]) for s in sets]))
        note += f" ({len(sets)} data sets: {', '.join(sets)})"
        _stat(rows, view[view["dataset"].isin(sets)], name, scope, value, note)

    frac(
        "mrr_beats_base_fraction",
        "all",
        have,
        lambda p: p["MRR"] > p["Base ranker"],
        "fraction of data sets where MRR's mean NDCG exceeds the base ranker's",
    )
    frac(
        "mrr_beats_rocchio_fraction",
        "all",
        have,
        lambda p: p["MRR"] > p["Rocchio"],
        "fraction of data sets where MRR's mean NDCG exceeds Rocchio's",
    )
    frac(
        "mrr_beats_svm_fraction",
        "first_three",
        FIRST_THREE,
        lambda p: p["MRR"] > p["Ranking-SVM"],
        "fraction of OHSUMED, TD2003, TD2004 where MRR exceeds Ranking-SVM",
    )
    frac(
        "mrr_similar_svm_fraction",
        "last_four",
        [s for s in have if s not in FIRST_THREE],
        lambda p: abs(p["MRR"] - p["Ranking-SVM"]) <= SIMILAR_TOL,
        f"fraction of HP2003..NP2004 where MRR and Ranking-SVM are within {SIMILAR_TOL}",
    )
    frac(
        "mrr_beats_lrr_best_fraction",
        "ohsumed+td2004",
        ["ohsumed", "td2004"],
        lambda p: p["MRR"] > p["LRR-Best"],
        "fraction of OHSUMED, TD2004 where MRR exceeds LRR-Best",
    )
    trend_cells = []
    for ds in have:
        part = view[view["dataset"] == ds]
        for alg in ORDER:
            c = _curve(part, algorithm=alg)
            if not c.empty:
                falls = c.iloc[-1] < c.iloc[0]
                trend_cells.append(falls if ds in FIRST_THREE else not falls)
    if trend_cells:
        _stat(
            rows,
            view,
            "trend_as_stated_fraction",
            "all",
            float(np.mean(trend_cells)),
            "fraction of (data set, algorithm) curves falling with k on OHSUMED/TD2003/TD2004 "
            "and rising on the other four",
        )
    gains = [r["value"] for r in rows if r["statistic"] == "gain_top_minus_bottom"]
    if gains:
        _stat(
            rows,
            view,
            "gain_top_fraction",
            "all",
            float(np.mean([g > 0 for g in gains])),
            "fraction of data sets where MRR's gain over the base ranker is larger at the top",
        )
    ordered = [handles[a] for a in ORDER + alt_names if a in handles]
    text = (
        f"NDCG ({view['formula'].iloc[0]} formula) of the {_eval_note(evaluated)}, mean over "
        "all queries; feedback: true grades of the base ranker's top 20. Dashed: MRR with the "
        "other reading of T (Eq. 4.3)."
    )
    _finish_panels(
        fig,
        flat,
        len(datasets),
        ordered,
        text,
        "Figure 4.2 (Valizadegan 2010): NDCG of relevance feedback",
    )
    _save(fig, prefix, view, draw)
    import pandas as pd

    keep = frame[~frame["algorithm"].eq("LRR")]  # with the undrawn MRR [weak learner: ...]
    return keep.reset_index(drop=True), pd.DataFrame(rows)


# --------------------------------------------------------------------------- Figure 4.3
def figure4_3(
    d: dict[str, Any], prefix: str, evaluated: str, draw: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """MRR with the worst, a medium and the best base ranker per data set."""
    import pandas as pd

    frame = d["frame"]
    view = frame[frame["evaluated"] == evaluated]
    datasets = _datasets(view)
    k_max = int(view["k"].max())
    rows: list[dict[str, Any]] = []
    _plt, fig, flat = _panels(len(datasets))
    colours = {"worst": "#1f77b4", "medium": "#ff7f0e", "best": "#d62728"}
    handles: dict[str, Any] = {}
    tidy = []
    for ax, ds in zip(flat, datasets, strict=False):
        part = view[view["dataset"] == ds]
        base = d["base"].get(ds)
        if base is None:
            raise BoostrankError(f"thesis-fig4_3: no base-ranker record for {ds}")
        means = {}
        for which in ("worst", "medium", "best"):
            feature = int(base[which])
            if which == "best":  # the main runs (families mrr and baselines)
                mrr = _curve(part[part["family"] == "mrr"], algorithm="MRR")
                g = _curve(part[part["family"] == "baselines"], algorithm="Base ranker")
            else:
                own = part[(part["family"] == "mrr_bases") & (part["variant"] == which)]
                mrr = _curve(own, algorithm="MRR")
                g = _curve(own, algorithm="Base ranker")
            (h,) = ax.plot(
                mrr.index,
                mrr.values,
                color=colours[which],
                lw=2,
                marker="o",
                markersize=3,
                label=f"MRR, feature {feature}",
            )
            ax.plot(g.index, g.values, color=colours[which], lw=1, ls="--")
            handles.setdefault(which, h)
            means[which] = float(mrr.mean())
            tidy.append(
                pd.DataFrame(
                    {
                        "dataset": ds,
                        "dataset_label": part["dataset_label"].iloc[0],
                        "base_quality": which,
                        "base_feature": feature,
                        "k": mrr.index,
                        "mrr_ndcg": mrr.values,
                        "base_ndcg": g.reindex(mrr.index).values,
                        "evaluated": evaluated,
                        "data_kind": part["data_kind"].iloc[0],
                        "provenance": part["provenance"].iloc[0],
                    }
                )
            )
            _stat(
                rows,
                part,
                f"mrr_minus_base_{which}",
                ds,
                mrr.mean() - g.mean(),
                f"MRR minus its base ranker (feature {feature}), mean NDCG@1..{k_max}",
            )
        ax.legend(fontsize=7, loc="best")
        _style_axis(ax, str(part["dataset_label"].iloc[0]), k_max)
        if draw:  # the same under every protocol: one row
            _stat(
                rows,
                part,
                "best_feature",
                ds,
                float(base["best"]),
                f"recomputed best base ranker (published {_published_base(d, ds)}); {base['rule']}",
            )
        _stat(
            rows,
            part,
            "mrr_best_minus_worst",
            ds,
            means["best"] - means["worst"],
            "MRR with the best minus MRR with the worst base ranker",
        )
        baselines = part[part["family"] == "baselines"]
        best_baseline = max(_mean(baselines, algorithm=a) for a in ("Rocchio", "Ranking-SVM"))
        _stat(
            rows,
            part,
            "mrr_worst_minus_best_baseline",
            ds,
            means["worst"] - best_baseline,
            "MRR with the worst base ranker minus the better of Rocchio and Ranking-SVM "
            "with the best one",
        )
    text = (
        f"Solid: MRR; dashed: the base ranker alone (same colour). NDCG of the "
        f"{_eval_note(evaluated)}. Worst, median and best single feature by mean NDCG@1..25."
    )
    _finish_panels(
        fig,
        flat,
        len(datasets),
        [],
        text,
        "Figure 4.3 (Valizadegan 2010): MRR with different base rankers",
    )
    _save(fig, prefix, view, draw)
    return pd.concat(tidy, ignore_index=True), pd.DataFrame(rows)


# --------------------------------------------------------------------------- Figure 4.4
def _sizes_stats(
    rows: list[dict[str, Any]],
    part: pd.DataFrame,
    ds: str,
    means: dict[int, float],
    base_means: dict[int, float] | None = None,
) -> None:
    import numpy as np

    sizes = sorted(means)
    steps = [means[b] > means[a] for a, b in itertools.pairwise(sizes)]
    _stat(
        rows,
        part,
        "feedback_monotone_fraction",
        ds,
        float(np.mean(steps)) if steps else np.nan,
        f"fraction of consecutive feedback sizes {sizes} where MRR's mean NDCG increases",
    )
    _stat(
        rows,
        part,
        "mrr_largest_minus_smallest",
        ds,
        means[sizes[-1]] - means[sizes[0]],
        f"MRR with {sizes[-1]} minus MRR with {sizes[0]} feedback items",
    )
    if base_means is not None and sizes[0] in base_means:
        _stat(
            rows,
            part,
            "mrr_smallest_minus_base",
            ds,
            means[sizes[0]] - base_means[sizes[0]],
            f"MRR with {sizes[0]} feedback items minus the base ranker",
        )


def figure4_4(
    d: dict[str, Any], prefix: str, evaluated: str, draw: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """MRR with 5, 10, 15 and 20 feedback documents."""
    import numpy as np
    import pandas as pd

    frame = d["frame"]
    view = frame[(frame["evaluated"] == evaluated) & (frame["algorithm"] == "MRR")]
    base_rows = frame[(frame["evaluated"] == evaluated) & (frame["algorithm"] == "Base ranker")]
    datasets = _datasets(view)
    k_max = int(view["k"].max())
    rows: list[dict[str, Any]] = []
    _plt, fig, flat = _panels(len(datasets))
    handles: dict[int, Any] = {}
    tidy = []
    for ax, ds in zip(flat, datasets, strict=False):
        part = view[(view["dataset"] == ds) & view["family"].isin(["mrr", "mrr_sizes"])]
        sizes = sorted(int(s) for s in part["feedback"].unique())
        means = {}
        for i, size in enumerate(sizes):
            c = _curve(part, feedback=size)
            colour = SIZE_COLOURS[min(i, len(SIZE_COLOURS) - 1)]
            (h,) = ax.plot(
                c.index,
                c.values,
                color=colour,
                lw=1.6,
                marker="o",
                markersize=3,
                label=f"MRR, {size} feedback documents",
            )
            handles.setdefault(size, h)
            means[size] = float(c.mean())
            tidy.append(part[part["feedback"] == size])
        b = _curve(base_rows[(base_rows["dataset"] == ds) & (base_rows["family"] == "baselines")])
        if not b.empty:
            (h,) = ax.plot(b.index, b.values, color="#7f7f7f", lw=1, ls="--", label="Base ranker")
            handles.setdefault(-1, h)
            tidy.append(
                base_rows[(base_rows["dataset"] == ds) & (base_rows["family"] == "baselines")]
            )
        _style_axis(ax, str(part["dataset_label"].iloc[0]), k_max)
        _sizes_stats(rows, part, ds, means)
    mono = [r["value"] for r in rows if r["statistic"] == "feedback_monotone_fraction"]
    mono = [v for v in mono if np.isfinite(v)]
    if mono:
        _stat(
            rows,
            view,
            "feedback_monotone_fraction",
            "all",
            float(np.mean(mono)),
            "mean over data sets of the fraction of feedback-size steps that raise MRR's NDCG",
        )
    ordered = [handles[k] for k in sorted(handles) if k >= 0] + (
        [handles[-1]] if -1 in handles else []
    )
    text = f"NDCG of the {_eval_note(evaluated)}; feedback: the base ranker's top m documents."
    _finish_panels(
        fig,
        flat,
        len(datasets),
        ordered,
        text,
        "Figure 4.4 (Valizadegan 2010): MRR with different numbers of feedback documents",
    )
    _save(fig, prefix, view, draw)
    return pd.concat(tidy, ignore_index=True), pd.DataFrame(rows)


# --------------------------------------------------------------------------- Figure 4.5
def best_rating(npz: Path | str, top: int = 50) -> tuple[int, float, float]:
    """The rating the data treat as best: 5 when the ``top`` most-rated movies (popular ones)
    have a higher mean rating than all movies, else 1; with both means."""
    import numpy as np

    with np.load(npz) as a:
        item, rating = a["item"], a["rating"].astype(float)
    counts = np.bincount(item)
    popular = np.argsort(-counts, kind="stable")[:top]
    pop_mean = float(rating[np.isin(item, popular)].mean())
    overall = float(rating.mean())
    return (5 if pop_mean > overall else 1), pop_mean, overall


def figure4_5(d: dict[str, Any], prefix: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(a) NDCG of the algorithms on MovieLens; (b) MRR with 5..25 rated movies."""
    from boostrank.plots import pyplot, save_figure

    frame = d["frame"]
    k_max = int(frame["k"].max())
    rows: list[dict[str, Any]] = []
    plt = pyplot()
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.2))
    main = frame[frame["family"] != "mrr_sizes"]
    perf = {}
    for alg in ORDER:
        c = _curve(main, algorithm=alg)
        if c.empty:
            continue
        colour, marker = STYLE[alg]
        ax_a.plot(
            c.index,
            c.values,
            color=colour,
            marker=marker,
            markersize=3,
            lw=2.2 if alg == "MRR" else 1.2,
            label=alg,
        )
        perf[alg] = float(c.mean())
        _stat(rows, main, "mean_ndcg", "movielens_100k", c.mean(), f"mean NDCG@1..{k_max}", alg)
    if "MRR" in perf:
        others = {a: v for a, v in perf.items() if a not in ("MRR", "LRR-Worst")}
        _stat(
            rows,
            main,
            "mrr_minus_best_baseline",
            "movielens_100k",
            perf["MRR"] - max(others.values()),
            "MRR minus the best of Base ranker, Rocchio, Ranking-SVM, LRR-Best",
        )
    if "LRR-Best" in perf:
        _stat(
            rows,
            main,
            "lrr_best_minus_base",
            "movielens_100k",
            perf["LRR-Best"] - perf["Base ranker"],
            "LRR-Best minus the base ranker",
        )
    n_users = int(main["queries"].max())
    ax_a.set_title(
        f"(a) algorithms, 10 rated movies as feedback ({n_users} test users)", fontsize=10
    )
    sizes_part = frame[frame["family"] == "mrr_sizes"]
    sizes = sorted(int(s) for s in sizes_part["feedback"].unique())
    means, base_means = {}, {}
    for i, size in enumerate(sizes):
        c = _curve(sizes_part, feedback=size, algorithm="MRR")
        b = _curve(sizes_part, feedback=size, algorithm="Base ranker")
        colour = SIZE_COLOURS[min(i, len(SIZE_COLOURS) - 1)]
        ax_b.plot(
            c.index,
            c.values,
            color=colour,
            lw=1.8,
            marker="o",
            markersize=3,
            label=f"MRR, {size} rated movies",
        )
        ax_b.plot(b.index, b.values, color=colour, lw=1, ls="--")
        means[size], base_means[size] = float(c.mean()), float(b.mean())
    if sizes:
        _sizes_stats(rows, sizes_part, "movielens_100k", means, base_means)
        ax_b.set_title(
            f"(b) MRR (solid) and PD base ranker (dashed), "
            f"{int(sizes_part['queries'].max())} users",
            fontsize=10,
        )
    if "npz" in d:
        best, pop, overall = best_rating(d["npz"])
        _stat(
            rows,
            main,
            "best_rating",
            "movielens_100k",
            float(best),
            f"mean rating of the 50 most-rated movies {pop:.3f} vs all {overall:.3f}: the "
            "higher rating is the better one (MovieLens README: 5 stars is best)",
        )
    for ax in (ax_a, ax_b):
        _style_axis(ax, ax.get_title(), k_max)
        ax.legend(fontsize=8)
    fig.suptitle(
        "Figure 4.5 (Valizadegan 2010): ranking for the recommender system (MovieLens "
        "100K, 19 genre features; NDCG of the held-out rated movies)",
        fontsize=10,
    )
    fig.tight_layout()
    save_figure(fig, prefix, frame["provenance"])
    import pandas as pd

    return frame[frame["algorithm"] != "LRR"].reset_index(drop=True), pd.DataFrame(rows)


# --------------------------------------------------------------------------- Figure 4.6
def figure4_6(
    d: dict[str, Any], prefix: str, bin_width: int = 50
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """MRR's running time against the number of rated movies, users grouped by that number."""
    import numpy as np
    import pandas as pd

    from boostrank.plots import pyplot, save_figure

    t = d["timing"]
    if t is None:
        raise BoostrankError("thesis-fig4_6 needs the timing CSV")
    t = t.copy()
    t["group"] = (t["rated_movies"] // bin_width) * bin_width
    groups = (
        t.groupby("group")
        .agg(
            users=("user", "size"),
            rated_movies=("rated_movies", "mean"),
            seconds=("seconds", "mean"),
            sd=("seconds", "std"),
        )
        .reset_index()
    )
    groups["data_kind"] = t["data_kind"].iloc[0]
    groups["provenance"] = t["provenance"].iloc[0]
    rows: list[dict[str, Any]] = []
    x, y = groups["rated_movies"].to_numpy(), groups["seconds"].to_numpy()
    w = groups["users"].to_numpy()
    span = x.max()
    if len(groups) >= 3:  # a line and a parabola through the group means
        coef = np.polyfit(x, y, 1, w=np.sqrt(w))
        fit = np.polyval(coef, x)
        r2 = 1 - np.average((y - fit) ** 2, weights=w) / np.average(
            (y - np.average(y, weights=w)) ** 2, weights=w
        )
        quad = np.polyfit(x, y, 2, w=np.sqrt(w))
        share = abs(quad[0]) * span**2 / max(abs(np.polyval(quad, span)), 1e-12)
    else:
        coef, r2, share = np.array([np.nan, np.nan]), np.nan, np.nan
    _stat(
        rows,
        groups,
        "time_linear_r2",
        "movielens_100k",
        float(r2),
        f"R^2 of a straight line through the group means (groups of {bin_width} movies, "
        "weighted by users)",
    )
    _stat(
        rows,
        groups,
        "time_slope_ms_per_movie",
        "movielens_100k",
        float(coef[0] * 1000),
        "slope of the line, milliseconds per rated movie",
    )
    _stat(
        rows,
        groups,
        "time_quadratic_share",
        "movielens_100k",
        float(share),
        "share of the quadratic term of a degree-2 fit at the largest group",
    )
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
        xs = np.linspace(0, span, 50)
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
    return groups, pd.DataFrame(rows)


# --------------------------------------------------------------------------- entry point
PROTOCOL_FIGURES = {
    "thesis-fig4_2": figure4_2,
    "thesis-fig4_3": figure4_3,
    "thesis-fig4_4": figure4_4,
}


def _every_protocol(
    draw_figure: Any, d: dict[str, Any], prefix: str, evaluated: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Statistics under every evaluation protocol in the results (``all``: the whole list;
    ``residual``: the unjudged remainder), so that the claims are checked under both; the
    figure draws ``evaluated``. Each statistic row names its protocol (column ``evaluated``)."""
    import pandas as pd

    modes = list(dict.fromkeys([evaluated, *d["frame"]["evaluated"].unique()]))
    if evaluated not in set(d["frame"]["evaluated"]):
        raise BoostrankError(
            f"chapter4.evaluate is {evaluated!r}, but the results hold only "
            f"{sorted(set(d['frame']['evaluated']))}"
        )
    tidies, stats = [], []
    for mode in modes:
        tidy, stat = draw_figure(d, prefix, mode, draw=mode == evaluated)
        tidies.append(tidy)
        stats.append(stat.assign(evaluated=mode))
    if "evaluated" in tidies[0].columns and tidies[0]["evaluated"].nunique() > 1:
        tidy = tidies[0]  # Figure 4.2's tidy frame already holds every protocol
    else:
        tidy = pd.concat(tidies, ignore_index=True)
    return tidy, pd.concat(stats, ignore_index=True)


def make_figure(
    figure: str,
    inputs: Sequence[Path | str],
    csv: Path | str,
    summary: Path | str,
    prefix: Path | str,
    evaluated: str = "all",
    bin_width: int = 50,
    claims: Path | str = "config/claims.yaml",
) -> pd.DataFrame:
    """Draw one of thesis-fig4_1 .. thesis-fig4_6 and write its results and summary CSVs
    (``claims``: the registry the published base rankers are read from)."""
    from boostrank.io import write_text
    from boostrank.report.claims import load_claims

    d = _read(inputs)
    d["claims"] = load_claims(claims)
    prefix = str(prefix)
    if figure == "thesis-fig4_1":
        tidy, stats = figure4_1(d, prefix)
    elif figure in PROTOCOL_FIGURES:
        tidy, stats = _every_protocol(PROTOCOL_FIGURES[figure], d, prefix, evaluated)
    elif figure == "thesis-fig4_5":
        tidy, stats = figure4_5(d, prefix)
    elif figure == "thesis-fig4_6":
        tidy, stats = figure4_6(d, prefix, bin_width)
    else:
        raise BoostrankError(f"unknown chapter 4 figure {figure!r}")
    write_text(csv, tidy.to_csv(index=False))
    write_text(summary, stats.to_csv(index=False))
    return stats


# --------------------------------------------------------------------------- command line
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter4-figure`` sub-command."""
    p = subparsers.add_parser("chapter4-figure", help="Figures 4.1-4.6: draw one figure")
    p.add_argument("--figure", required=True)
    p.add_argument("--inputs", nargs="+", required=True)
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--evaluated", default="all")
    p.add_argument("--bin-width", type=int, default=50, help="Figure 4.6: movies per group")
    p.add_argument("--claims", default="config/claims.yaml")
    p.set_defaults(
        func=lambda a: make_figure(
            a.figure,
            a.inputs,
            a.csv,
            a.summary,
            a.prefix,
            a.evaluated,
            a.bin_width,
            a.claims,
        )
    )


__all__ = [
    "best_rating",
    "make_figure",
    "register",
]
