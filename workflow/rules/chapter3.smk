# Dissertation chapter 3 (Valizadegan 2010, section 3.4), Figure 3.1: NDCG@1..10 of NDCG_Boost
# and LETOR 3.0's baselines (+ LambdaMART as a dashed reference) on the seven LETOR 3.0 data sets.
# One training job per (data set, algorithm, replicate, fold) writes the fold's test run (TREC
# format) and its record; the folds' qrels are written once per data set; one evaluation job per
# data set scores the run files; one job merges them into the figure, its table and the CSVs.
# An algorithm whose module (src/boostrank/ranking/<module>.py) is missing is left out and
# marked in the outputs. An algorithm that draws no random numbers under its arguments has
# replicate 1 only, and so does every algorithm on a synthetic stand-in (chapter3.replicates;
# boostrank.experiments.chapter3.spec.seeded).

from boostrank.experiments.chapter3 import spec as CH3_SPEC

CH3 = config["chapter3"]


rule chapter3_train:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        code=lambda w: code(*CH3_SPEC.train_code(w.algorithm, SRC)),
    output:
        run=CH3_SPEC.RUN_FILE,
        record=CH3_SPEC.RECORD_FILE,
    log:
        "logs/thesis-fig3_1/train/{dataset}/{algorithm}/r{replicate}/fold{fold}.log",
    benchmark:
        "benchmarks/thesis-fig3_1/train/{dataset}/{algorithm}/r{replicate}/fold{fold}.tsv"
    wildcard_constraints:
        dataset="|".join(CH3["datasets"]),
        algorithm="|".join(CH3_SPEC.BY_KEY),
        replicate="[1-9][0-9]*",
        fold="|".join(map(str, CH3["folds"])),
    threads: 1
    params:
        spec=job_spec(CH3_SPEC.train_spec),
    shell:
        "boostrank job chapter3.train --spec {params.spec:q} 2> {log}"


rule chapter3_qrels:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        code=code(*CH3_SPEC.QRELS.code),
    output:
        qrels=expand(CH3_SPEC.QRELS_FILE, fold=CH3["folds"], allow_missing=True),
    log:
        "logs/thesis-fig3_1/qrels/{dataset}.log",
    benchmark:
        "benchmarks/thesis-fig3_1/qrels/{dataset}.tsv"
    wildcard_constraints:
        dataset="|".join(CH3["datasets"]),
    params:
        spec=job_spec(CH3_SPEC.qrels_spec),
    shell:
        "boostrank job chapter3.qrels --spec {params.spec:q} 2> {log}"


rule chapter3_evaluate:
    input:
        # reused(): under make readings, a run another variant makes the same way is read there
        runs=lambda w: reused(CH3_SPEC.first_runs(CH3, w.dataset, SRC)),
        replicate_runs=lambda w: reused(
            CH3_SPEC.replicate_runs(
                CH3, w.dataset, data_replicates(CH3["replicates"], w.dataset), SRC
            )
        ),
        qrels=lambda w: reused(expand(CH3_SPEC.QRELS_FILE, fold=CH3["folds"], dataset=w.dataset)),
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
        # the data set's replicates: known after the fetch checkpoint
        spec=job_spec(
            CH3_SPEC.evaluate_spec,
            replicates=lambda w: data_replicates(CH3["replicates"], w.dataset),
        ),
    shell:
        "boostrank job chapter3.evaluate --spec {params.spec:q} 2> {log}"


rule chapter3_figure:
    input:
        evaluations=expand("results/thesis-fig3_1/{dataset}.csv", dataset=CH3["datasets"]),
        samples=expand("results/thesis-fig3_1/{dataset}.samples.csv", dataset=CH3["datasets"]),
        # the training jobs' records: their guards' counts (results/guards/thesis-fig3_1.csv)
        records=lambda w: reused(
            [
                r
                for ds in CH3["datasets"]
                for r in CH3_SPEC.record_files(
                    CH3, ds, data_replicates(CH3["replicates"], ds), SRC
                )
            ]
        ),
        # LETOR 3.0's published baseline values (a registry data set without a stand-in): drawn
        # and claimed where a source has them, else the figure says they were not fetched.
        letor=([raw_provenance("letor3_baselines")] if data_available("letor3_baselines") else []),
        claims=config["claims"],
        code=code(*CH3_SPEC.FIGURE.code),
    output:
        **spec_outputs(CH3_SPEC.FIGURES[CH3_SPEC.FIGURE_ID].outputs),
    log:
        "logs/thesis-fig3_1/figure.log",
    benchmark:
        "benchmarks/thesis-fig3_1/figure.tsv"
    params:
        spec=job_spec(CH3_SPEC.figure_spec),
    shell:
        "boostrank job chapter3.figure --spec {params.spec:q} 2> {log}"
