"""Figure 3.1 of Valizadegan (2010), *Boosting and Online Learning for Classification and
Ranking*, chapter 3 (section 3.4, "Experiments"): NDCG@1..10 of NDCG_Boost and LETOR 3.0's
baselines on the seven LETOR 3.0 data sets (OHSUMED, TD2003, TD2004, HP2003, HP2004, NP2003,
NP2004; section 1.6.2), each the mean over the five LETOR folds of the test queries' mean.

Protocol (section 3.4.1):

- Data: each data set's QueryLevelNorm features (``data/processed/<name>.npz``), parts S1..S5
  and LETOR's fold rotation (:func:`boostrank.data.folds.letor_fold_masks`). A data set that
  only a synthetic stand-in provides is labelled "[synthetic stand-in]" in every output, and
  its claims are NOT-COMPARABLE.
- Algorithms (:data:`~boostrank.experiments.chapter3.spec.ALGORITHMS`, one row each: name,
  import path, whether the validation part is passed): NDCG_Boost (100 iterations, decision
  stumps; the dissertation does *not* use the validation set for it), AdaRank-NDCG, Regression
  (least squares), RankSVM, FRank, ListNet and SVM-MAP (the baselines choose their
  hyper-parameters on the validation part, as LETOR's do), plus LambdaMART (LightGBM
  lambdarank), which the dissertation does not have: a dashed reference line. Constructor
  arguments come from config ``chapter3.algorithms``; every class is imported only in the job
  that trains it.
- One Snakemake job per (data set, algorithm, replicate, fold) trains on the fold's training
  part and writes the test ranking as a TREC run (:mod:`boostrank.metrics.trec`); the folds'
  qrels are written once per data set. The evaluation job of a data set re-reads the run files,
  so any external evaluator can re-score them.
- NDCG: config ``chapter3.ndcg_formula``, by default ``letor``, LETOR's own evaluation script
  (gain 2^r - 1, positions 1 and 2 undiscounted, ``1/log2(p)`` after, ties in file order, a
  query without relevant documents scores 0 and stays in the mean, a query shorter than k
  scores 0 at k; :mod:`boostrank.metrics.ranking`). The dissertation compares NDCG_Boost with
  the baselines LETOR publishes, which that script scored, so its measure keeps the comparison
  like for like; ``report`` is the ``1/log2(1 + p)`` form ``trec_eval`` computes.
- Ties: stump ensembles and threshold rankers give many equal scores. Each run is scored twice,
  with ties in file order (LETOR's script: a stable sort by score of the test file's lines)
  and with a seeded random order of equal scores (``tie_break`` column), and carries the share
  of tied documents (``tied_share``); config ``chapter3.tie_break`` (default ``file_order``)
  is the one drawn and claimed.
- Seeds: the seed of a job whose training draws random numbers derives from its replicate's
  root seed and (data set, algorithm, fold) (:func:`boostrank.seeds.derive_seed`); the same
  config gives the same numbers. A deterministic ranker takes no seed.
- Replicates: config ``chapter3.replicates`` runs every algorithm whose training draws random
  numbers under its arguments (:func:`~boostrank.experiments.chapter3.spec.seeded`: NDCG_Boost;
  RankSVM and FRank when they subsample pairs) that many times, each replicate its own training
  job with the root seed :func:`boostrank.seeds.replicate_seed` (replicate 1 is the config's
  seed, so one replicate is the single run); a deterministic one is trained once. The evaluation
  scores each replicate (its own random tie break) and averages each query's NDCG over the
  replicates: the fold means, the samples of the claims' intervals and the paired tests are
  over those averages.

This module holds the jobs, each given its parameter object: training one algorithm on one fold
(``boostrank job chapter3.train``), the folds' qrels (``chapter3.qrels``) and the evaluation of
a data set's run files (``chapter3.evaluate``).
"""

from __future__ import annotations

