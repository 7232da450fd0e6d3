"""LETOR 3.0's OHSUMED feature list (Qin et al. 2010; used in dissertation section 1.6.2), its
features rebuilt from ``Meta/``, the job: rebuild and check the features (:mod:`.jobs_letor`),
the table's rows and summary (:mod:`.summary_letor`), written as the table files
(:mod:`.figure_letor`) and the summary CSV the claims read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boostrank.experiments.datasets.figure_letor import write_letor3_features
from boostrank.experiments.datasets.jobs_letor import rebuild
from boostrank.experiments.datasets.spec import Letor3FeaturesSpec
from boostrank.experiments.datasets.summary_letor import letor3_features, letor3_features_summary
from boostrank.io import write_text

if TYPE_CHECKING:
    import pandas as pd


def make_letor3_features(spec: Letor3FeaturesSpec) -> pd.DataFrame:
    """Rebuild OHSUMED's features, write them, their table and its summary; the tidy table."""
    check = rebuild(spec.raw_dir, spec.npz, spec.meta, spec.out_npz, spec.out_meta)
    tidy = letor3_features(check)
    write_letor3_features(tidy, check, spec.table_prefix)
    write_text(spec.summary, letor3_features_summary(check).to_csv(index=False))
    return tidy


__all__ = ["make_letor3_features"]
