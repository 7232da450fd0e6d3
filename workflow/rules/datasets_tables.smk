# Dissertation, section 1.6: Tables 1.1 and 1.2, computed from the data the run used.


rule datasets_table:
    input:
        metas=lambda w: [processed_meta(ds) for ds in CATALOG[w.table].datasets],
        claims=config["claims"],
        code=code(*DATASETS_SPEC.TABLE.code),
    output:
        reported(multiext("figures/tables/{table}", ".csv", ".md", ".tex")),
    log:
        "logs/{table}/table.log",
    benchmark:
        "benchmarks/{table}/table.tsv"
    wildcard_constraints:
        table="thesis-table1_[12]",
    params:
        out_prefix=output_stem(),
    shell:
        "boostrank table {wildcards.table} --meta {input.metas} --claims {input.claims}"
        " --out-prefix {params.out_prefix} 2> {log}"
