# Preprocess stage: parse each fetched data set (or generate its stand-in) into one cached
# data/processed/<name>.npz with a JSON sidecar of statistics and provenance.


rule prepare:
    input:
        raw=raw_provenance("{dataset}"),
        code=code("data.prepare", "data.formats", "data.synthetic", "data.folds"),
    output:
        npz="data/processed/{dataset}.npz",
        meta=processed_meta("{dataset}"),
    log:
        "logs/data/prepare-{dataset}.log",
    benchmark:
        "benchmarks/data/prepare-{dataset}.tsv"
    wildcard_constraints:
        # registry names only: data/processed/ohsumed_rebuilt.* comes from letor_rebuild
        dataset="|".join(REGISTRY),
    params:
        spec=lambda w: spec_digest(w.dataset),
        registry=config["registry"],
        seed=config["seed"],
        scale=config["data"]["synthetic_scale"],
    shell:
        "boostrank prepare {wildcards.dataset} --registry {params.registry}"
        " --raw-dir data/raw/{wildcards.dataset} --npz {output.npz} --meta {output.meta}"
        " --seed {params.seed} --synthetic-scale {params.scale} 2> {log}"


# LETOR 3.0 OHSUMED's 45 features recomputed from the raw statistics in Meta/ (Qin et al. 2010),
# checked against the distributed Feature-min and QueryLevelNorm (Table 1.3), and written in the
# layout of data/processed/ohsumed.npz (same rows and order) for config letor.ohsumed_features.
rule letor_rebuild:
    input:
        raw=raw_provenance("ohsumed"),
        npz="data/processed/ohsumed.npz",
        meta=processed_meta("ohsumed"),
        code=code(*DATASETS_SPEC.TABLE1_3.code),
    output:
        npz="data/processed/ohsumed_rebuilt.npz",
        meta=processed_meta("ohsumed_rebuilt"),
        table=reported(multiext("figures/tables/thesis-table1_3", ".csv", ".md", ".tex")),
        summary="results/thesis-table1_3_summary.csv",
    log:
        "logs/thesis-table1_3/rebuild.log",
    benchmark:
        "benchmarks/thesis-table1_3/rebuild.tsv"
    params:
        spec=job_spec(DATASETS_SPEC.table1_3_spec),
    shell:
        "boostrank job datasets.table1_3 --spec {params.spec:q} 2> {log}"
