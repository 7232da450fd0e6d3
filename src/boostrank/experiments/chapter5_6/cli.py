"""The ``chapter5-*`` commands (Valizadegan 2010, chapters 5-6): the run jobs, the eta sweep
and the figures. argparse only: each handler imports the work's parts when it runs."""

from __future__ import annotations

import argparse


def _floats(text: str) -> list[float]:
    return [float(v) for v in text.split(",") if v.strip()]


def _run(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter5_6.jobs import run_method

    run_method(
        a.figure,
        a.dataset,
        a.method,
        a.npz,
        a.meta,
        a.runs,
        a.seed,
        a.out,
        gammas=a.gammas,
        sweep=a.sweep,
        n_points=a.points,
        max_trials=a.max_trials,
        scaling=a.scaling,
        options={
            "importance": a.importance,
            "eta_factor": a.eta_factor,
            "lam1": a.lam1,
            "lam2": a.lam2,
        },
        finals_out=a.finals,
    )


def _eta_sweep(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter5_6.jobs import eta_sweep

    eta_sweep(
        a.dataset,
        a.npz,
        a.meta,
        a.factors,
        a.input_scales,
        a.gammas,
        a.runs,
        a.seed,
        a.out,
        a.max_trials,
        a.importance,
    )


def _figure(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter5_6.figure import make_figure

    make_figure(
        a.figure,
        a.inputs,
        a.csv,
        a.summary,
        a.figure_prefix,
        a.tolerance,
        a.claims,
        finals=a.finals,
        samples=a.samples,
    )


def _eta_figure(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter5_6.figure import eta_sweep_figure

    eta_sweep_figure(a.inputs, a.csv, a.figure_prefix)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter5-*`` sub-commands (Figures 5.1, 5.2, 6.1, 6.2, the eta sweep)."""
    from boostrank.experiments.chapter5_6.spec import FIGURES, IMPORTANCE, INPUT_SCALES, METHODS

    p = subparsers.add_parser(
        "chapter5-eta-sweep", help="supplementary: the exponential gradient's step factor"
    )
    p.add_argument("--dataset", required=True)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--factors", type=_floats, required=True, help="comma-separated factors")
    p.add_argument("--input-scales", nargs="+", choices=INPUT_SCALES, default=list(INPUT_SCALES))
    p.add_argument("--gammas", type=_floats, required=True)
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--max-trials", type=int, default=None)
    p.add_argument("--importance", choices=IMPORTANCE, default="printed")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_eta_sweep)

    p = subparsers.add_parser("chapter5-run", help="chapters 5-6: R runs of one online learner")
    p.add_argument("--figure", required=True, help="figure family the runs belong to")
    p.add_argument("--dataset", required=True)
    p.add_argument("--method", required=True, choices=METHODS)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--gammas", type=_floats, default=[], help="comma-separated gamma grid")
    p.add_argument("--sweep", help="Banditron sweep CSV (banditron_best_worst)")
    p.add_argument("--points", type=int, default=100, help="checkpoints recorded")
    p.add_argument("--max-trials", type=int, default=None)
    p.add_argument("--scaling", choices=("none", "global", "row"), default="none")
    p.add_argument("--importance", choices=IMPORTANCE, default="printed")
    p.add_argument("--eta-factor", type=float, default=1e-5)
    p.add_argument("--lam1", type=float, default=0.1)
    p.add_argument("--lam2", type=float, default=0.1)
    p.add_argument("--out", required=True)
    p.add_argument("--finals", help="each run's final error (the claims' samples)")
    p.set_defaults(func=_run)

    p = subparsers.add_parser("chapter5-eta-figure", help="supplementary: the eta sweep figure")
    p.add_argument("--inputs", nargs="+", required=True)
    p.add_argument("--csv", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.set_defaults(func=_eta_figure)

    p = subparsers.add_parser("chapter5-figure", help="Figure 5.1, 5.2, 6.1 or 6.2 and its CSVs")
    p.add_argument("figure", choices=FIGURES)
    p.add_argument("--inputs", nargs="+", required=True, help="the run CSVs")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--tolerance", type=float, default=0.01)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--finals", nargs="*", default=[], help="the runs' per-run final errors")
    p.add_argument("--samples", help="the summary's samples (each run's value)")
    p.set_defaults(func=_figure)


__all__ = ["register"]
