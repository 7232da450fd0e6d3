"""The ``docan-*`` commands of the document-analysis report (Sengupta 2018): the Reuters-21578
jobs (``docan-fig4``, ``docan-clustering``, ``docan-knn``, ``docan-forest``, ``docan-plot``,
``docan-table1``) and the LETOR ranking tables (``docan-ranking-fold``, ``docan-ranking-merge``,
``docan-ranking-toy``, ``docan-ranking-demo``)."""

from __future__ import annotations

import argparse
from pathlib import Path

# --------------------------------------------------------------------------- Reuters-21578


def _cmd_fig4(args: argparse.Namespace) -> None:
    from boostrank.experiments.docan.figure import figure4
    from boostrank.experiments.docan.jobs import topic_frequency_table

    counts = topic_frequency_table(
        args.raw_dir, top_n=args.top_topics, counting=args.topic_counting
    )
    figure4(
        counts,
        args.provenance,
        args.claims,
        args.csv,
        args.figure_prefix,
        top_n=args.top_topics,
        counting=args.topic_counting,
    )


def _cmd_clustering(args: argparse.Namespace) -> None:
    from boostrank.experiments.docan.jobs import clustering_curves

    clustering_curves(
        args.corpus,
        args.meta,
        args.csv,
        seed=args.seed,
        k_max=args.k_max,
        n_init=args.n_init,
        svd_dim=args.svd_dim,
        gmm_max=args.gmm_max,
        covariance=args.covariance,
    )


def _cmd_knn(args: argparse.Namespace) -> None:
    from boostrank.experiments.docan.jobs import knn_curve

    knn_curve(
        args.corpus,
        args.meta,
        args.csv,
        metric=args.metric,
        ks=list(range(args.k_min, args.k_max + 1, args.k_step)),
        samples=args.samples,
    )


def _cmd_forest(args: argparse.Namespace) -> None:
    from boostrank.experiments.docan.jobs import random_forest_accuracy

    random_forest_accuracy(
        args.corpus,
        args.meta,
        args.csv,
        seed=args.seed,
        n_estimators=args.n_estimators,
        max_features=args.max_features,
        min_samples_leaf=args.min_samples_leaf,
        n_jobs=args.n_jobs,
        samples=args.samples,
        replicate=args.replicate,
    )


def _cmd_forest_merge(args: argparse.Namespace) -> None:
    from boostrank.experiments.docan.jobs import merge_forest_replicates

    merge_forest_replicates(args.replicates, args.replicate_samples, args.csv, args.samples)


def _cmd_plot(args: argparse.Namespace) -> None:
    from boostrank.experiments.docan.figure import plot_figure5, plot_knn

    if args.figure == "fig5":
        plot_figure5(args.csv, args.claims, args.figure_prefix)
    else:
        plot_knn(args.csv, args.claims, args.figure_prefix)


def _cmd_table1(args: argparse.Namespace) -> None:
    from boostrank.experiments.docan.figure import table1

    table1(args.results, args.claims, args.out_prefix)


# --------------------------------------------------------------------------- LETOR ranking


def _cmd_ranking_fold(a: argparse.Namespace) -> None:
    from boostrank.experiments.docan.jobs_ranking import run_fold
    from boostrank.io import json_object

    run_fold(a.table, a.fold, a.meta, json_object(a.settings), a.seed, a.out)


def _cmd_ranking_merge(a: argparse.Namespace) -> None:
    from boostrank.experiments.docan.figure import merge

    merge(a.table, a.inputs, a.claims, a.out_prefix)


def _cmd_ranking_toy(a: argparse.Namespace) -> None:
    from boostrank.experiments.docan.figure import write_toy_table
    from boostrank.experiments.docan.jobs_ranking import run_toy
    from boostrank.io import json_object

    write_toy_table(run_toy(json_object(a.settings), a.seed), a.claims, a.out_prefix)


def _cmd_ranking_demo(a: argparse.Namespace) -> None:
    from boostrank.experiments.docan.figure import write_demo_table
    from boostrank.experiments.docan.jobs_ranking import run_demo
    from boostrank.io import json_object

    write_demo_table(run_demo(json_object(a.settings)), a.claims, a.out_prefix)


