"""The registries (config/datasets.yaml, claims.yaml, figures.yaml) and the statements ledger
(config/statements.yaml) against their schemas in workflow/schemas/: the shipped files pass,
and a mistake is one line naming the file, the place and the fix (the workflow checks the
registries at start-up, as it checks the config)."""

from pathlib import Path

import pytest
import yaml

from boostrank.errors import BoostrankError
from boostrank.workflow.config_check import check_registry

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES = [
    ("datasets", "datasets"),
    ("claims", "claims"),
    ("figures", "figures"),
    ("statements", "statements"),
]


@pytest.mark.parametrize(("registry", "schema"), REGISTRIES)
def test_shipped_registries_follow_their_schemas(registry, schema):
    check_registry(
        ROOT / f"config/{registry}.yaml", ROOT / f"workflow/schemas/{schema}.schema.yaml"
    )


def _broken(tmp_path, registry, change):
    data = yaml.safe_load((ROOT / f"config/{registry}.yaml").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / f"{registry}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("registry", "change", "message"),
    [
        ("claims", lambda d: d["claims"][0]["rule"].update(type="abss"),
         r"claims\[0\]\.rule\.type': 'abss' is not allowed \(did you mean 'abs'\?\); "
         r"choose from equal, abs, rel, ordinal"),
        ("claims", lambda d: d["claims"][3].update(statment="x"),
         r"unknown key 'statment' \(did you mean 'statement'\?\) in 'claims\[3\]'"),
        ("claims", lambda d: d["claims"][0].update(diagnosis={"kind": "guess", "note": "x" * 30}),
         r"claims\[0\]\.diagnosis\.kind': 'guess' is not allowed; choose from approximation, "
         r"open, data substitute, reading, erratum"),
        ("claims", lambda d: d["claims"][0].update(diagnosis={"kind": "approximation"}),
         r"claims\[0\]\.diagnosis': 'note' is a required property"),
        ("claims", lambda d: d["claims"][0].update(diagnosis={"kind": "open", "note": "unclear"}),
         r"claims\[0\]\.diagnosis\.note': 'unclear' is too short"),
        ("claims", lambda d: d["claims"][0].update(
            diagnosis={"kind": "open", "note": "no idea why this fails, nothing was tried yet"}),
         r"claims\[0\]\.diagnosis\.note': .* does not match '\[Rr\]uled out'"),
        ("figures", lambda d: d["figures"]["thesis-fig4_2"].update(kind="plot"),
         r"figures\.thesis-fig4_2\.kind': 'plot' is not allowed"),
        ("datasets", lambda d: d["datasets"]["letter"]["loader"].update(format="arff"),
         r"datasets\.letter\.loader\.format': 'arff' is not allowed"),
        ("datasets", lambda d: d["datasets"]["letter"]["files"].update({"x.dat": "abc"}),
         r"datasets\.letter\.files\.x\.dat': 'abc' does not match"),
        ("statements", lambda d: d["statements"][0].update(work="thesys"),
         r"statements\[0\]\.work': 'thesys' is not allowed \(did you mean 'thesis'\?\)"),
        ("statements", lambda d: d["statements"][0].update(unchecked="a claim on x would do"),
         r"statements\[0\]': .* is valid under each of"),
        ("statements", lambda d: d["statements"][0].pop("claims"),
         r"statements\[0\]': .* is not valid under any of the given schemas"),
    ],
)  # fmt: skip
def test_a_mistake_names_the_file_the_place_and_the_fix(tmp_path, registry, change, message):
    path = _broken(tmp_path, registry, change)
    with pytest.raises(BoostrankError, match=message) as caught:
        check_registry(path, ROOT / f"workflow/schemas/{registry}.schema.yaml")
    text = str(caught.value)
    assert str(path) in text and "\n" not in text and f"fix it in {path}" in text


def test_a_checked_registry_is_checked_again_only_once_it_changes(tmp_path, monkeypatch):
    from boostrank.workflow import config_check, stamp_cache

    monkeypatch.setattr(stamp_cache, "_ENTRIES", {})
    monkeypatch.setattr(stamp_cache, "_STATE", {"path": None, "dirty": False})
    monkeypatch.setattr("atexit.register", lambda f: None)  # no write at the test's exit
    stamp_cache.use(tmp_path / "answers.json")
    path = tmp_path / "figures.yaml"
    path.write_bytes((ROOT / "config/figures.yaml").read_bytes())
    schema = ROOT / "workflow/schemas/figures.schema.yaml"
    reads = []
    real_read = config_check.read_yaml
    monkeypatch.setattr(config_check, "read_yaml", lambda p: reads.append(p) or real_read(p))
    check_registry(path, schema)
    assert len(reads) == 2  # the registry and its schema
    check_registry(path, schema)
    assert len(reads) == 2  # unchanged: kept as checked
    _broken(tmp_path, "figures", lambda d: d["figures"]["thesis-fig4_2"].update(kind="x"))
    with pytest.raises(BoostrankError, match="kind': 'x' is not allowed"):
        check_registry(path, schema)


def test_a_diagnosis_that_says_what_was_ruled_out_is_accepted(tmp_path):
    note = "ruled out the tie order and the NDCG formula (both readings leave it failing)"
    path = _broken(
        tmp_path,
        "claims",
        lambda d: d["claims"][0].update(diagnosis={"kind": "open", "note": note}),
    )
    check_registry(path, ROOT / "workflow/schemas/claims.schema.yaml")
