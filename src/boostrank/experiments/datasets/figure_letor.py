"""LETOR 3.0's OHSUMED feature list (Qin et al. 2010; used in dissertation section 1.6.2), its
features rebuilt from ``Meta/``, as files: the tidy CSV of :mod:`.summary_letor`'s rows and the
Markdown and LaTeX table people read."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.report.render import write_table

if TYPE_CHECKING:
    import pandas as pd

    from boostrank.experiments.datasets.jobs_letor import FeatureCheck


def _fmt(value: Any, spec: str) -> str:
    return "" if value == "" else format(value, spec)


def write_letor3_features(tidy: pd.DataFrame, check: FeatureCheck, prefix: Path | str) -> None:
    """Write ``<prefix>.csv``, ``.md`` and ``.tex`` of the LETOR 3.0 feature table from its rows
    (:func:`.summary_letor.letor3_features`) and the job's check (its data's provenance)."""
    import pandas as pd

    shown = pd.DataFrame(
        {
            "#": tidy["feature"],
            "Stream": tidy["stream"],
            "Feature": tidy["name"],
            "Definition": tidy["definition"],
            "max |Δ| Feature-min": [_fmt(v, ".1e") for v in tidy["max_abs_diff_feature_min"]],
            "Spearman ρ": [_fmt(v, ".6f") for v in tidy["spearman_rho"]],
            "max |Δ| QueryLevelNorm": [
                _fmt(v, ".1e") for v in tidy["max_abs_diff_query_level_norm"]
            ],
            "÷ bound": [_fmt(v, ".2f") for v in tidy["query_level_norm_bound_ratio"]],
            "LETOR's norm. check": [
                _fmt(v, ".1e") for v in tidy["max_abs_diff_normalised_feature_min"]
            ],
            "Verdict": tidy["verdict"],
            "Note": tidy["note"],
        }
    )
    caption = (
        "LETOR 3.0 OHSUMED features (Qin et al. 2010) rebuilt from the raw statistics in Meta/, "
        "against the distributed Feature-min and QueryLevelNorm. '÷ bound': the largest "
        "normalised difference over the precision Feature-min's 6 decimals allow after "
        "min-max normalisation (<= 1 agrees); 'LETOR's norm. check': max |QueryLevelNorm - "
        f"normalised Feature-min| (data: {check.provenance.describe()})"
    )
    write_table(prefix, tidy, shown, caption)


__all__ = ["write_letor3_features"]
