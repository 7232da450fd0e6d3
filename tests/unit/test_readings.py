"""config/readings.yaml: each reading's config key exists, its default is the configured value
and, where the config schema lists the allowed values, its options are exactly those; each
claim pattern matches a claim. A misspelt key stops with one line naming it."""

from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml

from boostrank.errors import BoostrankError
from boostrank.report.claims import load_claims
from boostrank.workflow.config_check import check_registry

ROOT = Path(__file__).resolve().parents[2]
READINGS = yaml.safe_load((ROOT / "config/readings.yaml").read_text(encoding="utf-8"))["readings"]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
SCHEMA = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text(encoding="utf-8"))


def config_value(key: str) -> object:
    """The value of a dotted key of config/config.yaml (the package's one lookup)."""
    from boostrank.report.readings import config_value as lookup

    return lookup(CONFIG, key)


def schema_enum(key: str) -> list | None:
    node = SCHEMA
    for part in key.split("."):
        props = node.get("properties", {})
        if part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return None
    return node.get("enum")


def test_the_registry_follows_its_schema():
    check_registry(ROOT / "config/readings.yaml", ROOT / "workflow/schemas/readings.schema.yaml")
    ids = [r["id"] for r in READINGS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r["id"])
def test_each_reading_switches_a_real_config_key(reading):
    from boostrank.report.readings import Reading

    entry = Reading(**reading)
    assert entry.configured(CONFIG) == reading["default"]
    assert reading["default"] in reading["options"]
    for key in entry.keys:
        allowed = schema_enum(key)
        if allowed is not None:  # null may be an option where the schema allows it
            assert set(reading["options"]) - {None} == set(allowed) - {None}, (key, allowed)
            assert None not in reading["options"] or None in allowed, (key, allowed)


def test_a_reading_set_in_several_places_needs_one_value_there():
    from boostrank.report.readings import Reading

    reading = Reading(**{**READINGS[0], "config": ["chapter3.tie_break", "chapter4.tie_break"]})
    config = {"chapter3": {"tie_break": "random"}, "chapter4": {"tie_break": "base"}}
    with pytest.raises(BoostrankError, match="give them one value"):
        reading.configured(config)
    both = reading.applied(config, "file_order")
    assert both["chapter3"]["tie_break"] == both["chapter4"]["tie_break"] == "file_order"
    assert config["chapter4"]["tie_break"] == "base"  # a copy: the config is unchanged


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r["id"])
def test_each_reading_names_claims_that_exist(reading):
    ids = [c.id for c in load_claims(ROOT / "config/claims.yaml")]
    for pattern in reading["claims"]:
        assert any(fnmatch(i, pattern) for i in ids), pattern


def test_a_misspelt_config_key_is_one_clear_line():
    with pytest.raises(BoostrankError, match=r"no 'chapter4.refinment'") as caught:
        config_value("chapter4.refinment.t_scope")
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------------ the sensitivity run
def _toy_readings(tmp_path: Path) -> tuple[Path, Path]:
    """A registry of one reading with two options, and two claims (a value with a tolerance,
    an exact count) on one results file."""
    readings = tmp_path / "readings.yaml"
    readings.write_text(
        "readings:\n"
        "  - {id: toy, source: s, quote: q, choice: c, config: work.mode,"
        " options: [a, b], default: a, basis: silent,"
        " evidence: 'the toy text says nothing of the mode', claims: ['work.fig.*']}\n"
    )
    claims = tmp_path / "claims.yaml"
    claims.write_text(
        "claims:\n"
        "  - {id: work.fig.value, source: s, statement: s, published: 0.50,"
        " rule: {type: abs, tol: 0.02},"
        " reproduce: {file: results/work-fig.csv, row: {name: x}, column: value}}\n"
        "  - {id: work.fig.count, source: s, statement: s, published: 3,"
        " reproduce: {file: results/work-fig.csv, row: {name: n}, column: value}}\n"
        "  - {id: other.fig.value, source: s, statement: s, published: 1,"
        " reproduce: {file: results/other.csv, row: {name: x}, column: value}}\n"
    )
    return readings, claims


def _toy_results(root: Path, value: float, count: int, kind: str = "mirror") -> None:
    (root / "results").mkdir(parents=True)
    (root / "results/work-fig.csv").write_text(
        "name,value,data_kind,provenance\n"
        f"x,{value},{kind},{kind}: toy\n"
        f"n,{count},{kind},{kind}: toy\n"
    )


