"""Figures 4.1-4.6 (Valizadegan 2010, sections 4.3-4.4): the data sets, method families and
their labels, the figure ids, each kind of job's parameters and the functions that build them
from the config, the paths of the jobs' results, and what each job reads (config keys) and runs
(code modules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.job import (
    FigureCode,
    JobKind,
    JobSpec,
    check_at_least,
    check_choice,
    curve_outputs,
    registry,
    stem,
)

SOURCE = "Valizadegan (2010), chapter 4"
SEED_KEY = "thesis-ch4"  # the first label of every Chapter 4 seed (boostrank.seeds)
# The figures whose claims are checked under every evaluation protocol (config
# ``chapter4.evaluate`` names the one drawn).
PROTOCOL_FIGURES = ("thesis-fig4_2", "thesis-fig4_3", "thesis-fig4_4")
DATASETS = ("ohsumed", "td2003", "td2004", "hp2003", "hp2004", "np2003", "np2004")
FAMILIES = ("baselines", "lrr", "mrr", "mrr_bases", "mrr_sizes")
MOVIE_FAMILIES = ("baselines", "lrr", "mrr", "mrr_sizes")
MODES = ("all", "residual")
LABELS = {
    "base": "Base ranker",
    "rocchio": "Rocchio",
    "svm": "Ranking-SVM",
    "lrr": "LRR",
    "lrr_best": "LRR-Best",
    "lrr_worst": "LRR-Worst",
    "mrr": "MRR",
}
# The methods the figures draw and compare, in legend order.
ORDER = ["Base ranker", "Rocchio", "Ranking-SVM", "LRR-Best", "LRR-Worst", "MRR"]
FIRST_THREE = ("ohsumed", "td2003", "td2004")  # section 4.4.2: NDCG falls with k on these
SIMILAR_TOL = 0.02  # "similar performance": mean NDCG within this


def alt_label(t_scope: str) -> str:
    """The name of MRR run with the other reading of ``T``."""
    return "MRR (T on judged pairs)" if t_scope == "judged" else "MRR (T on all pairs)"


def weak_label(weak_learner: str) -> str:
    """The name of MRR run with another weak learner (in the CSV, not drawn): with
    ``thresholds`` it shares LRR's weak learner, so MRR minus it is the weak learner's effect
    and it minus LRR-Best the objective's (L_p against L_a)."""
    return f"MRR [weak learner: {weak_learner}]"


# The figure whose folder (results/chapter4/<figure>/, benchmarks/<figure>/) holds each LETOR
# family's jobs.
FAMILY_FIGURE = {
    "baselines": "thesis-fig4_2",
    "lrr": "thesis-fig4_2",
    "mrr": "thesis-fig4_2",
    "mrr_bases": "thesis-fig4_3",
    "mrr_sizes": "thesis-fig4_4",
}

# Config keys each method family reads (the rest of config ``chapter4`` does not concern it,
# so editing another family's keys does not rerun its jobs).
FAMILY_KEYS = {
    "baselines": ("rocchio", "ranksvm"),
    "lrr": ("refinement", "lrr"),
    "mrr": ("refinement", "mrr", "mrr_alternative_t_scope", "mrr_alternative_weak_learner"),
    "mrr_bases": ("refinement", "mrr"),
    "mrr_sizes": ("refinement", "mrr", "feedback_sizes"),
    "objective": ("refinement", "mrr", "mrr_alternative_t_scope", "mrr_alternative_weak_learner"),
}
COMMON_KEYS = ("k_max", "feedback", "max_queries", "tie_break")
# The families whose job may be split by query (config ``query_blocks``): each query is refined
# on its own, with a seed drawn from its id, so a block of queries scores as it would in one job.
BLOCK_FAMILIES = ("lrr", "mrr", "mrr_bases", "mrr_sizes")


def query_blocks(section: dict[str, Any], family: str) -> int:
    """How many jobs (blocks of queries) one replicate of ``family``'s job is split into."""
    return int((section.get("query_blocks") or {}).get(family, 1))


def family_params(section: dict[str, Any], family: str, *, movies: bool = False) -> dict[str, Any]:
    """The part of config ``chapter4`` one job needs, with its NDCG formula (config
    ``chapter4.ndcg_formula``, reading ``chapter4_ndcg_formula``)."""
    keys = COMMON_KEYS + FAMILY_KEYS[family]
    out = {k: section[k] for k in keys if k in section}
    out["ndcg_formula"] = section["ndcg_formula"]
    if movies:
        out["movies"] = section["movies"]
        out.pop("feedback_sizes", None)
        out.pop("mrr_alternative_t_scope", None)
        out.pop("mrr_alternative_weak_learner", None)
    return out


