"""The ranking experiments of Sengupta (2018), *Document Analysis -- Clustering, Classification and
Ranking* (B.Tech. report, Shiv Nadar University), sections "Results" and "Working on a toy
dataset":

- Tables 2-6 (``docan-table2`` ... ``docan-table6``): LambdaMART, RankNet, linear regression and
  RankSVM on Nystroem / random Fourier features, NDCG@10 on the train, validation and test parts
  of the five official LETOR folds, each configuration the report prints (not the cross-product).
  The report uses LETOR 4.0 MQ2007; when MQ2007 is only a synthetic stand-in, MQ2008 (from the
  mirror) substitutes for it, labelled so in every output. One job per (table, fold), merged.
- Table 7 (``docan-table7``): the toy example, 4 queries x 5 documents (queries 1-3 train, 4
  tests), with the report's printed LambdaMART trees and linear-regression weights evaluated too.
- Table 8 (``docan-table8``): the 2-D pairwise-transform demo (30 test samples in two blocks),
  Kendall tau per block for ridge regression and the pairwise linear SVM. Its generator is the
  one of F. Pedregosa's "Learning to rank with scikit-learn: the pairwise transform" (2012),
  whose text the report follows; with its seed (0) and split the printed values reproduce.

NDCG@10 is the report's printed NDCG(k) (section "Information Retrieval measures": gain
2^y - 1, discount 1/log2(1 + position); ``boostrank.metrics.ranking``, ``formula="report"``) by
default, or LETOR 4.0's script (config ``docan_ranking.ndcg_formula``); the test NDCG@10 of the
other formula is given beside it. Fold k trains on S_k, S_k+1, S_k+2 and, as the report's fold
table prints ("Training set, Testing, Validation": Fold1 {S1,S2,S3} S4 S5), tests on S_k+3 and
validates on S_k+4; LETOR 4.0's own folds swap the two (config ``docan_ranking.fold_roles``).

Guards (:mod:`boostrank.guards`), steps the printed algorithms lack, counted in each row's
``guards``: LambdaMART's early stop (``docan_lambdamart``: once per tree count that stopped
before its last tree), RankSVM's pair sample (``docan_ranksvm_pairs``: once per query it cut)
and liblinear's iteration cap (``docan_ranksvm_max_iter``: once per fit that hit it).

This module holds the jobs (one fold of a table, the toy models, the demo); :mod:`.summary`
merges the folds and puts the published values beside, :mod:`.figure` writes the tables.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from boostrank.data.folds import letor_fold_masks
from boostrank.data.prepare import load_meta
from boostrank.errors import BoostrankError
from boostrank.experiments.docan.spec import (
    LETOR_TABLES,
    NDCG_DECIMALS,
    SPLITS,
    TOY_DOCUMENTS,
    TOY_LINEAR_WEIGHTS,
    TOY_ROWS,
    TOY_TEST_QUERY,
    TOY_TREES,
    RankingFoldSpec,
)
from boostrank.guards import Guards
from boostrank.io import write_text
from boostrank.metrics.ranking import FORMULAS, Formula, ndcg_at_k, query_groups
from boostrank.seeds import derive_seed

if TYPE_CHECKING:  # pandas and scipy load in the jobs that use them, not for --help
    import pandas as pd

log = logging.getLogger(__name__)

Data = dict[str, np.ndarray]
Row = dict[str, Any]


# --------------------------------------------------------------------------- data and seeds
def choose_dataset(metas: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """MQ2007 when a real source provided it, else MQ2008 as its labelled substitute."""
    by_name = {m["dataset"]: m for m in metas}
    if "mq2007" in by_name and by_name["mq2007"]["provenance"]["kind"] != "synthetic":
        return by_name["mq2007"], "MQ2007"
    if "mq2008" not in by_name:
        raise BoostrankError("the ranking tables need the sidecar of mq2008 (or a real mq2007)")
    meta = by_name["mq2008"]
    if meta["provenance"]["kind"] == "synthetic":
        return meta, "MQ2008 synthetic stand-in (substitute for MQ2007)"
    return meta, "MQ2008 (substitute for MQ2007)"


def _exp2(e: float) -> str:
    return f"2^{int(e)}" if float(e).is_integer() else f"2^{e}"


def config_key(table: str, row: dict[str, Any]) -> str:
    """The configuration string of a table row, e.g. ``N=2000 C=2^3 gamma=2^-7``."""
    kind = LETOR_TABLES[table][0]
    if kind == "lambdamart":
        return f"trees={row['trees']}"
    if kind == "ranknet":
        return f"epochs={row['epochs']} layers={row['layers']} nodes={row['nodes']}"
    if kind == "linear":
        return f"l2={row['l2']:g}"
    return f"N={row['n_components']} C={_exp2(row['c_exp'])} gamma={_exp2(row['gamma_exp'])}"


def table_rows(table: str, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """The configurations (rows) of a table from its settings, in the report's order."""
    kind = LETOR_TABLES[table][0]
    if kind == "lambdamart":
        return [{"trees": int(t)} for t in settings["trees"]]
    if kind == "linear":
        return [{"l2": float(v)} for v in settings["l2"]]
    return [dict(r) for r in settings["rows"]]


