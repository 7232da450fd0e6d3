"""The figure jobs of Figures 6 and 7 of Crammer & Singer (2005), section 6: run every
sequence of the figure's learners (:mod:`.jobs`), summarise the curves (:mod:`.summary`),
write the tidy CSV, the summary statistics and each run's final loss, draw (:mod:`.figure`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.common import dataset_label
from boostrank.experiments.prank.figure import draw_fig6, draw_fig7
from boostrank.experiments.prank.jobs import run_fig6, run_fig7_file
from boostrank.experiments.prank.spec import Fig6Spec, Fig7Spec
from boostrank.experiments.prank.summary import fig6_outputs, fig7_outputs, final_loss_samples

if TYPE_CHECKING:
    import pandas as pd


def make_fig6(
    result: dict[str, Any],
    settings: dict[str, Any],
    seed: int,
    csv: Path | str,
    summary: Path | str,
    prefix: Path | str,
    samples: Path | str | None = None,
) -> pd.DataFrame:
    """Write Figure 6's CSVs (``samples``: each run's final loss) and draw it, from the curves
    of :func:`boostrank.experiments.prank.jobs.run_fig6`."""
    from boostrank.io import write_text

    tidy, stats = fig6_outputs(result, settings, seed)
    write_text(csv, tidy.to_csv(index=False))
    write_text(summary, stats.to_csv(index=False))
    if samples is not None:
        write_text(samples, final_loss_samples(result).to_csv(index=False))
    draw_fig6(result, settings, prefix, str(tidy["provenance"].iloc[0]))
    return stats


def make_fig7(
    result: dict[str, Any],
    settings: dict[str, Any],
    meta: dict[str, Any],
    csv: Path | str,
    summary: Path | str,
    prefix: Path | str,
    samples: Path | str | None = None,
) -> pd.DataFrame:
    """Write Figure 7's CSVs (``samples``: each run's final loss) and draw it, from the curves
    of :func:`boostrank.experiments.prank.jobs.run_fig7_file` on MovieLens 100K (``meta``: its
    metadata)."""
    from boostrank.io import write_text

    tidy, stats = fig7_outputs(result, settings, meta)
    write_text(csv, tidy.to_csv(index=False))
    write_text(summary, stats.to_csv(index=False))
    if samples is not None:
        write_text(samples, final_loss_samples(result).to_csv(index=False))
    stand_in = meta["provenance"]["kind"] == "synthetic"
    label = dataset_label("MovieLens 100K", "synthetic" if stand_in else "real")
    draw_fig7(result, settings, prefix, str(tidy["provenance"].iloc[0]), label)
    return stats


def figure6(spec: Fig6Spec) -> pd.DataFrame:
    """Figure 6's job: every synthetic sequence of its learners, then its CSVs and figure."""
    result = run_fig6(spec.settings, spec.seed)
    return make_fig6(
        result, spec.settings, spec.seed, spec.csv, spec.summary, spec.figure_prefix, spec.samples
    )


def figure7(spec: Fig7Spec) -> pd.DataFrame:
    """Figure 7's job: every MovieLens sequence of its learners, then its CSVs and figure."""
    result, meta = run_fig7_file(spec.npz, spec.meta, spec.settings, spec.seed)
    return make_fig7(
        result, spec.settings, meta, spec.csv, spec.summary, spec.figure_prefix, spec.samples
    )


__all__ = ["figure6", "figure7", "make_fig6", "make_fig7"]