# Package modules each job runs (Snakemake inputs: editing one reruns only its jobs).
COMMON_CODE = ("experiments.chapter4.jobs", "metrics.ranking", "io", "errors")
MOVIES_CODE = ("experiments.chapter4.jobs_movies", "recommend.personality_diagnosis")
# The module of each kind of LETOR job (a method family's: jobs_feedback).
LETOR_CODE = {
    "base_rankers": "experiments.chapter4.jobs_base",
    "objective": "experiments.chapter4.jobs_objective",
}
FEEDBACK_CODE = "experiments.chapter4.jobs_feedback"
FAMILY_CODE = {
    "baselines": ("ranking.rocchio", "ranking.ranksvm", "ranking.pairs", "ranking.validation"),
    "lrr": ("ranking.lrr", "ranking.mrr", "ranking.refinement"),
    "mrr": ("ranking.mrr", "ranking.refinement"),
    "mrr_bases": ("ranking.mrr", "ranking.refinement"),
    "mrr_sizes": ("ranking.mrr", "ranking.refinement"),
    "objective": ("ranking.mrr", "ranking.refinement"),
    "base_rankers": (),
}
FIGURE_CODE = ("experiments.chapter4.make", "plots", "io")  # the figure jobs (summary too)


def code_modules(family: str, *, movies: bool = False) -> list[str]:
    """The modules a job of ``family`` runs (``movies``: the MovieLens jobs, with Personality
    Diagnosis)."""
    runner = MOVIES_CODE if movies else (LETOR_CODE.get(family, FEEDBACK_CODE),)
    return list(dict.fromkeys(COMMON_CODE + FAMILY_CODE[family] + runner))


# ---------------------------------------------------------------- where the jobs write
RESULTS = "results/chapter4"
MOVIES_NPZ = "data/processed/movielens_100k.npz"
MOVIES_META = "data/processed/movielens_100k.json"
OBJECTIVE_CSV = f"{RESULTS}/thesis-fig4_1/ohsumed/objective.csv"
TIMING_CSV = f"{RESULTS}/thesis-fig4_5/movielens_100k/timing.csv"
# A family's job on real data runs chapter4.replicates times (a stand-in once): replicate 1
# writes the family's results, averaged with replicates 2.. (their own .npz jobs).
LATER_REPLICATE = "[2-9]|[1-9][0-9]+"
# The LETOR families each of Figures 4.2-4.4 merges (and Figure 4.5 on MovieLens).
FIGURE_FAMILIES = {
    "thesis-fig4_2": ("baselines", "lrr", "mrr"),
    "thesis-fig4_3": ("baselines", "mrr", "mrr_bases"),
    "thesis-fig4_4": ("baselines", "mrr", "mrr_sizes"),
    "thesis-fig4_5": MOVIE_FAMILIES,
}


def family_stem(figure: str, dataset: str, family: str) -> str:
    """A LETOR family job's results path without its suffix."""
    return f"{RESULTS}/{figure}/{dataset}/{family}"


def feedback_csv(dataset: str, family: str) -> str:
    """The results CSV of a LETOR family's job (in its figure's folder, FAMILY_FIGURE)."""
    return f"{family_stem(FAMILY_FIGURE[family], dataset, family)}.csv"


def base_json(dataset: str) -> str:
    """The base-ranker record of a LETOR data set."""
    return f"{RESULTS}/thesis-fig4_3/{dataset}/base_rankers.json"


def movie_stem(family: str) -> str:
    """A MovieLens family job's results path without its suffix."""
    return f"{RESULTS}/thesis-fig4_5/movielens_100k/{family}"


def replicate_files(stem: str, count: int) -> list[str]:
    """The .npz files of replicates 2..``count`` of the family job at ``stem``."""
    return [f"{stem}.r{r}.npz" for r in range(2, count + 1)]


def block_files(stem: str, replicate: int, count: int) -> list[str]:
    """The scores of the ``count`` blocks of queries of replicate ``replicate`` of the job at
    ``stem`` (none when it is not split)."""
    return [f"{stem}.r{replicate}.b{b}.npz" for b in range(1, count + 1)] if count > 1 else []


