"""The MovieLens jobs of Figures 4.5-4.6 of Valizadegan (2010), chapter 4: ranking refinement
for a recommender system, with the queries, evaluation and method runners of :mod:`.jobs`.

Recommender (sections 1.6.2, 4.4.5, 4.4.6), MovieLens 100K: 20 training users at random, the
other 923 are test users; per test user 10 random rated movies are the feedback, Personality
Diagnosis over the training users ranks all the user's rated movies, and the held-out ones
(those not in the feedback) are evaluated (NDCG@1..10, grade = the rating, 5 best: the
dissertation's "1 is the best rating" is an erratum). Movie features: the 19 genre flags (the
32 IMDB keyword features cannot be rebuilt). Figure 4.5(b) draws the first 25 movies of each
user's random order, uses the first 5, 10, 15, 20 or 25 as feedback and evaluates on the rest
(users with at least 25 + 10 ratings), so every size is scored on the same movies. Equal
scores are evaluated in the order config ``chapter4.tie_break`` names, as on LETOR: a seeded
random order per user (``random``; MRR's stumps on the genre flags tie every movie with
another of the same genres) or the base order (``base``).

One Snakemake job per method family and replicate (config ``chapter4.replicates``: each
replicate its own split, :mod:`.jobs_curves`); seeds derive from the replicate's root seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.jobs import (
    Query,
    RunSettings,
    lrr_curves,
    measured,
    rocchio_curves,
    run_lrr,
    run_mrr,
    run_svm,
    sort_by_base,
)
from boostrank.experiments.chapter4.jobs_curves import MethodCurves, save_replicate, write_family
from boostrank.experiments.chapter4.spec import LABELS, SEED_KEY
from boostrank.seeds import derive_seed, replicate_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

    from boostrank.experiments.chapter4.spec import MoviesSpec


@dataclass
class Movies:
    """MovieLens split: training users' rating matrix and the test users' ratings."""

    train_users: np.ndarray
    test_users: list[int]
    R_train: np.ndarray  # (train users, items), NaN = unrated
    items: dict[int, np.ndarray]  # user -> rated item indices (0-based), in random order
    ratings: dict[int, np.ndarray]  # user -> ratings in the same order
    genres: np.ndarray  # (items, 19)


def load_movies(npz: Path | str, params: dict[str, Any], seed: int) -> Movies:
    """The split of section 4.4.1: ``train_users`` random users, the others test users (at
    most ``max_test_users``, by id), each with its rated movies in a random order."""
    import numpy as np

    with np.load(npz) as a:
        missing = {"user", "item", "rating", "item_genres"} - set(a.files)
        if missing:
            raise BoostrankError(f"{npz}: not MovieLens (lacks {sorted(missing)})")
        user, item, rating, genres = a["user"], a["item"], a["rating"], a["item_genres"]
    users = np.unique(user)
    rng = np.random.default_rng(derive_seed(seed, SEED_KEY, "movies", "split"))
    n_train = int(params["train_users"])
    if n_train >= len(users):
        raise BoostrankError(f"movies: {n_train} training users but only {len(users)} users")
    train = np.sort(rng.choice(users, size=n_train, replace=False))
    test = [int(u) for u in users if u not in set(train.tolist())]
    if params.get("max_test_users") is not None:
        test = test[: int(params["max_test_users"])]
    R = np.full((n_train, genres.shape[0]), np.nan)
    pos = {int(u): k for k, u in enumerate(train)}
    sel = np.isin(user, train)
    R[[pos[int(u)] for u in user[sel]], item[sel] - 1] = rating[sel]
    order = np.lexsort((item, user))
    user, item, rating = user[order], item[order], rating[order]
    starts = np.searchsorted(user, test)
    ends = np.searchsorted(user, test, side="right")
    items, ratings = {}, {}
    for u, s, e in zip(test, starts, ends, strict=True):
        perm = np.random.default_rng(derive_seed(seed, SEED_KEY, "movies", "user", u)).permutation(
            e - s
        )
        items[u] = item[s:e][perm] - 1
        ratings[u] = rating[s:e][perm].astype(np.int64)
    return Movies(train, test, R, items=items, ratings=ratings, genres=genres.astype(np.float64))


def movie_queries(
    mv: Movies,
    params: dict[str, Any],
    n_feedback: int,
    eval_from: int | None = None,
    users: Iterable[int] | None = None,
    tie_seed: int | None = None,
) -> list[Query]:
    """One query per test user: all rated movies, PD scores from the first ``n_feedback`` of
    the user's random order, evaluated on the movies from position ``eval_from`` (default:
    every movie not in the feedback); with ``tie_seed``, equal scores are evaluated in a
    random order seeded by ``(tie_seed, user)`` (the same for every family and size)."""
    import numpy as np

    from boostrank.recommend.personality_diagnosis import PersonalityDiagnosis

    cfg = params["movies"]
    pd_model = PersonalityDiagnosis(sigma=float(cfg["pd_sigma"]), score=cfg["pd_score"]).fit(
        mv.R_train
    )
    start = n_feedback if eval_from is None else eval_from
    out = []
    for u in mv.test_users if users is None else users:
        it, r = mv.items[u], mv.ratings[u]
        g = pd_model.predict(it[:n_feedback], r[:n_feedback], it)
        o = sort_by_base(g)  # ties keep the user's random order
        position = np.arange(len(it))[o]
        judged = position < n_feedback
        ties = None
        if tie_seed is not None:
            ties = np.random.default_rng([int(tie_seed), int(u)]).permutation(len(it))
        out.append(
            Query(
                u,
                mv.genres[it[o]],
                r[o] - int(cfg["grade_offset"]),
                g[o],
                judged,
                evaluate={"held-out": position >= start},
                tie_order=ties,
            )
        )
    return out


@dataclass
class MovieRun(RunSettings):
    """What every method family's runner of a MovieLens job reads: the split, the config
    section and the replicate's root seed; ``notes`` collects what a runner adds to the
    job's record."""

    mv: Movies
    meta: dict[str, Any]  # the data set's sidecar (provenance)
    params: dict[str, Any]
    seed: int
    tie_seed: int | None = None  # the evaluation order of equal scores (None: the base order)
    timing_out: Path | str | None = None  # MRR's running time per user (Figure 4.6)
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def cfg(self) -> dict[str, Any]:
        return self.params["movies"]

    def measure(
        self, qs: list[Query], scores: list[np.ndarray], label: str, extra: dict[str, Any]
    ) -> MethodCurves:
        """One method's per-user curves, with its share of tied movies."""
        return measured(qs, scores, label, extra, k_max=self.k_max, formula=self.formula)

    @property
    def common(self) -> dict[str, Any]:
        """The columns every row of the job carries."""
        return {"feedback": self.feedback, "variant": ""}

    @property
    def scope(self) -> str:
        """MRR's rows' variant: the reading of T (Eq. 4.3) it ran with."""
        return f"t_scope={self.params['refinement']['t_scope']}"

    def queries(self) -> list[Query]:
        """Every test user's query with the configured feedback."""
        return movie_queries(self.mv, self.params, self.feedback, tie_seed=self.tie_seed)


