"""Sengupta (2018), *Document Analysis*, the ranking tables: the jobs that write Tables 2-6
(merged over their folds, with the statistics of :mod:`.summary_ranking`), Table 7 (the toy
example) and Table 8 (the 2-D demo): summarise (:mod:`.summary`) and write (:mod:`.figure`);
Tables 7 and 8 first fit their small models (:mod:`.jobs_ranking`), and write the statistics
of the toy corpus and of the demo's pairs (:mod:`.summary_ranking`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from boostrank import guards
from boostrank.experiments.docan import figure, jobs_ranking, summary, summary_ranking
from boostrank.experiments.docan.spec import TOY_DOCUMENTS, DemoSpec, RankingMergeSpec, ToySpec
from boostrank.io import write_text

if TYPE_CHECKING:
    import pandas as pd


def make_ranking_table(spec: RankingMergeSpec) -> pd.DataFrame:
    """Tables 2-6: per-fold rows, their means over the folds, the validation-selected
    configuration and the report's published values, as ``<out_prefix>.csv/.md/.tex``; the
    statistics the claims on the table's orderings read, as ``spec.summary``; and the guard
    table (:func:`boostrank.guards.write_table`, one record per configuration and fold), as
    ``spec.guards``."""
    table = summary.merge_frames(spec.table, list(spec.folds), spec.claims, spec.out_prefix)
    stats = summary_ranking.table_statistics(spec.table, table.tidy)
    write_text(spec.summary, stats.to_csv(index=False))
    per_fold = table.tidy[~table.tidy["fold"].isin(["mean", "selected"])]
    guards.write_table(spec.guards, spec.table, per_fold.to_dict("records"))
    return figure.write_table(spec.out_prefix, table)


def results_beside(prefix: str, suffix: str) -> str:
    """``<root>/results/<table><suffix>`` for a table written to ``<root>/figures/tables/<table>``
    (``prefix``; ``<root>`` is a make-readings variant's folder or ``.``): a file the rule
    lists beside the table that the job's spec does not name."""
    path = Path(prefix)
    return str(path.parents[2] / "results" / f"{path.name}{suffix}")


def make_toy_table(spec: ToySpec) -> pd.DataFrame:
    """Table 7 (section "Working on a toy dataset"): the toy models, beside the report's; the
    features the toy matrix derives from the documents with the printed tables' cells
    (:func:`.summary_ranking.toy_term_columns`), as ``spec.features``; and the toy matrix
    rebuilt (:func:`.summary_ranking.toy_matrix`), as ``results/docan-table7_matrix.csv``."""
    corpus = summary_ranking.toy_corpus(TOY_DOCUMENTS)
    features = jobs_ranking.toy_features().merge(
        summary_ranking.toy_term_columns(corpus), on="document", validate="one_to_one"
    )
    last = ["data_kind", "provenance"]
    features = features[[c for c in features.columns if c not in last] + last]
    write_text(spec.features, features.to_csv(index=False))
    matrix = summary_ranking.toy_matrix(corpus)
    write_text(results_beside(spec.out_prefix, "_matrix.csv"), matrix.to_csv(index=False))
    tidy = jobs_ranking.run_toy(spec.settings, spec.seed)
    return figure.write_table(
        spec.out_prefix, summary.toy_table(tidy, spec.claims, spec.out_prefix)
    )


def make_demo_table(spec: DemoSpec) -> pd.DataFrame:
    """Table 8 (section "Working on a toy dataset"): the 2-D demo, beside the report's; and
    whether its training pairs are linearly separable (Figures 10-11:
    :func:`.summary_ranking.demo_statistics`), as ``results/docan-table8_summary.csv``."""
    tidy = jobs_ranking.run_demo(spec.settings)
    settings = spec.settings
    data = jobs_ranking.demo_data(
        int(settings["seed"]), int(settings["n_per_grade"]), float(settings["test_size"])
    )
    stats = summary_ranking.demo_statistics(data, str(tidy["provenance"].iloc[0]))
    write_text(results_beside(spec.out_prefix, "_summary.csv"), stats.to_csv(index=False))
    return figure.write_table(
        spec.out_prefix, summary.demo_table(tidy, spec.claims, spec.out_prefix)
    )


__all__ = ["make_demo_table", "make_ranking_table", "make_toy_table", "results_beside"]
