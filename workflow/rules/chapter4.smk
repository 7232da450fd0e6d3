# Dissertation chapter 4 (Valizadegan 2010, sections 4.3-4.4), Figures 4.1-4.6: ranking
# refinement by boosting (MRR, LRR) against the base ranker, Rocchio and Ranking-SVM, for
# relevance feedback on the seven LETOR 3.0 data sets and for MovieLens 100K recommendations.
# One job per (data set, method family): baselines (base ranker, Rocchio, Ranking-SVM), lrr
# (100 gammas at once), mrr (both readings of T), mrr_bases (worst and medium base rankers,
# Figure 4.3), mrr_sizes (5/10/15 feedback documents, Figure 4.4); one job per figure draws it.
# On real data each family job runs chapter4.replicates times: the *_replicate jobs write
# replicates 2.. as .npz, and the family's job (replicate 1) averages them into its results.
# A family in chapter4.query_blocks is split by query: the chapter4_feedback_block jobs score
# one block of a replicate's queries each (.npz), side by side; the replicate's job
# reads their scores in place of scoring, and measures.

from boostrank.experiments.chapter4 import spec as CH4_SPEC

CH4 = config["chapter4"]
CH4_DIR = CH4_SPEC.RESULTS


rule chapter4_base_rankers:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        code=code(*CH4_SPEC.BASE_RANKERS.code),
    output:
        json=f"{CH4_DIR}/thesis-fig4_3/{{dataset}}/base_rankers.json",
    log:
        "logs/thesis-fig4_3/base_rankers/{dataset}.log",
    benchmark:
        "benchmarks/thesis-fig4_3/base_rankers/{dataset}.tsv"
    wildcard_constraints:
        dataset="|".join(CH4["datasets"]),
    threads: 1
    params:
        spec=job_spec(CH4_SPEC.base_rankers_spec),
    shell:
        "boostrank job chapter4.base_rankers --spec {params.spec:q} 2> {log}"


rule chapter4_feedback:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        base=lambda w: CH4_SPEC.base_json(w.dataset),
        code=lambda w: code(*CH4_SPEC.code_modules(w.family)),
        replicates=lambda w: CH4_SPEC.replicate_files(
            CH4_SPEC.family_stem(w.fig, w.dataset, w.family),
            data_replicates(CH4["replicates"], w.dataset),
        ),
        blocks=lambda w: CH4_SPEC.block_files(
            CH4_SPEC.family_stem(w.fig, w.dataset, w.family),
            1,
            CH4_SPEC.query_blocks(CH4, w.family),
        ),
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
        spec=job_spec(CH4_SPEC.feedback_spec),
    shell:
        "boostrank job chapter4.feedback --spec {params.spec:q} 2> {log}"


rule chapter4_feedback_replicate:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        base=lambda w: CH4_SPEC.base_json(w.dataset),
        code=lambda w: code(*CH4_SPEC.code_modules(w.family)),
        blocks=lambda w: CH4_SPEC.block_files(
            CH4_SPEC.family_stem(w.fig, w.dataset, w.family),
            int(w.replicate),
            CH4_SPEC.query_blocks(CH4, w.family),
        ),
    output:
        npz=f"{CH4_DIR}/{{fig}}/{{dataset}}/{{family}}.r{{replicate}}.npz",
    log:
        "logs/{fig}/feedback/{dataset}/{family}.r{replicate}.log",
    benchmark:
        "benchmarks/{fig}/feedback/{dataset}/{family}.r{replicate}.tsv"
    wildcard_constraints:
        fig="thesis-fig4_[234]",
        dataset="|".join(CH4["datasets"]),
        family="|".join(CH4_SPEC.FAMILIES),
        replicate=CH4_SPEC.LATER_REPLICATE,
    threads: 1
    params:
        spec=job_spec(CH4_SPEC.feedback_replicate_spec),
    shell:
        "boostrank job chapter4.feedback --spec {params.spec:q} 2> {log}"


rule chapter4_feedback_block:
    input:
        npz=lambda w: ranking_npz(w.dataset),
        meta=lambda w: ranking_meta(w.dataset),
        base=lambda w: CH4_SPEC.base_json(w.dataset),
        code=lambda w: code(*CH4_SPEC.code_modules(w.family)),
    output:
        npz=f"{CH4_DIR}/{{fig}}/{{dataset}}/{{family}}.r{{replicate}}.b{{block}}.npz",
    log:
        "logs/{fig}/feedback/{dataset}/{family}.r{replicate}.b{block}.log",
    benchmark:
        "benchmarks/{fig}/feedback/{dataset}/{family}.r{replicate}.b{block}.tsv"
    wildcard_constraints:
        fig="thesis-fig4_[234]",
        dataset="|".join(CH4["datasets"]),
        family="|".join(CH4_SPEC.BLOCK_FAMILIES),
        replicate=r"[1-9][0-9]*",
        block=r"[1-9][0-9]*",
    threads: 1
    params:
        spec=job_spec(CH4_SPEC.feedback_block_spec),
    shell:
        "boostrank job chapter4.feedback --spec {params.spec:q} 2> {log}"