# --------------------------------------------------------------------------- one fold
FOLD_ROLES = ("printed", "letor")


def fold_masks(part: np.ndarray, fold: int, roles: str = "printed") -> dict[str, np.ndarray]:
    """The train, validation and test rows of ``fold``. ``printed``: the report's fold table
    ("Training set, Testing, Validation": Fold1 {S1,S2,S3} S4 S5), so fold k tests on S_k+3
    and validates on S_k+4; ``letor``: LETOR 4.0's folds, which swap the two."""
    if roles not in FOLD_ROLES:
        raise BoostrankError(f"fold_roles must be one of {FOLD_ROLES}, not {roles!r}")
    train, letor_valid, letor_test = letor_fold_masks(part, fold)
    if roles == "printed":
        return {"train": train, "validation": letor_test, "test": letor_valid}
    return {"train": train, "validation": letor_valid, "test": letor_test}


def _evaluate(
    score: Callable[[np.ndarray], np.ndarray],
    data: dict[str, np.ndarray],
    masks: dict[str, np.ndarray],
    k: int,
    formula: Formula = "report",
) -> dict[str, float]:
    """NDCG@k of each split with ``formula``; the test split's with the other formula too."""
    out = {}
    other: Formula = "letor" if formula == "report" else "report"
    for split in SPLITS:
        m = masks[split]
        s = score(data["X"][m])
        y, q = data["y"][m], data["qid"][m]
        out[f"{split}_ndcg{k}"] = _round(ndcg_at_k(y, s, q, k, formula=formula).mean())
        if split == "test":
            out[f"test_ndcg{k}_{other}_formula"] = _round(
                ndcg_at_k(y, s, q, k, formula=other).mean()
            )
    return out


def ndcg_formula(settings: Row) -> Formula:
    """The NDCG formula of the tables (config ``docan_ranking.ndcg_formula``; the printed one
    by default)."""
    formula = settings.get("ndcg_formula", "report")
    if formula == "report" or formula == "letor":
        return cast("Formula", formula)
    raise BoostrankError(f"ndcg_formula must be one of {FORMULAS}, not {formula!r}")


def capped_queries(y: np.ndarray, qid: np.ndarray, cap: int | None) -> int:
    """How many queries have more than ``cap`` comparable pairs (different labels), i.e. how
    often the pair sample of :func:`boostrank.ranking.pairs.query_pairs` cuts one."""
    if cap is None:
        return 0
    order, bounds = query_groups(qid)
    cut = 0
    for g in range(len(bounds) - 1):
        labels = np.asarray(y)[order[bounds[g] : bounds[g + 1]]]
        counts = np.unique(labels, return_counts=True)[1]
        cut += (len(labels) ** 2 - int((counts**2).sum())) // 2 > cap
    return cut


def _round(value: float) -> float:
    """Six decimals: the CSVs stay identical across BLAS builds' last-bit differences."""
    return round(float(value), NDCG_DECIMALS)


