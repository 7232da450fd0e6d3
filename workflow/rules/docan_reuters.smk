# Document-analysis report (Sengupta 2018), Reuters-21578: Figures 4-7 and the random forest.
# The corpus (ModApte, ten topics, TF-IDF) is built once; each expensive step is its own job,
# and figures are drawn from their results CSVs, so editing the claims redraws, never refits.
# Reuters-21578 has no stand-in: without a mirror holding it these targets are left out of the
# run (common.smk: skipped_figures) and the report header names them.


rule docan_reuters_corpus:
    input:
        raw=raw_provenance("reuters21578"),
        stopwords=f"{SRC}/preprocess/data/stopwords_en_snowball.txt",
        code=DOCAN_CORPUS_CODE,
    output:
        npz=DOCAN_CORPUS,
        meta=DOCAN_CORPUS_META,
    log:
        "logs/data/prepare-reuters21578.log",
    benchmark:
        "benchmarks/data/prepare-reuters21578.tsv"
    params:
        text=DOCAN["text"],
        multi_topic=DOCAN["multi_topic"],
        counting=DOCAN["topic_counting"],
        top=DOCAN["top_topics"],
        stemmer=DOCAN["stemmer"],
        min_length=DOCAN["min_word_length"],
    shell:
        "boostrank reuters-corpus --raw-dir data/raw/reuters21578 --provenance {input.raw}"
        " --npz {output.npz} --meta {output.meta} --text {params.text}"
        " --multi-topic {params.multi_topic} --topic-counting {params.counting}"
        " --top-topics {params.top} --stemmer {params.stemmer}"
        " --min-word-length {params.min_length} 2> {log}"


rule docan_fig4:
    input:
        raw=raw_provenance("reuters21578"),
        claims=config["claims"],
        code=code(*DOCAN_SPEC.FIG4.code),
    output:
        csv="results/docan-fig4.csv",
        figure=reported(multiext("figures/docan-fig4", ".png", ".pdf")),
    log:
        "logs/docan-fig4/topics.log",
    benchmark:
        "benchmarks/docan-fig4/topics.tsv"
    params:
        figure_prefix=output_stem("figure"),
        top=DOCAN["top_topics"],
        counting=DOCAN["topic_counting"],
    shell:
        "boostrank docan-fig4 --raw-dir data/raw/reuters21578 --provenance {input.raw}"
        " --claims {input.claims} --csv {output.csv} --figure-prefix {params.figure_prefix}"
        " --top-topics {params.top} --topic-counting {params.counting} 2> {log}"


rule docan_clustering:
    input:
        npz=DOCAN_CORPUS,
        meta=DOCAN_CORPUS_META,
        code=DOCAN_CODE,
    output:
        "results/docan-fig5.csv",
    log:
        "logs/docan-fig5/clustering.log",
    benchmark:
        "benchmarks/docan-fig5/clustering.tsv"
    threads: 2
    params:
        seed=config["seed"] + DOCAN["seed_offsets"]["clustering"],
        k_max=DOCAN["kmeans"]["k_max"],
        n_init=DOCAN["kmeans"]["n_init"],
        svd_dim=DOCAN["gmm"]["svd_dim"],
        gmm_max=DOCAN["gmm"]["components_max"],
        covariance=DOCAN["gmm"]["covariance"],
    shell:
        "OMP_NUM_THREADS={threads} boostrank docan-clustering --corpus {input.npz}"
        " --meta {input.meta} --csv {output} --seed {params.seed} --k-max {params.k_max}"
        " --n-init {params.n_init} --svd-dim {params.svd_dim} --gmm-max {params.gmm_max}"
        " --covariance {params.covariance} 2> {log}"


