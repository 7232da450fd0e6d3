"""Chapter 4 experiments end to end on tiny data: base-ranker choice, every method family,
Figure 4.1's objective, the MovieLens jobs and the six figures with their summaries."""

import json

import numpy as np
import pandas as pd
import pytest

from boostrank.data.prepare import load_letor
from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4 import figure as fig
from boostrank.experiments.chapter4 import jobs as ch4
from boostrank.experiments.chapter4 import jobs_base as ch4b
from boostrank.experiments.chapter4 import jobs_feedback as ch4f
from boostrank.experiments.chapter4 import jobs_movies as ch4m
from boostrank.experiments.chapter4 import jobs_objective as ch4o
from boostrank.experiments.chapter4 import make, spec

PARAMS = {
    "k_max": 8,
    "ndcg_formula": "letor",
    "feedback": 6,
    "feedback_sizes": [3, 6],
    "max_queries": None,
    "refinement": {"n_iterations": 4, "eta": 0.5, "lam": None, "lam_top": 10, "t_scope": "all"},
    "mrr": {
        "weak_learner": "sampled_stump",
        "sample_min": 20,
        "sample_fraction": 0.2,
        "n_thresholds": 4,
    },
    "mrr_alternative_t_scope": "judged",
    "mrr_alternative_weak_learner": "thresholds",
    "lrr": {"gamma_min": 0.1, "gamma_max": 10.0, "n_gammas": 3, "n_thresholds": 4},
    "rocchio": {"alphas": [1, 2], "betas": [1, 3]},
    "ranksvm": {"C": None, "max_iter": 200},
    "movies": {
        "train_users": 5,
        "feedback": 4,
        "feedback_sizes": [2, 4],
        "k_max": 5,
        "pd_sigma": 1.0,
        "pd_score": "expected",
        "grade_offset": 0,
        "relevant_rating": 4,
        "max_test_users": None,
    },
}


def _paths(*paths):
    return [None if p is None else str(p) for p in paths]


def base_rankers(npz, meta, out):
    """The base-ranker job of the toy data set (k_max 8, the LETOR formula)."""
    npz, meta, out = _paths(npz, meta, out)
    return ch4b.select_base_rankers(
        spec.BaseRankersSpec("ohsumed", npz, meta, 8, "letor", None, out)
    )


def feedback(family, npz, meta, base, params, seed, out, record, queries=None, *,
             replicate=1, replicate_files=(), block=None, blocks=1, block_files=()):  # fmt: skip
    """A feedback job of the toy data set through its spec."""
    npz, meta, base, out, record, queries = _paths(npz, meta, base, out, record, queries)
    return ch4f.feedback_job(
        spec.FeedbackSpec(
            "ohsumed",
            family,
            npz,
            meta,
            base,
            params,
            seed,
            replicate,
            _paths(*replicate_files),
            out,
            record,
            queries,
            block,
            blocks,
            _paths(*block_files),
        )
    )


def movies_job(family, npz, meta, params, seed, out, record, timing=None, queries=None):
    """Replicate 1 of a MovieLens job through its spec."""
    npz, meta, out, record, timing, queries = _paths(npz, meta, out, record, timing, queries)
    return ch4m.movies_job(
        spec.MoviesSpec(family, npz, meta, params, seed, 1, (), out, record, timing, queries)
    )


def make_figure(figure, inputs, csv, summary, prefix, bin_width=50, samples=None):
    """A figure job (the whole list drawn); ``samples`` defaults to beside the summary."""
    samples = samples or f"{summary}.samples.csv"
    csv, summary, prefix, samples = _paths(csv, summary, prefix, samples)
    return make.make_figure(
        spec.FigureSpec(
            figure,
            _paths(*inputs),
            csv,
            summary,
            samples,
            prefix,
            "all",
            bin_width,
            "config/claims.yaml",
            no_change_se=1.0,
        )
    )


def _meta(path, name, kind):
    line = f"{kind}: test data"
    path.write_text(
        json.dumps({"dataset": name, "provenance": {"kind": kind}, "provenance_line": line})
    )
    return path


