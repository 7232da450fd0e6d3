"""Figure 3.1 of Valizadegan (2010), chapter 3: the constants every part reads -- the ids, the
data sets, the algorithm table (name, import path, whether the validation part is passed),
and each Snakemake job's command, config keys and code roots.

Nothing here imports an algorithm: each class is imported only in the job that trains it
(:func:`boostrank.experiments.chapter3.jobs.load_class`), and the workflow reads which modules
a training job runs with :func:`code_modules`, from the sources.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.job import FigureCode, JobKind, JobSpec, registry, stem, with_exts

FIGURE_ID = "thesis-fig3_1"
SOURCE = "Valizadegan (2010), section 3.4.2, Figure 3.1"
DATASETS = ("ohsumed", "td2003", "td2004", "hp2003", "hp2004", "np2003", "np2004")
TABLE_KS = (1, 3, 5, 10)
TIE_BREAKS = ("random", "file_order")
NDCG_FORMULAS = ("letor", "report")  # config chapter3.ndcg_formula (metrics.ranking)
# The baseline values the comparative claims rank NDCG_Boost among (chapter3.baselines_compared).
BASELINES_COMPARED = ("published", "retrained")
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
    # Where training draws random numbers: "always" (NDCG_Boost's weighted sampling),
    # "pair_sample" (only when max_pairs_per_query subsamples the pairs) or "never"
    # (deterministic; random_state is accepted for a uniform API). An unseeded ranker keeps its
    # class's random_state: RankSVM on every pair then solves with a fixed coordinate order.
    randomness: str = "never"

    @property
    def import_path(self) -> str:
        """``boostrank.ranking.<module>:<Class>``."""
        return f"{RANKING_PACKAGE}.{self.module}:{self.cls}"


# name -> import path and whether fit() gets the validation part (section 3.4.1: LETOR's
# baselines choose their parameters on it, NDCG_Boost does not); LambdaMART is the reference.
ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm(
        "ndcg_boost", "NDCG_Boost", "ndcg_boost", "NDCGBoost", validation=False, randomness="always"
    ),
    Algorithm(
        "adarank_ndcg",
        "AdaRank-NDCG",
        "adarank",
        "AdaRank",
        True,
        letor_name="AdaRank-NDCG",
    ),
    Algorithm(
        "regression",
        "Regression",
        "linear",
        "LinearRanker",
        False,
        letor_name="Regression",
    ),
    Algorithm(
        "ranksvm",
        "RankSVM",
        "ranksvm",
        "RankSVM",
        True,
        letor_name="RankSVM",
        randomness="pair_sample",
    ),
    Algorithm(
        "frank", "FRank", "frank", "FRank", True, letor_name="FRank", randomness="pair_sample"
    ),
    Algorithm("listnet", "ListNet", "listnet", "ListNet", True, letor_name="ListNet"),
    Algorithm("svm_map", "SVM_MAP", "svm_map", "SVMMAP", True, letor_name="SVMMAP"),
    Algorithm("lambdamart", "LambdaMART", "lambdamart", "LambdaMART", True, reference=True),
)
BY_KEY = {a.key: a for a in ALGORITHMS}


def seeded(algorithm: Algorithm, params: dict[str, Any]) -> bool:
    """Whether ``algorithm`` trained with ``params`` draws random numbers: then each replicate
    is its own training job with its own seed; else one run, which takes no seed, serves every
    replicate (config ``chapter3.replicates``)."""
    if algorithm.randomness == "pair_sample":  # a RankSVM kernel map draws its own too
        return any(params.get(k) is not None for k in ("max_pairs_per_query", "kernel_map"))
    return algorithm.randomness == "always"


def get_algorithm(key: str) -> Algorithm:
    """The table row of ``key`` (a config key such as ``ndcg_boost``)."""
    try:
        return BY_KEY[key]
    except KeyError:
        raise BoostrankError(f"unknown algorithm '{key}'; known: {sorted(BY_KEY)}") from None


def module_file(algorithm: Algorithm, src: Path | str | None = None) -> Path:
    """The source file of an algorithm's module (whether or not it exists)."""
    if src is None:
        src = Path(__file__).resolve().parents[2]  # src/boostrank
    return Path(src) / "ranking" / f"{algorithm.module}.py"


