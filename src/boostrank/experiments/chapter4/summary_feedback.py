"""Figures 4.2-4.4 of Valizadegan (2010), sections 4.4.2-4.4.4: the statistics of relevance
feedback on the seven LETOR 3.0 data sets under one evaluation protocol -- the six methods
compared (4.2), MRR with the worst, a medium and the best base ranker (4.3) and with 5..20
feedback documents (4.4)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.jobs_curves import Z_95
from boostrank.experiments.chapter4.spec import FIRST_THREE, ORDER, SIMILAR_TOL
from boostrank.experiments.chapter4.summary_curves import (
    band,
    curve,
    datasets_in,
    matching,
    mean_of,
)
from boostrank.experiments.chapter4.summary_relevance import (
    POOR_BASE,
    base_counts,
    base_empty4_4,
    empty4_3,
    one_relevant4_2,
    quality_pair,
    some_relevant_gains,
)
from boostrank.report.stat_rows import stat_row

if TYPE_CHECKING:
    import pandas as pd

# Section 4.4.4: "for data set NP2003, there is no changes in the performance of MRR with
# different relevance feedback"; the text's "direct effect" of the feedback size is on the others.
NO_CHANGE = "np2003"
# The default of config chapter4.no_change_se (reading chapter4_no_change_se): a difference
# within this many standard errors of its mean over the queries is no change (the convention of
# Figure 4.4's NP2003 claim); beyond it, a change. The figure job passes the configured value
# as ``d["no_change_se"]``.
NO_CHANGE_SE = 1.0


def paired_over_se(a: pd.Series, b: pd.Series) -> float:
    """The mean over the shared queries of ``a - b`` (each query's value, indexed by query)
    over its standard error, sd / sqrt(n): how many standard errors ``a`` lies above ``b``.
    0 where every query ties, +-inf where every query differs by the same non-zero amount,
    NaN with fewer than two queries."""
    import math

    diff = (a - b).dropna()
    if len(diff) < 2:
        return float("nan")
    mean, se = float(diff.mean()), float(diff.std(ddof=1)) / math.sqrt(len(diff))
    if se == 0:
        return 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean / se


def query_frame(d: dict[str, Any], ds: str, evaluated: str) -> pd.DataFrame | None:
    """The per-query samples (each query's mean NDCG@1..k per method, the jobs'
    ``.queries.csv``) of data set ``ds`` under protocol ``evaluated``; None without them."""
    q = d.get("queries")
    return None if q is None else q[(q["dataset"] == ds) & (q["evaluated"] == evaluated)]


def _published_base(d: dict[str, Any], dataset: str) -> Any:
    """Section 4.4.1's base-ranker feature for ``dataset``, from the claims registry."""
    from boostrank.report.claims import published_value

    row = {"statistic": "best_feature", "dataset": dataset}
    return published_value(d["claims"], "results/thesis-fig4_3_summary.csv", row, "value")


def view4_2(frame: pd.DataFrame, evaluated: str) -> tuple[pd.DataFrame, list[str]]:
    """Figure 4.2's rows under protocol ``evaluated`` (the six methods and MRR with the other
    reading of T), and the names of the latter."""
    main = frame[frame["algorithm"].isin(ORDER) | frame["algorithm"].str.startswith("MRR (")]
    view = main[main["evaluated"] == evaluated]
    alt_names = sorted(a for a in view["algorithm"].unique() if a.startswith("MRR ("))
    return view, alt_names


def mean_ndcg_rows(
    rows: list[dict[str, Any]], part: pd.DataFrame, ds: str, names: list[str], k_max: int
) -> dict[str, float]:
    """Each method's mean NDCG@1..k_max on one data set (of ``names``, those with rows), each
    added as a ``mean_ndcg`` row (Figures 4.2 and 4.5)."""
    perf = {}
    for alg in names:
        c = curve(part, algorithm=alg)
        if c.empty:
            continue
        perf[alg] = float(c.mean())
        rows.append(
            stat_row(
                statistic="mean_ndcg",
                dataset=ds,
                algorithm=alg,
                value=c.mean(),
                part=part,
                note=f"mean NDCG@1..{k_max}",
            )
        )
    return perf


def comparisons4_2(
    rows: list[dict[str, Any]],
    part: pd.DataFrame,
    ds: str,
    p: dict[str, float],
    alt_names: list[str],
    k_max: int,
) -> None:
    """MRR against each other method on one data set (``p``: the means), and the other reading
    of T against LRR-Best."""
    for other, name in (
        ("LRR-Best", "lrr_best"),
        ("Base ranker", "base"),
        ("Rocchio", "rocchio"),
        ("Ranking-SVM", "svm"),
    ):
        if other in p:
            rows.append(
                stat_row(
                    statistic=f"mrr_minus_{name}",
                    dataset=ds,
                    algorithm="",
                    value=p["MRR"] - p[other],
                    part=part,
                    note=f"mean NDCG@1..{k_max}: MRR minus {other}",
                )
            )
    for alt in alt_names:
        if "LRR-Best" in p:
            rows.append(
                stat_row(
                    statistic="alt_mrr_minus_lrr_best",
                    dataset=ds,
                    algorithm="",
                    value=p[alt] - p["LRR-Best"],
                    part=part,
                    note=f"{alt} minus LRR-Best (the other reading of T; information)",
                )
            )


def weak_learner4_2(
    rows: list[dict[str, Any]], part: pd.DataFrame, weak: pd.DataFrame, ds: str, p: dict[str, float]
) -> None:
    """MRR with LRR's weak learner (the rows ``MRR [...]`` of ``weak``, one data set under one
    protocol) against LRR-Best and MRR: the objective's and the weak learner's effects."""
    for name in sorted(a for a in weak["algorithm"].unique() if a.startswith("MRR [")):
        mean_weak = mean_of(weak, algorithm=name)
        if "LRR-Best" in p:
            rows.append(
                stat_row(
                    statistic="weak_mrr_minus_lrr_best",
                    dataset=ds,
                    algorithm="",
                    value=mean_weak - p["LRR-Best"],
                    part=part,
                    note=f"{name} minus LRR-Best: the objective's effect, same weak learner "
                    "(information)",
                )
            )
        rows.append(
            stat_row(
                statistic="mrr_minus_weak_mrr",
                dataset=ds,
                algorithm="",
                value=p["MRR"] - mean_weak,
                part=part,
                note=f"MRR minus {name}: the weak learner's effect (information)",
            )
        )


def shape4_2(rows: list[dict[str, Any]], part: pd.DataFrame, ds: str, k_max: int) -> None:
    """The shape of MRR's curve on one data set: its gain over the base ranker at the top
    against the bottom, and its trend with k."""
    mrr, base = curve(part, algorithm="MRR"), curve(part, algorithm="Base ranker")
    gain = mrr - base
    top, bottom = gain.iloc[:5].mean(), gain.iloc[-5:].mean()
    rows.append(
        stat_row(
            statistic="gain_top_minus_bottom",
            dataset=ds,
            algorithm="",
            value=top - bottom,
            part=part,
            note="MRR minus base ranker: mean gain at k = 1..5 minus mean gain at the last 5 k",
        )
    )
    rows.append(
        stat_row(
            statistic="mrr_trend",
            dataset=ds,
            algorithm="",
            value=mrr.iloc[-1] - mrr.iloc[0],
            part=part,
            note=f"MRR's NDCG@{k_max} minus NDCG@1 (negative: falls with k)",
        )
    )


def fractions4_2(
    rows: list[dict[str, Any]], view: pd.DataFrame, perf: dict[str, dict[str, float]]
) -> None:
    """The fractions of data sets (those where MRR ran, ``perf``: each one's means) where the
    comparisons of section 4.4.2 hold."""
    import numpy as np

    have = list(perf)

    def frac(name: str, scope: str, sets: Sequence[str], test: Any, note: str) -> None:
        sets = [s for s in sets if s in have]
        if not sets:
            return
        value = float(np.mean([test(perf[s]) for s in sets]))
        note += f" ({len(sets)} data sets: {', '.join(sets)})"
        rows.append(
            stat_row(
                statistic=name,
                dataset=scope,
                algorithm="",
                value=value,
                part=view[view["dataset"].isin(sets)],
                note=note,
            )
        )

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
    frac(  # "MRR ... is more effective than the Linear Ranking Refinement (LLR) algorithm"
        "mrr_beats_lrr_best_fraction",
        "all",
        have,
        lambda p: p["MRR"] > p["LRR-Best"],
        "fraction of data sets where MRR's mean NDCG exceeds LRR-Best's",
    )


def lrr_spread4_2(
    rows: list[dict[str, Any]], part: pd.DataFrame, qs: pd.DataFrame | None, ds: str
) -> None:
    """Section 4.4.1, "the performance of LRR depends on the parameter gamma": on one data
    set (``qs``: its per-query samples under one protocol), LRR-Best's mean NDCG@1..k minus
    LRR-Worst's (the best and the worst of its gammas) over the standard error of the
    per-query difference (:func:`paired_over_se`)."""
    if qs is None:
        return
    best, worst = (
        matching(qs, algorithm=a).set_index("query")["value"].astype(float)
        for a in ("LRR-Best", "LRR-Worst")
    )
    if best.empty or worst.empty:
        return
    rows.append(
        stat_row(
            statistic="lrr_best_minus_worst_over_se",
            dataset=ds,
            algorithm="",
            value=paired_over_se(best, worst),
            part=part,
            note="LRR-Best minus LRR-Worst, mean NDCG, over the standard error of the per-query "
            "difference",
        )
    )


def over_se_fraction(
    rows: list[dict[str, Any]],
    view: pd.DataFrame,
    of: str,
    sets: Sequence[str],
    *,
    name: str,
    scope: str,
    within: bool,
    threshold: float = NO_CHANGE_SE,
) -> None:
    """Over the data sets ``sets`` where statistic ``of`` (a difference in standard errors,
    one row per data set) is defined: the fraction where it is within ``threshold`` standard
    errors (``within``: no change) or beyond it (a change), as row ``name`` of scope
    ``scope``."""
    import numpy as np

    found = {
        r["dataset"]: float(r["value"])
        for r in rows
        if r["statistic"] == of and r["dataset"] in sets and not np.isnan(r["value"])
    }
    if not found:
        return
    hits = [(v <= threshold) == within for v in found.values()]
    how = "within" if within else "beyond"
    rows.append(
        stat_row(
            statistic=name,
            dataset=scope,
            algorithm="",
            value=float(np.mean(hits)),
            part=view[view["dataset"].isin(list(found))],
            note=f"fraction of data sets where {of} is {how} {threshold:g} ({len(found)} data "
            "sets: "
            f"{', '.join(found)})",
        )
    )


def trends4_2(rows: list[dict[str, Any]], view: pd.DataFrame, have: list[str]) -> None:
    """Over the data sets ``have``: the fraction of curves whose trend with k is the one
    section 4.4.2 states, and of data sets where MRR gains most at the top."""
    import numpy as np

    trend_cells = []
    for ds in have:
        part = view[view["dataset"] == ds]
        for alg in ORDER:
            c = curve(part, algorithm=alg)
            if not c.empty:
                falls = c.iloc[-1] < c.iloc[0]
                trend_cells.append(falls if ds in FIRST_THREE else not falls)
    if trend_cells:
        rows.append(
            stat_row(
                statistic="trend_as_stated_fraction",
                dataset="all",
                algorithm="",
                value=float(np.mean(trend_cells)),
                part=view,
                note="fraction of (data set, algorithm) curves falling with k on "
                "OHSUMED/TD2003/TD2004 "
                "and rising on the other four",
            )
        )
    gains = [r["value"] for r in rows if r["statistic"] == "gain_top_minus_bottom"]
    if gains:
        rows.append(
            stat_row(
                statistic="gain_top_fraction",
                dataset="all",
                algorithm="",
                value=float(np.mean([g > 0 for g in gains])),
                part=view,
                note="fraction of data sets where MRR's gain over the base ranker is larger at the "
                "top",
            )
        )


def stats4_2(
    d: dict[str, Any], evaluated: str, drawn: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.2's tidy frame (every protocol) and the claims' statistics under
    ``evaluated``: mean NDCG@1..25 of the six methods on each data set and their
    comparisons (``d["no_change_se"]``, else :data:`NO_CHANGE_SE`: LRR's change with gamma)."""
    import pandas as pd

    frame = d["frame"]
    view, alt_names = view4_2(frame, evaluated)
    k_max = int(view["k"].max())
    rows: list[dict[str, Any]] = []
    perf: dict[str, dict[str, float]] = {}  # the data sets where MRR ran: each method's mean
    for ds in datasets_in(view):
        part = view[view["dataset"] == ds]
        p = mean_ndcg_rows(rows, part, ds, ORDER + alt_names, k_max)
        if "MRR" not in p:
            continue
        perf[ds] = p
        comparisons4_2(rows, part, ds, p, alt_names=alt_names, k_max=k_max)
        weak = frame[(frame["evaluated"] == evaluated) & (frame["dataset"] == ds)]
        weak_learner4_2(rows, part, weak, ds, p)
        shape4_2(rows, part, ds, k_max)
        lrr_spread4_2(rows, part, query_frame(d, ds, evaluated), ds)
    fractions4_2(rows, view, perf)
    trends4_2(rows, view, list(perf))
    over_se_fraction(
        rows, view, "lrr_best_minus_worst_over_se", list(perf),
        name="lrr_depends_fraction", scope="all", within=False,
        threshold=d.get("no_change_se", NO_CHANGE_SE),
    )  # fmt: skip
    if drawn:  # counted from the data: the same under every protocol
        one_relevant4_2(rows, view[view["dataset"].isin(list(perf))], d)
    keep = frame[~frame["algorithm"].eq("LRR")]  # with the undrawn MRR [weak learner: ...]
    return keep.reset_index(drop=True), pd.DataFrame(rows)


def base_quality_rows(part: pd.DataFrame, which: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """MRR's rows and the base ranker's rows of one data set with its ``which`` (worst,
    medium, best) base ranker (best: the main runs of families mrr and baselines)."""
    if which == "best":
        return (
            matching(part[part["family"] == "mrr"], algorithm="MRR"),
            matching(part[part["family"] == "baselines"], algorithm="Base ranker"),
        )
    own = part[(part["family"] == "mrr_bases") & (part["variant"] == which)]
    return matching(own, algorithm="MRR"), matching(own, algorithm="Base ranker")


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


def tidy4_3(
    part: pd.DataFrame, which: str, feature: int, mrr: pd.Series, g: pd.Series
) -> pd.DataFrame:
    """Figure 4.3's tidy rows of one data set under one protocol (``part``: its rows) with its
    ``which`` base ranker (feature ``feature``): MRR's curve ``mrr`` and the base ranker's
    ``g``."""
    import pandas as pd

    return pd.DataFrame(
        {
            "dataset": part["dataset"].iloc[0],
            "dataset_label": part["dataset_label"].iloc[0],
            "base_quality": which,
            "base_feature": feature,
            "k": mrr.index,
            "mrr_ndcg": mrr.values,
            "base_ndcg": g.reindex(mrr.index).values,
            "evaluated": part["evaluated"].iloc[0],
            "data_kind": part["data_kind"].iloc[0],
            "provenance": part["provenance"].iloc[0],
        }
    )


def queries4_3(
    rows: list[dict[str, Any]],
    part: pd.DataFrame,
    qs: pd.DataFrame | None,
    found: dict[str, pd.DataFrame],
) -> pd.Series:
    """Figure 4.3's per-query comparisons on one data set under one protocol (``qs``: its
    per-query samples; ``found``: :func:`.summary_relevance.base_counts`): MRR's gain over
    its worst base ranker in standard errors (section 4.4.3, "no improvement can be made by
    the proposed algorithm for extremely poor base rankers"), and its mean gain over the
    (base ranker, query) pairs whose feedback holds a relevant document (MRR "is able to
    significantly improve the performance for a base ranker that can retrieve some relevant
    documents"); returns those pairs' gains."""
    import pandas as pd

    if qs is None:
        return pd.Series(dtype=float)
    ds = str(part["dataset"].iloc[0])
    mrr, base = quality_pair(qs, "worst")
    if len(mrr) and len(base):
        note = "MRR minus its worst base ranker over the standard error of the per-query gain"
        rows.append(
            stat_row(
                statistic="mrr_gain_over_se_worst",
                dataset=ds,
                algorithm="",
                value=paired_over_se(mrr, base),
                part=part,
                note=note,
            )
        )
    gains = some_relevant_gains(qs, found)
    if len(gains):
        note = "MRR minus its base ranker where the feedback holds a relevant document"
        rows.append(
            stat_row(
                statistic="mrr_minus_base_some_relevant",
                dataset=ds,
                algorithm="",
                value=gains.mean(),
                part=part,
                note=f"{note}: mean over {len(gains)} (base ranker, query) pairs",
            )
        )
    return gains


def poor4_3(
    rows: list[dict[str, Any]],
    view: pd.DataFrame,
    gains: dict[str, pd.Series],
    *,
    no_change_se: float = NO_CHANGE_SE,
) -> None:
    """Figure 4.3 over the data sets (section 4.4.3): the fraction of the five with an
    extremely poor base ranker where MRR gains no more than ``no_change_se`` standard errors
    over it, and MRR's mean gain over every (data set, base ranker, query) whose feedback holds
    a relevant document."""
    import pandas as pd

    over_se_fraction(
        rows, view, "mrr_gain_over_se_worst", POOR_BASE,
        name="mrr_no_gain_worst_fraction", scope="poor_five", within=True,
        threshold=no_change_se,
    )  # fmt: skip
    have = [ds for ds, g in gains.items() if len(g)]
    if have:
        pooled = pd.concat([gains[ds] for ds in have])
        rows.append(
            stat_row(
                statistic="mrr_minus_base_some_relevant",
                dataset="all",
                algorithm="",
                value=pooled.mean(),
                part=view[view["dataset"].isin(have)],
                note=f"MRR minus its base ranker, mean over the {len(pooled)} (data set, base "
                "ranker, "
                "query) whose feedback holds a relevant document",
            )
        )


def stats4_3(
    d: dict[str, Any], evaluated: str, drawn: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.3's tidy frame and statistics under ``evaluated``: MRR with the worst, a
    medium and the best base ranker per data set (``drawn``: the protocol drawn, which alone
    carries the protocol-free ``best_feature`` rows; ``d["no_change_se"]``, else
    :data:`NO_CHANGE_SE`: "no improvement")."""
    import pandas as pd

    frame = d["frame"]
    view = frame[frame["evaluated"] == evaluated]
    datasets = datasets_in(view)
    k_max = int(view["k"].max())
    rows: list[dict[str, Any]] = []
    tidy = []
    found: dict[str, dict[str, pd.DataFrame]] = {}  # the feedback's relevant documents
    gains: dict[str, pd.Series] = {}
    for ds in datasets:
        part = view[view["dataset"] == ds]
        base = base_record(d, ds)
        means = {}
        for which, feature, mrr, g in base_quality_curves(part, base):
            means[which] = float(mrr.mean())
            tidy.append(tidy4_3(part, which, feature, mrr, g))
            rows.append(
                stat_row(
                    statistic=f"mrr_minus_base_{which}",
                    dataset=ds,
                    algorithm="",
                    value=mrr.mean() - g.mean(),
                    part=part,
                    note=f"MRR minus its base ranker (feature {feature}), mean NDCG@1..{k_max}",
                )
            )
        if drawn:  # the same under every protocol: one row
            rows.append(
                stat_row(
                    statistic="best_feature",
                    dataset=ds,
                    algorithm="",
                    value=float(base["best"]),
                    part=part,
                    note=f"recomputed best base ranker (published {_published_base(d, ds)}); "
                    f"{base['rule']}",
                )
            )
        rows.append(
            stat_row(
                statistic="mrr_best_minus_worst",
                dataset=ds,
                algorithm="",
                value=means["best"] - means["worst"],
                part=part,
                note="MRR with the best minus MRR with the worst base ranker",
            )
        )
        baselines = part[part["family"] == "baselines"]
        best_baseline = max(mean_of(baselines, algorithm=a) for a in ("Rocchio", "Ranking-SVM"))
        rows.append(
            stat_row(
                statistic="mrr_worst_minus_best_baseline",
                dataset=ds,
                algorithm="",
                value=means["worst"] - best_baseline,
                part=part,
                note="MRR with the worst base ranker minus the better of Rocchio and Ranking-SVM "
                "with the best one",
            )
        )
        found[ds] = base_counts(d, part)
        gains[ds] = queries4_3(rows, part, query_frame(d, ds, evaluated), found[ds])
    if drawn:  # counted from the data: the same under every protocol
        empty4_3(rows, view, found)
    poor4_3(rows, view, gains, no_change_se=d.get("no_change_se", NO_CHANGE_SE))
    return pd.concat(tidy, ignore_index=True), pd.DataFrame(rows)


def sizes_stats(
    rows: list[dict[str, Any]],
    part: pd.DataFrame,
    ds: str,
    means: dict[int, float],
    base_means: dict[int, float] | None = None,
) -> None:
    import numpy as np

    sizes = sorted(means)
    steps = [means[b] > means[a] for a, b in itertools.pairwise(sizes)]
    rows.append(
        stat_row(
            statistic="feedback_monotone_fraction",
            dataset=ds,
            algorithm="",
            value=float(np.mean(steps)) if steps else np.nan,
            part=part,
            note=f"fraction of consecutive feedback sizes {sizes} where MRR's mean NDCG increases",
        )
    )
    rows.append(
        stat_row(
            statistic="mrr_largest_minus_smallest",
            dataset=ds,
            algorithm="",
            value=means[sizes[-1]] - means[sizes[0]],
            part=part,
            note=f"MRR with {sizes[-1]} minus MRR with {sizes[0]} feedback items",
        )
    )
    if base_means is not None and sizes[0] in base_means:
        rows.append(
            stat_row(
                statistic="mrr_smallest_minus_base",
                dataset=ds,
                algorithm="",
                value=means[sizes[0]] - base_means[sizes[0]],
                part=part,
                note=f"MRR with {sizes[0]} feedback items minus the base ranker",
            )
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


def spread_over_se(part: pd.DataFrame, sizes: Sequence[int]) -> float:
    """How far MRR's curve moves with the feedback size (section 4.4.4, Figure 4.4: on NP2003
    "there is no changes in the performance of MRR with different relevance feedback"): the
    largest, over k, of the spread of NDCG@k across ``sizes`` (largest minus smallest) over
    its standard error at k (the largest of the sizes', from the rows' 95% band: its wider
    half over Z_95, the band being clipped to [0, 1]). 0 where the curves coincide, NaN where
    they differ and a band is missing; at most 1: no change beyond one standard error."""
    import numpy as np
    import pandas as pd

    curves = pd.DataFrame({size: curve(part, feedback=size) for size in sizes})
    spread = (curves.max(axis=1) - curves.min(axis=1)).to_numpy()
    if not (spread > 0).any():
        return 0.0
    halves = []
    for size in sizes:
        found = band(part, feedback=size)
        if found is None:
            return float("nan")
        c = curves[size].to_numpy()
        hi, lo = (found[col].reindex(curves.index).to_numpy() for col in ("ci_high", "ci_low"))
        halves.append(np.maximum(hi - c, c - lo))
    se = np.max(np.stack(halves), axis=0) / Z_95
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(spread > 0, spread / se, 0.0)
    return float(ratio.max())


def aggregate4_4(rows: list[dict[str, Any]], view: pd.DataFrame) -> None:
    """Section 4.4.4's "direct effect" of the number of feedback documents, on the data sets
    other than NP2003 (where the text says MRR does not change): the mean over them of the
    fraction of feedback-size steps that raise MRR's mean NDCG."""
    import numpy as np

    mono = {
        r["dataset"]: r["value"]
        for r in rows
        if r["statistic"] == "feedback_monotone_fraction" and np.isfinite(r["value"])
    }
    sets = [ds for ds in mono if ds != NO_CHANGE]
    if sets:
        rows.append(
            stat_row(
                statistic="feedback_monotone_fraction",
                dataset=f"all_but_{NO_CHANGE}",
                algorithm="",
                value=float(np.mean([mono[ds] for ds in sets])),
                part=view[view["dataset"].isin(sets)],
                note="mean over data sets of the fraction of feedback-size steps that raise MRR's "
                "NDCG "
                f"({len(sets)} data sets: {', '.join(sets)})",
            )
        )


def small_feedback4_4(
    rows: list[dict[str, Any]], part: pd.DataFrame, means: dict[int, float], base: pd.DataFrame
) -> None:
    """Section 4.4.4, "even with a small amount of feedback, MRR is able to improve the
    retrieval performance considerably": on one data set, MRR's relative gain with the
    smallest feedback size over the base ranker (``base``: its rows), (MRR - base) / base of
    mean NDCG@1..k (the words' "considerably" measure, boostrank.report.words); +inf where
    the base ranker scores 0 and MRR more, NaN where both score 0."""
    import math

    base_curve = curve(base)
    if base_curve.empty or not means:
        return
    smallest, b = min(means), float(base_curve.mean())
    gain = means[smallest] - b
    relative = gain / abs(b) if b else (math.copysign(math.inf, gain) if gain else math.nan)
    rows.append(
        stat_row(
            statistic="mrr_smallest_rel_gain",
            dataset=str(part["dataset"].iloc[0]),
            algorithm="",
            value=relative,
            part=part,
            note=f"(MRR with {smallest} feedback documents - base ranker) / base ranker, mean NDCG",
        )
    )


def least_gain4_4(rows: list[dict[str, Any]], view: pd.DataFrame) -> None:
    """The smallest over the data sets of :func:`small_feedback4_4`'s relative gain: at least
    a threshold where every data set's is; NaN where one is undefined."""
    import numpy as np

    found = {r["dataset"]: r["value"] for r in rows if r["statistic"] == "mrr_smallest_rel_gain"}
    if found:
        rows.append(
            stat_row(
                statistic="mrr_smallest_rel_gain_min",
                dataset="all",
                algorithm="",
                value=float(np.min(list(found.values()))),
                part=view[view["dataset"].isin(list(found))],
                note=f"smallest over the data sets of mrr_smallest_rel_gain ({len(found)} data "
                "sets: "
                f"{', '.join(found)})",
            )
        )


def stats4_4(
    d: dict[str, Any], evaluated: str, drawn: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.4's tidy frame and statistics under ``evaluated``: MRR with 5, 10, 15 and 20
    feedback documents (section 4.4.4)."""
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
        sizes_stats(rows, part, ds, means)
        small_feedback4_4(rows, part, means, s["base"])
        if drawn:  # counted from the data: the same under every protocol
            base_empty4_4(rows, d, s["base"], s["sizes"][-1])
        rows.append(
            stat_row(
                statistic="feedback_spread_over_se",
                dataset=ds,
                algorithm="",
                value=spread_over_se(part, s["sizes"]),
                part=part,
                note="largest over k of MRR's NDCG@k spread across the feedback sizes "
                f"{s['sizes']} "
                "over its standard error over the queries (0: the curves coincide)",
            )
        )
    aggregate4_4(rows, view)
    least_gain4_4(rows, view)
    return pd.concat(tidy, ignore_index=True), pd.DataFrame(rows)


__all__ = [
    "NO_CHANGE",
    "NO_CHANGE_SE",
    "aggregate4_4",
    "base_quality_curves",
    "base_quality_rows",
    "base_record",
    "least_gain4_4",
    "lrr_spread4_2",
    "over_se_fraction",
    "paired_over_se",
    "poor4_3",
    "queries4_3",
    "query_frame",
    "sizes_of",
    "sizes_stats",
    "small_feedback4_4",
    "spread_over_se",
    "stats4_2",
    "stats4_3",
    "stats4_4",
    "tidy4_3",
    "view4_2",
    "view4_4",
]
