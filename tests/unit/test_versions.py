"""The version markers agree: the package's version is pyproject.toml's (read from the installed
metadata), CITATION.cff cites that version under the licence pyproject.toml declares, and the
workflows' min_version is the lowest Snakemake release the workflow was tested on."""

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
