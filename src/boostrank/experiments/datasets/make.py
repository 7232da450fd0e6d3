"""Tables 1.1 and 1.2 (Valizadegan 2010, section 1.6), the table job: the rows from the processed
sidecars beside their published values (:mod:`.summary`), written as the table files
(:mod:`.figure`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boostrank.experiments.datasets.figure import write_data_table
from boostrank.experiments.datasets.jobs import read_metas
from boostrank.experiments.datasets.spec import COLUMNS, TableSpec
from boostrank.experiments.datasets.summary import ROWS, with_published

if TYPE_CHECKING:
    import pandas as pd


def make_table(spec: TableSpec) -> pd.DataFrame:
    """Table 1.1 or 1.2, one row per sidecar of ``spec.metas`` in order; the tidy table."""
    from boostrank.report.claims import load_claims

    metas = read_metas(spec.metas)
    claims = load_claims(spec.claims)
    rows = with_published(ROWS[spec.table](metas), metas, claims, spec.prefix, COLUMNS[spec.table])
    return write_data_table(spec.table, rows, spec.prefix)


__all__ = ["make_table"]
