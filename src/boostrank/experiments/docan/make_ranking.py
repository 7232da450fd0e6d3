"""Sengupta (2018), *Document Analysis*, the ranking tables: the jobs that write Tables 2-6
(merged over their folds, with the statistics of :mod:`.summary_ranking`), Table 7 (the toy
example) and Table 8 (the 2-D demo): summarise (:mod:`.summary`) and write (:mod:`.figure`);
Tables 7 and 8 first fit their small models (:mod:`.jobs_ranking`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boostrank.experiments.docan import figure, jobs_ranking, summary, summary_ranking
from boostrank.experiments.docan.spec import DemoSpec, RankingMergeSpec, ToySpec
from boostrank.io import write_text

if TYPE_CHECKING:
    import pandas as pd


def make_ranking_table(spec: RankingMergeSpec) -> pd.DataFrame:
    """Tables 2-6: per-fold rows, their means over the folds, the validation-selected
    configuration and the report's published values, as ``<out_prefix>.csv/.md/.tex``; and
    the statistics the claims on the table's orderings read, as ``spec.summary``."""
    table = summary.merge_frames(spec.table, list(spec.folds), spec.claims, spec.out_prefix)
    stats = summary_ranking.table_statistics(spec.table, table.tidy)
    write_text(spec.summary, stats.to_csv(index=False))
    return figure.write_table(spec.out_prefix, table)


def make_toy_table(spec: ToySpec) -> pd.DataFrame:
    """Table 7 (section "Working on a toy dataset"): the toy models, beside the report's; and
    the features the toy matrix derives from the documents, as ``spec.features``."""
    features = jobs_ranking.toy_features()
    write_text(spec.features, features.to_csv(index=False))
    tidy = jobs_ranking.run_toy(spec.settings, spec.seed)
    return figure.write_table(
        spec.out_prefix, summary.toy_table(tidy, spec.claims, spec.out_prefix)
    )


def make_demo_table(spec: DemoSpec) -> pd.DataFrame:
    """Table 8 (section "Working on a toy dataset"): the 2-D demo, beside the report's."""
    tidy = jobs_ranking.run_demo(spec.settings)
    return figure.write_table(
        spec.out_prefix, summary.demo_table(tidy, spec.claims, spec.out_prefix)
    )


__all__ = ["make_demo_table", "make_ranking_table", "make_toy_table"]
