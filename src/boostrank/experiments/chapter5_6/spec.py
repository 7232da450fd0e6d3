"""What chapters 5 and 6 run (Valizadegan 2010, sections 5.4 and 6.4): the methods, the data
sets, the figure ids, the config keys each job reads and the package modules each job runs
(the roots of its Snakemake ``code()`` inputs). Imports no other part of the work."""

from __future__ import annotations

from boostrank.experiments.common import Job

SOURCE = "Valizadegan (2010), chapters 5 and 6"
# Table 1.1's data sets, in the order of the text of section 6.1.
DATASETS = ("protein", "pendigits", "isolet", "nursery", "optdigits", "letter", "mnist")
FIGURES = ("thesis-fig5_1", "thesis-fig5_2", "thesis-fig6_1", "thesis-fig6_2")
SWEEP_METHODS = ("exp_gradient", "banditron", "banditron_pos")  # Figures 5.1, 5.2 (gamma grid)
ADAPTIVE = ("ag0", "ag1", "ag2", "ag3")  # Figure 6.2
METHODS = (*SWEEP_METHODS, "perceptron", *ADAPTIVE, "banditron_best_worst")
LABELS = {
    "exp_gradient": "Exp. gradient",
    "banditron": "Banditron",
    "banditron_pos": "Banditron_Pos",
    "perceptron": "Perceptron",
    "ag0": "Banditron_ag0",
    "ag1": "Banditron_ag1",
    "ag2": "Banditron_ag2",
    "ag3": "Banditron_ag3",
    "banditron_best": "Banditron_Best",
    "banditron_worst": "Banditron_Worst",
}

# The importance weight each algorithm's own box prints (config chapter5.importance "printed"):
# Algorithms 7 and 10 divide by p_{y~}, Algorithm 9 (Eq. 5.14) by p_{y_hat}.
PRINTED_IMPORTANCE = {"exp_gradient": "p_hat"}
IMPORTANCE = ("printed", "p_tilde", "p_hat")


def importance_of(method: str, importance: str) -> str:
    """The importance weight ``method`` uses under the config's ``importance``: its printed
    one for ``printed``, else the one named."""
    if importance == "printed":
        return PRINTED_IMPORTANCE.get(method, "p_tilde")
    return importance


# Supplementary to Figures 5.1/5.2: the exponential gradient's step factor.
ETA_SWEEP_FIGURE = "thesis-supp5_eta"
INPUT_SCALES = ("linf", "raw")


# --------------------------------------------------------------------------- jobs


# One job per (figure family, data set, method) (rules chapter5_sweep, chapter5_perceptron,
# chapter6_adaptive, chapter6_best_worst); its code also lists the method's learner modules
# (code_modules), so editing one learner reruns only its jobs.
RUN = Job(
    "chapter5-run",
    (
        "gammas",
        "runs",
        "runs_adaptive",
        "checkpoints",
        "scaling",
        "importance",
        "eta_factor",
        "omega_lambda",
        "max_trials",
    ),
    ("experiments.chapter5_6.jobs", "online.streams", "io"),
)
# The learner modules of each method's run job.
CODE = {
    "exp_gradient": ["online.exponential_gradient", "online.banditron"],
    "banditron": ["online.banditron"],
    "banditron_pos": ["online.banditron"],
    "perceptron": ["online.perceptron"],
    "banditron_best_worst": ["online.banditron"],
    **{r: ["online.banditron", "online.adaptive_exploration"] for r in ADAPTIVE},
}
# One job per figure (rule chapter5_figure); also reads the root config "claims" (Figure 6.1's
# published best gammas).
FIGURE = Job(
    "chapter5-figure", ("match_tolerance",), ("experiments.chapter5_6.figure", "plots", "io")
)
# Supplementary: one job per data set of eta_sweep, then one figure.
ETA_SWEEP = Job(
    "chapter5-eta-sweep",
    ("eta_sweep", "gammas", "importance", "max_trials"),
    (
        "experiments.chapter5_6.jobs",
        "online.streams",
        "online.exponential_gradient",
        "online.banditron",
        "io",
    ),
)
ETA_FIGURE = Job("chapter5-eta-figure", ("eta_sweep",), FIGURE.code)


def code_modules(method: str) -> list[str]:
    """Package modules a run job of ``method`` uses."""
    return [*RUN.code, *CODE[method]]


__all__ = [
    "ADAPTIVE",
    "CODE",
    "DATASETS",
    "ETA_FIGURE",
    "ETA_SWEEP",
    "ETA_SWEEP_FIGURE",
    "FIGURE",
    "FIGURES",
    "IMPORTANCE",
    "INPUT_SCALES",
    "LABELS",
    "METHODS",
    "PRINTED_IMPORTANCE",
    "RUN",
    "SOURCE",
    "SWEEP_METHODS",
    "Job",
    "code_modules",
    "importance_of",
]