def available(src: Path | str | None = None) -> list[Algorithm]:
    """The algorithms whose module exists (checked without importing it)."""
    return [a for a in ALGORITHMS if module_file(a, src).is_file()]


def code_modules(algorithm: Algorithm, src: Path | str | None = None) -> list[str]:
    """The package modules an algorithm's module imports, transitively: the Snakemake inputs
    of its training jobs (:func:`boostrank.workflow.code_deps.imported_modules`)."""
    from boostrank.workflow.code_deps import imported_modules

    return imported_modules(f"ranking.{algorithm.module}", src=src)


# --------------------------------------------------------------------------- files
# Where the training jobs write each fold's test ranking (TREC run, with a JSON record beside it)
# and the qrels of each fold's test part: every run is kept for any evaluator to re-score.
RUNS = f"results/runs/{FIGURE_ID}"
RUN_FILE = f"{RUNS}/{{dataset}}/{{algorithm}}/r{{replicate}}/fold{{fold}}.run"
RECORD_FILE = RUN_FILE.removesuffix(".run") + ".json"
QRELS_FILE = f"{RUNS}/{{dataset}}/fold{{fold}}.qrels"


def run_file(dataset: str, algorithm: str, replicate: int, fold: int) -> str:
    """The test run of ``algorithm`` on one fold of ``dataset`` (one replicate)."""
    return RUN_FILE.format(dataset=dataset, algorithm=algorithm, replicate=replicate, fold=fold)


def configured(section: dict[str, Any], src: Path | str | None = None) -> list[str]:
    """The algorithms Figure 3.1 runs: those of config ``chapter3.algorithms`` whose module
    exists, in the table's order (one whose module is missing is marked "not run" in the
    outputs)."""
    return [a.key for a in available(src) if a.key in section["algorithms"]]


def first_runs(section: dict[str, Any], dataset: str, src: Path | str | None = None) -> list[str]:
    """The run files of replicate 1 a data set's evaluation scores: every algorithm, fold."""
    return [
        run_file(dataset, key, 1, fold)
        for key in configured(section, src)
        for fold in section["folds"]
    ]


def record_files(
    section: dict[str, Any], dataset: str, replicates: int, src: Path | str | None = None
) -> list[str]:
    """The JSON records of every training job of a data set (beside its run files): the
    figure job sums their guards into ``results/guards/thesis-fig3_1.csv``."""
    runs = [*first_runs(section, dataset, src), *replicate_runs(section, dataset, replicates, src)]
    return [r.removesuffix(".run") + ".json" for r in runs]


def replicate_runs(
    section: dict[str, Any], dataset: str, replicates: int, src: Path | str | None = None
) -> list[str]:
    """The run files of replicates 2..``replicates`` of the algorithms that draw random numbers
    under their arguments (:func:`seeded`); a deterministic one is trained once."""
    return [
        run_file(dataset, key, r, fold)
        for key in configured(section, src)
        if seeded(BY_KEY[key], section["algorithms"][key])
        for fold in section["folds"]
        for r in range(2, replicates + 1)
    ]


@functools.cache
def train_code(key: str, src: str | None = None) -> tuple[str, ...]:
    """The code roots of an algorithm's training jobs: the job's and the algorithm's modules
    (:func:`code_modules`), so editing one ranker reruns only its jobs."""
    return tuple(dict.fromkeys([*TRAIN.code, *code_modules(get_algorithm(key), src)]))


# --------------------------------------------------------------------------- jobs
@dataclass(frozen=True)
class TrainSpec(JobSpec):
    """One algorithm on one LETOR fold of one data set, one replicate (section 3.4.1): the
    fold's test run and its JSON record (:func:`.jobs.train_fold`)."""

    dataset: str
    algorithm: str
    replicate: int  # 1, 2, ... (config chapter3.replicates)
    fold: int  # one of config chapter3.folds
    npz: str
    meta: str
    params: dict[str, Any]  # the constructor arguments (config chapter3.algorithms)
    seed: int  # the root seed (config seed)
    run: str
    record: str

    def check(self) -> None:
        self.one_of("dataset", DATASETS)
        self.one_of("algorithm", BY_KEY)
        self.at_least("replicate", 1)
        self.at_least("fold", 1)  # at most 5: data.folds.letor_fold_masks


