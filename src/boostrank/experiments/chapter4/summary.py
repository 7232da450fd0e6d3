"""Figures 4.1-4.6 of Valizadegan (2010), chapter 4: the merge of the method families' results
(:mod:`.jobs_feedback`, :mod:`.jobs_movies`, :mod:`.jobs_objective`) into each figure's tidy
results CSV and the summary statistics its claims read, with the curves the figures draw.
pandas and numpy only; :mod:`.figure` draws. The statistics of each figure are in
:mod:`.summary_objective` (4.1), :mod:`.summary_feedback` (4.2-4.4) and
:mod:`.summary_movies` (4.5-4.6), built from :mod:`.summary_curves`; the relevant documents
Figures 4.2-4.4 count in the LETOR arrays in :mod:`.summary_relevance`; the per-query samples in
:mod:`.summary_samples`.

"Performance" of a curve is its mean over the truncation levels drawn (NDCG@1..25 for LETOR,
NDCG@1..10 for MovieLens).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.spec import PROTOCOL_FIGURES
from boostrank.experiments.chapter4.summary_feedback import stats4_2, stats4_3, stats4_4
from boostrank.experiments.chapter4.summary_movies import stats4_5, stats4_6
from boostrank.experiments.chapter4.summary_objective import stats4_1
from boostrank.experiments.chapter4.summary_relevance import letor_arrays

if TYPE_CHECKING:
    import pandas as pd


def read_inputs(inputs: Sequence[Path | str]) -> dict[str, Any]:
    """Sort the inputs by kind: family CSVs, base-ranker JSONs, objective / timing CSVs, the
    LETOR arrays (``letor``: by data set, Figures 4.2-4.4 count relevant documents in them)
    and MovieLens' ratings (``npz``)."""
    import pandas as pd

    from boostrank.io import read_json

    out: dict[str, Any] = {"results": [], "base": {}, "objective": None, "timing": None}
    for path in map(Path, inputs):
        if path.suffix == ".json":
            rec = read_json(path)
            out["base"][rec["dataset"]] = rec
        elif letor_arrays(path):
            out.setdefault("letor", {})[letor_arrays(path)] = path
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
    (``d``: :func:`read_inputs` with ``claims``, the registry, and ``no_change_se``, config
    chapter4.no_change_se)."""
    if figure == "thesis-fig4_1":
        return stats4_1(d)
    if figure in PROTOCOL_FIGURES:
        return every_protocol(figure, d, evaluated)
    if figure == "thesis-fig4_5":
        return stats4_5(d)
    if figure == "thesis-fig4_6":
        return stats4_6(d, bin_width)
    raise BoostrankError(f"unknown chapter 4 figure {figure!r}")


__all__ = ["PROTOCOL_STATS", "every_protocol", "read_inputs", "summarise"]
