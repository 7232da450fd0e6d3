"""Chapter 2 experiments (Figures 2.1-2.3): partitions, labelled sets, a run job end to end on a
small data set, the figures, the summary statistics and the claims that read them."""

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import yaml

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter2 import jobs as ch2
from boostrank.experiments.chapter2 import make, spec, summary
from boostrank.io import save_npz, write_json
from boostrank.report.claims import load_claims, variants


def test_stratified_parts_deal_every_class_evenly_and_keep_rare_classes():
    y = np.array([0] * 23 + [1] * 11 + [2] * 2)
    part = ch2.stratified_parts(y, 5, seed=1)
    for c in range(3):
        counts = np.bincount(part[y == c], minlength=5)
        assert counts.max() - counts.min() <= 1
    assert len(set(part[y == 2])) == 2  # the two rare rows land in two different parts
    np.testing.assert_array_equal(part, ch2.stratified_parts(y, 5, seed=1))
    assert not np.array_equal(part, ch2.stratified_parts(y, 5, seed=2))


def test_labelled_order_puts_every_class_first_and_is_nested():
    y = np.array([0] * 50 + [1] * 30 + [2] * 5 + [3] * 1)
    order = ch2.labelled_order(y, seed=3)
    assert sorted(order) == list(range(len(y)))
    assert set(y[order[:4]]) == {0, 1, 2, 3}
    half = np.bincount(y[order[:43]], minlength=4)
    assert abs(half[0] - 25) <= 2 and abs(half[1] - 15) <= 2
    assert ch2.n_labelled(1000, 0.02, 26, "stratified") == 26
    assert ch2.n_labelled(1000, 0.04, 10, "stratified") == 40
    assert ch2.n_labelled(1000, 0.02, 26, "random") == 20
    sub = ch2.subset_rows(y, 43, seed=1)
    assert len(sub) == 43 and len(set(y[sub])) == 4
    assert len(ch2.subset_rows(y, None, seed=1)) == len(y)


def test_random_labelled_sample_is_plain_and_records_missing_classes(tmp_path):
    """Section 2.4.1 draws "a small percentage of training instances"; the
    default is a plain random order (nested prefixes), and each run names the classes that
    got no labelled row."""
    y = np.array([0] * 50 + [1] * 30 + [2] * 5 + [3] * 1)
    order = ch2.labelled_rows(y, 3, "random")
    np.testing.assert_array_equal(order, np.random.default_rng(3).permutation(len(y)))
    np.testing.assert_array_equal(ch2.labelled_rows(y, 3, "stratified"), ch2.labelled_order(y, 3))
    with pytest.raises(Exception, match="labelled_sample"):
        ch2.labelled_rows(y, 3, "one-per-class")
    npz, meta = _dataset(tmp_path, m=8, n=400)
    table = _run("thesis-fig2_1", "optdigits", "tree", npz, meta, [2, 10], [1e4], ["2"],
                        3, 5, None, {}, 7, tmp_path / "r.csv")  # fmt: skip
    assert set(table["labelled_sample"]) == {"random"}
    small = table[table["fraction"] == 2]
    assert (small["n_labelled"] == 2).all()  # round(0.02 * 80): fewer rows than classes
    for _, row in small.iterrows():
        assert len(str(row["missing_classes"]).split(";")) >= 6


def _run(figure, dataset, method, npz, meta, fractions, C, depths, repeats, parts, rows, params,
         seed, out, labelled_sample="random", first_repeat=0):  # fmt: skip
    """A run job, its parameters in the order the rule's spec lists them."""
    return ch2.run_job(
        spec.RunSpec(
            figure=figure, dataset=dataset, method=method, npz=str(npz), meta=str(meta),
            fractions=fractions, C=C, depths=depths, first_repeat=first_repeat, repeats=repeats,
            parts=parts, rows=rows, params=params, seed=seed, labelled_sample=labelled_sample,
            out=str(out),
        )
    )  # fmt: skip


def _dataset(tmp_path, kind="embedded", n=300, m=3, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 3, (m, 4))
    y = rng.integers(0, m, n)
    X = (centres[y] + rng.normal(0, 1.0, (n, 4))).astype(np.float32)
    save_npz(tmp_path / "toy.npz", X=X, y=y.astype(np.int32), classes=np.arange(m).astype(str))
    meta = {"dataset": "toy", "provenance": {"kind": kind}, "provenance_line": f"{kind}: toy"}
    write_json(tmp_path / "toy.json", meta)
    return tmp_path / "toy.npz", tmp_path / "toy.json"