@dataclass(frozen=True)
class QrelsSpec(JobSpec):
    """The qrels of each fold's test part of one data set (:func:`.jobs.write_fold_qrels`)."""

    npz: str
    folds: tuple[int, ...]
    out: tuple[str, ...]  # one per fold

    def check(self) -> None:
        _one_per_fold(self.folds, out=self.out)


@dataclass(frozen=True)
class EvaluateSpec(JobSpec):
    """NDCG@1..k_max of a data set's run files under each tie break, per fold and over the
    folds, and every test query's NDCG@k (:func:`.jobs.evaluate_dataset`)."""

    dataset: str
    meta: str
    runs: tuple[str, ...]  # ``<algorithm>/r<replicate>/fold<k>.run``
    qrels: tuple[str, ...]  # one per fold
    folds: tuple[int, ...]
    replicates: int  # config chapter3.replicates on real data, 1 on a stand-in
    k_max: int
    formula: str
    seed: int  # seeds the random tie break
    out: str
    samples: str

    def check(self) -> None:
        self.one_of("dataset", DATASETS)
        self.one_of("formula", NDCG_FORMULAS)
        self.at_least("replicates", 1)
        self.at_least("k_max", 1)
        _one_per_fold(self.folds, qrels=self.qrels)


@dataclass(frozen=True)
class FigureSpec(JobSpec):
    """Figure 3.1, its table and the results CSVs from the data sets' evaluations
    (:func:`.make.make_figure`); ``letor``: the fetched ``letor3_baselines`` provenance (LETOR
    3.0's published values), None where no source has them."""

    evaluations: tuple[str, ...]
    samples: tuple[str, ...]  # the evaluations' per-query files
    records: tuple[str, ...]  # the training jobs' JSON records (their guards)
    letor: str | None
    claims: str
    tolerance: float  # config chapter3.best_tolerance
    tie_break: str  # drawn and claimed
    baselines_compared: str
    seed: int  # seeds the drawn intervals
    csv: str
    samples_out: str
    summary: str
    compared: str  # the cells the comparative claims read (samples beside it)
    guards: str  # the guard table, results/guards/thesis-fig3_1.csv
    figure_prefix: str
    table_prefix: str

    def check(self) -> None:
        self.one_of("tie_break", TIE_BREAKS)
        self.one_of("baselines_compared", BASELINES_COMPARED)
        self.at_least("tolerance", 0)


def _one_per_fold(folds: tuple[int, ...], **files: tuple[str, ...]) -> None:
    for name, paths in files.items():
        if len(paths) != len(folds):
            raise BoostrankError(f"field '{name}': {len(paths)} paths for {len(folds)} folds")


# One job per (data set, algorithm, replicate, fold), so the folds run in parallel; its code
# also lists the algorithm's modules (train_code), so editing one ranker reruns only its jobs.
TRAIN = JobKind(
    "chapter3.train",
    ("algorithms", "folds"),
    ("experiments.chapter3.jobs", "metrics.trec", "metrics.ranking", "data.folds", "io"),
    TrainSpec,
    "boostrank.experiments.chapter3.jobs:train_fold",
)
QRELS = JobKind(
    "chapter3.qrels",
    ("folds",),
    ("experiments.chapter3.jobs", "metrics.trec", "data.folds", "io"),
    QrelsSpec,
    "boostrank.experiments.chapter3.jobs:write_fold_qrels",
)
EVALUATE = JobKind(
    "chapter3.evaluate",
    ("folds", "k_max", "ndcg_formula", "replicates"),
    ("experiments.chapter3.jobs", "metrics.trec", "metrics.ranking", "io"),
    EvaluateSpec,
    "boostrank.experiments.chapter3.jobs:evaluate_dataset",
)
FIGURE = JobKind(
    "chapter3.figure",
    ("best_tolerance", "tie_break", "baselines_compared"),
    ("experiments.chapter3.make", "plots", "report.claims", "report.render"),
    FigureSpec,
    "boostrank.experiments.chapter3.make:make_figure",
)
JOBS = registry(TRAIN, QRELS, EVALUATE, FIGURE)