@pytest.fixture(scope="module")
def letor(tmp_path_factory):
    d = tmp_path_factory.mktemp("ch4")
    rng = np.random.default_rng(0)
    n_q, n_d, n_f = 4, 25, 5
    qid = np.repeat(np.arange(1, n_q + 1), n_d)
    X = rng.random((n_q * n_d, n_f)).astype(np.float32)
    X[:, 4] = 0.5  # constant: not a candidate base ranker
    y = ((X[:, 1] + 0.3 * rng.random(len(qid))) > 0.9).astype(np.int8) + (X[:, 1] > 0.95)
    np.savez(
        d / "toy.npz",
        X=X,
        y=y,
        qid=qid.astype(np.int32),
        part=np.zeros(len(qid), np.int8),
        docid=np.array([f"d{i}" for i in range(len(qid))]),
    )
    return d, d / "toy.npz", _meta(d / "toy.json", "ohsumed", "real")


def test_base_ranker_choice_and_family_params(letor):
    d, npz, meta = letor
    rec = base_rankers(npz, meta, d / "base.json")
    assert rec["candidates"] == 4 and "5" in rec["scores"]
    assert rec["best"] == 2  # feature 2 (index 1) defines the grades
    scores = {int(k): v for k, v in rec["scores"].items() if int(k) != 5}
    assert scores[rec["best"]] == max(scores.values()) and scores[rec["worst"]] == min(
        scores.values()
    )
    section = {**PARAMS, "ndcg_formula": "report", "movies": PARAMS["movies"]}
    p = spec.family_params(section, "baselines")
    assert set(p) == {"k_max", "feedback", "max_queries", "rocchio", "ranksvm", "ndcg_formula"}
    assert p["ndcg_formula"] == "report"


def test_every_family_has_a_runner():
    assert tuple(ch4f.FEEDBACK_RUNNERS) == spec.FAMILIES
    assert tuple(ch4m.MOVIE_RUNNERS) == spec.MOVIE_FAMILIES


@pytest.fixture(scope="module")
def families(letor):
    d, npz, meta = letor
    base = d / "base.json"
    if not base.exists():
        base_rankers(npz, meta, base)
    out = {}
    for fam in spec.FAMILIES:
        out[fam] = feedback(
            fam, npz, meta, base, PARAMS, 7, d / f"{fam}.csv", d / f"{fam}.json",
            d / f"{fam}.queries.csv",
        )  # fmt: skip
    ch4o.objective_job(
        spec.ObjectiveSpec(
            "ohsumed", *_paths(npz, meta, base), PARAMS, 6, 7, str(d / "objective.csv")
        )
    )
    return out


def test_families_write_tidy_rows(families, letor):
    d = letor[0]
    base = families["baselines"]
    assert set(base["algorithm"]) == {"Base ranker", "Rocchio", "Ranking-SVM"}
    assert set(base["evaluated"]) == {"all", "residual"} and base["k"].max() == 8
    assert (base["data_kind"] == "real").all() and base["ndcg"].between(0, 1).all()
    lrr = families["lrr"]
    assert {"LRR", "LRR-Best", "LRR-Worst"} <= set(lrr["algorithm"])
    means = (
        lrr[(lrr["algorithm"] == "LRR") & (lrr["evaluated"] == "all")]
        .groupby("variant")["ndcg"]
        .mean()
    )
    best = lrr[(lrr["algorithm"] == "LRR-Best") & (lrr["evaluated"] == "all")]["ndcg"].mean()
    assert best == pytest.approx(means.max())
    assert set(families["mrr"]["algorithm"]) == {
        "MRR",
        "MRR (T on judged pairs)",
        "MRR [weak learner: thresholds]",
    }
    assert set(families["mrr_bases"]["variant"]) == {"worst", "medium"}
    assert set(families["mrr_sizes"]["feedback"]) == {3}  # 6 is the main run's
    again = feedback(
        "mrr",
        letor[1],
        letor[2],
        d / "base.json",
        PARAMS,
        7,
        d / "again.csv",
        d / "again.json",
    )
    assert again.equals(families["mrr"])  # seeded: same numbers


def test_base_ranker_curve_is_the_feature_ranking(letor, families):
    d, npz, _meta = letor
    from boostrank.metrics.ranking import ndcg_curve

    data = load_letor(npz)
    best = json.loads((d / "base.json").read_text())["best"]
    want = ndcg_curve(data["y"], data["X"][:, best - 1], data["qid"], 8).mean(axis=0)
    got = families["baselines"].query("algorithm == 'Base ranker' and evaluated == 'all'")
    assert np.allclose(got["ndcg"].to_numpy(), want, atol=1e-6)
    # The band the figures shade: mean +- 1.96 sd / sqrt(queries) of each query's NDCG@k.
    each = ndcg_curve(data["y"], data["X"][:, best - 1], data["qid"], 8)
    half = 1.959964 * each.std(axis=0, ddof=1) / np.sqrt(len(each))
    assert np.allclose(got["ci_low"], np.clip(want - half, 0, 1), atol=1e-6)
    assert np.allclose(got["ci_high"], np.clip(want + half, 0, 1), atol=1e-6)
    assert (got["ci_low"] <= got["ndcg"]).all() and (got["ndcg"] <= got["ci_high"]).all()


