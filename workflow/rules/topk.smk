# Zhang, Jung & Tewari (2019), "Online Boosting for Multilabel Ranking with Top-k Feedback":
# Table 1 (topk-table1: TopOpt/TopAda with top-k feedback, FullOpt/FullAda with full
# information, five MULAN data sets) and Figure 2 (topk-fig2: TopkBBM learning curves on Yeast
# for several k). One job per data set writes its train/test split; one job per
# (data set, algorithm, k, seed) trains a booster and writes a JSON record; one job each merges
# them into the table and the figure. Figure 2 reuses Table 1's TopOpt runs for Table 1's k.


rule topk_split:
    input:
        unpack(topk_split_inputs),
        code=code(*TOPK_SPEC.SPLIT.code),
    output:
        npz=f"{TOPK_DIR}/splits/{{dataset}}.npz",
        record=f"{TOPK_DIR}/splits/{{dataset}}.json",
    log:
        "logs/topk-table1/split/{dataset}.log",
    benchmark:
        "benchmarks/topk-table1/split/{dataset}.tsv"
    wildcard_constraints:
        dataset="emotions|scene|yeast|mediamill|m_reduced",
    params:
        spec=job_spec(TOPK_SPEC.split_spec),
    shell:
        "boostrank job topk.split --spec {params.spec:q} 2> {log}"


rule topk_train:
    input:
        npz=lambda w: f"data/processed/{topk_source(w.dataset)}.npz",
        meta=lambda w: processed_meta(topk_source(w.dataset)),
        split=f"{TOPK_DIR}/splits/{{dataset}}.npz",
        code=TOPK_TRAIN_CODE,
    output:
        record=f"{TOPK_DIR}/runs/{{dataset}}/{{algorithm}}/k{{k}}/seed{{seed}}.json",
    log:
        "logs/topk-table1/train/{dataset}/{algorithm}/k{k}/seed{seed}.log",
    benchmark:
        "benchmarks/topk-table1/train/{dataset}/{algorithm}/k{k}/seed{seed}.tsv"
    wildcard_constraints:
        dataset="emotions|scene|yeast|mediamill|m_reduced",
        algorithm="|".join(TOPK_ALGORITHMS),
        k=f"full|{TOPK['k']}",
        seed=r"\d+",
    threads: 1
    params:
        spec=job_spec(TOPK_SPEC.train_spec),
    shell:
        "single_threaded boostrank job topk.train --spec {params.spec:q} 2> {log}"


rule topk_train_fig2:
    input:
        npz=lambda w: f"data/processed/{topk_source(w.dataset)}.npz",
        meta=lambda w: processed_meta(topk_source(w.dataset)),
        split=f"{TOPK_DIR}/splits/{{dataset}}.npz",
        code=TOPK_TRAIN_CODE,
    output:
        record=f"{TOPK_DIR}/runs/{{dataset}}/{{algorithm}}/k{{k}}/seed{{seed}}.json",
    log:
        "logs/topk-fig2/train/{dataset}/{algorithm}/k{k}/seed{seed}.log",
    benchmark:
        "benchmarks/topk-fig2/train/{dataset}/{algorithm}/k{k}/seed{seed}.tsv"
    wildcard_constraints:
        dataset=TOPK["fig2"]["dataset"],
        algorithm="topopt",
        k="|".join(str(k) for k in TOPK_FIG2_EXTRA_K) or "none",
        seed=r"\d+",
    threads: 1
    params:
        spec=job_spec(TOPK_SPEC.train_spec),
    shell:
        "single_threaded boostrank job topk.train --spec {params.spec:q} 2> {log}"


rule topk_table1:
    input:
        runs=topk_table_runs(),
        splits=expand(f"{TOPK_DIR}/splits/{{dataset}}.json", dataset=TOPK["datasets"]),
        claims=config["claims"],
        code=code(*TOPK_SPEC.TABLE1.code),
    output:
        csv="results/topk-table1.csv",
        samples="results/topk-table1.samples.csv",
        summary="results/topk-table1_summary.csv",
        table=reported(multiext("figures/tables/topk-table1", ".csv", ".md", ".tex")),
    log:
        "logs/topk-table1/table.log",
    benchmark:
        "benchmarks/topk-table1/table.tsv"
    params:
        spec=job_spec(TOPK_SPEC.table1_spec),
    shell:
        "boostrank job topk.table1 --spec {params.spec:q} 2> {log}"


rule topk_fig2:
    input:
        runs=topk_fig2_runs(),
        code=code(*TOPK_SPEC.FIGURE2.code),
    output:
        csv="results/topk-fig2.csv",
        summary="results/topk-fig2_summary.csv",
        figure=reported(multiext("figures/topk-fig2", ".png", ".pdf")),
    log:
        "logs/topk-fig2/figure.log",
    benchmark:
        "benchmarks/topk-fig2/figure.tsv"
    params:
        spec=job_spec(TOPK_SPEC.figure2_spec),
    shell:
        "boostrank job topk.fig2 --spec {params.spec:q} 2> {log}"
