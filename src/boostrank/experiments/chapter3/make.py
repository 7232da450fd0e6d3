"""Figure 3.1 of Valizadegan (2010), section 3.4.2, the figure job: merge and summarise the data
sets' evaluations (:mod:`.summary`), write the results CSVs, draw the figure and its table
(:mod:`.figure`), and write the guard table of the training jobs' records."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from boostrank.experiments.chapter3.figure import draw_figure, write_results_table
from boostrank.experiments.chapter3.spec import FIGURE_ID, FigureSpec
from boostrank.experiments.chapter3.summary import (
    letor_gap_stats,
    letor_published,
    letor_table,
    ndcg_boost_bands,
    query_samples,
    summarise,
)

if TYPE_CHECKING:
    import pandas as pd


def write_guards(path: str, records: Sequence[str]) -> pd.DataFrame:
    """The figure's guard table (:func:`boostrank.guards.write_table`): each guard's firings
    summed over the training jobs' records."""
    from boostrank import guards
    from boostrank.io import read_json

    return guards.write_table(path, FIGURE_ID, [read_json(r) for r in records])


def make_figure(spec: FigureSpec) -> pd.DataFrame:
    """The results CSVs, Figure 3.1 and its table from the data sets' evaluations; LETOR's
    published values come from ``spec.letor`` (the fetched ``letor3_baselines``); the per-query
    samples are merged beside the results CSV, and those of the compared cells that are ours
    beside ``spec.compared`` (the cells the comparative claims read)."""
    import pandas as pd

    from boostrank.io import write_text

    kind_line = ("", "")
    sources = []
    if spec.letor is not None:
        from boostrank.data.provenance import Provenance

        prov = Provenance.load(spec.letor)
        kind_line = (prov.kind, prov.describe())
        sources.append(f"published baselines (open markers): {kind_line[1]}")
    tidy, stats, cells = summarise(
        spec.evaluations,
        spec.claims,
        spec.tolerance,
        letor=letor_published(spec.letor),
        tie_break=spec.tie_break,
        compared=spec.baselines_compared,
        letor_provenance=kind_line,
    )
    # Section 4.4.1's RankBoost against RankSVM, on LETOR's published table alone.
    gaps = letor_gap_stats(letor_table(spec.letor), kind_line)
    stats = pd.concat([stats, gaps], ignore_index=True)
    merged = query_samples(spec.samples, spec.tie_break)
    ours = cells.loc[cells["source"] == "ours", ["dataset", "algorithm"]]
    compared_samples = merged.merge(ours.drop_duplicates(), on=["dataset", "algorithm"])
    write_text(spec.samples_out, merged.to_csv(index=False))
    write_text(
        Path(spec.compared).with_suffix(".samples.csv"), compared_samples.to_csv(index=False)
    )
    write_text(spec.csv, tidy.to_csv(index=False))
    write_text(spec.summary, stats.to_csv(index=False))
    write_text(spec.compared, cells.to_csv(index=False))
    write_results_table(tidy, spec.table_prefix)
    write_guards(spec.guards, spec.records)
    bands = ndcg_boost_bands(merged, spec.seed)
    formula = str(tidy["formula"].iloc[0])
    draw_figure(
        tidy,
        spec.figure_prefix,
        formula,
        sources=sources,
        bands=bands,
        compared=spec.baselines_compared,
    )
    return tidy


__all__ = ["make_figure"]
