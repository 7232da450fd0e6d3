# Document-analysis report (Sengupta 2018), Reuters-21578: Figures 4-7 and the random forest.
# The corpus (ModApte, ten topics, TF-IDF) is built once; each expensive step is its own job,
# and figures are drawn from their results CSVs, so editing the claims redraws, never refits.
# Reuters-21578 has no stand-in: without a mirror holding it these targets are left out of the
# run (common.smk: skipped_figures) and the report header names them.

from boostrank.experiments.docan import spec as DOCAN_SPEC


rule docan_reuters_corpus:
    input:
        raw=raw_provenance("reuters21578"),
        stopwords=f"{SRC}/preprocess/data/stopwords_en_snowball.txt",
        code=code(*DOCAN_SPEC.CORPUS_CODE),
    output:
        npz=DOCAN_SPEC.CORPUS,
        meta=DOCAN_SPEC.CORPUS_META,
    log:
        "logs/data/prepare-reuters21578.log",
    benchmark:
        "benchmarks/data/prepare-reuters21578.tsv"
    params:
        text=config["docan_reuters"]["text"],
        multi_topic=config["docan_reuters"]["multi_topic"],
        counting=config["docan_reuters"]["topic_counting"],
        top=config["docan_reuters"]["top_topics"],
        stemmer=config["docan_reuters"]["stemmer"],
        min_length=config["docan_reuters"]["min_word_length"],
        stop_words=config["docan_reuters"]["stop_words"],
        cached=lambda w: changed_since_fetch("data/raw/reuters21578"),
    shell:
        "boostrank reuters-corpus --raw-dir data/raw/reuters21578 --provenance {input.raw:q}"
        " --npz {output.npz:q} --meta {output.meta:q} --text {params.text:q}"
        " --multi-topic {params.multi_topic:q} --topic-counting {params.counting:q}"
        " --top-topics {params.top:q} --stemmer {params.stemmer:q}"
        " --min-word-length {params.min_length:q} --stop-words {params.stop_words:q} 2> {log:q}"


# Beside the figure, the section's statistics of the data (articles, the top topics' share, the
# corpus's non-sparsity, the worked pre-processing example): the job finds the corpus sidecar and
# the summary CSV next to its results CSV (boostrank.experiments.docan.make.fig4_files).
rule docan_fig4:
    input:
        raw=raw_provenance("reuters21578"),
        meta=DOCAN_SPEC.CORPUS_META,
        claims=config["claims"],
        code=code(*DOCAN_SPEC.FIG4.code),
    output:
        **spec_outputs(DOCAN_SPEC.FIGURES["docan-fig4"].outputs),
    log:
        "logs/docan-fig4/topics.log",
    benchmark:
        "benchmarks/docan-fig4/topics.tsv"
    params:
        spec=job_spec(DOCAN_SPEC.fig4_spec),
        cached=lambda w: changed_since_fetch("data/raw/reuters21578"),
    shell:
        "boostrank job docan.fig4 --spec {params.spec:q} 2> {log}"


rule docan_clustering:
    input:
        npz=DOCAN_SPEC.CORPUS,
        meta=DOCAN_SPEC.CORPUS_META,
        code=code(*DOCAN_SPEC.CLUSTERING.code),
    output:
        **spec_outputs(DOCAN_SPEC.FIGURES["docan-fig5"].outputs, "csv"),
    log:
        "logs/docan-fig5/clustering.log",
    benchmark:
        "benchmarks/docan-fig5/clustering.tsv"
    threads: 2
    params:
        spec=job_spec(DOCAN_SPEC.clustering_spec),
    shell:
        "OMP_NUM_THREADS={threads} boostrank job docan.clustering --spec {params.spec:q} 2> {log}"


rule docan_knn:
    input:
        npz=DOCAN_SPEC.CORPUS,
        meta=DOCAN_SPEC.CORPUS_META,
        code=code(*DOCAN_SPEC.KNN.code),
    output:
        **spec_outputs(DOCAN_SPEC.reuters_outputs("docan-{fig}"), "csv", "samples"),
    log:
        "logs/docan-{fig}/knn.log",
    benchmark:
        "benchmarks/docan-{fig}/knn.tsv"
    wildcard_constraints:
        fig="fig6|fig7",
    params:
        spec=job_spec(DOCAN_SPEC.knn_spec),
    shell:
        "OMP_NUM_THREADS={threads} boostrank job docan.knn --spec {params.spec:q} 2> {log}"


rule docan_plot:
    input:
        csv="results/docan-{fig}.csv",
        claims=config["claims"],
        code=code(*DOCAN_SPEC.PLOT.code),
    output:
        **spec_outputs(DOCAN_SPEC.reuters_outputs("docan-{fig}"), "figure"),
    log:
        "logs/docan-{fig}/plot.log",
    benchmark:
        "benchmarks/docan-{fig}/plot.tsv"
    wildcard_constraints:
        fig="fig5|fig6|fig7",
    params:
        spec=job_spec(DOCAN_SPEC.plot_spec),
    shell:
        "boostrank job docan.plot --spec {params.spec:q} 2> {log}"


rule docan_forest:
    input:
        npz=DOCAN_SPEC.CORPUS,
        meta=DOCAN_SPEC.CORPUS_META,
        code=code(*DOCAN_SPEC.FOREST.code),
    output:
        csv=f"{DOCAN_SPEC.FOREST_DIR}/r{{replicate}}.csv",
        samples=f"{DOCAN_SPEC.FOREST_DIR}/r{{replicate}}.samples.csv",
    log:
        "logs/docan-table1/forest/r{replicate}.log",
    benchmark:
        "benchmarks/docan-table1/forest/r{replicate}.tsv"
    wildcard_constraints:
        replicate="[1-9][0-9]*",
    threads: 2
    params:
        spec=job_spec(DOCAN_SPEC.forest_spec),
    shell:
        "OMP_NUM_THREADS={threads} boostrank job docan.forest --spec {params.spec:q} 2> {log}"


rule docan_forest_merge:
    input:
        csvs=lambda w: DOCAN_SPEC.forest_files(config, data_replicates, ".csv"),
        samples=lambda w: DOCAN_SPEC.forest_files(config, data_replicates, ".samples.csv"),
        code=code(*DOCAN_SPEC.FOREST_MERGE.code),
    output:
        **spec_outputs(DOCAN_SPEC.FIGURES["docan-table1"].outputs, "csv", "samples"),
    log:
        "logs/docan-table1/forest.log",
    benchmark:
        "benchmarks/docan-table1/forest.tsv"
    params:
        spec=job_spec(DOCAN_SPEC.forest_merge_spec),
    shell:
        "boostrank job docan.forest_merge --spec {params.spec:q} 2> {log}"


rule docan_table1:
    input:
        results="results/docan-table1.csv",
        claims=config["claims"],
        code=code(*DOCAN_SPEC.TABLE1.code),
    output:
        **spec_outputs(DOCAN_SPEC.FIGURES["docan-table1"].outputs, "table"),
    log:
        "logs/docan-table1/table.log",
    benchmark:
        "benchmarks/docan-table1/table.tsv"
    params:
        spec=job_spec(DOCAN_SPEC.table1_spec),
    shell:
        "boostrank job docan.table1 --spec {params.spec:q} 2> {log}"
