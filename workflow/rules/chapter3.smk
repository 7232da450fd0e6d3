# Dissertation chapter 3 (Valizadegan 2010, section 3.4), Figure 3.1: NDCG@1..10 of NDCG_Boost
# and LETOR 3.0's baselines (+ LambdaMART as a dashed reference) on the seven LETOR 3.0 data sets.
# One training job per (data set, algorithm, replicate) writes each fold's test run (TREC
# format); the folds' qrels are written once per data set; one evaluation job per data set scores the run files;
# one job merges them into the figure, its table and the results CSVs. An algorithm whose module
# (src/boostrank/ranking/<module>.py) does not exist yet is left out and marked in the outputs.


rule chapter3_train:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        code=ch3_train_code,
    output:
        runs=expand(CH3_RUN, fold=CH3["folds"], allow_missing=True),
        records=expand(CH3_RUN.replace(".run", ".json"), fold=CH3["folds"], allow_missing=True),
    log:
        "logs/thesis-fig3_1/train/{dataset}/{algorithm}/r{replicate}.log",
    benchmark:
        "benchmarks/thesis-fig3_1/train/{dataset}/{algorithm}/r{replicate}.tsv"
    wildcard_constraints:
        dataset="|".join(CH3["datasets"]),
        algorithm="|".join(CH3_SPEC.BY_KEY),
        replicate="[1-9][0-9]*",
    threads: 1
    params:
        params=ch3_params,
        seed=config["seed"],
        folds=" ".join(str(f) for f in CH3["folds"]),
    shell:
        "single_threaded"
        " boostrank chapter3-train --dataset {wildcards.dataset} --algorithm {wildcards.algorithm}"
        " --fold {params.folds} --replicate {wildcards.replicate} --npz {input.npz}"
        " --meta {input.meta} --params {params.params:q} --seed {params.seed}"
        " --run {output.runs} --record {output.records} 2> {log}"


rule chapter3_qrels:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        code=code(*CH3_SPEC.QRELS.code),
    output:
        expand(f"{CH3_RUNS}/{{{{dataset}}}}/fold{{fold}}.qrels", fold=CH3["folds"]),
    log:
        "logs/thesis-fig3_1/qrels/{dataset}.log",
    benchmark:
        "benchmarks/thesis-fig3_1/qrels/{dataset}.tsv"
    wildcard_constraints:
        dataset="|".join(CH3["datasets"]),
    params:
        folds=" ".join(str(f) for f in CH3["folds"]),
    shell:
        "boostrank chapter3-qrels --npz {input.npz} --folds {params.folds} --out {output} 2> {log}"


rule chapter3_evaluate:
    input:
        runs=ch3_runs,
        replicate_runs=ch3_replicate_runs,
        qrels=expand(f"{CH3_RUNS}/{{{{dataset}}}}/fold{{fold}}.qrels", fold=CH3["folds"]),
        meta=lambda w: ranking_meta(w.dataset),
        code=code(*CH3_SPEC.EVALUATE.code),
    output:
        csv="results/thesis-fig3_1/{dataset}.csv",
        samples="results/thesis-fig3_1/{dataset}.samples.csv",
    log:
        "logs/thesis-fig3_1/evaluate/{dataset}.log",
    benchmark:
        "benchmarks/thesis-fig3_1/evaluate/{dataset}.tsv"
    wildcard_constraints:
        dataset="|".join(CH3["datasets"]),
    params:
        folds=" ".join(str(f) for f in CH3["folds"]),
        k_max=CH3["k_max"],
        formula=CH3["ndcg_formula"],
        seed=config["seed"],
        replicates=lambda w, input: ch3_replicates(w),  # after the fetch checkpoint
    shell:
        "boostrank chapter3-evaluate --dataset {wildcards.dataset} --meta {input.meta}"
        " --runs {input.runs} {input.replicate_runs} --qrels {input.qrels} --folds {params.folds}"
        " --replicates {params.replicates}"
        " --k-max {params.k_max} --formula {params.formula} --seed {params.seed}"
        " --out {output.csv} --samples {output.samples} 2> {log}"


rule chapter3_figure:
    input:
        evaluations=expand("results/thesis-fig3_1/{dataset}.csv", dataset=CH3["datasets"]),
        samples=expand("results/thesis-fig3_1/{dataset}.samples.csv", dataset=CH3["datasets"]),
        letor=CH3_LETOR,
        claims=config["claims"],
        code=code(*CH3_SPEC.FIGURE.code),
    output:
        csv="results/thesis-fig3_1.csv",
        samples="results/thesis-fig3_1.samples.csv",
        summary="results/thesis-fig3_1_summary.csv",
        compared="results/thesis-fig3_1_compared.csv",
        compared_samples="results/thesis-fig3_1_compared.samples.csv",
        figure=reported(multiext("figures/thesis-fig3_1", ".png", ".pdf")),
        table=reported(multiext("figures/tables/thesis-fig3_1", ".csv", ".md", ".tex")),
    log:
        "logs/thesis-fig3_1/figure.log",
    benchmark:
        "benchmarks/thesis-fig3_1/figure.tsv"
    params:
        table_prefix=output_stem("table"),
        figure_prefix=output_stem("figure"),
        tolerance=CH3["best_tolerance"],
        tie_break=CH3["tie_break"],
        compared=CH3["baselines_compared"],
        seed=config["seed"],
        letor=lambda w, input: f"--letor-published {input.letor}" if input.letor else "",
    shell:
        "boostrank chapter3-figure --evaluations {input.evaluations} --claims {input.claims}"
        " --tolerance {params.tolerance} --tie-break {params.tie_break}"
        " --baselines-compared {params.compared} --compared {output.compared}"
        " --csv {output.csv} --summary {output.summary}"
        " --figure-prefix {params.figure_prefix} --table-prefix {params.table_prefix}"
        " --samples {input.samples} --samples-out {output.samples} --seed {params.seed}"
        " {params.letor} 2> {log}"
