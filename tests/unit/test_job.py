"""``boostrank job <work>.<kind> --spec JSON``: every registered kind names a parameter dataclass
and a function its Snakemake code inputs cover, each spec function builds a valid object from
the shipped config whose JSON reads back to it, and a wrong name or value is one clear line."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from boostrank.cli import main
from boostrank.errors import BoostrankError
from boostrank.experiments import job
from boostrank.experiments.chapter2 import jobs as ch2_jobs
from boostrank.experiments.chapter2 import spec as ch2
from boostrank.experiments.chapter3 import spec as ch3
from boostrank.experiments.chapter4 import spec as ch4
from boostrank.experiments.chapter5_6 import spec as ch5
from boostrank.experiments.datasets import spec as datasets
from boostrank.experiments.docan import spec as docan
from boostrank.experiments.job import JobSpec
from boostrank.experiments.prank import spec as prank
from boostrank.experiments.qbrank import spec as qbrank
from boostrank.experiments.topk import spec as topk
from boostrank.workflow.code_deps import imported_modules

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))


FOLDS = len(CONFIG["chapter3"]["folds"])


class Files:
    """A rule's input or output files: a path per name, a list for the names in ``lists``, one
    per fold for the names in ``per_fold``."""

    def __init__(self, *lists: str, per_fold: tuple[str, ...] = ()) -> None:
        self.lists, self.per_fold = lists, per_fold

    def __getattr__(self, name: str) -> str | list[str]:
        if name in self.per_fold:
            return [f"{name}/fold{f}" for f in range(1, FOLDS + 1)]
        return [f"{name}/a.png", f"{name}/b.pdf"] if name in self.lists else f"{name}.file"

    def __getitem__(self, index: int) -> str:  # an unnamed output
        return f"out/{index}.png"


# (kind, its spec function, the rule's wildcards, what the rule fixes): one rule of each kind.
CASES = [
    ("chapter2.run", ch2.run_spec, {"figure": "thesis-fig2_2", "dataset": "letter",
                                    "method": "mcssb", "block": "8-9"}, {}),
    ("chapter2.figure", ch2.figure_spec, {"figure": "thesis-fig2_3"}, {}),
    ("chapter5_6.run", ch5.run_spec, {"dataset": "nursery", "method": "banditron"},
     {"figure": "thesis-fig5_2"}),
    ("chapter5_6.run", ch5.run_spec, {"dataset": "letter"},
     {"figure": "thesis-fig6_2", "method": "banditron_best_worst"}),
    ("chapter5_6.figure", ch5.figure_spec, {"figure": "thesis-fig6_1"}, {}),
    ("chapter5_6.eta_sweep", ch5.eta_sweep_spec, {"dataset": "optdigits"}, {}),
    ("chapter5_6.eta_figure", ch5.eta_figure_spec, {}, {}),
    ("topk.split", topk.split_spec, {"dataset": "m_reduced"}, {}),
    ("topk.train", topk.train_spec, {"dataset": "yeast", "algorithm": "topopt", "k": "3",
                                     "seed": "2"}, {}),
    ("topk.table1", topk.table1_spec, {}, {}),
    ("topk.fig2", topk.figure2_spec, {}, {}),
    ("prank.fig6", prank.fig6_spec, {}, {}),
    ("prank.fig7", prank.fig7_spec, {}, {}),
    ("qbrank.train", qbrank.train_spec, {"dataset": "mq2008", "model": "ranksvm_p2",
                                         "split": "3"}, {}),
    ("qbrank.figure", qbrank.figure_spec, {}, {}),
    ("docan.fig4", docan.fig4_spec, {}, {}),
    ("docan.clustering", docan.clustering_spec, {}, {}),
    ("docan.knn", docan.knn_spec, {"fig": "fig7"}, {}),
    ("docan.plot", docan.plot_spec, {"fig": "fig5"}, {}),
    ("docan.forest", docan.forest_spec, {"replicate": "2"}, {}),
    ("docan.forest_merge", docan.forest_merge_spec, {}, {}),
    ("docan.table1", docan.table1_spec, {}, {}),
    ("docan.ranking_fold", docan.ranking_fold_spec, {"table": "docan-table5", "fold": "3"}, {}),
    ("docan.ranking_merge", docan.ranking_merge_spec, {"table": "docan-table2"}, {}),
    ("docan.ranking_toy", docan.toy_spec, {}, {}),
    ("docan.ranking_demo", docan.demo_spec, {}, {}),
    ("chapter4.base_rankers", ch4.base_rankers_spec, {"dataset": "td2004"}, {}),
    ("chapter4.feedback", ch4.feedback_spec, {"fig": "thesis-fig4_4", "dataset": "np2003",
                                              "family": "mrr_sizes"}, {}),
    ("chapter4.feedback", ch4.feedback_replicate_spec, {"fig": "thesis-fig4_2",
                                                        "dataset": "hp2004", "family": "lrr",
                                                        "replicate": "3"}, {}),
    ("chapter4.feedback", ch4.feedback_block_spec, {"fig": "thesis-fig4_2", "dataset": "np2003",
                                                    "family": "lrr", "replicate": "1",
                                                    "block": "2"}, {}),
    ("chapter4.objective", ch4.objective_spec, {}, {}),
    ("chapter4.movies", ch4.movies_spec, {"family": "lrr"}, {}),
    ("chapter4.movies", ch4.movies_spec, {}, {"family": "mrr", "timing": True}),
    ("chapter4.movies", ch4.movies_replicate_spec, {"family": "baselines", "replicate": "2"},
     {}),
    ("chapter4.figure", ch4.figure_spec, {"fig": "thesis-fig4_3"}, {}),
    ("chapter3.train", ch3.train_spec, {"dataset": "td2004", "algorithm": "frank",
                                        "replicate": "2", "fold": "3"}, {}),
    ("chapter3.qrels", ch3.qrels_spec, {"dataset": "np2003"}, {}),
    ("chapter3.evaluate", ch3.evaluate_spec, {"dataset": "ohsumed"}, {"replicates": 3}),
    ("chapter3.figure", ch3.figure_spec, {}, {}),
    ("datasets.table", datasets.table_spec, {"table": "thesis-table1_1"}, {}),
    ("datasets.letor3_features", datasets.letor3_features_spec, {}, {}),
]  # fmt: skip


# The input names that are lists in the rules.
INPUT_LISTS = ("runs", "splits", "queries", "finals", "metas", "folds", "csvs", "samples")
INPUT_LISTS += ("replicate_runs", "evaluations", "letor")


def _built(build, wildcards, fixed):
    # chapter4's figure job reads lists of replicates and results; docan's table a results file
    lists = INPUT_LISTS
    if build.__module__.endswith("chapter4.spec"):
        lists += ("replicates", "results", "blocks")
    inputs = Files(*lists, per_fold=("qrels",))
    outputs = Files("figure", "table", per_fold=("qrels",))
    return build(CONFIG, SimpleNamespace(**wildcards), inputs, outputs, **fixed)


def test_every_kind_names_its_dataclass_and_a_function_its_code_inputs_cover():
    src = ROOT / "src" / "boostrank"
    kinds = set()
    for work, module in job.WORKS.items():
        jobs = __import__(module, fromlist=["JOBS"]).JOBS
        for kind, entry in jobs.items():
            kinds.add(f"{work}.{kind}")
            assert entry.command == f"{work}.{kind}" and job.lookup(entry.command) is entry
            assert issubclass(entry.spec, JobSpec), entry
            name, _, function = entry.entry.partition(":")
            assert callable(getattr(__import__(name, fromlist=[function]), function)), entry
            # editing the job's function reruns its jobs
            assert name.removeprefix("boostrank.") in imported_modules(*entry.code, src=src)
    assert kinds == {case[0] for case in CASES}  # a new kind gets a case here


@pytest.mark.parametrize(("kind", "build", "wildcards", "fixed"), CASES)
def test_a_rules_spec_reads_back_from_its_json(kind, build, wildcards, fixed):
    spec = _built(build, wildcards, fixed)
    assert isinstance(spec, job.lookup(kind).spec)
    text = spec.to_json()
    data = json.loads(text)
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"))  # one text per spec
    assert job.build(type(spec), data) == spec
    assert json.loads(job.build(type(spec), data).to_json()) == data


def test_the_spec_functions_follow_the_config_and_the_wildcards():
    fig22 = _built(*CASES[0][1:])
    grid = [float(c) for c in CONFIG["chapter2"]["C_grid"]]
    assert tuple(c for c in grid if c != 1e4) == fig22.C
    assert fig22.fractions == (2.0,) and fig22.rows == CONFIG["chapter2"]["rows"]["letter"]
    assert fig22.out == "csv.file" and fig22.npz == "npz.file"
    assert (fig22.first_repeat, fig22.repeats) == (8, 2)  # the last block of 4 of 10 repeats
    sweep, best_worst = _built(*CASES[2][1:]), _built(*CASES[3][1:])
    assert sweep.gammas and sweep.runs == CONFIG["chapter5"]["runs"]
    assert best_worst.gammas == () and best_worst.runs == CONFIG["chapter5"]["runs_adaptive"]
    train = _built(topk.train_spec, {**CASES[8][2], "algorithm": "fullopt", "k": "full"}, {})
    assert train.k is None and train.seed_index == 2
    assert _built(*CASES[8][1:]).k == 3
    assert _built(*CASES[1][1:]).figure_prefix == "figure/a"  # the figure's stem


def test_chapter3s_specs_follow_the_config_and_the_rules_files():
    train, qrels, evaluate, figure = (_built(*case[1:]) for case in CASES[-6:-2])
    section = CONFIG["chapter3"]
    assert train.replicate == 2 and train.params == section["algorithms"]["frank"]
    assert train.fold == 3 and (train.run, train.record) == ("run.file", "record.file")
    assert qrels.out == tuple(f"qrels/fold{f}" for f in section["folds"])
    # replicate 1's runs, then the other replicates' (rule chapter3_evaluate)
    assert evaluate.runs == ("runs/a.png", "runs/b.pdf", "replicate_runs/a.png",
                             "replicate_runs/b.pdf")  # fmt: skip
    assert evaluate.replicates == 3 and evaluate.formula == section["ndcg_formula"]
    assert figure.letor == "letor/a.png" and figure.table_prefix == "table/a"
    assert figure.compared == "compared.file" and figure.samples_out == "samples.file"
    fetched_none = SimpleNamespace(evaluations=["e.csv"], samples=["e.samples.csv"], letor=[],
                                   records=[], claims="claims.yaml")  # fmt: skip
    assert ch3.figure_spec(CONFIG, None, fetched_none, Files("figure", "table")).letor is None
    with pytest.raises(BoostrankError, match="field 'out': 2 paths for 5 folds"):
        ch3.QrelsSpec(**{**json.loads(qrels.to_json()), "out": ["a.qrels", "b.qrels"]})
    with pytest.raises(BoostrankError, match="field 'fold' must be at least 1, got 0"):
        ch3.TrainSpec(**{**json.loads(train.to_json()), "fold": 0})


def test_the_command_runs_the_registered_function_with_the_spec(monkeypatch):
    spec = _built(*CASES[0][1:])
    seen = []
    monkeypatch.setattr(ch2_jobs, "run_job", seen.append)
    assert main(["job", "chapter2.run", "--spec", spec.to_json()]) == 0
    assert seen == [spec]


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        ("chapter2.bogus", {}, "unknown job 'chapter2.bogus'; known: chapter2.run, chapter2.fig"),
        ("chapter9.run", {}, "unknown work 'chapter9'"),
        ("chapter2.run", {"repeat": 2, "repeats": None},
         "unknown field(s) repeat; missing field(s) repeats"),
        ("chapter2.run", {"method": "mcsb"}, "field 'method': 'mcsb' is not one of tree, assemble"),
        ("chapter2.run", {"repeats": "10"}, "field 'repeats' must be int, got '10'"),
        ("chapter2.run", {"repeats": 0}, "field 'repeats' must be at least 1, got 0"),
        ("chapter2.run", {"first_repeat": -1}, "field 'first_repeat' must be at least 0, got -1"),
        ("chapter2.run", {"depths": ["2", "deep"]}, "field 'depths': 'deep' is not 'full'"),
        ("chapter2.run", {"fractions": 2}, "field 'fractions' must be tuple"),
    ],
)  # fmt: skip
def test_a_bad_name_or_value_is_one_line_naming_it(capsys, name, edit, message):
    data = json.loads(_built(*CASES[0][1:]).to_json())
    data.update(edit)
    data = {k: v for k, v in data.items() if v is not None}
    assert main(["job", name, "--spec", json.dumps(data)]) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err, err
    assert err.startswith("boostrank job: error:")


def test_a_spec_that_is_not_a_json_object_is_refused(capsys):
    assert main(["job", "prank.fig6", "--spec", "{settings: 1}"]) == 1
    assert "prank.fig6: the spec is not JSON" in capsys.readouterr().err
    with pytest.raises(BoostrankError, match="must be a JSON object"):
        job.build(prank.Fig6Spec, [1, 2])


def test_fields_take_their_declared_types():
    spec = _built(*CASES[0][1:])
    data = {**json.loads(spec.to_json()), "fractions": [2, 10], "C": [1], "rows": None}
    again = ch2.RunSpec(**data)
    assert again.fractions == (2.0, 10.0) and isinstance(again.C[0], float)
    assert again.rows is None  # int | None
    for bad in ({"repeats": True}, {"repeats": 2.5}, {"params": []}, {"seed": None}):
        with pytest.raises(BoostrankError, match=f"field '{next(iter(bad))}'"):
            ch2.RunSpec(**{**data, **bad})
    assert topk.SplitSpec(**{**json.loads(_built(*CASES[7][1:]).to_json()), "subsample": [5, 2]})
    with pytest.raises(BoostrankError, match="field 'subsample'"):
        topk.SplitSpec(**{**json.loads(_built(*CASES[7][1:]).to_json()), "subsample": [5]})
