# make readings: the claims of every reading in config/readings.yaml under each of its options.
#   snakemake --snakefile workflow/readings.smk --profile profiles/local [--configfile ...]
# Each variant (the config as given, "default", or one reading switched to another option) is
# the main workflow imported as a module under results/readings/<variant>/ (results, figures,
# logs, benchmarks and processed data; the fetched files in data/raw are shared), so every
# (reading, option) job is cached like any other and only the files its claims read are made.
# boostrank.report.readings documents the table and the figure.
import json
import re
import shlex
import sys
import time
from pathlib import Path

from snakemake.utils import min_version

from boostrank.workflow.config_check import check_working_directory

min_version("9.27.1")

# config/config.yaml of the working directory is the default configuration: say where it looked.
check_working_directory(Path(workflow.basedir).parent)


configfile: "config/config.yaml"


from boostrank.experiments.job import figure_code
from boostrank.experiments.reuse import owners
from boostrank.report.claims import figure_of, load_claims
from boostrank.report.readings import (
    DEFAULT_VARIANT,
    FIGURES,
    ROOTS,
    TABLES,
    VARIANT_PREFIXES,
    claim_files,
    load_readings,
    option_text,
    plan,
    variant_dir,
    variant_table,
)
from boostrank.report.readings_figure import OUT as SIDE_BY_SIDE
from boostrank.report.readings_figure import figure_target, moved_figures
from boostrank.report.stages import stage_selection
from boostrank.report.timing import record_run
from boostrank.workflow.catalog import load_catalog

STARTED = time.time()  # the timing record's wall clock starts when the workflow is parsed

READINGS_FILE = "config/readings.yaml"
# Stage 1 (screen, the default) runs every reading; stage 2 (readings_stage=confirm, make
# readings PROTOCOL=full) the readings the screen's table sends on, or readings_only=<id>.
STAGE, ONLY, SCREENED = stage_selection(config, READINGS_FILE)
ROOT = ROOTS[STAGE]
READINGS = load_readings(READINGS_FILE, ONLY)
CLAIMS_FILE = config.get("claims", "config/claims.yaml")
CLAIMS = load_claims(CLAIMS_FILE)
VARIANTS = plan(READINGS, CLAIMS, config)
# Figure id -> its PNG; variant -> "<reading> = <option>" (the right panel's title).
CATALOG = load_catalog(config["catalog"], figure_code())
DRAWN = {f.id: f.image for f in CATALOG.values() if f.image}
LABELS = {
    variant: (f"{r.id} = {option}", f"{r.id} = {option_text(r.configured(config))} (default)")
    for r in READINGS
    for option, variant in variant_table([r], config)[r.id].items()
}
# Readings named on their own (ONLY=<id>, confirm stage, no screen read): each figure they
# move, under each other option, beside the default.
SIDE = [
    figure_target(figure, variant)
    for reading in (READINGS if STAGE == "confirm" and not SCREENED else [])
    for variant in variant_table([reading], config)[reading.id].values()
    if variant != DEFAULT_VARIANT
    for figure in moved_figures(reading, CLAIMS, set(DRAWN))
]
# The confirm stage runs on the printed config, so its default variant is the main run: no
# prefix, its files are results/... themselves (reused as they are after make reproduce).
MAIN_DEFAULT = STAGE == "confirm"


def variant_root(name):
    """Where a variant's workflow copy writes (boostrank.report.readings.variant_dir)."""
    return str(variant_dir(ROOT, name, MAIN_DEFAULT))


def variant_file(name, path):
    return str(Path(variant_root(name), path))


# Each distinct job once: a variant reads the files of an earlier variant whose jobs compute
# them the same way (config readings.reuse; boostrank.experiments.reuse, docs/readings-reuse.md).
# The confirm stage's default is the main run, whose root is "." (reused() reads it as such).
_DEFAULT_ROOT = f"{ROOT}/{DEFAULT_VARIANT}"
REUSE = {
    name: {p: variant_root(DEFAULT_VARIANT) if r == _DEFAULT_ROOT else r for p, r in mine.items()}
    for name, mine in owners({n: v.config for n, v in VARIANTS.items()}, ROOT).items()
}


