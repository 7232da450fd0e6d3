# Configuration loading and helpers shared by every rule file. Rules hold no logic; each one
# calls a `python -m boostrank` entry point with explicit inputs, outputs, params and a seed.
import functools
import hashlib
import json
import os
import shlex
import sys
import time
from pathlib import Path

STARTED = time.time()  # the timing record's wall clock starts when the workflow is parsed

from snakemake.utils import validate

from boostrank.data.inventory import standin_summary
from boostrank.data.provenance import Provenance
from boostrank.data.registry import load_registry
from boostrank.data.sources import (
    MIRROR_ENV,
    FetchSettings,
    announce_mirror,
    check_mirror,
    identity,
    mirror_setting,
    rerun_key,
)
from boostrank.errors import BoostrankError, did_you_mean
from boostrank.experiments.job import stem as path_stem
from boostrank.experiments.chapter2 import spec as CH2_SPEC
from boostrank.experiments.chapter3 import spec as CH3_SPEC
from boostrank.experiments.chapter4 import spec as CH4_SPEC
from boostrank.experiments.chapter5_6 import spec as CH5_SPEC
from boostrank.experiments.datasets import spec as DATASETS_SPEC
from boostrank.experiments.docan import spec as DOCAN_SPEC
from boostrank.experiments.prank import spec as PR_SPEC
from boostrank.experiments.qbrank import spec as QB_SPEC
from boostrank.experiments.topk import spec as TOPK_SPEC
from boostrank.io import RESULTS, set_aside_edited
from boostrank.replicates import replicates_for
from boostrank.report.timing import write_timing
from boostrank.workflow import stamp_cache
from boostrank.workflow.catalog import load_catalog
from boostrank.workflow.code_deps import imported_modules, module_file
from boostrank.workflow.config_check import check_config, check_registry
from boostrank.workflow.scheduler_wakes import one_pending_wake

# Snakemake's job rate limiter piles up scheduler wake-ups, one more per finished job, and
# those made most of its own CPU; one pending wake-up at a time
# (boostrank/workflow/scheduler_wakes.py).
one_pending_wake()


def _bool_from_cli(section, key):
    """`--config strict=true` arrives as the string 'true'; accept true/false in any case."""
    value = section.get(key)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        section[key] = value.lower() == "true"


_bool_from_cli(config, "strict")
_bool_from_cli(config, "replace_real")
_bool_from_cli(config.get("data", {}), "allow_synthetic")
# The repository: two levels above this file (workflow.basedir is the directory of the
# Snakefile run, which is workflow/ when make readings imports this workflow as a module).
REPO = Path(str(workflow.current_basedir)).parents[1]
# Each module's imports and each registry's check are kept between starts, worked out again
# only when a file changes (boostrank/workflow/stamp_cache.py).
stamp_cache.use(".snakemake/boostrank-cache.json")
# One line naming the key and the fix (Snakemake's validate would print the whole schema); then
# Snakemake's validate fills in the schema's defaults.
check_config(config, Path(REPO, "workflow/schemas/config.schema.yaml"))
for _key, _schema in (("registry", "datasets"), ("claims", "claims"), ("catalog", "figures")):
    check_registry(config[_key], Path(REPO, f"workflow/schemas/{_schema}.schema.yaml"))
check_registry(
    Path(REPO, "config/readings.yaml"),
    Path(REPO, "workflow/schemas/readings.schema.yaml"),
)
validate(config, schema="../schemas/config.schema.yaml")

