# Zhang, Jung & Tewari (2019), "Online Boosting for Multilabel Ranking with Top-k Feedback":
# Table 1 (topk-table1: TopOpt/TopAda with top-k feedback, FullOpt/FullAda with full
# information, five MULAN data sets) and Figure 2 (topk-fig2: TopkBBM learning curves on Yeast
# for several k). One job per data set writes its train/test split; one job per
# (data set, algorithm, k, seed) trains a booster and writes a JSON record; one job each merges
# them into the table and the figure. Figure 2 reuses Table 1's TopOpt runs for Table 1's k.

from boostrank.experiments.topk import spec as TOPK_SPEC


rule topk_split:
    input:
        npz=lambda w: npz_in(TOPK_SPEC.source_dataset(w.dataset)),
        meta=lambda w: meta_in(TOPK_SPEC.source_dataset(w.dataset)),
        raw=lambda w: raw_provenance(TOPK_SPEC.source_dataset(w.dataset)),
        base=lambda w: TOPK_SPEC.base_split(w.dataset),
        code=code(*TOPK_SPEC.SPLIT.code),
    output:
        npz=TOPK_SPEC.split_file("{dataset}", ".npz"),
        record=TOPK_SPEC.split_file("{dataset}", ".json"),
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
        npz=lambda w: npz_in(TOPK_SPEC.source_dataset(w.dataset)),
        meta=lambda w: meta_in(TOPK_SPEC.source_dataset(w.dataset)),
        split=TOPK_SPEC.split_file("{dataset}", ".npz"),
        code=code(*TOPK_SPEC.TRAIN.code),
    output:
        record=TOPK_SPEC.run_record("{dataset}", "{algorithm}", "{k}", "{seed}"),
    log:
        "logs/topk-table1/train/{dataset}/{algorithm}/k{k}/seed{seed}.log",
    benchmark:
        "benchmarks/topk-table1/train/{dataset}/{algorithm}/k{k}/seed{seed}.tsv"
    wildcard_constraints:
        dataset="emotions|scene|yeast|mediamill|m_reduced",
        algorithm="|".join(TOPK_SPEC.BY_KEY),
        k=f"full|{config['topk']['k']}",
        seed=r"\d+",
    threads: 1
    params:
        spec=job_spec(TOPK_SPEC.train_spec),
    shell:
        "boostrank job topk.train --spec {params.spec:q} 2> {log}"


rule topk_train_fig2:
    input:
        npz=lambda w: npz_in(TOPK_SPEC.source_dataset(w.dataset)),
        meta=lambda w: meta_in(TOPK_SPEC.source_dataset(w.dataset)),
        split=TOPK_SPEC.split_file("{dataset}", ".npz"),
        code=code(*TOPK_SPEC.TRAIN.code),
    output:
        record=TOPK_SPEC.run_record("{dataset}", "{algorithm}", "{k}", "{seed}"),
    log:
        "logs/topk-fig2/train/{dataset}/{algorithm}/k{k}/seed{seed}.log",
    benchmark:
        "benchmarks/topk-fig2/train/{dataset}/{algorithm}/k{k}/seed{seed}.tsv"
    wildcard_constraints:
        dataset=config["topk"]["fig2"]["dataset"],
        algorithm="topopt",
        k="|".join(str(k) for k in TOPK_SPEC.figure2_extra_k(config)) or "none",
        seed=r"\d+",
    threads: 1
    params:
        spec=job_spec(TOPK_SPEC.train_spec),
    shell:
        "boostrank job topk.train --spec {params.spec:q} 2> {log}"


rule topk_table1:
    input:
        # reused(): under make readings, a run another variant makes the same way is read there
        runs=lambda w: reused(TOPK_SPEC.table1_runs(config)),
        splits=TOPK_SPEC.table1_splits(config),
        claims=config["claims"],
        code=code(*TOPK_SPEC.TABLE1.code),
    output:
        **spec_outputs(TOPK_SPEC.FIGURES[TOPK_SPEC.TABLE_ID].outputs),
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
        runs=lambda w: reused(TOPK_SPEC.figure2_runs(config)),
        code=code(*TOPK_SPEC.FIGURE2.code),
    output:
        **spec_outputs(TOPK_SPEC.FIGURES[TOPK_SPEC.FIGURE_ID].outputs),
    log:
        "logs/topk-fig2/figure.log",
    benchmark:
        "benchmarks/topk-fig2/figure.tsv"
    params:
        spec=job_spec(TOPK_SPEC.figure2_spec),
    shell:
        "boostrank job topk.fig2 --spec {params.spec:q} 2> {log}"
