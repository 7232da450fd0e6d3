"""The relevance-feedback jobs of Figures 4.2-4.4 of Valizadegan (2010), sections 4.4.1-4.4.4,
on the seven LETOR 3.0 data sets (``data/processed/<ds>.npz``, QueryLevelNorm features; OHSUMED
real, the .Gov sets synthetic stand-ins where no real copy exists, labelled in every output),
with the queries, evaluation and method runners of :mod:`.jobs`, on the base rankers
:mod:`.jobs_base` chose (its JSON record).

No folds: each query is refined on its own (the text has no training across queries), so
**every query of the data set** is used. One Snakemake job per (data set, method family) and
replicate (config ``chapter4.replicates`` on real data, :mod:`.jobs_curves`); seeds derive from
the replicate's root seed (replicate 1: config ``seed``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boostrank.experiments.chapter4.jobs import (
    Query,
    letor_queries,
    lrr_curves,
    measured,
    rocchio_curves,
    run_mrr,
    run_svm,
    with_feedback,
)
from boostrank.experiments.chapter4.jobs_curves import MethodCurves, save_replicate, write_family
from boostrank.experiments.chapter4.spec import LABELS, SEED_KEY, alt_label, weak_label
from boostrank.experiments.common import letor_label
from boostrank.seeds import derive_seed, replicate_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from boostrank.experiments.chapter4.spec import FeedbackSpec

log = logging.getLogger(__name__)


@dataclass
class FeedbackRun:
    """What every method family's runner of a (data set, family) job reads: the data set's
    arrays, its base-ranker record, the config section and the replicate's root seed;
    ``notes`` collects what a runner adds to the job's record."""

    dataset: str
    data: dict[str, np.ndarray]
    base: dict[str, Any]  # the base-ranker record (select_base_rankers)
    params: dict[str, Any]
    seed: int
    tie_seed: int | None  # the evaluation order of equal scores (None: the base order)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def k_max(self) -> int:
        return int(self.params["k_max"])

    @property
    def formula(self) -> str:
        return str(self.params["ndcg_formula"])

    @property
    def feedback(self) -> int:
        return int(self.params["feedback"])

    @property
    def best(self) -> int:
        return int(self.base["best"])

    @property
    def common(self) -> dict[str, Any]:
        """The columns every row of the job carries."""
        return {"base_feature": self.best, "feedback": self.feedback, "variant": ""}

    def queries_for(self, feature: int, n_fb: int | None = None) -> list[Query]:
        """The queries ranked by ``feature`` (1-based), the first ``n_fb`` documents judged."""
        n_fb = self.feedback if n_fb is None else n_fb
        return letor_queries(
            self.data, feature - 1, n_fb, self.params.get("max_queries"), self.tie_seed
        )

    def measure(
        self, qs: list[Query], scores: list[np.ndarray], label: str, extra: dict[str, Any]
    ) -> MethodCurves:
        """One method's per-query curves, with its share of tied documents."""
        return measured(qs, scores, label, extra, self.k_max, self.formula)


def feedback_baselines(run: FeedbackRun) -> list[MethodCurves]:
    """Base ranker, Rocchio (best setting per mode) and Ranking-SVM."""
    params, common = run.params, run.common
    qs = run.queries_for(run.best)
    out = [run.measure(qs, [q.g for q in qs], LABELS["base"], common)]
    out.append(rocchio_curves(qs, params, run.k_max, run.formula, common))
    sscores, fallback = run_svm(qs, params, derive_seed(run.seed, SEED_KEY, run.dataset, "svm"))
    run.notes["svm_queries_without_pairs"] = fallback
    out.append(run.measure(qs, sscores, LABELS["svm"], common))
    return out


def feedback_lrr(run: FeedbackRun) -> list[MethodCurves]:
    """LRR for every gamma, LRR-Best and LRR-Worst."""
    return [lrr_curves(run.queries_for(run.best), run.params, run.k_max, run.formula, run.common)]


def feedback_mrr(run: FeedbackRun) -> list[MethodCurves]:
    """MRR, then MRR with the other reading of T and with the other weak learner."""
    params, dataset, seed, common = run.params, run.dataset, run.seed, run.common
    qs = run.queries_for(run.best)
    cache: dict[int, np.ndarray] = {}
    scope = params["refinement"]["t_scope"]
    scores = run_mrr(qs, params, (dataset, "mrr"), seed, W_cache=cache)
    out = [run.measure(qs, scores, LABELS["mrr"], {**common, "variant": f"t_scope={scope}"})]
    other = params.get("mrr_alternative_t_scope")
    if other and other != scope:
        alt = run_mrr(qs, params, (dataset, "mrr", other), seed, t_scope=other, W_cache=cache)
        out.append(
            run.measure(qs, alt, alt_label(other), {**common, "variant": f"t_scope={other}"})
        )
    learner = params.get("mrr_alternative_weak_learner")
    if learner and learner != params["mrr"]["weak_learner"]:
        alt = run_mrr(
            qs, params, (dataset, "mrr", learner), seed, weak_learner=learner, W_cache=cache
        )
        variant = f"t_scope={scope},weak_learner={learner}"
        out.append(run.measure(qs, alt, weak_label(learner), {**common, "variant": variant}))
    return out


