# Preprocess stage: parse each fetched data set (or generate its stand-in) into one cached
# data/processed/<name>.npz with a JSON sidecar of statistics and provenance. The prepare step
# checks each raw file's sha256 against its provenance before parsing it, as every job that
# parses raw files does; each takes changed_since_fetch as a params entry, so an edit reruns it.

from boostrank.data.provenance import changed_since_fetch
from boostrank.experiments.datasets import spec as DATASETS_SPEC


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
        # "" unless a raw file looks changed since its fetch (its times, not its hash): an
        # edit reruns the job, which then stops naming the file.
        cached=lambda w: changed_since_fetch(f"data/raw/{w.dataset}"),
        registry=config["registry"],
        seed=config["seed"],
        scale=config["data"]["synthetic_scale"],
    shell:
        "boostrank prepare {wildcards.dataset:q} --registry {params.registry:q}"
        " --raw-dir data/raw/{wildcards.dataset:q} --npz {output.npz} --meta {output.meta}"
        " --seed {params.seed} --synthetic-scale {params.scale} 2> {log}"


# LETOR 3.0 OHSUMED's 45 features recomputed from the raw statistics in Meta/ (Qin et al. 2010),
# checked against the distributed Feature-min and QueryLevelNorm (thesis-table_letor3_features),
# and written in the layout of data/processed/ohsumed.npz (same rows and order) for config
# letor.ohsumed_features.
rule letor_rebuild:
    input:
        raw=raw_provenance("ohsumed"),
        npz=npz_in("ohsumed"),
        meta=meta_in("ohsumed"),
        code=code(*DATASETS_SPEC.LETOR3_FEATURES.code),
    output:
        **spec_outputs(DATASETS_SPEC.FIGURES[DATASETS_SPEC.LETOR3_TABLE].outputs),
        npz="data/processed/ohsumed_rebuilt.npz",
        meta=processed_meta("ohsumed_rebuilt"),
    log:
        "logs/thesis-table_letor3_features/rebuild.log",
    benchmark:
        "benchmarks/thesis-table_letor3_features/rebuild.tsv"
    params:
        spec=job_spec(DATASETS_SPEC.letor3_features_spec),
        cached=lambda w: changed_since_fetch("data/raw/ohsumed"),
    shell:
        "boostrank job datasets.letor3_features --spec {params.spec:q} 2> {log}"
