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

from snakemake.io import flag
from snakemake.path_modifier import PATH_MODIFIER_FLAG as PATH_MODIFIED
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
from boostrank.experiments.job import WORKS, figure_code
from boostrank.experiments.job import stem as path_stem
from boostrank.report.roots import ROOTS as READINGS_STAGE
from boostrank.experiments.reuse import ranking_name
from boostrank.workflow.spec_params import spec_param
from boostrank.io import FINGERPRINTED, RESULTS
from boostrank.replicates import replicates_for
from boostrank.report.timing import record_run
from boostrank.workflow import hand_edits, stamp_cache
from boostrank.workflow.catalog import load_catalog
from boostrank.workflow.code_deps import imported_modules, module_file
from boostrank.workflow.config_check import check_config, check_registry
from boostrank.workflow.scheduler_wakes import patch_scheduler

# Snakemake's job rate limiter piles up scheduler wake-ups, one more per finished job, and each
# re-checks every pending job: the workflow keeps one pending at a time. Its SIGTERM handler can
# deadlock the scheduler; it runs on a thread of its own (boostrank/workflow/scheduler_wakes.py).
patch_scheduler()


def _bool_from_cli(section, key):
    """`--config strict=true` arrives as the string 'true'; accept true/false in any case.
    A section that is not a mapping (`--config data=notadict`) is left to the schema check,
    which names it in one line."""
    value = section.get(key) if isinstance(section, dict) else None
    if isinstance(value, str) and value.lower() in ("true", "false"):
        section[key] = value.lower() == "true"


_bool_from_cli(config, "strict")
_bool_from_cli(config, "replace_real")
_bool_from_cli(config.get("data"), "allow_synthetic")
# The repository: two levels above this file (workflow.basedir is the directory of the
# Snakefile run, which is workflow/ when make readings imports this workflow as a module).
REPO = Path(str(workflow.current_basedir)).parents[1]


def repo_path(path):
    """A file of this workflow's repository (its package sources, schemas, readings): relative
    to the working directory when the run is in the repository, else absolute (the workflow
    used as a Snakemake module from another folder, as `snakedeploy deploy-workflow` sets up)."""
    full = Path(REPO, path)
    return str(full.relative_to(Path.cwd()) if full.is_relative_to(Path.cwd()) else full)


def work_rule_files():
    """Each work's rule files, ``workflow/rules/<work>*.smk`` for every work of ``WORKS`` (a
    package of src/boostrank/experiments with a spec.py), relative to the Snakefile, which
    includes them; each imports its work's spec."""
    rules = Path(REPO, "workflow/rules")
    return [
        f"workflow/rules/{path.name}"
        for work in WORKS
        for path in sorted(rules.glob(f"{work}*.smk"))
    ]


# The package sources whose modules the rules list as inputs (code()).
SRC = repo_path("src/boostrank")
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
check_registry(
    Path(REPO, "config/statements.yaml"),
    Path(REPO, "workflow/schemas/statements.schema.yaml"),
)
validate(config, schema="../schemas/config.schema.yaml")

# Every shell command calls the package's CLI as `boostrank ...`: a shell function running
# `-m boostrank` with the interpreter that runs this workflow, so jobs use the same
# environment locally and on a cluster node. Snakemake's shell exports OMP_NUM_THREADS,
# OPENBLAS_NUM_THREADS, MKL_NUM_THREADS and the like as the rule's `threads:` (1 by default), so
# jobs that run side by side share the cores rather than oversubscribe them.
# BOOSTRANK_JOB_RESOURCES: the job's log ends with its CPU-s and peak RSS (the timing record).
# (Snakemake formats the prefix too: its braces are doubled.)
shell.prefix(
    f"set -euo pipefail; boostrank() {{{{ BOOSTRANK_JOB_RESOURCES=1"
    f' {shlex.quote(sys.executable)} -m boostrank "$@"; }}}}; '
)
REGISTRY = load_registry(config["registry"])
CATALOG = load_catalog(config["catalog"], figure_code())

# Every wildcard is a plain name (letters, digits, _ . + -): jobs' commands and log paths hold
# wildcards as they are, so a target such as `data/raw/x;touch p/provenance.json` matches no
# rule instead of reaching a shell (the registry's schema admits plain data set names only).
PLAIN_NAME = r"[A-Za-z0-9_.+-]+"


