"""The ``qbrank-*`` sub-commands (Table 1 and Figure 1 of Zheng et al. 2007): argument parsing
only; each handler imports the code it runs (:mod:`.jobs`, :mod:`.figure`) when it runs."""

from __future__ import annotations

import argparse

from boostrank.experiments.qbrank.spec import BY_KEY, FIGURE, TRAIN


def _train(a: argparse.Namespace) -> None:
    from boostrank.experiments.qbrank.jobs import train_model
    from boostrank.io import json_object

    train_model(
        a.dataset,
        a.model,
        a.split,
        a.npz,
        a.meta,
        json_object(a.params),
        a.seed,
        a.out,
        a.record,
        a.queries,
    )


def _figure(a: argparse.Namespace) -> None:
    from boostrank.experiments.qbrank.figure import make_outputs
    from boostrank.io import json_object

    make_outputs(
        a.inputs,
        a.claims,
        a.table_trees,
        json_object(a.trees),
        a.ties,
        a.table_csv,
        a.table_summary,
        a.figure_csv,
        a.figure_summary,
        a.table_prefix,
        a.figure_prefix,
        a.queries,
        a.figure_samples,
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``qbrank-*`` sub-commands (Table 1 and Figure 1 of Zheng et al. 2007)."""
    p = subparsers.add_parser(TRAIN.command, help="QBRank Table 1/Figure 1: one model, one split")
    p.add_argument("--dataset", required=True)
    p.add_argument("--model", required=True, choices=sorted(BY_KEY))
    p.add_argument("--split", type=int, required=True)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--params", required=True, help="config qbrank as JSON")
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--out", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--queries", help="each L3 query's DCG after each tree count")
    p.set_defaults(func=_train)

    p = subparsers.add_parser(FIGURE.command, help="QBRank Table 1, Figure 1 and their CSVs")
    p.add_argument("--inputs", nargs="+", required=True)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--table-trees", type=int, required=True)
    p.add_argument("--trees", required=True, help="config qbrank.trees as JSON (for the caption)")
    p.add_argument("--ties", required=True, help="config qbrank.ties (for the caption)")
    p.add_argument("--table-csv", required=True)
    p.add_argument("--table-summary", required=True)
    p.add_argument("--figure-csv", required=True)
    p.add_argument("--figure-summary", required=True)
    p.add_argument("--table-prefix", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--queries", nargs="*", default=[], help="the jobs' per-query DCG files")
    p.add_argument("--figure-samples", help="Figure 1's samples (each query's DCG)")
    p.set_defaults(func=_figure)


__all__ = ["register"]
