"""Guards: steps a learner takes that its printed algorithm lacks (a cap on a step size, an
early stop, a rescaling, an iteration cap on a solver).

Each guard is a reading in ``config/readings.yaml`` and its id is that reading's id. A learner
that has guards keeps ``guards_``, a :class:`Guards` of the last fit (every guard it has, fired
or not, with how often it fired). A job writes the counts into its record under :data:`FIELD`
(a JSON object; in a CSV row, its JSON text). A figure's summary sums its jobs' counts into its
guard table, ``results/guards/<figure>.csv`` (:func:`write_table`), which the report shows per
figure and names in the diagnoses of the figure's failing claims.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from boostrank.io import atomic_open

FIELD = "guards"  # the job record's field and the run CSV's column
COLUMNS = ["figure", "dataset", "data_kind", "guard", "fired", "jobs", "jobs_fired"]


class Guards(dict[str, int]):
    """Guard id -> how often it fired in one fit; every guard the learner has is a key."""

    @classmethod
    def of(cls, *names: str) -> Guards:
        """The counts of a fit that has the guards ``names``, none fired yet."""
        return cls(dict.fromkeys(names, 0))

    def fire(self, name: str, times: int = 1) -> None:
        """Count ``times`` firings of the guard ``name``."""
        self[name] = self.get(name, 0) + int(times)

    def add(self, other: Mapping[str, int] | None) -> Guards:
        """These counts plus ``other``'s (a sub-learner's, or another fit's), in place."""
        for name, times in (other or {}).items():
            self.fire(name, times)
        return self

    def text(self) -> str:
        """The counts as one JSON object, keys sorted (a CSV cell)."""
        return json.dumps(dict(sorted(self.items())), separators=(",", ":"))


def parse(value: Any) -> Guards:
    """The counts of one record's field: a mapping, its JSON text, or nothing (no guards)."""
    if value is None or (isinstance(value, float) and value != value) or value == "":
        return Guards()
    if isinstance(value, str):
        value = json.loads(value)
    return Guards({str(k): int(v) for k, v in dict(value).items()})


def _fields(record: Any) -> tuple[str, str, Guards]:
    """(data set, data kind, guard counts) of a job record, or of its guard field alone."""
    if isinstance(record, Mapping) and ({FIELD, "dataset", "data_kind"} & set(record)):
        dataset, kind = record.get("dataset", ""), record.get("data_kind", "")
        return str(dataset or ""), str(kind or ""), parse(record.get(FIELD))
    return "", "", parse(record)


def table(figure: str, records: Iterable[Any]) -> pd.DataFrame:
    """One row per (data set, guard) of ``figure``'s jobs: the times the guard fired in all,
    the jobs that have it and the jobs in which it fired. ``records`` are the jobs' records
    (mappings with the :data:`FIELD` field and, where known, ``dataset`` and ``data_kind``) or
    their guard fields alone (:func:`parse`)."""
    counts: dict[tuple[str, str, str], list[int]] = {}
    for record in records:
        dataset, kind, guards = _fields(record)
        for name, times in guards.items():
            row = counts.setdefault((dataset, kind, name), [0, 0, 0])
            row[0] += times
            row[1] += 1
            row[2] += times > 0
    rows = [
        {"figure": figure, "dataset": d, "data_kind": k, "guard": g}
        | dict(zip(["fired", "jobs", "jobs_fired"], n, strict=True))
        for (d, k, g), n in sorted(counts.items())
    ]
    return pd.DataFrame(rows, columns=COLUMNS)


def write_table(path: Path | str, figure: str, records: Iterable[Any]) -> pd.DataFrame:
    """Write ``figure``'s guard table (:func:`table`) to ``path``, atomically; return it."""
    frame = table(figure, records)
    with atomic_open(path) as handle:
        frame.to_csv(handle, index=False)
    return frame


def path(figure: str) -> str:
    """Where ``figure``'s guard table is written (an output of its figure rule)."""
    return f"results/guards/{figure}.csv"


def read_tables(paths: Iterable[Path | str]) -> pd.DataFrame:
    """Every guard table among ``paths`` (others are skipped), one frame."""
    frames = [
        pd.read_csv(p) for p in map(Path, paths) if p.parent.name == FIELD and p.suffix == ".csv"
    ]
    frames = [f for f in frames if len(f)]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)


__all__ = ["COLUMNS", "FIELD", "Guards", "parse", "path", "read_tables", "table", "write_table"]