def test_plan_runs_the_configured_option_once_and_each_other_option_apart():
    from boostrank.report.readings import load_readings, plan, variant_table

    readings = load_readings(ROOT / "config/readings.yaml")
    claims = load_claims(ROOT / "config/claims.yaml")
    variants = plan(readings, claims, CONFIG)
    others = sum(len(r.options) - 1 for r in readings)
    assert len(variants) == 1 + others  # "default" is shared by every reading
    table = variant_table(readings, CONFIG)
    assert table["ndcg_formula"] == {"letor": "default", "report": "ndcg_formula.report"}
    switched = variants["ndcg_formula.report"]
    assert switched.config["chapter3"]["ndcg_formula"] == "report"
    assert CONFIG["chapter3"]["ndcg_formula"] == "letor"  # the config itself is untouched
    assert "results/thesis-fig3_1.csv" in switched.files


def test_a_grid_option_is_a_variant_named_by_its_place():
    from boostrank.report.readings import load_readings, plan, variant_table

    readings = load_readings(ROOT / "config/readings.yaml", ["chapter2_c_grid", "mcssb_weight"])
    variants = plan(readings, load_claims(ROOT / "config/claims.yaml"), CONFIG)
    sparse = variants["chapter2_c_grid.option2"].config["chapter2"]["C_grid"]
    grid = next(r for r in readings if r.id == "chapter2_c_grid")
    assert sparse == grid.options[1] and 1e5 not in sparse
    table = variant_table(readings, CONFIG)
    assert table["chapter2_c_grid"]["1 10 100 1000 10000 1e+06 1e+08 1e+10"] == (
        "chapter2_c_grid.option2"
    )
    gain = variants["mcssb_weight.gain"].config["chapter2"]["methods"]
    assert {gain[m]["weight"] for m in ("mcssb", "mcssb_uniform", "mcssb_absolute")} == {"gain"}


def test_a_reading_with_a_misspelt_key_stops_the_plan_with_one_line(tmp_path):
    from boostrank.report.readings import load_readings, plan

    readings, claims = _toy_readings(tmp_path)
    readings.write_text(readings.read_text().replace("work.mode", "work.mdoe"))
    with pytest.raises(BoostrankError, match=r"no 'work.mdoe'") as caught:
        plan(load_readings(readings), load_claims(claims), {"work": {"mode": "a"}})
    assert "\n" not in str(caught.value)


def test_tabulate_measures_each_option_against_the_default(tmp_path):
    from boostrank.report.readings import deciding, load_readings, tabulate

    readings, claims = _toy_readings(tmp_path)
    _toy_results(tmp_path / "v/default", 0.51, 3)  # within 0.02 of 0.50: PASS
    _toy_results(tmp_path / "v/toy.b", 0.45, 3)  # 0.05 away: FAIL
    variants = {"toy": {"a": "default", "b": "toy.b"}}
    table = tabulate(load_readings(readings), load_claims(claims), variants, tmp_path / "v")
    assert set(table["claim_id"]) == {"work.fig.value", "work.fig.count"}  # not other.*
    row = table[(table["option"] == "b") & (table["claim_id"] == "work.fig.value")].iloc[0]
    assert row["verdict"] == "FAIL" and row["default_verdict"] == "PASS"
    assert row["shift_in_tolerances"] == pytest.approx((0.45 - 0.51) / 0.02)
    count = table[(table["option"] == "b") & (table["claim_id"] == "work.fig.count")].iloc[0]
    assert count["shift_in_tolerances"] == "" and count["verdict"] == "PASS"  # no tolerance
    decided = deciding(table)
    assert list(decided["claim_id"]) == ["work.fig.value"]
    assert decided.iloc[0]["pass"] == "a" and decided.iloc[0]["fail"] == "b"


def test_tabulate_leaves_out_values_made_from_stand_ins(tmp_path):
    from boostrank.report.readings import load_readings, tabulate

    readings, claims = _toy_readings(tmp_path)
    _toy_results(tmp_path / "v/default", 0.51, 3, kind="synthetic")
    _toy_results(tmp_path / "v/toy.b", 0.45, 3, kind="synthetic")
    variants = {"toy": {"a": "default", "b": "toy.b"}}
    table = tabulate(load_readings(readings), load_claims(claims), variants, tmp_path / "v")
    assert table.empty