# Every shell command calls the package's CLI as `boostrank ...`: a shell function running
# `-m boostrank` with the interpreter that runs this workflow, so jobs use the same
# environment locally and on a cluster node. `single_threaded boostrank ...` runs it with one
# BLAS/OpenMP thread: jobs that run side by side then share the cores, not oversubscribe them.
# BOOSTRANK_JOB_RESOURCES: the job's log ends with its CPU-s and peak RSS (the timing record).
# (Snakemake formats the prefix too: its braces are doubled.)
shell.prefix(
    f"set -euo pipefail; boostrank() {{{{ BOOSTRANK_JOB_RESOURCES=1"
    f' "{sys.executable}" -m boostrank "$@"; }}}}; '
    "single_threaded() {{ OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 "
    '"$@"; }}; '
)
REGISTRY = load_registry(config["registry"])
CATALOG = load_catalog(config["catalog"])
# The data mirror: data.mirror (a config file, or --config), else $BOOSTRANK_DATA_MIRROR.
MIRROR, MIRROR_ORIGIN = mirror_setting(
    config["data"]["mirror"],
    (
        "data.mirror in --config"
        if "mirror" in (workflow.config_settings.config.get("data") or {})
        else "data.mirror in the config files"
    ),
)
MIRROR = MIRROR or ""
# A mistyped mirror must not quietly turn the run into synthetic stand-ins.
check_mirror(MIRROR, [s.mirror_folder for s in REGISTRY.values() if s.mirror_folder])
if workflow.is_main_process:
    announce_mirror(MIRROR, MIRROR_ORIGIN)
    # A job on a cluster node parses this workflow again with the run's config, but its
    # environment may lack the variable (sbatch --export, a login shell, a node's prolog): a
    # mirror set only there reaches the jobs as config.
    _mirror_arg = f"data={json.dumps({'mirror': MIRROR})}"
    _config_args = list(workflow.config_settings.config_args or ())
    if MIRROR_ORIGIN == f"${MIRROR_ENV}" and _mirror_arg not in _config_args:
        workflow.config_settings.config_args = [*_config_args, _mirror_arg]
# How a fetch job looks for data: options read where the job runs, no reason to rerun it
# (where a data set is found is not what it is; download.smk says what reruns a fetch).
FETCH = FetchSettings(
    sources=tuple(config["data"]["sources"]),
    mirror=MIRROR or None,
    allow_synthetic=config["data"]["allow_synthetic"],
    strict=config["strict"],
    replace_real=config["replace_real"],
    timeout=config["data"]["download_timeout"],
    retries=config["data"]["download_retries"],
)
FETCH_OPTIONS = (
    f"--registry {shlex.quote(config['registry'])} --mirror {shlex.quote(MIRROR)}"
    f" --sources {','.join(FETCH.sources)} --allow-synthetic {str(FETCH.allow_synthetic).lower()}"
    f" --strict {str(FETCH.strict).lower()} --replace-real {str(FETCH.replace_real).lower()}"
    f" --timeout {FETCH.timeout} --retries {FETCH.retries}"
)
# A results file edited by hand is set aside before any job can read it, so the claims and the
# report show the pipeline's numbers, never the edit; the default target (rule all) makes it
# again. Snakemake alone would rerun only what depends on the edited file.
# The results folder this copy of the workflow writes: results/, or a variant's own under
# results/readings/ when make readings imports the workflow as a module with a path prefix
# (the main workflow leaves the variants' files to them).
RESULTS_DIR = os.path.dirname(workflow.modifier.path_modifier.replace_prefix(f"{RESULTS}/x"))
# Only the main Snakemake process sets files aside: a job re-parses this file on a cluster node
# (or in a local job process), and must not move or refresh what other jobs are writing.
EDITED_RESULTS = (
    [str(p) for p in set_aside_edited(RESULTS_DIR, dry_run=workflow.dryrun, skip=("readings",))]
    if workflow.is_main_process
    else []
)

_unknown = [
    ds
    for ds in config["data"]["inventory"] + [d for f in CATALOG.values() for d in f.datasets]
    if ds not in REGISTRY
]
if _unknown:
    raise BoostrankError(
        "config names unknown data set(s) "
        + ", ".join(f"'{d}'{did_you_mean(d, REGISTRY)}" for d in sorted(set(_unknown)))
        + f" (not in {config['registry']}); "
        f"use one of: {', '.join(sorted(REGISTRY))}, or add the data set to the registry"
    )


def code(*modules):
    """The source files of ``modules`` and of every package module they import, transitively
    (read from the sources): inputs, so editing one reruns exactly the jobs that run it."""
    return list(_code_files(modules))


@functools.cache
def _code_files(modules):
    """:func:`code`'s answer, worked out once per set of modules (not once per job: the DAG
    of the full config asks for it about 2,000 times)."""
    src = Path("src/boostrank")
    return tuple(str(module_file(src, m)) for m in imported_modules(*modules, src=src))


def if_present(*paths):
    """The paths that exist: files this workflow does not make (make readings' outputs) as
    inputs when they are there, so a new one reruns the rule."""
    return [p for p in paths if os.path.exists(p)]


def raw_provenance(dataset):
    return f"data/raw/{dataset}/provenance.json"