def test_run_job_writes_one_row_per_run_with_provenance(tmp_path):
    npz, meta = _dataset(tmp_path)
    out = tmp_path / "runs.csv"
    table = _run("thesis-fig2_3", "optdigits", "mcssb", npz, meta, [10], [1e4],
                        ["1", "40", "full"], 2, 5, 250, {"n_iterations": 5}, 7, out)  # fmt: skip
    assert len(table) == 6 and out.exists()
    assert set(table["data_kind"]) == {"embedded"} and set(table["provenance"]) == {"embedded: toy"}
    assert (table["n_train"] == 50).all() and (table["n_test"] == 200).all()
    assert (table["n_labelled"] == 5).all()
    deep = table[table["depth"] == "40"]
    assert (deep["error"] == "").all() and deep["note"].str.startswith("skipped").all()
    done = table[table["depth"] != "40"]
    assert done["error"].astype(float).between(0, 1).all()
    again = _run("thesis-fig2_3", "optdigits", "mcssb", npz, meta, [10], [1e4],
                        ["1", "40", "full"], 2, 5, 250, {"n_iterations": 5}, 7, out)  # fmt: skip
    pd.testing.assert_frame_equal(table, again)
    with pytest.raises(Exception, match="fixed by the figure"):
        _run("thesis-fig2_1", "optdigits", "tree", npz, meta, [2], [1e4], ["2"], 1, 5,
                    None, {"depth": 3}, 7, out)  # fmt: skip


@pytest.mark.parametrize(("figure", "method", "depths"),
                         [("thesis-fig2_3", "mcssb", ["1", "40", "full"]),
                          ("thesis-fig2_1", "assemble", ["2"])])  # fmt: skip
def test_blocks_of_repeats_write_the_rows_of_one_job_over_all_repeats(tmp_path, figure, method,
                                                                      depths):  # fmt: skip
    """Every seed derives from the data set and the repeat (the model's also from the method
    and the setting), never from the job: the blocks' CSVs, in repeat order, are one job's."""
    npz, meta = _dataset(tmp_path, n=250)
    args = (figure, "optdigits", method, npz, meta, [2, 10], [1e4], depths)
    rest = (5, None, {"n_iterations": 4}, 7)
    _run(*args, 3, *rest, tmp_path / "all.csv")
    _run(*args, 2, *rest, tmp_path / "0-1.csv")
    _run(*args, 1, *rest, tmp_path / "2-2.csv", first_repeat=2)
    whole = (tmp_path / "all.csv").read_text().splitlines()
    first, second = ((tmp_path / f).read_text().splitlines() for f in ("0-1.csv", "2-2.csv"))
    assert first[0] == second[0] == whole[0]  # one header
    assert first + second[1:] == whole
    assert len(whole) == 1 + 3 * 2 * len(depths)
    assert len(set(whole[1:])) == len(whole) - 1  # the repeats differ


def test_repeat_blocks_cover_the_repeats_and_name_the_run_jobs():
    blocks = spec.repeat_blocks({"repeats": 10, "repeats_per_job": 4})
    assert blocks == ["0-3", "4-7", "8-9"]
    assert spec.repeat_blocks({"repeats": 2, "repeats_per_job": 1}) == ["0-0", "1-1"]
    assert spec.repeat_blocks({"repeats": 3, "repeats_per_job": 5}) == ["0-2"]
    config = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "config" / "config.yaml").read_text()
    )
    files = SimpleNamespace(npz="d.npz", meta="d.json")
    built = [
        spec.run_spec(config, SimpleNamespace(figure="thesis-fig2_1", dataset="letter",
                                              method="tree", block=b), files,
                      SimpleNamespace(csv="r.csv"))
        for b in spec.repeat_blocks(config["chapter2"])
    ]  # fmt: skip
    covered = [r for b in built for r in range(b.first_repeat, b.first_repeat + b.repeats)]
    assert covered == list(range(config["chapter2"]["repeats"]))
    with pytest.raises(BoostrankError, match="repeats 0-9 is not a block"):
        spec.run_spec(config, SimpleNamespace(figure="thesis-fig2_1", dataset="letter",
                                              method="tree", block="0-9"), files, None)  # fmt: skip


