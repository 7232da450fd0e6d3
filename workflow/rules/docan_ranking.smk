# Document-analysis report (Sengupta 2018), section "Results" and "Working on a toy dataset":
# the ranking Tables 2-6 on LETOR 4.0 (one job per table and fold, then a merge that also
# writes the statistics its ordering claims read, results/<table>_summary.csv, and the table's
# guard counts, results/guards/<table>.csv), Table 7 (the toy example, with the features it
# derives from its documents) and Table 8 (the 2-D pairwise-transform demo). MQ2007 or its
# MQ2008 substitute is chosen at run time from the two sidecars (both are inputs).

from boostrank.experiments.docan import spec as DOCAN_SPEC


rule docan_ranking_fold:
    input:
        metas=[meta_in(ds) for ds in DOCAN_SPEC.LETOR_DATASETS],
        arrays=[npz_in(ds) for ds in DOCAN_SPEC.LETOR_DATASETS],
        code=lambda w: code(*DOCAN_SPEC.fold_code_modules(w.table)),
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
        spec=job_spec(DOCAN_SPEC.ranking_fold_spec),
    shell:
        "boostrank job docan.ranking_fold --spec {params.spec:q} 2> {log}"


rule docan_ranking_merge:
    input:
        folds=expand(
            "results/docan_ranking/{{table}}/fold{fold}.csv",
            fold=config["docan_ranking"]["folds"],
        ),
        claims=config["claims"],
        code=code(*DOCAN_SPEC.RANKING_MERGE.code),
    output:
        **spec_outputs(DOCAN_SPEC.ranking_outputs("{table}")),
    log:
        "logs/{table}/merge.log",
    benchmark:
        "benchmarks/{table}/merge.tsv"
    wildcard_constraints:
        table="docan-table[2-6]",
    params:
        spec=job_spec(DOCAN_SPEC.ranking_merge_spec),
    shell:
        "boostrank job docan.ranking_merge --spec {params.spec:q} 2> {log}"


# The toy matrix rebuilt from the printed documents goes beside the table's results (the job
# finds its path from the table's: boostrank.experiments.docan.make_ranking.results_beside).
rule docan_ranking_toy:
    input:
        claims=config["claims"],
        code=code(*DOCAN_SPEC.RANKING_TOY.code),
    output:
        **spec_outputs(DOCAN_SPEC.FIGURES["docan-table7"].outputs),
    log:
        "logs/docan-table7/toy.log",
    benchmark:
        "benchmarks/docan-table7/toy.tsv"
    threads: 1
    params:
        spec=job_spec(DOCAN_SPEC.toy_spec),
    shell:
        "boostrank job docan.ranking_toy --spec {params.spec:q} 2> {log}"


# Beside Table 8, whether the demo's training pairs are linearly separable (Figures 10-11),
# found by the job as the toy's matrix is.
rule docan_ranking_demo:
    input:
        claims=config["claims"],
        code=code(*DOCAN_SPEC.RANKING_DEMO.code),
    output:
        **spec_outputs(DOCAN_SPEC.FIGURES["docan-table8"].outputs),
    log:
        "logs/docan-table8/demo.log",
    benchmark:
        "benchmarks/docan-table8/demo.tsv"
    threads: 1
    params:
        spec=job_spec(DOCAN_SPEC.demo_spec),
    shell:
        "boostrank job docan.ranking_demo --spec {params.spec:q} 2> {log}"
