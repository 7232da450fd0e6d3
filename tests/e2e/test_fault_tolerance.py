"""Fault tolerance and bad input: each test fails if the behaviour regresses.

- a run killed with SIGKILL part-way resumes (after ``--unlock``: Snakemake's lock survives a
  kill -9) and ends with the same results as an uninterrupted run; no half-written output is
  ever left at an output path;
- -j1 and -j2 give byte-identical results CSVs;
- a corrupted mirror file stops the fetch with a checksum error naming it; nothing is cached;
- a malformed LETOR line, an ARFF with a missing attribute, a wrong config key, an unknown data
  set or figure: one error line naming the file and line (or the key) and the fix; no traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from e2e_helpers import (
    ROOT,
    TINY_TARGETS,
    assert_same_csvs,
    clone_run,
    copy_repo,
    dry_run_jobs,
    result_csvs,
    run,
    run_ok,
    snakemake_cmd,
    snakemake_env,
)

from boostrank.data.provenance import Provenance


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "boostrank", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_error_line(stderr: str, command: str) -> str:
    """The CLI's single error line; no traceback."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith(f"boostrank {command}:")]
    assert len(errors) == 1, stderr
    return errors[0]


def _complete(path: Path) -> bool:
    """Whether an output file is whole (parses / ends with its format's trailer)."""
    data = path.read_bytes()
    if path.suffix == ".png":
        return data.startswith(b"\x89PNG") and data.endswith(b"IEND\xaeB`\x82")
    if path.suffix == ".pdf":
        return data.rstrip().endswith(b"%%EOF")
    if path.suffix == ".csv":
        pd.read_csv(path)
        return True
    if path.suffix == ".json":
        json.loads(data)
        return True
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as npz:
            for name in npz.files:
                npz[name]
        return True
    return True


# --------------------------------------------------------------------------- whole runs


@pytest.mark.e2e
def test_j1_and_j2_give_byte_identical_results(tiny_reference, tmp_path):
    repo = copy_repo(tmp_path)
    run_ok(repo, "-j1", *TINY_TARGETS)
    assert_same_csvs(repo, tiny_reference)


def _start_run(repo: Path, log, jobs: str) -> subprocess.Popen:
    """The tiny targets' run in the background, logging to ``log``, in its own process group
    (so that a signal to the group takes its jobs with it)."""
    return subprocess.Popen(
        snakemake_cmd(jobs, *TINY_TARGETS),
        cwd=repo,
        env=snakemake_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@pytest.mark.e2e
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])  # SIGTERM: SLURM's pre-emption
def test_a_run_stopped_part_way_resumes_with_identical_outputs(tiny_reference, tmp_path, sig):
    """Killed (``kill -9``) or stopped as SLURM stops a job (SIGTERM) part-way, a run leaves no
    half-written output; the rerun redoes only the unfinished jobs and ends with the outputs of
    an uninterrupted run."""
    repo = copy_repo(tmp_path)
    runs = repo / "results/runs/thesis-fig3_1"
    deadline = time.monotonic() + 600
    with open(tmp_path / "stopped.log", "w") as log:
        proc = _start_run(repo, log, "-j2")
        try:
            # Part-way: once the first training jobs have finished, while others are running.
            while len(list(runs.glob("*/*/r*/fold*.run"))) < 2 and time.monotonic() < deadline:
                assert proc.poll() is None, (tmp_path / "stopped.log").read_text()[-3000:]
                time.sleep(0.05)
        finally:
            os.killpg(proc.pid, sig)
            proc.wait(timeout=120)
    assert not (repo / "figures/thesis-fig3_1.pdf").exists(), "the run finished before the stop"

    outputs = [
        p
        for folder in ("results", "figures", "data/processed")
        for p in (repo / folder).rglob("*")
        if p.is_file() and not p.name.endswith(".part")
    ]
    broken = [str(p) for p in outputs if not _complete(p)]
    assert not broken, broken

    if sig == signal.SIGKILL:
        # Snakemake's lock outlives a kill -9: the run says so, and --unlock clears it.
        locked = run(repo, "-j2", *TINY_TARGETS)
        if locked.returncode != 0:
            assert "--unlock" in locked.stdout + locked.stderr
            run_ok(repo, "--unlock")
    # Only the unfinished jobs are planned again: the finished ones are kept.
    left = len(dry_run_jobs(repo, *TINY_TARGETS))
    whole = len(dry_run_jobs(copy_repo(tmp_path / "fresh"), *TINY_TARGETS))
    assert 0 < left < whole, (left, whole)
    out = run_ok(repo, "-j2", *TINY_TARGETS)
    assert "Nothing to be done" not in out
    assert_same_csvs(repo, tiny_reference)
    leftovers = [str(p) for p in (repo / "results").rglob("*.part")]
    leftovers += [str(p) for p in (repo / "figures").rglob("*.part")]
    assert not leftovers, leftovers
    assert "Nothing to be done" in run_ok(repo, "-n", *TINY_TARGETS)