def feedback_mrr_bases(run: FeedbackRun) -> list[MethodCurves]:
    """MRR on the worst and the medium base ranker (Figure 4.3), with each base ranker."""
    out = []
    for which in ("worst", "medium"):
        feature = int(run.base[which])
        qs = run.queries_for(feature)
        extra = {**run.common, "base_feature": feature, "variant": which}
        out.append(run.measure(qs, [q.g for q in qs], LABELS["base"], extra))
        scores = run_mrr(qs, run.params, (run.dataset, "mrr_bases", feature), run.seed)
        out.append(run.measure(qs, scores, LABELS["mrr"], extra))
    return out


def feedback_mrr_sizes(run: FeedbackRun) -> list[MethodCurves]:
    """MRR with the other feedback sizes (Figure 4.4). Under ``residual`` every size is scored
    on the same documents, those after the largest size (the largest feedback set removed), so
    the sizes compare on one set, as Figure 4.5(b) does. The configured size is family mrr's
    run when it is the largest (its residual is that set), else it is run here too."""
    out = []
    qs0 = run.queries_for(run.best)
    cache: dict[int, np.ndarray] = {}
    sizes = sorted({int(s) for s in run.params["feedback_sizes"]} | {run.feedback})
    top = sizes[-1]
    for size in sizes:
        if size == run.feedback == top:
            continue  # the family "mrr" has it
        qs = with_feedback(qs0, size, residual_from=top)
        scores = run_mrr(qs, run.params, (run.dataset, "mrr_sizes", size), run.seed, W_cache=cache)
        out.append(run.measure(qs, scores, LABELS["mrr"], {**run.common, "feedback": size}))
    return out


# The runner of each method family (spec.FAMILIES), by family key.
FEEDBACK_RUNNERS: dict[str, Callable[[FeedbackRun], list[MethodCurves]]] = {
    "baselines": feedback_baselines,
    "lrr": feedback_lrr,
    "mrr": feedback_mrr,
    "mrr_bases": feedback_mrr_bases,
    "mrr_sizes": feedback_mrr_sizes,
}


def feedback_job(spec: FeedbackSpec) -> pd.DataFrame | None:
    """One (data set, method family) of Figures 4.2-4.4. Replicate 1 (the config's seed)
    writes NDCG@1..k rows for both modes, averaged with the other replicates' files
    (:mod:`.jobs_curves`), and to ``spec.queries`` each query's mean NDCG@1..k per method and
    mode; replicate r >= 2 writes its per-query curves to ``spec.out`` (an ``.npz``)."""
    from boostrank.data.prepare import load_letor
    from boostrank.io import read_json

    dataset, family, params, seed, replicate = (
        spec.dataset,
        spec.family,
        spec.params,
        spec.seed,
        spec.replicate,
    )
    meta = read_json(spec.meta)
    base = read_json(spec.base)
    data = load_letor(spec.npz)
    started = time.perf_counter()
    root = replicate_seed(seed, replicate)
    random_ties = params.get("tie_break", "random") == "random"
    tie_seed = derive_seed(root, SEED_KEY, dataset, "ties") if random_ties else None
    run = FeedbackRun(dataset, data, base, params, root, tie_seed)
    items = FEEDBACK_RUNNERS[family](run)
    log.info(
        "%s %s replicate %d in %.1f s", dataset, family, replicate, time.perf_counter() - started
    )
    if replicate > 1:
        save_replicate(spec.out, items, {"replicate": replicate, "seed": root, **run.notes})
        return None
    info = {
        "dataset": dataset,
        "dataset_label": letor_label(meta),
        "family": family,
        "formula": run.formula,
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    record = {
        "params": params,
        "seed": seed,
        "base_rankers": {k: base[k] for k in ("best", "medium", "worst")},
        **run.notes,
    }
    files = (spec.out, spec.record, spec.queries)
    return write_family(items, spec.replicate_files, info, record, *files)


__all__ = ["FEEDBACK_RUNNERS", "FeedbackRun", "feedback_job"]
