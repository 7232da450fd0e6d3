"""Reduced protocol: a run whose config changes a key the schema marks ``x-kind: printed`` is
labelled, per section, so a quick run never reads as the reproduction's result."""

import copy
from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml

from boostrank.report.protocol import (
    SECTION_FIGURES,
    Reduction,
    label,
    printed_keys,
    reduced_for,
    reductions,
)

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
SCHEMA = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text(encoding="utf-8"))

TOY_SCHEMA = yaml.safe_load(
    """
type: object
properties:
  seed: {type: integer}
  work:
    type: object
    properties:
      folds: {type: array, x-kind: printed}
      mode: {enum: [a, b], x-kind: reading, x-reading: toy}
      threads: {type: integer, x-kind: engineering}
      replicates: {type: integer, default: 1, x-kind: printed}
      method: &method
        type: object
        properties:
          n_iterations: {type: integer, x-kind: printed}
      other_method: *method
"""
)
TOY = {
    "seed": 1,
    "work": {
        "folds": [1, 2, 3],
        "mode": "a",
        "threads": 1,
        "method": {"n_iterations": 100},
        "other_method": {"n_iterations": 100},
    },
}


def _with(config, **changes):
    out = copy.deepcopy(config)
    for key, value in changes.items():
        node = out
        *parents, last = key.split("__")
        for part in parents:
            node = node[part]
        node[last] = value
    return out


def test_printed_keys_are_the_marked_ones_nested_and_shared():
    assert list(printed_keys(TOY_SCHEMA)) == [
        "work.folds",
        "work.replicates",
        "work.method.n_iterations",
        "work.other_method.n_iterations",
    ]


def test_only_a_changed_printed_key_reduces_the_protocol():
    assert reductions(TOY, TOY, TOY_SCHEMA) == []
    # A reading's option, an engineering key or the seed is not a reduction.
    options = _with(TOY, work__mode="b", work__threads=8, seed=2)
    assert reductions(options, TOY, TOY_SCHEMA) == []
    quick = _with(TOY, work__folds=[1], work__method__n_iterations=10)
    assert reductions(quick, TOY, TOY_SCHEMA) == [
        Reduction("work.folds", [1], [1, 2, 3]),
        Reduction("work.method.n_iterations", 10, 100),
    ]


def test_an_absent_key_takes_the_schema_default():
    """Snakemake fills the schema's defaults into the run's config, not into the file."""
    assert reductions(_with(TOY, work__replicates=1), TOY, TOY_SCHEMA) == []
    assert reductions(_with(TOY, work__replicates=5), TOY, TOY_SCHEMA) == [
        Reduction("work.replicates", 5, 1)
    ]


def test_a_claim_is_labelled_only_by_its_own_section_or_an_unmapped_one():
    found = [
        Reduction("chapter3.folds", [1], [1, 2, 3, 4, 5]),
        Reduction("chapter3.replicates", 1, 5),
        Reduction("chapter5.runs", 2, 10),
        Reduction("data.anything", 1, 2),  # a section no figure is mapped to: every claim's
    ]
    assert [r.key for r in reduced_for("thesis-fig3_1", found)] == [
        "chapter3.folds",
        "chapter3.replicates",
        "data.anything",
    ]
    assert [r.key for r in reduced_for("thesis-fig6_2", found)] == [
        "chapter5.runs",
        "data.anything",
    ]
    assert label(reduced_for("thesis-fig3_1", found[:2])) == (
        "reduced protocol (chapter3: folds, replicates)"
    )
    assert label([]) == ""
    many = [Reduction(f"chapter3.k{i}", i, 0) for i in range(5)]
    assert label(many) == "reduced protocol (chapter3: k0, k1, k2 +2 more)"


def test_the_quick_config_is_a_reduced_protocol_and_the_printed_one_is_not():
    from snakemake.utils import update_config  # how Snakemake layers a --configfile

    assert reductions(CONFIG, CONFIG, SCHEMA) == []
    quick = copy.deepcopy(CONFIG)
    update_config(quick, yaml.safe_load((ROOT / "config/quick.yaml").read_text()))
    found = reductions(quick, CONFIG, SCHEMA)
    keys = {r.key for r in found}
    assert {"chapter3.folds", "chapter2.repeats", "qbrank.stages", "prank.fig6.runs"} <= keys
    assert {"chapter3.replicates", "topk.seeds"} <= keys  # fewer random draws (x-size)
    fold = next(r for r in found if r.key == "chapter3.folds")
    assert (fold.run, fold.printed) == ([1], [1, 2, 3, 4, 5])
    # Every experiment section config/quick.yaml shrinks is reduced; its figures say so.
    shrunk = set(yaml.safe_load((ROOT / "config/quick.yaml").read_text())) & set(SECTION_FIGURES)
    assert {r.section for r in found} == shrunk
    assert label(reduced_for("thesis-fig3_1", found)).startswith("reduced protocol (chapter3: ")
    assert reduced_for("thesis-table1_1", found) == []  # the data tables read no section


@pytest.mark.parametrize("section", sorted(SECTION_FIGURES))
def test_each_mapped_section_is_a_config_section_that_makes_figures(section):
    from boostrank.experiments.job import figure_code
    from boostrank.workflow.catalog import load_catalog

    assert section in CONFIG
    catalog = load_catalog(ROOT / "config/figures.yaml", figure_code())
    patterns = SECTION_FIGURES[section].split("|")
    assert any(fnmatch(f, p) for f in catalog for p in patterns), section


def test_each_figure_belongs_to_at_most_one_section():
    from boostrank.experiments.job import figure_code
    from boostrank.workflow.catalog import load_catalog

    for figure in load_catalog(ROOT / "config/figures.yaml", figure_code()):
        owners = [
            s
            for s, patterns in SECTION_FIGURES.items()
            if any(fnmatch(figure, p) for p in patterns.split("|"))
        ]
        assert len(owners) <= 1, (figure, owners)
        assert owners or figure.startswith("thesis-table"), figure
