"""Why a claim fails: the ``diagnosis`` column of ``results/claims.csv``.

Every FAIL and INCONCLUSIVE claim gets one, ``<kind>: <text>``, the first that applies of

- ``erratum``: the source contradicts itself or the data (a claim ``erratum`` beginning
  "Erratum in the source"; a FAIL with one is already ERRATUM, so this names an INCONCLUSIVE);
- the claim's own ``diagnosis`` in ``config/claims.yaml`` (``approximation``: a named library
  or algorithm difference; ``open``: no explanation yet, saying what was ruled out;
  ``data substitute``, ``reading``, ``erratum``), written by someone who looked;
- ``reading``: ``make readings`` found a reading whose other option makes the claim PASS
  (``results/readings.csv``; the reading and that option are named);
- ``data substitute``: the value was measured on data standing in for the published data (the
  row's ``dataset_label`` or ``provenance`` says so, e.g. MQ2008 for MQ2007, MovieLens 100K
  for EachMovie);
- ``reduced protocol``: the run changed a printed key of the claim's section
  (:mod:`boostrank.report.protocol`), so a failure says nothing about the printed protocol;
- ``undiagnosed``: none of these; the page lists them and ``boostrank claims --undiagnosed``
  exits non-zero on them.

A reading or a data substitute that is found but not chosen is added to the text ("also: ..."),
and so are the readings ``make readings`` tried on the claim with no option giving PASS (what
its table rules out, at the protocol it ran).
A guard the printed algorithm needs (basis ``silent``) that fired on real data in the claim's
figure is named last (:mod:`boostrank.report.guard_counts`).
A PASS, ERRATUM or NOT-COMPARABLE claim shows only a diagnosis its registry entry gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from boostrank.report.protocol import Reduction, label, reduced_for

SOURCE_ERRATUM = "Erratum in the source"  # an erratum note that turns FAIL into ERRATUM
REGISTRY_KINDS = ("approximation", "open", "data substitute", "reading", "erratum")
UNDIAGNOSED = "undiagnosed"
KINDS = (*REGISTRY_KINDS, "reduced protocol", UNDIAGNOSED)
DIAGNOSED_VERDICTS = ("FAIL", "INCONCLUSIVE")  # the verdicts that always get a diagnosis
_REDUCED = " (reduced protocol)"  # make readings' rows from stage 1, at the quick sizes
_REDUCED_FLIP = " (make readings, on a reduced protocol)"
_SUBSTITUTE_WORDS = ("substitut", "in place of", "standing in for")


class Flip(NamedTuple):
    """An option of a reading that makes a failing claim PASS in make readings' table, with
    the value the claim read there and under the reading's default (same protocol)."""

    reading: str
    option: str
    value: Any = ""
    default_value: Any = ""

    def text(self) -> str:
        """``r = o gives PASS (value v; d with the default)``; values left out where absent."""
        shown = [_number(v) for v in (self.value, self.default_value)]
        measured = f" (value {shown[0]}; {shown[1]} with the default)" if all(shown) else ""
        return f"{self.reading} = {self.option} gives PASS{measured}"


def _number(value: Any) -> str:
    """A table value as the diagnosis shows it: 4 significant digits, "" where empty."""
    if value is None or (isinstance(value, float) and value != value) or value == "":
        return ""
    try:
        return f"{float(value):.4g}"
    except (TypeError, ValueError):
        return str(value)


@dataclass(frozen=True)
class Findings:
    """What the run knows beyond each claim and its results row."""

    # claim id -> the options make readings found to make it PASS
    flips: dict[str, list[Flip]] = field(default_factory=dict)
    # claim id -> the readings make readings tried on it where no option gives PASS
    ruled_out: dict[str, list[str]] = field(default_factory=dict)
    checked: frozenset[str] = frozenset()  # the claims the table has rows for
    passing_by_default: frozenset[str] = frozenset()  # ... of which PASS under a default
    readings_run: bool = False  # whether a make readings table was read
    # the (claim id, reading) pairs whose rows in that table were made on a reduced protocol
    # (stage 1's; stage 2 reruns a reading at the printed protocol)
    readings_reduced: frozenset[tuple[str, str]] = frozenset()
    reduced: tuple[Reduction, ...] = ()  # the printed keys this run changed
    # figure -> its silent guards that fired on real data (report.guard_counts)
    guards: dict[str, str] = field(default_factory=dict)

    def is_reduced(self, claim_id: str, reading: str | None = None) -> bool:
        """Whether the table judged ``claim_id`` under ``reading`` (None: any reading) on a
        reduced protocol."""
        if reading is not None:
            return (claim_id, reading) in self.readings_reduced
        return any(c == claim_id for c, _ in self.readings_reduced)

    def reduced_label(self, figure: str) -> str:
        """``reduced protocol (...)`` where the run changed a key of ``figure``'s section."""
        return label(reduced_for(figure, list(self.reduced)))


