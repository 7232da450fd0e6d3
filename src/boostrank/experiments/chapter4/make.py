"""Figures 4.1-4.6 of Valizadegan (2010), chapter 4, the figure job: merge and summarise
(:mod:`.summary`), write the results, summary and samples CSVs and the guard table, draw
(:mod:`.figure`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter4.figure import draw_figure
from boostrank.experiments.chapter4.summary import read_inputs, summarise
from boostrank.experiments.chapter4.summary_samples import summary_samples

if TYPE_CHECKING:
    import pandas as pd

    from boostrank.experiments.chapter4.spec import FigureSpec


def write_guards(spec: FigureSpec, objective: pd.DataFrame | None) -> pd.DataFrame | None:
    """The figure's guard table (:func:`boostrank.guards.write_table`): the guard counts of
    its jobs' records, and for Figure 4.1 those of each MRR fit in the objective CSV."""
    from boostrank import guards
    from boostrank.io import read_json

    if spec.guards is None:
        return None
    counts: list[Any] = [read_json(r) for r in spec.records]
    if objective is not None and guards.FIELD in objective:
        fits = objective.drop_duplicates(["t_scope", "weak_learner", "qid"])
        counts += fits.to_dict("records")
    return guards.write_table(spec.guards, spec.figure, counts)


def make_figure(spec: FigureSpec) -> pd.DataFrame:
    """Draw one of thesis-fig4_1 .. thesis-fig4_6 and write its results and summary CSVs, and
    each query's value of the summary's differences (``spec.samples``); the published base
    rankers are read from the claims registry ``spec.claims``, the statistics' "no change"
    is within ``spec.no_change_se`` standard errors."""
    from boostrank.io import write_text
    from boostrank.report.claims import load_claims

    figure, evaluated, bin_width = spec.figure, spec.evaluated, spec.bin_width
    d = read_inputs(spec.inputs)
    d["claims"] = load_claims(spec.claims)
    d["no_change_se"] = spec.no_change_se
    tidy, stats = summarise(figure, d, evaluated, bin_width)
    draw_figure(figure, d, spec.figure_prefix, evaluated, bin_width)
    write_text(spec.csv, tidy.to_csv(index=False))
    write_text(spec.summary, stats.to_csv(index=False))
    write_text(spec.samples, summary_samples(figure, d).to_csv(index=False))
    write_guards(spec, d["objective"])
    return stats


__all__ = ["make_figure"]
