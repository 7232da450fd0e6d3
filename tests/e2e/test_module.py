"""The workflow used as a Snakemake module, the way ``snakedeploy deploy-workflow`` sets up a
workflow of the Snakemake workflow catalog: a folder of its own with a copy of config/ and
profiles/ and a workflow/Snakefile that imports the repository's Snakefile and uses every rule.
Its dry run plans the same jobs as a run in the repository itself, and the jobs list the
repository's package sources among their inputs (code(): editing one reruns its jobs)."""

import shutil
from collections import Counter

import pytest
from e2e_helpers import copy_repo, planned_jobs, run_ok

# snakedeploy's templates/use_module.smk.jinja, rendered for a local clone (snakedeploy names the
# Snakefile by its path in the repository; a module needs its full path).
DEPLOYED_SNAKEFILE = """\
from snakemake.utils import min_version


min_version("6.10.0")


configfile: "config/config.yaml"


# declare {clone} as a module
module boostrank:
    snakefile:
        "{clone}/Snakefile"
    config:
        config


# use all rules from {clone}
use rule * from boostrank
"""


@pytest.mark.e2e
def test_the_workflow_deployed_as_a_module_plans_the_repository_s_jobs(tmp_path):
    clone = copy_repo(tmp_path / "clone")
    deployed = tmp_path / "deployed"
    for folder in ("config", "profiles"):  # what snakedeploy copies from the repository
        shutil.copytree(clone / folder, deployed / folder)
    (deployed / "workflow").mkdir()
    (deployed / "workflow/Snakefile").write_text(DEPLOYED_SNAKEFILE.format(clone=clone))

    out = run_ok(deployed, "-n", tiny=False)
    assert not (clone / ".snakemake").exists()  # the deployed run writes in its own folder
    assert (deployed / ".snakemake").is_dir()
    assert f"{clone}/src/boostrank/experiments/chapter3/" in out  # code(): the clone's sources
    jobs = planned_jobs(out)
    in_repository = planned_jobs(run_ok(clone, "-n", tiny=False))

    assert len(jobs) > 100  # every work's jobs, not a stub
    assert {rule for rule, _ in jobs} >= {"fetch", "prepare", "chapter3_train", "report", "all"}
    key = lambda job: (job[0], tuple(sorted(job[1].items())))  # noqa: E731
    assert Counter(map(key, jobs)) == Counter(map(key, in_repository))
