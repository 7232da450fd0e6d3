"""Figure 4.1 of Valizadegan (2010), section 4.3.4: the reduction of L_p (Eq. 4.10) by MRR
(Algorithm 6) on OHSUMED, with the bounds of Theorems 9-10 (Eqs. 4.15, 4.19); the statistics
of each run of the objective CSV (:func:`.jobs_objective.objective_job`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.report.stat_rows import stat_row

if TYPE_CHECKING:
    import pandas as pd


def objective_frame(d: dict[str, Any]) -> pd.DataFrame:
    """Figure 4.1's objective CSV (``weak_learner`` filled in as ``sampled_stump`` where it has
    no such column)."""
    obj = d["objective"]
    if obj is None:
        raise BoostrankError("thesis-fig4_1 needs the objective CSV")
    if "weak_learner" not in obj.columns:  # such a CSV holds sampled-stump runs only
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


def run_stats(rows: list[dict[str, Any]], part: pd.DataFrame, suffix: str, what: str) -> None:
    """The statistics of one run (rows of one ``(t_scope, weak_learner)``, sorted by query and
    iteration): whether L_p falls (Algorithm 6), Theorems 9-10, and how fast; ``suffix`` ends
    the names of the runs other than the configured MRR."""
    import numpy as np

    step = part.groupby("qid")["log_lp"].diff().dropna()
    rows.append(
        stat_row(
            statistic="lp_rises_fraction" + suffix,
            dataset="ohsumed",
            algorithm="",
            value=float((step > 1e-9).mean()),
            part=part,
            note=f"{what}: fraction of iterations where L_p rose (Algorithm 6)",
        )
    )
    t9 = (part["log_lp"] <= part["log_theorem9"] + 1e-9).mean()
    t10 = (part["log_lp"] <= part["log_theorem10"] + 1e-9).mean()
    rows.append(
        stat_row(
            statistic="theorem9_holds_fraction" + suffix,
            dataset="ohsumed",
            algorithm="",
            value=float(t9),
            part=part,
            note=f"{what}: fraction of (query, iteration) where Eq. 4.15 holds",
        )
    )
    rows.append(
        stat_row(
            statistic="theorem10_holds_fraction" + suffix,
            dataset="ohsumed",
            algorithm="",
            value=float(t10),
            part=part,
            note=f"{what}: fraction of (query, iteration) where Eq. 4.19 holds",
        )
    )
    first = part.groupby("qid")["log_lp"].first()
    last = part.groupby("qid")["log_lp"].last()
    at10 = part[part["iteration"] == 10].set_index("qid")["log_lp"]
    total = first - last
    share = ((first - at10) / total)[total > 0]
    rows.append(
        stat_row(
            statistic="first10_share" + suffix,
            dataset="ohsumed",
            algorithm="",
            value=float(share.median()),
            part=part,
            note=f"{what}: median share of the final reduction of log L_p reached after 10 "
            f"of {int(part['iteration'].max())} iterations",
        )
    )
    rows.append(
        stat_row(
            statistic="lp_final_ratio" + suffix,
            dataset="ohsumed",
            algorithm="",
            value=float(np.exp(-total).median()),
            part=part,
            note=f"{what}: median L_p^T / L_p^0",
        )
    )


def tidy4_1(obj: pd.DataFrame, runs: list[tuple[str, str]]) -> pd.DataFrame:
    """Figure 4.1's tidy frame: the median L_p ratio over queries per run and iteration."""
    import numpy as np

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
    return tidy


def stats4_1(d: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.1's tidy frame (median L_p ratio per run and iteration) and statistics:
    whether L_p falls (Algorithm 6), Theorems 9-10, and how fast."""
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
        run_stats(rows, part, suffix, what)
    return tidy4_1(obj, runs), pd.DataFrame(rows)


__all__ = ["example_query", "lp_ratio", "objective_frame", "objective_runs", "stats4_1"]
