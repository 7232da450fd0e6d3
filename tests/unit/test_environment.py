"""The pinned environment: requirements.lock (exact versions with hashes, made by `make lock`
from pyproject.toml) covers every dependency pyproject.toml names, within its range, and
environment.yml names exactly the same pins."""

import re
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _lock_pins() -> dict[str, str]:
    text = (ROOT / "requirements.lock").read_text()
    found = re.findall(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s\\]+)", text, re.MULTILINE)
    return {canonicalize_name(name): version for name, version in found}


def test_the_lock_pins_every_dependency_within_its_range_with_hashes():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    pins = _lock_pins()
    for line in wanted:
        req = Requirement(line)
        name = canonicalize_name(req.name)
        assert name in pins, f"requirements.lock lacks {req.name}: run make lock"
        assert req.specifier.contains(pins[name], prereleases=True), (line, pins[name])
    lock = (ROOT / "requirements.lock").read_text()
    blocks = re.split(r"\n(?=[A-Za-z0-9])", lock.strip())
    assert all("--hash=sha256:" in b for b in blocks if "==" in b)  # every pin has a hash


def test_conda_environment_names_the_same_pins():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "python=3.11" in env["dependencies"]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert pip[-1] == "-e ."
    pins = {}
    for line in pip[:-1]:
        name, version = line.split("==")
        pins[canonicalize_name(name)] = version
    assert pins == _lock_pins(), "environment.yml and requirements.lock differ: run make lock"