def _register_reuters(sub: argparse._SubParsersAction) -> None:
    """Add the ``docan-*`` sub-commands of the Reuters-21578 experiments."""

    def corpus_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--corpus", type=Path, required=True, help="reuters-corpus .npz")
        p.add_argument("--meta", type=Path, required=True, help="its .json sidecar")
        p.add_argument("--csv", type=Path, required=True, help="results CSV to write")

    p = sub.add_parser("docan-fig4", help="docan Figure 4: Reuters-21578 topic frequencies")
    p.add_argument("--raw-dir", type=Path, required=True)
    p.add_argument("--provenance", type=Path, required=True)
    p.add_argument("--claims", type=Path, default=Path("config/claims.yaml"))
    p.add_argument("--csv", type=Path, required=True)
    p.add_argument("--figure-prefix", type=Path, required=True, help="writes .png and .pdf")
    p.add_argument("--top-topics", type=int, default=10)
    p.add_argument("--topic-counting", choices=("tags", "documents", "first"), default="tags")
    p.set_defaults(func=_cmd_fig4)

    p = sub.add_parser("docan-clustering", help="docan Figure 5 numbers: K-means WSS, GMM AIC/BIC")
    corpus_args(p)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--k-max", type=int, default=15)
    p.add_argument("--n-init", type=int, default=5)
    p.add_argument("--svd-dim", type=int, default=50)
    p.add_argument("--gmm-max", type=int, default=15)
    p.add_argument("--covariance", choices=("full", "tied", "diag", "spherical"), default="diag")
    p.set_defaults(func=_cmd_clustering)

    p = sub.add_parser("docan-knn", help="docan Figures 6/7 numbers: k-NN accuracy against k")
    corpus_args(p)
    p.add_argument("--metric", choices=("cosine", "euclidean"), required=True)
    p.add_argument("--k-min", type=int, default=1)
    p.add_argument("--k-max", type=int, default=101)
    p.add_argument("--k-step", type=int, default=2)
    p.add_argument("--samples", type=Path, help="each test document's result at the best k")
    p.set_defaults(func=_cmd_knn)

    p = sub.add_parser("docan-forest", help="docan random forest: train/OOB/test accuracy")
    corpus_args(p)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--n-estimators", type=int, default=500)
    p.add_argument("--max-features", default="sqrt")
    p.add_argument("--min-samples-leaf", type=int, default=1)
    p.add_argument("--n-jobs", type=int, default=1)
    p.add_argument("--samples", type=Path, help="whether each document was classified right")
    p.add_argument("--replicate", type=int, default=1, help="1, 2, ... (its own seed)")
    p.set_defaults(func=_cmd_forest)

    p = sub.add_parser("docan-forest-merge", help="docan random forest: mean over replicates")
    p.add_argument("--replicates", type=Path, nargs="+", required=True, help="results CSVs")
    p.add_argument("--replicate-samples", type=Path, nargs="+", required=True)
    p.add_argument("--csv", type=Path, required=True)
    p.add_argument("--samples", type=Path, required=True)
    p.set_defaults(func=_cmd_forest_merge)

    p = sub.add_parser("docan-plot", help="draw docan Figure 5, 6 or 7 from its results CSV")
    p.add_argument("figure", choices=("fig5", "fig6", "fig7"))
    p.add_argument("--csv", type=Path, required=True)
    p.add_argument("--claims", type=Path, default=Path("config/claims.yaml"))
    p.add_argument("--figure-prefix", type=Path, required=True, help="writes .png and .pdf")
    p.set_defaults(func=_cmd_plot)

    p = sub.add_parser("docan-table1", help="docan random-forest table from its results CSV")
    p.add_argument("--results", type=Path, required=True)
    p.add_argument("--claims", type=Path, default=Path("config/claims.yaml"))
    p.add_argument("--out-prefix", type=Path, required=True)
    p.set_defaults(func=_cmd_table1)


def _register_ranking(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``docan-ranking-*`` sub-commands."""
    from boostrank.experiments.docan.spec import LETOR_TABLES

    p = subparsers.add_parser(
        "docan-ranking-fold", help="one LETOR fold of a ranking table (docan-table2..6)"
    )
    p.add_argument("table", choices=sorted(LETOR_TABLES))
    p.add_argument("--fold", type=int, required=True)
    p.add_argument(
        "--meta",
        nargs="+",
        required=True,
        help="processed sidecars of mq2007 and mq2008 (the .npz beside each)",
    )
    p.add_argument("--settings", required=True, help="the table's settings as JSON")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=_cmd_ranking_fold)

    p = subparsers.add_parser(
        "docan-ranking-merge", help="merge the folds of a ranking table into its outputs"
    )
    p.add_argument("table", choices=sorted(LETOR_TABLES))
    p.add_argument("--inputs", nargs="+", required=True)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--out-prefix", required=True)
    p.set_defaults(func=_cmd_ranking_merge)

    p = subparsers.add_parser("docan-ranking-toy", help="Table 7: the toy example")
    p.add_argument("--settings", required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--out-prefix", required=True)
    p.set_defaults(func=_cmd_ranking_toy)

    p = subparsers.add_parser("docan-ranking-demo", help="Table 8: the 2-D pairwise demo")
    p.add_argument("--settings", required=True)
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--out-prefix", required=True)
    p.set_defaults(func=_cmd_ranking_demo)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add every ``docan-*`` sub-command (Reuters-21578 first, then the ranking tables)."""
    _register_reuters(subparsers)
    _register_ranking(subparsers)


__all__ = ["register"]
