"""The relevance-feedback jobs of Figures 4.2-4.4 of Valizadegan (2010), sections 4.4.1-4.4.4,
on the seven LETOR 3.0 data sets (``data/processed/<ds>.npz``, QueryLevelNorm features; OHSUMED
real, the .Gov sets synthetic stand-ins where no real copy exists, labelled in every output),
with the queries, evaluation and method runners of :mod:`.jobs`, on the base rankers
:mod:`.jobs_base` chose (its JSON record).

No folds: each query is refined on its own (the text has no training across queries), so
**every query of the data set** is used. One Snakemake job per (data set, method family) and
replicate (config ``chapter4.replicates`` on real data, :mod:`.jobs_curves`); seeds derive from
the replicate's root seed (replicate 1: config ``seed``) and, for each query's refinement, from
the query's id. So a family of :data:`.spec.BLOCK_FAMILIES` can be split by query (config
``chapter4.query_blocks``): each block job scores a contiguous block of the queries and writes
the scores; the replicate's job reads them, in query order, in place of scoring, and measures,
so the results are those of one job.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.jobs import (
    Query,
    RunSettings,
    letor_queries,
    lrr_curves,
    measured,
    rocchio_curves,
    run_lrr,
    run_mrr,
    run_svm,
    with_feedback,
)
from boostrank.experiments.chapter4.jobs_curves import MethodCurves, save_replicate, write_family
from boostrank.experiments.chapter4.spec import LABELS, SEED_KEY, alt_label, weak_label
from boostrank.experiments.common import letor_label
from boostrank.guards import FIELD, Guards, parse
from boostrank.seeds import derive_seed, replicate_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from boostrank.experiments.chapter4.spec import FeedbackSpec

log = logging.getLogger(__name__)
Curves = list["MethodCurves | None"]  # a runner's curves (None: a block job measures nothing)


@dataclass
class FeedbackRun(RunSettings):
    """What every method family's runner of a (data set, family) job reads: the data set's
    arrays, its base-ranker record, the config section and the replicate's root seed;
    ``notes`` collects what a runner adds to the job's record (a split family's replicate
    adds its block jobs' guards)."""

    dataset: str
    data: dict[str, np.ndarray]
    base: dict[str, Any]  # the base-ranker record (select_base_rankers)
    params: dict[str, Any]
    seed: int
    tie_seed: int | None  # the evaluation order of equal scores (None: the base order)
    notes: dict[str, Any] = field(default_factory=dict)
    block: int | None = None  # a block job's block of the queries, of ``blocks``
    blocks: int = 1
    # The replicate's job of a split family: each block's scores, per scoring call and query.
    block_scores: list[list[list[np.ndarray]]] = field(default_factory=list)
    scored: list[list[np.ndarray]] = field(default_factory=list)  # the scores, per call

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

    def score(
        self, qs: list[Query], method: Callable[[list[Query]], list[np.ndarray]]
    ) -> list[np.ndarray]:
        """``method``'s scores of each query of ``qs``: a block job scores its block of them;
        the replicate's job of a split family reads every block's (from their files)."""
        call = len(self.scored)
        if self.block is not None:
            self.scored.append(method(query_block(qs, self.block, self.blocks)))
        elif not self.block_scores:
            self.scored.append(method(qs))
        else:
            out: list[np.ndarray] = []
            for b, scores in enumerate(self.block_scores, start=1):
                want = len(query_block(qs, b, self.blocks))
                if call >= len(scores) or len(scores[call]) != want:
                    raise BoostrankError(
                        f"block {b}'s scores do not match this job's queries (scoring "
                        f"{call + 1}: {want} queries expected); delete its file and rerun"
                    )
                out += scores[call]
            self.scored.append(out)
        return self.scored[call]

    def measure(
        self,
        qs: list[Query],
        scores: list[np.ndarray],
        label: str,
        extra: dict[str, Any],
        **grid: Any,
    ) -> MethodCurves | None:
        """One method's per-query curves, with its share of tied documents (``grid``: the
        settings of a grid, :func:`.jobs.measured`); None in a block job, which only scores."""
        if self.block is not None:
            return None
        return measured(qs, scores, label, extra, k_max=self.k_max, formula=self.formula, **grid)


def query_block(qs: Sequence[Query], block: int, blocks: int) -> list[Query]:
    """Block ``block`` (1-based) of ``blocks`` contiguous blocks of the queries, the first
    ``len(qs) % blocks`` one query longer."""
    size, extra = divmod(len(qs), blocks)
    start = (block - 1) * size + min(block - 1, extra)
    return list(qs[start : start + size + (block <= extra)])


def save_scores(path: str, scored: list[list[np.ndarray]], guards: Guards) -> None:
    """A block's scores, per scoring call and query, and its fits' guard counts, as an
    ``.npz``."""
    import numpy as np

    from boostrank.io import save_npz

    arrays = {f"{c}.{i}": s for c, call in enumerate(scored) for i, s in enumerate(call)}
    counts = [len(call) for call in scored]
    meta = json.dumps({"counts": counts, FIELD: guards}, sort_keys=True)
    save_npz(path, meta=np.array(meta), **arrays)


def load_scores(path: str) -> tuple[list[list[np.ndarray]], Guards]:
    """The scores and guard counts :func:`save_scores` wrote."""
    import numpy as np

    try:
        with np.load(path) as a:
            meta = json.loads(str(a["meta"]))
            counts = meta["counts"]
            scores = [[a[f"{c}.{i}"] for i in range(n)] for c, n in enumerate(counts)]
            return scores, parse(meta.get(FIELD))
    except (OSError, KeyError, ValueError) as e:
        raise BoostrankError(
            f"{path}: not a Chapter 4 block's scores ({e}); delete it and rerun"
        ) from e