def test_letor_figures(letor, families, tmp_path):
    d = letor[0]
    inputs = {
        "thesis-fig4_1": [d / "objective.csv"],
        "thesis-fig4_2": [d / f"{f}.csv" for f in ("baselines", "lrr", "mrr")],
        "thesis-fig4_3": [d / f"{f}.csv" for f in ("baselines", "mrr", "mrr_bases")]
        + [d / "base.json"],
        "thesis-fig4_4": [d / f"{f}.csv" for f in ("baselines", "mrr", "mrr_sizes")],
    }
    for name, files in inputs.items():
        stats = make_figure(
            name, files, tmp_path / f"{name}.csv", tmp_path / f"{name}_s.csv", tmp_path / name
        )
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
        assert {"data_kind", "provenance"} <= set(pd.read_csv(tmp_path / f"{name}.csv").columns)
        assert {"statistic", "dataset", "value", "data_kind", "provenance"} <= set(stats.columns)
    s1 = pd.read_csv(tmp_path / "thesis-fig4_1_s.csv").set_index("statistic")["value"]
    assert s1["lp_rises_fraction"] == 0 and s1["theorem9_holds_fraction"] == 1
    assert s1["lp_rises_fraction_thresholds"] == 0  # Theorem 9 holds for any weak learner
    objective = pd.read_csv(tmp_path / "thesis-fig4_1.csv")
    assert set(zip(objective["t_scope"], objective["weak_learner"], strict=True)) == {
        ("all", "sampled_stump"),
        ("judged", "sampled_stump"),
        ("all", "thresholds"),
    }
    s2 = pd.read_csv(tmp_path / "thesis-fig4_2_s.csv")
    assert "mrr_beats_base_fraction" in set(s2["statistic"])
    # every statistic under both protocols (claims check both); the whole list is drawn
    per_mode = s2.groupby("evaluated")["statistic"].apply(set)
    assert set(per_mode.index) == {"all", "residual"} and per_mode["all"] == per_mode["residual"]
    assert {"weak_mrr_minus_lrr_best", "mrr_minus_weak_mrr"} <= per_mode["all"]
    assert "MRR [weak learner: thresholds]" in set(
        pd.read_csv(tmp_path / "thesis-fig4_2.csv")["algorithm"]
    )
    for name in ("thesis-fig4_2", "thesis-fig4_3"):
        files = [f.with_suffix(".queries.csv") for f in inputs[name] if f.suffix == ".csv"]
        stats = make_figure(
            name, inputs[name] + files, tmp_path / f"{name}.csv", tmp_path / f"{name}_s.csv",
            tmp_path / name, samples=tmp_path / f"{name}_s.samples.csv",
        )  # fmt: skip
        samples = pd.read_csv(tmp_path / f"{name}_s.samples.csv")
        assert set(samples["evaluated"]) == {"all", "residual"}
        assert samples.groupby(["statistic", "evaluated"])["unit"].nunique().max() == 4
        _samples_average_to_the_summary(samples, stats)
    tidy2 = pd.read_csv(tmp_path / "thesis-fig4_2.csv", keep_default_na=False)
    assert fig._mrr_label(tidy2) == "MRR (T on all pairs)"  # the legend names each reading
    assert set(tidy2.loc[tidy2["algorithm"] == "MRR (T on judged pairs)", "variant"]) == {
        "t_scope=judged"
    }
    s3 = pd.read_csv(tmp_path / "thesis-fig4_3_s.csv")
    best = s3[s3["statistic"] == "best_feature"]
    assert (best["evaluated"] == "all").all()  # one row each
    assert "published 11" in best["note"].iloc[0]  # read from config/claims.yaml


