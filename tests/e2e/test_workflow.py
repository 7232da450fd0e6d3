"""The Snakemake workflow end to end on config/quick.yaml, in a temporary copy of the repository."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
# Targets go before --configfile, which takes any number of values.
QUICK = ["--profile", "profiles/local", "--configfile", "config/quick.yaml"]
MIRROR = os.environ.get("BOOSTRANK_DATA_MIRROR") or (
    str(ROOT.parent / "shared" / "data") if (ROOT.parent / "shared" / "data").is_dir() else ""
)


def _copy_repo(dest: Path) -> Path:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for name in files:
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def _run(repo: Path, *args: str, mirror: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "BOOSTRANK_DATA_MIRROR"}
    if mirror:
        env["BOOSTRANK_DATA_MIRROR"] = mirror
    return subprocess.run(
        [sys.executable, "-m", "snakemake", *args, *QUICK],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _run_ok(repo: Path, *args: str, mirror: str = "") -> str:
    proc = _run(repo, *args, mirror=mirror)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    return proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory):
    repo = _copy_repo(tmp_path_factory.mktemp("offline"))
    _run_ok(repo)
    return repo


@pytest.mark.e2e
def test_without_mirror_embedded_and_synthetic_fill_in_labelled(offline_run):
    table = pd.read_csv(
        offline_run / "figures/tables/thesis-table1_1.csv", dtype=str, keep_default_na=False
    ).set_index("dataset")
    assert table.loc["letter", "data_kind"] == "embedded"
    assert table.loc["nursery", "data_kind"] == "synthetic"
    assert table.loc["nursery", "provenance"].startswith("synthetic stand-in")
    claims = pd.read_csv(offline_run / "results/claims.csv", keep_default_na=False)
    assert list(claims.columns[:15]) == [
        "claim_id",
        "source",
        "statement",
        "published",
        "reproduced",
        "n",
        "mean",
        "sd",
        "ci_low",
        "ci_high",
        "interval",
        "verdict",
        "class",
        "substitute",
        "provenance",
    ]
    synthetic = claims[claims["provenance"].str.startswith("synthetic")]
    assert len(synthetic) and (synthetic["verdict"] == "NOT-COMPARABLE").all()
    # Real embedded data still reproduces the erratum: optdigits has 10 classes, not 26.
    opt = claims.set_index("claim_id").loc["thesis.table1_1.optdigits_classes"]
    assert (opt["reproduced"], opt["verdict"]) == ("10", "ERRATUM")
    html = (offline_run / "results/report.html").read_text()
    assert "Dissertation Table 1.1" in html and "synthetic" in html and "Runtime" in html
    assert "Synthetic stand-ins, not the real data:" in html  # the box at the top
    for suffix in (".csv", ".md", ".tex"):
        assert (offline_run / f"figures/tables/thesis-table1_2{suffix}").stat().st_size > 0


@pytest.mark.e2e
def test_the_run_ends_with_its_timing_record(offline_run):
    timing = pd.read_csv(offline_run / "results/timing.csv", keep_default_na=False)
    run = timing[timing["scope"] == "run"].set_index("name")
    assert list(run.index) == ["snakemake", "jobs", "total", "job latency"]
    # locally a job waits for nothing: its latency is its start-up, a second or less
    assert 0 < int(run.loc["job latency", "jobs"]) <= int(run.loc["total", "jobs"])
    assert 0 <= float(run.loc["job latency", "wall_s"]) <= 2
    parts = float(run.loc["snakemake", "cpu_s"]) + float(run.loc["jobs", "cpu_s"])
    assert float(run.loc["total", "cpu_s"]) == pytest.approx(parts, abs=0.2)
    assert float(run.loc["total", "wall_s"]) > 0 and int(run.loc["total", "jobs"]) > 100
    assert "% of the run's CPU" in run.loc["snakemake", "note"]
    figures = timing[timing["scope"] == "figure"].set_index("name")
    assert "thesis-fig3_1" in figures.index and "data" in figures.index
    assert int(figures.loc["thesis-fig3_1", "jobs"]) > 0
    assert figures.loc["thesis-fig3_1", "note"] == "thesis-fig3_*"  # its budget family
    assert "What the run cost" in (offline_run / "results/report.html").read_text()


@pytest.mark.e2e
def test_rerun_has_nothing_to_do_and_a_figure_can_be_rebuilt_alone(offline_run):
    assert "Nothing to be done" in _run_ok(offline_run, "-n")
    target = offline_run / "figures/tables/thesis-table1_2.md"
    target.unlink()
    out = _run_ok(offline_run, "figures/tables/thesis-table1_2.md")
    assert target.exists() and "checkpoint fetch" not in out and "rule prepare" not in out


@pytest.mark.e2e
@pytest.mark.skipif(not MIRROR, reason="no data mirror (set BOOSTRANK_DATA_MIRROR)")
def test_with_mirror_real_data_sets_come_from_it_and_verify(tmp_path):
    # The data targets only (every figure's run is covered offline and by the tiny runs of
    # test_slurm / test_review / test_fault_tolerance): keeps make test within CI's budget.
    repo = _copy_repo(tmp_path)
    _run_ok(repo, "results/datasets.csv", "figures/tables/thesis-table1_2.csv", mirror=MIRROR)
    inventory = pd.read_csv(repo / "results/datasets.csv", keep_default_na=False)
    inventory = inventory.set_index("dataset")
    for name in ("ohsumed", "nursery", "movielens_100k", "mq2008", "emotions", "scene", "yeast"):
        row = inventory.loc[name]
        assert row["data_kind"] == "mirror", name
        assert row["files"] == row["sha256_verified"] > 0, name
    # Table 1.2's OHSUMED row equals the published one (the claims thesis.table1_2.ohsumed_*).
    table = pd.read_csv(repo / "figures/tables/thesis-table1_2.csv", dtype=str)
    ohsumed = table.set_index("dataset").loc["ohsumed"]
    assert ohsumed["data_kind"] == "mirror"
    for col in ("pairs", "queries", "relevance", "features"):
        assert ohsumed[col] == ohsumed[f"published_{col}"], col


def _tree(repo: Path, *folders: str) -> dict[str, bytes]:
    """Every file under ``folders`` by path, as bytes (not the hidden fingerprints that tell an
    edit by hand from a touch: they keep the mtime too)."""
    return {
        str(p.relative_to(repo)): p.read_bytes()
        for folder in folders
        for p in sorted((repo / folder).rglob("*"))
        if p.is_file() and not p.name.endswith(".fingerprint")
    }


@pytest.mark.e2e
@pytest.mark.skipif(not MIRROR, reason="no data mirror (set BOOSTRANK_DATA_MIRROR)")
def test_real_data_and_their_results_are_kept_in_a_shell_without_the_mirror(tmp_path):
    """Real data made with the mirror, then a shell without it: nothing is planned (nor for a
    stand-in of a data set the mirror lacks), and a fetch forced to run stops with one line;
    no stand-in is written over the real data or over what was made from them."""
    repo = _copy_repo(tmp_path)
    raw, standin = "data/raw/nursery/provenance.json", "data/raw/td2003/provenance.json"
    targets = [raw, standin, "results/chapter5_6/thesis-fig5_1/nursery/perceptron.csv"]
    out = _run_ok(repo, *targets, mirror=MIRROR)
    assert f"data mirror: {MIRROR} (from $BOOSTRANK_DATA_MIRROR)" in out
    made = _tree(repo, "data", "results/chapter5_6")
    assert '"kind": "mirror"' in made[raw].decode()
    assert '"kind": "synthetic"' in made[standin].decode()  # not in the mirror

    out = _run_ok(repo, "-n", *targets)  # a new shell: no variable
    assert "data mirror: none (data.mirror is null" in out
    assert "Nothing to be done" in out and "checkpoint fetch" not in out
    assert "Nothing to be done" in _run_ok(repo, *targets)
    other = tmp_path / "moved"
    other.symlink_to(MIRROR)
    out = _run_ok(repo, "-n", *targets, "--config", f'data={{"mirror": "{other}"}}')
    assert f"data mirror: {other} (from data.mirror in --config)" in out
    assert "Nothing to be done" in out  # a mirror that moved: no fetch either
    with (repo / "src/boostrank/data/sources.py").open("a") as code:
        code.write("\n# an edit to the fetching code\n")
    assert "Nothing to be done" in _run_ok(repo, "-n", *targets)  # the same verified files

    proc = _run(repo, *targets, "--forcerun", raw)  # made to fetch again
    assert proc.returncode != 0
    stop = [line for line in (proc.stdout + proc.stderr).splitlines() if "came from a real" in line]
    assert len(stop) == 1 and "data set 'nursery'" in stop[0], proc.stderr[-3000:]
    assert f"set data.mirror (or $BOOSTRANK_DATA_MIRROR) to {MIRROR} again" in stop[0]
    assert _tree(repo, "data", "results/chapter5_6") == made
    assert "Nothing to be done" in _run_ok(repo, "-n", *targets)

    # What a data set is, is its files' hashes: editing one in the registry fetches it again.
    from boostrank.data.registry import load_registry

    registry = repo / "config/datasets.yaml"
    (sha,) = load_registry(registry)["nursery"].files.values()
    registry.write_text(registry.read_text().replace(sha, "0" * 64))
    assert "checkpoint fetch:" in _run_ok(repo, "-n", *targets)


@pytest.mark.e2e
def test_snakemake_report_shows_every_figure_made_with_its_run_caption(offline_run):
    from boostrank.experiments.job import figure_code
    from boostrank.workflow.catalog import load_catalog

    _run_ok(offline_run, "--report", "results/snakemake-report.zip")
    with zipfile.ZipFile(offline_run / "results/snakemake-report.zip") as report:
        names = {Path(n).name for n in report.namelist()}
        page = report.read(next(n for n in report.namelist() if n.endswith("/report.html")))
    catalog = load_catalog(offline_run / "config/figures.yaml", figure_code())
    inventory = set(pd.read_csv(offline_run / "results/datasets.csv")["dataset"])
    made = {i for i, f in catalog.items() if all((offline_run / o).exists() for o in f.outputs)}
    for left_out in set(catalog) - made:  # only for want of a data set that cannot be had offline
        assert set(catalog[left_out].datasets) - inventory, left_out
    shown = {
        i
        for i, f in catalog.items()
        if Path(f.table_csv if f.kind == "table" else f.image).name in names
    }
    assert shown == made
    # The captions come from the run: the data it used and the claims' verdicts.
    text = page.decode()
    assert all(f"({i})</" in text for i in made)  # each figure's caption block, by its id
    assert "Data this run used" in text and "synthetic stand-in" in text
    assert "NOT-COMPARABLE" in text and "Valizadegan (2010)" in text


@pytest.mark.e2e
def test_every_latex_table_of_the_run_compiles_with_pdflatex(offline_run, tmp_path):
    from latex import MISSING, compile_table, pdflatex

    from boostrank.experiments.job import figure_code
    from boostrank.workflow.catalog import load_catalog

    binary = pdflatex()  # installed from Debian's archive when missing, as root
    if binary is None:
        pytest.fail(MISSING)
    tables = sorted((offline_run / "figures/tables").glob("*.tex"))
    catalog = load_catalog(offline_run / "config/figures.yaml", figure_code()).values()
    made = {o for f in catalog for o in f.outputs if o.endswith(".tex")}
    assert {f"figures/tables/{t.name}" for t in tables} == {
        o for o in made if (offline_run / o).exists()
    }
    assert len(tables) >= 10
    errors = [compile_table(binary, t, tmp_path / t.stem) for t in tables]
    assert not any(errors), "\n\n".join(filter(None, errors))


@pytest.mark.e2e
def test_the_report_page_in_a_real_browser(offline_run, tmp_path):
    """Headless Chromium: every image decodes, no console error, every figure has its section,
    the claims table has every claim and its filter works; a full-page screenshot is kept."""
    from browser import chromium, probe_page, screenshot

    from boostrank.experiments.job import figure_code
    from boostrank.workflow.catalog import load_catalog

    browser = chromium()
    if browser is None:
        pytest.skip("no Chromium, and no root apt-get to install it")
    page = offline_run / "results/report.html"
    seen = probe_page(browser, page, tmp_path)
    assert seen["errors"] == []
    assert seen["images"] >= 10 and seen["undecoded"] == []
    assert set(load_catalog(offline_run / "config/figures.yaml", figure_code())) <= set(
        seen["sections"]
    )
    claims = pd.read_csv(offline_run / "results/claims.csv", keep_default_na=False)
    assert seen["claim_rows"] == len(claims)
    passed = int((claims["verdict"] == "PASS").sum())
    assert seen["pass_filtered"] == {"shown": passed, "counter": passed}
    screenshot(browser, page, offline_run / "results/report.png", seen["height"])


# Config mistakes (unknown key, wrong type, unknown data set): tests/e2e/test_fault_tolerance.py.


def test_strict_refuses_a_stand_in(tmp_path):
    repo = _copy_repo(tmp_path)
    proc = _run(repo, "data/raw/isolet/provenance.json", "--config", "strict=true")
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "strict mode: no real source could provide 'isolet'" in out
    assert not (repo / "data/raw/isolet/provenance.json").exists()


@pytest.mark.e2e
def test_replicates_wait_for_the_fetch_and_run_on_real_data_only(tmp_path):
    """chapter3.replicates trains NDCG_Boost and RankSVM again on real data, and
    chapter4.replicates runs every Figure 4.3 family again; a stand-in runs once. Which one a
    data set is, is known once it is fetched (the fetch checkpoint)."""
    from e2e_helpers import dry_run_jobs

    repo = _copy_repo(tmp_path)
    (repo / "tests/config/tiny.yaml").write_text(
        "chapter3: {datasets: [td2003], replicates: 2}\nchapter5: {datasets: [nursery]}\n"
        "chapter4: {datasets: [td2003], replicates: 2}\n"
    )
    target = "figures/thesis-fig3_1.pdf"

    def trained():
        return sorted(
            (w["algorithm"], w["replicate"])
            for rule, w in dry_run_jobs(repo, target)
            if rule == "chapter3_train"
        )

    def refined():
        return sorted(
            (w["family"], w["replicate"])
            for rule, w in dry_run_jobs(repo, "figures/thesis-fig4_3.pdf")
            if rule == "chapter4_feedback_replicate"
        )

    before = dry_run_jobs(repo, target)
    assert ("fetch", {"dataset": "td2003"}) in before
    assert all(r == "1" for _, r in trained())  # replicates 2.. wait for the fetch
    assert refined() == []
    _run_ok(repo, "data/raw/td2003/provenance.json")  # offline: the synthetic stand-in
    assert all(r == "1" for _, r in trained())
    assert refined() == []
    provenance = repo / "data/raw/td2003/provenance.json"
    provenance.write_text(provenance.read_text().replace('"synthetic"', '"mirror"'))
    again = trained()
    assert ("ndcg_boost", "2") in again and ("ranksvm", "2") in again
    assert not any(a == "regression" and r == "2" for a, r in again)  # deterministic: once
    assert refined() == [("baselines", "2"), ("mrr", "2"), ("mrr_bases", "2")]