@pytest.mark.e2e
def test_a_results_file_edited_by_hand_is_recomputed(tiny_reference, tmp_path):
    """The report sees the pipeline's numbers, not a hand edit: a real run keeps each edited file
    aside as ``<name>.edited`` and runs its job again, whatever its targets; an edit of the same
    size with its times put back (``touch -r``) is no exception, nor is a printed table."""
    repo = clone_run(tiny_reference, tmp_path / "run")
    catalog = yaml.safe_load((repo / "config/figures.yaml").read_text())
    catalog["figures"] = {k: catalog["figures"][k] for k in ("thesis-fig3_1", "thesis-fig5_1")}
    (repo / "tiny_figures.yaml").write_text(yaml.safe_dump(catalog))
    tiny = repo / "tests/config/tiny.yaml"  # this copy's: a report of the two figures only
    tiny_config = yaml.safe_load(tiny.read_text())
    tiny_config |= {"catalog": "tiny_figures.yaml", "data": {"inventory": ["td2003", "nursery"]}}
    tiny.write_text(yaml.safe_dump(tiny_config))

    edited = repo / "results/chapter5_6/thesis-fig5_1/nursery/perceptron.csv"
    original = edited.read_bytes()
    header, first, *rest = original.decode().splitlines(keepends=True)
    edited.write_text(header + first.replace("0.", "0.9", 1) + "".join(rest))
    assert edited.read_bytes() != original
    table = repo / "figures/tables/thesis-fig3_1.md"
    table_original, times = table.read_bytes(), table.stat()
    digit = next(i for i, c in enumerate(table_original) if chr(c).isdigit())
    swapped = b"1" if table_original[digit : digit + 1] != b"1" else b"2"
    table.write_bytes(table_original[:digit] + swapped + table_original[digit + 1 :])
    os.utime(table, ns=(times.st_atime_ns, times.st_mtime_ns))  # as touch -r would

    out = run_ok(repo, "-j2", *TINY_TARGETS)  # no report
    rel = str(edited.relative_to(repo))
    assert f"{rel} was edited by hand: kept as perceptron.csv.edited" in out, out[-3000:]
    assert "figures/tables/thesis-fig3_1.md was edited by hand: kept as" in out, out[-3000:]
    assert "rule chapter5_perceptron:" in out, out[-3000:]
    assert edited.read_bytes() == original and table.read_bytes() == table_original
    assert edited.with_name(edited.name + ".edited").read_bytes() != original
    assert table.with_name(table.name + ".edited").read_bytes() != table_original
    run_ok(repo, "-j2")  # the default target: the claims and the report
    got, want = result_csvs(repo), result_csvs(tiny_reference)
    assert set(got) - set(want) == {"results/claims.csv", "results/datasets.csv"}
    assert [name for name in want if got[name] != want[name]] == []
    assert "Nothing to be done" in run_ok(repo, "-n")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])  # SIGTERM: SLURM's pre-emption
