"""Figures 4.1-4.6 of Valizadegan (2010), chapter 4: the merge of the method families' results
(:mod:`.jobs`, :mod:`.jobs_movies`) into each figure's tidy results CSV and the summary
statistics its claims read (one row per claim-able quantity, with ``data_kind`` and
``provenance``; a statistic over several data sets is ``synthetic`` if any of them is), with
the curves the figures draw. pandas and numpy only; :mod:`.figure` draws.

"Performance" of a curve is its mean over the truncation levels drawn (NDCG@1..25 for LETOR,
NDCG@1..10 for MovieLens).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.spec import (
    DATASETS,
    FIRST_THREE,
    ORDER,
    PROTOCOL_FIGURES,
    SIMILAR_TOL,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


# --------------------------------------------------------------------------- helpers
def read_inputs(inputs: Sequence[Path | str]) -> dict[str, Any]:
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
        elif path.name.endswith(".queries.csv"):
            out.setdefault("query_results", []).append(
                pd.read_csv(path, keep_default_na=False, dtype={"variant": str})
            )
        else:
            out["results"].append(pd.read_csv(path, keep_default_na=False, dtype={"variant": str}))
    if out["results"]:
        out["frame"] = pd.concat(out["results"], ignore_index=True)
    if out.get("query_results"):
        out["queries"] = pd.concat(out.pop("query_results"), ignore_index=True)
    return out


def kind_of(frame: pd.DataFrame) -> tuple[str, str]:
    """``(data_kind, provenance)`` of rows from possibly several data sets."""
    kinds = list(dict.fromkeys(frame["data_kind"]))
    kind = "synthetic" if "synthetic" in kinds else kinds[0] if len(kinds) == 1 else "mixed"
    return kind, "; ".join(dict.fromkeys(frame["provenance"]))


def _matching(frame: pd.DataFrame, **match: Any) -> pd.DataFrame:
    """The rows matching every column = value."""
    for col, value in match.items():
        frame = frame[frame[col] == value]
    return frame


def curve(frame: pd.DataFrame, **match: Any) -> pd.Series:
    """NDCG by k of the rows matching every column = value."""
    return _matching(frame, **match).set_index("k")["ndcg"].sort_index()


def band(frame: pd.DataFrame, **match: Any) -> pd.DataFrame | None:
    """``ci_low`` and ``ci_high`` by k of the rows matching every column = value (the 95%
    interval over queries the jobs write, :func:`.jobs_curves.rows_for`); None where the rows have
    none (a curve without per-query values, or results written before the columns)."""
    import pandas as pd

    rows = _matching(frame, **match)
    if "ci_low" not in rows.columns or rows.empty:
        return None
    found = rows.set_index("k")[["ci_low", "ci_high"]].sort_index()
    found = found.apply(pd.to_numeric, errors="coerce")  # "" where a row has no interval
    return None if found.isna().any().any() else found


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


def datasets_in(frame: pd.DataFrame) -> list[str]:
    """The data sets of ``frame``, in the dissertation's order (others after, sorted)."""
    present = set(frame["dataset"])
    return [d for d in DATASETS if d in present] + sorted(present - set(DATASETS))


def _mean(frame: pd.DataFrame, **match: Any) -> float:
    c = curve(frame, **match)
    if c.empty:
        raise BoostrankError(f"no results for {match}")
    return float(c.mean())


def _published_base(d: dict[str, Any], dataset: str) -> Any:
    """Section 4.4.1's base-ranker feature for ``dataset``, from the claims registry."""
    from boostrank.report.claims import published_value

    row = {"statistic": "best_feature", "dataset": dataset}
    return published_value(d["claims"], "results/thesis-fig4_3_summary.csv", row, "value")


# --------------------------------------------------------------------------- Figure 4.1
def objective_frame(d: dict[str, Any]) -> pd.DataFrame:
    """Figure 4.1's objective CSV (``weak_learner`` filled in for a CSV written before the
    option)."""
    obj = d["objective"]
    if obj is None:
        raise BoostrankError("thesis-fig4_1 needs the objective CSV")
    if "weak_learner" not in obj.columns:  # an objective CSV written before the option
        obj = obj.assign(weak_learner="sampled_stump")
    return obj


