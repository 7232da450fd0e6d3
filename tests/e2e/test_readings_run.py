"""make readings end to end (workflow/readings.smk) on config/quick.yaml and one reading, in a
temporary copy of the repository: every option's claims are checked on real data, and the
reading moves at least one of them."""

import pandas as pd
import pytest
from e2e_helpers import copy_repo, run_ok

READINGS = [
    "--snakefile",
    "workflow/readings.smk",
    "--configfile",
    "config/quick.yaml",
    "tests/config/readings.yaml",
]


@pytest.mark.e2e
def test_make_readings_checks_each_option_and_a_reading_moves_a_value(tmp_path):
    repo = copy_repo(tmp_path)
    out = run_ok(repo, *READINGS, tiny=False)
    # The report's rules stay local under their variant names, without a warning.
    assert "localrules directive" not in out
    table = pd.read_csv(repo / "results/readings.csv", keep_default_na=False)
    assert not table.empty
    assert set(table["reading"]) == {"chapter2_labelled_sample"}
    assert set(table["option"]) == {"random", "stratified"}
    assert not table["provenance"].str.startswith("synthetic").any()  # real data only
    other = table[~table["is_default"]]
    assert (other["value"].astype(str) != other["default_value"].astype(str)).any()
    # Each option is its own copy of the workflow, cached: a second run has nothing to do.
    assert (repo / "results/readings/chapter2_labelled_sample.stratified/results").is_dir()
    assert (repo / "figures/readings.png").stat().st_size > 0
    # The readings' own timing record: the variants' jobs, and their schedule on more cores.
    timing = pd.read_csv(repo / "results/readings/timing.csv").set_index("name")
    assert timing.loc["thesis-fig2_1", "jobs"] > 0
    assert {"critical path", "8 cores", "32 cores"} <= set(timing.index)
    again = run_ok(repo, *READINGS, tiny=False)
    assert "Nothing to be done" in again