import importlib
import inspect
import logging
import time
from collections.abc import Container
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter3.spec import (
    FIGURE_ID,
    RANKING_PACKAGE,
    TIE_BREAKS,
    Algorithm,
    EvaluateSpec,
    QrelsSpec,
    TrainSpec,
    get_algorithm,
    seeded,
)
from boostrank.experiments.common import letor_label
from boostrank.seeds import derive_seed, replicate_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

log = logging.getLogger(__name__)


def load_class(algorithm: Algorithm) -> type:
    """Import the algorithm's class (only the job that trains it pays for the import)."""
    module = importlib.import_module(f"{RANKING_PACKAGE}.{algorithm.module}")
    try:
        return getattr(module, algorithm.cls)
    except AttributeError:
        raise BoostrankError(f"{module.__name__} defines no class {algorithm.cls}") from None


def make_model(algorithm: Algorithm, params: dict[str, Any], seed: int) -> Any:
    """Instantiate the algorithm with its config arguments; one that draws random numbers
    under them (:func:`~boostrank.experiments.chapter3.spec.seeded`) gets ``seed`` as
    ``random_state`` (the package's one name for a seed), any other keeps its class default, so
    its run does not depend on the config's seed."""
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
    if "random_state" in accepted and seeded(algorithm, params):
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
def train_fold(spec: TrainSpec) -> dict[str, Any]:
    """The training job: one algorithm on one LETOR fold (one replicate, section 3.4.1); write
    the test run and a JSON record (arguments, seed, row counts, fitted scalars such as a
    validation-chosen C, the guards' counts of :mod:`boostrank.guards`, provenance)."""
    import numpy as np

    from boostrank.data.folds import letor_fold_masks
    from boostrank.io import read_json, write_json
    from boostrank.metrics.trec import write_run

    dataset, fold, params = spec.dataset, spec.fold, spec.params
    algorithm = get_algorithm(spec.algorithm)
    meta = read_json(spec.meta)
    data = load_arrays(spec.npz)
    train, valid, test = letor_fold_masks(data["part"], fold)
    if not (train.any() and valid.any() and test.any()):
        raise BoostrankError(f"{dataset} fold {fold}: an empty train, validation or test part")

    def part(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (
            data["X"][mask].astype(np.float64),
            data["y"][mask].astype(np.int64),
            data["qid"][mask],
        )

    if spec.replicate > 1 and not seeded(algorithm, params):
        raise BoostrankError(
            f"{algorithm.label} draws no random numbers with {params}: it has one replicate only"
        )
    root = replicate_seed(spec.seed, spec.replicate)
    s = derive_seed(root, FIGURE_ID, dataset, algorithm.key, fold)
    started = time.perf_counter()
    model = make_model(algorithm, params, s)
    used = fit_model(model, algorithm, part(train), part(valid))
    fitted = time.perf_counter()
    X_test = data["X"][test].astype(np.float64)
    scores = np.asarray(model.predict(X_test), dtype=np.float64).ravel()
    if scores.shape != (int(test.sum()),) or not np.isfinite(scores).all():
        raise BoostrankError(f"{algorithm.label} on {dataset} fold {fold}: bad test scores")
    tag = f"{algorithm.key}.{dataset}.fold{fold}"
    write_run(spec.run, data["qid"][test], data["docid"][test], scores, tag)
    record = {
        "figure": FIGURE_ID,
        "dataset": dataset,
        "dataset_file": meta["dataset"],
        "algorithm": algorithm.label,
        "algorithm_id": algorithm.key,
        "class": algorithm.import_path,
        "fold": fold,
        "replicate": spec.replicate,
        "params": params,
        "seed": s if seeded(algorithm, params) else None,
        "validation_used": used is not None,
        "rows": {
            k: int(m.sum()) for k, m in (("train", train), ("validation", valid), ("test", test))
        },
        "fitted": _scalar_attributes(model),
        "guards": dict(getattr(model, "guards_", {})),  # steps the text lacks, times acted
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    write_json(spec.record, record)  # deterministic: the timings go to the log
    log.info(
        "%s on %s fold %d: fit %.2f s, predict and write %.2f s (seed %s)", algorithm.label,
        dataset, fold, fitted - started, time.perf_counter() - fitted, record["seed"],
    )  # fmt: skip
    return record


def write_fold_qrels(spec: QrelsSpec) -> None:
    """The qrels job: the qrels of each fold's test part of one data set (one file per fold,
    in ``spec.folds`` order)."""
    from boostrank.data.folds import letor_fold_masks
    from boostrank.metrics.trec import write_qrels

    data = load_arrays(spec.npz)
    for fold, path in zip(spec.folds, spec.out, strict=True):
        test = letor_fold_masks(data["part"], int(fold))[2]
        write_qrels(path, data["qid"][test], data["docid"][test], data["y"][test])


def _runs_by_fold(
    spec: EvaluateSpec, folds: Container[int]
) -> dict[tuple[str, int], dict[int, Path]]:
    """(algorithm key, fold) -> replicate -> run file, from the run paths
    ``<algorithm>/r<replicate>/fold<k>.run``, in the order given."""
    by_fold: dict[tuple[str, int], dict[int, Path]] = {}
    for path in map(Path, spec.runs):
        algorithm = get_algorithm(path.parent.parent.name)
        fold = int(path.stem.removeprefix("fold"))
        replicate = int(path.parent.name.removeprefix("r"))
        if fold not in folds:
            raise BoostrankError(f"{path}: no qrels given for fold {fold}")
        by_fold.setdefault((algorithm.key, fold), {})[replicate] = path
    return by_fold


def _fold_curves(
    spec: EvaluateSpec, key: str, fold: int, paths: dict[int, Path], qrels: Any
) -> tuple[list[dict[str, Any]], list[pd.DataFrame]]:
    """One algorithm's runs on one fold scored under each tie break (:data:`TIE_BREAKS`): the
    per-fold rows (each query's NDCG averaged over the replicates) and the per-query samples."""
    import numpy as np
    import pandas as pd

    from boostrank.metrics.trec import evaluate_run, random_tie_break, read_run, tied_share

    algorithm, replicates, k_max = get_algorithm(key), spec.replicates, spec.k_max
    replicated = set(paths) != {1}  # a deterministic algorithm brings replicate 1 only
    wanted = range(1, replicates + 1) if replicated else [1]
    missing = [r for r in wanted if r not in paths]
    if missing:
        raise BoostrankError(
            f"{spec.dataset} {algorithm.label} fold {fold}: no run of replicates {missing}"
        )
    rel_q = np.unique(qrels.qid[qrels.rel >= 1])
    scored = [read_run(paths[r]) for r in wanted]
    tied = float(np.mean([tied_share(run) for run in scored]))
    rows: list[dict[str, Any]] = []
    samples: list[pd.DataFrame] = []
    for tie_break in TIE_BREAKS:
        curves = []
        # One run in file order is the same for every replicate: score it once.
        distinct = replicates if replicated or tie_break == "random" else 1
        for r in range(1, distinct + 1):
            run = scored[r - 1] if replicated else scored[0]
            if tie_break == "random":
                root = replicate_seed(spec.seed, r)
                tie_seed = derive_seed(root, FIGURE_ID, spec.dataset, f"{key}:ties", fold)
                run = random_tie_break(run, tie_seed)
            qids, curve = evaluate_run(run, qrels, k_max, formula=spec.formula)  # type: ignore[arg-type]
            curves.append(curve)
        curve = np.mean(curves, axis=0)  # each query's NDCG@k over the replicates
        samples.append(
            pd.DataFrame(
                {
                    "algorithm": algorithm.label,
                    "tie_break": tie_break,
                    "k": np.repeat(np.arange(1, k_max + 1), len(qids)),
                    "stratum": str(fold),
                    "unit": np.tile([f"{fold}:{q}" for q in qids], k_max),
                    "value": curve.T.ravel().round(6),
                }
            )
        )
        rows.extend(
            {
                "dataset": spec.dataset,
                "algorithm": algorithm.label,
                "algorithm_id": algorithm.key,
                "tie_break": tie_break,
                "fold": str(fold),
                "k": k,
                "ndcg": float(curve[:, k - 1].mean()),
                "tied_share": round(tied, 6),
                "queries": int(curve.shape[0]),
                "queries_without_relevant": int(curve.shape[0] - len(rel_q)),
                "replicates": replicates,
            }
            for k in range(1, k_max + 1)
        )
    return rows, samples


# The evaluation table's columns, in the order written.
EVALUATION_COLUMNS = [
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
    "replicates",
    "formula",
    "data_kind",
    "provenance",
]


def _with_fold_means(
    per_fold: pd.DataFrame, spec: EvaluateSpec, meta: dict[str, Any]
) -> pd.DataFrame:
    """The per-fold rows followed by each (algorithm, tie break, k)'s mean and sd over the
    folds (``fold`` = ``mean``), rounded and labelled with the data set's provenance."""
    import pandas as pd

    grouped = per_fold.groupby(["algorithm_id", "tie_break", "k"], sort=False)
    means = grouped.agg(
        algorithm=("algorithm", "first"),
        ndcg=("ndcg", "mean"),
        sd=("ndcg", lambda v: float(v.std(ddof=1)) if len(v) > 1 else float("nan")),
        tied_share=("tied_share", "mean"),
        n_folds=("ndcg", "size"),
        queries=("queries", "sum"),
        queries_without_relevant=("queries_without_relevant", "sum"),
        replicates=("replicates", "min"),
    ).reset_index()
    means.insert(0, "dataset", spec.dataset)
    means["fold"] = "mean"
    table = pd.concat([per_fold, means], ignore_index=True)
    table["ndcg"] = table["ndcg"].round(6)
    table["sd"] = table["sd"].round(6)
    table["tied_share"] = table["tied_share"].round(6)
    table["n_folds"] = table["n_folds"].fillna(1).astype(int)
    table["formula"] = spec.formula
    table["dataset_label"] = letor_label(meta)
    table["data_kind"] = meta["provenance"]["kind"]
    table["provenance"] = meta["provenance_line"]
    return table[EVALUATION_COLUMNS]


def evaluate_dataset(spec: EvaluateSpec) -> pd.DataFrame:
    """The evaluation job (section 3.4.2): NDCG@1..k_max of every run of one data set under
    each tie break (:data:`TIE_BREAKS`), per fold (mean over the test queries, each query's
    NDCG averaged over the replicates) and the mean and sd over the folds, with the share of
    tied documents. Run paths end ``<algorithm>/r<replicate>/fold<k>.run``; a deterministic
    algorithm brings replicate 1 only, scored under each replicate's tie break.
    ``spec.samples``: every test query's NDCG@k (unit ``<fold>:<qid>``, stratum the fold), the
    claims' intervals and paired tests (:mod:`boostrank.report.spread`)."""
    import pandas as pd

    from boostrank.io import read_json, write_text
    from boostrank.metrics.trec import read_qrels

    meta = read_json(spec.meta)
    qrels_by_fold = {int(f): read_qrels(p) for f, p in zip(spec.folds, spec.qrels, strict=True)}
    rows, samples = [], []
    for (key, fold), paths in _runs_by_fold(spec, qrels_by_fold).items():
        fold_rows, fold_samples = _fold_curves(spec, key, fold, paths, qrels_by_fold[fold])
        rows.extend(fold_rows)
        samples.extend(fold_samples)
    per_fold = pd.DataFrame(rows)
    if per_fold.empty:
        raise BoostrankError(f"{spec.dataset}: no run files to evaluate")
    table = _with_fold_means(per_fold, spec, meta)
    write_text(spec.out, table.to_csv(index=False))
    per_query = pd.concat(samples, ignore_index=True)
    per_query.insert(0, "dataset", spec.dataset)
    per_query.insert(4, "measure", "ndcg")
    per_query.insert(5, "unit_kind", "query")
    write_text(spec.samples, per_query.to_csv(index=False))
    return table


__all__ = [
    "evaluate_dataset",
    "fit_model",
    "load_arrays",
    "load_class",
    "make_model",
    "train_fold",
    "write_fold_qrels",
]