# Figure 3.1: the rules of its jobs, the functions they run, and rule chapter3_figure's outputs.
FIGURES = {
    FIGURE_ID: FigureCode(
        rules=("chapter3_train", "chapter3_qrels", "chapter3_evaluate", "chapter3_figure"),
        entries=tuple(job.entry for job in (TRAIN, QRELS, EVALUATE, FIGURE)),
        outputs={
            "figure": with_exts(f"figures/{FIGURE_ID}", ".png", ".pdf"),
            "csv": f"results/{FIGURE_ID}.csv",
            "summary": f"results/{FIGURE_ID}_summary.csv",
            "compared": f"results/{FIGURE_ID}_compared.csv",
            "table": with_exts(f"figures/tables/{FIGURE_ID}", ".csv", ".md", ".tex"),
            "guards": f"results/guards/{FIGURE_ID}.csv",
            "samples": f"results/{FIGURE_ID}.samples.csv",
            "compared_samples": f"results/{FIGURE_ID}_compared.samples.csv",
        },
        unlisted=("samples", "compared_samples"),
    )
}


def train_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> TrainSpec:
    """The training job of (data set, algorithm, replicate, fold) (rule chapter3_train)."""
    return TrainSpec(
        dataset=wildcards.dataset,
        algorithm=wildcards.algorithm,
        replicate=int(wildcards.replicate),
        fold=int(wildcards.fold),
        npz=input.npz,
        meta=input.meta,
        params=config["chapter3"]["algorithms"][wildcards.algorithm],
        seed=config["seed"],
        run=output.run,
        record=output.record,
    )


def qrels_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> QrelsSpec:
    """The qrels job of a data set (rule chapter3_qrels)."""
    return QrelsSpec(npz=input.npz, folds=config["chapter3"]["folds"], out=tuple(output.qrels))


def evaluate_spec(
    config: dict[str, Any], wildcards: Any, input: Any, output: Any, replicates: int
) -> EvaluateSpec:
    """The evaluation job of a data set (rule chapter3_evaluate); ``replicates``: the data
    set's, known once it is fetched (a stand-in has one)."""
    section = config["chapter3"]
    return EvaluateSpec(
        dataset=wildcards.dataset,
        meta=input.meta,
        runs=(*input.runs, *input.replicate_runs),
        qrels=tuple(input.qrels),
        folds=section["folds"],
        replicates=replicates,
        k_max=section["k_max"],
        formula=section["ndcg_formula"],
        seed=config["seed"],
        out=output.csv,
        samples=output.samples,
    )


def figure_spec(config: dict[str, Any], wildcards: Any, input: Any, output: Any) -> FigureSpec:
    """The figure job (rule chapter3_figure)."""
    section = config["chapter3"]
    return FigureSpec(
        evaluations=tuple(input.evaluations),
        samples=tuple(input.samples),
        records=tuple(input.records),
        letor=input.letor[0] if input.letor else None,
        claims=input.claims,
        tolerance=section["best_tolerance"],
        tie_break=section["tie_break"],
        baselines_compared=section["baselines_compared"],
        seed=config["seed"],
        csv=output.csv,
        samples_out=output.samples,
        summary=output.summary,
        compared=output.compared,
        guards=output.guards,
        figure_prefix=stem(output.figure[0]),
        table_prefix=stem(output.table[0]),
    )


__all__ = [
    "ALGORITHMS",
    "BASELINES_COMPARED",
    "BY_KEY",
    "DATASETS",
    "EVALUATE",
    "FIGURE",
    "FIGURES",
    "FIGURE_ID",
    "JOBS",
    "NDCG_FORMULAS",
    "QRELS",
    "QRELS_FILE",
    "RECORD_FILE",
    "RUNS",
    "RUN_FILE",
    "TABLE_KS",
    "TIE_BREAKS",
    "TRAIN",
    "Algorithm",
    "EvaluateSpec",
    "FigureSpec",
    "QrelsSpec",
    "TrainSpec",
    "available",
    "code_modules",
    "configured",
    "evaluate_spec",
    "figure_spec",
    "first_runs",
    "get_algorithm",
    "module_file",
    "qrels_spec",
    "record_files",
    "replicate_runs",
    "run_file",
    "seeded",
    "train_code",
    "train_spec",
]
