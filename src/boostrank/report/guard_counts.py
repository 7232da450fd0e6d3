"""The guards' firing counts per figure (:mod:`boostrank.guards`), for the claims page, the
captions and the diagnoses.

Each figure with guards writes ``results/guards/<figure>.csv``; a guard's basis comes from its
reading in ``config/readings.yaml`` (its id is the reading's). A ``silent`` guard is one the
printed algorithm is undefined without (an infinite weight, a solver that never stops): it stays
on, and where it fired on real data every failing claim of its figure names it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from boostrank import guards
from boostrank.io import read_yaml
from boostrank.workflow.catalog import Figure

SYNTHETIC = "synthetic"


def load(figures: Iterable[Figure], root: Path | str = ".") -> pd.DataFrame:
    """Every figure's guard table the run wrote, one frame (:data:`guards.COLUMNS`)."""
    root = Path(root)
    paths = [root / o for f in figures for o in f.outputs if (root / o).exists()]
    return guards.read_tables(paths)


def bases(registry: Path | str | None) -> dict[str, str]:
    """Reading id -> its basis, for the readings marked ``guard: true``."""
    if registry is None or not Path(registry).exists():
        return {}
    entries = read_yaml(registry)["readings"]
    return {r["id"]: r["basis"] for r in entries if r.get("guard")}


def summary(frame: pd.DataFrame, basis: dict[str, str]) -> pd.DataFrame:
    """One row per (figure, guard): its basis, times fired, jobs fired of jobs, and the same on
    real data (every data kind but the synthetic stand-ins)."""
    columns = ["figure", "guard", "basis", "fired", "jobs_fired", "jobs", "real_fired", "real"]
    if not len(frame):
        return pd.DataFrame(columns=columns)
    real = frame["data_kind"].fillna("").astype(str).ne(SYNTHETIC)
    frame = frame.assign(
        real_fired=frame["jobs_fired"].where(real, 0), real=frame["jobs"].where(real, 0)
    )
    out = frame.groupby(["figure", "guard"], as_index=False, sort=True)[
        ["fired", "jobs_fired", "jobs", "real_fired", "real"]
    ].sum()
    out.insert(2, "basis", out["guard"].map(basis).fillna("unregistered"))
    return out[columns]


def line(row: pd.Series) -> str:
    """``g (basis b) fired n times in j of m jobs (real data: r of s)``."""
    return (
        f"{row['guard']} (basis {row['basis']}) fired {row['fired']} times in "
        f"{row['jobs_fired']} of {row['jobs']} jobs (real data: {row['real_fired']} of "
        f"{row['real']})"
    )


def figure_lines(table: pd.DataFrame, figure: str) -> list[str]:
    """The guard lines of ``figure`` (:func:`line`), none where it has no guards."""
    return [line(row) for _, row in table[table["figure"] == figure].iterrows()]


def diagnosis_notes(table: pd.DataFrame) -> dict[str, str]:
    """Figure -> the text a failing claim of it adds: each guard of basis ``silent`` that
    fired on real data (the printed algorithm needs it, and it may move the numbers)."""
    fired = table[(table["basis"] == "silent") & (table["real_fired"] > 0)]
    return {
        str(figure): "guard fired on real data: " + "; ".join(line(r) for _, r in rows.iterrows())
        for figure, rows in fired.groupby("figure", sort=True)
    }


__all__ = ["bases", "diagnosis_notes", "figure_lines", "line", "load", "summary"]
