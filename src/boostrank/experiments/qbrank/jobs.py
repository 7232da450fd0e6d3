"""Zheng et al. (2007), "A General Boosting Method and its Application to Learning Ranking
Functions for Web Search" (NIPS 2007), section 4: Table 1 (precision at K% on P3) and Figure 1
(DCG-5 against the number of trees) for QBRank, GBT and RankSVM.

The paper's data (4,898 Yahoo! queries, five grades) are proprietary. LETOR 4.0 MQ2008 (real,
three grades 0-2) stands in; MQ2007 can be added in config ``qbrank.datasets`` (here it is only a
synthetic stand-in, whose rows are labelled so and whose claims are NOT-COMPARABLE). The
paper's splits are emulated on each data set's queries (:func:`make_split`):

- L1: the queries whose documents all share one grade (on MQ2008 these are the 220 queries
  with every document graded 0 -- the paper's L1 also holds "bad ranking cases ... all the
  documents for a query are labeled as bad");
- L2 and L3: the remaining queries, split at random by query (``l2_fraction`` of them to L2;
  the paper has about 1300 and 1400 queries, 0.48), seeded from config ``seed`` and the split
  number; ``splits`` > 1 repeats the experiment on further random splits and averages;
- P2 and P3: every within-query pair of L2 (resp. L3) with unequal grades.

Models (one Snakemake job each): GBT on L1, L2 and L1+L2; QBRank on P2 and on P2+L1 (the
pairs of L2 and the labels of L1); RankSVM on P2 (the existing linear
:class:`boostrank.ranking.ranksvm.RankSVM`, C from config; the paper gives none). Trees have
20 leaves, shrinkage 0.05, w = 0.5, tau = the grade difference (section 4, "Parameters").

Measures: DCG-5 on L3, ``sum_{i<=5} G_i / log2(i + 1)`` averaged over the L3 queries, with
gain ``G = 2^r - 1`` (the paper does not give its gain values; Figure 1's 6.6-6.9 come from
five grades with other gains, so only orderings compare); ties keep the file order, so a
constant scorer (GBT on MQ2008's all-zero L1) ranks in file order. Precision at K%: the P3
pairs sorted by ``|h(x) - h(y)|`` (descending, stable), the fraction of the top K% that the
scores do not contradict; a tie ``h(x) = h(y)`` counts as half a pair (config ``ties``: half,
wrong or right -- read literally, "non-contradicting" would count ties as right, which makes a
constant scorer perfect). Both curves come from one training run per model: staged
predictions after 50, 100, ..., 400 trees.

This module holds the jobs' computations: the split, the measures and training one model on
one split.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.common import letor_label
from boostrank.experiments.qbrank.spec import (
    FIGURE_ID,
    PART_CODE,
    PERCENTS,
    TABLE_ID,
    TIES,
    Model,
    TrainSpec,
    get_model,
)
from boostrank.seeds import derive_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- data and measures
def make_split(y: np.ndarray, qid: np.ndarray, l2_fraction: float, seed: int) -> np.ndarray:
    """Each row's set: 1 (L1, single-grade queries), 2 (L2) or 3 (L3), by query."""
    import numpy as np

    if not 0.0 < l2_fraction < 1.0:
        raise BoostrankError(f"l2_fraction must lie strictly between 0 and 1, got {l2_fraction}")
    queries, inverse = np.unique(qid, return_inverse=True)
    lo = np.full(len(queries), np.iinfo(np.int64).max)
    hi = np.full(len(queries), np.iinfo(np.int64).min)
    np.minimum.at(lo, inverse, y)
    np.maximum.at(hi, inverse, y)
    code = np.where(lo == hi, 1, 0).astype(np.int8)
    rest = np.flatnonzero(code == 0)
    if len(rest) < 2:
        raise BoostrankError("fewer than two queries with more than one grade: no L2/L3 split")
    order = np.random.default_rng(seed).permutation(rest)
    n_l2 = min(max(round(l2_fraction * len(rest)), 1), len(rest) - 1)
    code[order[:n_l2]] = 2
    code[order[n_l2:]] = 3
    return code[inverse]


