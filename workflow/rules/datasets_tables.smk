# Dissertation, section 1.6: Tables 1.1 and 1.2, computed from the data the run used.

from boostrank.experiments.datasets import spec as DATASETS_SPEC


rule datasets_table:
    input:
        metas=lambda w: [meta_in(ds) for ds in CATALOG[w.table].datasets],
        claims=config["claims"],
        code=code(*DATASETS_SPEC.TABLE.code),
    output:
        **spec_outputs(DATASETS_SPEC.table_outputs("{table}")),
    log:
        "logs/{table}/table.log",
    benchmark:
        "benchmarks/{table}/table.tsv"
    wildcard_constraints:
        table="thesis-table1_[12]",
    params:
        spec=job_spec(DATASETS_SPEC.table_spec),
    shell:
        "boostrank job datasets.table --spec {params.spec:q} 2> {log}"
