"""Figures 2.1-2.3 (Valizadegan 2010, section 2.4): the figures, data sets and compared
methods, and what each Snakemake job reads (config keys) and runs (code modules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.common import Job

FIGURES = ("thesis-fig2_1", "thesis-fig2_2", "thesis-fig2_3")
SOURCE = "Valizadegan (2010), section 2.4"
SEED_KEY = "chapter2"  # the first label of every Chapter 2 seed (boostrank.seeds)
DATASETS = ("isolet", "mnist", "protein", "optdigits", "nursery", "letter", "pendigits")
DEFAULT_C = 1e4
DEFAULT_DEPTH = "2"
LABELLED_SAMPLES = ("random", "stratified")


@dataclass(frozen=True)
class Method:
    """One compared method: config key, the dissertation's name, estimator and options."""

    key: str
    label: str
    estimator: str  # tree | assemble | mcssb
    options: tuple[tuple[str, Any], ...] = ()


METHODS: tuple[Method, ...] = (
    Method("tree", "Tree", "tree"),
    Method("assemble", "ASSEMBLE", "assemble"),
    Method("mcssb", "MCSSB", "mcssb", (("similarity", "gaussian"),)),
    Method("mcssb_uniform", "MCSSB-Uniform", "mcssb", (("similarity", "uniform"),)),
    Method("mcssb_absolute", "MCSSB-Absolute", "mcssb", (("similarity", "absolute"),)),
)
BY_KEY = {m.key: m for m in METHODS}
LABEL = {m.key: m.label for m in METHODS}
CODE = {
    "tree": ["boosting.base"],
    "assemble": ["boosting.base", "boosting.assemble"],
    "mcssb": ["boosting.base", "boosting.mcssb"],
}

# The methods each figure runs (Figure 2.2 varies MCSSB's C only; Figure 2.3 the depth of
# Tree, ASSEMBLE and MCSSB).
FIGURE_METHODS: dict[str, tuple[str, ...]] = {
    "thesis-fig2_1": tuple(m.key for m in METHODS),
    "thesis-fig2_2": ("mcssb",),
    "thesis-fig2_3": ("tree", "assemble", "mcssb"),
}


# One job per (figure, data set, method), looping over the repeats and the figure's settings;
# its code also lists the method's estimator modules (code_modules), so editing one estimator
# reruns only its jobs.
RUN = Job(
    "chapter2-run",
    (
        "fractions",
        "C_grid",
        "depth_grid",
        "reference",
        "methods",
        "repeats",
        "parts",
        "rows",
        "labelled_sample",
    ),
    ("experiments.chapter2.jobs", "io"),
)
# One job per figure: merges its runs (and, for Figures 2.2 and 2.3, Figure 2.1's reference
# runs) into the results CSV, the summary CSV and the figure.
FIGURE = Job("chapter2-figure", ("reference",), ("experiments.chapter2.figure",))


def get_method(key: str) -> Method:
    """The table row of ``key``."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown method '{key}'; known: {sorted(BY_KEY)}") from None


def code_modules(key: str) -> list[str]:
    """Package modules a method's jobs run (Snakemake inputs)."""
    return [*RUN.code, *CODE[get_method(key).estimator]]


__all__ = [
    "BY_KEY",
    "DATASETS",
    "FIGURE",
    "FIGURES",
    "FIGURE_METHODS",
    "LABEL",
    "LABELLED_SAMPLES",
    "METHODS",
    "RUN",
    "Job",
    "Method",
    "code_modules",
    "get_method",
]
