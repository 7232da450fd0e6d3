"""Figure 3.1 of Valizadegan (2010), *Boosting and Online Learning for Classification and
Ranking*, chapter 3 (section 3.4, "Experiments"): NDCG@1..10 of NDCG_Boost and LETOR 3.0's
baselines on the seven LETOR 3.0 data sets (OHSUMED, TD2003, TD2004, HP2003, HP2004, NP2003,
NP2004; section 1.6.2), each the mean over the five LETOR folds of the test queries' mean.

Protocol (section 3.4.1):

- Data: each data set's QueryLevelNorm features (``data/processed/<name>.npz``), parts S1..S5
  and LETOR's fold rotation (:func:`boostrank.data.folds.letor_fold_masks`). A data set that
  only a synthetic stand-in provides is labelled "[synthetic stand-in]" in every output, and
  its claims are NOT-COMPARABLE.
- Algorithms (:data:`ALGORITHMS`, one row each: name, import path, whether the validation part
  is passed): NDCG_Boost (100 iterations, decision stumps; the dissertation does *not* use the
  validation set for it), AdaRank-NDCG, Regression (least squares), RankSVM, FRank, ListNet and
  SVM-MAP (the baselines choose their hyper-parameters on the validation part, as LETOR's do),
  plus LambdaMART (LightGBM lambdarank), which the dissertation does not have: a dashed
  reference line. Constructor arguments come from config ``chapter3.algorithms``; every class
  is imported only in the job that trains it.
- One Snakemake job per (data set, algorithm, fold) trains on the fold's training part and
  writes the test ranking as a TREC run (:mod:`boostrank.metrics.trec`); the fold's qrels are
  written once per data set. The evaluation job of a data set re-reads the run files, so any
  external evaluator can re-score them.
- NDCG: config ``chapter3.ndcg_formula``, by default ``letor``, LETOR's own evaluation script
  (gain 2^r - 1, positions 1 and 2 undiscounted, ``1/log2(p)`` after, ties in file order, a
  query without relevant documents scores 0 and stays in the mean, a query shorter than k
  scores 0 at k; :mod:`boostrank.metrics.ranking`). The dissertation compares NDCG_Boost with
  the baselines LETOR publishes, which that script scored, so its measure keeps the comparison
  like for like; ``report`` is the ``1/log2(1 + p)`` form ``trec_eval`` computes.
- Ties: stump ensembles and threshold rankers give many equal scores. Each run is scored twice,
  with ties in file order (LETOR's script) and with a seeded random order of equal scores
  (``tie_break`` column), and carries the share of tied documents (``tied_share``); config
  ``chapter3.tie_break`` (default ``random``) is the one drawn and claimed.
- Seeds: every job's seed derives from config ``seed`` and (data set, algorithm, fold)
  (:func:`boostrank.seeds.derive_seed`); the same config gives the same numbers.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.common import letor_label
from boostrank.io import json_object
from boostrank.seeds import derive_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

log = logging.getLogger(__name__)

FIGURE_ID = "thesis-fig3_1"
SOURCE = "Valizadegan (2010), section 3.4.2, Figure 3.1"
DATASETS = ("ohsumed", "td2003", "td2004", "hp2003", "hp2004", "np2003", "np2004")
TABLE_KS = (1, 3, 5, 10)
TIE_BREAKS = ("random", "file_order")
RANKING_PACKAGE = "boostrank.ranking"


@dataclass(frozen=True)
class Algorithm:
    """One row of the algorithm table: how Figure 3.1 names, imports and trains a ranker."""

    key: str  # config key, Snakemake wildcard and directory name
    label: str  # the dissertation's name, the ``algorithm`` column of every output
    module: str  # module under boostrank.ranking
    cls: str  # class name in it
    validation: bool  # pass the fold's validation part to fit()
    reference: bool = False  # not in the dissertation: drawn dashed, left out of the ranks
    letor_name: str = ""  # the baseline's name in LETOR 3.0's published table (letor3_baselines)

    @property
    def import_path(self) -> str:
        """``boostrank.ranking.<module>:<Class>``."""
        return f"{RANKING_PACKAGE}.{self.module}:{self.cls}"


# name -> import path and whether fit() gets the validation part (section 3.4.1: LETOR's
# baselines choose their parameters on it, NDCG_Boost does not); LambdaMART is the reference.
ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm("ndcg_boost", "NDCG_Boost", "ndcg_boost", "NDCGBoost", validation=False),
    Algorithm(
        "adarank_ndcg",
        "AdaRank-NDCG",
        "adarank",
        "AdaRank",
        True,
        letor_name="AdaRank-NDCG",
    ),
    Algorithm("regression", "Regression", "linear", "LinearRanker", False, letor_name="Regression"),
    Algorithm("ranksvm", "RankSVM", "ranksvm", "RankSVM", True, letor_name="RankSVM"),
    Algorithm("frank", "FRank", "frank", "FRank", True, letor_name="FRank"),
    Algorithm("listnet", "ListNet", "listnet", "ListNet", True, letor_name="ListNet"),
    Algorithm("svm_map", "SVM_MAP", "svm_map", "SVMMAP", True, letor_name="SVMMAP"),
    Algorithm("lambdamart", "LambdaMART", "lambdamart", "LambdaMART", True, reference=True),
)
BY_KEY = {a.key: a for a in ALGORITHMS}


def get_algorithm(key: str) -> Algorithm:
    """The table row of ``key`` (a config key such as ``ndcg_boost``)."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown algorithm '{key}'; known: {sorted(BY_KEY)}") from None


