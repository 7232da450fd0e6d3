"""No configuration value is ever run as shell code: every string-valued config key that reaches
a job's command (run_name; the registry, claims and catalogue files; the data mirror and the
pins file) arrives in the command's arguments exactly as configured.

Each case is one dry run (`snakemake -n -p`, about 5 s) of the small DAG up to the report, with
the values in a config file (and run_name once on the command line, as the issue's commands
give it). A path with braces is refused in one line: Snakemake reads braces as wildcards.
Every printed command then runs in bash with `boostrank` (the shell function every rule calls)
replaced by one that records its arguments: the shell parses exactly the text a real job's
shell would, and nothing else in the command may run. The config's path values name real
files: copies of the registries in a folder named after the value.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from e2e_helpers import TINY_CONFIG, copy_repo, run
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boostrank.data.registry import load_registry

pytestmark = pytest.mark.e2e

MARKER = "PWNED"  # a relative name: created in the working directory of whatever ran it
ATTACKS = [
    f";touch {MARKER};#",
    f"$(touch {MARKER})",
    f"`touch {MARKER}`",
    f"' ; touch {MARKER} ; '",
    f'" ; touch {MARKER} ; "',
    f"\ntouch {MARKER}\n",
    f"&& touch {MARKER}",
    "Alice's run",
    "é € 😀 ünïcødé",
    "$HOME ${HOME} * ? \\ # {braces}",
]
# File names: no "/" or NUL; a letter first (no "." or ".."); short enough for one name.
VALUES = (
    st.lists(
        st.one_of(
            st.sampled_from(ATTACKS),
            st.text(
                st.characters(exclude_categories=("Cs",), exclude_characters="\x00/"),
                max_size=6,
            ),
        ),
        min_size=1,
        max_size=3,
    )
    .map(lambda parts: "x" + "".join(parts))
    .filter(lambda v: len(v.encode()) < 120)
)
_COMMAND = re.compile(r"^Shell command: (.*?) 2> '?[^\s']+'?$", re.M | re.S)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_repo(tmp_path_factory.mktemp("shell-values"))


def _config_with(repo: Path, value: str) -> tuple[Path, dict[str, str]]:
    """A config file setting every string key to ``value`` (the paths: files in a folder named
    ``value``), and the values as the jobs must receive them."""
    folder = repo / "data" / "odd" / value
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name in ("datasets", "claims", "figures"):
        shutil.copy(repo / f"config/{name}.yaml", folder / f"{name}.yaml")
    nursery = load_registry(repo / "config/datasets.yaml")["nursery"].mirror_folder
    (folder / "mirror" / nursery).mkdir(parents=True)
    rel = f"data/odd/{value}"
    values = {
        "run_name": value,
        "registry": f"{rel}/datasets.yaml",
        "claims": f"{rel}/claims.yaml",
        "catalog": f"{rel}/figures.yaml",
        "mirror": f"{rel}/mirror",
        "pins": f"{rel}/registry.lock",
    }
    config = {k: values[k] for k in ("run_name", "registry", "claims", "catalog")}
    config["data"] = {"mirror": values["mirror"], "pins": values["pins"]}
    path = repo / "data" / "odd" / "config.yaml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path, values


def _calls(repo: Path, command: str, scratch: Path) -> list[list[str]]:
    """Run ``command`` in bash with `boostrank` recording its arguments; each call's."""
    record = scratch / "calls"
    record.unlink(missing_ok=True)
    stub = f"boostrank() {{ printf '%s\\0' \"$@\" >> '{record}'; printf '\\1' >> '{record}'; }}"
    done = subprocess.run(
        ["bash", "-c", f"set -euo pipefail; {stub}; {command}"],
        cwd=scratch,
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 0, (command, done.stderr)
    text = record.read_bytes().decode() if record.exists() else ""
    return [call.split("\0")[:-1] for call in text.split("\1")[:-1]]


def _after(call: list[str], option: str) -> str:
    return call[call.index(option) + 1]


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=VALUES, via_cli=st.just(False))
@example(value="Alice's run", via_cli=True)
@example(value=f"demo;touch {MARKER};#", via_cli=True)
@example(value=f"x$(touch {MARKER})`touch {MARKER}`\n' é😀 \"", via_cli=False)
def test_config_strings_reach_the_jobs_intact(repo, tmp_path_factory, value, via_cli):
    config, want = _config_with(repo, value)
    extra = ["--configfile", *TINY_CONFIG[1:], str(config)]
    if via_cli:  # as the commands give it: --config "run_name=Alice's run"
        extra += ["--config", f"run_name={value}"]
    proc = run(repo, "results/report.html", "-n", "-p", *extra, tiny=False, timeout=300)
    out = proc.stdout + proc.stderr
    if "{" in value or "}" in value:  # Snakemake would read them as wildcards of a path
        assert proc.returncode != 0
        assert "does not match '^[^{}]*$'" in out and "Traceback" not in out, out[-3000:]
        return
    assert proc.returncode == 0, out[-3000:]
    commands = [m.group(1) for m in _COMMAND.finditer(proc.stdout)]
    assert len(commands) > 50, out[-3000:]
    scratch = tmp_path_factory.mktemp("scratch")
    calls = [call for command in commands for call in _calls(repo, command, scratch)]
    assert not (repo / MARKER).exists() and not (scratch / MARKER).exists()
    report = next(c for c in calls if c[0] == "report")
    assert f"run={want['run_name']}" in report[report.index("--info") + 1 :]
    assert (_after(report, "--claims"), _after(report, "--catalog")) == (
        want["claims"],
        want["catalog"],
    )
    fetches = [c for c in calls if c[0] == "fetch"]
    assert fetches and all(
        (_after(c, "--registry"), _after(c, "--mirror"), _after(c, "--pins"))
        == (want["registry"], want["mirror"], want["pins"])
        for c in fetches
    )
    prepares = [c for c in calls if c[0] == "prepare"]
    assert prepares and all(_after(c, "--registry") == want["registry"] for c in prepares)


def test_a_target_that_is_shell_code_matches_no_rule(repo):
    proc = run(repo, "-n", f"data/raw/x;touch {MARKER}/provenance.json", timeout=300)
    assert proc.returncode != 0 and "No rule to produce" in proc.stdout + proc.stderr
    assert not (repo / MARKER).exists()


def test_a_data_set_name_that_is_shell_code_is_refused_in_one_line(repo, tmp_path):
    registry = yaml.safe_load((repo / "config/datasets.yaml").read_text())
    registry["datasets"][f"x;touch {MARKER}"] = registry["datasets"]["nursery"]
    path = tmp_path / "datasets.yaml"
    path.write_text(yaml.safe_dump(registry))
    proc = run(repo, "-n", "--config", f"registry={path}", timeout=300)
    assert proc.returncode != 0
    assert f"'x;touch {MARKER}' does not match '^[a-z0-9_]+$'" in proc.stdout + proc.stderr
    assert not (repo / MARKER).exists()