def queries_csv(csv: str) -> str:
    """The per-query samples beside a family's results CSV."""
    return csv.removesuffix(".csv") + ".queries.csv"


def figure_inputs(figure: str, datasets: list[str] | tuple[str, ...]) -> list[str]:
    """The result files ``figure`` merges: the objective CSV (4.1); the families' results and
    per-query samples on ``datasets`` (4.2-4.4, with the base-ranker records for 4.3); the
    MovieLens families' and the ratings (4.5); the timing CSV (4.6)."""
    check_choice("figure", figure, FIGURES)
    if figure == "thesis-fig4_1":
        return [OBJECTIVE_CSV]
    if figure == "thesis-fig4_6":
        return [TIMING_CSV]
    if figure == "thesis-fig4_5":
        out = [f"{movie_stem(f)}.csv" for f in FIGURE_FAMILIES[figure]]
        return out + [queries_csv(f) for f in out] + [MOVIES_NPZ]
    out = [feedback_csv(d, f) for d in datasets for f in FIGURE_FAMILIES[figure]]
    bases = [base_json(d) for d in datasets] if figure == "thesis-fig4_3" else []
    return out + [queries_csv(f) for f in out] + bases


def record_inputs(figure: str, datasets: list[str] | tuple[str, ...]) -> list[str]:
    """The JSON records of the jobs ``figure`` merges (beside their results CSVs), whose guard
    counts its guard table sums; Figure 4.1's are in the objective CSV's ``guards`` column, and
    Figure 4.6's is MovieLens MRR's record (the job that times it)."""
    check_choice("figure", figure, FIGURES)
    if figure == "thesis-fig4_1":
        return []
    if figure == "thesis-fig4_6":
        return [f"{movie_stem('mrr')}.json"]
    if figure == "thesis-fig4_5":
        return [f"{movie_stem(f)}.json" for f in FIGURE_FAMILIES[figure]]
    return [
        feedback_csv(d, f).removesuffix(".csv") + ".json"
        for d in datasets
        for f in FIGURE_FAMILIES[figure]
    ]


# ---------------------------------------------------------------- the jobs' parameters
FORMULAS = ("letor", "report")


def _check_replicate(replicate: int, record: str | None, replicate_files: tuple[str, ...]) -> None:
    """Replicate 1 writes the results (a record) from the other replicates' files; replicate
    r >= 2 writes its own curves only."""
    check_at_least("replicate", replicate, 1)
    if replicate == 1 and record is None:
        raise BoostrankError("field 'record': replicate 1 writes the results, give a record")
    if replicate > 1 and replicate_files:
        raise BoostrankError("field 'replicate_files': only replicate 1 reads the others")


@dataclass(frozen=True)
class BaseRankersSpec(JobSpec):
    """The base rankers of one LETOR data set (section 4.4.1):
    :func:`.jobs_base.select_base_rankers`."""

    dataset: str
    npz: str
    meta: str
    k_max: int
    formula: str
    max_queries: int | None
    out: str

    def check(self) -> None:
        self.one_of("formula", FORMULAS)
        self.at_least("k_max", 1)
        self.at_least("max_queries", 1)


@dataclass(frozen=True)
class FeedbackSpec(JobSpec):
    """One (LETOR data set, method family) of Figures 4.2-4.4, one replicate:
    :func:`.jobs_feedback.feedback_job`; ``params`` is the family's part of config
    ``chapter4`` (:func:`family_params`)."""

    dataset: str
    family: str
    npz: str
    meta: str
    base: str  # the base-ranker record
    params: dict[str, Any]
    seed: int
    replicate: int
    replicate_files: tuple[str, ...]  # replicate 1: the other replicates' .npz
    out: str  # the rows (replicate 1), the curves (.npz) or a block's scores (.npz)
    record: str | None  # replicate 1: the job's JSON record
    queries: str | None  # replicate 1: each query's mean NDCG@1..k
    block: int | None  # a block job's block of queries (None: the replicate's job)
    blocks: int  # blocks of queries the replicate is split into (config query_blocks)
    block_files: tuple[str, ...]  # the replicate's job, when split: every block's scores

    def check(self) -> None:
        self.one_of("family", FAMILIES)
        self.at_least("blocks", 1)
        if self.blocks > 1 and self.family not in BLOCK_FAMILIES:
            raise BoostrankError(
                f"query_blocks: family {self.family!r} is not split by query; only "
                f"{', '.join(BLOCK_FAMILIES)} are (remove {self.family} from query_blocks)"
            )
        if self.block is not None:  # a block job writes its queries' scores only
            self.at_least("block", 1)
            self.at_least("replicate", 1)
            if self.block > self.blocks:
                raise BoostrankError(f"field 'block': {self.block} > blocks ({self.blocks})")
            if self.block_files or self.replicate_files or self.record or self.queries:
                raise BoostrankError(
                    "a block job writes its scores only: no block_files, replicate_files, "
                    "record or queries"
                )
            return
        wanted = self.blocks if self.blocks > 1 else 0  # one job whole: it scores itself
        if len(self.block_files) != wanted:
            raise BoostrankError(
                f"field 'block_files': a job split into {self.blocks} blocks reads {wanted} "
                f"blocks' scores, given {len(self.block_files)}"
            )
        _check_replicate(self.replicate, self.record, self.replicate_files)


