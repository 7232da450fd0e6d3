"""The timing record's parts: which budget a figure falls under, how many jobs a log ran, and
the per-figure sums of benchmark files."""

from pathlib import Path

import pytest

from boostrank.report.timing import budget_of, family_timing, figure_timing, jobs_done

BUDGETS = {"data|thesis-table1_*": 120, "thesis-fig2_*": 400, "topk-*": 350}


@pytest.mark.parametrize(
    ("name", "family", "seconds"),
    [
        ("thesis-fig2_3", "thesis-fig2_*", 400.0),
        ("data", "data|thesis-table1_*", 120.0),
        ("thesis-table1_2", "data|thesis-table1_*", 120.0),
        ("thesis-fig3_1", "", None),
    ],
)
def test_a_figure_falls_under_the_first_matching_budget(name, family, seconds):
    assert budget_of(name, BUDGETS) == (family, seconds)


def test_jobs_done_reads_the_last_progress_line():
    log = "1 of 3 steps (33%) done\n...\n3 of 3 steps (100%) done\n"
    assert jobs_done(log) == 3
    assert jobs_done("Nothing to be done (all requested files are present and up to date).") == 0


def _bench(path: Path, wall: float, cpu: float, rss: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
    path.write_text(header + f"{wall}\t0:00:01\t{rss}\t0\t0\t0\t0\t0\t0\t{cpu}\n")


def test_figure_rows_sum_their_own_jobs_and_data_counts_once(tmp_path):
    _bench(tmp_path / "thesis-fig2_1/a/b.tsv", 10.0, 8.0, 100.0)
    _bench(tmp_path / "thesis-fig2_1/c.tsv", 5.0, 4.5, 300.0)
    _bench(tmp_path / "thesis-fig2_2/d.tsv", 2.0, 1.0, 50.0)
    _bench(tmp_path / "data/fetch-x.tsv", 1.0, 0.5, 20.0)
    rows = figure_timing(["thesis-fig2_1", "thesis-fig2_2", "topk-fig2"], tmp_path, BUDGETS)
    rows = rows.set_index("name")
    assert rows.loc["thesis-fig2_1", ["jobs", "cpu_s", "wall_s", "peak_rss_mb"]].tolist() == [
        2,
        12.5,
        15.0,
        300.0,
    ]
    assert rows.loc["topk-fig2", "jobs"] == 0
    assert rows.loc["data", "cpu_s"] == 0.5
    families = family_timing(rows.reset_index()).set_index("family")
    assert families.loc["thesis-fig2_*", "cpu_s"] == 13.5
    assert families.loc["thesis-fig2_*", "budget_cpu_s"] == 400.0


def test_figures_without_a_budget_still_draw(tmp_path):
    from boostrank.report.timing import budget_chart

    _bench(tmp_path / "thesis-fig2_1/a.tsv", 10.0, 8.0, 100.0)
    families = family_timing(figure_timing(["thesis-fig2_1"], tmp_path, {}))
    assert families["budget_cpu_s"].isna().all()
    assert budget_chart(families).startswith(b"\x89PNG")


def test_a_jobs_own_rusage_replaces_snakemakes_sample(tmp_path):
    """Snakemake samples a job every 30 s after its first 15 s, so a 44 s job shows about 15
    CPU-s; the job's log line has the exact figure and wins over the sample."""
    bench, logs = tmp_path / "benchmarks", tmp_path / "logs"
    _bench(bench / "thesis-fig2_1/run/mnist/mcssb.tsv", 44.0, 15.07, 100.0)
    _bench(bench / "thesis-fig2_1/figure.tsv", 3.0, 2.5, 80.0)
    log = logs / "thesis-fig2_1/run/mnist/mcssb.log"
    log.parent.mkdir(parents=True)
    log.write_text(
        "12:00:00 INFO boostrank: working\nboostrank resources: cpu_s=43.51 peak_rss_mb=312.4\n"
    )
    rows = figure_timing(["thesis-fig2_1"], bench, {}, logs).set_index("name")
    assert rows.loc["thesis-fig2_1", "cpu_s"] == round(43.51 + 2.5, 1)
    assert rows.loc["thesis-fig2_1", "peak_rss_mb"] == 312.4
    assert rows.loc["thesis-fig2_1", "cpu_from"] == "rusage for 1 of 2 jobs"
    assert figure_timing(["thesis-fig2_1"], bench, {})["cpu_from"].iloc[0] == "sampled"


def test_a_workflow_job_ends_its_log_with_its_resources(monkeypatch, capsys, tmp_path):
    from boostrank.cli import main
    from boostrank.workflow.job_resources import JOB_RESOURCES_ENV, RESOURCES, logged_resources

    monkeypatch.delenv(JOB_RESOURCES_ENV, raising=False)
    assert main(["figures", "thesis-fig2_1"]) == 0
    assert RESOURCES not in capsys.readouterr().err  # an interactive command stays quiet
    monkeypatch.setenv(JOB_RESOURCES_ENV, "1")
    assert main(["figures", "thesis-fig2_1"]) == 0
    log = tmp_path / "job.log"
    log.write_text(capsys.readouterr().err)
    assert log.read_text().strip().splitlines()[-1].startswith(RESOURCES)
    cpu, rss = logged_resources(log)
    assert cpu > 0 and rss > 10  # this test's own process: an interpreter with pandas loaded


def test_a_jobs_log_sits_at_its_benchmarks_path_under_any_prefix():
    from boostrank.workflow.job_resources import job_log

    assert job_log("benchmarks/thesis-fig2_1/run/isolet/mcssb.tsv") == Path(
        "logs/thesis-fig2_1/run/isolet/mcssb.log"
    )
    assert job_log("results/readings/v/benchmarks/data/fetch-x.tsv") == Path(
        "results/readings/v/logs/data/fetch-x.log"
    )


class _Job:
    """The part of a Snakemake job the schedule reads."""

    def __init__(self, rule, jobid, benchmark=None, threads=1):
        self.rule, self.jobid = type("Rule", (), {"name": rule})(), jobid
        self.benchmark, self.threads = benchmark, threads


def test_the_timing_record_gives_the_job_graphs_critical_path_and_scaling(tmp_path):
    from boostrank.report.timing import write_timing

    bench, logs = tmp_path / "benchmarks", tmp_path / "logs"
    _bench(bench / "data/fetch-x.tsv", 1.0, 1.0, 20.0)
    _bench(bench / "thesis-fig2_1/run/a.tsv", 9.0, 8.0, 100.0)
    _bench(bench / "thesis-fig2_1/run/b.tsv", 3.0, 3.0, 100.0)
    _bench(bench / "thesis-fig2_1/figure.tsv", 2.0, 2.0, 100.0)
    fetch, a, b, fig = (
        _Job(r, i, f"{bench}/{p}.tsv")
        for i, (r, p) in enumerate(
            [("fetch", "data/fetch-x"), ("run", "thesis-fig2_1/run/a"),
             ("run", "thesis-fig2_1/run/b"), ("figure", "thesis-fig2_1/figure")]
        )
    )  # fmt: skip
    everything = _Job("all", 9)
    dag = type("Dag", (), {})()
    dag.dependencies = {fetch: {}, a: {fetch: set()}, b: {fetch: set()}, fig: {a: set(), b: set()},
                        everything: {fig: set()}}  # fmt: skip
    dag.jobs = dag.dependencies.keys()
    # announced -> finished, less the benchmark's wall: fetch 3 - 1, a 14 - 9; b and the
    # figure ran before this run (not in its log)
    log = tmp_path / "snakemake.log"
    log.write_text(
        "[Fri Nov 27 08:00:00 2026]\nrule fetch:\n    jobid: 0\n"
        "[Fri Nov 27 08:00:03 2026]\nFinished jobid: 0 (Rule: fetch)\n"
        "[Fri Nov 27 08:00:03 2026]\nrule run:\n    jobid: 1\n"
        "[Fri Nov 27 08:00:17 2026]\nFinished jobid: 1 (Rule: run)\n"
        "4 of 4 steps (100%) done\n"
    )
    out = tmp_path / "timing.csv"
    assert write_timing(out, ["thesis-fig2_1"], bench, {}, log_dir=logs, started=0.0,
                        log_files=str(log), command="-j2", dag=dag)  # fmt: skip
    import pandas as pd

    latency = pd.read_csv(out).set_index("name").loc["job latency"]
    assert (latency["scope"], latency["jobs"], latency["wall_s"]) == ("run", 2, 3.5)
    assert "median 3.5, 90th percentile 4.7, mean 3.5" in latency["note"]

    rows = pd.read_csv(out).query("scope == 'schedule'").set_index("name")
    assert rows.loc["critical path", "cpu_s"] == 11.0  # fetch, a, figure
    assert rows.loc["critical path", "note"] == (
        "data/fetch-x > thesis-fig2_1/run/a > thesis-fig2_1/figure"
    )
    assert rows.loc["largest job", ["cpu_s", "note"]].tolist() == [8.0, "thesis-fig2_1/run/a"]
    overhead = pd.read_csv(out).set_index("name").loc["snakemake", "cpu_s"] / 4
    assert rows.loc["2 cores", "wall_s"] == pytest.approx(11.0 + 4 * overhead, abs=0.06)
    assert rows.loc["128 cores", "wall_s"] == rows.loc["2 cores", "wall_s"]


def test_a_readings_record_holds_its_own_roots_jobs_not_the_main_runs(tmp_path):
    # A readings run's job graph holds the main run's jobs too (its confirm stage's default):
    # the record reads only the variants' roots, so a main-run job is left out with its edges.
    from boostrank.report.timing import write_timing

    main, variant = tmp_path, tmp_path / "results/readings-full/r.opt"
    logs = tmp_path / "logs"  # the record: logs/timing/ of the run
    _bench(main / "benchmarks/data/prepare-x.tsv", 50.0, 50.0, 20.0)
    _bench(variant / "benchmarks/thesis-fig2_1/run/a.tsv", 9.0, 8.0, 100.0)
    _bench(variant / "benchmarks/thesis-fig2_1/figure.tsv", 2.0, 2.0, 100.0)
    prepare = _Job("prepare", 0, f"{main}/benchmarks/data/prepare-x.tsv")
    a = _Job("run", 1, f"{variant}/benchmarks/thesis-fig2_1/run/a.tsv")
    fig = _Job("figure", 2, f"{variant}/benchmarks/thesis-fig2_1/figure.tsv")
    dag = type("Dag", (), {})()
    dag.dependencies = {prepare: {}, a: {prepare: set()}, fig: {a: set()}}
    dag.jobs = dag.dependencies.keys()
    log = tmp_path / "snakemake.log"
    log.write_text("2 of 2 steps (100%) done\n")
    out = tmp_path / "results/readings-full/timing.csv"
    assert write_timing(out, ["thesis-fig2_1"], "benchmarks", {}, log_dir=logs, started=0.0,
                        log_files=str(log), command="", dag=dag, roots=[variant])  # fmt: skip
    import pandas as pd

    table = pd.read_csv(out).set_index("name")
    assert table.loc["thesis-fig2_1", "jobs"] == 2
    assert table.loc["thesis-fig2_1", "cpu_s"] == 10.0
    assert table.loc["data", "jobs"] == 0  # the main run's prepare job is not this record's
    assert table.loc["critical path", "cpu_s"] == 10.0  # a, figure: prepare was done before
    assert str(variant) in table.loc["critical path", "note"]
    # Without roots of its own (no variant but the main run) there is no record.
    assert write_timing(out, [], "benchmarks", {}, log_dir=logs, started=0.0,
                        log_files=str(log), command="", dag=dag, roots=[]) is None  # fmt: skip
