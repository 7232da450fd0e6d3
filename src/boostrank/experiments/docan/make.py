"""Sengupta (2018), *Document Analysis*, Reuters-21578: the figure and table jobs. Each reads
its results, summarises them (:mod:`.summary`), writes the results CSV or table and draws
(:mod:`.figure`); Figure 4 first counts the topics (:mod:`.jobs`). The ranking tables' jobs are
in :mod:`.make_ranking`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from boostrank.experiments.docan import figure, jobs, summary
from boostrank.experiments.docan.spec import (
    CORPUS_META,
    Fig4Spec,
    ForestMergeSpec,
    PlotSpec,
    Table1Spec,
)
from boostrank.io import read_json, write_text

if TYPE_CHECKING:
    import pandas as pd


def fig4_files(csv: str) -> tuple[str, str]:
    """The two files the Figure 4 rule lists beside its results CSV ``csv``
    (``<root>/results/docan-fig4.csv``; ``<root>`` is a make-readings variant's folder or
    ``.``): the corpus sidecar it reads (``<root>/`` + ``CORPUS_META``) and the summary CSV
    it writes (``..._summary.csv`` beside ``csv``)."""
    path = Path(csv)
    return str(path.parents[1] / CORPUS_META), str(path.with_name(f"{path.stem}_summary.csv"))


def make_fig4(spec: Fig4Spec) -> pd.DataFrame:
    """Figure 4 (section "Dataset description"): the ModApte topic counts of the raw SGML,
    with the published counts beside them, as the results CSV and the figure; and the section's
    statistics of the data (:func:`.summary.figure4_statistics`) as the summary CSV."""
    from boostrank.data.provenance import Provenance
    from boostrank.preprocess.reuters import read_reuters

    Provenance.load(spec.provenance).verify_cached(spec.raw_dir)  # as the fetch verified it
    counts = jobs.topic_frequency_table(spec.raw_dir, top_n=spec.top_topics, counting=spec.counting)
    table = summary.figure4_table(
        counts, spec.provenance, spec.claims, spec.csv, counting=spec.counting
    )
    write_text(spec.csv, table.to_csv(index=False))
    figure.draw_figure4(table, spec.figure_prefix, top_n=spec.top_topics)
    meta, out = fig4_files(spec.csv)
    stats = summary.figure4_statistics(
        table,
        read_reuters(spec.raw_dir),
        read_json(meta),
        top_n=spec.top_topics,
        counting=spec.counting,
        provenance_path=spec.provenance,
    )
    write_text(out, stats.to_csv(index=False))
    return table


def make_plot(spec: PlotSpec) -> None:
    """Figure 5, 6 or 7 from its results CSV (the published values from the claims)."""
    if spec.figure == "fig5":
        figure.draw_figure5(summary.figure5_summary(spec.csv, spec.claims), spec.figure_prefix)
    else:
        figure.draw_knn(summary.knn_summary(spec.csv, spec.claims), spec.figure_prefix)


def make_forest_merge(spec: ForestMergeSpec) -> pd.DataFrame:
    """The random forest's replicates averaged (results CSV and its samples)."""
    table, samples = summary.merge_forest_replicates(spec.replicates, spec.replicate_samples)
    write_text(spec.csv, table.to_csv(index=False))
    write_text(spec.samples, samples.to_csv(index=False))
    return table


def make_table1(spec: Table1Spec) -> pd.DataFrame:
    """The random-forest table (CSV, Markdown, LaTeX) with the published accuracies beside."""
    return figure.write_table(
        spec.out_prefix, summary.table1_frames(spec.results, spec.claims, spec.out_prefix)
    )


__all__ = ["fig4_files", "make_fig4", "make_forest_merge", "make_plot", "make_table1"]
