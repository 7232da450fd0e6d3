# Dissertation chapters 5 and 6 (Valizadegan 2010, sections 5.4 and 6.4): online multi-class
# learning with bandit feedback on the seven classification data sets of Table 1.1.
# One job per (figure family, data set, method), each running all its runs (and, for the gamma
# sweep, the whole gamma grid) vectorised in one learner:
#   thesis-fig5_2 sweep: exp. gradient, Banditron, Banditron_Pos over the gamma grid (10 runs);
#   thesis-fig5_1: the Perceptron (full feedback; the bandit curves come from the sweep);
#   thesis-fig6_2: ag0..ag3 and Banditron_Best/Worst (the sweep's best and worst gamma; 50 runs).
# Figures 5.1, 5.2 and 6.1 are drawn from the sweep ("extracted from Figure 5.2", section 6.1).

from boostrank.experiments.chapter5_6 import spec as CH5_SPEC


rule chapter5_sweep:
    input:
        npz=lambda w: npz_in(w.dataset),
        meta=lambda w: meta_in(w.dataset),
        code=lambda w: code(*CH5_SPEC.code_modules(w.method)),
    output:
        csv=CH5_SPEC.run_file("thesis-fig5_2", "{dataset}", "{method}"),
        finals=CH5_SPEC.run_file("thesis-fig5_2", "{dataset}", "{method}", ".finals.csv"),
    log:
        "logs/thesis-fig5_2/{dataset}/{method}.log",
    benchmark:
        "benchmarks/thesis-fig5_2/{dataset}/{method}.tsv"
    wildcard_constraints:
        dataset="|".join(config["chapter5"]["datasets"]),
        method="|".join(CH5_SPEC.SWEEP_METHODS),
    threads: 1
    params:
        spec=job_spec(CH5_SPEC.run_spec, figure="thesis-fig5_2"),
    shell:
        "boostrank job chapter5_6.run --spec {params.spec:q} 2> {log}"


rule chapter5_perceptron:
    input:
        npz=lambda w: npz_in(w.dataset),
        meta=lambda w: meta_in(w.dataset),
        code=code(*CH5_SPEC.code_modules("perceptron")),
    output:
        csv=CH5_SPEC.run_file("thesis-fig5_1", "{dataset}", "perceptron"),
        finals=CH5_SPEC.run_file("thesis-fig5_1", "{dataset}", "perceptron", ".finals.csv"),
    log:
        "logs/thesis-fig5_1/{dataset}/perceptron.log",
    benchmark:
        "benchmarks/thesis-fig5_1/{dataset}/perceptron.tsv"
    wildcard_constraints:
        dataset="|".join(config["chapter5"]["datasets"]),
    threads: 1
    params:
        spec=job_spec(CH5_SPEC.run_spec, figure="thesis-fig5_1", method="perceptron"),
    shell:
        "boostrank job chapter5_6.run --spec {params.spec:q} 2> {log}"


rule chapter6_adaptive:
    input:
        npz=lambda w: npz_in(w.dataset),
        meta=lambda w: meta_in(w.dataset),
        code=lambda w: code(*CH5_SPEC.code_modules(w.method)),
    output:
        csv=CH5_SPEC.run_file("thesis-fig6_2", "{dataset}", "{method}"),
        finals=CH5_SPEC.run_file("thesis-fig6_2", "{dataset}", "{method}", ".finals.csv"),
    log:
        "logs/thesis-fig6_2/{dataset}/{method}.log",
    benchmark:
        "benchmarks/thesis-fig6_2/{dataset}/{method}.tsv"
    wildcard_constraints:
        dataset="|".join(config["chapter5"]["datasets"]),
        method="|".join(CH5_SPEC.ADAPTIVE),
    threads: 1
    params:
        spec=job_spec(CH5_SPEC.run_spec, figure="thesis-fig6_2"),
    shell:
        "boostrank job chapter5_6.run --spec {params.spec:q} 2> {log}"


rule chapter6_best_worst:
    input:
        npz=lambda w: npz_in(w.dataset),
        meta=lambda w: meta_in(w.dataset),
        sweep=CH5_SPEC.run_file("thesis-fig5_2", "{dataset}", "banditron"),
        code=code(*CH5_SPEC.code_modules("banditron_best_worst")),
    output:
        csv=CH5_SPEC.run_file("thesis-fig6_2", "{dataset}", "banditron_best_worst"),
        finals=CH5_SPEC.run_file(
            "thesis-fig6_2", "{dataset}", "banditron_best_worst", ".finals.csv"
        ),
    log:
        "logs/thesis-fig6_2/{dataset}/banditron_best_worst.log",
    benchmark:
        "benchmarks/thesis-fig6_2/{dataset}/banditron_best_worst.tsv"
    wildcard_constraints:
        dataset="|".join(config["chapter5"]["datasets"]),
    threads: 1
    params:
        spec=job_spec(CH5_SPEC.run_spec, figure="thesis-fig6_2", method="banditron_best_worst"),
    shell:
        "boostrank job chapter5_6.run --spec {params.spec:q} 2> {log}"


rule chapter5_figure:
    input:
        runs=lambda w: CH5_SPEC.figure_runs(config, w.figure),
        finals=lambda w: CH5_SPEC.figure_runs(config, w.figure, ".finals.csv"),
        claims=config["claims"],
        code=code(*CH5_SPEC.FIGURE.code),
    output:
        **spec_outputs(CH5_SPEC.figure_outputs("{figure}")),
    log:
        "logs/{figure}/figure.log",
    benchmark:
        "benchmarks/{figure}/figure.tsv"
    wildcard_constraints:
        figure="|".join(CH5_SPEC.CURVE_FIGURES),
    params:
        spec=job_spec(CH5_SPEC.figure_spec),
    shell:
        "boostrank job chapter5_6.figure --spec {params.spec:q} 2> {log}"


rule chapter5_eta_sweep:
    input:
        npz=lambda w: npz_in(w.dataset),
        meta=lambda w: meta_in(w.dataset),
        code=code(*CH5_SPEC.ETA_SWEEP.code),
    output:
        csv=CH5_SPEC.eta_run_file("{dataset}"),
    log:
        "logs/thesis-supp5_eta/{dataset}.log",
    benchmark:
        "benchmarks/thesis-supp5_eta/{dataset}.tsv"
    wildcard_constraints:
        dataset="|".join(config["chapter5"]["eta_sweep"]["datasets"]),
    threads: 1
    params:
        spec=job_spec(CH5_SPEC.eta_sweep_spec),
    shell:
        "boostrank job chapter5_6.eta_sweep --spec {params.spec:q} 2> {log}"


rule chapter5_eta_figure:
    input:
        runs=CH5_SPEC.eta_runs(config),
        code=code(*CH5_SPEC.ETA_FIGURE.code),
    output:
        **spec_outputs(CH5_SPEC.FIGURES[CH5_SPEC.ETA_SWEEP_FIGURE].outputs),
    log:
        "logs/thesis-supp5_eta/figure.log",
    benchmark:
        "benchmarks/thesis-supp5_eta/figure.tsv"
    params:
        spec=job_spec(CH5_SPEC.eta_figure_spec),
    shell:
        "boostrank job chapter5_6.eta_figure --spec {params.spec:q} 2> {log}"