def _cells(datasets=spec.DATASETS, synthetic=("isolet", "protein")):
    """A tidy table where MCSSB beats Tree by 0.1 and ASSEMBLE trails Tree by 0.05 except on
    Nursery (MCSSB worse than Tree) and where MCSSB-Absolute is second."""
    rows = []
    base = {"tree": 0.5, "assemble": 0.55, "mcssb": 0.4, "mcssb_uniform": 0.8,
            "mcssb_absolute": 0.45}  # fmt: skip
    for ds in datasets:
        for m, err in base.items():
            if ds == "nursery" and m == "mcssb":
                err = 0.6
            for f in (2, 4, 6, 8, 10):
                rows.append({"dataset": ds, "dataset_label": ds, "method_id": m,
                             "method": spec.LABEL[m], "fraction": float(f), "C": 1e4,
                             "depth": "2", "error": err - f / 1000, "accuracy": 1 - err + f / 1000,
                             "n_repeats": 10, "full_depth": np.nan,
                             "data_kind": "synthetic" if ds in synthetic else "mirror",
                             "provenance": "p"})  # fmt: skip
    return pd.DataFrame(rows)


def test_summary_of_figure_2_1_leaves_synthetic_data_out_of_the_aggregates():
    stats = summary.summarise("thesis-fig2_1", _cells()).set_index(
        ["statistic", "dataset", "method"]
    )
    assert stats.loc[("mcssb_minus_tree", "letter", "MCSSB - Tree"), "value"] == pytest.approx(-0.1)
    assert stats.loc[("mcssb_minus_tree", "nursery", "MCSSB - Tree"), "value"] > 0
    assert stats.loc[("mcssb_minus_tree", "isolet", "MCSSB - Tree"), "data_kind"] == "synthetic"
    agg = stats.loc[("assemble_worse_than_tree_fraction", "all", "ASSEMBLE")]
    assert agg["value"] == 1.0 and agg["data_kind"] == "mirror"
    ranks = stats.xs("overall_rank", level=0)["value"]
    assert ranks[("all", "MCSSB-Absolute")] in (1.0, 2.0)
    assert ranks[("all", "MCSSB-Uniform")] == 5.0
    assert stats.loc[("accuracy_at_8pct", "letter", "Tree"), "value"] == pytest.approx(0.508)


def test_every_chapter2_claim_reads_exactly_one_summary_row():
    registry = load_claims("config/claims.yaml")
    claims = [v for c in registry if c.id.startswith("thesis.fig2_") for v in variants(c)]
    assert len(claims) >= 20
    cells = _cells()
    c22 = pd.concat([cells.assign(C=c) for c in (1.0, 1e3, 1e4, 1e6)])
    c23 = pd.concat([cells.assign(depth=d) for d in ("1", "2", "full")])
    summaries = {
        "thesis-fig2_1": summary.summarise("thesis-fig2_1", cells),
        "thesis-fig2_2": summary.summarise("thesis-fig2_2", c22[c22["fraction"] == 2]),
        "thesis-fig2_3": summary.summarise("thesis-fig2_3", c23[c23["fraction"] == 2]),
    }
    for claim in claims:
        ref = claim.reproduce
        assert ref["file"] == f"results/{claim.figure}_summary.csv", claim.id
        table = summaries[claim.figure].astype(str)
        mask = np.ones(len(table), bool)
        for key, value in ref["row"].items():
            mask &= table[key] == str(value)
        assert mask.sum() == 1, claim.id


def test_figures_are_drawn_from_run_files(tmp_path):
    npz, meta = _dataset(tmp_path, kind="synthetic", n=200)
    runs = []
    for m in ("tree", "mcssb"):
        for figure, fr, cs, ds in (("thesis-fig2_1", [2, 10], [1e4], ["2"]),
                                   ("thesis-fig2_2", [2], [1.0, 1e6], ["2"]),
                                   ("thesis-fig2_3", [2], [1e4], ["1", "full"])):  # fmt: skip
            out = tmp_path / f"{figure}-{m}.csv"
            _run(figure, "nursery", m, npz, meta, fr, cs, ds, 1, 5, None,
                        {} if m == "tree" else {"n_iterations": 3}, 1, out)  # fmt: skip
            runs.append(out)
    for figure in spec.FIGURES:
        cells = make.make_figure(
            spec.FigureSpec(
                figure=figure, runs=list(map(str, runs)), fraction=2, C=1e4, depth="2", seed=1,
                csv=str(tmp_path / f"{figure}.csv"), summary=str(tmp_path / f"{figure}_s.csv"),
                figure_prefix=str(tmp_path / figure), guards=str(tmp_path / f"g-{figure}.csv"),
            )
        )  # fmt: skip
        assert (tmp_path / f"{figure}.png").stat().st_size > 0
        # the guard table: MCSSB's guards, one job per MCSSB run the figure shows; Tree has none
        table = pd.read_csv(tmp_path / f"g-{figure}.csv").set_index("guard")
        # 2.1: 2% and 10%; 2.2: C = 1, 10^6 and Figure 2.1's 10^4; 2.3: depth 1, full and 2
        assert set(table.index) == {"boosting_alpha_cap", "mcssb_similarity_rescale"}
        assert (table["jobs"] == (2 if figure == "thesis-fig2_1" else 3)).all()
        assert (table["figure"] == figure).all()
        assert (tmp_path / f"{figure}.pdf").exists()
        assert set(cells["data_kind"]) == {"synthetic"}
        assert cells["dataset_label"].str.contains("synthetic").all()
    two = pd.read_csv(tmp_path / "thesis-fig2_2.csv")
    assert sorted(two[two["method_id"] == "mcssb"]["C"]) == [1.0, 1e4, 1e6]


