"""The package's import graph (every ``boostrank`` import, lazy ones inside functions too, read
from the sources by boostrank.workflow.code_deps): no cycles, and the layers point one way -- the
algorithms, metrics and data code never import the workflow's plumbing, the experiments, the
report or the CLI."""

import ast
from pathlib import Path

import pytest

from boostrank.workflow.code_deps import _imports as imports_of
from boostrank.workflow.code_deps import imported_modules, module_file

SRC = Path(__file__).resolve().parents[2] / "src" / "boostrank"
MODULES = sorted(
    ".".join(p.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
    for p in SRC.rglob("*.py")
    if p.name != "__main__.py"
)
# Lower layers first; a module may import its own layer or a lower one, never a higher one.
LAYERS = [
    ("errors", "io", "seeds", "replicates", "guards", "py"),
    ("metrics", "data", "preprocess", "boosting", "ranking", "online", "recommend", "plots"),
    ("workflow",),  # the plumbing that runs the jobs: checks, catalogue, code inputs, resources
    ("report",),
    ("experiments",),
    ("cli",),
]
# The algorithms, the metrics and the data preparation compute the numbers; the workflow's
# plumbing only runs them.
SCIENCE = ("boosting", "ranking", "online", "metrics", "preprocess")


def _graph() -> dict[str, set[str]]:
    graph = {}
    for name in MODULES:
        file = module_file(SRC, name) if name else SRC / "__init__.py"
        deps = imports_of(file.read_text(encoding="utf-8"))
        graph[name] = {d for d in deps if d in MODULES and d != name}
    return graph


def _layer(module: str) -> int:
    """The layer of the longest listed prefix of ``module``."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        for i, names in enumerate(LAYERS):
            if ".".join(parts[:n]) in names:
                return i
    raise AssertionError(f"module {module} is in no layer of tests/unit/test_architecture.py")


def test_no_import_cycles():
    graph, state, cycles = _graph(), {}, []

    def visit(node, path):
        state[node] = "open"
        for dep in sorted(graph[node]):
            if state.get(dep) == "open":
                cycles.append([*path[path.index(dep) :], dep])
            elif dep not in state:
                visit(dep, [*path, dep])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])
    assert not cycles, f"import cycles: {cycles}"


def test_layers_point_down():
    wrong = [
        f"{m} -> {d}"
        for m, deps in _graph().items()
        if m
        for d in deps
        if d and _layer(d) > _layer(m)
    ]
    assert not wrong, f"imports of a higher layer: {wrong}"


def test_the_science_never_imports_the_workflow_plumbing():
    """No module of the science packages imports ``boostrank.workflow``, directly or through
    another module (a job's numbers never depend on how the workflow runs it)."""
    wrong = {
        m: reached
        for m in MODULES
        if m.split(".")[0] in SCIENCE
        if (reached := [d for d in imported_modules(m, src=SRC) if d.split(".")[0] == "workflow"])
    }
    assert not wrong, f"science modules that import boostrank.workflow: {wrong}"


def test_no_dynamic_imports_of_package_modules():
    """importlib.import_module("boostrank....") hides an edge from the scanner (and from each
    job's Snakemake inputs); plugins are listed by name in cli.py only."""
    hidden = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if 'import_module("boostrank.' in p.read_text(encoding="utf-8")
    ]
    assert not hidden, hidden


def test_the_scanner_follows_lazy_and_parenthesised_imports(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    from boostrank.b import (\n        x,\n    )\n")
    (tmp_path / "b.py").write_text("import boostrank.c\n")
    (tmp_path / "c.py").write_text("from boostrank import d\n")
    (tmp_path / "d.py").write_text("")
    assert imported_modules("a", src=tmp_path) == ["a", "b", "c", "d"]


def test_the_disk_cache_keeps_imports_until_a_file_changes(tmp_path, monkeypatch):
    from boostrank.workflow import code_deps, stamp_cache

    monkeypatch.setattr(stamp_cache, "_ENTRIES", {})
    monkeypatch.setattr(stamp_cache, "_STATE", {"path": None, "dirty": False})
    monkeypatch.setattr("atexit.register", lambda f: None)  # no write at the test's exit
    (tmp_path / "a.py").write_text("import boostrank.b\n")
    (tmp_path / "b.py").write_text("")
    (tmp_path / "c.py").write_text("")
    cache = tmp_path / "cache" / "answers.json"
    stamp_cache.use(cache)
    code_deps._file_imports.cache_clear()
    assert imported_modules("a", src=tmp_path) == ["a", "b"]
    stamp_cache.save()
    assert str(tmp_path / "a.py") in cache.read_text()
    # a new process reads the cache; an edited file is parsed again
    monkeypatch.setattr(stamp_cache, "_ENTRIES", {})
    monkeypatch.setattr(stamp_cache, "_STATE", {"path": None, "dirty": False})
    stamp_cache.use(cache)
    assert stamp_cache._ENTRIES  # read back from the file
    code_deps._file_imports.cache_clear()
    (tmp_path / "a.py").write_text("import boostrank.c  # now c\n")
    assert imported_modules("a", src=tmp_path) == ["a", "c"]
    cache.write_text("not json")  # a corrupt cache is ignored
    monkeypatch.setattr(stamp_cache, "_ENTRIES", {})
    monkeypatch.setattr(stamp_cache, "_STATE", {"path": None, "dirty": False})
    stamp_cache.use(cache)
    code_deps._file_imports.cache_clear()
    assert imported_modules("a", src=tmp_path) == ["a", "c"]
    code_deps._file_imports.cache_clear()


# Inside a work's package (experiments/<work>/): constants and job parameters, computing,
# statistics, drawing, the figure jobs that merge, write and draw, then the command line; a
# part imports only parts before it (jobs_*.py are jobs). A work whose jobs run through
# `boostrank job` (experiments/job.py) has a make and no cli; the others a cli and no make.
PARTS = ("spec", "jobs", "summary", "figure", "make", "cli")
WORKS = sorted(p.name for p in (SRC / "experiments").iterdir() if (p / "__init__.py").is_file())


def _part(module: str) -> tuple[str, int] | None:
    """(work, rank of its part) of ``experiments.<work>.<part>``, else None."""
    parts = module.split(".")
    if len(parts) != 3 or parts[0] != "experiments" or parts[1] not in WORKS:
        return None
    return parts[1], PARTS.index(parts[2].split("_")[0] if parts[2] != "__init__" else "spec")


def test_every_work_is_one_package_of_its_parts():
    """Each work has spec, jobs, summary and figure; a work ``boostrank job`` runs has a make
    and no cli, any other a cli and no make."""
    from boostrank.experiments.job import WORKS as CONVERTED

    assert {"chapter2", "chapter3", "chapter4", "chapter5_6", "docan", "topk"} <= set(WORKS)
    assert set(CONVERTED) <= set(WORKS)
    flat = sorted(p.name for p in (SRC / "experiments").glob("*.py"))
    assert flat == ["__init__.py", "common.py", "job.py", "reuse.py"], flat
    for work in WORKS:
        stems = {p.stem for p in (SRC / "experiments" / work).glob("*.py")} - {"__init__"}
        parts = set(PARTS) - ({"cli"} if work in CONVERTED else {"make"})
        assert {s.split("_")[0] for s in stems} == parts, (work, stems)


def test_a_part_imports_only_earlier_parts_of_its_own_work():
    wrong = []
    for module, deps in _graph().items():
        mine = _part(module)
        for dep in deps:
            theirs = _part(dep)
            if mine is None or theirs is None:
                continue
            if theirs[0] != mine[0] or theirs[1] > mine[1]:
                wrong.append(f"{module} -> {dep}")
    assert not wrong, wrong


# What writes a file other than a figure's own (save_figure's PNG and PDF, render's table
# files): boostrank.io's writers, a frame's or a path's serialisers, open().
IO_WRITERS = {"write_text", "write_json", "save_npz", "atomic_open", "atomic_path"}
SERIALISERS = {"to_csv", "to_json", "to_parquet", "write_text", "write_bytes", "savez", "save"}


def writes(source: str) -> list[str]:
    """What in ``source`` can write a results file: an import of ``boostrank.io`` (the module)
    or of one of its writers, a call of a serialiser method, or ``open()``; one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "boostrank.io":
            found += [f"imports {a.name}" for a in node.names if a.name in IO_WRITERS]
        elif isinstance(node, ast.ImportFrom) and node.module == "boostrank":
            found += [f"imports boostrank.{a.name}" for a in node.names if a.name == "io"]
        elif isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names if a.name == "boostrank.io"]
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in SERIALISERS:
                found.append(f"calls .{func.attr}() on line {node.lineno}")
            elif isinstance(func, ast.Name) and func.id == "open":
                found.append(f"calls open() on line {node.lineno}")
    return found


def test_a_converted_works_figure_modules_write_no_results_file():
    """A converted work's figure modules (experiments/<work>/figure*.py) only draw: the results
    CSVs, summaries and samples the claims read are written by its make (or jobs) module, so
    a number's file never depends on drawing code, and the figure files go through
    boostrank.plots.save_figure and boostrank.report.render.write_table alone. Read from the
    sources: no boostrank.io writer imported, no serialiser (to_csv, write_text, ...) called,
    no open()."""
    from boostrank.experiments.job import WORKS as CONVERTED

    wrong = {
        str(path.relative_to(SRC)): found
        for work in CONVERTED
        for path in sorted((SRC / "experiments" / work).glob("figure*.py"))
        if (found := writes(path.read_text(encoding="utf-8")))
    }
    assert not wrong, wrong


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("def f(p):\n    from boostrank.io import write_text\n", ["imports write_text"]),
        ("from boostrank.io import read_json, write_json\n", ["imports write_json"]),
        ("import boostrank.io\n", ["imports boostrank.io"]),
        ("from boostrank import io\n", ["imports boostrank.io"]),
        ("def f(df, p):\n    df.to_csv(p)\n", ["calls .to_csv() on line 2"]),
        ("with open('x', 'w') as h:\n    pass\n", ["calls open() on line 1"]),
        ("from boostrank.io import read_json\n", []),
        ("from boostrank.plots import save_figure\nsave_figure(fig, 'x', [])\n", []),
    ],
)
def test_the_write_check_finds_each_way_to_write_a_file(source, found):
    assert writes(source) == found


def test_root_commands_load_no_plugin_and_every_other_command_has_one():
    """A root command (fetch, report, ...) starts without importing any work's plugin; every
    work's command is found by its prefix, so its start-up imports that plugin alone."""
    import argparse

    from boostrank import cli

    parser = cli.build_parser(None)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands = set(sub.choices)
    assert commands >= cli.ROOT_COMMANDS
    for command in commands - cli.ROOT_COMMANDS:
        assert len(cli._plugins_for(command)) == 1, command
    for command in cli.ROOT_COMMANDS:
        assert cli._plugins_for(command) == ()
