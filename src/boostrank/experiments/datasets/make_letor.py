"""Table 1.3 (LETOR 3.0 OHSUMED features rebuilt from ``Meta/``, Qin et al. 2010; dissertation
section 1.6.2), the job: rebuild and check the features (:mod:`.jobs_letor`), the table's rows
and summary (:mod:`.summary_letor`), written as the table files (:mod:`.figure_letor`) and the
summary CSV the claims read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boostrank.experiments.datasets.figure_letor import write_table1_3
from boostrank.experiments.datasets.jobs_letor import rebuild
from boostrank.experiments.datasets.spec import Table1_3Spec
from boostrank.experiments.datasets.summary_letor import table1_3, table1_3_summary
from boostrank.io import write_text

if TYPE_CHECKING:
    import pandas as pd


def make_table1_3(spec: Table1_3Spec) -> pd.DataFrame:
    """Rebuild OHSUMED's features, write them, Table 1.3 and its summary; the tidy table."""
    check = rebuild(spec.raw_dir, spec.npz, spec.meta, spec.out_npz, spec.out_meta)
    tidy = table1_3(check)
    write_table1_3(tidy, check, spec.table_prefix)
    write_text(spec.summary, table1_3_summary(check).to_csv(index=False))
    return tidy


__all__ = ["make_table1_3"]
