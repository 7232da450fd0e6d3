"""How far a reproduced number can be trusted: its spread over the units it averages (queries,
folds or replicates), a 95% interval, and a paired test for "A beats B" claims.

A results file ``X.csv`` may come with ``X.samples.csv``: one row per (results row, measure,
unit) with the columns of the results rows it belongs to, ``measure`` (the results column),
``unit_kind`` (``query``, ``fold``, ``replicate`` or ``fold×replicate``), ``unit`` (the unit's
id, shared by the methods compared, so samples pair), ``value`` and optionally ``stratum``
(e.g. a query's fold: the value is then the mean of the strata's means).
:mod:`boostrank.report.claims` reads it; without it a claim rests on its one value
(n = 1, no interval).

The rules (the README and the report's head say the same):
- the interval is a 95% percentile bootstrap of the mean over the units (2,000 resamples,
  seeded from the config's root seed and the value's file, row and column), named in the
  claim's row;
- a value claim passes when the published value lies within tolerance of the mean;
- an ordinal claim ("A > B") is decided by a two-sided Wilcoxon signed-rank test on the paired
  units at level 0.05: PASS when significant in the claimed direction, FAIL when significant
  in the other, INCONCLUSIVE when neither (also when every pair is tied); a threshold claim
  ("A - B < 0") with samples tests its units against the threshold the same way, as does an
  ordinal claim whose other side has no samples (one published number). With 5 or
  fewer units no two-sided signed-rank p-value can fall below 0.05 (the smallest is 2/2^n),
  so such claims are INCONCLUSIVE at best.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boostrank.seeds import derive_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

RESAMPLES = 2000
LEVEL = 0.95
ALPHA = 0.05
TEST_NAME = "Wilcoxon signed-rank, two-sided, paired by unit, alpha 0.05"


@dataclass(frozen=True)
class Spread:
    """The mean of ``n`` unit values, their sample sd and a bootstrap interval."""

    n: int
    mean: float
    sd: float
    ci_low: float
    ci_high: float
    interval: str  # how the interval was made, e.g. "95% bootstrap over 106 queries"


def spread(
    values: np.ndarray, unit_kind: str, seed: int, *keys: object, strata: np.ndarray | None = None
) -> Spread:
    """Mean, sd and the 95% percentile-bootstrap interval of the mean of ``values``; the
    resampling seed is derived from ``seed`` and ``keys`` (same inputs, same interval).

    With ``strata`` (e.g. each query's fold) the statistic is the mean of the strata's means,
    as LETOR averages its five folds, and the bootstrap resamples within each stratum."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    groups = [values] if strata is None else [values[strata == s] for s in np.unique(strata)]
    n = len(values)
    mean = float(np.mean([g.mean() for g in groups]))
    if n < 2 or min(len(g) for g in groups) < 1:
        return Spread(
            n=n,
            mean=mean,
            sd=float("nan"),
            ci_low=mean,
            ci_high=mean,
            interval=f"one {unit_kind}: no interval",
        )
    rng = np.random.default_rng(derive_seed(seed, "bootstrap", *keys))
    means = np.mean(
        [g[rng.integers(0, len(g), size=(RESAMPLES, len(g)))].mean(axis=1) for g in groups],
        axis=0,
    )
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    within = f" within {len(groups)} strata (the mean of their means)" if len(groups) > 1 else ""
    return Spread(
        n=n,
        mean=mean,
        sd=float(values.std(ddof=1)),
        ci_low=float(min(low, mean)),
        ci_high=float(max(high, mean)),
        interval=f"{LEVEL:.0%} bootstrap ({RESAMPLES} resamples) over {n} "
        f"{_plural(unit_kind)}{within}",
    )


def samples_table(
    groups: Iterable[tuple[dict[str, Any], Sequence[str], Sequence[float]]],
    unit_kind: str,
    keys: Sequence[str],
    measure: str = "value",
) -> pd.DataFrame:
    """A ``.samples.csv`` table: for each (results row's ``keys`` -> values, unit ids, unit
    values) of ``groups``, one row per unit of column ``measure``, values rounded to 6
    digits; a group without units is left out."""
    import numpy as np
    import pandas as pd

    columns = [*keys, "measure", "unit_kind", "unit", "value"]
    frames = [
        pd.DataFrame(
            {
                **row,
                "measure": measure,
                "unit_kind": unit_kind,
                "unit": list(units),
                "value": np.round(np.asarray(values, dtype=float), 6),
            }
        )[columns]
        for row, units, values in groups
        if len(units)
    ]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def _plural(unit_kind: str) -> str:
    return unit_kind[:-1] + "ies" if unit_kind.endswith("y") else unit_kind + "s"


def paired_verdict(a: np.ndarray, b: np.ndarray, relation: str) -> tuple[str, str]:
    """PASS / FAIL / INCONCLUSIVE for the claim ``mean(a) <relation> mean(b)`` from paired
    samples, and a note naming the test and its p-value."""
    import numpy as np
    from scipy.stats import wilcoxon

    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if len(diff) < 2 or not np.any(diff):
        return "INCONCLUSIVE", f"{TEST_NAME}: {len(diff)} pairs, no difference to test"
    p = float(wilcoxon(diff, zero_method="wilcox", alternative="two-sided").pvalue)
    note = f"{TEST_NAME}: p = {p:.3g} over {len(diff)} pairs"
    if p >= ALPHA:
        return "INCONCLUSIVE", note
    claimed_up = relation in (">", ">=")
    return ("PASS" if (diff.mean() > 0) == claimed_up else "FAIL"), note


__all__ = ["ALPHA", "TEST_NAME", "Spread", "paired_verdict", "samples_table", "spread"]
