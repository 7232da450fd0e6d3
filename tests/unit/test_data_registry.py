"""The data registry: schema checks, and the project's registry covers every data set."""

import re

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


ESCAPES = {
    "files key": "    files: {'../../../../probe-escape/evil.data': unknown}\n",
    "optional_files key": "    files: {}\n    optional_files: {/etc/passwd: unknown}\n",
    "mirror_folder": "    files: {}\n",  # with mirror_folder: ../elsewhere (below)
    "loader file": "    files: {}\n    loader: {format: uci_csv, file: ../../x.data}\n",
    "loader fold_test_files": "    files: {}\n    loader: {format: letor, fold_test_files: /F}\n",
    "download strip_prefix": "    files: {}\n    downloads: [{url: u, strip_prefix: ../}]\n",
    "download file": "    files: {}\n    downloads: [{url: 'http://x/y', file: 'a/../../b'}]\n",
    "embedded resource": "    files: {}\n    embedded: {package: p, module: m, resource: ../x}\n",
}


@pytest.mark.parametrize("key", sorted(ESCAPES))
def test_a_registry_path_that_leaves_its_folder_is_one_line_naming_it(tmp_path, key):
    base = (
        BASE.replace("mirror_folder: f", "mirror_folder: ../elsewhere")
        if key == "mirror_folder"
        else BASE
    )
    with pytest.raises(BoostrankError) as error:
        load_registry(_write(tmp_path, base + ESCAPES[key]))
    message = str(error.value)
    assert "\n" not in message and key in message and "relative path inside" in message


def test_a_data_set_name_that_is_not_a_folder_name_is_refused(tmp_path):
    path = tmp_path / "datasets.yaml"
    path.write_text("datasets:\n  ../up:\n" + BASE + "    files: {}\n")
    with pytest.raises(BoostrankError, match=re.escape("data set name '../up' must be lower-case")):
        load_registry(path)


def test_the_project_registry_passes_the_path_checks(registry):
    assert registry  # load_registry checked every path of config/datasets.yaml


def test_a_path_the_registry_accepts_stays_inside_the_folder_it_is_joined_to(tmp_path):
    """Whatever the text, relative_path refuses it or it lands inside its folder."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from boostrank.data.registry import inside, relative_path

    root = tmp_path / "root"
    root.mkdir()
    parts = st.sampled_from(["..", ".", "a", "b.gz", "", "/", "~", "\\", "x/..", "\0"])

    @settings(max_examples=150, deadline=None)
    @given(st.lists(parts | st.text(max_size=4), max_size=6).map("/".join))
    def check(text):
        try:
            accepted = relative_path(text, "key", empty=True)
        except BoostrankError as exc:
            assert "\n" not in str(exc)
            return
        assert inside(root, accepted, "file").is_relative_to(root.resolve())

    check()