def test_a_reading_naming_a_family_gets_a_row_per_member(tmp_path):
    """A family's members (``expand``) extend its id, so a reading naming the family measures
    each member, as it does a table's cells."""
    from boostrank.report.readings import load_readings, tabulate

    readings, claims = _toy_readings(tmp_path)
    claims.write_text(
        "claims:\n"
        "  - {id: work.fig.family, source: s, statement: '{name}', published: null,"
        " rule: {type: abs, tol: 0.02}, reproduce: {file: results/work-fig.csv, column: value},"
        " expand: {published: published, keys: [name], id: 'm_{name}'}}\n"
    )
    for variant, value in (("default", 0.51), ("toy.b", 0.45)):
        (tmp_path / "v" / variant / "results").mkdir(parents=True)
        (tmp_path / "v" / variant / "results/work-fig.csv").write_text(
            f"name,value,published,data_kind,provenance\nx,{value},0.5,mirror,mirror: toy\n"
        )
    variants = {"toy": {"a": "default", "b": "toy.b"}}
    table = tabulate(load_readings(readings), load_claims(claims), variants, tmp_path / "v")
    assert set(table["claim_id"]) == {"work.fig.family__m_x"}
    assert sorted(table["verdict"]) == ["FAIL", "PASS"]


def test_readings_without_rows_and_outside_their_options_are_named(tmp_path):
    from boostrank.report.readings import outside_options, unmeasured

    table = _toy_table(tmp_path)
    assert unmeasured(table, ["toy", "other"]) == ["other"]
    assert outside_options(table) == []  # option a ran as the run itself ("default")
    apart = table.assign(variant=table["variant"].replace("default", "toy.a"))
    assert outside_options(apart) == ["toy"]
    assert unmeasured(table.iloc[0:0], ["toy"]) == ["toy"]


def test_an_unknown_reading_in_only_is_one_line_with_a_suggestion():
    from boostrank.report.readings import load_readings

    with pytest.raises(BoostrankError, match=r"'ndcg_fromula'.*did you mean 'ndcg_formula'"):
        load_readings(ROOT / "config/readings.yaml", ["ndcg_fromula"])
    assert [r.id for r in load_readings(ROOT / "config/readings.yaml", ["ndcg_formula"])] == [
        "ndcg_formula"
    ]


def _toy_table(tmp_path: Path, reduced=None):
    from boostrank.report.readings import load_readings, tabulate

    tmp_path.mkdir(parents=True, exist_ok=True)
    readings, claims = _toy_readings(tmp_path)
    _toy_results(tmp_path / "v/default", 0.51, 3)  # PASS under the default
    _toy_results(tmp_path / "v/toy.b", 0.45, 3)  # FAIL under b
    variants = {"toy": {"a": "default", "b": "toy.b"}}
    return tabulate(
        load_readings(readings), load_claims(claims), variants, tmp_path / "v", reduced=reduced
    )


def test_the_table_says_reduced_protocol_for_the_claims_of_a_reduced_section(tmp_path):
    from boostrank.report.protocol import Reduction
    from boostrank.report.readings import reduced_protocols

    printed = _toy_table(tmp_path / "printed")
    assert set(printed["protocol"]) == {""} and reduced_protocols(printed) == []
    # A section no figure is mapped to is every claim's; chapter3 is Figure 3.1's only.
    reduced = [Reduction("work.size", 1, 5), Reduction("chapter3.folds", [1], [1, 2, 3, 4, 5])]
    table = _toy_table(tmp_path / "reduced", reduced)
    assert set(table["protocol"]) == {"reduced protocol (work: size)"}
    assert reduced_protocols(table) == ["reduced protocol (work: size)"]


def test_deciding_names_the_default_and_flips_names_the_other_passing_option(tmp_path):
    from boostrank.report.readings import deciding, flips

    table = _toy_table(tmp_path)
    decided = deciding(table)
    assert decided[["claim_id", "pass", "fail", "default"]].values.tolist() == [
        ["work.fig.value", "a", "b", "a"]
    ]
    assert flips(table) == {}  # the default passes: no other option would flip a failure
    swapped = table.copy()  # the default fails, b passes: b would flip the failure
    value = swapped["claim_id"] == "work.fig.value"
    swapped.loc[value, "verdict"] = swapped.loc[value, "verdict"].map(
        {"PASS": "FAIL", "FAIL": "PASS"}
    )
    [flip] = flips(swapped)["work.fig.value"]
    assert (flip.reading, flip.option) == ("toy", "b")
    assert (float(flip.value), float(flip.default_value)) == (0.45, 0.51)  # what each measured
    assert flip.text() == "toy = b gives PASS (value 0.45; 0.51 with the default)"