rule chapter4_objective:
    input:
        npz=ranking_npz("ohsumed"),
        meta=ranking_meta("ohsumed"),
        base=CH4_SPEC.base_json("ohsumed"),
        code=code(*CH4_SPEC.OBJECTIVE.code),
    output:
        csv=CH4_SPEC.OBJECTIVE_CSV,
    log:
        "logs/thesis-fig4_1/objective.log",
    benchmark:
        "benchmarks/thesis-fig4_1/objective.tsv"
    threads: 1
    params:
        spec=job_spec(CH4_SPEC.objective_spec),
    shell:
        "boostrank job chapter4.objective --spec {params.spec:q} 2> {log}"


rule chapter4_movies:
    input:
        npz=CH4_SPEC.MOVIES_NPZ,
        meta=CH4_SPEC.MOVIES_META,
        code=lambda w: code(*CH4_SPEC.code_modules(w.family, movies=True)),
        replicates=lambda w: CH4_SPEC.replicate_files(
            CH4_SPEC.movie_stem(w.family),
            data_replicates(CH4["replicates"], "movielens_100k"),
        ),
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
        spec=job_spec(CH4_SPEC.movies_spec),
    shell:
        "boostrank job chapter4.movies --spec {params.spec:q} 2> {log}"


rule chapter4_movies_mrr:
    input:
        npz=CH4_SPEC.MOVIES_NPZ,
        meta=CH4_SPEC.MOVIES_META,
        code=code(*CH4_SPEC.code_modules("mrr", movies=True)),
        replicates=lambda w: CH4_SPEC.replicate_files(
            CH4_SPEC.movie_stem("mrr"),
            data_replicates(CH4["replicates"], "movielens_100k"),
        ),
    output:
        csv=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/mrr.csv",
        record=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/mrr.json",
        queries=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/mrr.queries.csv",
        timing=CH4_SPEC.TIMING_CSV,
    log:
        "logs/thesis-fig4_5/movies/mrr.log",
    benchmark:
        "benchmarks/thesis-fig4_5/movies/mrr.tsv"
    threads: 1
    params:
        spec=job_spec(CH4_SPEC.movies_spec, family="mrr", timing=True),
    shell:
        "boostrank job chapter4.movies --spec {params.spec:q} 2> {log}"


rule chapter4_movies_replicate:
    input:
        npz=CH4_SPEC.MOVIES_NPZ,
        meta=CH4_SPEC.MOVIES_META,
        code=lambda w: code(*CH4_SPEC.code_modules(w.family, movies=True)),
    output:
        npz=f"{CH4_DIR}/thesis-fig4_5/movielens_100k/{{family}}.r{{replicate}}.npz",
    log:
        "logs/thesis-fig4_5/movies/{family}.r{replicate}.log",
    benchmark:
        "benchmarks/thesis-fig4_5/movies/{family}.r{replicate}.tsv"
    wildcard_constraints:
        family="|".join(CH4_SPEC.MOVIE_FAMILIES),
        replicate=CH4_SPEC.LATER_REPLICATE,
    threads: 1
    params:
        spec=job_spec(CH4_SPEC.movies_replicate_spec),
    shell:
        "boostrank job chapter4.movies --spec {params.spec:q} 2> {log}"


rule chapter4_figure:
    input:
        # Figures 4.2-4.4's summaries also count relevant documents in the LETOR arrays (per
        # query, and among a base ranker's feedback documents: sections 4.4.2-4.4.4)
        results=lambda w: CH4_SPEC.figure_inputs(w.fig, CH4["datasets"])
        + [ranking_npz(ds) for ds in CH4["datasets"] if w.fig in CH4_SPEC.PROTOCOL_FIGURES],
        # the jobs' records: their guards' counts (results/guards/{fig}.csv)
        records=lambda w: CH4_SPEC.record_inputs(w.fig, CH4["datasets"]),
        claims=config["claims"],
        code=code(*CH4_SPEC.FIGURE.code),
    output:
        **spec_outputs(CH4_SPEC.figure_outputs("{fig}")),
    log:
        "logs/{fig}/figure.log",
    benchmark:
        "benchmarks/{fig}/figure.tsv"
    wildcard_constraints:
        fig="thesis-fig4_[1-6]",
    params:
        spec=job_spec(CH4_SPEC.figure_spec),
    shell:
        "boostrank job chapter4.figure --spec {params.spec:q} 2> {log}"
