"""Tables 1.1 and 1.2 (Valizadegan 2010, section 1.6) and LETOR 3.0's OHSUMED feature list (Qin
et al. 2010; the features of section 1.6.2): the table ids, the columns each shows, and what the
data sets are called and which of their splits Table 1.1 counts, and each job's parameters,
config keys and code. The rows of Tables 1.1 and 1.2 come in the order of the
sidecars the job is given (the catalogue's data sets of the table, config/figures.yaml)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from boostrank.experiments.job import FigureCode, JobKind, JobSpec, registry, stem, with_exts

SOURCE = "Valizadegan (2010), section 1.6"
TABLES = ("thesis-table1_1", "thesis-table1_2")
LETOR3_TABLE = "thesis-table_letor3_features"

# The reproduced columns of each table, each shown beside its published value.
COLUMNS: dict[str, tuple[str, ...]] = {
    "thesis-table1_1": ("instances", "features", "classes"),
    "thesis-table1_2": ("pairs", "queries", "relevance", "features"),
}

# Section 1.6.1: "for some of these data sets, there were two separate sets, one for training and
# one for testing. We only used the training set." Isolet's 7797 and Nursery's 12960 are whole sets.
TABLE1_1_SPLIT = {
    "isolet": "all",
    "mnist": "train",
    "protein": "train",
    "optdigits": "train",
    "nursery": "all",
    "letter": "train",
    "pendigits": "train",
}
SPLIT_WORDS = {
    "train": "the training set",
    "test": "the test set",
    "all": "training and test sets merged",
}
NAMES = {
    "isolet": "Isolet",
    "mnist": "MNIST",
    "protein": "Protein",
    "optdigits": "Optdigits",
    "nursery": "Nursery",
    "letter": "Letter",
    "pendigits": "Pendigits",
    "ohsumed": "OHSUMED",
    "td2003": "TD2003",
    "td2004": "TD2004",
    "hp2003": "HP2003",
    "hp2004": "HP2004",
    "np2003": "NP2003",
    "np2004": "NP2004",
}


@dataclass(frozen=True)
class TableSpec(JobSpec):
    """Table 1.1 or 1.2 from the processed sidecars of its data sets, one row each in order,
    beside the published values (:func:`.make.make_table`)."""

    table: str
    metas: tuple[str, ...]  # data/processed/<name>.json
    claims: str  # the published values (config claims)
    prefix: str  # <prefix>.csv, .md and .tex

    def check(self) -> None:
        self.one_of("table", TABLES)


@dataclass(frozen=True)
class Letor3FeaturesSpec(JobSpec):
    """LETOR 3.0's OHSUMED feature list (Qin et al. 2010): the features rebuilt from
    ``<raw_dir>/Meta``, checked against the distributed ones (``npz``, ``meta``) and written in
    their layout (``out_npz``, ``out_meta``), with the table and its summary
    (:func:`.make_letor.make_letor3_features`)."""

    raw_dir: str  # data/raw/ohsumed
    npz: str
    meta: str
    out_npz: str
    out_meta: str
    table_prefix: str
    summary: str


# One job per table: it reads the processed sidecars of the table's data sets (named by the
# catalogue, config "catalog") and the published values (config "claims"), and writes the
# table files.
TABLE = JobKind(
    "datasets.table",
    ("catalog", "claims"),
    ("experiments.datasets.make",),
    TableSpec,
    "boostrank.experiments.datasets.make:make_table",
)
# The LETOR 3.0 feature table's job (rule letor_rebuild): it reads data/raw/ohsumed and the
# processed OHSUMED, rebuilds the features and writes them, the table and its summary.
LETOR3_FEATURES = JobKind(
    "datasets.letor3_features",
    (),
    ("experiments.datasets.make_letor",),
    Letor3FeaturesSpec,
    "boostrank.experiments.datasets.make_letor:make_letor3_features",
)
JOBS = registry(TABLE, LETOR3_FEATURES)


def table_outputs(table: str) -> dict[str, str | tuple[str, ...]]:
    """The outputs of Table 1.1's or 1.2's job (rule datasets_table; ``{table}`` there)."""
    return {"table": with_exts(f"figures/tables/{table}", ".csv", ".md", ".tex")}


# The three tables: the rules of their jobs, the functions they run, their outputs (the
# rebuilt OHSUMED arrays beside the feature table are data, declared by rule letor_rebuild).
_ROWS = {  # table -> the function that computes its rows
    "thesis-table1_1": "boostrank.experiments.datasets.summary:table1_1",
    "thesis-table1_2": "boostrank.experiments.datasets.summary:table1_2",
}
FIGURES = {
    **{
        table: FigureCode(
            rules=("datasets_table",),
            entries=("boostrank.experiments.datasets.jobs:read_metas", rows, TABLE.entry),
            outputs=table_outputs(table),
        )
        for table, rows in _ROWS.items()
    },
    LETOR3_TABLE: FigureCode(
        rules=("letor_rebuild",),
        entries=(
            "boostrank.experiments.datasets.jobs_letor:rebuild",
            "boostrank.experiments.datasets.summary_letor:letor3_features_summary",
            LETOR3_FEATURES.entry,
        ),
        outputs={
            "table": with_exts(f"figures/tables/{LETOR3_TABLE}", ".csv", ".md", ".tex"),
            "summary": f"results/{LETOR3_TABLE}_summary.csv",
        },
        unlisted=("summary",),
    ),
}


def table_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> TableSpec:
    """The job of Table 1.1 or 1.2 (rule datasets_table)."""
    return TableSpec(
        table=wildcards.table,
        metas=tuple(input.metas),
        claims=input.claims,
        prefix=stem(output.table[0]),
    )


def letor3_features_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> Letor3FeaturesSpec:
    """The LETOR 3.0 feature table's job (rule letor_rebuild): the raw folder is that of the
    fetched OHSUMED."""
    return Letor3FeaturesSpec(
        raw_dir=os.path.dirname(input.raw),
        npz=input.npz,
        meta=input.meta,
        out_npz=output.npz,
        out_meta=output.meta,
        table_prefix=stem(output.table[0]),
        summary=output.summary,
    )


__all__ = [
    "COLUMNS",
    "FIGURES",
    "JOBS",
    "LETOR3_FEATURES",
    "LETOR3_TABLE",
    "NAMES",
    "SPLIT_WORDS",
    "TABLE",
    "TABLE1_1_SPLIT",
    "TABLES",
    "Letor3FeaturesSpec",
    "TableSpec",
    "letor3_features_spec",
    "table_outputs",
    "table_spec",
]
