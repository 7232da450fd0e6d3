"""boostrank.experiments.reuse: which Figure 3.1 training folders a make-readings variant reads
from an earlier variant (docs/readings-reuse.md)."""

import copy

from boostrank.experiments.chapter3.spec import BY_KEY, RUNS
from boostrank.experiments.reuse import owners as all_owners
from boostrank.experiments.reuse import ranking_name

PROCESSED = "data/processed/"


def owners(configs, *root):
    """The shared job outputs but the processed data sets (they have their own test below)."""
    return {
        name: {p: r for p, r in mine.items() if not p.startswith(PROCESSED)}
        for name, mine in all_owners(configs, *root).items()
    }


def config(**chapter3):
    section = {
        "datasets": ["td2003", "ohsumed"],
        "folds": [1, 2],
        "algorithms": {key: {} for key in BY_KEY},
        "ndcg_formula": "letor",
    }
    return {
        "seed": 7,
        "registry": "config/datasets.yaml",
        "data": {"synthetic_scale": 1.0, "mirror": ""},
        "letor": {"ohsumed_features": "distributed"},
        "chapter3": section | chapter3,
    }


def with_(base, key, value):
    out = copy.deepcopy(base)
    node = out
    *parents, last = key.split(".")
    for part in parents:
        node = node[part]
    node[last] = value
    return out


def folder(dataset, algorithm):
    return f"{RUNS}/{dataset}/{algorithm}/"


def qrels(dataset):
    return f"{RUNS}/{dataset}/fold"


def every_folder(cfg):
    """Every training folder and every data set's qrels."""
    datasets = cfg["chapter3"]["datasets"]
    return {folder(d, a) for d in datasets for a in BY_KEY} | {qrels(d) for d in datasets}


def test_a_reading_of_the_evaluation_reads_every_run_of_the_default():
    base = config()
    found = owners({"default": base, "formula": with_(base, "chapter3.ndcg_formula", "report")})
    assert found["default"] == {}
    assert found["formula"] == dict.fromkeys(every_folder(base), "results/readings/default")
    # The confirm stage's variants read their own stage's default, never the screen's.
    full = owners(
        {"default": base, "formula": with_(base, "chapter3.ndcg_formula", "report")},
        "results/readings-full",
    )
    assert set(full["formula"].values()) == {"results/readings-full/default"}


def test_a_reading_of_one_algorithm_trains_that_algorithm_again():
    base = config()
    variant = with_(base, "chapter3.algorithms.ndcg_boost", {"max_redraws": 1000})
    mine = owners({"default": base, "redraws": variant})["redraws"]
    assert set(mine) == every_folder(base) - {
        folder(d, "ndcg_boost") for d in ("td2003", "ohsumed")
    }


def test_the_data_a_job_reads_is_part_of_its_computation():
    base = config()
    rebuilt = with_(base, "letor.ohsumed_features", "rebuilt")
    assert ranking_name(rebuilt, "ohsumed") == "ohsumed_rebuilt"
    mine = owners({"default": base, "rebuilt": rebuilt})["rebuilt"]
    assert set(mine) == {folder("td2003", a) for a in BY_KEY} | {qrels("td2003")}
    scaled = with_(base, "data.synthetic_scale", 0.5)  # what the stand-ins are
    assert owners({"default": base, "scaled": scaled})["scaled"] == {}
    mirror = with_(base, "data.mirror", "/elsewhere")  # where the data are found: not what
    assert set(owners({"default": base, "mirror": mirror})["mirror"]) == every_folder(base)


def test_only_a_variant_that_makes_the_files_owns_them():
    base = config(datasets=["td2003"], folds=[1])
    more = with_(base, "chapter3.folds", [1, 2])  # the default's rule cannot make fold 2
    assert owners({"default": base, "more": more})["more"] == {}  # nor its qrels job
    one = with_(base, "chapter3.algorithms.listnet", {"n_epochs": 5})
    found = owners({"default": base, "a": one, "b": copy.deepcopy(one), "c": base})
    assert found["b"][folder("td2003", "listnet")] == "results/readings/a"
    assert found["b"][folder("td2003", "ranksvm")] == "results/readings/default"
    assert set(found["c"].values()) == {"results/readings/default"}


def printed():
    """config/config.yaml as the workflow reads it (its keys and sizes)."""
    import yaml

    from boostrank.experiments.reuse import ROOT

    assert ROOT == "results/readings"
    return yaml.safe_load(open("config/config.yaml", encoding="utf-8"))


def test_a_reading_of_one_chapter2_method_runs_only_that_method_again():
    from boostrank.experiments.chapter2.spec import RUNS

    base = printed()
    variant = with_(base, "chapter2.methods.mcssb.sampled_rows", "all")
    mine = owners({"default": base, "rows": variant})["rows"]
    chapter2 = {p for p in mine if p.startswith(f"{RUNS}/")}
    methods = {p.split("/")[4] for p in chapter2}
    assert methods == {"tree", "assemble", "mcssb_uniform", "mcssb_absolute"}
    # every figure, data set and block of repeats of the four, each read from the default
    blocks = len(range(0, base["chapter2"]["repeats"], base["chapter2"]["repeats_per_job"]))
    assert len(chapter2) == 3 * len(base["chapter2"]["datasets"]) * 4 * blocks
    assert set(mine.values()) == {"results/readings/default"}


def test_a_chapter2_run_another_block_layout_cannot_make_is_not_read_from_it():
    base = printed()
    variant = with_(base, "chapter2.repeats_per_job", 1)  # other files: other blocks
    mine = owners({"default": base, "blocks": variant})["blocks"]
    assert not [p for p in mine if p.startswith("results/chapter2/")]


def test_a_topk_reading_reruns_the_records_whose_training_or_split_it_changes():
    base = printed()
    runs = "results/topk/runs/"
    drawn = owners({"default": base, "smooth": with_(base, "topk.fig2.smooth", 9)})["smooth"]
    every = {p for p in drawn if p.startswith(runs)}
    assert every and all(p.endswith(".json") for p in every)  # Figure 2's drawing: all reused
    trained = owners({"default": base, "rho": with_(base, "topk.rho", 0.5)})["rho"]
    assert not [p for p in trained if p.startswith(runs)]
    seeded = owners({"default": base, "seed": with_(base, "seed", 1)})["seed"]
    assert not seeded  # the seed is part of every computation


def test_a_topk_split_reading_reruns_only_the_records_trained_on_that_split():
    base = printed()
    train = base["topk"]["m_reduced"]["train"]
    variant = with_(base, "topk.m_reduced.train", train // 2)
    mine = owners({"default": base, "split": variant})["split"]
    datasets = {p.split("/")[3] for p in mine if p.startswith("results/topk/runs/")}
    assert datasets == set(base["topk"]["datasets"]) - {"m_reduced"}


def test_every_variant_reads_the_processed_data_sets_of_the_default():
    base = printed()
    prefixes = all_owners({"default": base, "rho": with_(base, "topk.rho", 0.5)})["rho"]
    prepared = {p: r for p, r in prefixes.items() if p.startswith(PROCESSED)}
    assert "data/processed/ohsumed." in prepared and "data/processed/mnist." in prepared
    assert set(prepared.values()) == {"results/readings/default"}
    for key, value in (("seed", 1), ("data.synthetic_scale", 0.5)):  # what a stand-in is
        mine = all_owners({"default": base, "other": with_(base, key, value)})["other"]
        assert not [p for p in mine if p.startswith(PROCESSED)], key
