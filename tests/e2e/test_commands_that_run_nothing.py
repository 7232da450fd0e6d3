"""Only a real run changes files: commands that run no job leave a tree with hand edits exactly
as it was, and ``-n`` says what a run would do with them.

On a copy of the repository with a tiny results tree, not a finished run (a few files written
as the pipeline writes them; one edited by ``sed``, one edited with its size and times put
back, one printed table without its fingerprint): each command parses the whole workflow, a
few seconds each.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_helpers import copy_repo, run

EDITED = "results/thesis-fig3_1.csv"
SAME_SIZE = "results/chapter5_6/thesis-fig5_1/nursery/perceptron.csv"
UNFINGERPRINTED = "figures/tables/thesis-fig3_1.csv"
UNTOUCHED = "results/datasets.csv"


def _tree(repo: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file of ``repo`` but Snakemake's own records (.snakemake/): bytes, mode, mtime."""
    found = {}
    for folder, subfolders, names in os.walk(repo):
        if Path(folder) == repo:
            subfolders[:] = [d for d in subfolders if d != ".snakemake"]
        for name in names:
            path = Path(folder, name)
            info = path.lstat()
            found[str(path.relative_to(repo))] = (
                path.read_bytes(),
                info.st_mode,
                info.st_mtime_ns,
            )
    return found


def _edited_tree(repo: Path) -> None:
    writer = (
        "from boostrank.io import write_text\n"
        f"write_text({EDITED!r}, 'dataset,ndcg\\ntd2003,0.25\\n')\n"
        f"write_text({SAME_SIZE!r}, 'step,error\\n1,0.25\\n2,0.125\\n')\n"
        f"write_text({UNFINGERPRINTED!r}, 'a,b\\n1,2\\n')\n"
        f"write_text({UNTOUCHED!r}, 'name\\nnursery\\n')\n"
    )
    subprocess.run([sys.executable, "-c", writer], cwd=repo, check=True)
    subprocess.run(["sed", "-i", r"2s/0\./9./", EDITED], cwd=repo, check=True)
    same_size = repo / SAME_SIZE
    times = same_size.stat()
    same_size.write_text("step,error\n1,0.95\n2,0.125\n")
    os.utime(same_size, ns=(times.st_atime_ns, times.st_mtime_ns))  # as touch -r would
    (repo / UNFINGERPRINTED).with_name(f".{Path(UNFINGERPRINTED).name}.fingerprint").unlink(
        missing_ok=True
    )


def _make_list_figures(repo: Path) -> subprocess.CompletedProcess:
    venv = Path(sys.executable).parent.parent  # the running .venv; its install is not redone
    return subprocess.run(
        ["make", "-o", f"{venv}/.boostrank-installed", "list-figures", f"VENV={venv}"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.e2e
def test_commands_that_run_nothing_leave_an_edited_tree_as_it_was(tmp_path):
    repo = copy_repo(tmp_path / "repo")
    _edited_tree(repo)
    before = _tree(repo)
    commands = {
        "-n": ("-n", "figures/thesis-fig3_1.pdf"),
        "--unlock": ("--unlock",),
        "--list-rules": ("--list-rules",),
        "--lint": ("--lint",),
        "--report": ("--report", str(tmp_path / "report.zip")),
    }
    outputs = {}
    for name, args in commands.items():
        proc = run(repo, *args, timeout=300)
        outputs[name] = proc.stdout + proc.stderr
        assert "Traceback" not in outputs[name], (name, outputs[name][-3000:])
        assert _tree(repo) == before, f"snakemake {name} changed files"
    listed = _make_list_figures(repo)
    assert listed.returncode == 0, listed.stdout[-2000:] + listed.stderr[-2000:]
    assert _tree(repo) == before, "make list-figures changed files"

    # A dry run says what a run will do: the edited files and the table without a fingerprint
    # are planned again (with their jobs), the untouched file is not.
    dry = outputs["-n"]
    for edited in (EDITED, SAME_SIZE):
        assert f"{edited} was edited by hand (its content is not what the pipeline wrote)" in dry
    assert f"{UNFINGERPRINTED} was edited by hand (it has no fingerprint)" in dry
    assert UNTOUCHED not in dry
    assert "rule chapter5_perceptron:" in dry and "reason: Forced execution" in dry
