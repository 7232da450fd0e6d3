# Dissertation chapter 4 (Valizadegan 2010, sections 4.3-4.4), Figures 4.1-4.6: ranking
# refinement by boosting (MRR, LRR) against the base ranker, Rocchio and Ranking-SVM, for
# relevance feedback on the seven LETOR 3.0 data sets and for MovieLens 100K recommendations.
# One job per (data set, method family): baselines (base ranker, Rocchio, Ranking-SVM), lrr
# (100 gammas at once), mrr (both readings of T), mrr_bases (worst and medium base rankers,
# Figure 4.3), mrr_sizes (5/10/15 feedback documents, Figure 4.4); one job per figure draws it.
# On real data each family job runs chapter4.replicates times: the *_replicate jobs write
# replicates 2.. as .npz, and the family's job (replicate 1) averages them into its results.


rule chapter4_base_rankers:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        code=code(*CH4_SPEC.code_modules("base_rankers")),
    output:
        f"{CH4_DIR}/thesis-fig4_3/{{dataset}}/base_rankers.json",
    log:
        "logs/thesis-fig4_3/base_rankers/{dataset}.log",
    benchmark:
        "benchmarks/thesis-fig4_3/base_rankers/{dataset}.tsv"
    wildcard_constraints:
        dataset="|".join(CH4["datasets"]),
    threads: 1
    params:
        k_max=CH4["k_max"],
        formula=CH4["ndcg_formula"] or CH4_FORMULA,
        max_queries=f"--max-queries {CH4['max_queries']}" if CH4["max_queries"] else "",
    shell:
        "single_threaded"
        " boostrank chapter4-base-rankers --dataset {wildcards.dataset} --npz {input.npz}"
        " --meta {input.meta} --k-max {params.k_max} --formula {params.formula}"
        " {params.max_queries} --out {output} 2> {log}"


rule chapter4_feedback:
    input:
        unpack(ch4_feedback_inputs),
        replicates=lambda w: ch4_replicate_files(w.dataset, ch4_stem(w)),
    output:
        csv=f"{CH4_DIR}/{{fig}}/{{dataset}}/{{family}}.csv",
        record=f"{CH4_DIR}/{{fig}}/{{dataset}}/{{family}}.json",
        queries=f"{CH4_DIR}/{{fig}}/{{dataset}}/{{family}}.queries.csv",
    log:
        "logs/{fig}/feedback/{dataset}/{family}.log",
    benchmark:
        "benchmarks/{fig}/feedback/{dataset}/{family}.tsv"
    wildcard_constraints:
        fig="thesis-fig4_[234]",
        dataset="|".join(CH4["datasets"]),
        family="|".join(CH4_SPEC.FAMILIES),
    threads: 1
    params:
        params=lambda w: ch4_params(w.family),
        seed=config["seed"],
    shell:
        f"{CH4_FEEDBACK} --out {{output.csv}} --record {{output.record}} --queries {{output.queries}}"
        " --replicate-files {input.replicates} 2> {log}"


rule chapter4_feedback_replicate:
    input:
        unpack(ch4_feedback_inputs),
    output:
        f"{CH4_DIR}/{{fig}}/{{dataset}}/{{family}}.r{{replicate}}.npz",
    log:
        "logs/{fig}/feedback/{dataset}/{family}.r{replicate}.log",
    benchmark:
        "benchmarks/{fig}/feedback/{dataset}/{family}.r{replicate}.tsv"
    wildcard_constraints:
        fig="thesis-fig4_[234]",
        dataset="|".join(CH4["datasets"]),
        family="|".join(CH4_SPEC.FAMILIES),
        replicate=CH4_LATER_REPLICATE,
    threads: 1
    params:
        params=lambda w: ch4_params(w.family),
        seed=config["seed"],
    shell:
        f"{CH4_FEEDBACK} --replicate {{wildcards.replicate}} --out {{output}} 2> {{log}}"


