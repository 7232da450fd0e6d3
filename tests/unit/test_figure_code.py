"""Each figure of the catalogue (config/figures.yaml's prose, each work's spec.FIGURES) declares
its code: every declared figure has its prose, every entry function imports and is callable,
every rule is a rule of the workflow and makes the outputs its figure declares (read from a
dry run of the workflow), and docs/figures.md is what the catalogue generates now
(`make docs-figures`), so it cannot go stale."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from boostrank.cli import main
from boostrank.errors import BoostrankError
from boostrank.experiments.job import figure_code
from boostrank.report.figure_index import entry_file
from boostrank.workflow.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[2]
CODE = figure_code()
CATALOG = load_catalog(ROOT / "config/figures.yaml", CODE)


def workflow_rules(root: Path) -> set[str]:
    """The names of the rules and checkpoints of the Snakefile and workflow/rules/*.smk."""
    files = [root / "Snakefile", *sorted((root / "workflow/rules").glob("*.smk"))]
    text = "\n".join(p.read_text(encoding="utf-8") for p in files)
    return set(re.findall(r"^(?:rule|checkpoint) (\w+):", text, re.M))


def entry_problem(entry: str) -> str | None:
    """Why ``module:function`` is not a callable of the package, or None."""
    module, _, name = entry.partition(":")
    try:
        target = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        return f"{entry}: {exc}"
    return None if callable(target) else f"{entry}: not callable"


def test_every_entry_imports_and_is_callable():
    problems = [p for f in CATALOG.values() for e in f.entries if (p := entry_problem(e))]
    assert not problems, problems
    # docs/figures.md links each entry to its file
    files = {entry_file(e) for f in CATALOG.values() for e in f.entries}
    missing = sorted(file for file in files if not (ROOT / file).is_file())
    assert not missing, missing


def test_every_rule_is_a_rule_of_the_workflow():
    rules = workflow_rules(ROOT)
    unknown = {f.id: sorted(set(f.rules) - rules) for f in CATALOG.values() if set(f.rules) - rules}
    assert not unknown, unknown


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("boostrank.experiments.chapter2.jobs:run_job", None),
        ("boostrank.experiments.chapter2.jbos:run_job", "No module named"),
        ("boostrank.experiments.chapter2.jobs:run_jobs", "has no attribute 'run_jobs'"),
        ("boostrank.experiments.common:STANDIN_MARK", "not callable"),
    ],
)
def test_the_entry_check_finds_a_wrong_entry(entry, problem):
    found = entry_problem(entry)
    assert found is None if problem is None else problem in found


def test_the_rule_check_finds_a_wrong_rule(tmp_path):
    (tmp_path / "workflow/rules").mkdir(parents=True)
    (tmp_path / "Snakefile").write_text('include: "workflow/rules/a.smk"\n\n\nrule all:\n')
    (tmp_path / "workflow/rules/a.smk").write_text(
        "# rule in_a_comment:\nrule fit:\n    shell:\n        'x'\n\n\ncheckpoint fetch:\n"
    )
    assert workflow_rules(tmp_path) == {"all", "fit", "fetch"}
    rules = workflow_rules(ROOT)
    assert {"prepare", "chapter3_train", "chapter4_figure", "report"} <= rules
    assert "chapter3_trian" not in rules


def test_docs_figures_md_is_what_the_catalogue_generates(capsys):
    assert main(["figures", "--markdown", "--catalog", str(ROOT / "config/figures.yaml")]) == 0
    generated = capsys.readouterr().out
    committed = (ROOT / "docs/figures.md").read_text(encoding="utf-8")
    assert committed == generated, "docs/figures.md is stale: run `make docs-figures`"
    for figure in CATALOG.values():
        row = next(line for line in generated.splitlines() if line.startswith(f"| `{figure.id}`"))
        assert all(f"`{x}`" in row for x in (*figure.rules, *figure.entries, *figure.outputs))


def test_every_declared_figure_has_its_prose_and_declares_files_it_writes():
    assert sorted(CODE) == sorted(CATALOG), "a figure of a spec.FIGURES is not in figures.yaml"
    for fid, code in CODE.items():
        assert set(code.unlisted) <= set(code.outputs), fid
        assert all(f.startswith(("figures/", "results/")) for f in files(code.outputs)), fid


def test_a_figure_no_spec_declares_is_one_line(tmp_path):
    prose = yaml.safe_load((ROOT / "config/figures.yaml").read_text(encoding="utf-8"))
    prose["figures"]["thesis-fig3_9"] = prose["figures"]["thesis-fig3_1"]
    (tmp_path / "figures.yaml").write_text(yaml.safe_dump(prose), encoding="utf-8")
    with pytest.raises(BoostrankError, match=r"figure 'thesis-fig3_9' .*declared in no work's"):
        load_catalog(tmp_path / "figures.yaml", CODE)
    del prose["figures"]["thesis-fig3_9"], prose["figures"]["thesis-fig3_1"]
    (tmp_path / "figures.yaml").write_text(yaml.safe_dump(prose), encoding="utf-8")
    assert "thesis-fig3_1" not in load_catalog(tmp_path / "figures.yaml", CODE)  # a subset


def files(outputs):
    return [f for v in outputs.values() for f in ((v,) if isinstance(v, str) else v)]


def made_by(targets: list[str]) -> dict[str, str]:
    """Each file of a dry run of the workflow for ``targets`` (config/quick.yaml, every job
    forced): the rule whose job makes it."""
    command = [sys.executable, "-m", "snakemake", *targets, "-n", "-F", "--profile"]
    command += ["profiles/local", "--configfile", "config/quick.yaml"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    made, rule = {}, None
    for line in done.stdout.splitlines():
        if found := re.match(r"(?:local)?(?:rule|checkpoint) (\w+):$", line):
            rule = found.group(1)
        elif (found := re.match(r"\s+output: (.*)$", line)) and rule:
            made |= dict.fromkeys(found.group(1).split(", "), rule)
    return made


def test_each_figures_outputs_are_made_by_its_rules():
    """The specs, the catalogue and the rules agree: a dry run of every declared output makes
    each with one of its figure's rules (in a few seconds, so in the unit tier)."""
    made = made_by(sorted({f for code in CODE.values() for f in files(code.outputs)}))
    wrong = {
        fid: {f: made.get(f) for f in files(code.outputs) if made.get(f) not in code.rules}
        for fid, code in CODE.items()
    }
    assert not {fid: w for fid, w in wrong.items() if w}, wrong