@dataclass(frozen=True)
class ObjectiveSpec(JobSpec):
    """Figure 4.1's objective job (section 4.3.4): :func:`.jobs_objective.objective_job`."""

    dataset: str
    npz: str
    meta: str
    base: str
    params: dict[str, Any]
    iterations: int
    seed: int
    out: str

    def check(self) -> None:
        self.at_least("iterations", 1)


@dataclass(frozen=True)
class MoviesSpec(JobSpec):
    """One method family of Figures 4.5-4.6 on MovieLens, one replicate:
    :func:`.jobs_movies.movies_job` (``timing``: MRR's, Figure 4.6)."""

    family: str
    npz: str
    meta: str
    params: dict[str, Any]
    seed: int
    replicate: int
    replicate_files: tuple[str, ...]
    out: str
    record: str | None
    timing: str | None
    queries: str | None

    def check(self) -> None:
        self.one_of("family", MOVIE_FAMILIES)
        _check_replicate(self.replicate, self.record, self.replicate_files)


@dataclass(frozen=True)
class FigureSpec(JobSpec):
    """One of Figures 4.1-4.6 from its jobs' results (:func:`.make.make_figure`): results,
    summary and its per-query samples, drawing; ``evaluated`` is the protocol drawn, ``claims``
    the registry the published base rankers are read from."""

    figure: str
    inputs: tuple[str, ...]
    csv: str
    summary: str
    samples: str
    figure_prefix: str
    evaluated: str
    bin_width: int  # Figure 4.6: movies per group
    claims: str
    no_change_se: float  # config chapter4.no_change_se: "no change" within this many SEs
    records: tuple[str, ...] = ()  # the jobs' JSON records (record_inputs): their guards
    guards: str | None = None  # the guard table, results/guards/<figure>.csv

    def check(self) -> None:
        self.one_of("figure", FIGURES)
        self.one_of("evaluated", MODES)
        self.at_least("bin_width", 1)
        self.at_least("no_change_se", 0.0)


_FEEDBACK_KEYS = tuple(dict.fromkeys(k for f in FAMILIES for k in FAMILY_KEYS[f]))
BASE_RANKERS = JobKind(
    "chapter4.base_rankers",
    ("k_max", "ndcg_formula", "max_queries"),
    tuple(code_modules("base_rankers")),
    BaseRankersSpec,
    "boostrank.experiments.chapter4.jobs_base:select_base_rankers",
)
# One job per (data set, family) and replicate; its code also lists the family's method
# modules (code_modules), so editing one method reruns only its families' jobs.
FEEDBACK = JobKind(
    "chapter4.feedback",
    (*COMMON_KEYS, *_FEEDBACK_KEYS, "ndcg_formula", "replicates", "query_blocks"),
    (*COMMON_CODE, FEEDBACK_CODE),
    FeedbackSpec,
    "boostrank.experiments.chapter4.jobs_feedback:feedback_job",
)
OBJECTIVE = JobKind(
    "chapter4.objective",
    (*COMMON_KEYS, *FAMILY_KEYS["objective"], "ndcg_formula", "objective_iterations"),
    tuple(code_modules("objective")),
    ObjectiveSpec,
    "boostrank.experiments.chapter4.jobs_objective:objective_job",
)
MOVIES = JobKind(
    "chapter4.movies",
    (*COMMON_KEYS, *_FEEDBACK_KEYS, "movies", "ndcg_formula", "replicates"),
    (*COMMON_CODE, *MOVIES_CODE),
    MoviesSpec,
    "boostrank.experiments.chapter4.jobs_movies:movies_job",
)
FIGURE = JobKind(
    "chapter4.figure",
    ("evaluate", "movies", "no_change_se"),
    FIGURE_CODE,
    FigureSpec,
    "boostrank.experiments.chapter4.make:make_figure",
)
JOBS = registry(BASE_RANKERS, FEEDBACK, OBJECTIVE, MOVIES, FIGURE)