wildcard_constraints:
    algorithm=PLAIN_NAME,
    block=PLAIN_NAME,
    dataset=PLAIN_NAME,
    family=PLAIN_NAME,
    fig=PLAIN_NAME,
    figure=PLAIN_NAME,
    fold=PLAIN_NAME,
    k=PLAIN_NAME,
    method=PLAIN_NAME,
    model=PLAIN_NAME,
    replicate=PLAIN_NAME,
    seed=PLAIN_NAME,
    split=PLAIN_NAME,
    table=PLAIN_NAME,


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
    lock=Path(config["data"]["pins"]),
)
FETCH_OPTIONS = (
    f"--registry {shlex.quote(config['registry'])} --mirror {shlex.quote(MIRROR)}"
    f" --sources {','.join(FETCH.sources)} --allow-synthetic {str(FETCH.allow_synthetic).lower()}"
    f" --strict {str(FETCH.strict).lower()} --replace-real {str(FETCH.replace_real).lower()}"
    f" --timeout {FETCH.timeout} --retries {FETCH.retries} --pins {shlex.quote(str(FETCH.lock))}"
)
# A results file or printed table edited by hand is made again, and no job reads the edit, so
# the claims and the report show the pipeline's numbers (Snakemake alone would rerun only what
# depends on the edited file). Parsing reads nothing: when Snakemake plans, the edited files are
# forced; a real run, holding its lock, keeps each as <name>.edited before its job writes it
# (boostrank/workflow/hand_edits.py). The folders this copy of the workflow writes: results/
# and figures/tables/, or a variant's own under results/readings*/ when make readings imports
# the workflow as a module with a path prefix (the main workflow leaves those to the variants).
# Only the main Snakemake process looks: a job re-parses this file on a cluster node (or in a
# local job process), and must not move what other jobs are writing.
# make readings' roots (results/readings/, results/readings-full/): each variant watches its own.
READINGS_ROOTS = tuple(Path(root).name for root in READINGS_STAGE.values())
if workflow.is_main_process:
    for _folder in FINGERPRINTED:
        hand_edits.watch(
            workflow,
            os.path.dirname(workflow.modifier.path_modifier.replace_prefix(f"{_folder}/x")),
            skip=READINGS_ROOTS if _folder == RESULTS else (),
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
    """:func:`code`'s answer, worked out once per set of modules, not once per job: the DAG
    asks for it for every job, and many jobs share a set."""
    src = Path(SRC)
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


def npz_in(dataset):
    """A processed data set's arrays as a job reads them: under make readings, the file of the
    variant that makes it the same way (reused())."""
    return reused([f"data/processed/{dataset}.npz"])[0]


def meta_in(dataset):
    """A processed data set's sidecar as a job reads it (npz_in)."""
    return reused([processed_meta(dataset)])[0]


def _ranking_name(dataset):
    """OHSUMED comes rebuilt from Meta/ when config letor.ohsumed_features is 'rebuilt'."""
    return ranking_name(config, dataset)


def ranking_meta(dataset):
    """Sidecar of a ranking data set as the experiments use it (see _ranking_name)."""
    return meta_in(_ranking_name(dataset))


def ranking_npz(dataset):
    """Arrays of a ranking data set as the experiments use it; same layout either way."""
    return npz_in(_ranking_name(dataset))


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
        meta_in(ds) if can_prepare(ds) else raw_provenance(ds)
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
        caption=os.path.abspath(REPORT_CAPTIONS),  # in the run's folder, not the workflow's
        category=lambda wildcards, output: ", ".join(
            dict.fromkeys(f.work for f in _figures_made(output))
        )
        or "Other",
        subcategory=lambda wildcards, output: ", ".join(f.id for f in _figures_made(output))
        or "other",
    )
    return [shown, *rest]


def spec_outputs(outputs, *names):
    """A rule's outputs, from the work's spec where they are declared once (``outputs``: a
    figure's ``FigureCode.outputs``, or a spec function's for a wildcard rule): those named
    ``names`` (all when none), in the spec's order, the files of one stem (a PNG and a PDF, a
    table's CSV, Markdown and TeX) as a ``multiext`` whose first is marked for the report."""
    return {name: _output(outputs[name]) for name in names or outputs}


def _output(files):
    if isinstance(files, str):
        return files
    prefix = path_stem(files[0])
    return reported(multiext(prefix, *(f.removeprefix(prefix) for f in files)))


def job_spec(build, **fixed):
    """A params function of a `boostrank job` rule: the job's parameter object, built by `build`
    (a work's spec function) from the config, the wildcards, the job's files and `fixed` (what
    the rule itself decides; a function there is called with the wildcards, e.g. a count known
    only after the fetch checkpoint), as JSON with sorted keys. Snakemake records it, so a
    change of its text reruns the job (boostrank.workflow.spec_params says how)."""
    return spec_param(config, build, fixed)


def reused(paths):
    """``paths`` (files this workflow makes), each under the root of the make-readings variant
    that makes it by the same computation where config readings.reuse names one (set by
    workflow/readings.smk: path prefix -> that variant's root; boostrank.experiments.reuse):
    this variant then reads that variant's file and has no job of its own for it. Flagged as
    modified, so the module's path prefix is not put in front again. In the main workflow the
    mapping is empty and the paths are returned as they are."""
    reuse = config["readings"]["reuse"]
    out = []
    for path in paths:
        root = next((r for prefix, r in reuse.items() if path.startswith(prefix)), None)
        # "." is the main run (make readings' confirm stage): the path as it is, still flagged
        owned = path if root == "." else f"{root}/{path}"
        out.append(flag(owned, PATH_MODIFIED) if root else path)
    return out


def output_stem(name=None):
    """A params function: the path a ``multiext`` output shares before its extensions
    (``figures/x`` for ``figures/x.png`` and ``figures/x.pdf``; the first output when unnamed),
    so that a command writes where its rule, or a module's path prefix, puts the outputs."""

    def stem(wildcards, output):
        return path_stem(output[0] if name is None else getattr(output, name)[0])

    return stem
