# Report stage: the data inventory, every claim checked, and one self-contained HTML page.
# Its rules run on the machine Snakemake runs on, never on a cluster node (`localrule: True`,
# which a rule keeps when make readings imports the workflow under another name).


rule inventory:
    input:
        metas=inventory_inputs(),
        code=code("data.inventory"),
    output:
        "results/datasets.csv",
    log:
        "logs/inventory.log",
    localrule: True
    shell:
        "boostrank inventory {input.metas} --out {output} 2> {log}"


# The printed protocol (config/config.yaml) and the schema's x-kind marks: the report says
# "reduced protocol" where the run's config (a param) changed a printed key. make readings'
# table and figure, when there, feed the diagnoses and the readings section; the statements
# ledger gives the page's coverage table.
rule report:
    input:
        figure_outputs(),
        inventory="results/datasets.csv",
        claims=config["claims"],
        catalog=config["catalog"],
        printed=repo_path("config/config.yaml"),
        schema=repo_path("workflow/schemas/config.schema.yaml"),
        readings=repo_path("config/readings.yaml"),
        statements=repo_path("config/statements.yaml"),
        readings_run=if_present(
            "results/readings.csv",
            "figures/readings.png",
            "results/readings_confirm.csv",
            "figures/readings_confirm.png",
        ),
        code=code("report.claims", "report.html", "report.render", "report.captions"),
    output:
        claims="results/claims.csv",
        html="results/report.html",
        captions=REPORT_CAPTIONS,
    log:
        "logs/report.log",
    localrule: True
    params:
        budgets=json.dumps(config["timing"]["budgets_cpu_s"]),
        run_config=json.dumps(config, sort_keys=True),
        seed=config["seed"],
        # key=value words of the page header, each its own quoted word (:q quotes each item of
        # a list): the run's name is any text, never shell code
        info=[f"run={config['run_name']}", f"seed={config['seed']}", f"strict={config['strict']}"]
        + (
            [f"skipped_for_lack_of_data={','.join(skipped_figures())}"]
            if skipped_figures()
            else []
        ),
    # Every value quoted (:q): the paths come from the config or the workflow's folder.
    shell:
        "boostrank report --claims {input.claims:q} --catalog {input.catalog:q}"
        " --inventory {input.inventory:q} --claims-out {output.claims:q} --out {output.html:q}"
        " --captions-out {output.captions:q} --budgets {params.budgets:q} --seed {params.seed}"
        " --run-config {params.run_config:q} --printed-config {input.printed:q}"
        " --config-schema {input.schema:q} --readings {input.readings:q}"
        " --statements {input.statements:q}"
        " --info {params.info:q} 2> {log:q}"
