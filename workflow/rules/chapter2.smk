# Dissertation chapter 2 (Valizadegan 2010, section 2.4): Figures 2.1-2.3, test error of Tree,
# ASSEMBLE, MCSSB, MCSSB-Uniform and MCSSB-Absolute on the seven classification data sets.
# One job per (figure, data set, method) loops over the repeats and that figure's settings
# (Figure 2.1: the labelled fractions; 2.2: C; 2.3: tree depths); Figure 2.2's reference C and
# Figure 2.3's reference depth are Figure 2.1's 2% runs, read from there. One job per figure
# merges its runs into the results CSVs and the figure.
import json

from boostrank.experiments.chapter2 import spec as CH2_SPEC

CH2 = config["chapter2"]
CH2_REF = CH2["reference"]
CH2_RUNS = "results/chapter2"
CH2_FIGURES = CH2_SPEC.FIGURE_METHODS


def ch2_settings(figure):
    """(fractions, C values, depths) a figure's run jobs cover (the reference cell of Figures
    2.2 and 2.3 comes from Figure 2.1)."""
    ref_f, ref_c, ref_d = CH2_REF["fraction"], float(CH2_REF["C"]), str(CH2_REF["depth"])
    if figure == "thesis-fig2_1":
        return CH2["fractions"], [ref_c], [ref_d]
    if figure == "thesis-fig2_2":
        return [ref_f], [float(c) for c in CH2["C_grid"] if float(c) != ref_c], [ref_d]
    return [ref_f], [ref_c], [str(d) for d in CH2["depth_grid"] if str(d) != ref_d]


def ch2_run(figure, dataset, method):
    return f"{CH2_RUNS}/{figure}/{dataset}/{method}.csv"


def ch2_figure_runs(figure):
    """The run CSVs a figure reads: its own and, for 2.2/2.3, Figure 2.1's reference runs."""
    runs = [ch2_run(figure, d, m) for d in CH2["datasets"] for m in CH2_FIGURES[figure]]
    if figure == "thesis-fig2_2":
        runs += [ch2_run("thesis-fig2_1", d, m) for d in CH2["datasets"] for m in ("mcssb", "tree")]
    elif figure == "thesis-fig2_3":
        runs += [
            ch2_run("thesis-fig2_1", d, m) for d in CH2["datasets"] for m in CH2_FIGURES[figure]
        ]
    return runs


def ch2_params(wildcards):
    """The method's constructor arguments as JSON: editing them reruns only its jobs."""
    return json.dumps(CH2["methods"][wildcards.method], sort_keys=True)


def ch2_grid(wildcards):
    fractions, cs, depths = ch2_settings(wildcards.figure)
    return {
        "fractions": " ".join(f"{f:g}" for f in fractions),
        "C": " ".join(f"{c:g}" for c in cs),
        "depths": " ".join(depths),
    }


rule chapter2_run:
    input:
        npz="data/processed/{dataset}.npz",
        meta=lambda w: processed_meta(w.dataset),
        code=lambda w: code(*CH2_SPEC.code_modules(w.method)),
    output:
        f"{CH2_RUNS}/{{figure}}/{{dataset}}/{{method}}.csv",
    log:
        "logs/{figure}/{dataset}/{method}.log",
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
        figure=reported(multiext("figures/{figure}", ".png", ".pdf")),
    log:
        "logs/{figure}/figure.log",
    benchmark:
        "benchmarks/{figure}/figure.tsv"
    wildcard_constraints:
        figure="thesis-fig2_[123]",
    params:
        options=json.dumps(
            {"fraction": CH2_REF["fraction"], "C": CH2_REF["C"], "depth": str(CH2_REF["depth"])}
        ),
    shell:
        "boostrank chapter2-figure --figure {wildcards.figure} --runs {input.runs}"
        " --csv {output.csv} --summary {output.summary}"
        " --figure-prefix figures/{wildcards.figure} --options {params.options:q} 2> {log}"
