"""The version markers agree: the package's version is pyproject.toml's (read from the installed
metadata), CITATION.cff cites that version under the licence pyproject.toml declares, the
workflows' min_version is the lowest Snakemake release the workflow was tested on, and the
pre-commit hooks run the commands of `make lint`, at requirements.lock's versions."""

import re
import tomllib
from pathlib import Path

import yaml
from packaging.version import Version

import boostrank
from boostrank.workflow.scheduler_wakes import TESTED_SNAKEMAKE

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_package_version_is_pyproject_s():
    assert boostrank.__version__ == PROJECT["version"]


def test_the_citation_cites_this_version_under_this_licence():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["version"] == PROJECT["version"]
    assert citation["license"] == PROJECT["license"]["text"]
    assert (ROOT / "LICENSE").read_text().startswith(f"{citation['license']} License\n")


def test_min_version_is_the_lowest_tested_snakemake():
    lowest = min(TESTED_SNAKEMAKE, key=Version)
    for workflow in ("Snakefile", "workflow/readings.smk"):
        found = re.findall(r'^min_version\("([^"]+)"\)$', (ROOT / workflow).read_text(), re.M)
        assert found == [lowest], workflow


def test_the_pre_commit_hooks_pin_the_locked_linters():
    locked = dict(
        re.findall(r"^([a-z0-9_.-]+)==(\S+)", (ROOT / "requirements.lock").read_text(), re.M)
    )
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    pins = [dep.split("==") for hook in hooks for dep in hook.get("additional_dependencies", [])]
    assert {name for name, _ in pins} >= {"ruff", "snakefmt"}
    assert {name: locked.get(name) for name, _ in pins} == dict(pins)


def test_the_pre_commit_hooks_run_the_commands_of_make_lint():
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    commands = [line.strip().removeprefix("$(BIN)/") for line in recipe.splitlines()]
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    entries = [
        hook["entry"].removeprefix(".venv/bin/")
        for repo in config["repos"]
        for hook in repo["hooks"]
    ]
    assert len(entries) == len(commands)
    for entry, command in zip(entries, commands, strict=True):
        assert command == entry or command.startswith(entry + " "), (entry, command)