def test_an_interrupted_writer_leaves_no_half_written_file(tmp_path, sig):
    target = tmp_path / "out" / "table.csv"
    target.parent.mkdir()
    target.write_text("a,b\n1,2\n")
    writer = textwrap.dedent(
        f"""
        import sys, time
        from boostrank.io import atomic_open
        with atomic_open({str(target)!r}) as handle:
            handle.write("a,b\\n" + "3,4\\n" * 100000)
            handle.flush()
            print("writing", flush=True)
            time.sleep(60)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    proc.send_signal(sig)
    proc.wait()
    assert target.read_text() == "a,b\n1,2\n"  # the old content, whole
    stale = list(target.parent.glob(".table.csv.*.part"))
    assert len(stale) == 1 and stale[0].stat().st_size > 100000
    from boostrank.io import write_text

    write_text(target, "a,b\n5,6\n")  # the next writer clears the killed one's temp file
    assert sorted(p.name for p in target.parent.iterdir()) == ["table.csv"]


@pytest.mark.parametrize("writer", ["text", "npz"])
def test_a_full_disk_leaves_the_old_output_whole_and_no_temp_file(tmp_path, monkeypatch, writer):
    """A write that fails with ENOSPC (injected) must not leave a half-written output that a
    rerun would take as done: the old file stays whole, the temp file goes, the error shows."""
    import errno

    from boostrank import io as bio

    target = tmp_path / ("table.csv" if writer == "text" else "arrays.npz")
    target.write_bytes(b"old\n")
    real_open = bio.atomic_open

    class FullDisk:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.handle, name)

    import contextlib

    @contextlib.contextmanager
    def full_disk_open(path, mode="w", **kwargs):
        with real_open(path, mode, **kwargs) as handle:
            yield FullDisk(handle)

    monkeypatch.setattr(bio, "atomic_open", full_disk_open)
    with pytest.raises(OSError, match="No space left"):
        if writer == "text":
            bio.write_text(target, "a,b\n" * 1000)
        else:
            bio.save_npz(target, x=np.arange(1000))
    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


@pytest.mark.e2e
def test_a_second_run_in_the_same_directory_stops_with_the_lock_message(tmp_path):
    """Two runs at once would write the same outputs: Snakemake's lock stops the second
    (the README says what to do)."""
    repo = copy_repo(tmp_path)
    with open(tmp_path / "first.log", "w") as log:
        first = _start_run(repo, log, "-j1")
        try:
            deadline = time.monotonic() + 300
            locks = repo / ".snakemake" / "locks"
            while not (locks.is_dir() and any(locks.iterdir())):
                assert first.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            second = run(repo, "-j1", *TINY_TARGETS)
        finally:
            os.killpg(first.pid, signal.SIGTERM)
            first.wait()
    assert second.returncode != 0
    assert "LockException" in second.stdout + second.stderr or "cannot be locked" in (
        second.stdout + second.stderr
    )


def test_atomic_outputs_get_the_mode_a_plain_open_would_give(tmp_path):
    """mkstemp's private 0600 must not reach the outputs: collaborators on a shared file
    system read the figures and results."""
    import os

    from boostrank.io import write_text

    old = os.umask(0o022)
    try:
        write_text(tmp_path / "r.csv", "a\n")
        (tmp_path / "plain.csv").write_text("a\n")
    finally:
        os.umask(old)
    assert (tmp_path / "r.csv").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "r.csv").stat().st_mode == (tmp_path / "plain.csv").stat().st_mode


# --------------------------------------------------------------------------- bad input


def test_corrupted_mirror_file_names_it_and_caches_nothing(tmp_path):
    mirror = tmp_path / "mirror"
    folder = mirror / "mulan_multilabel" / "emotions"
    folder.mkdir(parents=True)
    for name in ("emotions.arff", "emotions.xml", "emotions-train.arff", "emotions-test.arff"):
        (folder / name).write_text("@relation corrupted\n")
    raw = tmp_path / "data" / "raw"
    proc = _cli("fetch", "emotions", "--raw-dir", str(raw / "emotions"), "--mirror", str(mirror))
    assert proc.returncode == 1
    line = _one_error_line(proc.stderr, "fetch")
    assert "checksum mismatch" in line and "emotions/emotions" in line
    assert "nothing was cached" in proc.stderr and "Replace the file" in proc.stderr
    assert not raw.exists() or list(raw.iterdir()) == []  # no data set, no staging folder


def _raw_dir(tmp_path: Path, dataset: str, files: dict[str, str]) -> Path:
    raw = tmp_path / "raw" / dataset
    for name, text in files.items():
        (raw / name).parent.mkdir(parents=True, exist_ok=True)
        (raw / name).write_text(text)
    Provenance(dataset=dataset, kind="mirror", location=str(raw)).save(raw / "provenance.json")
    return raw


def _prepare(tmp_path: Path, dataset: str, raw: Path) -> tuple[subprocess.CompletedProcess, Path]:
    npz = tmp_path / "processed" / f"{dataset}.npz"
    proc = _cli(
        "prepare", dataset, "--raw-dir", str(raw), "--npz", str(npz),
        "--meta", str(npz.with_suffix(".json")), "--seed", "1",
    )  # fmt: skip
    return proc, npz


def test_malformed_letor_line_names_file_and_line(tmp_path):
    good = "2 qid:1 1:0.5 2:0.25 #docid = G01\n0 qid:1 1:0.1 2:NULL #docid = G02\n"
    test_file = "QueryLevelNorm/2003_td_dataset/Fold1/test.txt"
    raw = _raw_dir(tmp_path, "td2003", {test_file: good + "1 qid:2 1:0.3 2:zero\n"})
    proc, npz = _prepare(tmp_path, "td2003", raw)
    assert proc.returncode == 1
    line = _one_error_line(proc.stderr, "prepare")
    assert f"{test_file}, line 3:" in line and "'zero'" in line
    assert "fix or replace that file" in line and str(raw) in line
    assert not npz.exists()


ARFF_HEADER = """@relation emotions
@attribute mean1 numeric
@attribute mean2 numeric
@attribute amazed {0,1}
@attribute happy {0,1}
@data
"""
LABELS_XML = """<?xml version="1.0" encoding="utf-8"?>
<labels xmlns="http://mulan.sourceforge.net/labels">
<label name="amazed"></label><label name="happy"></label>
</labels>
"""


@pytest.mark.parametrize(
    ("arff", "where", "what"),
    [
        # a data row lacks one attribute's value
        (
            ARFF_HEADER + "0.1,0.2,0,1\n0.3,1,0\n",
            "line 8:",
            "expected 4 ','-separated fields, found 3",
        ),
        # the header lacks an attribute the label file names
        (ARFF_HEADER.replace("@attribute happy {0,1}\n", "") + "0.1,0.2,0\n", "line 5:", "happy"),
    ],
)
def test_arff_with_a_missing_attribute_names_file_and_line(tmp_path, arff, where, what):
    files = {"emotions/emotions.arff": arff, "emotions/emotions.xml": LABELS_XML}
    proc, npz = _prepare(tmp_path, "emotions", _raw_dir(tmp_path, "emotions", files))
    assert proc.returncode == 1
    line = _one_error_line(proc.stderr, "prepare")
    assert f"emotions.arff, {where}" in line and what in line
    assert not npz.exists()


@pytest.fixture(scope="module")
def plain_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_repo(tmp_path_factory.mktemp("config_errors"))


CONFIG_MISTAKES = [
    ("seeed: 1\n", "unknown key 'seeed' (did you mean 'seed'?) at the top level", "spelling"),
    (
        "chapter3:\n  dataset: [td2003]\n",
        "unknown key 'dataset' (did you mean 'datasets'?) in 'chapter3'",
        "--config",
    ),
    ("seed: many\n", "'many' is not of type 'integer'", "--configfile"),
    (
        "chapter3:\n  datasets: [td2033]\n",
        "'td2033' is not allowed (did you mean 'td2003'?); choose from",
        "ohsumed",
    ),
]


@pytest.mark.parametrize(("config", "expected", "fix"), CONFIG_MISTAKES)
def test_config_check_names_the_key_and_the_fix(config, expected, fix):
    from snakemake.utils import update_config

    from boostrank.errors import BoostrankError
    from boostrank.workflow.config_check import check_config

    merged = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    update_config(merged, yaml.safe_load(config))
    with pytest.raises(BoostrankError) as info:
        check_config(merged, ROOT / "workflow/schemas/config.schema.yaml")
    message = str(info.value)
    assert "\n" not in message and expected in message and fix in message
    assert "fix it in config/config.yaml or in the --configfile / --config" in message


@pytest.mark.parametrize(
    ("config", "expected", "fix"),
    [
        CONFIG_MISTAKES[1],
        ("data:\n  inventory: [letter, bogus]\n", "unknown data set(s) 'bogus'", "use one of"),
        ("data:\n  inventory: [pendigts]\n", "'pendigts' (did you mean 'pendigits'?)", "one of"),
    ],
)
def test_snakemake_stops_on_a_config_mistake_with_one_line(
    plain_copy, tmp_path, config, expected, fix
):
    (tmp_path / "my.yaml").write_text(config)
    proc = run(plain_copy, "-n", "--configfile", str(tmp_path / "my.yaml"), tiny=False)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out and "Failed validating" not in out, out
    assert len(out.splitlines()) < 15, out  # no wall of schema or traceback
    lines = [line for line in out.splitlines() if expected in line]
    assert len(lines) == 1 and fix in lines[0], out


def test_unknown_data_set_in_the_registry_lookup_is_one_line(tmp_path):
    proc = _cli("fetch", "ohsumd", "--raw-dir", str(tmp_path / "x"))
    assert proc.returncode == 1
    assert "unknown data set 'ohsumd' (did you mean 'ohsumed'?)" in _one_error_line(
        proc.stderr, "fetch"
    )


def test_unknown_figure_is_one_line_listing_the_ids(tmp_path):
    proc = _cli("figures", "thesis-fig9_9")
    assert proc.returncode == 1
    line = _one_error_line(proc.stderr, "figures")
    assert "unknown figure or table 'thesis-fig9_9'" in line and "thesis-fig3_1" in line
    make = subprocess.run(
        ["make", "--no-print-directory", "figure", "FIG=thesis-fig9_9"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert make.returncode != 0 and "unknown figure or table 'thesis-fig9_9'" in make.stderr
    near = _one_error_line(_cli("figures", "thesis-fig3.1").stderr, "figures")
    assert "'thesis-fig3.1' (did you mean 'thesis-fig3_1'?)" in near


def test_numbers_nested_in_config_on_the_command_line_are_numbers():
    """`--config 'chapter5={"runs": 2}'` reaches the workflow as {"runs": "2"}; it used to fail
    with "'2' is not of type 'integer'". Strings the schema wants as numbers are converted;
    words stay words and still fail."""
    from snakemake.utils import update_config

    from boostrank.errors import BoostrankError
    from boostrank.workflow.config_check import check_config

    merged = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    nested = {"runs": "2", "eta_factor": "1e-5", "max_trials": "null", "gammas": ["0.1", "0.2"]}
    update_config(merged, {"chapter5": nested, "strict": "true"})
    check_config(merged, ROOT / "workflow/schemas/config.schema.yaml")
    c5 = merged["chapter5"]
    assert (c5["runs"], c5["eta_factor"], c5["max_trials"]) == (2, 1e-5, None)
    assert c5["gammas"] == [0.1, 0.2] and merged["strict"] is True
    update_config(merged, {"chapter5": {"runs": "two"}})
    with pytest.raises(BoostrankError, match="'two' is not of type 'integer'"):
        check_config(merged, ROOT / "workflow/schemas/config.schema.yaml")
