"""The ``prank-*`` commands (Figures 6 and 7 of Crammer & Singer 2005): one job per figure runs
its learners, then writes its CSVs and draws it. argparse only: each handler imports the
work's parts when it runs."""

from __future__ import annotations

import argparse


def _fig6(a: argparse.Namespace) -> None:
    from boostrank.experiments.prank.figure import make_fig6
    from boostrank.experiments.prank.jobs import run_fig6
    from boostrank.io import json_object

    settings = json_object(a.params)
    result = run_fig6(settings, a.seed)
    make_fig6(result, settings, a.seed, a.csv, a.summary, a.figure_prefix, a.samples)


def _fig7(a: argparse.Namespace) -> None:
    from boostrank.experiments.prank.figure import make_fig7
    from boostrank.experiments.prank.jobs import run_fig7_file
    from boostrank.io import json_object

    settings = json_object(a.params)
    result, meta = run_fig7_file(a.npz, a.meta, settings, a.seed)
    make_fig7(result, settings, meta, a.csv, a.summary, a.figure_prefix, a.samples)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``prank-*`` sub-commands (Figures 6 and 7 of Crammer & Singer 2005)."""
    p = subparsers.add_parser("prank-fig6", help="PRank Figure 6: synthetic data")
    p.add_argument("--params", required=True, help="config prank.fig6 as JSON")
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--samples", help="each run's final loss (the claims' samples)")
    p.set_defaults(func=_fig6)

    p = subparsers.add_parser("prank-fig7", help="PRank Figure 7: MovieLens 100K (for EachMovie)")
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--params", required=True, help="config prank.fig7 as JSON")
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--samples", help="each run's final loss (the claims' samples)")
    p.set_defaults(func=_fig7)


__all__ = ["register"]
