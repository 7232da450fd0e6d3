"""Tables 1.1-1.3 (Valizadegan 2010, section 1.6): the table ids, the columns each shows,
and what the data sets are called and which of their splits Table 1.1 counts, and what each
job runs. The rows of Tables 1.1 and 1.2 come in the order of the ``--meta`` sidecars the job
is given (the catalogue's data sets of the table, config/figures.yaml)."""

from __future__ import annotations

from boostrank.experiments.common import Job

SOURCE = "Valizadegan (2010), section 1.6"
TABLES = ("thesis-table1_1", "thesis-table1_2")

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


# One job per table: it reads the processed sidecars of the table's data sets (named by the
# catalogue, config "catalog"; read by jobs.read_metas) and the published values (config
# "claims"), and writes the table files (figure.make_table).
TABLE = Job(
    "table",
    ("catalog", "claims"),
    ("experiments.datasets.jobs", "experiments.datasets.figure"),
)
# Table 1.3's job (rule letor_rebuild): it reads data/raw/ohsumed and the processed OHSUMED,
# rebuilds the features (jobs_letor.rebuild) and writes the table (figure_letor.make_table1_3).
TABLE1_3 = Job(
    "letor-features",
    (),
    ("experiments.datasets.jobs_letor", "experiments.datasets.figure_letor"),
)

__all__ = [
    "COLUMNS",
    "NAMES",
    "SPLIT_WORDS",
    "TABLE",
    "TABLE1_1_SPLIT",
    "TABLE1_3",
    "TABLES",
    "Job",
]
