# Preprocess stage: parse each fetched data set (or generate its stand-in) into one cached
# data/processed/<name>.npz with a JSON sidecar of statistics and provenance.


rule prepare:
    input:
        raw=raw_provenance("{dataset}"),
        code=code("data.prepare", "data.formats", "data.synthetic", "data.folds"),
    output:
        npz="data/processed/{dataset}.npz",
        meta=processed_meta("{dataset}"),
    params:
        spec=lambda w: spec_digest(w.dataset),
        seed=config["seed"],
        scale=config["data"]["synthetic_scale"],
    log:
        "logs/prepare/{dataset}.log",
    benchmark:
        "benchmarks/data/prepare-{dataset}.tsv"
    shell:
        "{PY} prepare {wildcards.dataset} --registry {config[registry]}"
        " --raw-dir data/raw/{wildcards.dataset} --npz {output.npz} --meta {output.meta}"
        " --seed {params.seed} --synthetic-scale {params.scale} 2> {log}"
