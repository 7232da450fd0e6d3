"""A ``boostrank job`` rule's spec is a params entry Snakemake records, so a configuration
change that reaches only the spec reruns the job (boostrank.workflow.spec_params)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from snakemake.rules import Rule

from boostrank.workflow.spec_params import spec_param

SNAKEFILE = """\
import json
from boostrank.workflow.spec_params import spec_param


class Spec:
    def __init__(self, value, out):
        self.value, self.out = value, out

    def to_json(self):
        return json.dumps({"value": self.value, "out": self.out}, sort_keys=True)


def build(config, wildcards, input, output):
    return Spec(config["value"], output[0])


rule job:
    input:
        "in.txt",
    output:
        "out.txt",
    params:
        spec=spec_param(config, build, {}),
    shell:
        "printf '%s' {params.spec:q} > {output}"
"""


class _Spec:
    def __init__(self, text: str) -> None:
        self.text = text

    def to_json(self) -> str:
        return self.text


def test_the_spec_function_is_not_one_snakemake_reads_as_derived_from_the_files() -> None:
    def build(config, wildcards, input, output, n):
        return _Spec(f"{config['k']} {input[0]} {output[0]} {n}")

    spec = spec_param({"k": "v"}, build, {"n": lambda w: 3})
    assert not Rule._is_deriving_function(spec)  # else Snakemake would not record it
    assert spec({}, input=["a"], output=["b"], threads=1) == "v a b 3"


def _run(folder: Path, value: str) -> str:
    command = [sys.executable, "-m", "snakemake", "--cores", "1", "--config", f"value={value}"]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True)
    return done.stdout + done.stderr


@pytest.mark.e2e
def test_a_configuration_change_that_reaches_only_the_spec_reruns_the_job(tmp_path) -> None:
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    (tmp_path / "in.txt").write_text("x")
    _run(tmp_path, "a")
    assert json.loads((tmp_path / "out.txt").read_text())["value"] == "a"
    assert "Nothing to be done" in _run(tmp_path, "a")
    _run(tmp_path, "b")  # the input, the code and the shell line are unchanged
    assert json.loads((tmp_path / "out.txt").read_text())["value"] == "b"