def _fold_lambdamart(
    data: Data, masks: Data, settings: Row, rows: list[Row], *, seed: int, k: int
) -> list[Row]:
    from boostrank.ranking.lambdamart import LambdaMART

    tr, va = masks["train"], masks["validation"]
    model = LambdaMART(
        max(r["trees"] for r in rows),
        num_leaves=int(settings["leaves"]),
        learning_rate=float(settings["learning_rate"]),
        min_data_in_leaf=int(settings["min_data_in_leaf"]),
        early_stopping_rounds=settings.get("early_stopping_rounds"),
        eval_at=k,
        num_threads=int(settings.get("threads", 1)),
        random_state=seed,
    ).fit(
        data["X"][tr],
        data["y"][tr],
        data["qid"][tr],
        validation=(data["X"][va], data["y"][va], data["qid"][va]),
    )
    out = []
    formula = ndcg_formula(settings)
    for row in rows:
        t = row["trees"]
        res = _evaluate(lambda X, t=t: model.predict(X, n_trees=t), data, masks, k, formula)
        guards = Guards.of("docan_lambdamart")
        if settings.get("early_stopping_rounds") and model.rounds_trained_ < t:
            guards.fire("docan_lambdamart")  # stopped before its t-th tree
        out.append(
            {
                **row,
                "leaves": settings["leaves"],
                "learning_rate": settings["learning_rate"],
                **res,
                "trees_kept": model.best_iteration_for(t),
                "rounds_trained": min(t, model.rounds_trained_),
                "guards": guards.text(),
            }
        )
    return out


def _fold_ranknet(
    data: Data, masks: Data, settings: Row, rows: list[Row], *, seed: int, k: int
) -> list[Row]:
    from boostrank.ranking.ranknet import RankNet

    tr = masks["train"]
    out: dict[int, dict[str, Any]] = {}
    groups: dict[tuple[int, int], list[int]] = {}
    for n, row in enumerate(rows):
        groups.setdefault((int(row["layers"]), int(row["nodes"])), []).append(n)
    for (layers, nodes), members in groups.items():
        epochs = sorted({int(rows[n]["epochs"]) for n in members})
        net = RankNet(
            layers,
            nodes,
            max(epochs),
            learning_rate=float(settings["learning_rate"]),
            batch_queries=int(settings["batch_queries"]),
            sigma=float(settings["sigma"]),
            init_scale=float(settings["init_scale"]),
            random_state=derive_seed(seed, layers, nodes),
        ).fit(data["X"][tr], data["y"][tr], data["qid"][tr], checkpoints=epochs)
        for n in members:
            e = int(rows[n]["epochs"])
            res = _evaluate(
                lambda X, e=e, net=net: net.predict(X, epochs=e),
                data,
                masks,
                k,
                ndcg_formula(settings),
            )
            out[n] = {**rows[n], **res, "final_train_loss": _round(net.loss_curve_[e - 1])}
    return [out[n] for n in range(len(rows))]


def _fold_linear(
    data: Data, masks: Data, settings: Row, rows: list[Row], *, seed: int, k: int
) -> list[Row]:
    from boostrank.ranking.linear import LinearRanker

    tr = masks["train"]
    out = []
    for row in rows:
        model = LinearRanker(row["l2"]).fit(data["X"][tr], data["y"][tr])
        formula = ndcg_formula(settings)
        out.append({**row, **_evaluate(model.predict, data, masks, k, formula)})
    return out


class Runner(Protocol):
    """A table kind's fold runner: one row per configuration (``rows``) trained on the fold's
    training part and scored at NDCG@``k``."""

    def __call__(
        self, data: Data, masks: Data, settings: Row, rows: list[Row], *, seed: int, k: int
    ) -> list[Row]: ...


