"""config/readings.yaml: each reading's config key exists, its default is the configured value
and, where the config schema lists the allowed values, its options are exactly those; each
claim pattern matches a claim. A misspelt key stops with one line naming it."""

from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml

from boostrank.config_check import check_registry
from boostrank.errors import BoostrankError
from boostrank.report.claims import load_claims

ROOT = Path(__file__).resolve().parents[1]
READINGS = yaml.safe_load((ROOT / "config/readings.yaml").read_text(encoding="utf-8"))["readings"]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
SCHEMA = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text(encoding="utf-8"))


def config_value(key: str) -> object:
    """The value of a dotted config key; a one-line error naming the missing part."""
    node: object = CONFIG
    for i, part in enumerate(key.split(".")):
        if not isinstance(node, dict) or part not in node:
            raise BoostrankError(
                f"config/readings.yaml names config key '{key}', but config/config.yaml has no "
                f"'{'.'.join(key.split('.')[: i + 1])}'"
            )
        node = node[part]
    return node


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
    assert config_value(reading["config"]) == reading["default"]
    assert reading["default"] in reading["options"]
    allowed = schema_enum(reading["config"])
    if allowed is not None:
        assert set(reading["options"]) == set(allowed) - {None}, allowed


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r["id"])
def test_each_reading_names_claims_that_exist(reading):
    ids = [c.id for c in load_claims(ROOT / "config/claims.yaml")]
    for pattern in reading["claims"]:
        assert any(fnmatch(i, pattern) for i in ids), pattern


def test_a_misspelt_config_key_is_one_clear_line():
    with pytest.raises(BoostrankError, match=r"no 'chapter4.refinment'") as caught:
        config_value("chapter4.refinment.t_scope")
    assert "\n" not in str(caught.value)


def _paths(node: object, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if not isinstance(node, dict):
        return [prefix]
    out = [prefix] if prefix else []
    for key, value in node.items():
        out += _paths(value, (*prefix, str(key)))
    return out


def _readme_option_examples() -> list[tuple[tuple[str, ...], str]]:
    """(config path, value) for every `key: a | b` or `key: a` the README's configuration
    table names, the key resolved under its row's section."""
    import re

    examples = []
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        row = re.match(r"\| `([a-z0-9_]+)\.\*` \|", line)
        if not row:
            continue
        section = row.group(1)
        for key, values in re.findall(r"`([a-z_.A-Z0-9]+): ([^`]+)`", line):
            parts = tuple(key.split("."))
            matches = [p for p in _paths(CONFIG[section], (section,)) if p[-len(parts) :] == parts]
            assert matches, f"README names {section}.*{key}, which config/config.yaml lacks"
            for value in values.split("|"):
                examples.append((matches[0], value.strip()))
    return examples


def test_every_option_the_readme_names_is_accepted_by_the_config_schema():
    """The README once offered on_nonpositive_alpha: skip, which the schema refused."""
    import copy

    from boostrank.config_check import check_config

    examples = _readme_option_examples()
    assert len(examples) >= 10
    for path, text in examples:
        value = yaml.safe_load(text)
        config = copy.deepcopy(CONFIG)
        node = config
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
        check_config(config, ROOT / "workflow/schemas/config.schema.yaml")
