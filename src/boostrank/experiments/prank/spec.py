"""What Figures 6 and 7 of Crammer & Singer (2005) run: the figure ids, the learners' keys and
the paper's names for them, the config keys each job reads and the package modules each job
runs (the roots of its Snakemake ``code()`` inputs). Imports no other part of the work."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boostrank.experiments.job import FigureCode, JobKind, JobSpec, curve_outputs, registry, stem

FIG6, FIG7 = "prank-fig6", "prank-fig7"
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
    "experiments.prank.make",
    "online.prank",
    "online.ordinal_baselines",
    "plots",
    "errors",
    "io",
)


@dataclass(frozen=True)
class Fig6Spec(JobSpec):
    """Figure 6 (:func:`.make.figure6`): config ``prank.fig6`` (``settings``) on the paper's
    synthetic data."""

    settings: dict[str, Any]
    seed: int  # the root seed (config seed)
    csv: str
    summary: str
    samples: str | None  # each run's final loss (the claims' samples)
    figure_prefix: str


@dataclass(frozen=True)
class Fig7Spec(JobSpec):
    """Figure 7 (:func:`.make.figure7`): config ``prank.fig7`` (``settings``) on MovieLens
    100K's processed files."""

    npz: str
    meta: str
    settings: dict[str, Any]
    seed: int
    csv: str
    summary: str
    samples: str | None
    figure_prefix: str


FIG6_JOB = JobKind(
    "prank.fig6", ("fig6",), _CODE, Fig6Spec, "boostrank.experiments.prank.make:figure6"
)
FIG7_JOB = JobKind(  # and MovieLens 100K's processed files
    "prank.fig7", ("fig7",), _CODE, Fig7Spec, "boostrank.experiments.prank.make:figure7"
)
JOBS = registry(FIG6_JOB, FIG7_JOB)


def figure_outputs(figure: str) -> dict[str, str | tuple[str, ...]]:
    """The outputs of a figure's job (rules prank_fig6 and prank_fig7)."""
    return curve_outputs(figure, guards=False)


# Figures 6 and 7: the rule of each one's job, the functions it runs, its outputs.
FIGURES = {
    FIG6: FigureCode(
        rules=("prank_fig6",),
        entries=(
            FIG6_JOB.entry,
            "boostrank.experiments.prank.jobs:run_fig6",
            "boostrank.experiments.prank.make:make_fig6",
        ),
        outputs=figure_outputs(FIG6),
        unlisted=("samples",),
    ),
    FIG7: FigureCode(
        rules=("prank_fig7",),
        entries=(
            FIG7_JOB.entry,
            "boostrank.experiments.prank.jobs:run_fig7_file",
            "boostrank.experiments.prank.make:make_fig7",
        ),
        outputs=figure_outputs(FIG7),
        unlisted=("samples",),
    ),
}


def fig6_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> Fig6Spec:
    """Figure 6's job (rule prank_fig6)."""
    return Fig6Spec(
        settings=config["prank"]["fig6"],
        seed=config["seed"],
        csv=output.csv,
        summary=output.summary,
        samples=output.samples,
        figure_prefix=stem(output.figure[0]),
    )


def fig7_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> Fig7Spec:
    """Figure 7's job (rule prank_fig7)."""
    return Fig7Spec(
        npz=input.npz,
        meta=input.meta,
        settings=config["prank"]["fig7"],
        seed=config["seed"],
        csv=output.csv,
        summary=output.summary,
        samples=output.samples,
        figure_prefix=stem(output.figure[0]),
    )


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
    "JOBS",
    "LABELS",
    "Fig6Spec",
    "Fig7Spec",
    "fig6_spec",
    "fig7_spec",
    "figure_outputs",
    "label_of",
    "mu_key",
    "wh_variants",
]