def module_file(algorithm: Algorithm, src: Path | str | None = None) -> Path:
    """The source file of an algorithm's module (whether or not it exists yet)."""
    if src is None:
        src = Path(__file__).resolve().parents[1]  # src/boostrank
    return Path(src) / "ranking" / f"{algorithm.module}.py"


def available(src: Path | str | None = None) -> list[Algorithm]:
    """The algorithms whose module exists (checked without importing it)."""
    return [a for a in ALGORITHMS if module_file(a, src).is_file()]


def code_modules(algorithm: Algorithm, src: Path | str | None = None) -> list[str]:
    """The package modules an algorithm's module imports, transitively: the Snakemake inputs
    of its training jobs (:func:`boostrank.code_deps.imported_modules`)."""
    from boostrank.code_deps import imported_modules

    return imported_modules(f"ranking.{algorithm.module}", src=src)


def load_class(algorithm: Algorithm) -> type:
    """Import the algorithm's class (only the job that trains it pays for the import)."""
    module = importlib.import_module(f"{RANKING_PACKAGE}.{algorithm.module}")
    try:
        return getattr(module, algorithm.cls)
    except AttributeError:
        raise BoostrankError(f"{module.__name__} defines no class {algorithm.cls}") from None


def make_model(algorithm: Algorithm, params: dict[str, Any], seed: int) -> Any:
    """Instantiate the algorithm with its config arguments; a stochastic one (it takes
    ``random_state``, the package's one name for a seed) gets ``seed``."""
    cls = load_class(algorithm)
    accepted = inspect.signature(cls).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values())
    unknown = sorted(k for k in params if k not in accepted)
    if unknown and not takes_any:
        raise BoostrankError(
            f"config chapter3.algorithms.{algorithm.key}: {cls.__name__} takes no argument(s) "
            f"{unknown}; it takes {sorted(accepted)}"
        )
    if "random_state" in params:
        raise BoostrankError(
            f"config chapter3.algorithms.{algorithm.key} sets random_state; seeds derive from "
            "config 'seed' only"
        )
    kwargs = dict(params)
    if "random_state" in accepted:
        kwargs["random_state"] = seed
    return cls(**kwargs)


