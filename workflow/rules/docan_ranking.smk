# Document-analysis report (Sengupta 2018), section "Results" and "Working on a toy dataset":
# the ranking Tables 2-6 on LETOR 4.0 (one job per table and fold, then a merge), Table 7 (the
# toy example) and Table 8 (the 2-D pairwise-transform demo). MQ2007 or its MQ2008 substitute
# is chosen at run time from the two sidecars (both are inputs).


rule docan_ranking_fold:
    input:
        metas=[processed_meta(ds) for ds in DOCAN_LETOR],
        arrays=[f"data/processed/{ds}.npz" for ds in DOCAN_LETOR],
        code=docan_fold_code,
    output:
        "results/docan_ranking/{table}/fold{fold}.csv",
    log:
        "logs/{table}/fold{fold}.log",
    benchmark:
        "benchmarks/{table}/fold{fold}.tsv"
    wildcard_constraints:
        table="docan-table[2-6]",
        fold="[1-5]",
    threads: 1
    params:
        settings=lambda w: docan_settings(w.table),
        seed=config["seed"],
    shell:
        "boostrank docan-ranking-fold {wildcards.table} --fold {wildcards.fold}"
        " --meta {input.metas} --settings {params.settings:q} --seed {params.seed}"
        " --out {output} 2> {log}"


rule docan_ranking_merge:
    input:
        folds=expand(
            "results/docan_ranking/{{table}}/fold{fold}.csv",
            fold=config["docan_ranking"]["folds"],
        ),
        claims=config["claims"],
        code=code(*DOCAN_SPEC.RANKING_MERGE.code),
    output:
        reported(multiext("figures/tables/{table}", ".csv", ".md", ".tex")),
    log:
        "logs/{table}/merge.log",
    benchmark:
        "benchmarks/{table}/merge.tsv"
    wildcard_constraints:
        table="docan-table[2-6]",
    params:
        out_prefix=output_stem(),
    shell:
        "boostrank docan-ranking-merge {wildcards.table} --inputs {input.folds}"
        " --claims {input.claims} --out-prefix {params.out_prefix} 2> {log}"


rule docan_ranking_toy:
    input:
        claims=config["claims"],
        code=code(*DOCAN_SPEC.RANKING_TOY.code),
    output:
        reported(multiext("figures/tables/docan-table7", ".csv", ".md", ".tex")),
    log:
        "logs/docan-table7/toy.log",
    benchmark:
        "benchmarks/docan-table7/toy.tsv"
    threads: 1
    params:
        out_prefix=output_stem(),
        settings=json.dumps(config["docan_ranking"]["toy"], sort_keys=True),
        seed=config["seed"],
    shell:
        "boostrank docan-ranking-toy --settings {params.settings:q} --seed {params.seed}"
        " --claims {input.claims} --out-prefix {params.out_prefix} 2> {log}"


rule docan_ranking_demo:
    input:
        claims=config["claims"],
        code=code(*DOCAN_SPEC.RANKING_DEMO.code),
    output:
        reported(multiext("figures/tables/docan-table8", ".csv", ".md", ".tex")),
    log:
        "logs/docan-table8/demo.log",
    benchmark:
        "benchmarks/docan-table8/demo.tsv"
    threads: 1
    params:
        out_prefix=output_stem(),
        settings=json.dumps(config["docan_ranking"]["demo"], sort_keys=True),
    shell:
        "boostrank docan-ranking-demo --settings {params.settings:q}"
        " --claims {input.claims} --out-prefix {params.out_prefix} 2> {log}"