def _fold_ranksvm(kind: str) -> Runner:
    def run(
        data: Data, masks: Data, settings: Row, rows: list[Row], *, seed: int, k: int
    ) -> list[Row]:
        from boostrank.ranking.ranksvm import RankSVM, make_kernel_map, pair_design

        tr = masks["train"]
        cap = settings.get("max_pairs_per_query")
        formula = ndcg_formula(settings)
        cut = capped_queries(data["y"][tr], data["qid"][tr], cap)
        out: dict[int, dict[str, Any]] = {}
        groups: dict[tuple[int, float], list[int]] = {}
        for n, row in enumerate(rows):
            groups.setdefault((int(row["n_components"]), float(row["gamma_exp"])), []).append(n)
        for (n_comp, gamma_exp), members in groups.items():
            fmap = make_kernel_map(kind, n_comp, 2.0**gamma_exp, derive_seed(seed, n_comp))
            fmap.fit(data["X"][tr])
            diff, sign = pair_design(
                fmap,
                data["X"][tr],
                data["y"][tr],
                data["qid"][tr],
                max_pairs_per_query=cap,
                seed=seed,
            )
            for n in members:
                c = 2.0 ** float(rows[n]["c_exp"])
                model = RankSVM(
                    c,
                    feature_map=fmap,
                    max_iter=int(settings["max_iter"]),
                    tol=float(settings["tol"]),
                    random_state=seed,
                ).fit_pairs(diff, sign)
                res = _evaluate(model.predict, data, masks, k, formula)
                guards = Guards.of("docan_ranksvm_pairs", "docan_ranksvm_max_iter")
                guards.fire("docan_ranksvm_pairs", cut)  # queries whose pairs were sampled
                if not model.converged_:
                    guards.fire("docan_ranksvm_max_iter")  # liblinear stopped at max_iter
                out[n] = {
                    **rows[n],
                    "C": c,
                    "gamma": 2.0**gamma_exp,
                    **res,
                    "pairs": model.n_pairs_,
                    "svm_iterations": model.n_iter_,
                    "converged": model.converged_,
                    "guards": guards.text(),
                }
            del diff
        return [out[n] for n in range(len(rows))]

    return run


FOLD_RUNNERS: dict[str, Runner] = {
    "lambdamart": _fold_lambdamart,
    "ranknet": _fold_ranknet,
    "linear": _fold_linear,
    "nystroem": _fold_ranksvm("nystroem"),
    "rff": _fold_ranksvm("rff"),
}


def run_fold(spec: RankingFoldSpec) -> pd.DataFrame:
    """The fold job: every configuration of ``spec.table`` on LETOR fold ``spec.fold``; one
    CSV row per configuration."""
    import pandas as pd

    table, fold, settings = spec.table, spec.fold, spec.settings
    kind = LETOR_TABLES[table][0]
    meta, label = choose_dataset([load_meta(p) for p in spec.metas])
    npz = Path(next(p for p in spec.metas if load_meta(p)["dataset"] == meta["dataset"]))
    with np.load(npz.with_suffix(".npz")) as arrays:
        data = {
            "X": arrays["X"].astype(np.float64),
            "y": arrays["y"].astype(np.int64),
            "qid": arrays["qid"],
            "part": arrays["part"],
        }
    roles = str(settings.get("fold_roles", "printed"))
    masks = fold_masks(data["part"], fold, roles)
    k = int(settings.get("k", 10))
    job_seed = derive_seed(spec.seed, table, fold)
    started = time.perf_counter()
    configs = table_rows(table, settings)
    rows = FOLD_RUNNERS[kind](data, masks, settings, configs, seed=job_seed, k=k)
    log.info(
        "%s fold %d on %s: %d configurations in %.1f s",
        table,
        fold,
        label,
        len(rows),
        time.perf_counter() - started,
    )
    frame = pd.DataFrame(
        [
            {
                "table": table,
                "config": config_key(table, row),
                "fold": str(fold),
                **row,
                "ndcg_formula": settings.get("ndcg_formula", "report"),
                "fold_roles": roles,
                "dataset": meta["dataset"],
                "dataset_label": label,
                "data_kind": meta["provenance"]["kind"],
                "provenance": meta["provenance_line"],
            }
            for row in rows
        ]
    )
    write_text(spec.out, frame.to_csv(index=False))
    return frame


