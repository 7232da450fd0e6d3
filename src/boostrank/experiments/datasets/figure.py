"""Tables 1.1 and 1.2 of the dissertation (Valizadegan 2010, section 1.6) as files: the tidy
CSV of :mod:`boostrank.experiments.datasets.summary`'s rows, and the Markdown and LaTeX tables
people read (reproduced values, published ones in parentheses)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.experiments.common import dataset_label
from boostrank.experiments.datasets.spec import COLUMNS, NAMES
from boostrank.report.render import beside, write_table

if TYPE_CHECKING:
    import pandas as pd

CAPTIONS = {
    "thesis-table1_1": "Table 1.1: classification data sets (reproduced; published in parentheses)",
    "thesis-table1_2": "Table 1.2: LETOR 3.0 data sets (reproduced; published in parentheses)",
}


def write_data_table(table: str, rows: list[dict[str, Any]], prefix: Path | str) -> pd.DataFrame:
    """Write ``<prefix>.csv``, ``.md`` and ``.tex`` of Table 1.1 or 1.2 from its rows
    (:mod:`.summary`, with their published values); return the tidy table."""
    import pandas as pd

    columns = list(COLUMNS[table])
    tidy = pd.DataFrame(rows)
    shown = pd.DataFrame(
        {
            # A stand-in copies the published shape, so its numbers match by construction.
            "Data set": [
                dataset_label(NAMES.get(r["dataset"], r["dataset"]), r["data_kind"]) for r in rows
            ],
            **{
                col.capitalize(): [beside(r[col], r[f"published_{col}"]) for r in rows]
                for col in columns
            },
            **(
                {"Rows used": [f"{r['rows_used']} ({r['split_used']})" for r in rows]}
                if "rows_used" in rows[0]
                else {}
            ),
            "Data": [r["provenance"] for r in rows],
        }
    )
    write_table(prefix, tidy, shown, CAPTIONS[table])
    return tidy


__all__ = ["CAPTIONS", "write_data_table"]
