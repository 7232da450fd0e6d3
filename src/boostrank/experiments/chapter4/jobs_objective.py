"""The objective job of Figure 4.1 of Valizadegan (2010), section 4.3.4: log L_p (Eq. 4.10)
per iteration of Algorithm 6 for every OHSUMED query, with the bounds of Theorems 9-10
(Eqs. 4.15, 4.19), for the configured MRR and each alternative reading alone (the other reading
of T, the other weak learner), with the queries of :mod:`.jobs`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boostrank.experiments.chapter4.jobs import letor_queries, pairs_of, refine_params
from boostrank.experiments.chapter4.spec import SEED_KEY
from boostrank.experiments.common import letor_label
from boostrank.seeds import derive_seed

if TYPE_CHECKING:
    import pandas as pd

    from boostrank.experiments.chapter4.spec import ObjectiveSpec


def objective_job(spec: ObjectiveSpec) -> pd.DataFrame:
    """Figure 4.1: log L_p per iteration for every query, with the bounds of Theorems 9-10,
    for the configured MRR, the alternative reading of T and the alternative weak learner."""
    import numpy as np
    import pandas as pd

    from boostrank.data.prepare import load_letor
    from boostrank.io import read_json, write_text
    from boostrank.ranking.mrr import MRR

    dataset, params, iterations, seed = spec.dataset, spec.params, spec.iterations, spec.seed
    meta = read_json(spec.meta)
    base = read_json(spec.base)
    qs = letor_queries(
        load_letor(spec.npz),
        int(base["best"]) - 1,
        int(params["feedback"]),
        params.get("max_queries"),
    )
    scope, learner = params["refinement"]["t_scope"], params["mrr"]["weak_learner"]
    runs = [(scope, learner)]  # the configured MRR, then each alternative reading alone
    other = params.get("mrr_alternative_t_scope")
    if other and other != scope:
        runs.append((other, learner))
    other = params.get("mrr_alternative_weak_learner")
    if other and other != learner:
        runs.append((scope, other))
    frames = []
    for t_scope, weak_learner in runs:
        kwargs = {
            **refine_params(params, "mrr"),
            "n_iterations": int(iterations),
            "t_scope": t_scope,
            "weak_learner": weak_learner,
        }
        labels = (t_scope,) if weak_learner == learner else (t_scope, weak_learner)
        for q in qs:
            model = MRR(
                **kwargs,
                random_state=derive_seed(seed, SEED_KEY, dataset, "objective", *labels, q.qid),
            )
            model.fit(q.X, q.g, pairs_of(q), judged=q.judged)
            t = np.arange(len(model.objective_))
            # the fit's guard counts (boostrank.guards), on each of its rows
            frames.append(
                pd.DataFrame(
                    {
                        "t_scope": t_scope,
                        "weak_learner": weak_learner,
                        "qid": q.qid,
                        "documents": len(q.y),
                        "pairs": len(pairs_of(q)),
                        "iteration": t,
                        "log_lp": model.objective_,
                        "log_theorem9": model.theorem9_bound(),
                        "log_theorem10": model.theorem10_bound(),
                        "edge": np.r_[model.edge_, np.nan],
                        "mu": np.r_[model.mu_, np.nan],
                        "nu": np.r_[model.nu_, np.nan],
                        "alpha": np.r_[model.alpha_, np.nan],
                        "guards": model.guards_.text(),
                    }
                )
            )
    frame = pd.concat(frames, ignore_index=True)
    frame.insert(0, "dataset", dataset)
    frame["dataset_label"] = letor_label(meta)
    frame["base_feature"] = int(base["best"])
    frame["data_kind"] = meta["provenance"]["kind"]
    frame["provenance"] = meta["provenance_line"]
    write_text(spec.out, frame.to_csv(index=False, float_format="%.8g"))
    return frame


__all__ = ["objective_job"]