def test_letor_figures_count_the_relevant_documents(letor, families, tmp_path):
    """Given the data set's arrays, as the workflow gives Figures 4.2-4.4's jobs, the summaries
    count each query's relevant documents and those its feedback holds, and Figure 4.3's
    samples pool MRR's gains where the feedback holds a relevant one."""
    import shutil

    from boostrank.experiments.chapter4.summary_relevance import feedback_counts

    d, npz, _meta = letor
    arrays = shutil.copy(npz, tmp_path / "ohsumed.npz")  # named after its data set
    base = json.loads((d / "base.json").read_text())
    stats = {}
    for name, fams in (
        ("thesis-fig4_2", ("baselines", "lrr", "mrr")),
        ("thesis-fig4_3", ("baselines", "mrr", "mrr_bases")),
        ("thesis-fig4_4", ("baselines", "mrr", "mrr_sizes")),
    ):
        files = [d / f"{f}.csv" for f in fams]
        inputs = [*files, *(f.with_suffix(".queries.csv") for f in files), arrays]
        inputs += [d / "base.json"] if name == "thesis-fig4_3" else []
        samples = tmp_path / f"{name}_s.samples.csv"
        out = make_figure(
            name, inputs, tmp_path / f"{name}.csv", tmp_path / f"{name}_s.csv", tmp_path / name,
            samples=samples,
        )  # fmt: skip
        _samples_average_to_the_summary(pd.read_csv(samples), out)
        stats[name] = out[(out["evaluated"] == "all") & (out["algorithm"] == "")]

    def value(figure, statistic, dataset):
        rows = stats[figure]
        (found,) = rows.loc[
            (rows["statistic"] == statistic) & (rows["dataset"] == dataset), "value"
        ]
        return found

    data = load_letor(npz)
    y, qid = data["y"], data["qid"]
    one = np.mean([((y[qid == q] > 0).sum() == 1) for q in np.unique(qid)])
    assert value("thesis-fig4_2", "one_relevant_fraction", "ohsumed") == pytest.approx(one)
    assert np.isfinite(value("thesis-fig4_2", "lrr_best_minus_worst_over_se", "ohsumed"))
    assert value("thesis-fig4_2", "mrr_beats_lrr_best_fraction", "all") in (0.0, 1.0)
    worst = feedback_counts(npz, base["worst"], PARAMS["feedback"])
    empty = float((worst["in_feedback"] == 0).mean())
    assert value("thesis-fig4_3", "feedback_empty_fraction_worst", "ohsumed") == pytest.approx(
        empty
    )
    assert not np.isnan(value("thesis-fig4_3", "mrr_gain_over_se_worst", "ohsumed"))
    assert np.isfinite(value("thesis-fig4_3", "mrr_minus_base_some_relevant", "all"))
    best = feedback_counts(npz, base["best"], max(PARAMS["feedback_sizes"]))
    assert value("thesis-fig4_4", "base_feedback_empty_fraction", "ohsumed") == pytest.approx(
        float((best["in_feedback"] == 0).mean())
    )
    assert value("thesis-fig4_4", "mrr_smallest_rel_gain_min", "all") == value(
        "thesis-fig4_4", "mrr_smallest_rel_gain", "ohsumed"
    )


def _samples_average_to_the_summary(samples, stats):
    """Each difference's per-query values average to the summary's value (the claims judge
    the mean of the units): a query is the unit of a mean over queries."""
    keys = [k for k in ("statistic", "dataset", "evaluated") if k in samples.columns]
    for key, part in samples.groupby(keys):
        mask = np.logical_and.reduce([stats[k] == v for k, v in zip(keys, key, strict=True)])
        assert mask.sum() == 1, key
        value = float(stats.loc[mask, "value"].iloc[0])
        assert value == pytest.approx(part["value"].mean(), abs=1e-5), key


@pytest.fixture(scope="module")
def movies(tmp_path_factory):
    d = tmp_path_factory.mktemp("movies")
    rng = np.random.default_rng(1)
    users, items = 14, 30
    pairs = [(u, i) for u in range(1, users + 1) for i in rng.choice(items, 15, replace=False) + 1]
    user = np.array([p[0] for p in pairs], np.int32)
    item = np.array([p[1] for p in pairs], np.int32)
    genres = (rng.random((items, 4)) > 0.6).astype(np.int8)
    rating = np.clip(np.round(2 + 2 * genres[item - 1, 0] + rng.random(len(item))), 1, 5).astype(
        np.int8
    )
    np.savez(d / "ml.npz", user=user, item=item, rating=rating, item_genres=genres)
    return d, d / "ml.npz", _meta(d / "ml.json", "movielens_100k", "mirror")