onsuccess:
    # The timing record of the readings' own jobs, those under ROOT (the main run's, which the
    # confirm stage reads as its default, are in the main run's record): per figure, the run's
    # CPU, and the critical path and simulated wall time on more cores of their job graph;
    # ROOT/timing.csv and logs/timing/ (boostrank.report.timing).
    record_run(
        f"{ROOT}/timing.csv",
        CATALOG,
        {},
        made="the readings are",
        started=STARTED,
        log_files=log,
        command=" ".join(sys.argv[1:]),
        dag=workflow.dag,
        roots=[variant_root(v) for v in VARIANTS if variant_root(v) != "."],
    )


rule readings:
    default_target: True
    input:
        [variant_file(v.name, f) for v in VARIANTS.values() for f in v.files],
        SIDE,
        readings=READINGS_FILE,
        claims=CLAIMS_FILE,
        printed="config/config.yaml",
        screened=SCREENED,
        schema="workflow/schemas/config.schema.yaml",
        code=[
            f"src/boostrank/report/{m}.py"
            for m in ("readings", "claims", "spread", "diagnosis", "protocol")
        ],
    output:
        csv=TABLES[STAGE],
        figure=multiext(FIGURES[STAGE], ".png", ".pdf"),
    log:
        f"logs/readings_{STAGE}.log",
    params:
        variants=json.dumps(variant_table(READINGS, config), sort_keys=True),
        run_config=json.dumps(config, sort_keys=True),
        seed=config["seed"],
        stage=STAGE,
        root=ROOT,
        main=" --main-default" if MAIN_DEFAULT else "",
        figure=FIGURES[STAGE],
    shell:
        f"{shlex.quote(sys.executable)} -m boostrank readings --readings {{input.readings:q}}"
        " --claims {input.claims:q} --variants {params.variants:q} --seed {params.seed}"
        " --csv {output.csv:q} --figure-prefix {params.figure:q}"
        " --stage {params.stage:q} --root {params.root:q}{params.main}"
        " --run-config {params.run_config:q} --printed-config {input.printed:q}"
        " --config-schema {input.schema:q} 2> {log:q}"


rule readings_figure:
    input:
        default=lambda w: variant_file(DEFAULT_VARIANT, DRAWN[w.figure]),
        option=lambda w: variant_file(w.variant, DRAWN[w.figure]),
        results=lambda w: [
            variant_file(v, f)
            for v in (DEFAULT_VARIANT, w.variant)
            for f in claim_files([c for c in CLAIMS if figure_of(c.id) == w.figure])
        ],
        claims=CLAIMS_FILE,
    output:
        multiext(f"{SIDE_BY_SIDE}/{{figure}}__{{variant}}", ".png", ".pdf"),
    log:
        "logs/readings_figure/{figure}__{variant}.log",
    wildcard_constraints:
        figure="|".join(DRAWN),
        variant="|".join(re.escape(v) for v in VARIANTS if v != DEFAULT_VARIANT) or "(?!)",
    params:
        image=lambda w: DRAWN[w.figure],
        label=lambda w: LABELS[w.variant][0],
        default_label=lambda w: LABELS[w.variant][1],
        root=ROOT,
        main=" --main-default" if MAIN_DEFAULT else "",
        prefix=lambda w: f"{SIDE_BY_SIDE}/{w.figure}__{w.variant}",
        seed=config["seed"],
    shell:
        f"{shlex.quote(sys.executable)} -m boostrank readings-figure --figure {{wildcards.figure:q}}"
        " --image {params.image:q} --variant {wildcards.variant:q} --label {params.label:q}"
        " --default-label {params.default_label:q}"
        " --root {params.root:q}{params.main} --claims {input.claims:q} --seed {params.seed}"
        " --out-prefix {params.prefix:q} 2> {log:q}"


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
            {p: f"{variant_root(_name)}/{p}" for p in VARIANT_PREFIXES}
            if variant_root(_name) != "."
            else {}

    _alias = f"v{_index}_*"  # rule names v<index>_<rule>
    # The fetched files are shared: only the default variant has the fetch rule.
    if _name == DEFAULT_VARIANT:

        use rule * from _name exclude all as _alias

    else:

        use rule * from _name exclude all, fetch as _alias
