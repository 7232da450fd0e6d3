"""The ``chapter3-*`` sub-commands (Figure 3.1 of Valizadegan 2010): argument parsing only;
each handler imports the code it runs (:mod:`.jobs`, :mod:`.figure`) when it runs."""

from __future__ import annotations

import argparse

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter3.spec import (
    BASELINES_COMPARED,
    BY_KEY,
    EVALUATE,
    FIGURE,
    QRELS,
    TIE_BREAKS,
    TRAIN,
)


def _train(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter3.jobs import train_fold
    from boostrank.io import json_object

    if not len(a.fold) == len(a.run) == len(a.record):
        raise BoostrankError("chapter3-train: give one --run and one --record per --fold")
    for fold, run, record in zip(a.fold, a.run, a.record, strict=True):
        train_fold(
            a.dataset,
            a.algorithm,
            fold,
            a.npz,
            a.meta,
            json_object(a.params),
            a.seed,
            run,
            record,
            a.replicate,
        )


def _qrels(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter3.jobs import write_fold_qrels

    write_fold_qrels(a.npz, a.folds, a.out)


def _evaluate(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter3.jobs import evaluate_dataset

    evaluate_dataset(
        a.dataset,
        a.meta,
        a.runs,
        a.qrels,
        a.folds,
        a.k_max,
        a.formula,
        a.out,
        a.seed,
        a.samples,
        a.replicates,
    )


def _figure(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter3.figure import make_figure

    make_figure(
        a.evaluations,
        a.claims,
        a.tolerance,
        a.csv,
        a.summary,
        a.figure_prefix,
        a.table_prefix,
        a.letor_published,
        a.tie_break,
        a.samples,
        a.samples_out,
        a.seed,
        a.baselines_compared,
        a.compared,
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter3-*`` sub-commands (Figure 3.1, its table and results CSVs)."""
    p = subparsers.add_parser(TRAIN.command, help="Figure 3.1: one algorithm on one fold")
    p.add_argument("--dataset", required=True)
    p.add_argument("--algorithm", required=True, choices=sorted(BY_KEY))
    p.add_argument("--fold", type=int, nargs="+", required=True, help="one or more folds")
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--params", required=True, help="constructor arguments as JSON")
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--replicate", type=int, default=1, help="1, 2, ... (config replicates)")
    p.add_argument("--run", nargs="+", required=True, help="TREC run file of each fold's test")
    p.add_argument("--record", nargs="+", required=True, help="JSON record of each fold")
    p.set_defaults(func=_train)

    p = subparsers.add_parser(QRELS.command, help="Figure 3.1: qrels of each fold's test part")
    p.add_argument("--npz", required=True)
    p.add_argument("--folds", type=int, nargs="+", required=True)
    p.add_argument("--out", nargs="+", required=True)
    p.set_defaults(func=_qrels)

    p = subparsers.add_parser(EVALUATE.command, help="Figure 3.1: NDCG@1..k of a data set")
    p.add_argument("--dataset", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--runs", nargs="+", required=True)
    p.add_argument("--qrels", nargs="+", required=True)
    p.add_argument("--folds", type=int, nargs="+", required=True)
    p.add_argument("--k-max", type=int, default=10)
    p.add_argument("--formula", choices=("letor", "report"), default="letor")
    p.add_argument("--seed", type=int, default=0, help="root seed of the random tie break")
    p.add_argument("--replicates", type=int, default=1, help="config chapter3.replicates")
    p.add_argument("--out", required=True)
    p.add_argument("--samples", help="every test query's NDCG@k (the claims' intervals)")
    p.set_defaults(func=_evaluate)

    p = subparsers.add_parser(FIGURE.command, help="Figure 3.1, its table and results CSVs")
    p.add_argument("--evaluations", nargs="+", required=True)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--tolerance", type=float, default=0.005)
    p.add_argument(
        "--tie-break", choices=TIE_BREAKS, default="file_order", help="drawn and claimed"
    )
    p.add_argument(
        "--baselines-compared",
        choices=BASELINES_COMPARED,
        default="published",
        help="the baseline values the comparative claims rank NDCG_Boost among",
    )
    p.add_argument("--compared", help="CSV of the compared cells (samples beside it)")
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--table-prefix", required=True)
    p.add_argument(
        "--letor-published", default=None, help="provenance.json of the fetched letor3_baselines"
    )
    p.add_argument("--samples", nargs="*", default=[], help="the evaluations' per-query files")
    p.add_argument("--samples-out", help="their rows under the drawn tie break, in one file")
    p.add_argument("--seed", type=int, default=0, help="root seed of the drawn intervals")
    p.set_defaults(func=_figure)


__all__ = ["register"]