def figure_outputs(figure: str) -> dict[str, str | tuple[str, ...]]:
    """The outputs of a figure's job (rule chapter4_figure; ``{fig}`` there)."""
    return curve_outputs(figure, guards=True)


# Figures 4.1-4.6: the rules of their jobs (the family jobs of Figures 4.2-4.4 and 4.5-4.6, the
# objective of Figure 4.1), the functions they run (the figure's drawing last), their outputs.
_FEEDBACK_RULES = ("chapter4_feedback", "chapter4_feedback_replicate", "chapter4_feedback_block")
_MOVIE_RULES = ("chapter4_movies_mrr", "chapter4_movies_replicate")
_BASE = ("chapter4_base_rankers",)
_DRAW = "boostrank.experiments.chapter4.figure:"
_MADE_BY = {  # figure -> its jobs' rules, their kinds, its drawing function
    "thesis-fig4_1": ((*_BASE, "chapter4_objective"), (BASE_RANKERS, OBJECTIVE), "figure4_1"),
    "thesis-fig4_2": ((*_BASE, *_FEEDBACK_RULES), (BASE_RANKERS, FEEDBACK), "figure4_2"),
    "thesis-fig4_3": ((*_BASE, *_FEEDBACK_RULES), (BASE_RANKERS, FEEDBACK), "figure4_3"),
    "thesis-fig4_4": ((*_BASE, *_FEEDBACK_RULES), (BASE_RANKERS, FEEDBACK), "figure4_4"),
    "thesis-fig4_5": (("chapter4_movies", *_MOVIE_RULES), (MOVIES,), "figure4_5"),
    "thesis-fig4_6": (_MOVIE_RULES, (MOVIES,), "figure4_6"),
}
FIGURES = {
    figure: FigureCode(
        rules=(*rules, "chapter4_figure"),
        entries=(*(job.entry for job in jobs), FIGURE.entry, _DRAW + draw),
        outputs=figure_outputs(figure),
        unlisted=("samples",),
    )
    for figure, (rules, jobs, draw) in _MADE_BY.items()
}


# ---------------------------------------------------------------- the rules' spec functions
def _params(config: dict[str, Any], family: str, *, movies: bool = False) -> dict[str, Any]:
    """:func:`family_params` of the config."""
    return family_params(config["chapter4"], family, movies=movies)


def base_rankers_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> BaseRankersSpec:
    """The base-ranker job of ``wildcards.dataset`` (rule chapter4_base_rankers)."""
    section = config["chapter4"]
    return BaseRankersSpec(
        dataset=wildcards.dataset,
        npz=input.npz,
        meta=input.meta,
        k_max=section["k_max"],
        formula=section["ndcg_formula"],
        max_queries=section["max_queries"] or None,
        out=output.json,
    )


def _feedback(
    config: dict[str, Any], wildcards: Any, input: Any, block: int | None = None, **files: Any
) -> FeedbackSpec:
    return FeedbackSpec(
        dataset=wildcards.dataset,
        family=wildcards.family,
        npz=input.npz,
        meta=input.meta,
        base=input.base,
        params=_params(config, wildcards.family),
        seed=config["seed"],
        block=block,
        blocks=query_blocks(config["chapter4"], wildcards.family),
        block_files=tuple(input.blocks) if block is None else (),
        **files,
    )


def feedback_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> FeedbackSpec:
    """Replicate 1 of a LETOR family's job, which writes its results (rule chapter4_feedback)."""
    return _feedback(
        config,
        wildcards,
        input,
        replicate=1,
        replicate_files=list(input.replicates),
        out=output.csv,
        record=output.record,
        queries=output.queries,
    )


def feedback_replicate_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> FeedbackSpec:
    """Replicate ``wildcards.replicate`` >= 2 of a LETOR family's job (its curves' .npz)."""
    return _feedback(
        config,
        wildcards,
        input,
        replicate=int(wildcards.replicate),
        replicate_files=[],
        out=output.npz,
        record=None,
        queries=None,
    )


