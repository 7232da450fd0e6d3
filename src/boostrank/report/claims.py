"""The claims registry (``config/claims.yaml``): every number the source papers publish.

Each claim names where its reproduced value is read (a results CSV, a row, a column) and a rule:
``equal``, ``abs`` (|reproduced - published| <= tol), ``rel`` (relative tolerance) or ``ordinal``
(the reproduced value stands in a relation to another reproduced value, ``other``, or to a
constant, ``value``). A claim whose value was
made from synthetic stand-in data, or that the data cannot establish, is NOT-COMPARABLE; so is
one whose claim names ``requires_dataset`` while its row's ``dataset`` column names another
(e.g. a value measured on MQ2008 standing in for the published MQ2007).

A claim with ``expand`` is a family: one claim per row of its results file whose column
``expand.published`` holds a published value (a number that arrives as data, e.g. LETOR 3.0's
baseline table), identified by ``expand.id`` and the row's ``expand.keys``; its statement may
name any column in braces. If no row has a published value, the family is one NOT-COMPARABLE
row that says so.

A claim whose ``erratum`` begins "Erratum in the source" (or whose ``diagnosis`` has kind
``erratum``) records that the source contradicts itself or the data (e.g. Table 1.1's 26 classes
for the 10-digit sets): when its rule fails the verdict is ERRATUM, not FAIL, so FAIL means only
a number we could not reproduce. Other ``erratum`` notes (a likely explanation, an ambiguity)
leave FAIL as it is. Every FAIL and INCONCLUSIVE row gets a ``diagnosis``
(:mod:`boostrank.report.diagnosis`); a run that changed a printed key of a claim's section
says ``reduced protocol`` in the claim's note (:mod:`boostrank.report.protocol`).

A claim with ``over`` (``{column: {value: description}}``) is checked once per value: member
``<id>__<value>`` reads the row whose ``column`` is ``value``, its statement ending with the
description; e.g. Chapter 4's claims under both evaluation protocols (whole list, residual).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.io import read_yaml
from boostrank.report.diagnosis import SOURCE_ERRATUM, Findings, diagnose, substitute

if TYPE_CHECKING:  # pandas loads when claims are checked, not when they are read
    import numpy as np
    import pandas as pd

COLUMNS = [
    "claim_id",
    "source",
    "statement",
    "published",
    "reproduced",
    "n",
    "mean",
    "sd",
    "ci_low",
    "ci_high",
    "interval",
    "verdict",
    "class",
    "substitute",
    "provenance",
    "figure",
    "note",
    "diagnosis",
]
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE", "ERRATUM", "NOT-COMPARABLE")
# What a claim's verdict says (docs/verdicts.md, "Classes"): only reproduction claims enter the
# reproduction tally; a text-consistency check compares published numbers with each other, a
# test is an identity of our own implementation.
CLASSES = ("reproduction", "text-consistency", "test")
TOLERANCE_RULES = ("equal", "abs", "rel")  # rules on an absolute value (not an ordering)
VERDICT_RULES = (
    "Verdicts: PASS when the published value lies within the claim's tolerance of the reproduced "
    "value (of the mean, where the value averages queries, folds or replicates; the row shows "
    "n and a 95% bootstrap interval); FAIL outside it; an ordinal claim (A beats B) with paired "
    "samples is decided by a two-sided Wilcoxon signed-rank test at 0.05: PASS when significant "
    "in the claimed direction, FAIL when significant in the other, INCONCLUSIVE when neither "
    "(a threshold claim, e.g. 'MCSSB's error minus Tree's < 0', tests its units against the "
    "threshold, and so does one whose other value has no samples, e.g. a published baseline); "
    "ERRATUM where a claim fails because the source contradicts itself or the data (the note "
    "says how); NOT-COMPARABLE where the value was made from a synthetic stand-in or the data "
    "cannot establish it. Every FAIL and INCONCLUSIVE has a diagnosis: erratum, data "
    "substitute, reading (the option of config/readings.yaml that makes it PASS), "
    "approximation, open (what was ruled out), reduced protocol, or undiagnosed."
)
_RELATIONS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


@dataclass(frozen=True)
class Claim:
    """One published number and how to check it."""

    id: str
    source: str
    statement: str
    published: Any
    reproduce: dict[str, Any]
    rule: dict[str, Any] = field(default_factory=lambda: {"type": "equal"})
    erratum: str = ""
    requires_dataset: str = ""  # the data set the published value is for, if it matters
    expand: dict[str, Any] | None = None  # a family: one claim per row (module docstring)
    over: dict[str, dict[str, str]] | None = None  # one claim per value of a column (docstring)
    table: dict[str, Any] | None = None  # a printed table: one claim per cell (docstring)
    diagnosis: dict[str, str] | None = None  # {kind, note}: why it fails (report.diagnosis)
    claim_class: str = "reproduction"  # registry key `class`: one of CLASSES

    @property
    def source_erratum(self) -> bool:
        """Whether the source contradicts itself or the data here (a FAIL is an ERRATUM)."""
        kind = (self.diagnosis or {}).get("kind")
        return self.erratum.startswith(SOURCE_ERRATUM) or kind == "erratum"

    @property
    def figure(self) -> str:
        """The figure or table id, e.g. ``thesis-table1_1`` for ``thesis.table1_1.x``."""
        return figure_of(self.id)


def figure_of(claim_id: str) -> str:
    """The figure or table id of a claim id: ``thesis-table1_1`` for ``thesis.table1_1.x``."""
    work, item = claim_id.split(".")[:2]
    return f"{work}-{item}"


def verdict_tally(verdicts: pd.Series) -> str:
    """``PASS 3, FAIL 1``: how many claims got each verdict, in :data:`VERDICTS` order."""
    counts = verdicts.value_counts()
    return ", ".join(f"{v} {counts[v]}" for v in VERDICTS if counts.get(v, 0))


def load_claims(path: Path | str) -> list[Claim]:
    """Parse the claims registry; ids must be unique and well formed."""
    raw = read_yaml(path) or {}
    claims, seen = [], set()
    for entry in raw.get("claims") or []:
        entry = {**entry, "claim_class": entry.get("class", "reproduction")}
        entry.pop("class", None)
        try:
            claim = Claim(**entry)
        except TypeError as exc:
            raise BoostrankError(f"{path}: bad claim {entry.get('id', entry)}: {exc}") from None
        if claim.id in seen:
            raise BoostrankError(f"{path}: claim id '{claim.id}' appears twice")
        if len(claim.id.split(".")) != 3:
            raise BoostrankError(f"{path}: claim id '{claim.id}' must be <work>.<item>.<name>")
        seen.add(claim.id)
        claims.append(claim)
    return claims


def find_claim(claims: list[Claim], file: str, row: dict[str, Any], column: str) -> Claim | None:
    """The claim (or printed-table cell) that reads ``column`` of ``row`` in ``file``, or None."""
    for claim in (variant for c in claims for variant in variants(c)):
        ref = claim.reproduce
        same_file = Path(str(ref.get("file"))).name == Path(file).name
        if same_file and ref.get("row") == row and ref.get("column") == column:
            return claim
    return None


def published_value(claims: list[Claim], file: str, row: dict[str, Any], column: str) -> Any:
    """The published value of the claim that reads ``column`` of ``row`` in ``file``, or None
    (the one accessor of published numbers: a printed table's cells are claims too)."""
    claim = find_claim(claims, file, row, column)
    return None if claim is None else claim.published


def evaluate(
    claims: list[Claim],
    root: Path | str = ".",
    seed: int = 0,
    findings: Findings | None = None,
) -> pd.DataFrame:
    """Check every claim against the results under ``root``; one row per claim. Where a
    results file has samples (:mod:`boostrank.report.spread`) the row gains n, mean, sd and
    a 95% interval (bootstrap seeded from ``seed`` and the value's file, row and column), and
    the verdict reads them. ``findings`` (make readings' table, the run's reduced keys) feed
    the diagnoses and the reduced-protocol notes."""
    import pandas as pd

    root = Path(root)
    findings = findings or Findings()
    cache: dict[str, pd.DataFrame | None] = {}
    rows = []
    for claim in (variant for c in claims for variant in variants(c)):
        members = [claim] if claim.expand is None else expand_family(claim, root, cache)
        for member in members:
            rows.append(_diagnosed(member, _evaluate_one(member, root, cache, seed), findings))
        if claim.expand is not None and not members:
            rows.append(
                _diagnosed(
                    claim,
                    {
                        "claim_id": claim.id,
                        "source": claim.source,
                        "statement": claim.statement,
                        "published": "",
                        "reproduced": "",
                        "n": "",
                        "verdict": "NOT-COMPARABLE",
                        "class": claim.claim_class,
                        "provenance": "",
                        "figure": claim.figure,
                        "note": _join(
                            claim.erratum,
                            f"no published values in {claim.reproduce['file']} (the data set that "
                            "holds them was not fetched, or the run has no matching row)",
                        ),
                    },
                    findings,
                )
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def _diagnosed(claim: Claim, row: dict[str, Any], findings: Findings) -> dict[str, Any]:
    """``row`` with its diagnosis, and its note led by the reduced protocol where there is
    one (:mod:`boostrank.report.diagnosis`)."""
    found = row.get("substitute", "")
    if found and claim.rule.get("type") == "ordinal":
        found += f" ({_measured(claim, row)})"  # the measured gap beside the substitute
    diagnosis = diagnose(
        claim.id,
        claim.figure,
        row["verdict"],
        erratum=claim.erratum,
        registry=claim.diagnosis,
        substitute_text=found,
        findings=findings,
    )
    note = _join(findings.reduced_label(claim.figure), row["note"])
    return {**row, "note": note, "diagnosis": diagnosis}


def _measured(claim: Claim, row: dict[str, Any]) -> str:
    """What an ordinal claim measured against what it claims: ``measured 0.41, claimed < 0``
    (the other side's value, where there is one, is in the row's note)."""
    side = str(row.get("note", "")).partition("the other side: ")[2].split(";")[0]
    claimed = claim.rule.get("value", side or "the other side")
    return f"measured {row.get('reproduced', '')}, claimed {claim.rule['relation']} {claimed}"


def variants(claim: Claim) -> list[Claim]:
    """The claim once per value of ``claim.over``, or once per cell of ``claim.table``
    (itself if it has neither)."""
    if claim.table:
        return _cells(claim)
    if not claim.over:
        return [claim]
    ((column, values),) = claim.over.items()
    members = []
    for value, description in values.items():
        ref = {**claim.reproduce, "row": {**(claim.reproduce.get("row") or {}), column: value}}
        rule = dict(claim.rule)
        if "other" in rule:
            rule["other"] = {
                **rule["other"],
                "row": {**rule["other"].get("row", {}), column: value},
            }
        members.append(
            replace(
                claim,
                id=f"{claim.id}__{value}",
                statement=f"{claim.statement} [{description}]",
                reproduce=ref,
                rule=rule,
                over=None,
            )
        )
    return members


def _cells(claim: Claim) -> list[Claim]:
    """One claim per cell of a printed table (``claim.table``)."""
    spec = claim.table or {}
    key, columns = spec["key"], spec["columns"]
    members = []
    for n, (value, printed) in enumerate(spec["rows"].items(), start=1):
        if len(printed) != len(columns):
            raise BoostrankError(
                f"claim {claim.id}: row {value!r} has {len(printed)} values for "
                f"{len(columns)} columns {columns}"
            )
        for column, published in zip(columns, printed, strict=True):
            members.append(
                replace(
                    claim,
                    id=f"{claim.id}__{n}_{column}",
                    statement=claim.statement.format(key=value, column=column),
                    published=published,
                    reproduce={
                        **claim.reproduce,
                        "row": {**(claim.reproduce.get("row") or {}), key: value},
                        "column": column,
                    },
                    table=None,
                )
            )
    return members


def expand_family(
    claim: Claim, root: Path | str, cache: dict[str, pd.DataFrame | None] | None = None
) -> list[Claim]:
    """The member claims of a family (``claim.expand``): one per row with a published value,
    each ``<claim id>__<expand.id>`` (members extend their claim's id, as a table's do)."""
    spec = claim.expand or {}
    file = claim.reproduce["file"]
    cache = {} if cache is None else cache
    if file not in cache:
        path = Path(root) / file
        cache[file] = _read_results(path)
    table = cache[file]
    column = spec.get("published", "published")
    if table is None or column not in table.columns:
        return []
    members = []
    for _, row in table[table[column] != ""].iterrows():
        fields = row.to_dict()
        members.append(
            Claim(
                id=f"{claim.id}__" + spec["id"].format(**fields),
                source=claim.source,
                statement=claim.statement.format(**fields),
                published=_number(fields[column]),
                reproduce={
                    "file": file,
                    "row": {key: fields[key] for key in spec["keys"]},
                    "column": claim.reproduce["column"],
                },
                rule=claim.rule,
                erratum=_join(claim.erratum, spec.get("note", "").format(**fields)),
                diagnosis=claim.diagnosis,
                claim_class=claim.claim_class,
            )
        )
    return members


class _RowAbsent(Exception):
    """The results file exists but has no row for the claim (e.g. a data set this run's
    configuration leaves out, as config/quick.yaml does)."""


def _read_results(path: Path) -> pd.DataFrame | None:
    import pandas as pd

    return pd.read_csv(path, dtype=str, keep_default_na=False) if path.exists() else None


def _lookup(
    ref: dict[str, Any], root: Path, cache: dict[str, pd.DataFrame | None]
) -> pd.Series | None:
    import pandas as pd

    file = ref["file"]
    if file not in cache:
        path = root / file
        cache[file] = _read_results(path)
    table = cache[file]
    if table is None:
        return None
    mask = pd.Series(True, index=table.index)
    for key, value in (ref.get("row") or {}).items():
        mask &= table[key] == str(value)
    hits = table[mask]
    if len(hits) == 0:
        raise _RowAbsent(f"{file} has no row {ref.get('row')} (not part of this run)")
    if len(hits) != 1:
        raise BoostrankError(f"claim reference {ref} matches {len(hits)} rows of {file}; need 1")
    return hits.iloc[0]


def _samples(
    ref: dict[str, Any], cache: dict[str, pd.DataFrame | None], root: Path
) -> pd.DataFrame | None:
    """The unit samples of the value ``ref`` reads (``unit_kind``, ``unit``, ``value``), from
    the results file's ``.samples.csv``; None when it has none."""
    file = str(Path(ref["file"]).with_suffix(".samples.csv"))
    if file not in cache:
        cache[file] = _read_results(root / file)
    table = cache[file]
    if table is None:
        return None
    mask = table["measure"] == ref["column"]
    for key, value in (ref.get("row") or {}).items():
        if key not in table.columns:
            raise BoostrankError(f"{file} has no column '{key}' to match claim row {ref['row']}")
        mask &= table[key] == str(value)
    hits = table[mask]
    return hits if len(hits) else None


def _spread_columns(claim: Claim, samples: pd.DataFrame | None, seed: int) -> dict[str, Any]:
    from boostrank.report.spread import spread

    if samples is None:
        return {"n": 1}
    kinds = "/".join(sorted(set(samples["unit_kind"])))
    strata = samples["stratum"].to_numpy() if "stratum" in samples.columns else None
    values = samples["value"].astype(float).to_numpy()
    ref = claim.reproduce  # the seed names the value, so two claims on it share its interval
    keys = (ref["file"], *sorted((ref.get("row") or {}).items()), ref["column"])
    found = spread(values, kinds, seed, *keys, strata=strata)
    return {
        "n": found.n,
        "mean": f"{found.mean:.6g}",
        "sd": "" if math.isnan(found.sd) else f"{found.sd:.6g}",
        "ci_low": f"{found.ci_low:.6g}",
        "ci_high": f"{found.ci_high:.6g}",
        "interval": found.interval,
    }


def _stand_in(claim: Claim, found: pd.Series) -> str:
    """What the row's data stand in for, where they are real data substituting for the
    published data ("" otherwise): the row says so (:func:`.diagnosis.substitute`), or it is
    from another data set than the claim's ``requires_dataset``."""
    said = substitute(found)
    if said or not claim.requires_dataset:
        return said
    if found.get("dataset", "") == claim.requires_dataset:
        return ""
    used = found.get("dataset_label", "") or found.get("dataset", "") or "another data set"
    return f"{used}, standing in for {claim.requires_dataset}"


def _number(text: str) -> Any:
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() else value


def _evaluate_one(
    claim: Claim, root: Path, cache: dict[str, pd.DataFrame | None], seed: int
) -> dict[str, Any]:
    row = {
        "claim_id": claim.id,
        "source": claim.source,
        "statement": claim.statement,
        "published": claim.published,
        "figure": claim.figure,
        "class": claim.claim_class,
        "reproduced": "",
        "n": "",
        "provenance": "",
        "note": claim.erratum,
    }
    try:
        found = _lookup(claim.reproduce, root, cache)
    except _RowAbsent as absent:
        return {**row, "verdict": "NOT-COMPARABLE", "note": _join(row["note"], str(absent))}
    if found is None:
        return {
            **row,
            "verdict": "NOT-COMPARABLE",
            "note": _join(row["note"], f"not reproduced yet ({claim.reproduce['file']} absent)"),
        }
    value = found[claim.reproduce["column"]]
    stand_in = _stand_in(claim, found)
    row.update(reproduced=value, provenance=found.get("provenance", ""), substitute=stand_in)
    samples = _samples(claim.reproduce, cache, root) if value != "" else None
    row.update(_spread_columns(claim, samples, seed))
    if found.get("data_kind", "") == "synthetic":
        return {
            **row,
            "verdict": "NOT-COMPARABLE",
            "note": _join(row["note"], "made from a synthetic stand-in"),
        }
    if stand_in and claim.rule.get("type", "equal") in TOLERANCE_RULES:
        # One rule for substitute real data: its absolute values are not the published ones;
        # its orderings are judged (a FAIL among them has the diagnosis data substitute).
        return {
            **row,
            "verdict": "NOT-COMPARABLE",
            "note": _join(row["note"], f"an absolute value measured on {stand_in}"),
        }
    if value == "":
        return {
            **row,
            "verdict": "NOT-COMPARABLE",
            "note": _join(row["note"], found.get("note", "") or "the data cannot establish it"),
        }
    if samples is not None and len(samples) > 1:
        value = row["mean"]  # a value claim is judged on the mean of its units
    verdict, test = _apply_rule(claim, _number(value), samples, root, cache)
    if verdict == "FAIL" and claim.source_erratum:
        verdict = "ERRATUM"
    return {**row, "verdict": verdict, "note": _join(row["note"], test)}


def _apply_rule(
    claim: Claim,
    value: Any,
    samples: pd.DataFrame | None,
    root: Path,
    cache: dict[str, pd.DataFrame | None],
) -> tuple[str, str]:
    """The verdict of ``claim`` on the values under ``root``: the other side of an ordinal
    claim looked up, then :func:`judge`."""
    rule = claim.rule
    other = None
    if rule.get("type") == "ordinal" and "value" not in rule:
        try:
            found = _lookup(rule["other"], root, cache)
        except _RowAbsent:
            return "NOT-COMPARABLE", ""
        if found is None or found[rule["other"]["column"]] == "":
            return "NOT-COMPARABLE", ""
        other = (float(found[rule["other"]["column"]]), _samples(rule["other"], cache, root))
    return judge(claim, value, samples, other)


def judge(
    claim: Claim,
    value: Any,
    samples: pd.DataFrame | None = None,
    other: tuple[float, pd.DataFrame | None] | None = None,
) -> tuple[str, str]:
    """PASS / FAIL / INCONCLUSIVE of ``claim``'s rule on a reproduced ``value`` (its unit
    ``samples``: columns ``unit``, ``value``) and, for an ordinal claim against another
    value, ``other`` = (its value, its samples); and a note naming the paired test where one
    decided it and the other side's value. Pure: the power check (:mod:`.power`) calls it
    with values of its own."""
    import numpy as np

    from boostrank.report.spread import paired_verdict

    kind = claim.rule.get("type", "equal")
    published = claim.published
    if kind == "equal":
        ok = value == published
    elif kind == "abs":
        ok = math.isclose(float(value), float(published), rel_tol=0, abs_tol=claim.rule["tol"])
    elif kind == "rel":
        ok = math.isclose(float(value), float(published), rel_tol=claim.rule["tol"])
    elif kind != "ordinal":
        raise BoostrankError(f"claim {claim.id}: unknown rule type {kind!r}")
    elif "value" in claim.rule:  # a threshold: "more than half of the cells"
        threshold = float(claim.rule["value"])
        if samples is not None and len(samples) > 1:  # its units against the threshold
            units = samples["value"].astype(float).to_numpy()
            return paired_verdict(units, np.full(len(units), threshold), claim.rule["relation"])
        ok = _RELATIONS[claim.rule["relation"]](float(value), threshold)
    elif other is None:
        return "NOT-COMPARABLE", ""
    else:
        other_value, theirs = other
        side = f"the other side: {other_value:.6g}"
        paired = _paired(samples, theirs)
        if paired is not None:
            verdict, test = paired_verdict(*paired, claim.rule["relation"])
            return verdict, _join(test, side)
        if theirs is None and samples is not None and len(samples) > 1:
            # The other value is one number (e.g. a published baseline): a threshold.
            units = samples["value"].astype(float).to_numpy()
            verdict, test = paired_verdict(
                units, np.full(len(units), other_value), claim.rule["relation"]
            )
            return verdict, _join(test, side)
        ok = _RELATIONS[claim.rule["relation"]](float(value), other_value)
        return ("PASS" if ok else "FAIL"), side
    return ("PASS" if ok else "FAIL"), ""


def _paired(
    mine: pd.DataFrame | None, other: pd.DataFrame | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """The two claims' values on their shared units, in unit order (None: fewer than 2)."""
    if mine is None or other is None:
        return None
    a = mine.set_index("unit")["value"].astype(float)
    b = other.set_index("unit")["value"].astype(float)
    shared = a.index.intersection(b.index).sort_values()
    if len(shared) < 2:
        return None
    return a[shared].to_numpy(), b[shared].to_numpy()


def _join(*notes: str) -> str:
    return "; ".join(n.rstrip(".") for n in notes if n)
