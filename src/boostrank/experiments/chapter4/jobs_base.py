"""The base rankers of Figures 4.1-4.4 of Valizadegan (2010), section 4.4.1: on each LETOR 3.0
data set, the single feature with the best mean NDCG@1..25 over all queries ("the best ranking
feature compared to other features"); features constant within every query carry no order and
are not candidates. The dissertation's choices (11 for OHSUMED, 46 for TD2003/TD2004/HP2003/
HP2004, 6 for NP2003/NP2004; 1-based LETOR numbers) are compared with the recomputed ones.
Figure 4.3 also uses the worst and the median candidate."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.common import letor_label

if TYPE_CHECKING:
    import numpy as np

    from boostrank.experiments.chapter4.spec import BaseRankersSpec


def feature_ranking(
    data: dict[str, np.ndarray], k_max: int, formula: str, max_queries: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Mean NDCG@1..k_max over the queries of ranking by each feature alone, and whether the
    feature varies within at least one query (a candidate base ranker)."""
    import numpy as np

    from boostrank.metrics.ranking import ndcg_curve

    qid, X, y = data["qid"], data["X"], data["y"]
    if max_queries is not None:
        keep = np.isin(qid, np.unique(qid)[:max_queries])
        qid, X, y = qid[keep], X[keep], y[keep]
    order = np.argsort(qid, kind="stable")
    qid, X, y = qid[order], X[order].astype(np.float64), y[order]
    _, inverse = np.unique(qid, return_inverse=True)
    varies = np.zeros(X.shape[1], dtype=bool)
    for k in range(X.shape[1]):
        lo = np.full(inverse.max() + 1, np.inf)
        hi = np.full(inverse.max() + 1, -np.inf)
        np.minimum.at(lo, inverse, X[:, k])
        np.maximum.at(hi, inverse, X[:, k])
        varies[k] = bool((hi > lo).any())
    scores = np.array(
        [ndcg_curve(y, X[:, k], qid, k_max, formula=formula).mean() for k in range(X.shape[1])]  # type: ignore[arg-type]
    )
    return scores, varies


def select_base_rankers(spec: BaseRankersSpec) -> dict[str, Any]:
    """Best, median and worst candidate feature (1-based numbers), with every score."""
    import numpy as np

    from boostrank.data.prepare import load_letor
    from boostrank.io import read_json, write_json

    dataset, k_max, formula = spec.dataset, spec.k_max, spec.formula
    meta = read_json(spec.meta)
    scores, varies = feature_ranking(load_letor(spec.npz), k_max, formula, spec.max_queries)
    cand = np.flatnonzero(varies)
    if len(cand) == 0:
        raise BoostrankError(f"{dataset}: no feature varies within a query; no base ranker")
    ranked = cand[np.argsort(-scores[cand], kind="stable")]  # best first, ties by number
    record = {
        "dataset": dataset,
        "dataset_label": letor_label(meta),
        "rule": f"mean NDCG@1..{k_max} over all queries ({formula} formula); features constant "
        "within every query excluded",
        "best": int(ranked[0]) + 1,
        "medium": int(ranked[len(ranked) // 2]) + 1,
        "worst": int(ranked[-1]) + 1,
        "candidates": len(cand),
        "scores": {str(k + 1): round(float(scores[k]), 6) for k in range(len(scores))},
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    write_json(spec.out, record)
    return record


__all__ = ["feature_ranking", "select_base_rankers"]
