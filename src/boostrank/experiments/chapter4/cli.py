"""The ``chapter4-*`` sub-commands (Figures 4.1-4.6 of Valizadegan 2010): argument parsing
only; each handler imports the code it runs (:mod:`.jobs_base`, :mod:`.jobs_feedback`,
:mod:`.jobs_objective`, :mod:`.jobs_movies`, :mod:`.figure`) when it runs."""

from __future__ import annotations

import argparse

from boostrank.experiments.chapter4.spec import FAMILIES, MOVIE_FAMILIES


def _base_rankers(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter4.jobs_base import select_base_rankers

    select_base_rankers(a.dataset, a.npz, a.meta, a.k_max, a.formula, a.max_queries, a.out)


def _feedback(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter4.jobs_feedback import feedback_job
    from boostrank.io import json_object

    _check_replicate(a)
    feedback_job(
        a.dataset,
        a.family,
        a.npz,
        a.meta,
        a.base_rankers,
        json_object(a.params),
        a.seed,
        a.out,
        a.record,
        a.queries,
        replicate=a.replicate,
        replicate_files=a.replicate_files,
    )


def _objective(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter4.jobs_objective import objective_job
    from boostrank.io import json_object

    objective_job(
        a.dataset,
        a.npz,
        a.meta,
        a.base_rankers,
        json_object(a.params),
        a.iterations,
        a.seed,
        a.out,
    )


def _movies(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter4.jobs_movies import movies_job
    from boostrank.io import json_object

    _check_replicate(a)
    movies_job(
        a.family,
        a.npz,
        a.meta,
        json_object(a.params),
        a.seed,
        a.out,
        a.record,
        a.timing,
        a.queries,
        replicate=a.replicate,
        replicate_files=a.replicate_files,
    )


def _figure(a: argparse.Namespace) -> None:
    from boostrank.experiments.chapter4.figure import make_figure

    make_figure(
        a.figure,
        a.inputs,
        a.csv,
        a.summary,
        a.prefix,
        a.evaluated,
        a.bin_width,
        a.claims,
        a.samples,
    )


def _check_replicate(a: argparse.Namespace) -> None:
    from boostrank.errors import BoostrankError

    if a.replicate < 1:
        raise BoostrankError(f"--replicate counts from 1, got {a.replicate}")
    if a.replicate == 1 and a.record is None:
        raise BoostrankError("replicate 1 writes the results: give --record")
    if a.replicate > 1 and a.replicate_files:
        raise BoostrankError("only replicate 1 reads the other replicates' --replicate-files")


def _replicate_options(p: argparse.ArgumentParser) -> None:
    """A family job's replicate (config ``chapter4.replicates``): replicate 1 writes the
    results, averaged with the other replicates' files; replicate r >= 2 writes an .npz."""
    p.add_argument("--replicate", type=int, default=1, help="1, 2, ...: r >= 2 writes --out npz")
    p.add_argument(
        "--replicate-files", nargs="*", default=[], help="replicate 1: the other replicates' npz"
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter4-*`` sub-commands (Figures 4.1-4.6)."""
    p = subparsers.add_parser("chapter4-base-rankers", help="Chapter 4: choose the base rankers")
    p.add_argument("--dataset", required=True)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--k-max", type=int, default=25)
    p.add_argument("--formula", choices=("letor", "report"), default="letor")
    p.add_argument("--max-queries", type=int, default=None)
    p.add_argument("--out", required=True)
    p.set_defaults(func=_base_rankers)

    p = subparsers.add_parser("chapter4-feedback", help="Figures 4.2-4.4: one method family")
    p.add_argument("--dataset", required=True)
    p.add_argument("--family", required=True, choices=FAMILIES)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--base-rankers", required=True)
    p.add_argument("--params", required=True, help="config chapter4 as JSON")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True, help="the rows (replicate 1) or the curves (.npz)")
    p.add_argument("--record", help="replicate 1: the job's JSON record")
    p.add_argument("--queries", help="each query's mean NDCG@1..k (the claims' samples)")
    _replicate_options(p)
    p.set_defaults(func=_feedback)

    p = subparsers.add_parser("chapter4-objective", help="Figure 4.1: L_p per iteration")
    p.add_argument("--dataset", required=True)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--base-rankers", required=True)
    p.add_argument("--params", required=True)
    p.add_argument("--iterations", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=_objective)

    p = subparsers.add_parser("chapter4-movies", help="Figures 4.5-4.6: one method family")
    p.add_argument("--family", required=True, choices=MOVIE_FAMILIES)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--params", required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True, help="the rows (replicate 1) or the curves (.npz)")
    p.add_argument("--record", help="replicate 1: the job's JSON record")
    p.add_argument("--timing", default=None)
    p.add_argument("--queries", help="each user's mean NDCG@1..k (the claims' samples)")
    _replicate_options(p)
    p.set_defaults(func=_movies)

    p = subparsers.add_parser("chapter4-figure", help="Figures 4.1-4.6: draw one figure")
    p.add_argument("--figure", required=True)
    p.add_argument("--inputs", nargs="+", required=True)
    p.add_argument("--csv", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--evaluated", default="all")
    p.add_argument("--bin-width", type=int, default=50, help="Figure 4.6: movies per group")
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--samples", help="each query's value of the summary's differences")
    p.set_defaults(func=_figure)


__all__ = ["register"]
