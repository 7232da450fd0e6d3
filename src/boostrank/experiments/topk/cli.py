"""The ``topk-*`` commands (Table 1 and Figure 2 of Zhang, Jung & Tewari 2019): ``topk-split``
(a data set's train/test rows), ``topk-train`` (one booster, one seed), ``topk-table1`` and
``topk-fig2`` (merge the run records into the table and the figure)."""

from __future__ import annotations

import argparse


def _k_arg(text: str) -> int | None:
    return None if text in ("full", "all", "none") else int(text)


def _split(a: argparse.Namespace) -> None:
    from boostrank.experiments.topk.jobs import make_split
    from boostrank.experiments.topk.spec import TABLE_ID
    from boostrank.seeds import derive_seed

    make_split(
        a.dataset,
        a.npz,
        a.meta,
        a.raw_provenance,
        a.published,
        a.out,
        a.record,
        a.base_split,
        a.subsample,
        derive_seed(a.seed, TABLE_ID, a.dataset, "split", bits=63),
    )


def _train(a: argparse.Namespace) -> None:
    from boostrank.experiments.topk.jobs import train_run
    from boostrank.io import json_object

    train_run(
        a.dataset,
        a.algorithm,
        a.k,
        a.seed_index,
        a.npz,
        a.meta,
        a.split,
        json_object(a.params),
        a.seed,
        a.out,
    )


def _table1(a: argparse.Namespace) -> None:
    from boostrank.experiments.topk.figure import make_table1

    make_table1(a.runs, a.splits, a.claims, a.csv, a.summary, a.table_prefix, a.samples)


def _fig2(a: argparse.Namespace) -> None:
    from boostrank.experiments.topk.figure import make_figure2

    make_figure2(a.runs, a.tolerance, a.smooth, a.csv, a.summary, a.figure_prefix)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``topk-*`` sub-commands (Table 1 and Figure 2 of Zhang, Jung & Tewari)."""
    from boostrank.experiments.topk.spec import BY_KEY, DATASETS

    p = subparsers.add_parser("topk-split", help="Table 1: a data set's train/test rows")
    p.add_argument("--dataset", required=True, choices=DATASETS)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--raw-provenance", default=None)
    p.add_argument("--published", type=int, nargs=2, default=None, help="train test sizes")
    p.add_argument("--base-split", default=None, help="split of the data set it derives from")
    p.add_argument("--subsample", type=int, nargs=2, default=None, help="train test rows")
    p.add_argument("--seed", type=int, default=0, help="root seed (config 'seed')")
    p.add_argument("--out", required=True)
    p.add_argument("--record", required=True)
    p.set_defaults(func=_split)

    p = subparsers.add_parser("topk-train", help="Table 1 / Figure 2: one booster, one seed")
    p.add_argument("--dataset", required=True, choices=DATASETS)
    p.add_argument("--algorithm", required=True, choices=sorted(BY_KEY))
    p.add_argument("--k", type=_k_arg, required=True, help="top-k feedback, or 'full'")
    p.add_argument("--seed-index", type=int, required=True)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--split", required=True)
    p.add_argument("--params", required=True, help="config topk as JSON")
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_train)

    p = subparsers.add_parser("topk-table1", help="Table 1 of Zhang, Jung & Tewari (2019)")
    p.add_argument("--runs", nargs="+", required=True)
    p.add_argument("--splits", nargs="+", required=True, help="split records (JSON)")
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--table-prefix", required=True)
    p.add_argument("--samples", help="each seed's test loss (the claims' intervals)")
    p.set_defaults(func=_table1)

    p = subparsers.add_parser("topk-fig2", help="Figure 2 of Zhang, Jung & Tewari (2019)")
    p.add_argument("--runs", nargs="+", required=True)
    p.add_argument("--tolerance", type=float, default=0.02, help="'converged': within this")
    p.add_argument("--smooth", type=int, default=5, help="windows in the running mean")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.set_defaults(func=_fig2)


__all__ = ["register"]