def test_movie_split_and_jobs(movies, tmp_path):
    d, npz, meta = movies
    mv = ch4m.load_movies(npz, PARAMS["movies"], 3)
    assert len(mv.train_users) == 5 and len(mv.test_users) == 9
    assert not set(mv.train_users) & set(mv.test_users)
    assert (
        ch4m.load_movies(npz, PARAMS["movies"], 3).items[mv.test_users[0]].tolist()
        == mv.items[mv.test_users[0]].tolist()
    )
    qs = ch4m.movie_queries(mv, PARAMS, 4)
    assert all(q.judged.sum() == 4 and (q.evaluate["held-out"] == ~q.judged).all() for q in qs)
    assert all(np.all(np.diff(q.g) <= 0) for q in qs)  # sorted by the PD base ranker
    files = []
    for fam in spec.MOVIE_FAMILIES:
        timing = d / "timing.csv" if fam == "mrr" else None
        frame = movies_job(
            fam, npz, meta, PARAMS, 3, d / f"m_{fam}.csv", d / f"m_{fam}.json", timing,
            d / f"m_{fam}.queries.csv",
        )  # fmt: skip
        assert set(frame["evaluated"]) == {"held-out"} and frame["ndcg"].between(0, 1).all()
        files.append(d / f"m_{fam}.csv")
    per_user = [f.with_suffix(".queries.csv") for f in files]
    stats = make_figure(
        "thesis-fig4_5", [*files, *per_user, npz], tmp_path / "f5.csv", tmp_path / "f5s.csv",
        tmp_path / "f5", samples=tmp_path / "f5s.samples.csv",
    )  # fmt: skip
    assert stats.set_index("statistic").loc["best_rating", "value"] in (1, 5)
    samples = pd.read_csv(tmp_path / "f5s.samples.csv")
    assert set(samples["statistic"]) == {
        "mrr_minus_best_baseline", "lrr_best_minus_base", "mrr_smallest_minus_base"}  # fmt: skip
    _samples_average_to_the_summary(samples, stats)
    stats6 = make_figure(
        "thesis-fig4_6",
        [d / "timing.csv"],
        tmp_path / "f6.csv",
        tmp_path / "f6s.csv",
        tmp_path / "f6",
        bin_width=5,
    )
    assert "time_linear_r2" in set(stats6["statistic"])


def test_the_movielens_inventory_of_section_1_6_2(movies) -> None:
    """Section 1.6.2's "It contains 100,000 ratings ranging from 1 to 5 ... for 1682 movies
    given by 943 users", counted in the ratings file: the fixture's 210 ratings (lowest 2) FAIL
    the claims on the count and the lowest rating, which MovieLens' counts pass."""
    from boostrank.experiments.chapter4.summary_movies import inventory
    from boostrank.report.claims import judge, load_claims

    _, npz, _ = movies
    got = inventory(npz)
    assert got == {"ratings": 210, "users": 14, "movies": 30, "rating_min": 2, "rating_max": 5}
    claims = {c.id: c for c in load_claims("config/claims.yaml")}
    published = {"ratings": 100000, "users": 943, "movies": 1682, "rating_min": 1, "rating_max": 5}
    for stat, value in published.items():
        claim = claims[f"thesis.fig4_5.movielens_{stat}"]
        assert judge(claim, value)[0] == "PASS"
        assert judge(claim, got[stat])[0] == ("PASS" if stat == "rating_max" else "FAIL")