# --------------------------------------------------------------------------- table 7: the toy
def toy_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The toy matrix as ``(X (20 x 6), y, qid)``, rows in printed order."""
    table = np.array(TOY_ROWS, dtype=np.float64)
    return table[:, 1:7], table[:, 7].astype(np.int64), table[:, 0].astype(np.int64)


def toy_features() -> pd.DataFrame:
    """The features the toy matrix derives from the five printed documents (section "Working
    on a toy dataset", "Features"): words per document (feature 2) and the row means of TF
    (feature 3) and of TF-IDF (feature 5) over the corpus's terms, by the report's
    preprocessing (:mod:`boostrank.preprocess.text`: tm's steps, Porter stemming,
    ``tm::weightTfIdf``); one row per document."""
    import pandas as pd

    from boostrank.preprocess import text

    docs, kept = text.preprocess_corpus(list(TOY_DOCUMENTS))
    if len(kept) != len(TOY_DOCUMENTS):
        raise BoostrankError("a toy document was left empty by the preprocessing")
    counts = text.count_matrix(text.fit_vocabulary(docs), docs)
    tf = text.tf_weight(counts).toarray().mean(axis=1)
    tfidf = text.tfidf_weight(counts).toarray().mean(axis=1)
    return pd.DataFrame(
        {
            "document": np.arange(1, len(docs) + 1),
            "words": [len(d) for d in docs],
            "tf_row_mean": np.round(tf, 6),
            "tfidf_row_mean": np.round(tfidf, 6),
            "terms": counts.shape[1],
            "data_kind": "printed",
            "provenance": "printed: the five toy documents of Sengupta (2018), Working on a toy "
            "dataset",
        }
    )


def printed_trees_score(X: np.ndarray, trees: list[tuple[float, ...]] | None = None) -> np.ndarray:
    """Scores of the report's printed LambdaMART ensemble: sum of weight * (left if
    x[feature] <= threshold else right), features 1-based (RankLib's split convention)."""
    trees = TOY_TREES if trees is None else trees
    score = np.zeros(len(X))
    for feature, threshold, left, right, weight in trees:
        score += weight * np.where(X[:, int(feature) - 1] <= threshold, left, right)
    return score


def printed_linear_score(X: np.ndarray, *, bias_first: bool) -> np.ndarray:
    """Scores of the printed linear-regression weights, read with the bias first or last."""
    w = np.asarray(TOY_LINEAR_WEIGHTS)
    return w[0] + X @ w[1:] if bias_first else X @ w[:-1] + w[-1]


def _fit_toy(
    settings: dict[str, Any], seed: int, X: np.ndarray, y: np.ndarray, qid: np.ndarray
) -> tuple[Any, Any, Any]:
    """RankNet, linear regression and LambdaMART trained on toy queries 1-3 (Table 7's
    settings), in that order."""
    from boostrank.ranking.lambdamart import LambdaMART
    from boostrank.ranking.linear import LinearRanker
    from boostrank.ranking.ranknet import RankNet

    job_seed = derive_seed(seed, "docan-table7")
    rn, lm = settings["ranknet"], settings["lambdamart"]
    ranknet = RankNet(
        int(rn["layers"]),
        int(rn["nodes"]),
        int(rn["epochs"]),
        learning_rate=float(rn["learning_rate"]),
        batch_queries=int(rn["batch_queries"]),
        sigma=float(rn["sigma"]),
        init_scale=float(rn["init_scale"]),
        random_state=job_seed,
    ).fit(X, y, qid)
    linear = LinearRanker(float(settings["l2"])).fit(X, y)
    lambdamart = LambdaMART(
        int(lm["trees"]),
        num_leaves=int(lm["leaves"]),
        learning_rate=float(lm["learning_rate"]),
        min_data_in_leaf=int(lm["min_data_in_leaf"]),
        early_stopping_rounds=None,
        num_threads=1,
        random_state=job_seed,
        params={"min_data_in_bin": 1, "min_sum_hessian_in_leaf": 0},
    ).fit(X, y, qid)
    return ranknet, linear, lambdamart


def _toy_scores(
    settings: dict[str, Any], fitted: tuple[Any, Any, Any], X_test: np.ndarray
) -> list[tuple[str, str, str, str, np.ndarray]]:
    """Each model of Table 7 (key, method, source, detail) and its scores of query 4's
    documents: the three trained here, then the report's printed trees and weights."""
    ranknet, linear, lambdamart = fitted
    rn, lm = settings["ranknet"], settings["lambdamart"]
    return [
        (
            "ranknet",
            "RankNet",
            "trained here",
            f"{rn['layers']} hidden layer(s) x {rn['nodes']} sigmoid nodes, {rn['epochs']} epochs",
            ranknet.predict(X_test),
        ),
        (
            "linear",
            "Linear regression",
            "trained here",
            f"ridge, L2 = {settings['l2']:g}",
            linear.predict(X_test),
        ),
        (
            "lambdamart",
            "LambdaMART",
            "trained here",
            f"{lm['trees']} trees, {lm['leaves']} leaves, learning rate {lm['learning_rate']}",
            lambdamart.predict(X_test),
        ),
        (
            "printed_trees",
            "LambdaMART",
            "the report's printed 10 trees",
            "x <= threshold goes left",
            printed_trees_score(X_test),
        ),
        (
            "printed_weights",
            "Linear regression",
            "the report's printed weights",
            "first weight read as the bias",
            printed_linear_score(X_test, bias_first=True),
        ),
        (
            "printed_weights_bias_last",
            "Linear regression",
            "the report's printed weights",
            "last weight read as the bias",
            printed_linear_score(X_test, bias_first=False),
        ),
    ]


def run_toy(settings: dict[str, Any], seed: int) -> pd.DataFrame:
    """Table 7's numbers: models trained on toy queries 1-3, their ranking and NDCG on query 4
    (the published values beside them are added by :func:`.summary.toy_table`)."""
    import pandas as pd

    X, y, qid = toy_arrays()
    tr, te = qid != TOY_TEST_QUERY, qid == TOY_TEST_QUERY
    models = _toy_scores(settings, _fit_toy(settings, seed, X[tr], y[tr], qid[tr]), X[te])
    n_docs = int(te.sum())
    rows = []
    for key, method, source, detail, score in models:
        order = np.argsort(-score, kind="stable")
        rows.append(
            {
                "model": key,
                "method": method,
                "source": source,
                "detail": detail,
                "ranking": " ".join(f"D{i + 1}" for i in order),
                "labels_in_ranked_order": " ".join(str(v) for v in y[te][order]),
                "ndcg_all_report_formula": round(
                    float(ndcg_at_k(y[te], score, qid[te], n_docs, formula="report")[0]), 4
                ),
                "ndcg_all_letor_formula": round(
                    float(ndcg_at_k(y[te], score, qid[te], n_docs, formula="letor")[0]), 4
                ),
                "measured_over": f"all {n_docs} documents of query 4 (NDCG@{n_docs})",
                "data_kind": "printed",
                "provenance": "printed: the toy data of Sengupta (2018), Working on a toy dataset",
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- table 8: the demo
def demo_data(
    seed: int = 0, n_per_grade: int = 20, test_size: float = 0.5
) -> dict[str, np.ndarray]:
    """The 2-D demo: three grades of ``n_per_grade`` samples along w = (sin 60deg, cos 60deg),
    every other sample displaced by (3, 7) to form block 0, then a stratified half/half split.

    Pedregosa (2012): ``np.random.seed(0)``, ``X = randn(K, 2)`` for grade 0 and
    ``randn(K, 2) + 4 i w`` for grade i, ``X[::2] -= (3, 7)``, blocks ``[0, 1] * (n / 2)``, and
    ``StratifiedShuffleSplit(y, test_size=.5)`` drawing from the same global RandomState: per
    grade a permutation of its samples (first half train, rest test), then both index lists
    permuted. The legacy ``RandomState`` keeps these draws identical across numpy versions.
    """
    rs = np.random.RandomState(seed)
    theta = np.deg2rad(60)
    w = np.array([np.sin(theta), np.cos(theta)])
    X = rs.randn(n_per_grade, 2)
    y = np.zeros(n_per_grade, dtype=np.int64)
    for grade in (1, 2):
        X = np.concatenate((X, rs.randn(n_per_grade, 2) + grade * 4 * w))
        y = np.concatenate((y, np.full(n_per_grade, grade)))
    X[::2] -= np.array([3, 7])
    blocks = np.array([0, 1] * (len(X) // 2))
    n_test = int(np.ceil(test_size * len(y)))
    n_train = len(y) - n_test
    counts = np.bincount(y)
    n_i = np.round(n_train * counts / len(y)).astype(int)
    t_i = np.minimum(counts - n_i, np.round(n_test * counts / len(y)).astype(int))
    train: list[int] = []
    test: list[int] = []
    for grade in range(len(counts)):
        members = np.flatnonzero(y == grade)[rs.permutation(n_i[grade] + t_i[grade])]
        train.extend(members[: n_i[grade]])
        test.extend(members[n_i[grade] : n_i[grade] + t_i[grade]])
    train_idx, test_idx = rs.permutation(train), rs.permutation(test)
    return {"X": X, "y": y, "blocks": blocks, "train": train_idx, "test": test_idx}


def concordance_gamma(score: np.ndarray, y: np.ndarray) -> float:
    """The report's printed coefficient (P - Q) / (P + Q), tied pairs counted in neither."""
    i, j = np.triu_indices(len(y), 1)
    prod = np.sign(score[i] - score[j]) * np.sign(y[i] - y[j])
    p, q = int((prod > 0).sum()), int((prod < 0).sum())
    return (p - q) / (p + q)


def run_demo(settings: dict[str, Any]) -> pd.DataFrame:
    """Table 8's numbers: Kendall tau per block of ridge regression and the pairwise linear SVM
    (the published values beside them are added by :func:`.summary.demo_table`)."""
    import pandas as pd
    from scipy import stats

    from boostrank.ranking.linear import LinearRanker
    from boostrank.ranking.ranksvm import RankSVM

    d = demo_data(int(settings["seed"]), int(settings["n_per_grade"]), float(settings["test_size"]))
    tr, te = d["train"], d["test"]
    X, y, b = d["X"], d["y"], d["blocks"]
    ridge = LinearRanker(float(settings["ridge_alpha"])).fit(X[tr], y[tr])
    svm = RankSVM(float(settings["svm_c"]), kernel_map=None, random_state=int(settings["seed"]))
    svm.fit(X[tr], y[tr], b[tr])  # the blocks play the part of query ids
    rows = []
    for key, method, model in (
        ("ridge", "Ridge regression", ridge),
        ("ranksvm", "Pairwise linear SVM (RankSVM)", svm),
    ):
        for block in (0, 1):
            m = b[te] == block
            score = model.predict(X[te][m])
            rows.append(
                {
                    "method": key,
                    "block": block,
                    "kendall_tau": round(float(stats.kendalltau(score, y[te][m])[0]), 5),
                    "p_minus_q_over_p_plus_q": round(concordance_gamma(score, y[te][m]), 5),
                    "test_samples": int(m.sum()),
                    "label": method,
                    "pairs": svm.n_pairs_ if key == "ranksvm" else "",
                    "data_kind": "generated",
                    "provenance": (
                        f"2-D generator of Pedregosa (2012), seed {settings['seed']}, "
                        f"{len(y)} samples, {len(te)} for testing"
                    ),
                }
            )
    return pd.DataFrame(rows)


__all__ = [
    "capped_queries",
    "choose_dataset",
    "concordance_gamma",
    "config_key",
    "demo_data",
    "fold_masks",
    "ndcg_formula",
    "printed_linear_score",
    "printed_trees_score",
    "run_demo",
    "run_fold",
    "run_toy",
    "table_rows",
    "toy_arrays",
    "toy_features",
]
