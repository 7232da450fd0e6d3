"""boostrank.experiments.reuse: which Figure 3.1 training folders a make-readings variant reads
from an earlier variant (docs/readings-reuse.md)."""

import copy

from boostrank.experiments.chapter3.spec import BY_KEY, RUNS
from boostrank.experiments.reuse import owners, ranking_name


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


def every_folder(cfg):
    return {folder(d, a) for d in cfg["chapter3"]["datasets"] for a in BY_KEY}


def test_a_reading_of_the_evaluation_reads_every_run_of_the_default():
    base = config()
    found = owners({"default": base, "formula": with_(base, "chapter3.ndcg_formula", "report")})
    assert found["default"] == {}
    assert found["formula"] == dict.fromkeys(every_folder(base), "results/readings/default")


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
    assert set(mine) == {folder("td2003", a) for a in BY_KEY}
    scaled = with_(base, "data.synthetic_scale", 0.5)  # what the stand-ins are
    assert owners({"default": base, "scaled": scaled})["scaled"] == {}
    mirror = with_(base, "data.mirror", "/elsewhere")  # where the data are found: not what
    assert set(owners({"default": base, "mirror": mirror})["mirror"]) == every_folder(base)


def test_only_a_variant_that_makes_the_files_owns_them():
    base = config(datasets=["td2003"], folds=[1])
    more = with_(base, "chapter3.folds", [1, 2])  # the default's rule cannot make fold 2
    assert owners({"default": base, "more": more})["more"] == {}
    one = with_(base, "chapter3.algorithms.listnet", {"n_epochs": 5})
    found = owners({"default": base, "a": one, "b": copy.deepcopy(one), "c": base})
    assert found["b"][folder("td2003", "listnet")] == "results/readings/a"
    assert found["b"][folder("td2003", "ranksvm")] == "results/readings/default"
    assert set(found["c"].values()) == {"results/readings/default"}
