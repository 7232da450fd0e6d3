# Dissertation chapter 2 (Valizadegan 2010, section 2.4): Figures 2.1-2.3, test error of Tree,
# ASSEMBLE, MCSSB, MCSSB-Uniform and MCSSB-Absolute on the seven classification data sets.
# One job per (figure, data set, method) loops over the repeats and that figure's settings
# (Figure 2.1: the labelled fractions; 2.2: C; 2.3: tree depths); Figure 2.2's reference C and
# Figure 2.3's reference depth are Figure 2.1's 2% runs, read from there. One job per figure
# merges its runs into the results CSVs and the figure.


rule chapter2_run:
    input:
        npz="data/processed/{dataset}.npz",
        meta=lambda w: processed_meta(w.dataset),
        code=lambda w: code(*CH2_SPEC.code_modules(w.method)),
    output:
        f"{CH2_RUNS}/{{figure}}/{{dataset}}/{{method}}.csv",
    log:
        "logs/{figure}/run/{dataset}/{method}.log",
    benchmark:
        "benchmarks/{figure}/run/{dataset}/{method}.tsv"
    wildcard_constraints:
        figure="thesis-fig2_[123]",
        dataset="|".join(CH2["datasets"]),
        method="|".join(CH2_SPEC.BY_KEY),
    threads: 1
    params:
        grid=ch2_grid,
        params=ch2_params,
        repeats=CH2["repeats"],
        parts=CH2["parts"],
        rows=lambda w: (CH2.get("rows") or {}).get(w.dataset) or 0,
        labelled_sample=CH2["labelled_sample"],
        seed=config["seed"],
    shell:
        "single_threaded"
        " boostrank chapter2-run --figure {wildcards.figure} --dataset {wildcards.dataset}"
        " --method {wildcards.method} --npz {input.npz} --meta {input.meta}"
        " --fractions {params.grid[fractions]} --C {params.grid[C]}"
        " --depths {params.grid[depths]} --repeats {params.repeats} --parts {params.parts}"
        " --rows {params.rows} --params {params.params:q} --seed {params.seed}"
        " --labelled-sample {params.labelled_sample} --out {output} 2> {log}"


rule chapter2_figure:
    input:
        runs=lambda w: ch2_figure_runs(w.figure),
        code=code(*CH2_SPEC.FIGURE.code),
    output:
        csv="results/{figure}.csv",
        summary="results/{figure}_summary.csv",
        samples="results/{figure}_summary.samples.csv",
        figure=reported(multiext("figures/{figure}", ".png", ".pdf")),
    log:
        "logs/{figure}/figure.log",
    benchmark:
        "benchmarks/{figure}/figure.tsv"
    wildcard_constraints:
        figure="thesis-fig2_[123]",
    params:
        figure_prefix=output_stem("figure"),
        options=json.dumps(
            {"fraction": CH2_REF["fraction"], "C": CH2_REF["C"], "depth": str(CH2_REF["depth"])}
        ),
        seed=config["seed"],
    shell:
        "boostrank chapter2-figure --figure {wildcards.figure} --runs {input.runs}"
        " --csv {output.csv} --summary {output.summary}"
        " --figure-prefix {params.figure_prefix} --options {params.options:q}"
        " --seed {params.seed} 2> {log}"