def fit_model(
    model: Any,
    algorithm: Algorithm,
    train: tuple[np.ndarray, np.ndarray, np.ndarray],
    validation: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> str | None:
    """``fit(X, y, qid)``, with ``validation=`` (the rankers' one protocol) where the algorithm
    uses the validation part. Returns ``"validation"`` when it was passed, else None (recorded in
    the job's JSON record)."""
    if algorithm.validation:
        model.fit(*train, validation=validation)
        return "validation"
    model.fit(*train)
    return None


# --------------------------------------------------------------------------- data
def load_arrays(npz: Path | str) -> dict[str, np.ndarray]:
    """The processed LETOR arrays (X, y, qid, part, docid) of a data set."""
    from boostrank.data.prepare import load_letor

    return load_letor(npz, ("part", "docid"))


def _scalar_attributes(model: Any) -> dict[str, Any]:
    """Fitted scalar attributes (``name_``) such as a validation-chosen C, for the job record."""
    out = {}
    for name, value in sorted(vars(model).items()):
        if name.endswith("_") and not name.startswith("_"):
            if isinstance(value, bool | int | float | str):
                out[name] = value
            elif hasattr(value, "item") and getattr(value, "size", 2) == 1:
                out[name] = value.item()
    return out


# --------------------------------------------------------------------------- jobs
def train_fold(
    dataset: str,
    algorithm_key: str,
    fold: int,
    npz: Path | str,
    meta_path: Path | str,
    params: dict[str, Any],
    seed: int,
    run_path: Path | str,
    record_path: Path | str,
) -> dict[str, Any]:
    """Train one algorithm on one LETOR fold; write the test run and a JSON record (arguments,
    seed, row counts, fitted scalars such as a validation-chosen C, provenance)."""
    import numpy as np

    from boostrank.data.folds import letor_fold_masks
    from boostrank.io import read_json, write_json
    from boostrank.metrics.trec import write_run

    algorithm = get_algorithm(algorithm_key)
    meta = read_json(meta_path)
    data = load_arrays(npz)
    train, valid, test = letor_fold_masks(data["part"], fold)
    if not (train.any() and valid.any() and test.any()):
        raise BoostrankError(f"{dataset} fold {fold}: an empty train, validation or test part")

    def part(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (
            data["X"][mask].astype(np.float64),
            data["y"][mask].astype(np.int64),
            data["qid"][mask],
        )

    s = derive_seed(seed, FIGURE_ID, dataset, algorithm.key, fold)
    started = time.perf_counter()
    model = make_model(algorithm, params, s)
    used = fit_model(model, algorithm, part(train), part(valid))
    fitted = time.perf_counter()
    X_test = data["X"][test].astype(np.float64)
    scores = np.asarray(model.predict(X_test), dtype=np.float64).ravel()
    if scores.shape != (int(test.sum()),) or not np.isfinite(scores).all():
        raise BoostrankError(f"{algorithm.label} on {dataset} fold {fold}: bad test scores")
    tag = f"{algorithm.key}.{dataset}.fold{fold}"
    write_run(run_path, data["qid"][test], data["docid"][test], scores, tag)
    record = {
        "figure": FIGURE_ID,
        "dataset": dataset,
        "dataset_file": meta["dataset"],
        "algorithm": algorithm.label,
        "algorithm_id": algorithm.key,
        "class": algorithm.import_path,
        "fold": fold,
        "params": params,
        "seed": s,
        "validation_used": used is not None,
        "rows": {
            k: int(m.sum()) for k, m in (("train", train), ("validation", valid), ("test", test))
        },
        "fitted": _scalar_attributes(model),
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    write_json(record_path, record)  # deterministic: the timings go to the log
    log.info(
        "%s on %s fold %d: fit %.2f s, predict and write %.2f s (seed %d)",
        algorithm.label,
        dataset,
        fold,
        fitted - started,
        time.perf_counter() - fitted,
        s,
    )
    return record


def write_fold_qrels(npz: Path | str, folds: Sequence[int], out: Sequence[Path | str]) -> None:
    """The qrels of each fold's test part (one file per fold, in ``folds`` order)."""
    from boostrank.data.folds import letor_fold_masks
    from boostrank.metrics.trec import write_qrels

    if len(folds) != len(out):
        raise BoostrankError(f"{len(folds)} folds but {len(out)} qrels paths")
    data = load_arrays(npz)
    for fold, path in zip(folds, out, strict=True):
        test = letor_fold_masks(data["part"], int(fold))[2]
        write_qrels(path, data["qid"][test], data["docid"][test], data["y"][test])


def evaluate_dataset(
    dataset: str,
    meta_path: Path | str,
    runs: Sequence[Path | str],
    qrels: Sequence[Path | str],
    folds: Sequence[int],
    k_max: int,
    formula: str,
    out: Path | str,
    seed: int = 0,
) -> pd.DataFrame:
    """NDCG@1..k_max of every run of one data set under each tie break (:data:`TIE_BREAKS`):
    per fold (mean over the test queries) and the mean and sd over the folds, with the share
    of tied documents. Run paths end ``<algorithm>/fold<k>.run``."""
    import numpy as np
    import pandas as pd

    from boostrank.io import read_json, write_text
    from boostrank.metrics.trec import (
        evaluate_run,
        random_tie_break,
        read_qrels,
        read_run,
        tied_share,
    )

    meta = read_json(meta_path)
    qrels_by_fold = {int(f): read_qrels(p) for f, p in zip(folds, qrels, strict=True)}
    rows = []
    for path in runs:
        path = Path(path)
        algorithm = get_algorithm(path.parent.name)
        fold = int(path.stem.removeprefix("fold"))
        if fold not in qrels_by_fold:
            raise BoostrankError(f"{path}: no qrels given for fold {fold}")
        qrels_f = qrels_by_fold[fold]
        run = read_run(path)
        tied = tied_share(run)
        rel_q = np.unique(qrels_f.qid[qrels_f.rel >= 1])
        for tie_break in TIE_BREAKS:
            ranked = run
            if tie_break == "random":
                ranked = random_tie_break(
                    run, derive_seed(seed, FIGURE_ID, dataset, f"{algorithm.key}:ties", fold)
                )
            _, curve = evaluate_run(ranked, qrels_f, k_max, formula=formula)  # type: ignore[arg-type]
            for k in range(1, k_max + 1):
                rows.append(
                    {
                        "dataset": dataset,
                        "algorithm": algorithm.label,
                        "algorithm_id": algorithm.key,
                        "tie_break": tie_break,
                        "fold": str(fold),
                        "k": k,
                        "ndcg": float(curve[:, k - 1].mean()),
                        "tied_share": round(tied, 6),
                        "queries": int(curve.shape[0]),
                        "queries_without_relevant": int(curve.shape[0] - len(rel_q)),
                    }
                )
    per_fold = pd.DataFrame(rows)
    if per_fold.empty:
        raise BoostrankError(f"{dataset}: no run files to evaluate")
    grouped = per_fold.groupby(["algorithm_id", "tie_break", "k"], sort=False)
    means = grouped.agg(
        algorithm=("algorithm", "first"),
        ndcg=("ndcg", "mean"),
        sd=("ndcg", lambda v: float(v.std(ddof=1)) if len(v) > 1 else float("nan")),
        tied_share=("tied_share", "mean"),
        n_folds=("ndcg", "size"),
        queries=("queries", "sum"),
        queries_without_relevant=("queries_without_relevant", "sum"),
    ).reset_index()
    means.insert(0, "dataset", dataset)
    means["fold"] = "mean"
    table = pd.concat([per_fold, means], ignore_index=True)
    table["ndcg"] = table["ndcg"].round(6)
    table["sd"] = table["sd"].round(6)
    table["tied_share"] = table["tied_share"].round(6)
    table["n_folds"] = table["n_folds"].fillna(1).astype(int)
    table["formula"] = formula
    table["dataset_label"] = letor_label(meta)
    table["data_kind"] = meta["provenance"]["kind"]
    table["provenance"] = meta["provenance_line"]
    cols = [
        "dataset",
        "dataset_label",
        "algorithm",
        "algorithm_id",
        "tie_break",
        "fold",
        "k",
        "ndcg",
        "sd",
        "tied_share",
        "n_folds",
        "queries",
        "queries_without_relevant",
        "formula",
        "data_kind",
        "provenance",
    ]
    table = table[cols]
    write_text(out, table.to_csv(index=False))
    return table


# --------------------------------------------------------------------------- command line
def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``chapter3-*`` sub-commands (Figure 3.1)."""
    p = subparsers.add_parser("chapter3-train", help="Figure 3.1: one algorithm on one fold")
    p.add_argument("--dataset", required=True)
    p.add_argument("--algorithm", required=True, choices=sorted(BY_KEY))
    p.add_argument("--fold", type=int, required=True)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--params", required=True, help="constructor arguments as JSON")
    p.add_argument("--seed", type=int, required=True, help="root seed (config 'seed')")
    p.add_argument("--run", required=True, help="TREC run file of the test part")
    p.add_argument("--record", required=True, help="JSON record of the job")
    p.set_defaults(
        func=lambda a: train_fold(
            a.dataset,
            a.algorithm,
            a.fold,
            a.npz,
            a.meta,
            json_object(a.params),
            a.seed,
            a.run,
            a.record,
        )
    )

    p = subparsers.add_parser("chapter3-qrels", help="Figure 3.1: qrels of each fold's test part")
    p.add_argument("--npz", required=True)
    p.add_argument("--folds", type=int, nargs="+", required=True)
    p.add_argument("--out", nargs="+", required=True)
    p.set_defaults(func=lambda a: write_fold_qrels(a.npz, a.folds, a.out))

    p = subparsers.add_parser("chapter3-evaluate", help="Figure 3.1: NDCG@1..k of a data set")
    p.add_argument("--dataset", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--runs", nargs="+", required=True)
    p.add_argument("--qrels", nargs="+", required=True)
    p.add_argument("--folds", type=int, nargs="+", required=True)
    p.add_argument("--k-max", type=int, default=10)
    p.add_argument("--formula", choices=("letor", "report"), default="letor")
    p.add_argument("--seed", type=int, default=0, help="root seed of the random tie break")
    p.add_argument("--out", required=True)
    p.set_defaults(
        func=lambda a: evaluate_dataset(
            a.dataset, a.meta, a.runs, a.qrels, a.folds, a.k_max, a.formula, a.out, a.seed
        )
    )


__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "available",
    "code_modules",
    "evaluate_dataset",
    "fit_model",
    "get_algorithm",
    "make_model",
    "register",
    "train_fold",
    "write_fold_qrels",
]
