"""A figure under a reading's option beside the default's (make figure FIG= READING=)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boostrank.errors import BoostrankError
from boostrank.io import read_yaml
from boostrank.report.claims import load_claims
from boostrank.report.readings import load_readings
from boostrank.report.readings_figure import (
    changed_claims,
    draw_side_by_side,
    figure_target,
    moved_figures,
    parse_choice,
)

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "config/readings.yaml"
CONFIG = read_yaml(ROOT / "config/config.yaml")


def test_a_choice_names_the_variant_make_readings_runs():
    reading, variant = parse_choice("chapter3_tie_break=random", REGISTRY, CONFIG)
    assert reading.id == "chapter3_tie_break" and variant == "chapter3_tie_break.random"
    assert figure_target("thesis-fig3_1", variant) == (
        "figures/readings/thesis-fig3_1__chapter3_tie_break.random.png"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chapter3_tie_break", r"give <reading>=<option>"),
        ("chapter3_tie_brake=random", r"'chapter3_tie_brake'.*did you mean"),
        ("chapter3_tie_break=randon", r"has no option 'randon'.*did you mean 'random'"),
        ("chapter3_tie_break=file_order", r"is the configured option"),
    ],
)
def test_a_bad_choice_is_one_line(text, message):
    with pytest.raises(BoostrankError, match=message) as caught:
        parse_choice(text, REGISTRY, CONFIG)
    assert "\n" not in str(caught.value)


def test_the_figures_a_reading_moves_are_those_of_its_claims():
    (reading,) = load_readings(REGISTRY, ["prank_centre"])
    claims = load_claims(ROOT / "config/claims.yaml")
    assert moved_figures(reading, claims, {"prank-fig7", "prank-fig6", "thesis-fig3_1"}) == [
        "prank-fig7"
    ]


def _results(root: Path, value: float) -> None:
    (root / "results").mkdir(parents=True)
    (root / "results/work-fig.csv").write_text(
        f"name,value,data_kind,provenance\nx,{value},mirror,mirror: toy\n"
    )


def test_the_claims_whose_verdict_the_option_changes_are_listed(tmp_path):
    claims_file = tmp_path / "claims.yaml"
    claims_file.write_text(
        "claims:\n"
        "  - {id: work.fig.value, source: s, statement: s, published: 0.50,"
        " rule: {type: abs, tol: 0.02},"
        " reproduce: {file: results/work-fig.csv, row: {name: x}, column: value}}\n"
    )
    _results(tmp_path / "default", 0.51)
    _results(tmp_path / "toy.b", 0.45)
    _results(tmp_path / "toy.c", 0.505)
    claims = load_claims(claims_file)
    roots = (tmp_path / "default", tmp_path / "toy.b")
    assert changed_claims(claims, "work-fig", roots) == ["work.fig.value: PASS -> FAIL"]
    assert changed_claims(claims, "work-fig", (roots[0], tmp_path / "toy.c")) == []


def test_the_two_panels_are_drawn_side_by_side(tmp_path):
    from boostrank.plots import pyplot

    plt = pyplot()
    pngs = []
    for name, colour in (("a", "red"), ("b", "blue")):
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.plot([0, 1], [0, 1], color=colour)
        pngs.append(tmp_path / f"{name}.png")
        fig.savefig(pngs[-1])
        plt.close(fig)
    draw_side_by_side(
        (pngs[0], pngs[1]), ("default", "toy = b"), ["c: PASS -> FAIL"], tmp_path / "s"
    )
    image = plt.imread(tmp_path / "s.png")
    assert image.shape[1] > 1.5 * image.shape[0]  # two panels across
    assert (tmp_path / "s.pdf").stat().st_size > 0
