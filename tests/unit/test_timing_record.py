"""The timing record is written per run and atomically: each run keeps its own record, and two
runs ending together (separate targets, side by side in one folder) never break
results/timing.csv or each other's write."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pandas as pd

from boostrank.report.timing import run_record, write_timing, write_whole

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def _run(root: Path, started: float) -> Path | None:
    bench = root / "benchmarks/thesis-fig2_1/a.tsv"
    bench.parent.mkdir(parents=True, exist_ok=True)
    bench.write_text(HEADER + "3.0\t0:00:03\t100\t0\t0\t0\t0\t0\t0\t2.5\n")
    log = root / "snakemake.log"
    log.write_text("1 of 1 steps (100%) done\n")
    return write_timing(root / "results/timing.csv", ["thesis-fig2_1"], root / "benchmarks", {},
                        log_dir=root / "logs", started=started, log_files=str(log),
                        command="-n")  # fmt: skip


def test_each_run_keeps_its_own_record_and_timing_csv_is_the_last(tmp_path):
    first = _run(tmp_path, started=1_700_000_000.0)
    second = _run(tmp_path, started=1_700_000_100.0)
    assert first and second and first != second
    assert first.parent == second.parent == tmp_path / "logs/timing"
    assert first.exists() and second.exists()
    latest = (tmp_path / "results/timing.csv").read_text()
    assert latest == second.read_text()
    assert pd.read_csv(first).set_index("name").loc["thesis-fig2_1", "jobs"] == 1
    # Measurements, not results: no fingerprint, and no temporary file left behind.
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["timing.csv"]
    assert sorted(p.name for p in (tmp_path / "logs/timing").iterdir()) == sorted(
        [first.name, second.name]
    )


def test_a_run_without_jobs_writes_nothing(tmp_path):
    (tmp_path / "snakemake.log").write_text("Nothing to be done.\n")
    log = str(tmp_path / "snakemake.log")
    assert not write_timing(tmp_path / "timing.csv", [], tmp_path, {}, log_dir=tmp_path,
                            started=0.0, log_files=log, command="")  # fmt: skip
    assert not (tmp_path / "timing.csv").exists()


def test_the_record_is_named_by_start_and_process():
    record = run_record("logs", 0.0, pid=42)
    assert record.parent == Path("logs/timing") and record.name.endswith("-42.csv")
    assert run_record("logs", 0.0, pid=42) != run_record("logs", 0.0, pid=43)


def _writer(path: str, text: str, times: int) -> None:
    for _ in range(times):
        write_whole(path, text)


def test_two_runs_writing_at_once_never_break_the_file_or_each_other(tmp_path):
    path = tmp_path / "results/timing.csv"
    texts = ["a,b\n" + "1,2\n" * 2000, "a,b\n" + "3,4\n" * 3000]
    write_whole(path, texts[0])
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_writer, args=(str(path), t, 150)) for t in texts]
    for writer in writers:
        writer.start()
    seen = set()
    while any(w.is_alive() for w in writers):
        seen.add(path.read_text())
    for writer in writers:
        writer.join()
    assert [w.exitcode for w in writers] == [0, 0]  # neither lost its temporary file
    assert seen <= set(texts) and path.read_text() in texts
    assert os.listdir(path.parent) == ["timing.csv"]


def test_record_run_names_the_record_or_says_in_one_line_it_could_not_write_it(
    tmp_path, capsys, monkeypatch
):
    # Snakemake's onsuccess of the main run and of make readings: what the run made is complete
    # either way, so a record that cannot be written (here its folder is a file) is one line.
    from boostrank.report.timing import record_run

    monkeypatch.chdir(tmp_path)  # its own record goes to logs/timing/ of the run's folder
    log = tmp_path / "snakemake.log"
    log.write_text("1 of 1 steps (100%) done\n")
    run = {"started": 0.0, "log_files": str(log), "command": ""}
    (tmp_path / "blocked").write_text("a file where a folder should be")
    record_run(tmp_path / "blocked/timing.csv", [], {}, made="the results are", **run)
    err = capsys.readouterr().err.strip()
    assert err.startswith("boostrank: the timing record was not written (")
    assert "the results are complete" in err and len(err.splitlines()) == 1
    record_run(tmp_path / "timing.csv", [], {}, made="the results are", **run)
    said = capsys.readouterr().err
    assert said.startswith(f"timing record: {tmp_path / 'timing.csv'} (this run's: logs/timing/")
