"""The configuration reference: every key of the config schema has a description, and
docs/configuration.md is what ``python -m boostrank config-doc`` writes from the schema and
config/config.yaml now (``make docs-config`` after editing either)."""

import copy
from pathlib import Path

import pytest
import yaml

from boostrank.cli import main
from boostrank.errors import BoostrankError
from boostrank.report.config_doc import config_reference, render, schema_keys, undescribed

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "workflow/schemas/config.schema.yaml"
CONFIG_PATH = ROOT / "config/config.yaml"
DOC = ROOT / "docs/configuration.md"
SCHEMA = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))


def test_every_schema_key_has_a_description():
    assert undescribed(SCHEMA) == [], "give these keys a description: in the config schema"


def test_every_key_of_the_config_is_in_the_reference():
    """Each key config/config.yaml sets (a list of mappings counting as one value) has a row."""

    def leaves(node, path):
        if isinstance(node, dict) and node:
            return [p for k, v in node.items() for p in leaves(v, (*path, str(k)))]
        return [path]

    config = yaml.safe_load(CONFIG_PATH.read_text(encoding="utf-8"))
    doc = DOC.read_text(encoding="utf-8")
    free = {"rows", "seeds_per_dataset", "published_splits", "loops_per_dataset", "budgets_cpu_s"}
    for path in leaves(config, ()):
        while path[-2:-1] and path[-2] in free:  # a mapping of free names: its own row
            path = path[:-1]
        assert f"| `{'.'.join(path)}` |" in doc, ".".join(path)


def test_a_missing_or_empty_description_is_found():
    schema = copy.deepcopy(SCHEMA)
    chapter2 = schema["properties"]["chapter2"]["properties"]
    del chapter2["repeats"]["description"]
    chapter2["parts"]["description"] = "  "
    rows = schema["properties"]["docan_ranking"]["properties"]["ranknet"]["properties"]["rows"]
    del rows["items"]["properties"]["nodes"]["description"]
    assert undescribed(schema) == [
        "chapter2.repeats",
        "chapter2.parts",
        "docan_ranking.ranknet.rows[].nodes",
    ]
    with pytest.raises(BoostrankError, match=r"chapter2\.repeats"):
        render(schema, {})


def test_shared_blocks_are_described_once():
    """YAML anchors: MCSSB's three blocks and the baselines' ``metric`` are one node each."""
    nodes = dict(schema_keys(SCHEMA))
    methods = ("chapter2", "methods")
    assert nodes[(*methods, "mcssb_uniform")] is nodes[(*methods, "mcssb")]
    assert nodes[(*methods, "mcssb_absolute", "weight")] is nodes[(*methods, "mcssb", "weight")]


def test_a_worked_example():
    """Defaults from the config (else the schema's, else a dash), kinds from the nearest mark,
    Markdown-safe descriptions, a sub-section's row without a default."""
    schema = {
        "properties": {
            "seed": {"type": "integer", "description": "the root seed"},
            "sec": {
                "type": "object",
                "description": "a section",
                "properties": {
                    "grid": {
                        "x-kind": "reading",
                        "x-reading": "r1",
                        "description": "a grid",
                        "properties": {"step": {"description": "its step"}},
                    },
                    "cap": {"default": 4, "description": "a | b <file>, x <= 1"},
                    "free": {"x-kind": "engineering", "description": "unset"},
                    "rows": {
                        "x-kind": "printed",
                        "description": "the rows",
                        "items": {"properties": {"n": {"description": "n of a row"}}},
                    },
                },
            },
        }
    }
    config = {"seed": 7, "sec": {"grid": {"step": [1, 2.5]}, "rows": [{"n": 1}, {"n": 2}]}}
    page = render(schema, config)
    assert "| `seed` | `7` | — | the root seed |" in page
    assert "## `sec`\n\na section\n" in page
    assert "| `sec.grid` |  | reading `r1` | a grid |" in page
    assert "| `sec.grid.step` | `[1, 2.5]` | reading `r1` | its step |" in page
    assert "| `sec.cap` | `4` | — | a \\| b &lt;file>, x <= 1 |" in page
    assert "| `sec.free` | — | engineering | unset |" in page
    assert "| `sec.rows` | `2 rows` | printed | the rows |" in page
    assert "| `sec.rows[].n` | per row | printed | n of a row |" in page
    assert "`sec`" not in page.split("## `sec`")[0]  # a section is no top-level key row


def test_the_committed_reference_is_current(tmp_path):
    expected = config_reference(SCHEMA_PATH, CONFIG_PATH)
    assert DOC.read_text(encoding="utf-8") == expected, "run make docs-config and commit it"
    out = tmp_path / "configuration.md"
    argv = ["config-doc", "--schema", str(SCHEMA_PATH), "--config", str(CONFIG_PATH)]
    assert main([*argv, "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == expected