def movies_baselines(run: MovieRun) -> list[MethodCurves]:
    """The PD base ranker, Rocchio (best setting) and Ranking-SVM."""
    params, cfg, common = run.params, run.cfg, run.common
    qs = run.queries()
    out = [run.measure(qs, [q.g for q in qs], LABELS["base"], common)]
    relevant = int(cfg["relevant_rating"]) - int(cfg["grade_offset"])
    out.append(
        rocchio_curves(
            qs, params, k_max=run.k_max, formula=run.formula, common=common, relevant_min=relevant
        )
    )
    seed = derive_seed(run.seed, SEED_KEY, "movies", "svm")
    sscores, fallback = run_svm(qs, params, seed, run.guards)
    run.notes["svm_users_without_pairs"] = fallback
    out.append(run.measure(qs, sscores, LABELS["svm"], common))
    return out


def movies_lrr(run: MovieRun) -> list[MethodCurves]:
    """LRR for every gamma, LRR-Best and LRR-Worst."""
    qs = run.queries()
    scores = run_lrr(qs, run.params)
    return [
        lrr_curves(qs, scores, run.params, k_max=run.k_max, formula=run.formula, common=run.common)
    ]


def movies_mrr(run: MovieRun) -> list[MethodCurves]:
    """MRR, with the running time per user (Figure 4.6) written to ``run.timing_out``."""
    import numpy as np
    import pandas as pd

    from boostrank.io import write_text

    params, meta = run.params, run.meta
    qs = run.queries()
    timings: list[float] = []
    scores = run_mrr(qs, params, ("movies", "mrr"), run.seed, timings=timings, guards=run.guards)
    out = [run.measure(qs, scores, LABELS["mrr"], {**run.common, "variant": run.scope})]
    if run.timing_out is not None:
        timing = pd.DataFrame(
            {
                "user": [q.qid for q in qs],
                "rated_movies": [len(q.y) for q in qs],
                "seconds": np.round(timings, 6),
                "iterations": int(params["refinement"]["n_iterations"]),
                "data_kind": meta["provenance"]["kind"],
                "provenance": meta["provenance_line"],
            }
        )
        write_text(run.timing_out, timing.to_csv(index=False))
    return out


