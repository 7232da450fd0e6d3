"""The data registry: schema checks, and the project's registry covers every data set."""

import pytest

from boostrank.data import synthetic
from boostrank.data.registry import load_registry
from boostrank.errors import BoostrankError

REQUIRED = {
    "classification": ["letter", "pendigits", "optdigits", "nursery", "isolet", "protein", "mnist"],
    "ranking": [
        "ohsumed",
        "td2003",
        "td2004",
        "hp2003",
        "hp2004",
        "np2003",
        "np2004",
        "mq2007",
        "mq2008",
    ],
    "ratings": ["movielens_100k"],
    "multilabel": ["emotions", "scene", "yeast"],
    "text": ["reuters21578"],
    "reference": ["letor3_baselines"],
}


@pytest.fixture(scope="module")
def registry():
    return load_registry("config/datasets.yaml")


def test_every_data_set_of_the_papers_is_registered_with_its_task(registry):
    for task, names in REQUIRED.items():
        for name in names:
            assert registry[name].task == task, name


def test_entries_are_complete(registry):
    for spec in registry.values():
        assert spec.citation, spec.name
        assert spec.downloads or spec.task == "reference", spec.name  # published values: no URL
        if spec.task not in ("text", "reference"):
            assert spec.loader or spec.embedded, spec.name
            assert spec.synthetic["generator"] in synthetic.GENERATORS, spec.name
        assert spec.published.get("rows"), spec.name


def test_mirrored_data_sets_have_known_hashes(registry):
    for name in ("ohsumed", "nursery", "movielens_100k", "mq2008", "emotions", "scene", "yeast",
                 "letor3_baselines"):  # fmt: skip
        assert all(h != "unknown" for h in registry[name].files.values()), name


def _write(tmp_path, body):
    path = tmp_path / "datasets.yaml"
    path.write_text("datasets:\n  d:\n" + body)
    return path


BASE = "    title: t\n    task: ranking\n    citation: c\n    mirror_folder: f\n"


def test_misspelt_key_is_named(tmp_path):
    path = _write(tmp_path, BASE + "    files: {}\n    loadr: {}\n")
    with pytest.raises(BoostrankError, match=r"unknown key\(s\) \['loadr'\]"):
        load_registry(path)


def test_bad_hash_is_named(tmp_path):
    path = _write(tmp_path, BASE + "    files: {a.txt: 1234}\n")
    with pytest.raises(BoostrankError, match=r"file 'a\.txt' has sha256 '1234'"):
        load_registry(path)


def test_missing_required_key_is_named(tmp_path):
    path = _write(tmp_path, "    title: t\n    task: ranking\n")
    with pytest.raises(BoostrankError, match="lacks required key"):
        load_registry(path)