def test_config_section_is_complete():
    config = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "config" / "config.yaml").read_text()
    )["chapter2"]
    assert config["datasets"] == list(spec.DATASETS)
    assert set(config["methods"]) == set(spec.BY_KEY)
    assert json.dumps(config["methods"])  # serialisable, as the rules pass it


def test_summary_samples_average_to_the_summary_and_bands_cover_the_mean():
    rng = np.random.default_rng(4)
    rows = []
    for repeat in range(4):
        for m in spec.METHODS:
            for frac in (2.0, 4.0, 6.0, 8.0, 10.0):
                rows.append({"dataset": "letter", "dataset_label": "Letter", "method_id": m.key,
                             "method": m.label, "fraction": frac, "C": 1e4, "depth": "2",
                             "repeat": repeat, "error": rng.uniform(0.2, 0.8), "n_train": 100,
                             "n_labelled": frac, "n_iterations": 5, "full_depth": np.nan,
                             "predicted_classes": 3, "missing_classes": "",
                             "data_kind": "embedded", "provenance": "p"})  # fmt: skip
    runs = pd.DataFrame(rows)
    options = {"fraction": 2, "C": 1e4, "depth": "2"}
    cells = summary.figure_cells("thesis-fig2_1", runs, options, seed=3)
    assert ((cells["ci_low"] <= cells["error"]) & (cells["error"] <= cells["ci_high"])).all()
    stats = summary.summarise("thesis-fig2_1", cells)
    samples = summary.summary_samples("thesis-fig2_1", runs, options)
    assert set(samples["unit"]) == {f"repeat{r}" for r in range(4)}
    assert set(samples["statistic"]) == set(summary.PER_REPEAT) - {"full_minus_stump"}
    means = samples.groupby(["statistic", "dataset", "method"])["value"].mean()
    for (stat, ds, method), mean in means.items():
        row = stats[(stats["statistic"] == stat) & (stats["dataset"] == ds)
                    & (stats["method"] == method)]  # fmt: skip
        assert float(row["value"].iloc[0]) == pytest.approx(mean, abs=1e-6), stat
    # ranks and fractions of data sets are not means over repeats: no samples
    assert not samples["statistic"].isin(["overall_rank", "mean_rank"]).any()


def test_each_figure_reads_its_runs_and_figure_2_1s_reference_runs():
    """Figures 2.2 and 2.3 read Figure 2.1's runs at the reference cell (MCSSB and Tree for
    2.2's C sweep and its Tree line; every method of 2.3 for its depths), Figure 2.1 only its
    own; each file is a run job's output of a method the figure runs."""
    config = {"chapter2": {"datasets": ["nursery", "letter"], "repeats": 3, "repeats_per_job": 2}}
    runs = {f: spec.figure_runs(config, f) for f in spec.FIGURES}
    for figure, files in runs.items():
        own = [r for r in files if f"/{figure}/" in r]
        assert own == [
            spec.run_file(figure, d, m, b)
            for d in ("nursery", "letter")
            for m in spec.FIGURE_METHODS[figure]
            for b in ("0-1", "2-2")  # in repeat order: the rows of one job over all repeats
        ]
        assert len(set(files)) == len(files)
    assert runs["thesis-fig2_1"] == [r for r in runs["thesis-fig2_1"] if "/thesis-fig2_1/" in r]
    for figure, methods in (("thesis-fig2_2", {"mcssb", "tree"}),
                            ("thesis-fig2_3", {"tree", "assemble", "mcssb"})):  # fmt: skip
        reference = [r for r in runs[figure] if "/thesis-fig2_1/" in r]
        assert set(reference) <= set(runs["thesis-fig2_1"])
        assert {Path(r).parent.name for r in reference} == methods
        assert {Path(r).parent.parent.name for r in reference} == {"nursery", "letter"}
