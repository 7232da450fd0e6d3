"""What Figures 6 and 7 of Crammer & Singer (2005) run: the figure ids, the learners' keys and
the paper's names for them, the config keys each job reads and the package modules each job
runs (the roots of its Snakemake ``code()`` inputs). Imports no other part of the work."""

from __future__ import annotations

from typing import Any

from boostrank.experiments.common import Job

FIG6, FIG7 = "prank-fig6", "prank-fig7"
FIGURES = (FIG6, FIG7)
LABELS = {
    "prank": "PRank",
    "siprank": "Si-PRank",
    "noprank": "No-PRank",
    "mcp": "MCP",
    "wh": "WH",
}


# One job per figure: runs every sequence of the figure's learners, then writes its CSVs and
# draws it.
_CODE = (
    "experiments.prank.jobs",
    "experiments.prank.figure",
    "online.prank",
    "online.ordinal_baselines",
    "plots",
    "errors",
    "io",
)
FIG6_JOB = Job("prank-fig6", ("fig6",), _CODE)
FIG7_JOB = Job("prank-fig7", ("fig7",), _CODE)  # and MovieLens 100K's processed files


def mu_key(eta: float) -> str:
    """``mu_eta4`` etc."""
    return f"mu_eta{eta:g}"


def label_of(key: str) -> str:
    """The paper's name of a learner key."""
    if key.startswith("mu_eta"):
        return f"Mu-PRank (η={key.removeprefix('mu_eta')})"
    if key.startswith("wh_x"):
        return f"WH (rate ×{key.removeprefix('wh_x')})"
    if key == "wh_flip":
        return "WH (intercept toggled)"
    return LABELS[key]


def wh_variants(settings: dict[str, Any]) -> list[str]:
    """The extra WH runs of the summary: other learning rates, and the intercept toggled."""
    return [f"wh_x{m:g}" for m in settings["wh"]["sensitivity"]] + ["wh_flip"]


__all__ = [
    "FIG6",
    "FIG6_JOB",
    "FIG7",
    "FIG7_JOB",
    "FIGURES",
    "LABELS",
    "Job",
    "label_of",
    "mu_key",
    "wh_variants",
]
