"""The power check: every judged claim can fail and can pass (docs/verdicts.md, "Classes").

Each reproduction claim of the registry (each unit of a family) has its rule applied
(:func:`.claims.judge`) to values of our own in place of the reproduced ones:

- the published value, or the published order, must not FAIL;
- a contradicting value must FAIL: outside the tolerance by a clear margin, and the claim's
  ``null`` (the value that says there is no effect) where it names one, so a tolerance is
  smaller than the effect it judges; or the order reversed, as one value and as paired units
  with a spread.

A claim that cannot flip is not a reproduction claim: a text-consistency check (published
numbers against each other) or a test (an identity of our code), tallied apart. The check also
asks every tolerance for its basis, every quantifier word for its one threshold
(:mod:`.words`), and an ordinal claim for two different sides.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from boostrank.report.claims import TOLERANCE_RULES, Claim, judge, variants
from boostrank.report.words import word_problem

if TYPE_CHECKING:
    import pandas as pd

UNITS = 12  # paired units of a mutated claim: enough for the signed-rank test to decide
_UP = (">", ">=")


def power_problems(claims: list[Claim]) -> list[str]:
    """One line per reproduction claim (unit) that cannot fail, cannot pass, or lacks a
    basis; empty when every one can do both."""
    problems = []
    for claim in (v for c in claims for v in variants(c)):
        if claim.claim_class != "reproduction":
            continue
        problems += [f"{claim.id}: {p}" for p in _problems(claim)]
    return problems


def _problems(claim: Claim) -> list[str]:
    rule = claim.rule
    kind = rule.get("type", "equal")
    found = [word_problem(rule)]
    if kind in ("abs", "rel") and not rule.get("basis"):
        found.append(f"its {kind} tolerance names no basis (rule.basis)")
    if "published" in str(claim.reproduce.get("column", "")):
        found.append("it reads a published column: a text-consistency check, not a reproduction")
    if kind in TOLERANCE_RULES:
        found += _tolerance_problems(claim)
    elif "value" in rule:
        found += _order_problems(claim, float(rule["value"]), None)
    else:
        if {**rule["other"], "row": rule["other"].get("row")} == {
            **claim.reproduce,
            "row": claim.reproduce.get("row"),
        }:
            found.append("its two sides read the same value")
        found += _order_problems(claim, 0.0, 1.0)
    return [p for p in found if p]


def _tolerance_problems(claim: Claim) -> list[str]:
    """The published value must not FAIL; values a clear margin outside the tolerance, and
    the null, must."""
    published = _representative(claim)
    claim = replace(claim, published=published)
    found = []
    if _verdict(claim, published) == "FAIL":
        found.append(f"the published value {published!r} FAILs")
    if not isinstance(published, int | float) or isinstance(published, bool):
        if _verdict(claim, f"{published} (other)") != "FAIL":
            found.append("another value does not FAIL")
        return found
    tol = float(claim.rule.get("tol", 0))
    margin = 2 * tol * (abs(published) if claim.rule.get("type") == "rel" else 1) + 1e-6
    for value in (published - margin, published + margin):
        if _verdict(claim, value) != "FAIL":
            found.append(f"{value:.6g}, outside the tolerance, does not FAIL")
    if "null" in claim.rule and _verdict(claim, float(claim.rule["null"])) != "FAIL":
        found.append(
            f"the null {claim.rule['null']} (no effect) does not FAIL: the tolerance "
            f"{tol:g} is not smaller than the published effect {published:g}"
        )
    return found


def _order_problems(claim: Claim, threshold: float, other: float | None) -> list[str]:
    """The claimed order must not FAIL and the reversed one must, as one value each and as
    paired units with a spread (a threshold claim when ``other`` is None)."""
    sign = 1.0 if claim.rule["relation"] in _UP else -1.0
    step = max(abs(threshold) / 2, 0.1)
    centre = threshold if other is None else other
    found = []
    for label, shift, ok in (("claimed", sign * step, "PASS"), ("reversed", -sign * step, "FAIL")):
        value = centre + shift
        one = _verdict(claim, value, other=None if other is None else (other, None))
        paired = _verdict(
            claim,
            value,
            samples=_units(value, step, seed=1),
            other=None if other is None else (other, _units(other, step, seed=2)),
        )
        for how, verdict in (("as one value", one), ("as paired units", paired)):
            if (ok == "PASS" and verdict == "FAIL") or (ok == "FAIL" and verdict != "FAIL"):
                found.append(f"the {label} order {how} gives {verdict}")
    return found


def _units(centre: float, step: float, seed: int) -> pd.DataFrame:
    """``UNITS`` paired samples around ``centre`` with a spread of a quarter ``step``
    (distinct seeds for the two sides, so their differences are not all tied)."""
    import numpy as np
    import pandas as pd

    noise = np.random.default_rng(seed).normal(0, step / 4, UNITS)
    return pd.DataFrame({"unit": [str(u) for u in range(UNITS)], "value": centre + noise})


def _representative(claim: Claim) -> Any:
    """The published value, or one of a family's published values (which arrive as data)."""
    return 0.5 if claim.expand is not None else claim.published


def _verdict(
    claim: Claim,
    value: Any,
    samples: pd.DataFrame | None = None,
    other: tuple[float, pd.DataFrame | None] | None = None,
) -> str:
    return judge(claim, value, samples, other)[0]


__all__ = ["UNITS", "power_problems"]
