# Zheng et al. (2007), NIPS, section 4: Table 1 (precision at K% on P3) and Figure 1 (DCG-5 on
# L3 against the number of trees) of QBRank, GBT and RankSVM, on LETOR 4.0 in place of the
# proprietary Yahoo! data. One job per (data set, random L1/L2/L3 split, model) trains once and
# scores every tree count by staged predictions; one job merges them into the table, the figure
# and the summary statistics the claims read.

from boostrank.experiments.qbrank import spec as QB_SPEC


rule qbrank_train:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        code=code(*QB_SPEC.TRAIN.code),
    output:
        csv=QB_SPEC.run_file("{dataset}", "{split}", "{model}", ".csv"),
        record=QB_SPEC.run_file("{dataset}", "{split}", "{model}", ".json"),
        queries=QB_SPEC.run_file("{dataset}", "{split}", "{model}", ".queries.csv"),
    log:
        "logs/qbrank-table1/train/{dataset}/split{split}/{model}.log",
    benchmark:
        "benchmarks/qbrank-table1/train/{dataset}/split{split}/{model}.tsv"
    wildcard_constraints:
        dataset="|".join(config["qbrank"]["datasets"]),
        model="|".join(QB_SPEC.BY_KEY),
        split=r"\d+",
    threads: 1
    params:
        spec=job_spec(QB_SPEC.train_spec),
    shell:
        "boostrank job qbrank.train --spec {params.spec:q} 2> {log}"


rule qbrank_figure:
    input:
        runs=lambda w: QB_SPEC.run_files(config, ".csv", data_replicates),
        queries=lambda w: QB_SPEC.run_files(config, ".queries.csv", data_replicates),
        claims=config["claims"],
        code=code(*QB_SPEC.FIGURE.code),
    output:
        **spec_outputs(QB_SPEC.FIGURES[QB_SPEC.TABLE_ID].outputs),
        **spec_outputs(QB_SPEC.FIGURES[QB_SPEC.FIGURE_ID].outputs),
    log:
        "logs/qbrank-fig1/figure.log",
    benchmark:
        "benchmarks/qbrank-fig1/figure.tsv"
    threads: 1
    params:
        spec=job_spec(QB_SPEC.figure_spec),
    shell:
        "boostrank job qbrank.figure --spec {params.spec:q} 2> {log}"
