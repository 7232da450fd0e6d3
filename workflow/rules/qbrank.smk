# Zheng et al. (2007), NIPS, section 4: Table 1 (precision at K% on P3) and Figure 1 (DCG-5 on
# L3 against the number of trees) of QBRank, GBT and RankSVM, on LETOR 4.0 in place of the
# proprietary Yahoo! data. One job per (data set, random L1/L2/L3 split, model) trains once and
# scores every tree count by staged predictions; one job merges them into the table, the figure
# and the summary statistics the claims read.


rule qbrank_train:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        code=code(*QB_SPEC.TRAIN.code),
    output:
        csv=f"{QB_RUNS}/{{dataset}}/split{{split}}/{{model}}.csv",
        record=f"{QB_RUNS}/{{dataset}}/split{{split}}/{{model}}.json",
        queries=f"{QB_RUNS}/{{dataset}}/split{{split}}/{{model}}.queries.csv",
    log:
        "logs/qbrank-table1/train/{dataset}/split{split}/{model}.log",
    benchmark:
        "benchmarks/qbrank-table1/train/{dataset}/split{split}/{model}.tsv"
    wildcard_constraints:
        dataset="|".join(QB["datasets"]),
        model="|".join(QB_MODELS),
        split=r"\d+",
    threads: 1
    params:
        params=qb_params,
        seed=config["seed"],
    shell:
        "single_threaded"
        " boostrank qbrank-train --dataset {wildcards.dataset} --model {wildcards.model}"
        " --split {wildcards.split} --npz {input.npz} --meta {input.meta}"
        " --params {params.params:q} --seed {params.seed} --out {output.csv}"
        " --record {output.record} --queries {output.queries} 2> {log}"


rule qbrank_figure:
    input:
        runs=qb_runs(".csv"),
        queries=qb_runs(".queries.csv"),
        claims=config["claims"],
        code=code(*QB_SPEC.FIGURE.code),
    output:
        table_csv="results/qbrank-table1.csv",
        table_summary="results/qbrank-table1_summary.csv",
        figure_csv="results/qbrank-fig1.csv",
        figure_summary="results/qbrank-fig1_summary.csv",
        figure_samples="results/qbrank-fig1.samples.csv",
        table=reported(multiext("figures/tables/qbrank-table1", ".csv", ".md", ".tex")),
        figure=reported(multiext("figures/qbrank-fig1", ".png", ".pdf")),
    log:
        "logs/qbrank-fig1/figure.log",
    benchmark:
        "benchmarks/qbrank-fig1/figure.tsv"
    threads: 1
    params:
        figure_prefix=output_stem("figure"),
        table_prefix=output_stem("table"),
        table_trees=QB["table_trees"],
        trees=json.dumps(QB["trees"], sort_keys=True),
        ties=QB["ties"],
    shell:
        "boostrank qbrank-figure --inputs {input.runs} --claims {input.claims}"
        " --table-trees {params.table_trees} --trees {params.trees:q} --ties {params.ties}"
        " --table-csv {output.table_csv}"
        " --table-summary {output.table_summary} --figure-csv {output.figure_csv}"
        " --figure-summary {output.figure_summary} --table-prefix {params.table_prefix}"
        " --figure-prefix {params.figure_prefix} --queries {input.queries}"
        " --figure-samples {output.figure_samples} 2> {log}"
