# Crammer & Singer (2005), "Online Ranking by Projecting", section 6: Figure 6 (the paper's
# synthetic data, degree-2 polynomial kernel) and Figure 7 (MovieLens 100K substituting for
# EachMovie). One job per figure: every sequence of a figure runs at once (arrays over runs),
# then its curves, summary statistics and figure are written.

from boostrank.experiments.prank import spec as PR_SPEC


rule prank_fig6:
    input:
        code=code(*PR_SPEC.FIG6_JOB.code),
    output:
        **spec_outputs(PR_SPEC.FIGURES[PR_SPEC.FIG6].outputs),
    log:
        "logs/prank-fig6/run.log",
    benchmark:
        "benchmarks/prank-fig6/run.tsv"
    threads: 1
    params:
        spec=job_spec(PR_SPEC.fig6_spec),
    shell:
        "boostrank job prank.fig6 --spec {params.spec:q} 2> {log}"


rule prank_fig7:
    input:
        npz=npz_in("movielens_100k"),
        meta=meta_in("movielens_100k"),
        code=code(*PR_SPEC.FIG7_JOB.code),
    output:
        **spec_outputs(PR_SPEC.FIGURES[PR_SPEC.FIG7].outputs),
    log:
        "logs/prank-fig7/run.log",
    benchmark:
        "benchmarks/prank-fig7/run.tsv"
    threads: 1
    params:
        spec=job_spec(PR_SPEC.fig7_spec),
    shell:
        "boostrank job prank.fig7 --spec {params.spec:q} 2> {log}"
