"""The ``table`` command: compute Table 1.1 or 1.2 (the data sets) from processed sidecars."""

from __future__ import annotations

import argparse


def _cmd_table(args: argparse.Namespace) -> None:
    from boostrank.errors import BoostrankError
    from boostrank.experiments.datasets.figure import make_table
    from boostrank.experiments.datasets.jobs import read_metas
    from boostrank.experiments.datasets.spec import TABLES
    from boostrank.report.claims import load_claims

    if args.table not in TABLES:
        raise BoostrankError(f"unknown table '{args.table}'; known: {sorted(TABLES)}")
    metas = read_metas(args.meta)
    make_table(args.table, metas, load_claims(args.claims), args.out_prefix)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``table`` sub-command (Tables 1.1 and 1.2)."""
    p = subparsers.add_parser(
        "table", help="compute a data-set table (thesis-table1_1, thesis-table1_2)"
    )
    p.add_argument("table")
    p.add_argument("--meta", nargs="+", required=True, help="processed sidecars, in row order")
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--out-prefix", required=True)
    p.set_defaults(func=_cmd_table)
