"""The figure jobs of Figures 6 and 7 of Crammer & Singer (2005), section 6: run every
sequence of the figure's learners (:mod:`.jobs`), summarise the curves (:mod:`.summary`),
write the tidy CSV, the summary statistics and each run's final loss, draw (:mod:`.figure`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boostrank.experiments.common import dataset_label
from boostrank.experiments.prank.figure import draw_fig6, draw_fig7
from boostrank.experiments.prank.jobs import run_fig6, run_fig7_file
from boostrank.experiments.prank.spec import Fig6Spec, Fig7Spec
from boostrank.experiments.prank.summary import fig6_outputs, fig7_outputs, final_loss_samples

if TYPE_CHECKING:
    import pandas as pd


def make_fig6(result: dict[str, Any], spec: Fig6Spec) -> pd.DataFrame:
    """Write Figure 6's CSVs (``spec.samples``: each run's final loss) and draw it, from the
    curves of :func:`boostrank.experiments.prank.jobs.run_fig6`."""
    from boostrank.io import write_text

    tidy, stats = fig6_outputs(result, spec.settings, spec.seed)
    write_text(spec.csv, tidy.to_csv(index=False))
    write_text(spec.summary, stats.to_csv(index=False))
    if spec.samples is not None:
        write_text(spec.samples, final_loss_samples(result).to_csv(index=False))
    draw_fig6(result, spec.settings, spec.figure_prefix, str(tidy["provenance"].iloc[0]))
    return stats


def make_fig7(result: dict[str, Any], meta: dict[str, Any], spec: Fig7Spec) -> pd.DataFrame:
    """Write Figure 7's CSVs (``spec.samples``: each run's final loss) and draw it, from the
    curves of :func:`boostrank.experiments.prank.jobs.run_fig7_file` on MovieLens 100K
    (``meta``: its metadata)."""
    from boostrank.io import write_text

    tidy, stats = fig7_outputs(result, spec.settings, meta)
    write_text(spec.csv, tidy.to_csv(index=False))
    write_text(spec.summary, stats.to_csv(index=False))
    if spec.samples is not None:
        write_text(spec.samples, final_loss_samples(result).to_csv(index=False))
    stand_in = meta["provenance"]["kind"] == "synthetic"
    label = dataset_label("MovieLens 100K", "synthetic" if stand_in else "real")
    provenance = str(tidy["provenance"].iloc[0])
    draw_fig7(result, spec.settings, spec.figure_prefix, provenance, label)
    return stats


def figure6(spec: Fig6Spec) -> pd.DataFrame:
    """Figure 6's job: every synthetic sequence of its learners, then its CSVs and figure."""
    return make_fig6(run_fig6(spec.settings, spec.seed), spec)


def figure7(spec: Fig7Spec) -> pd.DataFrame:
    """Figure 7's job: every MovieLens sequence of its learners, then its CSVs and figure."""
    result, meta = run_fig7_file(spec.npz, spec.meta, spec.settings, spec.seed)
    return make_fig7(result, meta, spec)


__all__ = ["figure6", "figure7", "make_fig6", "make_fig7"]
