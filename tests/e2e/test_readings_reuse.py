"""make readings computes each distinct job once (docs/readings-reuse.md), counted in dry runs of
workflow/readings.smk on Figure 3.1 and one data set (tests/config/readings_reuse.yaml) in a
temporary copy of the repository: a reading of the evaluation (ndcg_formula) or of the figure
(chapter3_tie_break) runs no training job of its own, before the default variant has run and
after; a reading of one algorithm's training (ndcg_boost_max_redraws) runs exactly that
algorithm's training jobs again, the others it reads from the default variant; and only the
default variant prepares the data sets."""

import re

import pytest
from e2e_helpers import copy_repo, run_ok

READINGS = [
    "--snakefile",
    "workflow/readings.smk",
    "--configfile",
    "config/quick.yaml",
    "tests/config/readings_reuse.yaml",
]
EVALUATION_ONLY = ("ndcg_formula", "chapter3_tie_break")
TRAINING = "ndcg_boost_max_redraws"  # sets chapter3.algorithms.ndcg_boost.max_redraws
_JOB = re.compile(r"^(?:local)?(?:rule|checkpoint) (\w+):$")
_VARIANT = re.compile(r"results/readings/([^/,\s]+)/")


def jobs_by_variant(out: str) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """``snakemake -n``'s jobs by the variant whose root their first output is under: (rule
    without its ``v<index>_`` prefix, wildcards)."""
    found: dict[str, list[tuple[str, dict[str, str]]]] = {}
    rule, wildcards = None, {}
    for line in out.splitlines():
        if match := _JOB.match(line):
            rule, wildcards = re.sub(r"^v\d+_", "", match.group(1)), {}
        elif rule and line.startswith("    wildcards: "):
            wildcards.update(p.split("=", 1) for p in line.split(": ", 1)[1].split(", "))
        elif rule and line.startswith("    output: "):
            variant = _VARIANT.search(line)
            found.setdefault(variant.group(1) if variant else "", []).append((rule, wildcards))
        elif rule and not line.strip():
            rule = None
    return found


def training(jobs: list[tuple[str, dict[str, str]]]) -> set[tuple[str, str, str, str]]:
    """The (data set, algorithm, replicate, fold) of the chapter3_train jobs among ``jobs``."""
    return {
        (w["dataset"], w["algorithm"], w["replicate"], w["fold"])
        for rule, w in jobs
        if rule == "chapter3_train"
    }


def of_reading(found: dict, reading: str) -> list[str]:
    variants = [v for v in found if v.split(".")[0] == reading]
    assert variants, (reading, sorted(found))
    return variants


@pytest.mark.e2e
def test_only_the_jobs_a_reading_changes_are_computed_again(tmp_path):
    repo = copy_repo(tmp_path)
    found = jobs_by_variant(run_ok(repo, "-n", *READINGS, tiny=False))
    default = training(found["default"])
    for variant, jobs in found.items():  # the processed data: the default variant's, parsed once
        assert variant == "default" or "prepare" not in {rule for rule, _ in jobs}, variant
    assert {a for _, a, _, _ in default} >= {"ndcg_boost", "ranksvm", "listnet"}, default
    for reading in EVALUATION_ONLY:
        for variant in of_reading(found, reading):
            rules = {rule for rule, _ in found[variant]}
            assert "chapter3_train" not in rules, variant
            assert "chapter3_qrels" not in rules, variant  # the default's qrels, too
            assert "chapter3_figure" in rules, variant  # its own figure, from the default's runs
    assert "chapter3_evaluate" in {rule for rule, _ in found[of_reading(found, "ndcg_formula")[0]]}
    # Exactly the jobs whose spec changed: every ndcg_boost job of the default, nothing else.
    for variant in of_reading(found, TRAINING):
        assert training(found[variant]) == {j for j in default if j[1] == "ndcg_boost"}, variant
        assert "chapter3_qrels" not in {rule for rule, _ in found[variant]}, variant

    # After the default variant's Figure 3.1 has run, a reading of the evaluation or the figure
    # has no training job to run, and the training reading still only its own algorithm's.
    run_ok(repo, "results/readings/default/results/thesis-fig3_1.csv", *READINGS, tiny=False)
    found = jobs_by_variant(run_ok(repo, "-n", *READINGS, tiny=False))
    assert not training(found.get("default", [])), found.get("default")
    for reading in EVALUATION_ONLY:
        for variant in of_reading(found, reading):
            assert not training(found[variant]), variant
    for variant in of_reading(found, TRAINING):
        assert {a for _, a, _, _ in training(found[variant])} == {"ndcg_boost"}, variant


_CONFIRMED = re.compile(r"results/readings-full/([^/,\s]+)/")


@pytest.mark.e2e
def test_the_confirm_stage_takes_the_main_run_as_its_default(tmp_path):
    """make readings ONLY=<id> (stage 2): the default variant's jobs are the main run's, with
    no prefix, and the option's variant reads the main run's data and training."""
    repo = copy_repo(tmp_path)
    out = run_ok(repo, "-n", *READINGS, "--config", "readings_stage=confirm",
                 "readings_only=ndcg_formula", tiny=False)  # fmt: skip
    outputs = [line for line in out.splitlines() if line.startswith("    output: ")]
    main = [line for line in outputs if "results/readings" not in line]
    assert any("results/runs/thesis-fig3_1/" in line for line in main), main[:3]
    assert any("data/processed/td2003.npz" in line for line in main)
    variants = {m.group(1) for line in outputs if (m := _CONFIRMED.search(line))}
    assert variants == {"ndcg_formula.report"}, variants
    assert "results/readings/" not in out  # not the screen's root
    mine = [line for line in outputs if "ndcg_formula.report" in line]
    assert not [line for line in mine if "/runs/" in line or "data/processed" in line], mine