def dcg_at_k(y: np.ndarray, scores: np.ndarray, qid: np.ndarray, k: int) -> np.ndarray:
    """DCG@k of every query (ascending query id): gain 2^r - 1, discount 1/log2(1 + i).

    NDCG with the ``report`` formula of :mod:`boostrank.metrics.ranking` (its ranking and tie
    rules) times the ideal DCG."""
    import numpy as np

    from boostrank.metrics.ranking import ndcg_at_k

    y = np.asarray(y, dtype=np.float64)
    queries, inverse = np.unique(qid, return_inverse=True)
    order = np.lexsort((-y, inverse))
    start = np.searchsorted(inverse[order], np.arange(len(queries)))
    pos = np.arange(len(y)) - start[inverse[order]]
    keep = pos < k
    gains = (2.0 ** y[order][keep] - 1.0) / np.log2(pos[keep] + 2.0)
    ideal = np.bincount(inverse[order][keep], weights=gains, minlength=len(queries))
    return ndcg_at_k(y, scores, qid, k, formula="report") * ideal


def precision_at_percent(
    diff: np.ndarray, percents: Sequence[int] = PERCENTS, ties: str = "half"
) -> np.ndarray:
    """Precision at K% of each row of ``diff`` (``h(x) - h(y)`` per true preference x > y,
    shape ``(stages, pairs)``): pairs sorted by ``|diff|`` descending (stable), the fraction in
    the top ceil(K% of pairs) with ``diff > 0``; a tie counts ``ties`` (half, wrong, right)."""
    import numpy as np

    if ties not in TIES:
        raise BoostrankError(f"ties must be one of {sorted(TIES)}, got {ties!r}")
    diff = np.atleast_2d(np.asarray(diff, dtype=np.float64))
    n = diff.shape[1]
    if n == 0:
        raise BoostrankError("no preference pairs to evaluate")
    tie_value = TIES[ties]
    order = np.argsort(-np.abs(diff), axis=1, kind="stable")
    ranked = np.take_along_axis(diff, order, axis=1)
    right = np.where(ranked > 0, 1.0, np.where(ranked == 0, tie_value, 0.0))
    cum = np.cumsum(right, axis=1)
    tops = np.array([max(int(np.ceil(p / 100.0 * n - 1e-9)), 1) for p in percents])
    return cum[:, tops - 1] / tops


# --------------------------------------------------------------------------- one job
@dataclass(frozen=True)
class _Training:
    """The rows a model trains on (section 4.1): those whose labels it reads, those whose
    preference pairs it reads, their union, and a note naming the parts that are empty."""

    labelled: np.ndarray
    paired: np.ndarray
    train: np.ndarray
    note: str


def _training(model: Model, sets: np.ndarray) -> _Training:
    """Which rows of the split ``sets`` (:data:`PART_CODE`) ``model`` trains on."""
    import numpy as np

    labelled = np.isin(sets, [PART_CODE[p] for p in model.labels_from])
    paired = sets == PART_CODE[model.pairs_from] if model.pairs_from else np.zeros(len(sets), bool)
    empty = [
        p for p in (*model.labels_from, model.pairs_from) if p and not (sets == PART_CODE[p]).any()
    ]
    note = f"{' and '.join(empty)} empty on this data set" if empty else ""
    return _Training(labelled=labelled, paired=paired, train=labelled | paired, note=note)


def _fit(
    spec: TrainSpec, model: Model, data: dict[str, np.ndarray], rows: _Training, seed: int
) -> Any:
    """GBT, QBRank or RankSVM trained on ``rows``; None when there are none (e.g. no
    single-grade query, L1, in a synthetic stand-in)."""
    X, y, qid, train, params = data["X"], data["y"], data["qid"], rows.train, spec.params
    if not train.any():
        log.warning(
            "%s on %s split %d: %s; not trained", model.label, spec.dataset, spec.split, rows.note
        )
        return None
    trees = {"n_trees": max(int(s) for s in params["stages"]), **params["trees"]}
    if model.algorithm == "gbt":
        from boostrank.ranking.gbt import GBT

        return GBT(random_state=seed, **trees).fit(X[train], y[train])
    if model.algorithm == "qbrank":
        from boostrank.ranking.qbrank import QBRank

        return QBRank(random_state=seed, **trees, **params["qbrank"]).fit(
            X[train],
            y[train],
            qid[train],
            pair_mask=rows.paired[train],
            label_mask=rows.labelled[train],
        )
    from boostrank.ranking.ranksvm import RankSVM

    return RankSVM(random_state=seed, **params["ranksvm"]).fit(X[train], y[train], qid[train])


