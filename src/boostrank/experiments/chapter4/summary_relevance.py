"""The relevant documents behind Figures 4.2-4.4 of Valizadegan (2010), sections 4.4.2-4.4.4,
counted from the LETOR arrays the jobs refined (``data/processed/<ds>.npz``, inputs of those
figure jobs): per query, its relevant documents (grade > 0) and those among the feedback
documents, the first ``feedback`` by a base ranker, as the jobs judge them
(:func:`.jobs.letor_queries`). The text explains its curves by them: "For the last four data
sets, there is only one relevant document for each query" (4.4.2); with an extremely poor base
ranker "all the retrieved documents are are judged as irrelevant" (4.4.3), while MRR "is able
to significantly improve the performance for a base ranker that can retrieve some relevant
documents" (4.4.3); on NP2003 "the base ranker in this case is not able to retrieve any
relevant documents for most queries" (4.4.4). The counts do not depend on the protocol, so
their rows are written once, under the protocol drawn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter4.spec import DATASETS, FIRST_THREE
from boostrank.experiments.chapter4.summary_curves import matching
from boostrank.report.stat_rows import stat_row

if TYPE_CHECKING:
    import pandas as pd

LAST_FOUR = tuple(ds for ds in DATASETS if ds not in FIRST_THREE)  # section 4.4.2
# Section 4.4.3: "When the base ranker performs extremely poor (like in TD2003, HP2003, HP2004,
# NP2003, and NP2004)": read as the worst of Figure 4.3's three base rankers on these sets.
POOR_BASE = ("td2003", "hp2003", "hp2004", "np2003", "np2004")
QUALITIES = ("worst", "medium", "best")  # Figure 4.3's base rankers


def letor_arrays(path: Path) -> str | None:
    """The LETOR data set whose arrays ``path`` holds (OHSUMED's may be the rebuilt copy,
    ``ohsumed_rebuilt.npz``), or None for another file (MovieLens' ratings)."""
    name = path.stem.removesuffix("_rebuilt")
    return name if path.suffix == ".npz" and name in DATASETS else None


def feedback_counts(
    path: Path | str, feature: int, n_feedback: int, max_queries: int | None = None
) -> pd.DataFrame:
    """Per query (``query``: its id, as the jobs write it): ``relevant``, its documents of
    grade > 0, and ``in_feedback``, those among the first ``n_feedback`` by feature
    ``feature`` (1-based; ties in file order), the documents the jobs judge; the first
    ``max_queries`` queries, as the jobs take them (:func:`.jobs.letor_queries`)."""
    import numpy as np
    import pandas as pd

    from boostrank.data.prepare import load_letor
    from boostrank.experiments.chapter4.jobs import sort_by_base
    from boostrank.metrics.ranking import query_groups

    data = load_letor(path)
    order, bounds = query_groups(data["qid"])
    out = []
    for k in range(len(bounds) - 1):
        if max_queries is not None and k >= max_queries:
            break
        rows = order[bounds[k] : bounds[k + 1]]
        relevant = data["y"][rows] > 0
        first = sort_by_base(data["X"][rows, feature - 1].astype(np.float64))[:n_feedback]
        out.append((int(data["qid"][rows[0]]), int(relevant.sum()), int(relevant[first].sum())))
    return pd.DataFrame(out, columns=["query", "relevant", "in_feedback"])


def counts_of(
    d: dict[str, Any], part: pd.DataFrame, feature: int, n_feedback: int
) -> pd.DataFrame | None:
    """:func:`feedback_counts` of the data set of ``part`` (its rows: the queries they
    ranked), kept in ``d`` for the summary and its samples; None where the figure job was not
    given the data set's arrays."""
    ds = str(part["dataset"].iloc[0])
    path = (d.get("letor") or {}).get(ds)
    if path is None:
        return None
    cache = d.setdefault("relevance", {})
    key = (ds, int(feature), int(n_feedback))
    if key not in cache:
        cache[key] = feedback_counts(
            path, int(feature), int(n_feedback), int(part["queries"].max())
        )
    return cache[key]


def base_counts(d: dict[str, Any], part: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Figure 4.3: the counts under the worst, the medium and the best base ranker (features
    of the base-ranker record) of ``part``'s data set; empty without its arrays."""
    base = d["base"].get(str(part["dataset"].iloc[0]))
    n_feedback = int(part["feedback"].max())
    found = {w: counts_of(d, part, int(base[w]), n_feedback) for w in QUALITIES} if base else {}
    return {w: c for w, c in found.items() if c is not None}


def one_relevant4_2(rows: list[dict[str, Any]], view: pd.DataFrame, d: dict[str, Any]) -> None:
    """Section 4.4.2, "For the last four data sets, there is only one relevant document for
    each query": per data set, the fraction of its queries with exactly one relevant document,
    and over the queries of the last four data sets together."""
    import pandas as pd

    found = {}
    for ds in dict.fromkeys(view["dataset"]):
        part = view[view["dataset"] == ds]
        c = counts_of(d, part, int(part["base_feature"].iloc[0]), int(part["feedback"].max()))
        if c is None:
            continue
        found[ds] = c
        note = f"fraction of the {len(c)} queries with exactly one relevant document (grade > 0)"
        rows.append(
            stat_row(
                statistic="one_relevant_fraction",
                dataset=ds,
                algorithm="",
                value=(c["relevant"] == 1).mean(),
                part=part,
                note=note,
            )
        )
    sets = [ds for ds in LAST_FOUR if ds in found]
    if sets:
        pooled = pd.concat([found[ds] for ds in sets])
        rows.append(
            stat_row(
                statistic="one_relevant_fraction",
                dataset="last_four",
                algorithm="",
                value=(pooled["relevant"] == 1).mean(),
                part=view[view["dataset"].isin(sets)],
                note=f"fraction of the {len(pooled)} queries of {', '.join(sets)} with exactly one "
                "relevant document",
            )
        )


def empty4_3(
    rows: list[dict[str, Any]], view: pd.DataFrame, found: dict[str, dict[str, pd.DataFrame]]
) -> None:
    """Section 4.4.3: per data set and base ranker (``found``: each data set's
    :func:`base_counts`), the fraction of queries whose feedback documents hold no relevant
    one; and, with the worst base ranker, over the queries of the five data sets the text
    names as extremely poor ("all the retrieved documents are are judged as irrelevant")."""
    import pandas as pd

    for ds, by_quality in found.items():
        part = view[view["dataset"] == ds]
        for which, c in by_quality.items():
            note = f"fraction of the {len(c)} queries whose feedback holds no relevant document"
            rows.append(
                stat_row(
                    statistic=f"feedback_empty_fraction_{which}",
                    dataset=ds,
                    algorithm="",
                    value=(c["in_feedback"] == 0).mean(),
                    part=part,
                    note=f"{note} ({which} base ranker)",
                )
            )
    sets = [ds for ds in POOR_BASE if "worst" in found.get(ds, {})]
    if sets:
        pooled = pd.concat([found[ds]["worst"] for ds in sets])
        rows.append(
            stat_row(
                statistic="feedback_empty_fraction_worst",
                dataset="poor_five",
                algorithm="",
                value=(pooled["in_feedback"] == 0).mean(),
                part=view[view["dataset"].isin(sets)],
                note=f"fraction of the {len(pooled)} queries of {', '.join(sets)} whose feedback "
                "under "
                "the worst base ranker holds no relevant document",
            )
        )


def quality_pair(qs: pd.DataFrame, which: str) -> tuple[pd.Series, pd.Series]:
    """Each query's mean NDCG@1..k of MRR and of its base ranker with the ``which`` base
    ranker (``qs``: the per-query samples of one data set under one protocol; best: the main
    runs of families mrr and baselines)."""
    if which == "best":
        mrr = matching(qs, family="mrr", algorithm="MRR")
        base = matching(qs, family="baselines", algorithm="Base ranker")
    else:
        own = matching(qs, family="mrr_bases", variant=which)
        mrr, base = matching(own, algorithm="MRR"), matching(own, algorithm="Base ranker")
    mrr_q, base_q = (f.set_index("query")["value"].astype(float) for f in (mrr, base))
    return mrr_q.sort_index(), base_q.sort_index()


def some_relevant_gains(qs: pd.DataFrame, found: dict[str, pd.DataFrame]) -> pd.Series:
    """Section 4.4.3, MRR "is able to significantly improve the performance for a base ranker
    that can retrieve some relevant documents": MRR's mean NDCG@1..k minus its base ranker's,
    for each (base ranker, query) whose feedback documents hold a relevant one (``found``:
    :func:`base_counts`), indexed ``<query>@<base ranker>``."""
    import pandas as pd

    out = []
    for which, c in found.items():
        mrr, base = quality_pair(qs, which)
        gain = (mrr - base).dropna()
        gain = gain[gain.index.isin(c.loc[c["in_feedback"] > 0, "query"])]
        out.append(pd.Series(gain.to_numpy(), index=[f"{q}@{which}" for q in gain.index]))
    return pd.concat(out) if out else pd.Series(dtype=float)


def base_empty4_4(
    rows: list[dict[str, Any]], d: dict[str, Any], base: pd.DataFrame, size: int
) -> None:
    """Section 4.4.4, on NP2003 "the base ranker in this case is not able to retrieve any
    relevant documents for most queries": per data set, the fraction of queries whose first
    ``size`` documents (the largest feedback) under its base ranker (``base``: its rows) hold
    no relevant document."""
    if base.empty or str(base["dataset"].iloc[0]) not in (d.get("letor") or {}):
        return  # the figure job was not given the data set's arrays
    c = counts_of(d, base, int(base["base_feature"].iloc[0]), size)
    if c is None:
        return
    rows.append(
        stat_row(
            statistic="base_feedback_empty_fraction",
            dataset=str(base["dataset"].iloc[0]),
            algorithm="",
            value=(c["in_feedback"] == 0).mean(),
            part=base,
            note=f"fraction of the {len(c)} queries whose first {size} documents under the base "
            "ranker "
            f"(feature {int(base['base_feature'].iloc[0])}) hold no relevant document",
        )
    )


__all__ = [
    "LAST_FOUR",
    "POOR_BASE",
    "QUALITIES",
    "base_counts",
    "base_empty4_4",
    "counts_of",
    "empty4_3",
    "feedback_counts",
    "letor_arrays",
    "one_relevant4_2",
    "quality_pair",
    "some_relevant_gains",
]
