"""The ``table`` command: compute Table 1.1 or 1.2 (the data sets) from processed sidecars; the
``letor-features`` command: Table 1.3 (OHSUMED's features rebuilt from Meta/ and checked)."""

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


def _cmd_letor_features(args: argparse.Namespace) -> None:
    from boostrank.experiments.datasets.figure_letor import make_table1_3
    from boostrank.experiments.datasets.jobs_letor import rebuild

    check = rebuild(args.raw_dir, args.npz, args.meta, args.out_npz, args.out_meta)
    make_table1_3(check, args.table_prefix, args.summary)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``table`` sub-command (Tables 1.1 and 1.2) and ``letor-features`` (Table 1.3)."""
    p = subparsers.add_parser(
        "table", help="compute a data-set table (thesis-table1_1, thesis-table1_2)"
    )
    p.add_argument("table")
    p.add_argument("--meta", nargs="+", required=True, help="processed sidecars, in row order")
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--out-prefix", required=True)
    p.set_defaults(func=_cmd_table)

    p = subparsers.add_parser(
        "letor-features",
        help="rebuild LETOR 3.0 OHSUMED's 45 features from Meta/ and check them (Table 1.3)",
    )
    p.add_argument("--raw-dir", required=True, help="data/raw/ohsumed")
    p.add_argument("--npz", required=True, help="the distributed features (row order, parts)")
    p.add_argument("--meta", required=True, help="their sidecar")
    p.add_argument("--out-npz", required=True)
    p.add_argument("--out-meta", required=True)
    p.add_argument("--table-prefix", required=True)
    p.add_argument("--summary", required=True, help="CSV with the number of features that agree")
    p.set_defaults(func=_cmd_letor_features)