def movies_mrr_sizes(run: MovieRun) -> list[MethodCurves]:
    """MRR and the PD base ranker with 5..25 rated movies as feedback (Figure 4.5(b)), every
    size scored on the movies after the largest, for the users with enough ratings."""
    mv, params, cfg, k_max = run.mv, run.params, run.cfg, run.k_max
    out = []
    sizes = [int(s) for s in cfg["feedback_sizes"]]
    top = max(sizes)
    users = [u for u in mv.test_users if len(mv.items[u]) >= top + k_max]
    run.notes["users_sizes"] = len(users)
    for size in sizes:
        qs = movie_queries(mv, params, size, eval_from=top, users=users, tie_seed=run.tie_seed)
        extra = {**run.common, "feedback": size}
        out.append(run.measure(qs, [q.g for q in qs], LABELS["base"], extra))
        scores = run_mrr(qs, params, ("movies", "mrr_sizes", size), run.seed, guards=run.guards)
        out.append(run.measure(qs, scores, LABELS["mrr"], {**extra, "variant": run.scope}))
    return out


# The runner of each MovieLens method family (spec.MOVIE_FAMILIES), by family key.
MOVIE_RUNNERS: dict[str, Callable[[MovieRun], list[MethodCurves]]] = {
    "baselines": movies_baselines,
    "lrr": movies_lrr,
    "mrr": movies_mrr,
    "mrr_sizes": movies_mrr_sizes,
}


def movies_job(spec: MoviesSpec) -> pd.DataFrame | None:
    """One method family of Figures 4.5-4.6 on MovieLens. Replicate 1 (the config's seed)
    writes the rows averaged with the other replicates' files (:mod:`.jobs_curves`) and to
    ``spec.queries`` each test user's mean NDCG@1..k per method; replicate r >= 2 (its own
    split) writes its per-user curves to ``spec.out`` (an ``.npz``)."""
    from boostrank.io import read_json

    family, npz, params, seed, replicate = (
        spec.family,
        spec.npz,
        spec.params,
        spec.seed,
        spec.replicate,
    )
    meta = read_json(spec.meta)
    root = replicate_seed(seed, replicate)
    mv = load_movies(npz, params["movies"], root)
    random_ties = params.get("tie_break", "random") == "random"
    tie_seed = derive_seed(root, SEED_KEY, "movies", "ties") if random_ties else None
    run = MovieRun(mv, meta, params, root, tie_seed=tie_seed, timing_out=spec.timing)
    run.notes.update({"test_users": len(mv.test_users), "train_users": mv.train_users.tolist()})
    items = MOVIE_RUNNERS[family](run)
    if replicate > 1:
        save_replicate(spec.out, items, {"replicate": replicate, "seed": root, **run.notes})
        return None
    info = {
        "dataset": "movielens_100k",
        "dataset_label": "MovieLens 100K",
        "family": family,
        "formula": run.formula,
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    record = {"params": params, "seed": seed, **run.notes}
    files = (spec.out, spec.record, spec.queries)
    return write_family(items, spec.replicate_files, info, record, *files)


__all__ = [
    "MOVIE_RUNNERS",
    "MovieRun",
    "Movies",
    "load_movies",
    "movie_queries",
    "movies_job",
]
