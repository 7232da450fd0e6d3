"""The pieces every Chapter 4 summary (Figures 4.1-4.6 of Valizadegan 2010) is built from: the
rows of a method, its curve of NDCG by k and 95% band, and the statistic rows the claims read
(one per claim-able quantity, with ``data_kind`` and ``provenance``; a statistic over several
data sets is ``synthetic`` if any of them is)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.spec import DATASETS

if TYPE_CHECKING:
    import pandas as pd


def matching(frame: pd.DataFrame, **match: Any) -> pd.DataFrame:
    """The rows matching every column = value."""
    for col, value in match.items():
        frame = frame[frame[col] == value]
    return frame


def curve(frame: pd.DataFrame, **match: Any) -> pd.Series:
    """NDCG by k of the rows matching every column = value."""
    return matching(frame, **match).set_index("k")["ndcg"].sort_index()


def band(frame: pd.DataFrame, **match: Any) -> pd.DataFrame | None:
    """``ci_low`` and ``ci_high`` by k of the rows matching every column = value (the 95%
    interval over queries the jobs write, :func:`.jobs_curves.rows_for`); None where the rows have
    none (a curve without per-query values, or results written before the columns)."""
    import pandas as pd

    rows = matching(frame, **match)
    if "ci_low" not in rows.columns or rows.empty:
        return None
    found = rows.set_index("k")[["ci_low", "ci_high"]].sort_index()
    found = found.apply(pd.to_numeric, errors="coerce")  # "" where a row has no interval
    return None if found.isna().any().any() else found


def datasets_in(frame: pd.DataFrame) -> list[str]:
    """The data sets of ``frame``, in the dissertation's order (others after, sorted)."""
    present = set(frame["dataset"])
    return [d for d in DATASETS if d in present] + sorted(present - set(DATASETS))


def mean_of(frame: pd.DataFrame, **match: Any) -> float:
    c = curve(frame, **match)
    if c.empty:
        raise BoostrankError(f"no results for {match}")
    return float(c.mean())


__all__ = ["band", "curve", "datasets_in", "matching", "mean_of"]