rule chapter4_objective:
    input:
        npz=ranking_npz("ohsumed"),
        meta=ranking_meta("ohsumed"),
        base=ch4_base_json("ohsumed"),
        code=code(*CH4_SPEC.code_modules("objective")),
    output:
        f"{CH4_DIR}/thesis-fig4_1/ohsumed/objective.csv",
    log:
        "logs/thesis-fig4_1/objective.log",
    benchmark:
        "benchmarks/thesis-fig4_1/objective.tsv"
    threads: 1
    params:
        params=ch4_params("objective"),
        iterations=CH4["objective_iterations"] or CH4["refinement"]["n_iterations"],
        seed=config["seed"],
    shell:
        "single_threaded"
        " boostrank chapter4-objective --dataset ohsumed --npz {input.npz} --meta {input.meta}"
        " --base-rankers {input.base} --params {params.params:q}"
        " --iterations {params.iterations} --seed {params.seed} --out {output} 2> {log}"


rule chapter4_movies:
    input:
        unpack(lambda w: ch4_movie_inputs(w.family)),
        replicates=lambda w: ch4_replicate_files("movielens_100k", ch4_movie_stem(w.family)),
    output:
        csv=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/{{family}}.csv",
        record=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/{{family}}.json",
        queries=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/{{family}}.queries.csv",
    log:
        "logs/thesis-fig4_5/movies/{family}.log",
    benchmark:
        "benchmarks/thesis-fig4_5/movies/{family}.tsv"
    wildcard_constraints:
        family="baselines|lrr|mrr_sizes",
    threads: 1
    params:
        family=lambda w: w.family,
        params=lambda w: ch4_params(w.family, movies=True),
        seed=config["seed"],
    shell:
        f"{CH4_MOVIES} --out {{output.csv}} --record {{output.record}} --queries {{output.queries}}"
        " --replicate-files {input.replicates} 2> {log}"


rule chapter4_movies_mrr:
    input:
        unpack(lambda w: ch4_movie_inputs("mrr")),
        replicates=lambda w: ch4_replicate_files("movielens_100k", ch4_movie_stem("mrr")),
    output:
        csv=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/mrr.csv",
        record=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/mrr.json",
        queries=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/mrr.queries.csv",
        timing=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/timing.csv",
    log:
        "logs/thesis-fig4_5/movies/mrr.log",
    benchmark:
        "benchmarks/thesis-fig4_5/movies/mrr.tsv"
    threads: 1
    params:
        family="mrr",
        params=ch4_params("mrr", movies=True),
        seed=config["seed"],
    shell:
        f"{CH4_MOVIES} --out {{output.csv}} --record {{output.record}} --queries {{output.queries}}"
        " --timing {output.timing} --replicate-files {input.replicates} 2> {log}"


rule chapter4_movies_replicate:
    input:
        unpack(lambda w: ch4_movie_inputs(w.family)),
    output:
        f"{CH4_DIR}/thesis-fig4_5/movielens_100k/{{family}}.r{{replicate}}.npz",
    log:
        "logs/thesis-fig4_5/movies/{family}.r{replicate}.log",
    benchmark:
        "benchmarks/thesis-fig4_5/movies/{family}.r{replicate}.tsv"
    wildcard_constraints:
        family="|".join(CH4_SPEC.MOVIE_FAMILIES),
        replicate=CH4_LATER_REPLICATE,
    threads: 1
    params:
        family=lambda w: w.family,
        params=lambda w: ch4_params(w.family, movies=True),
        seed=config["seed"],
    shell:
        f"{CH4_MOVIES} --replicate {{wildcards.replicate}} --out {{output}} 2> {{log}}"


rule chapter4_figure:
    input:
        results=ch4_figure_inputs,
        claims=config["claims"],
        code=code(*CH4_SPEC.FIGURE_CODE),
    output:
        figure=reported(multiext("figures/{fig}", ".png", ".pdf")),
        csv="results/{fig}.csv",
        summary="results/{fig}_summary.csv",
        samples="results/{fig}_summary.samples.csv",
    log:
        "logs/{fig}/figure.log",
    benchmark:
        "benchmarks/{fig}/figure.tsv"
    wildcard_constraints:
        fig="thesis-fig4_[1-6]",
    params:
        figure_prefix=output_stem("figure"),
        evaluated=CH4["evaluate"],
        bin_width=CH4["movies"]["time_bin_width"],
    shell:
        "boostrank chapter4-figure --figure {wildcards.fig} --inputs {input.results}"
        " --csv {output.csv} --summary {output.summary} --prefix {params.figure_prefix}"
        " --evaluated {params.evaluated} --bin-width {params.bin_width}"
        " --claims {input.claims} --samples {output.samples} 2> {log}"
