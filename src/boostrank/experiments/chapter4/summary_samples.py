"""The per-query samples of the Chapter 4 summaries (Figures 4.2, 4.3 and 4.5 of Valizadegan
2010): each query's (user's) value of a summary difference of mean NDCG@1..k, the unit of the
claims' intervals and paired tests (:mod:`boostrank.report.spread`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter4.spec import PROTOCOL_FIGURES
from boostrank.experiments.chapter4.summary_curves import curve, datasets_in, matching
from boostrank.experiments.chapter4.summary_movies import parts4_5
from boostrank.experiments.chapter4.summary_relevance import base_counts, some_relevant_gains

if TYPE_CHECKING:
    import pandas as pd


def _by_query(frame: pd.DataFrame, **match: Any) -> pd.Series:
    """Each query's mean NDCG@1..k of the rows matching every column = value."""
    return matching(frame, **match).set_index("query")["value"].sort_index()


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
            found += _pooled(found, SOME_RELEVANT, mode)
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


# Figure 4.3: MRR's gain over its base rankers where their feedback holds a relevant document,
# per data set and over every (data set, base ranker, query).
SOME_RELEVANT = "mrr_minus_base_some_relevant"


def _pooled(
    found: list[tuple[str, str, str, pd.Series]], statistic: str, mode: str
) -> list[tuple[str, str, str, pd.Series]]:
    """The units of ``statistic`` of every data set under ``mode`` as one scope ``all``, each
    named after its data set too (none where no data set has any)."""
    import pandas as pd

    parts = [
        v.set_axis([f"{i}@{ds}" for i in v.index])
        for s, ds, m, v in found
        if s == statistic and m == mode and ds != "all"
    ]
    return [(statistic, "all", mode, pd.concat(parts))] if parts else []


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
    gains = some_relevant_gains(qs, base_counts(d, tidy))
    if len(gains):
        out.append((SOME_RELEVANT, gains))
    return out


__all__ = ["summary_samples"]