def data_replicates(configured, dataset):
    """A family's replicates on `dataset`: `configured` on real data, 1 on a synthetic stand-in
    (boostrank.replicates.replicates_for). The fetch checkpoint tells which: until the data set is
    fetched, the jobs that depend on the answer wait outside the DAG."""
    fetch = getattr(checkpoints, "fetch", None)
    if configured == 1:  # nothing to ask: the DAG needs no second pass after the fetch
        return 1
    if fetch is None:  # a make-readings variant: the default variant fetches (data/raw shared)
        fetched = Path(raw_provenance(dataset))  # fetched by an earlier run: its answer; else
        if not fetched.exists():  # the configured count (a stand-in's replicates are extra
            return configured  # work only: readings read real data, where the two agree)
    else:
        fetched = fetch.get(dataset=dataset).output[0]
    return replicates_for(configured, Provenance.load(fetched).kind)


def processed_meta(dataset):
    return f"data/processed/{dataset}.json"


def _ranking_name(dataset):
    """OHSUMED comes rebuilt from Meta/ when config letor.ohsumed_features is 'rebuilt'."""
    choice = config.get("letor", {}).get("ohsumed_features", "distributed")
    return "ohsumed_rebuilt" if dataset == "ohsumed" and choice == "rebuilt" else dataset


def ranking_meta(dataset):
    """Sidecar of a ranking data set as the experiments use it (see _ranking_name)."""
    return processed_meta(_ranking_name(dataset))


def ranking_npz(dataset):
    """Arrays of a ranking data set as the experiments use it; same layout either way."""
    return f"data/processed/{_ranking_name(dataset)}.npz"