def feedback_baselines(run: FeedbackRun) -> Curves:
    """Base ranker, Rocchio (best setting per mode) and Ranking-SVM."""
    params, common = run.params, run.common
    qs = run.queries_for(run.best)
    out = [run.measure(qs, [q.g for q in qs], LABELS["base"], common)]
    out.append(rocchio_curves(qs, params, run.k_max, run.formula, common))
    seed = derive_seed(run.seed, SEED_KEY, run.dataset, "svm")
    sscores, fallback = run_svm(qs, params, seed, run.guards)
    run.notes["svm_queries_without_pairs"] = fallback
    out.append(run.measure(qs, sscores, LABELS["svm"], common))
    return out


def feedback_lrr(run: FeedbackRun) -> Curves:
    """LRR for every gamma, LRR-Best and LRR-Worst."""
    qs = run.queries_for(run.best)
    scores = run.score(qs, partial(run_lrr, params=run.params))
    if run.block is not None:
        return []
    return [
        lrr_curves(qs, scores, run.params, k_max=run.k_max, formula=run.formula, common=run.common)
    ]


def feedback_mrr(run: FeedbackRun) -> Curves:
    """MRR, then MRR with the other reading of T and with the other weak learner."""
    params, dataset, seed, common = run.params, run.dataset, run.seed, run.common
    qs = run.queries_for(run.best)
    cache: dict[int, np.ndarray] = {}
    scope = params["refinement"]["t_scope"]
    mrr = partial(run_mrr, params=params, root_seed=seed, W_cache=cache, guards=run.guards)
    scores = run.score(qs, partial(mrr, seed_parts=(dataset, "mrr")))
    out = [run.measure(qs, scores, LABELS["mrr"], {**common, "variant": f"t_scope={scope}"})]
    other = params.get("mrr_alternative_t_scope")
    if other and other != scope:
        alt = run.score(qs, partial(mrr, seed_parts=(dataset, "mrr", other), t_scope=other))
        out.append(
            run.measure(qs, alt, alt_label(other), {**common, "variant": f"t_scope={other}"})
        )
    learner = params.get("mrr_alternative_weak_learner")
    if learner and learner != params["mrr"]["weak_learner"]:
        alt = run.score(
            qs, partial(mrr, seed_parts=(dataset, "mrr", learner), weak_learner=learner)
        )
        variant = f"t_scope={scope},weak_learner={learner}"
        out.append(run.measure(qs, alt, weak_label(learner), {**common, "variant": variant}))
    return out


def feedback_mrr_bases(run: FeedbackRun) -> Curves:
    """MRR on the worst and the medium base ranker (Figure 4.3), with each base ranker."""
    out = []
    for which in ("worst", "medium"):
        feature = int(run.base[which])
        qs = run.queries_for(feature)
        extra = {**run.common, "base_feature": feature, "variant": which}
        out.append(run.measure(qs, [q.g for q in qs], LABELS["base"], extra))
        parts = (run.dataset, "mrr_bases", feature)
        mrr = partial(run_mrr, params=run.params, root_seed=run.seed, guards=run.guards)
        scores = run.score(qs, partial(mrr, seed_parts=parts))
        out.append(run.measure(qs, scores, LABELS["mrr"], extra))
    return out


def feedback_mrr_sizes(run: FeedbackRun) -> Curves:
    """MRR with the other feedback sizes (Figure 4.4). Under ``residual`` every size is scored
    on the same documents, those after the largest size (the largest feedback set removed), so
    the sizes compare on one set, as Figure 4.5(b) does. The configured size is family mrr's
    run when it is the largest (its residual is that set), else it is run here too."""
    out = []
    qs0 = run.queries_for(run.best)
    cache: dict[int, np.ndarray] = {}
    mrr = partial(run_mrr, params=run.params, root_seed=run.seed, W_cache=cache, guards=run.guards)
    sizes = sorted({int(s) for s in run.params["feedback_sizes"]} | {run.feedback})
    top = sizes[-1]
    for size in sizes:
        if size == run.feedback == top:
            continue  # the family "mrr" has it
        qs = with_feedback(qs0, size, residual_from=top)
        scores = run.score(qs, partial(mrr, seed_parts=(run.dataset, "mrr_sizes", size)))
        out.append(run.measure(qs, scores, LABELS["mrr"], {**run.common, "feedback": size}))
    return out


# The runner of each method family (spec.FAMILIES), by family key.
FEEDBACK_RUNNERS: dict[str, Callable[[FeedbackRun], Curves]] = {
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
    mode; replicate r >= 2 writes its per-query curves to ``spec.out`` (an ``.npz``); a block
    job (``spec.block``) writes only its block of queries' scores there."""
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
    blocks = [load_scores(f) for f in spec.block_files]
    run = FeedbackRun(
        dataset, data, base, params, root, tie_seed=tie_seed, block=spec.block,
        blocks=spec.blocks, block_scores=[b[0] for b in blocks],
    )  # fmt: skip
    for _, counts in blocks:  # the blocks' fits are this replicate's
        run.guards.add(counts)
    items = [c for c in FEEDBACK_RUNNERS[family](run) if c is not None]
    log.info(
        "%s %s replicate %d (block %s of %d) in %.1f s", dataset, family, replicate,
        spec.block or "-", spec.blocks, time.perf_counter() - started,
    )  # fmt: skip
    if spec.block is not None:
        save_scores(spec.out, run.scored, run.guards)
        return None
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
