"""Whether a run followed the printed protocol, and where it did not.

``config/config.yaml`` holds the protocol the sources print; its schema marks each key of the
experiment sections ``x-kind: printed`` (the text prints the value), ``reading`` (a choice of
``config/readings.yaml``, named by ``x-reading``) or ``engineering`` (cannot move a published
number, or only picks which and how many random draws are made; a count of draws, e.g.
replicates, is flagged ``x-size: true``). A run is *reduced*
where a key marked ``printed`` or ``x-size`` holds another value than ``config/config.yaml``
(``config/quick.yaml``: one fold of five, fewer repeats, iterations and data sets): its claims
are not the reproduction's result, and every page and table that shows them says so.

A claim is labelled only when a key of its own section is reduced: :data:`SECTION_FIGURES`
names the figures and tables each experiment section makes (a claim ``<work>.<item>.<name>``
belongs to figure ``<work>-<item>``); a section it does not list (``data``, ``letor``, ...)
is every claim's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from boostrank.io import read_yaml

PRINTED = "printed"  # the x-kind of a key the text prints
# Each experiment section of config/config.yaml -> the figure ids it makes (fnmatch patterns,
# "|" between alternatives, as the timing budgets name figure families).
SECTION_FIGURES = {
    "chapter2": "thesis-fig2_*",
    "chapter3": "thesis-fig3_*",
    "chapter4": "thesis-fig4_*",
    "chapter5": "thesis-fig5_*|thesis-fig6_*|thesis-supp5_*",
    "topk": "topk-*",
    "qbrank": "qbrank-*",
    "prank": "prank-*",
    "docan_reuters": "docan-fig*|docan-table1",
    "docan_ranking": "docan-table[2-8]",
}
_MISSING = object()


@dataclass(frozen=True)
class Reduction:
    """A printed key whose value in the run differs from the printed protocol's."""

    key: str  # dotted, e.g. chapter3.folds
    run: Any
    printed: Any

    @property
    def section(self) -> str:
        return self.key.split(".")[0]

    def __str__(self) -> str:
        return f"{self.key} = {_short(self.run)} (printed {_short(self.printed)})"


def printed_keys(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{dotted key: its schema node}`` for every key marked ``x-kind: printed`` or
    ``x-size: true`` (a count of random draws: fewer is a smaller protocol)."""
    found: dict[str, dict[str, Any]] = {}

    def walk(node: dict[str, Any], prefix: str) -> None:
        for name, sub in (node.get("properties") or {}).items():
            if not isinstance(sub, dict):
                continue
            key = f"{prefix}.{name}" if prefix else name
            if sub.get("x-kind") == PRINTED or sub.get("x-size") is True:
                found[key] = sub
            walk(sub, key)

    walk(schema, "")
    return found


def reductions(
    run: dict[str, Any], printed: dict[str, Any], schema: dict[str, Any]
) -> list[Reduction]:
    """The printed keys whose value in ``run`` differs from ``printed`` (config/config.yaml),
    in schema order; a key absent from a config takes the schema's default."""
    out = []
    for key, node in printed_keys(schema).items():
        mine, theirs = _value(run, key, node), _value(printed, key, node)
        if mine != theirs:
            out.append(Reduction(key, _shown(mine), _shown(theirs)))
    return out


def run_reductions(run: dict[str, Any], printed: Path | str, schema: Path | str) -> list[Reduction]:
    """:func:`reductions` of a run's config against the files ``config/config.yaml`` and
    ``workflow/schemas/config.schema.yaml``."""
    return reductions(run, read_yaml(printed) or {}, read_yaml(schema) or {})


def reduced_for(figure: str, found: list[Reduction]) -> list[Reduction]:
    """The reductions that touch ``figure``: those of its own sections and of the sections
    no figure is mapped to."""
    own = {s for s, patterns in SECTION_FIGURES.items() if _matches(figure, patterns)}
    return [r for r in found if r.section in own or r.section not in SECTION_FIGURES]


def label(found: list[Reduction], shown: int = 3) -> str:
    """``reduced protocol (chapter3: replicates, folds, ... +11 more)``: the first ``shown``
    keys of each section; "" when ``found`` is empty."""
    if not found:
        return ""
    sections: dict[str, list[str]] = {}
    for r in found:
        sections.setdefault(r.section, []).append(r.key.partition(".")[2] or r.key)
    parts = "; ".join(
        f"{s}: {', '.join(keys[:shown])}"
        + (f" +{len(keys) - shown} more" if len(keys) > shown else "")
        for s, keys in sections.items()
    )
    return f"reduced protocol ({parts})"


def _matches(figure: str, patterns: str) -> bool:
    return any(fnmatch(figure, p) for p in patterns.split("|"))


def _value(config: dict[str, Any], key: str, node: dict[str, Any]) -> Any:
    value: Any = config
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return node.get("default", _MISSING)
        value = value[part]
    return value


def _shown(value: Any) -> Any:
    return "(absent)" if value is _MISSING else value


def _short(value: Any, width: int = 60) -> str:
    text = str(value)
    return text if len(text) <= width else text[: width - 3] + "..."


__all__ = [
    "PRINTED",
    "SECTION_FIGURES",
    "Reduction",
    "label",
    "printed_keys",
    "reduced_for",
    "reductions",
    "run_reductions",
]