def _evaluate(
    spec: TrainSpec, model: Model, ranker: Any, test: tuple[np.ndarray, ...]
) -> tuple[list[dict[str, Any]], list[pd.DataFrame], int]:
    """DCG-k on L3 and precision at K% on its pairs (P3) after each number of trees (the
    staged predictions; once for RankSVM, zero scores when not trained): the tidy rows, each
    query's DCG-k, and the number of test pairs."""
    import numpy as np
    import pandas as pd

    from boostrank.ranking.pairs import query_pairs

    Xt, yt, qt = test
    params, stages = spec.params, [int(s) for s in spec.params["stages"]]
    shown = [0] if model.algorithm == "ranksvm" else stages
    if ranker is None:
        scores = np.zeros((len(shown), len(yt)))
    elif model.algorithm == "ranksvm":
        scores = ranker.predict(Xt)[None, :]
    else:
        scores = ranker.staged_predict(Xt, stages)
    i, j = query_pairs(yt, qt)  # P3
    precision = precision_at_percent(scores[:, i] - scores[:, j], PERCENTS, params["ties"])
    rows, per_query = [], []
    measure = f"dcg{params['dcg_k']}"
    for row, n_trees in enumerate(shown):
        dcg = dcg_at_k(yt, scores[row], qt, int(params["dcg_k"]))
        base = {"dataset": spec.dataset, "split": spec.split, "model": model.key}
        base |= {"label": model.label, "trees": n_trees if model.algorithm != "ranksvm" else ""}
        per_query.append(
            pd.DataFrame(
                {**base, "measure": measure, "query": np.unique(qt), "value": np.round(dcg, 6)}
                if ranker is not None
                else {**base, "measure": [], "query": [], "value": []}
            )
        )
        mean = round(float(dcg.mean()), 6)
        rows.append({**base, "measure": measure, "k_percent": "", "value": mean})
        for p, value in zip(PERCENTS, precision[row], strict=True):
            rows.append(
                {**base, "measure": "precision", "k_percent": p, "value": round(float(value), 6)}
            )
    return rows, per_query, len(i)


def train_model(spec: TrainSpec) -> pd.DataFrame:
    """Train one model on one split; write DCG-5 on L3 and precision at K% on P3 after each
    number of trees (one run, staged predictions) as a tidy CSV, and a JSON record; to
    ``queries`` each L3 query's DCG-5 after each number of trees."""
    import numpy as np
    import pandas as pd

    from boostrank.data.prepare import load_letor
    from boostrank.io import read_json, write_json, write_text
    from boostrank.ranking.pairs import query_pairs

    dataset, split, params, seed = spec.dataset, spec.split, spec.params, spec.seed
    model = get_model(spec.model)
    meta = read_json(spec.meta)
    data = load_letor(spec.npz)
    data = {**data, "X": data["X"].astype(np.float64), "y": data["y"].astype(np.int64)}
    X, y, qid = data["X"], data["y"], data["qid"]
    split_seed = derive_seed(seed, TABLE_ID, dataset, "split", split)
    sets = make_split(y, qid, float(params["l2_fraction"]), split_seed)
    s = derive_seed(seed, TABLE_ID, dataset, model.key, split)
    rows = _training(model, sets)
    started = time.perf_counter()
    test = sets == 3
    ranker = _fit(spec, model, data, rows, s)
    fitted = time.perf_counter()
    tidy, per_query, test_pairs = _evaluate(spec, model, ranker, (X[test], y[test], qid[test]))
    table = pd.DataFrame(tidy)
    if ranker is None:
        table["value"] = np.nan
    table["note"] = rows.note
    table["dataset_label"] = letor_label(meta)
    table["data_kind"] = meta["provenance"]["kind"]
    table["provenance"] = meta["provenance_line"]
    write_text(spec.out, table.to_csv(index=False))
    if spec.queries is not None:
        write_text(spec.queries, pd.concat(per_query, ignore_index=True).to_csv(index=False))
    paired = rows.paired
    record = {
        "figure": [TABLE_ID, FIGURE_ID],
        "dataset": dataset,
        "model": model.key,
        "label": model.label,
        "split": split,
        "split_seed": split_seed,
        "seed": s,
        "params": params,
        "queries": {name: int(np.unique(qid[sets == c]).size) for name, c in PART_CODE.items()},
        "rows": {name: int((sets == c).sum()) for name, c in PART_CODE.items()},
        "train_rows": int(rows.train.sum()),
        "note": rows.note,
        "train_pairs": int(query_pairs(y[paired], qid[paired])[0].size) if paired.any() else 0,
        "test_pairs": test_pairs,
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    write_json(spec.record, record)
    log.info(
        "%s on %s split %d: fit %.1f s, evaluate %.1f s (%d train rows, seed %d)",
        model.label,
        dataset,
        split,
        fitted - started,
        time.perf_counter() - fitted,
        int(rows.train.sum()),
        s,
    )
    return table


__all__ = [
    "dcg_at_k",
    "make_split",
    "precision_at_percent",
    "train_model",
]
