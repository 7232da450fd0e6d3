"""A wrong registry file, a long wrong value and a full disk each stop with one short line, not a
traceback or a whole file."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
import yaml

from boostrank import cli
from boostrank.errors import BoostrankError
from boostrank.workflow.config_check import SHOWN, check_config, check_registry

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "workflow/schemas"


def _config(**changes: object) -> dict:
    """config/config.yaml with ``changes``."""
    return yaml.safe_load((ROOT / "config/config.yaml").read_text()) | changes


def _message(excinfo: pytest.ExceptionInfo[BoostrankError]) -> str:
    message = str(excinfo.value)
    assert "\n" not in message and len(message) < 400, message
    return message


def test_a_text_file_given_as_the_registry_is_named_not_printed(tmp_path):
    passwd = tmp_path / "passwd"
    passwd.write_text("".join(f"user{i}:x:{i}:{i}::/home/user{i}:/bin/sh\n" for i in range(300)))
    with pytest.raises(BoostrankError) as excinfo:
        check_registry(passwd, SCHEMAS / "datasets.schema.yaml")
    message = _message(excinfo)
    assert message.startswith(f"{passwd} is not a registry") and "user299" not in message


def test_a_file_that_is_not_yaml_is_one_line_with_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("datasets: [\n  a,\n b: {\n")
    with pytest.raises(BoostrankError) as excinfo:
        check_registry(bad, SCHEMAS / "datasets.schema.yaml")
    assert "is not valid YAML (line" in _message(excinfo)


def test_a_long_wrong_value_is_quoted_short(tmp_path):
    with pytest.raises(BoostrankError) as excinfo:
        check_config(_config(seed=["y" * 5000]), SCHEMAS / "config.schema.yaml")
    assert len(_message(excinfo)) < 300 + SHOWN


def test_a_section_that_is_not_a_mapping_is_one_schema_line():
    with pytest.raises(BoostrankError) as excinfo:
        check_config(_config(data="notadict"), SCHEMAS / "config.schema.yaml")
    assert "config 'data': 'notadict' is not of type 'object'" in _message(excinfo)


def test_a_path_with_braces_is_refused():
    with pytest.raises(BoostrankError) as excinfo:
        check_config(_config(registry="config/{x}.yaml"), SCHEMAS / "config.schema.yaml")
    assert "config 'registry': 'config/{x}.yaml' does not match" in _message(excinfo)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT])
def test_a_full_disk_is_one_line(monkeypatch, capsys, code):
    def full(args):
        raise OSError(code, "No space left on device", "results/x.csv")

    monkeypatch.setattr(cli, "_cmd_figures", full)
    assert cli.main(["figures"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert err.startswith("boostrank figures: error: no space left writing results/x.csv")


def test_another_os_error_is_not_hidden(monkeypatch):
    def denied(args):
        raise PermissionError(errno.EACCES, "Permission denied", "results/x.csv")

    monkeypatch.setattr(cli, "_cmd_figures", denied)
    with pytest.raises(PermissionError):
        cli.main(["figures"])


@pytest.mark.parametrize("pins", ["/etc/registry.lock", "data/../../registry.lock", "../x.lock"])
def test_a_lock_file_outside_data_is_refused(pins):
    config = _config()
    config["data"] = config["data"] | {"pins": pins}
    with pytest.raises(BoostrankError) as excinfo:
        check_config(config, SCHEMAS / "config.schema.yaml")
    assert "config 'data.pins'" in _message(excinfo) and "under data/" in str(excinfo.value)