def substitute(row: Any) -> str:
    """The data-set label or provenance of a results row that says its data stand in for
    the published data, or ""."""
    for column in ("dataset_label", "provenance"):
        text = str(row.get(column, "") or "")
        if any(word in text.lower() for word in _SUBSTITUTE_WORDS):
            return text
    return ""


def diagnose(
    claim_id: str,
    figure: str,
    verdict: str,
    erratum: str,
    registry: dict[str, Any] | None,
    substitute_text: str,
    findings: Findings,
) -> str:
    """The claim's diagnosis, ``<kind>: <text>`` (module docstring), or "" where none is due."""
    own = f"{registry['kind']}: {registry['note']}" if registry else ""
    if verdict not in DIAGNOSED_VERDICTS:
        return own
    flips = findings.flips.get(claim_id, [])
    readings = (
        "reading: "
        + ", ".join(
            f.text() + (_REDUCED_FLIP if findings.is_reduced(claim_id, f.reading) else "")
            for f in flips
        )
        if flips
        else ""
    )
    data = f"data substitute: measured on {substitute_text}" if substitute_text else ""
    reduced = findings.reduced_label(figure)
    candidates = [
        f"erratum: {erratum}" if erratum.startswith(SOURCE_ERRATUM) else "",
        own,
        readings,
        data,
        reduced,
    ]
    chosen = next((c for c in candidates if c), "")
    if not chosen:
        checked = "results/readings.csv" if findings.readings_run else "no make readings table"
        return (
            f"{UNDIAGNOSED}: no registry diagnosis; no source erratum, data substitute or "
            f"reading that makes it PASS found ({checked})"
        )
    also = [c for c in (readings, data) if c and c != chosen]
    guard = f"; {findings.guards[figure]}" if figure in findings.guards else ""
    return (
        chosen
        + "".join(f"; also {c}" for c in also)
        + _ruled_out(claim_id, findings, chosen)
        + guard
    )


def _ruled_out(claim_id: str, findings: Findings, chosen: str) -> str:
    """What make readings' table says beyond a flip: ``; make readings: no option of r1, r2
    gives PASS`` (what it ruled out), or, where the chosen diagnosis is ``open`` or
    ``reading`` (an explanation that leans on the readings), why it judges no reading."""
    if not findings.readings_run:
        return ""
    tried = findings.ruled_out.get(claim_id, [])
    if tried:
        # stage 2's readings (the printed protocol) apart from stage 1's (a reduced one)
        groups: dict[bool, list[str]] = {}
        for reading in tried:
            groups.setdefault(findings.is_reduced(claim_id, reading), []).append(reading)
        return "".join(
            f"; make readings{_REDUCED if reduced else ''}: no option of "
            f"{', '.join(groups[reduced])}"
            " gives PASS"
            for reduced in sorted(groups)
        )
    where = _REDUCED if findings.is_reduced(claim_id) else ""
    if findings.flips.get(claim_id) or kind(chosen) not in ("open", "reading"):
        return ""
    if claim_id in findings.passing_by_default:
        return f"; make readings{where}: PASS under the default there, so it judges no reading"
    if claim_id not in findings.checked:
        return "; make readings: no row for it (no reading judged it on real data there)"
    return ""


def kind(diagnosis: str) -> str:
    """The kind of a diagnosis text (``approximation`` of ``approximation: ...``; ``reduced
    protocol`` of ``reduced protocol (chapter3: folds)``)."""
    return next((k for k in KINDS if diagnosis.startswith(k)), "")


__all__ = [
    "DIAGNOSED_VERDICTS",
    "KINDS",
    "REGISTRY_KINDS",
    "SOURCE_ERRATUM",
    "UNDIAGNOSED",
    "Findings",
    "Flip",
    "diagnose",
    "kind",
    "substitute",
]