def test_letor_queries_group_shuffled_non_monotone_qids():
    """The rows of a query need not be adjacent or in qid order; each Query
    holds exactly its own documents, whatever the row order."""
    rng = np.random.default_rng(0)
    qid = np.repeat([7, 3, 11], [5, 8, 6])
    X = rng.random((len(qid), 4))
    X[:, 0] = qid * 100 + np.arange(len(qid))  # each row's query is readable from feature 0
    y = rng.integers(0, 3, len(qid))
    perm = rng.permutation(len(qid))
    assert (np.diff(qid[perm]) < 0).any()
    shuffled = {"qid": qid[perm], "X": X[perm], "y": y[perm]}
    queries = ch4.letor_queries(shuffled, 1, n_feedback=3)
    assert [q.qid for q in queries] == [3, 7, 11]
    for q in queries:
        assert ((q.X[:, 0] // 100) == q.qid).all() and len(q.y) == int((qid == q.qid).sum())
        ordered = ch4.letor_queries({"qid": qid, "X": X, "y": y}, 1, n_feedback=3)
        same = next(o for o in ordered if o.qid == q.qid)
        np.testing.assert_array_equal(np.sort(q.X[:, 0]), np.sort(same.X[:, 0]))


def test_equal_refined_scores_are_evaluated_in_a_seeded_random_order():
    """A refined ranking whose scores all tie scores what the base order
    scores when ties keep it, and the mean over random orders otherwise; tied_share says so."""
    qid = np.repeat([1, 2], 6)
    X = np.arange(12, dtype=float)[:, None]  # base ranker: feature 0, higher first
    y = np.array([2, 0, 0, 0, 0, 0] * 2)  # the base ranker puts the relevant one last
    data = {"qid": qid, "X": X, "y": y}
    base = ch4.letor_queries(data, 0, n_feedback=3)
    flat = [np.zeros(len(q.y)) for q in base]  # every score tied
    kept = ch4.mean_curves(base, flat, 6, "report")["all"]
    np.testing.assert_allclose(kept, ch4.mean_curves(base, [q.g for q in base], 6, "report")["all"])
    assert kept[0] == 0.0  # the relevant document stays last
    shuffled = [ch4.letor_queries(data, 0, 3, tie_seed=s) for s in range(40)]
    at1 = [ch4.mean_curves(qs, flat, 6, "report")["all"][0] for qs in shuffled]
    assert 0.0 < np.mean(at1) < 0.5  # sometimes first: P = 1/6 per query
    again = ch4.letor_queries(data, 0, 3, tie_seed=7)
    np.testing.assert_array_equal(again[0].tie_order, shuffled[7][0].tie_order)
    assert ch4.tied_share(flat) == 1.0 and ch4.tied_share([q.g for q in base]) == 0.0
    two = [np.stack([np.zeros(6), np.arange(6.0)], axis=1)] * 2
    np.testing.assert_array_equal(ch4.tied_share(two), [1.0, 0.0])
    assert ch4.with_feedback(again, 5)[1].tie_order is again[1].tie_order


def test_replicates_average_each_query_before_the_curves_and_the_picks(letor, families, tmp_path):
    """chapter4.replicates: replicate 2 draws its own tie break and MRR samples; replicate 1's
    job averages each query's NDCG@k over both before the curves, the bands, LRR-Best /
    LRR-Worst and the per-query samples; one replicate is the single run."""
    from boostrank.experiments.chapter4.jobs_curves import load_replicate, tidy_rows

    d, npz, meta = letor
    for family in ("mrr", "lrr"):
        args = (family, npz, meta, d / "base.json", PARAMS, 7)
        assert feedback(*args, tmp_path / f"{family}.r2.npz", None, replicate=2) is None
        items, record = load_replicate(tmp_path / f"{family}.r2.npz")
        assert record["replicate"] == 2 and record["seed"] != 7  # its own root seed
        second: list = []
        r2 = pd.DataFrame(tidy_rows(items, second)).drop(columns="tied_share")
        one = families[family]
        both = feedback(
            *args, tmp_path / f"{family}.csv", tmp_path / f"{family}.json",
            tmp_path / f"{family}.queries.csv", replicate_files=[tmp_path / f"{family}.r2.npz"],
        )  # fmt: skip
        assert set(one["replicates"]) == {1} and set(both["replicates"]) == {2}
        key = ["algorithm", "variant", "evaluated", "k"]
        plain = "MRR" if family == "mrr" else "LRR"  # not a pick: the same rows in both

        def curve(f, plain=plain, key=key):
            return f[f["algorithm"] == plain].set_index(key)["ndcg"]

        assert not np.allclose(curve(one), curve(r2))  # the replicates differ
        np.testing.assert_allclose(curve(both), (curve(one) + curve(r2)) / 2, atol=2e-6)
        per_query = pd.read_csv(tmp_path / f"{family}.queries.csv")
        if family == "mrr":
            first = pd.read_csv(d / "mrr.queries.csv")
            want = (first["value"] + pd.DataFrame(second)["value"]) / 2
            np.testing.assert_allclose(per_query["value"], want, atol=2e-6)
        else:  # LRR-Best: the gamma with the best mean of the averaged curves
            gammas = curve(both).xs("all", level="evaluated").groupby("variant").mean()
            best = both[(both["algorithm"] == "LRR-Best") & (both["evaluated"] == "all")]
            assert best["variant"].iloc[0] == gammas.round(12).idxmax()
            assert best["ndcg"].mean() == pytest.approx(gammas.max(), abs=1e-6)
        low, high = both["ci_low"].dropna(), both["ci_high"].dropna()
        assert (low <= both.loc[low.index, "ndcg"]).all()
        assert (both.loc[high.index, "ndcg"] <= high).all()


@pytest.mark.parametrize("family", spec.BLOCK_FAMILIES)
@pytest.mark.parametrize(("blocks", "replicate"), [(2, 1), (3, 2)])
def test_a_family_split_by_query_writes_what_one_job_writes(
    letor, families, tmp_path, family, blocks, replicate
):
    """chapter4.query_blocks: each block job scores its queries, the replicate's job reads
    their scores in place of scoring, so the results are byte for byte those of one job (each
    query's seed derives from its id, not from its block); 4 queries in 3 blocks: 2, 1, 1."""
    d, npz, meta = letor
    args = (family, npz, meta, d / "base.json", PARAMS, 7)
    if replicate == 1:
        whole = [d / f"{family}.csv", d / f"{family}.queries.csv"]
        files = [tmp_path / f"{family}.csv", tmp_path / f"{family}.json",
                 tmp_path / f"{family}.queries.csv"]  # fmt: skip
    else:  # replicate 2's curves, against the same replicate in one job
        whole = [tmp_path / "whole.r2.npz"]
        assert feedback(*args, whole[0], None, replicate=2) is None
        files = [tmp_path / f"{family}.r2.npz", None, None]
    scored = [tmp_path / f"{family}.r{replicate}.b{b}.npz" for b in range(1, blocks + 1)]
    for b, path in enumerate(scored, start=1):
        kept = feedback(*args, path, None, replicate=replicate, block=b, blocks=blocks)
        assert kept is None and path.exists()
    feedback(*args, *files, replicate=replicate, blocks=blocks, block_files=scored)
    if replicate == 1:
        for want, got in zip(whole, [files[0], files[2]], strict=True):
            assert got.read_bytes() == want.read_bytes()
        # the blocks' fits are the job's: their guard counts reach its record
        counts = json.loads((d / f"{family}.json").read_text())["guards"]
        assert json.loads(files[1].read_text())["guards"] == counts
        assert "mrr_alpha_smoothing" in counts or family == "lrr"
        return
    from boostrank.experiments.chapter4.jobs_curves import load_replicate, tidy_rows

    (one, _), (split, _) = load_replicate(whole[0]), load_replicate(files[0])
    assert pd.DataFrame(tidy_rows(split, [])).equals(pd.DataFrame(tidy_rows(one, [])))


def test_a_block_file_of_other_queries_says_what_to_do(letor, tmp_path):
    d, npz, meta = letor
    args = ("lrr", npz, meta, d / "base.json", PARAMS, 7)
    block1 = tmp_path / "lrr.r1.b1.npz"
    feedback(*args, block1, None, block=1, blocks=2)
    out = (tmp_path / "lrr.csv", tmp_path / "lrr.json")
    with pytest.raises(BoostrankError, match=r"block 1's scores do not match .* delete its file"):
        feedback(*args, *out, blocks=4, block_files=[block1] * 4)  # blocks of 1 query, not 2
    block1.write_bytes(b"not an npz")
    with pytest.raises(BoostrankError, match=r"b1\.npz: not a Chapter 4 block's scores"):
        feedback(*args, *out, blocks=2, block_files=[block1] * 2)


def test_replicates_of_different_users_average_where_each_user_was_tested():
    """MovieLens: each replicate has its own test users; a user's curve is the mean over the
    replicates that tested it, and the rows count every user tested at least once."""
    from boostrank.experiments.chapter4.jobs_curves import MethodCurves, average_replicates

    def curves(ids, values, share):
        ids = np.array(ids)
        return [MethodCurves("MRR", {"variant": ""}, ids, {"held-out": (ids, np.array(values))},
                             share)]  # fmt: skip

    a = curves([1, 2], [[0.2, 0.4], [0.6, 0.6]], 0.1)
    b = curves([2, 3], [[1.0, 0.8], [0.0, 0.5]], 0.3)
    (merged,) = average_replicates([a, b])
    ids, values = merged.per_query["held-out"]
    assert ids.tolist() == [1, 2, 3] and merged.queries.tolist() == [1, 2, 3]
    np.testing.assert_allclose(values, [[0.2, 0.4], [0.8, 0.7], [0.0, 0.5]])
    assert merged.tied_share == pytest.approx(0.2)
    assert average_replicates([a]) == a  # one replicate: as it was
    with pytest.raises(BoostrankError, match="disagree"):
        average_replicates([a, [MethodCurves("LRR", {}, np.array([1]), {})]])


def test_a_replicate_file_round_trips_and_a_bad_one_says_what_to_do(letor, tmp_path):
    from boostrank.experiments.chapter4.jobs_curves import (
        load_replicate,
        save_replicate,
        tidy_rows,
    )

    d, npz, _meta = letor
    run = ch4f.FeedbackRun("ohsumed", load_letor(npz), json.loads((d / "base.json").read_text()),
                          PARAMS, 7, 8)  # fmt: skip
    items = ch4f.FEEDBACK_RUNNERS["baselines"](run)
    save_replicate(tmp_path / "r.npz", items, {"replicate": 2})
    again, record = load_replicate(tmp_path / "r.npz")
    assert record == {"replicate": 2}
    assert pd.DataFrame(tidy_rows(again, [])).equals(pd.DataFrame(tidy_rows(items, [])))
    (tmp_path / "bad.npz").write_bytes(b"not an npz")
    with pytest.raises(BoostrankError, match=r"bad\.npz: not a Chapter 4 replicate file"):
        load_replicate(tmp_path / "bad.npz")


@pytest.mark.parametrize("feedback", [6, 3])
def test_figure4_4_scores_every_feedback_size_on_one_residual(letor, monkeypatch, feedback):
    """Under ``residual`` every size of Figure 4.4 is scored on the documents after the
    largest size: a refinement that keeps the base order then scores the same for every size,
    and what the base ranker scores with the largest feedback set judged."""
    d, npz, _meta = letor
    params = {**PARAMS, "feedback": feedback, "feedback_sizes": [3, 6]}
    base = base_rankers(npz, _meta, d / "b44.json")
    run = ch4f.FeedbackRun("ohsumed", load_letor(npz), base, params, 7, None)
    monkeypatch.setattr(ch4f, "run_mrr", lambda qs, *a, **k: [q.g.copy() for q in qs])
    items = ch4f.FEEDBACK_RUNNERS["mrr_sizes"](run)
    sizes = [c.columns["feedback"] for c in items]
    assert sizes == ([3] if feedback == 6 else [3, 6])  # 6 is family mrr's when largest
    qs = ch4.letor_queries(load_letor(npz), base["best"] - 1, 6)
    want = ch4.mean_curves(qs, [q.g for q in qs], PARAMS["k_max"], "letor")["residual"]
    residual6 = qs[0].evaluate["residual"]
    for c in items:
        _ids, values = c.per_query["residual"]
        np.testing.assert_allclose(values.mean(axis=0), want, atol=1e-12)
    # scored on its own residual (from position 3), size 3 would differ: the check can fail
    own = ch4.mean_curves(ch4.with_feedback(qs, 3), [q.g for q in qs], 8, "letor")["residual"]
    assert not np.allclose(own, want) and residual6.sum() == len(residual6) - 6


def test_movielens_ties_follow_chapter4_tie_break(movies, tmp_path):
    """chapter4.tie_break on MovieLens: ``random`` evaluates equal scores in an order seeded
    by (the replicate's tie seed, the user), the same in every family and feedback size;
    ``base`` keeps the base ranker's order. MRR's genre stumps tie movies, so they differ."""
    _d, npz, meta = movies
    mv = ch4m.load_movies(npz, PARAMS["movies"], 3)
    kept = ch4m.movie_queries(mv, PARAMS, 4)
    drawn = ch4m.movie_queries(mv, PARAMS, 4, tie_seed=11)
    assert all(q.tie_order is None for q in kept)
    flat = [np.zeros(len(q.y)) for q in kept]  # every movie tied
    spelt = []  # the drawn order written out as strict scores
    for q in drawn:
        s = np.empty(len(q.y))
        s[q.tie_order] = -np.arange(len(q.y))
        spelt.append(s)
    got = ch4.mean_curves(drawn, flat, 5, "letor")["held-out"]
    np.testing.assert_allclose(got, ch4.mean_curves(kept, spelt, 5, "letor")["held-out"])
    users = [q.qid for q in drawn][:3]
    again = ch4m.movie_queries(mv, PARAMS, 2, eval_from=4, users=users, tie_seed=11)
    for q, r in zip(drawn, again, strict=False):
        np.testing.assert_array_equal(q.tie_order, r.tie_order)  # per user, any feedback size
    curves = {}
    for rule in ("random", "base"):
        frame = movies_job(
            "mrr", npz, meta, {**PARAMS, "tie_break": rule}, 3, tmp_path / f"{rule}.csv",
            tmp_path / f"{rule}.json",
        )  # fmt: skip
        mrr = frame[frame["algorithm"] == "MRR"]
        assert (mrr["tied_share"] > 0).all()  # genre stumps tie movies
        curves[rule] = mrr["ndcg"].to_numpy()
    assert not np.allclose(curves["random"], curves["base"])
