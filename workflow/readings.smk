# make readings: the claims of every reading in config/readings.yaml under each of its options.
#   snakemake --snakefile workflow/readings.smk --profile profiles/local [--configfile ...]
# Each variant (the config as given, "default", or one reading switched to another option) is
# the main workflow imported as a module under results/readings/<variant>/ (results, figures,
# logs, benchmarks and processed data; the fetched files in data/raw are shared), so every
# (reading, option) job is cached like any other and only the files its claims read are made.
# boostrank.report.readings documents the table and the figure.
import json
import shlex
import sys
from pathlib import Path

from snakemake.utils import min_version

from boostrank.workflow.config_check import check_working_directory

min_version("9.27.1")

# config/config.yaml of the working directory is the default configuration: say where it looked.
check_working_directory(Path(workflow.basedir).parent)


configfile: "config/config.yaml"


from boostrank.experiments.reuse import owners
from boostrank.report.claims import load_claims
from boostrank.report.readings import (
    DEFAULT_VARIANT,
    ROOT,
    VARIANT_PREFIXES,
    load_readings,
    plan,
    variant_table,
)

READINGS_FILE = "config/readings.yaml"
READINGS = load_readings(READINGS_FILE, config.get("readings", {}).get("only"))
VARIANTS = plan(READINGS, load_claims(config.get("claims", "config/claims.yaml")), config)
# Each distinct job once: a variant reads the files of an earlier variant whose jobs compute
# them the same way (config readings.reuse; boostrank.experiments.reuse, docs/readings-reuse.md).
REUSE = owners({name: v.config for name, v in VARIANTS.items()})


rule readings:
    default_target: True
    input:
        [f"{ROOT}/{v.name}/{f}" for v in VARIANTS.values() for f in v.files],
        readings=READINGS_FILE,
        claims=config.get("claims", "config/claims.yaml"),
        printed="config/config.yaml",
        schema="workflow/schemas/config.schema.yaml",
        code=[
            f"src/boostrank/report/{m}.py"
            for m in ("readings", "claims", "spread", "diagnosis", "protocol")
        ],
    output:
        csv="results/readings.csv",
        figure=multiext("figures/readings", ".png", ".pdf"),
    log:
        "logs/readings.log",
    params:
        variants=json.dumps(variant_table(READINGS, config), sort_keys=True),
        run_config=json.dumps(config, sort_keys=True),
        seed=config["seed"],
    shell:
        f"{shlex.quote(sys.executable)} -m boostrank readings --readings {{input.readings:q}}"
        " --claims {input.claims:q} --variants {params.variants:q} --seed {params.seed}"
        " --csv {output.csv:q} --figure-prefix figures/readings"
        " --run-config {params.run_config:q} --printed-config {input.printed:q}"
        " --config-schema {input.schema:q} 2> {log:q}"


for _index, (_name, _variant) in enumerate(VARIANTS.items()):

    module:
        name: _name
        snakefile:
            "../Snakefile"
        config:
            {
                **_variant.config,
                "readings": {**_variant.config.get("readings", {}), "reuse": REUSE[_name]},
            }
        replace_prefix:
            {p: f"{ROOT}/{_name}/{p}" for p in VARIANT_PREFIXES}

    _alias = f"v{_index}_*"  # rule names v<index>_<rule>
    # The fetched files are shared: only the default variant has the fetch rule.
    if _name == DEFAULT_VARIANT:

        use rule * from _name exclude all as _alias

    else:

        use rule * from _name exclude all, fetch as _alias
