"""Every key of the experiment sections, those config/config.yaml sets and those of the
config schema it leaves at the class's own default, is marked in the config schema as printed
(the text prints it: ``x-where``), a reading (``x-reading``: its id in config/readings.yaml,
whose keys or ``covers`` name it) or engineering (``x-why``: cannot move a published number
beyond float rounding, or only picks which random draws are made). A key that moves a number
and is in none of these is a missing reading: this test fails on it."""

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
SCHEMA = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text(encoding="utf-8"))
READINGS = {
    r["id"]: r
    for r in yaml.safe_load((ROOT / "config/readings.yaml").read_text(encoding="utf-8"))["readings"]
}
SECTIONS = ("letor", "chapter2", "chapter3", "chapter4", "chapter5", "topk", "qbrank", "prank",
            "docan_reuters", "docan_ranking")  # fmt: skip
KINDS = {"printed": "x-where", "reading": "x-reading", "engineering": "x-why"}


def leaves(node: object, path: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The dotted paths of a config's values (a list or an empty mapping is one value)."""
    if isinstance(node, dict) and node:
        return [p for key, value in node.items() for p in leaves(value, (*path, str(key)))]
    return [path]


def mark(path: tuple[str, ...]) -> tuple[str, dict] | None:
    """The nearest marked schema node on ``path`` (the key itself, else its nearest parent):
    (its dotted path, the node)."""
    node, found = SCHEMA, None
    for i, part in enumerate(path):
        props = node.get("properties", {})
        if part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            raise AssertionError(f"{'.'.join(path)} is not in the config schema")
        if i and "x-kind" in node:  # a section's own mark would cover everything
            found = (".".join(path[: i + 1]), node)
    return found


def schema_leaves(node: dict, path: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The dotted paths of a schema's leaf keys, through ``properties`` and through an
    ``additionalProperties`` schema (its key written ``*``)."""
    found = [p for key, child in node.get("properties", {}).items()
             for p in schema_leaves(child, (*path, key))]  # fmt: skip
    if isinstance(node.get("additionalProperties"), dict):
        found += schema_leaves(node["additionalProperties"], (*path, "*"))
    return found or [path]


KEYS = [p for section in SECTIONS for p in leaves(CONFIG[section], (section,))]
SCHEMA_KEYS = [
    p
    for section in SECTIONS
    for p in schema_leaves(SCHEMA["properties"][section], (section,))
    if p not in KEYS
]


@pytest.mark.parametrize("path", KEYS + SCHEMA_KEYS, ids=".".join)
def test_every_experiment_key_is_printed_a_reading_or_engineering(path):
    found = mark(path)
    assert found, f"{'.'.join(path)}: mark it x-kind printed, reading or engineering"
    where, node = found
    kind = node["x-kind"]
    assert kind in KINDS, (where, kind)
    detail = node.get(KINDS[kind])
    assert detail and len(str(detail)) >= 5, f"{where}: x-kind {kind} needs {KINDS[kind]}"
    if kind == "reading":
        reading = READINGS.get(detail)
        assert reading, f"{where}: x-reading {detail} is not in config/readings.yaml"
        keys = [reading["config"]] if isinstance(reading["config"], str) else reading["config"]
        named = set(keys) | set(reading.get("covers", []))
        assert ".".join(path) in named or where in named, (
            f"{'.'.join(path)} is marked reading {detail}, which neither switches nor covers it"
        )


@pytest.mark.parametrize("reading", READINGS.values(), ids=lambda r: r["id"])
def test_every_key_a_reading_names_is_marked_with_it(reading):
    keys = [reading["config"]] if isinstance(reading["config"], str) else reading["config"]
    for key in [*keys, *reading.get("covers", [])]:
        found = mark(tuple(key.split(".")))
        assert found and found[1].get("x-reading") == reading["id"], (key, found)


def test_a_schema_key_the_config_leaves_unset_is_checked():
    """A key at the class's own default is walked too, also below ``additionalProperties``."""
    assert ("chapter3", "algorithms", "ndcg_boost", "block") in SCHEMA_KEYS
    assert ("chapter3", "algorithms", "ndcg_boost", "block") not in KEYS
    assert schema_leaves({"additionalProperties": {"properties": {"a": {}}}}, ("s",)) == [
        ("s", "*", "a")
    ]


def test_an_unmarked_key_is_found():
    """The check itself can fail: a schema node without a mark is reported."""
    node = SCHEMA["properties"]["chapter2"]["properties"]["repeats"]
    kind = node.pop("x-kind")
    try:
        assert mark(("chapter2", "repeats")) is None
    finally:
        node["x-kind"] = kind
