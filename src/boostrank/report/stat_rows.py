"""The rows of the summary statistics the claims read (``results/<figure>_summary.csv``): one
row per statistic and what it is of, with the value, the data kind and provenance of the rows
it reads and a note. Every work's summary builds its rows here, so every summary CSV has the
same columns in the same order (:mod:`boostrank.report.claims` finds a claim's value by them).

Aggregate statistics over several data sets are ``synthetic`` when any of them is: a claim
that rests on a synthetic stand-in is NOT-COMPARABLE (docs/verdicts.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import pandas as pd

NOT_RUN = "not run in this configuration; "


def kind_of(frame: pd.DataFrame) -> tuple[str, str]:
    """The data kind of the rows of ``frame`` taken together (``synthetic`` if any is; else
    their one kind, or ``mixed``) and their provenance lines joined."""
    kinds = list(dict.fromkeys(frame["data_kind"]))
    kind = "synthetic" if "synthetic" in kinds else kinds[0] if len(kinds) == 1 else "mixed"
    return kind, "; ".join(dict.fromkeys(frame["provenance"]))


def _joined_kind(frame: pd.DataFrame) -> tuple[str, str]:
    """As :func:`kind_of`, with several kinds named, sorted and joined by ``+``."""
    kinds = sorted(set(frame["data_kind"]))
    kind = "synthetic" if "synthetic" in kinds else "+".join(kinds)
    return kind, "; ".join(dict.fromkeys(frame["provenance"]))


def _value(value: Any, digits: int | None) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) or digits is None:
        return value
    return round(float(value), digits)


def stat_row(
    *,
    statistic: str,
    value: Any,
    note: str = "",
    panel: str | None = None,
    dataset: str | None = None,
    method: str | None = None,
    algorithm: str | None = None,
    key: str | None = None,
    part: pd.DataFrame | None = None,
    kinds: Literal["one", "joined"] | None = "one",
    digits: int | None = 6,
    flag_missing: bool = False,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One statistic's row; its columns in this order, those given as None left out:
    ``panel``, ``statistic``, what it is of (``dataset``, ``method``, ``algorithm``, ``key``),
    ``value``, ``data_kind`` and ``provenance``, ``note``, then ``meta``'s as given.

    ``value``: None is empty, a string is kept, a number is rounded to ``digits`` (None: kept).
    ``part``: the rows the statistic reads, which give its data kind and provenance (empty
    without rows); ``kinds`` how several kinds are named: ``one`` (:func:`kind_of`), ``joined``
    (sorted, joined by ``+``), or None for no such columns (``meta`` gives them).
    ``flag_missing``: a value that is missing (None, NaN, or no rows read) is empty and its
    note says it was not run in this configuration."""
    missing = flag_missing and (part is None or part.empty or value is None or value != value)
    row: dict[str, Any] = {} if panel is None else {"panel": panel}
    row["statistic"] = statistic
    names = {"dataset": dataset, "method": method, "algorithm": algorithm, "key": key}
    row.update((name, of) for name, of in names.items() if of is not None)
    row["value"] = "" if missing else _value(value, digits)
    if kinds is not None:
        found = ("", "")
        if part is not None and not part.empty:
            found = (kind_of if kinds == "one" else _joined_kind)(part)
        row["data_kind"], row["provenance"] = found
    row["note"] = (NOT_RUN if missing else "") + note
    return row | dict(meta or {})


__all__ = ["NOT_RUN", "kind_of", "stat_row"]