def objective_runs(obj: pd.DataFrame) -> list[tuple[str, str]]:
    """The ``(t_scope, weak_learner)`` runs of the objective CSV; the first is the configured
    MRR."""
    return list(dict.fromkeys(zip(obj["t_scope"], obj["weak_learner"], strict=True)))


def lp_ratio(part: pd.DataFrame) -> pd.DataFrame:
    """L_p^t / L_p^0 by iteration (rows) and query (columns) of one run."""
    import numpy as np

    wide = part.pivot(index="iteration", columns="qid", values="log_lp")
    return np.exp(wide - wide.iloc[0])


def example_query(part: pd.DataFrame) -> int:
    """The query of median size (documents) of one run: Figure 4.1(a)'s example."""
    sizes = part.groupby("qid")["documents"].first().sort_values()
    return int(sizes.index[len(sizes) // 2])


def stats4_1(d: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.1's tidy frame (median L_p ratio per run and iteration) and statistics:
    whether L_p falls (Algorithm 6), Theorems 9-10, and how fast."""
    import numpy as np
    import pandas as pd

    obj = objective_frame(d)
    runs = objective_runs(obj)
    main, learner = runs[0]
    rows: list[dict[str, Any]] = []
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
        med.append(lp_ratio(part).median(axis=1).to_numpy())
    tidy["median_lp_ratio"] = np.round(np.concatenate(med), 8)
    return tidy, pd.DataFrame(rows)


# --------------------------------------------------------------------------- Figure 4.2
def view4_2(frame: pd.DataFrame, evaluated: str) -> tuple[pd.DataFrame, list[str]]:
    """Figure 4.2's rows under protocol ``evaluated`` (the six methods and MRR with the other
    reading of T), and the names of the latter."""
    main = frame[frame["algorithm"].isin(ORDER) | frame["algorithm"].str.startswith("MRR (")]
    view = main[main["evaluated"] == evaluated]
    alt_names = sorted(a for a in view["algorithm"].unique() if a.startswith("MRR ("))
    return view, alt_names


def stats4_2(
    d: dict[str, Any], evaluated: str, drawn: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.2's tidy frame (every protocol) and the claims' statistics under
    ``evaluated``: mean NDCG@1..25 of the six methods on each data set and their
    comparisons."""
    import numpy as np
    import pandas as pd

    frame = d["frame"]
    view, alt_names = view4_2(frame, evaluated)
    datasets = datasets_in(view)
    k_max = int(view["k"].max())
    rows: list[dict[str, Any]] = []
    perf: dict[str, dict[str, float]] = {}
    for ds in datasets:
        part = view[view["dataset"] == ds]
        perf[ds] = {}
        for alg in ORDER + alt_names:
            c = curve(part, algorithm=alg)
            if c.empty:
                continue
            perf[ds][alg] = float(c.mean())
            _stat(rows, part, "mean_ndcg", ds, c.mean(), f"mean NDCG@1..{k_max}", alg)
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
            mrr, base = curve(part, algorithm="MRR"), curve(part, algorithm="Base ranker")
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
            c = curve(part, algorithm=alg)
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
    keep = frame[~frame["algorithm"].eq("LRR")]  # with the undrawn MRR [weak learner: ...]
    return keep.reset_index(drop=True), pd.DataFrame(rows)


# --------------------------------------------------------------------------- Figure 4.3
def base_quality_rows(part: pd.DataFrame, which: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """MRR's rows and the base ranker's rows of one data set with its ``which`` (worst,
    medium, best) base ranker (best: the main runs of families mrr and baselines)."""
    if which == "best":
        return (
            _matching(part[part["family"] == "mrr"], algorithm="MRR"),
            _matching(part[part["family"] == "baselines"], algorithm="Base ranker"),
        )
    own = part[(part["family"] == "mrr_bases") & (part["variant"] == which)]
    return _matching(own, algorithm="MRR"), _matching(own, algorithm="Base ranker")


def base_quality_curves(
    part: pd.DataFrame, base: dict[str, Any]
) -> list[tuple[str, int, pd.Series, pd.Series]]:
    """Per base-ranker quality (worst, medium, best) of one data set: its feature, MRR's
    curve and the base ranker's curve (:func:`base_quality_rows`)."""
    out = []
    for which in ("worst", "medium", "best"):
        mrr, g = base_quality_rows(part, which)
        out.append((which, int(base[which]), curve(mrr), curve(g)))
    return out


def base_record(d: dict[str, Any], dataset: str) -> dict[str, Any]:
    """The base-ranker record (select_base_rankers) of ``dataset``."""
    base = d["base"].get(dataset)
    if base is None:
        raise BoostrankError(f"thesis-fig4_3: no base-ranker record for {dataset}")
    return base


def stats4_3(
    d: dict[str, Any], evaluated: str, drawn: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.3's tidy frame and statistics under ``evaluated``: MRR with the worst, a
    medium and the best base ranker per data set (``drawn``: the protocol drawn, which alone
    carries the protocol-free ``best_feature`` rows)."""
    import pandas as pd

    frame = d["frame"]
    view = frame[frame["evaluated"] == evaluated]
    datasets = datasets_in(view)
    k_max = int(view["k"].max())
    rows: list[dict[str, Any]] = []
    tidy = []
    for ds in datasets:
        part = view[view["dataset"] == ds]
        base = base_record(d, ds)
        means = {}
        for which, feature, mrr, g in base_quality_curves(part, base):
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
        if drawn:  # the same under every protocol: one row
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


def view4_4(frame: pd.DataFrame, evaluated: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.4's MRR rows and base-ranker rows under protocol ``evaluated``."""
    view = frame[(frame["evaluated"] == evaluated) & (frame["algorithm"] == "MRR")]
    base_rows = frame[(frame["evaluated"] == evaluated) & (frame["algorithm"] == "Base ranker")]
    return view, base_rows


def sizes_of(view: pd.DataFrame, base_rows: pd.DataFrame, ds: str) -> dict[str, Any]:
    """One data set of Figure 4.4: MRR's rows (families mrr and mrr_sizes), its feedback
    sizes, and the base ranker's rows (family baselines). A size family mrr_sizes ran itself
    (the configured one when it is not the largest, so that every size is scored on the same
    residual) is taken from it."""
    import pandas as pd

    rows = view[view["dataset"] == ds]
    own = rows[rows["family"] == "mrr_sizes"]
    main = rows[(rows["family"] == "mrr") & ~rows["feedback"].isin(set(own["feedback"]))]
    part = pd.concat([main, own])
    sizes = sorted(int(s) for s in part["feedback"].unique())
    base = base_rows[(base_rows["dataset"] == ds) & (base_rows["family"] == "baselines")]
    return {"part": part, "sizes": sizes, "base": base}


def stats4_4(
    d: dict[str, Any], evaluated: str, drawn: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.4's tidy frame and statistics under ``evaluated``: MRR with 5, 10, 15 and 20
    feedback documents."""
    import numpy as np
    import pandas as pd

    frame = d["frame"]
    view, base_rows = view4_4(frame, evaluated)
    rows: list[dict[str, Any]] = []
    tidy = []
    for ds in datasets_in(view):
        s = sizes_of(view, base_rows, ds)
        part = s["part"]
        means = {}
        for size in s["sizes"]:
            means[size] = float(curve(part, feedback=size).mean())
            tidy.append(part[part["feedback"] == size])
        if not curve(s["base"]).empty:
            tidy.append(s["base"])
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


def parts4_5(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, list[int]]:
    """Figure 4.5's panel (a) rows, panel (b) rows (family mrr_sizes) and its feedback
    sizes."""
    main = frame[frame["family"] != "mrr_sizes"]
    sizes_part = frame[frame["family"] == "mrr_sizes"]
    sizes = sorted(int(s) for s in sizes_part["feedback"].unique())
    return main, sizes_part, sizes


def stats4_5(d: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.5's tidy frame and statistics: (a) the algorithms on MovieLens; (b) MRR with
    5..25 rated movies; the rating the data treat as best."""
    import pandas as pd

    frame = d["frame"]
    k_max = int(frame["k"].max())
    rows: list[dict[str, Any]] = []
    main, sizes_part, sizes = parts4_5(frame)
    perf = {}
    for alg in ORDER:
        c = curve(main, algorithm=alg)
        if c.empty:
            continue
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
    means, base_means = {}, {}
    for size in sizes:
        c = curve(sizes_part, feedback=size, algorithm="MRR")
        b = curve(sizes_part, feedback=size, algorithm="Base ranker")
        means[size], base_means[size] = float(c.mean()), float(b.mean())
    if sizes:
        _sizes_stats(rows, sizes_part, "movielens_100k", means, base_means)
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
    return frame[frame["algorithm"] != "LRR"].reset_index(drop=True), pd.DataFrame(rows)


# --------------------------------------------------------------------------- samples
def _by_query(frame: pd.DataFrame, **match: Any) -> pd.Series:
    """Each query's mean NDCG@1..k of the rows matching every column = value."""
    return _matching(frame, **match).set_index("query")["value"].sort_index()


def _better(frame: pd.DataFrame, algorithms: Sequence[str]) -> str:
    """Of ``algorithms``, the one with the highest mean NDCG@1..k in ``frame`` (the tidy
    curves; first on ties), as the summary picks it."""
    means = {a: float(curve(frame, algorithm=a).mean()) for a in algorithms}
    return max(means, key=means.__getitem__)


def summary_samples(figure: str, d: dict[str, Any]) -> pd.DataFrame:
    """Each query's (user's) value of the summary's differences of mean NDCG@1..k: the
    samples of ``results/<figure>_summary.csv`` (read by :mod:`boostrank.report.claims`).
    Every method of a data set ranks the same queries, so a query is a paired unit; where a
    difference is against the better of several methods, the better one is picked on the
    means, as the summary does. Figures 4.1, 4.4 and 4.6 have none."""

    from boostrank.report.spread import samples_table

    found: list[tuple[str, str, str, pd.Series]] = []  # statistic, data set, mode, values
    q, frame = d.get("queries"), d.get("frame")
    if q is not None and figure in ("thesis-fig4_2", "thesis-fig4_3"):
        for mode in dict.fromkeys(q["evaluated"]):
            for ds in datasets_in(q):
                qs = q[(q["dataset"] == ds) & (q["evaluated"] == mode)]
                tidy = frame[(frame["dataset"] == ds) & (frame["evaluated"] == mode)]
                found += [(s, ds, mode, v) for s, v in _differences(figure, qs, tidy, d, ds)]
    elif q is not None and figure == "thesis-fig4_5":
        main_q, sizes_q, _ = parts4_5(q)
        main, _, sizes = parts4_5(frame)
        mrr = _by_query(main_q, algorithm="MRR")
        base = _by_query(main_q, algorithm="Base ranker")
        others = [a for a in ("Base ranker", "Rocchio", "Ranking-SVM", "LRR-Best")
                  if not curve(main, algorithm=a).empty]  # fmt: skip
        best = _better(main, others)
        lrr_best = _by_query(main_q, algorithm="LRR-Best")
        found += [
            (
                "mrr_minus_best_baseline",
                "movielens_100k",
                "",
                mrr - _by_query(main_q, algorithm=best),
            ),
            ("lrr_best_minus_base", "movielens_100k", "", lrr_best - base),
        ]
        if sizes:
            smallest = sizes_q[sizes_q["feedback"].astype(int) == sizes[0]]
            gain = _by_query(smallest, algorithm="MRR") - _by_query(
                smallest, algorithm="Base ranker"
            )
            found.append(("mrr_smallest_minus_base", "movielens_100k", "", gain))
    keys = ["statistic", "dataset", *(["evaluated"] if figure in PROTOCOL_FIGURES else [])]
    groups = [
        (dict(zip(keys, (stat, ds, mode), strict=False)), [f"q{i}" for i in v.index], v)
        for stat, ds, mode, values in found
        for v in [values.dropna()]
    ]
    return samples_table(groups, "query", keys)


def _differences(
    figure: str, qs: pd.DataFrame, tidy: pd.DataFrame, d: dict[str, Any], ds: str
) -> list[tuple[str, pd.Series]]:
    """One data set's per-query differences under one protocol (Figures 4.2 and 4.3)."""
    if figure == "thesis-fig4_2":
        mrr = _by_query(qs[qs["family"] == "mrr"], algorithm="MRR")
        pairs = (("LRR-Best", "lrr_best"), ("Base ranker", "base"), ("Rocchio", "rocchio"),
                 ("Ranking-SVM", "svm"))  # fmt: skip
        return [
            (f"mrr_minus_{name}", mrr - _by_query(qs, algorithm=other))
            for other, name in pairs
            if len(_by_query(qs, algorithm=other))
        ]
    mrr = {"best": _by_query(qs[qs["family"] == "mrr"], algorithm="MRR")}
    out = []
    for which in ("worst", "medium", "best"):
        own = qs[qs["family"] == "mrr"] if which == "best" else qs[
            (qs["family"] == "mrr_bases") & (qs["variant"] == which)]  # fmt: skip
        base_own = qs[qs["family"] == "baselines"] if which == "best" else own
        mrr[which] = _by_query(own, algorithm="MRR")
        out.append(
            (f"mrr_minus_base_{which}", mrr[which] - _by_query(base_own, algorithm="Base ranker"))
        )
    out.append(("mrr_best_minus_worst", mrr["best"] - mrr["worst"]))
    baselines = tidy[tidy["family"] == "baselines"]
    better = _better(baselines, ("Rocchio", "Ranking-SVM"))
    best_baseline = _by_query(qs[qs["family"] == "baselines"], algorithm=better)
    out.append(("mrr_worst_minus_best_baseline", mrr["worst"] - best_baseline))
    return out


# --------------------------------------------------------------------------- Figure 4.6
def timing_frame(d: dict[str, Any]) -> pd.DataFrame:
    """Figure 4.6's timing CSV (MRR's running time per test user)."""
    t = d["timing"]
    if t is None:
        raise BoostrankError("thesis-fig4_6 needs the timing CSV")
    return t


def timing_groups(t: pd.DataFrame, bin_width: int) -> pd.DataFrame:
    """Users grouped by their number of rated movies (groups of ``bin_width``): mean number of
    rated movies, mean and sd of the running time."""
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
    return groups


def timing_fit(groups: pd.DataFrame) -> tuple[np.ndarray, float, float]:
    """A line and a parabola through the group means (weighted by users): the line's
    coefficients, its R^2, and the share of the quadratic term at the largest group (NaN with
    fewer than three groups)."""
    import numpy as np

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
    return coef, r2, share


def stats4_6(d: dict[str, Any], bin_width: int = 50) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.6's tidy frame (the groups of users) and statistics: is MRR's running time
    linear in the number of rated movies?"""
    import pandas as pd

    groups = timing_groups(timing_frame(d), bin_width)
    coef, r2, share = timing_fit(groups)
    rows: list[dict[str, Any]] = []
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
    return groups, pd.DataFrame(rows)


# --------------------------------------------------------------------------- entry point
# The statistics of each figure of spec.PROTOCOL_FIGURES under one protocol.
PROTOCOL_STATS: dict[str, Callable[..., tuple[pd.DataFrame, pd.DataFrame]]] = {
    "thesis-fig4_2": stats4_2,
    "thesis-fig4_3": stats4_3,
    "thesis-fig4_4": stats4_4,
}


def every_protocol(
    figure: str, d: dict[str, Any], evaluated: str
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
        tidy, stat = PROTOCOL_STATS[figure](d, mode, drawn=mode == evaluated)
        tidies.append(tidy)
        stats.append(stat.assign(evaluated=mode))
    if "evaluated" in tidies[0].columns and tidies[0]["evaluated"].nunique() > 1:
        tidy = tidies[0]  # Figure 4.2's tidy frame already holds every protocol
    else:
        tidy = pd.concat(tidies, ignore_index=True)
    return tidy, pd.concat(stats, ignore_index=True)


def summarise(
    figure: str, d: dict[str, Any], evaluated: str = "all", bin_width: int = 50
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The tidy results and the summary statistics of one of thesis-fig4_1 .. thesis-fig4_6
    (``d``: :func:`read_inputs` with ``claims``, the registry)."""
    if figure == "thesis-fig4_1":
        return stats4_1(d)
    if figure in PROTOCOL_FIGURES:
        return every_protocol(figure, d, evaluated)
    if figure == "thesis-fig4_5":
        return stats4_5(d)
    if figure == "thesis-fig4_6":
        return stats4_6(d, bin_width)
    raise BoostrankError(f"unknown chapter 4 figure {figure!r}")


__all__ = [
    "best_rating",
    "curve",
    "datasets_in",
    "every_protocol",
    "kind_of",
    "read_inputs",
    "stats4_1",
    "stats4_2",
    "stats4_3",
    "stats4_4",
    "stats4_5",
    "stats4_6",
    "summarise",
    "summary_samples",
]
