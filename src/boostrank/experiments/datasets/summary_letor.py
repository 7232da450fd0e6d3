"""LETOR 3.0's OHSUMED feature list (Qin et al. 2010; used in dissertation section 1.6.2), its
features rebuilt from ``Meta/``: the table's tidy rows and its summary (how many features agree,
correlate or differ), from the job's check (:mod:`.jobs_letor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boostrank.experiments.datasets.jobs_letor import AGREE_TOL, RHO_MIN
from boostrank.preprocess.letor_features import N_FEATURES

if TYPE_CHECKING:
    import pandas as pd

    from boostrank.experiments.datasets.jobs_letor import FeatureCheck


def letor3_features(check: FeatureCheck) -> pd.DataFrame:
    """One row per feature with its data's provenance (the table's CSV)."""
    prov = check.provenance
    tidy = check.table.assign(data_kind=prov.kind, provenance=prov.describe())
    tidy.insert(0, "dataset", "ohsumed")  # the report lists each row's data by this column
    return tidy


def letor3_features_summary(check: FeatureCheck) -> pd.DataFrame:
    """The numbers of features that agree, only correlate, or differ (empty where the features
    were not rebuilt), with the total."""
    import pandas as pd

    prov = check.provenance
    counts = check.table["verdict"].value_counts()
    quantities = {
        "features_agree": "features whose rebuilt values agree with Feature-min and "
        f"QueryLevelNorm to {AGREE_TOL:g}",
        "features_correlate": f"further features with Spearman rho >= {RHO_MIN} only",
        "features_reproduced": f"features that agree or correlate (rho >= {RHO_MIN})",
        "features_differ": "features that neither agree nor correlate",
        "features_total": "features in LETOR 3.0 OHSUMED",
    }
    values = {
        "features_agree": int(counts.get("agrees", 0)),
        "features_correlate": int(counts.get("correlates", 0)),
        "features_reproduced": int(counts.get("agrees", 0) + counts.get("correlates", 0)),
        "features_differ": int(counts.get("differs", 0)),
        "features_total": N_FEATURES,
    }
    return pd.DataFrame(
        {
            "quantity": list(quantities),
            "value": [
                v if check.rebuilt or k == "features_total" else "" for k, v in values.items()
            ],
            "description": list(quantities.values()),
            "data_kind": prov.kind,
            "provenance": prov.describe(),
            "note": "" if check.rebuilt else check.why,
        }
    )


__all__ = ["letor3_features", "letor3_features_summary"]
