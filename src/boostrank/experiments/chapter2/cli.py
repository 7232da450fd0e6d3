"""The ``chapter2-*`` commands (Figures 2.1-2.3): ``chapter2-run`` (one method on one data
set) and ``chapter2-figure`` (merge, plot, summarise)."""

from __future__ import annotations

import argparse


def _rows(text: str) -> int | None:
    return None if text in ("", "0", "none", "null", "None") else int(text)


def _run(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter2.jobs import run_job
    from boostrank.io import json_object

    run_job(
        a.figure,
        a.dataset,
        a.method,
        a.npz,
        a.meta,
        a.fractions,
        a.C,
        a.depths,
        a.repeats,
        a.parts,
        a.rows,
        json_object(a.params),
        a.seed,
        a.out,
        a.labelled_sample,
    )


def _figure(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter2.figure import make_figure
    from boostrank.io import json_object

    options = json_object(a.options)
    make_figure(a.figure, a.runs, a.csv, a.summary, a.figure_prefix, options, a.seed)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter2-*`` sub-commands (Figures 2.1-2.3)."""
    from boostrank.experiments.chapter2.spec import BY_KEY, FIGURES, LABELLED_SAMPLES

    p = subparsers.add_parser("chapter2-run", help="Figures 2.1-2.3: one method on one data set")
    p.add_argument("--figure", required=True, choices=FIGURES)
    p.add_argument("--dataset", required=True)
    p.add_argument("--method", required=True, choices=sorted(BY_KEY))
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--fractions", type=float, nargs="+", required=True, help="% labelled")
    p.add_argument("--C", type=float, nargs="+", required=True)
    p.add_argument("--depths", nargs="+", required=True, help="tree depths or 'full'")
    p.add_argument("--repeats", type=int, required=True)
    p.add_argument("--parts", type=int, default=5)
    p.add_argument("--rows", type=_rows, default=None, help="stratified subset size (0: all)")
    p.add_argument("--params", required=True, help="constructor arguments as JSON")
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--labelled-sample", choices=LABELLED_SAMPLES, default="random")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_run)

    p = subparsers.add_parser("chapter2-figure", help="Figures 2.1-2.3: merge, plot, summarise")
    p.add_argument("--figure", required=True, choices=FIGURES)
    p.add_argument("--runs", nargs="+", required=True, help="run CSVs of chapter2-run")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--options", default="{}", help="JSON: tolerances of the summaries")
    p.add_argument("--seed", type=int, required=True, help="seeds the bands' bootstrap")
    p.set_defaults(func=_figure)
