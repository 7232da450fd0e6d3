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
