# Configuration loading and helpers shared by every rule file. Rules hold no logic: each one
# calls a `python -m boostrank` entry point with explicit inputs, outputs, params and a seed.
import hashlib
import json
import sys
import time

STARTED = time.time()  # the timing record's wall clock starts when the workflow is parsed

from snakemake.utils import validate

from boostrank.catalog import load_catalog
from boostrank.code_deps import imported_modules, module_file
from boostrank.config_check import check_config, check_registry
from boostrank.data.inventory import standin_summary
from boostrank.data.registry import load_registry
from boostrank.data.sources import check_mirror, resolve_mirror
from boostrank.errors import BoostrankError, did_you_mean
from boostrank.io import RESULTS, set_aside_edited
from boostrank.report.timing import write_timing


def _bool_from_cli(section, key):
    """`--config strict=true` arrives as the string 'true'; accept true/false in any case."""
    value = section.get(key)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        section[key] = value.lower() == "true"


_bool_from_cli(config, "strict")
_bool_from_cli(config.get("data", {}), "allow_synthetic")
# One line naming the key and the fix (Snakemake's validate would print the whole schema); then
# Snakemake's validate fills in the schema's defaults.
check_config(config, Path(workflow.basedir, "workflow/schemas/config.schema.yaml"))
for _key, _schema in (("registry", "datasets"), ("claims", "claims"), ("catalog", "figures")):
    check_registry(config[_key], Path(workflow.basedir, f"workflow/schemas/{_schema}.schema.yaml"))
check_registry(
    Path(workflow.basedir, "config/readings.yaml"),
    Path(workflow.basedir, "workflow/schemas/readings.schema.yaml"),
)
validate(config, schema="../schemas/config.schema.yaml")

# Every shell command calls the package's CLI as `boostrank ...`: a shell function running
# `-m boostrank` with the interpreter that runs this workflow, so jobs use the same
# environment locally and on a cluster node. `single_threaded boostrank ...` runs it with one
# BLAS/OpenMP thread: jobs that run side by side then share the cores, not oversubscribe them.
# (Snakemake formats the prefix too: its braces are doubled.)
shell.prefix(
    f'set -euo pipefail; boostrank() {{{{ "{sys.executable}" -m boostrank "$@"; }}}}; '
    "single_threaded() {{ OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 "
    '"$@"; }}; '
)
REGISTRY = load_registry(config["registry"])
CATALOG = load_catalog(config["catalog"])
MIRROR = resolve_mirror(config["data"]["mirror"]) or ""
# A mistyped mirror must not quietly turn the run into synthetic stand-ins.
check_mirror(MIRROR, [s.mirror_folder for s in REGISTRY.values() if s.mirror_folder])
# A results file edited by hand is set aside before any job can read it, so the claims and the
# report show the pipeline's numbers, never the edit; the default target (rule all) makes it
# again. Snakemake alone would rerun only what depends on the edited file.
EDITED_RESULTS = [str(p) for p in set_aside_edited(RESULTS, dry_run=workflow.dryrun)]

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
    src = Path("src/boostrank")
    return [str(module_file(src, m)) for m in imported_modules(*modules, src=src)]


def raw_provenance(dataset):
    return f"data/raw/{dataset}/provenance.json"


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
    """Changes when the data set's registry entry changes, so only its jobs rerun."""
    entry = json.dumps(REGISTRY[dataset].__dict__, sort_keys=True, default=str)
    return hashlib.sha256(entry.encode()).hexdigest()[:16]


def can_prepare(dataset):
    spec = REGISTRY[dataset]
    return bool(spec.loader or spec.embedded or spec.synthetic)


def inventory_inputs():
    """Processed sidecars where a loader exists; else the raw provenance (text data sets).

    A data set with neither a loader nor a stand-in enters the inventory only when the mirror
    holds it, so a machine without the mirror still completes the run.
    """
    inputs = []
    for ds in config["data"]["inventory"]:
        if can_prepare(ds):
            inputs.append(processed_meta(ds))
        elif MIRROR and Path(MIRROR, REGISTRY[ds].mirror_folder).is_dir():
            inputs.append(raw_provenance(ds))
    return inputs


def data_available(dataset):
    """A data set with a loader or a stand-in can always be made; one with neither (a text
    corpus such as reuters21578) only when the mirror holds it (as in inventory_inputs)."""
    return can_prepare(dataset) or bool(
        MIRROR and Path(MIRROR, REGISTRY[dataset].mirror_folder).is_dir()
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
