# Dissertation chapter 2 (Valizadegan 2010, section 2.4): Figures 2.1-2.3, test error of Tree,
# ASSEMBLE, MCSSB, MCSSB-Uniform and MCSSB-Absolute on the seven classification data sets.
# One job per (figure, data set, method, block of repeats: config repeats_per_job) loops over
# its repeats and that figure's settings (Figure 2.1: the labelled fractions; 2.2: C; 2.3: tree
# depths); Figure 2.2's reference C and Figure 2.3's reference depth are Figure 2.1's 2% runs,
# read from there. One job per figure merges its runs into the results CSVs, the figure and
# its guard table (results/guards/<figure>.csv: the guards' firing counts, boostrank.guards).

from boostrank.experiments.chapter2 import spec as CH2_SPEC


rule chapter2_run:
    input:
        npz=lambda w: npz_in(w.dataset),
        meta=lambda w: meta_in(w.dataset),
        code=lambda w: code(*CH2_SPEC.code_modules(w.method)),
    output:
        csv=CH2_SPEC.run_file("{figure}", "{dataset}", "{method}", "{block}"),
    log:
        "logs/{figure}/run/{dataset}/{method}/repeats{block}.log",
    benchmark:
        "benchmarks/{figure}/run/{dataset}/{method}/repeats{block}.tsv"
    wildcard_constraints:
        figure="thesis-fig2_[123]",
        dataset="|".join(config["chapter2"]["datasets"]),
        method="|".join(CH2_SPEC.BY_KEY),
        block=r"\d+-\d+",
    threads: 1
    params:
        spec=job_spec(CH2_SPEC.run_spec),
    shell:
        "boostrank job chapter2.run --spec {params.spec:q} 2> {log}"


rule chapter2_figure:
    input:
        # reused(): under make readings, a run another variant makes the same way is read there
        runs=lambda w: reused(CH2_SPEC.figure_runs(config, w.figure)),
        code=code(*CH2_SPEC.FIGURE.code),
    output:
        **spec_outputs(CH2_SPEC.figure_outputs("{figure}")),
    log:
        "logs/{figure}/figure.log",
    benchmark:
        "benchmarks/{figure}/figure.tsv"
    wildcard_constraints:
        figure="thesis-fig2_[123]",
    params:
        spec=job_spec(CH2_SPEC.figure_spec),
    shell:
        "boostrank job chapter2.figure --spec {params.spec:q} 2> {log}"