rule docan_knn:
    input:
        npz=DOCAN_CORPUS,
        meta=DOCAN_CORPUS_META,
        code=DOCAN_CODE,
    output:
        csv="results/docan-{fig}.csv",
        samples="results/docan-{fig}.samples.csv",
    log:
        "logs/docan-{fig}/knn.log",
    benchmark:
        "benchmarks/docan-{fig}/knn.tsv"
    wildcard_constraints:
        fig="fig6|fig7",
    params:
        metric=lambda w: DOCAN_SPEC.KNN_METRICS[w.fig],
        k_min=DOCAN["knn"]["k_min"],
        k_max=DOCAN["knn"]["k_max"],
        k_step=DOCAN["knn"]["k_step"],
    shell:
        "OMP_NUM_THREADS={threads} boostrank docan-knn --corpus {input.npz} --meta {input.meta}"
        " --csv {output.csv} --metric {params.metric} --k-min {params.k_min}"
        " --k-max {params.k_max} --k-step {params.k_step} --samples {output.samples} 2> {log}"


rule docan_plot:
    input:
        csv="results/docan-{fig}.csv",
        claims=config["claims"],
        code=code(*DOCAN_SPEC.PLOT.code),
    output:
        reported(multiext("figures/docan-{fig}", ".png", ".pdf")),
    log:
        "logs/docan-{fig}/plot.log",
    benchmark:
        "benchmarks/docan-{fig}/plot.tsv"
    wildcard_constraints:
        fig="fig5|fig6|fig7",
    params:
        figure_prefix=output_stem(),
    shell:
        "boostrank docan-plot {wildcards.fig} --csv {input.csv} --claims {input.claims}"
        " --figure-prefix {params.figure_prefix} 2> {log}"


rule docan_forest:
    input:
        npz=DOCAN_CORPUS,
        meta=DOCAN_CORPUS_META,
        code=DOCAN_CODE,
    output:
        csv=f"{DOCAN_FOREST}/r{{replicate}}.csv",
        samples=f"{DOCAN_FOREST}/r{{replicate}}.samples.csv",
    log:
        "logs/docan-table1/forest/r{replicate}.log",
    benchmark:
        "benchmarks/docan-table1/forest/r{replicate}.tsv"
    wildcard_constraints:
        replicate="[1-9][0-9]*",
    threads: 2
    params:
        seed=config["seed"] + DOCAN["seed_offsets"]["random_forest"],
        n_estimators=DOCAN["random_forest"]["n_estimators"],
        max_features=DOCAN["random_forest"]["max_features"],
        min_samples_leaf=DOCAN["random_forest"]["min_samples_leaf"],
    shell:
        "OMP_NUM_THREADS={threads} boostrank docan-forest --corpus {input.npz} --meta {input.meta}"
        " --csv {output.csv} --seed {params.seed} --replicate {wildcards.replicate}"
        " --n-estimators {params.n_estimators} --max-features {params.max_features}"
        " --min-samples-leaf {params.min_samples_leaf}"
        " --n-jobs {threads} --samples {output.samples} 2> {log}"


rule docan_forest_merge:
    input:
        csvs=lambda w: docan_forest_files(".csv"),
        samples=lambda w: docan_forest_files(".samples.csv"),
        code=code(*DOCAN_SPEC.FOREST_MERGE.code),
    output:
        csv="results/docan-table1.csv",
        samples="results/docan-table1.samples.csv",
    log:
        "logs/docan-table1/forest.log",
    benchmark:
        "benchmarks/docan-table1/forest.tsv"
    shell:
        "boostrank docan-forest-merge --replicates {input.csvs}"
        " --replicate-samples {input.samples} --csv {output.csv} --samples {output.samples}"
        " 2> {log}"


rule docan_table1:
    input:
        results="results/docan-table1.csv",
        claims=config["claims"],
        code=code(*DOCAN_SPEC.TABLE1.code),
    output:
        reported(multiext("figures/tables/docan-table1", ".csv", ".md", ".tex")),
    log:
        "logs/docan-table1/table.log",
    benchmark:
        "benchmarks/docan-table1/table.tsv"
    params:
        out_prefix=output_stem(),
    shell:
        "boostrank docan-table1 --results {input.results} --claims {input.claims}"
        " --out-prefix {params.out_prefix} 2> {log}"