def spec_digest(dataset):
    """Changes when the data set's registry entry changes, so only its jobs rerun; where its
    files are found (mirror folder, URLs, home page) is left out."""
    where = ("mirror_folder", "downloads", "homepage")
    entry = {k: v for k, v in REGISTRY[dataset].__dict__.items() if k not in where}
    text = json.dumps(entry, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fetch_identity(dataset):
    """What the data set is (its files' sha256): a params entry of its fetch job."""
    return identity(REGISTRY[dataset])


def fetch_rerun_key(dataset):
    """The other params entry of a fetch job: for a stand-in, the sources that could replace
    it now; for real data, fixed when it was fetched (boostrank.data.sources.rerun_key)."""
    return rerun_key(REGISTRY[dataset], FETCH, Path("data/raw", dataset))


def can_prepare(dataset):
    spec = REGISTRY[dataset]
    return bool(spec.loader or spec.embedded or spec.synthetic)


def inventory_inputs():
    """Processed sidecars where a loader exists; else the raw provenance (text data sets).

    A data set with neither a loader nor a stand-in enters the inventory only when it can be
    had (data_available), so a machine without the mirror still completes the run.
    """
    return [
        processed_meta(ds) if can_prepare(ds) else raw_provenance(ds)
        for ds in config["data"]["inventory"]
        if data_available(ds)
    ]


def data_available(dataset):
    """A data set with a loader or a stand-in can always be made; one with neither (a text
    corpus such as reuters21578) only when it was fetched before or the mirror holds it."""
    return (
        can_prepare(dataset)
        or Path(raw_provenance(dataset)).exists()
        or bool(MIRROR and Path(MIRROR, REGISTRY[dataset].mirror_folder).is_dir())
    )


def skipped_figures():
    """Catalogue ids left out of the run because a data set they need cannot be had."""
    return [f.id for f in CATALOG.values() if not all(data_available(ds) for ds in f.datasets)]


def figure_outputs():
    skipped = set(skipped_figures())
    return [out for f in CATALOG.values() if f.id not in skipped for out in f.outputs]


# Snakemake's own report (`make report`: snakemake --report): each figure's PNG and each table's
# CSV, under its work and figure id, with one caption file that `boostrank report` writes from
# the run (title, description, the data used, the claims' verdicts).
REPORT_CAPTIONS = "results/snakemake-report-captions.rst"


def _figures_made(output):
    made = set(map(str, output))
    return [f for f in CATALOG.values() if made & set(f.outputs)]


def reported(files):
    """``multiext(...)`` outputs, the first (the PNG or the CSV) marked for Snakemake's report."""
    first, *rest = files
    shown = report(
        first,
        caption=f"../../{REPORT_CAPTIONS}",
        category=lambda wildcards, output: ", ".join(
            dict.fromkeys(f.work for f in _figures_made(output))
        )
        or "Other",
        subcategory=lambda wildcards, output: ", ".join(f.id for f in _figures_made(output))
        or "other",
    )
    return [shown, *rest]


def job_spec(build, **fixed):
    """A params function of a `boostrank job` rule: the job's parameter object, built by `build`
    (a work's spec function) from the config, the wildcards, the job's files and `fixed` (what
    the rule itself decides), as JSON with sorted keys (its text decides reruns; the paths in
    it change only with the files)."""
    return lambda wildcards, input, output: build(
        config, wildcards, input, output, **fixed
    ).to_json()


def output_stem(name=None):
    """A params function: the path a ``multiext`` output shares before its extensions
    (``figures/x`` for ``figures/x.png`` and ``figures/x.pdf``; the first output when unnamed),
    so that a command writes where its rule, or a module's path prefix, puts the outputs."""

    def stem(wildcards, output):
        return path_stem(output[0] if name is None else getattr(output, name)[0])

    return stem


# --------------------------------------------------------------- datasets_tables.smk
# --------------------------------------------------------------- docan_reuters.smk
DOCAN = config["docan_reuters"]
DOCAN_CORPUS = "data/interim/reuters_tfidf.npz"
DOCAN_CORPUS_META = "data/interim/reuters_tfidf.json"
DOCAN_CORPUS_CODE = code(
    "preprocess.text_cli",
    "preprocess.reuters",
    "preprocess.reuters_corpus",
    "preprocess.text",
    "data.formats",
    "data.provenance",
)
DOCAN_CODE = code(*DOCAN_SPEC.CLUSTERING.code)  # the corpus jobs: clustering, k-NN, forest
DOCAN_FOREST = "results/docan/forest"


def docan_forest_files(suffix):
    """Each forest replicate's results (`suffix` .csv) or samples: on real data only."""
    count = data_replicates(DOCAN["random_forest"]["replicates"], "reuters21578")
    return [f"{DOCAN_FOREST}/r{r}{suffix}" for r in range(1, count + 1)]


# --------------------------------------------------------------- docan_ranking.smk
DOCAN_LETOR = list(DOCAN_SPEC.LETOR_DATASETS)


def docan_settings(table):
    """The table's config section (plus the cutoff k) as JSON, a parameter of its jobs."""
    section = config["docan_ranking"][DOCAN_SPEC.CONFIG_SECTION[table]]
    return json.dumps({"k": config["docan_ranking"]["k"], **section}, sort_keys=True)


def docan_fold_code(wildcards):
    return code(*DOCAN_SPEC.fold_code_modules(wildcards.table))


# --------------------------------------------------------------- chapter3.smk
CH3 = config["chapter3"]
CH3_RUNS = "results/runs/thesis-fig3_1"
CH3_ALGORITHMS = [a.key for a in CH3_SPEC.available("src/boostrank") if a.key in CH3["algorithms"]]
# One training job per (data set, algorithm, replicate) trains every fold; an algorithm that
# draws no random numbers under its arguments has replicate 1 only, and so does every algorithm
# on a synthetic stand-in (chapter3.replicates; boostrank.experiments.chapter3.spec.seeded).
CH3_RUN = f"{CH3_RUNS}/{{dataset}}/{{algorithm}}/r{{replicate}}/fold{{fold}}.run"


def ch3_runs(wildcards):
    """The run files of replicate 1 one data set's evaluation scores: every algorithm, fold."""
    return [
        CH3_RUN.format(dataset=wildcards.dataset, algorithm=key, replicate=1, fold=fold)
        for key in CH3_ALGORITHMS
        for fold in CH3["folds"]
    ]


def ch3_replicates(wildcards):
    """chapter3.replicates on real data, 1 on a stand-in (known once the data set is fetched)."""
    return data_replicates(CH3["replicates"], wildcards.dataset)


def ch3_replicate_runs(wildcards):
    """The run files of replicates 2.. of the algorithms that draw random numbers."""
    replicates = range(2, ch3_replicates(wildcards) + 1)
    return [
        CH3_RUN.format(dataset=wildcards.dataset, algorithm=key, replicate=r, fold=fold)
        for key in CH3_ALGORITHMS
        if CH3_SPEC.seeded(CH3_SPEC.BY_KEY[key], CH3["algorithms"][key])
        for fold in CH3["folds"]
        for r in replicates
    ]


def ch3_train_code(wildcards):
    return list(_ch3_train_code(wildcards.algorithm))


@functools.cache
def _ch3_train_code(key):
    modules = CH3_SPEC.code_modules(CH3_SPEC.get_algorithm(key), "src/boostrank")
    return tuple(code(*dict.fromkeys([*CH3_SPEC.TRAIN.code, *modules])))


def ch3_params(wildcards):
    """The algorithm's constructor arguments as JSON: editing them reruns only its jobs."""
    return json.dumps(CH3["algorithms"][wildcards.algorithm], sort_keys=True)


# LETOR 3.0's published baseline values (a registry data set without a stand-in): drawn and
# claimed where a source has them, else the figure says they were not fetched.
CH3_LETOR = [raw_provenance("letor3_baselines")] if data_available("letor3_baselines") else []


# --------------------------------------------------------------- chapter4.smk
CH4 = config["chapter4"]
CH4_FORMULA = config["chapter3"]["ndcg_formula"]
CH4_DIR = "results/chapter4"
CH4_FAMILY_FIGURE = CH4_SPEC.FAMILY_FIGURE


def ch4_params(family, movies=False):
    """The config keys a family's jobs read, as JSON (editing others does not rerun them)."""
    return json.dumps(
        CH4_SPEC.family_params(CH4, family, movies=movies, formula=CH4_FORMULA), sort_keys=True
    )


def ch4_feedback_csv(dataset, family):
    return f"{CH4_DIR}/{CH4_FAMILY_FIGURE[family]}/{dataset}/{family}.csv"


def ch4_base_json(dataset):
    return f"{CH4_DIR}/thesis-fig4_3/{dataset}/base_rankers.json"


def ch4_movie_stem(family):
    return f"{CH4_DIR}/thesis-fig4_5/movielens_100k/{family}"


def ch4_movie_csv(family):
    return f"{ch4_movie_stem(family)}.csv"


def ch4_stem(wildcards):
    """A LETOR family job's results path without its suffix."""
    return f"{CH4_DIR}/{wildcards.fig}/{wildcards.dataset}/{wildcards.family}"


# A family's job on real data runs chapter4.replicates times (a stand-in once): replicate 1 is
# the job that writes the family's results, averaged with replicates 2.. (their own .npz jobs).
CH4_LATER_REPLICATE = "[2-9]|[1-9][0-9]+"


def ch4_replicate_files(dataset, stem):
    """The .npz files of replicates 2.. of a family's job on `dataset`."""
    count = data_replicates(CH4["replicates"], dataset)
    return [f"{stem}.r{r}.npz" for r in range(2, count + 1)]


def ch4_feedback_inputs(wildcards):
    return {
        "npz": ranking_npz(wildcards.dataset),
        "meta": ranking_meta(wildcards.dataset),
        "base": ch4_base_json(wildcards.dataset),
        "code": code(*CH4_SPEC.code_modules(wildcards.family)),
    }


def ch4_movie_inputs(family):
    return {
        "npz": "data/processed/movielens_100k.npz",
        "meta": "data/processed/movielens_100k.json",
        "code": code(*CH4_SPEC.code_modules(family, movies=True)),
    }


CH4_FEEDBACK = (
    "single_threaded boostrank chapter4-feedback --dataset {wildcards.dataset}"
    " --family {wildcards.family} --npz {input.npz} --meta {input.meta}"
    " --base-rankers {input.base} --params {params.params:q} --seed {params.seed}"
)
CH4_MOVIES = (
    "single_threaded boostrank chapter4-movies --family {params.family} --npz {input.npz}"
    " --meta {input.meta} --params {params.params:q} --seed {params.seed}"
)


def ch4_figure_inputs(wildcards):
    """The result files each figure merges."""
    fig, ds = wildcards.fig, CH4["datasets"]
    if fig == "thesis-fig4_1":
        return [f"{CH4_DIR}/thesis-fig4_1/ohsumed/objective.csv"]
    families = {
        "thesis-fig4_2": ["baselines", "lrr", "mrr"],
        "thesis-fig4_3": ["baselines", "mrr", "mrr_bases"],
        "thesis-fig4_4": ["baselines", "mrr", "mrr_sizes"],
    }
    per_query = lambda files: [f.replace(".csv", ".queries.csv") for f in files]  # noqa: E731
    if fig in families:
        out = [ch4_feedback_csv(d, f) for d in ds for f in families[fig]]
        return (
            out
            + per_query(out)
            + ([ch4_base_json(d) for d in ds] if fig == "thesis-fig4_3" else [])
        )
    if fig == "thesis-fig4_5":
        out = [ch4_movie_csv(f) for f in ("baselines", "lrr", "mrr", "mrr_sizes")]
        return out + per_query(out) + ["data/processed/movielens_100k.npz"]
    return [f"{CH4_DIR}/thesis-fig4_5/movielens_100k/timing.csv"]
