# Configuration loading and helpers shared by every rule file. Rules hold no logic: each one
# calls a `python -m boostrank` entry point with explicit inputs, outputs, params and a seed.
import hashlib
import json
import sys

from snakemake.utils import validate

from boostrank.catalog import load_catalog
from boostrank.data.registry import load_registry
from boostrank.data.sources import resolve_mirror


def _bool_from_cli(section, key):
    """`--config strict=true` arrives as the string 'true'; accept true/false in any case."""
    value = section.get(key)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        section[key] = value.lower() == "true"


_bool_from_cli(config, "strict")
_bool_from_cli(config.get("data", {}), "allow_synthetic")
validate(config, schema="../schemas/config.schema.yaml")

PY = f"{sys.executable} -m boostrank"
REGISTRY = load_registry(config["registry"])
CATALOG = load_catalog(config["catalog"])
MIRROR = resolve_mirror(config["data"]["mirror"]) or ""

_unknown = [
    ds
    for ds in config["data"]["inventory"] + [d for f in CATALOG.values() for d in f.datasets]
    if ds not in REGISTRY
]
if _unknown:
    raise ValueError(
        f"config names data set(s) {sorted(set(_unknown))} that {config['registry']} lacks; "
        f"known: {', '.join(sorted(REGISTRY))}"
    )


def code(*modules):
    """Package modules a rule runs, as inputs: editing one reruns the jobs that use it."""
    return [f"src/boostrank/{m.replace('.', '/')}.py" for m in modules]


def raw_provenance(dataset):
    return f"data/raw/{dataset}/provenance.json"


def processed_meta(dataset):
    return f"data/processed/{dataset}.json"


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


def figure_outputs():
    return [out for figure in CATALOG.values() for out in figure.outputs]