def feedback_block_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> FeedbackSpec:
    """Block ``wildcards.block`` of replicate ``wildcards.replicate`` of a LETOR family's job
    split by query (its queries' scores, .npz; rule chapter4_feedback_block)."""
    return _feedback(
        config,
        wildcards,
        input,
        block=int(wildcards.block),
        replicate=int(wildcards.replicate),
        replicate_files=[],
        out=output.npz,
        record=None,
        queries=None,
    )


def objective_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> ObjectiveSpec:
    """Figure 4.1's objective job on OHSUMED (rule chapter4_objective): the configured
    iterations, else MRR's."""
    section = config["chapter4"]
    return ObjectiveSpec(
        dataset="ohsumed",
        npz=input.npz,
        meta=input.meta,
        base=input.base,
        params=_params(config, "objective"),
        iterations=section["objective_iterations"] or section["refinement"]["n_iterations"],
        seed=config["seed"],
        out=output.csv,
    )


def movies_spec(
    config: dict[str, Any],
    wildcards: Any,
    input: Any,
    output: Any,
    family: str | None = None,
    timing: bool = False,
) -> MoviesSpec:
    """Replicate 1 of a MovieLens family's job (``family``, else the wildcard's; ``timing``:
    it also writes MRR's running times, rule chapter4_movies_mrr)."""
    family = family or wildcards.family
    return MoviesSpec(
        family=family,
        npz=input.npz,
        meta=input.meta,
        params=_params(config, family, movies=True),
        seed=config["seed"],
        replicate=1,
        replicate_files=tuple(input.replicates),
        out=output.csv,
        record=output.record,
        timing=output.timing if timing else None,
        queries=output.queries,
    )


def movies_replicate_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any
) -> MoviesSpec:
    """Replicate ``wildcards.replicate`` >= 2 of a MovieLens family's job (its own split)."""
    return MoviesSpec(
        family=wildcards.family,
        npz=input.npz,
        meta=input.meta,
        params=_params(config, wildcards.family, movies=True),
        seed=config["seed"],
        replicate=int(wildcards.replicate),
        replicate_files=(),
        out=output.npz,
        record=None,
        timing=None,
        queries=None,
    )


def figure_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> FigureSpec:
    """The figure job of ``wildcards.fig`` (rule chapter4_figure)."""
    section = config["chapter4"]
    return FigureSpec(
        figure=wildcards.fig,
        inputs=tuple(input.results),
        csv=output.csv,
        summary=output.summary,
        samples=output.samples,
        figure_prefix=stem(output.figure[0]),
        evaluated=section["evaluate"],
        bin_width=section["movies"]["time_bin_width"],
        claims=input.claims,
        no_change_se=section["no_change_se"],
        records=tuple(input.records),
        guards=output.guards,
    )


__all__ = [
    "BASE_RANKERS",
    "BLOCK_FAMILIES",
    "COMMON_KEYS",
    "DATASETS",
    "FAMILIES",
    "FAMILY_CODE",
    "FAMILY_FIGURE",
    "FAMILY_KEYS",
    "FEEDBACK",
    "FEEDBACK_CODE",
    "FIGURE",
    "FIGURES",
    "FIGURE_CODE",
    "FIGURE_FAMILIES",
    "FIRST_THREE",
    "FORMULAS",
    "JOBS",
    "LABELS",
    "LATER_REPLICATE",
    "LETOR_CODE",
    "MODES",
    "MOVIES",
    "MOVIES_META",
    "MOVIES_NPZ",
    "MOVIE_FAMILIES",
    "OBJECTIVE",
    "OBJECTIVE_CSV",
    "ORDER",
    "PROTOCOL_FIGURES",
    "RESULTS",
    "SEED_KEY",
    "SIMILAR_TOL",
    "SOURCE",
    "TIMING_CSV",
    "BaseRankersSpec",
    "FeedbackSpec",
    "FigureSpec",
    "MoviesSpec",
    "ObjectiveSpec",
    "alt_label",
    "base_json",
    "base_rankers_spec",
    "block_files",
    "code_modules",
    "family_params",
    "family_stem",
    "feedback_block_spec",
    "feedback_csv",
    "feedback_replicate_spec",
    "feedback_spec",
    "figure_inputs",
    "figure_outputs",
    "figure_spec",
    "movie_stem",
    "movies_replicate_spec",
    "movies_spec",
    "objective_spec",
    "queries_csv",
    "query_blocks",
    "record_inputs",
    "replicate_files",
    "weak_label",
]