def test_the_figure_names_the_claims_a_reading_flips_and_says_reduced(tmp_path, monkeypatch):
    from boostrank import plots
    from boostrank.report.protocol import Reduction
    from boostrank.report.readings import draw

    drawn = {}
    monkeypatch.setattr(plots, "save_figure", lambda fig, prefix, lines: drawn.update(fig=fig))
    draw(_toy_table(tmp_path / "p"), tmp_path / "readings", "mirror data")
    ax = drawn["fig"].axes[0]
    assert "reduced protocol" not in ax.get_title()
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["1 of 2 verdicts change\nFAIL here, PASS by default: work.fig.value"]
    (tick,) = ax.get_yticklabels()
    assert tick.get_text() == "toy = b" and tick.get_fontweight() == "bold"
    draw(
        _toy_table(tmp_path / "r", [Reduction("work.size", 1, 5)]),
        tmp_path / "readings",
        "mirror data",
    )
    assert "reduced protocol" in drawn["fig"].axes[0].get_title()


# ------------------------------------------------------------------ two stages
def test_stage_two_takes_the_readings_that_change_a_verdict_or_move_a_claim_half_a_tolerance(
    tmp_path,
):
    from boostrank.report.readings import to_confirm

    table = _toy_table(tmp_path)  # toy = b turns a PASS into a FAIL
    assert to_confirm(table) == ["toy"]
    still = table.assign(verdict=table["default_verdict"])
    small = still.assign(
        shift_in_tolerances=[0.4 if s != "" else "" for s in still["shift_in_tolerances"]]
    )
    assert to_confirm(small) == []  # under half a tolerance, no verdict changed
    large = still.assign(
        shift_in_tolerances=[-0.6 if s != "" else "" for s in still["shift_in_tolerances"]]
    )
    assert to_confirm(large) == ["toy"]


def test_the_confirm_stage_rows_replace_the_screen_rows_of_their_readings(tmp_path):
    import pandas as pd

    from boostrank.report.readings import combined

    screen = _toy_table(tmp_path)
    other = screen.assign(reading="other")
    both = pd.concat([screen, other], ignore_index=True)
    confirm = screen.assign(stage="confirm", protocol="")
    merged = combined(both, confirm)
    assert merged is not None
    assert set(merged.loc[merged["reading"] == "toy", "stage"]) == {"confirm"}
    assert set(merged.loc[merged["reading"] == "other", "stage"]) == {"screen"}
    assert combined(None, None) is None and combined(screen, None) is screen


def test_stage_selection_reads_the_screen_and_says_so_in_one_line(tmp_path, monkeypatch):
    from boostrank.report.stages import stage_selection

    registry = ROOT / "config/readings.yaml"
    config = {"readings_stage": "screen", "readings_only": "", "readings": {"only": None}}
    assert stage_selection(config, registry) == ("screen", None, [])
    assert "readings_stage" not in config and "readings_only" not in config  # not in variants
    chosen = {"readings_stage": "confirm", "readings_only": "ndcg_formula, prank_centre"}
    assert stage_selection(chosen, registry)[:2] == ("confirm", ["ndcg_formula", "prank_centre"])
    with pytest.raises(BoostrankError, match=r"'ndcg_fromula'.*did you mean") as caught:
        stage_selection({"readings_only": "ndcg_fromula"}, registry)
    assert "\n" not in str(caught.value)
    with pytest.raises(BoostrankError, match=r"give one of screen, confirm"):
        stage_selection({"readings_stage": "full"}, registry)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BoostrankError, match=r"results/readings.csv is missing; run make readings"):
        stage_selection({"readings_stage": "confirm"}, registry)
    (tmp_path / "results").mkdir()
    _toy_table(tmp_path / "t").to_csv(tmp_path / "results/readings.csv", index=False)
    assert stage_selection({"readings_stage": "confirm"}, registry) == (
        "confirm",
        ["toy"],
        ["results/readings.csv"],
    )
