"""One path from a rule to a job: ``boostrank job <work>.<kind> --spec JSON``.

A kind of job takes one parameter object, a frozen dataclass (:class:`JobSpec`: each field
checked against its annotation, :meth:`JobSpec.check` for choices and ranges; a bad value is
one line naming the field). A work's ``spec`` module defines them, the plain functions that
build each from the config, the wildcards and the job's input and output files, and its
``JOBS`` registry (kind -> :class:`JobKind`: the job's command, config keys and code roots,
its dataclass and the ``module:function`` that runs it). A Snakemake rule passes the object as
one params entry, its JSON (:meth:`JobSpec.to_json`: sorted keys, compact, paths included), so
the text that decides reruns is the whole of what the job is given. :func:`run` looks the kind
up, builds the dataclass from the JSON (an unknown or missing field is one line naming it),
imports the job's module only then, and calls it.

A work's ``spec`` also declares its figures once, in ``FIGURES`` (figure id ->
:class:`FigureCode`: the rules of its jobs, the functions they run, its outputs): the rules
read their outputs from there, and :func:`figure_code` gives them to the catalogue
(:func:`boostrank.workflow.catalog.load_catalog`). :data:`WORKS` is found from the
``experiments/<work>/spec.py`` files.

Every work's jobs run through it; :mod:`.common` holds what the jobs themselves import.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import pkgutil
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, asdict, dataclass, fields
from pathlib import Path
from typing import Any

from boostrank.errors import BoostrankError


@dataclass(frozen=True)
class JobSpec:
    """The parameters of one job, one frozen dataclass per kind of job (a work's ``spec``
    defines them): made from JSON by ``boostrank job`` or directly in Python, each field is
    checked against its annotation (an int where a float is declared becomes a float, a list
    where a tuple is declared a tuple), then :meth:`check` checks choices and ranges."""

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in fields(self):
            value = _coerce(getattr(self, f.name), hints[f.name], f.name)
            object.__setattr__(self, f.name, value)
        self.check()

    def check(self) -> None:
        """Choices and ranges (a kind's own rules, with :meth:`one_of` and :meth:`at_least`);
        raise :class:`BoostrankError`."""

    def one_of(self, name: str, choices: Iterable[Any]) -> None:
        """Field ``name`` holds one of ``choices`` (:func:`check_choice`)."""
        check_choice(name, getattr(self, name), choices)

    def at_least(self, name: str, low: float) -> None:
        """Field ``name`` (None passes) is at least ``low`` (:func:`check_at_least`)."""
        check_at_least(name, getattr(self, name), low)

    def to_json(self) -> str:
        """The spec as a Snakemake params entry: sorted keys, compact separators, so that the
        same parameters always give the same text (the text decides reruns)."""
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _coerce(value: Any, hint: Any, name: str) -> Any:
    """``value`` as the annotation ``hint`` declares it (``Any``, ``str``, ``int``, ``float``,
    ``bool``, ``X | None``, ``tuple[X, ...]``, ``dict[...]``), else a :class:`BoostrankError`."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        for arg in (a for a in args if a is not type(None)):
            try:
                return _coerce(value, arg, name)
            except BoostrankError:
                continue
    elif origin is tuple and isinstance(value, list | tuple):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(v, args[0], name) for v in value)
        if len(args) == len(value):
            return tuple(_coerce(v, a, name) for v, a in zip(value, args, strict=True))
    elif origin is dict and isinstance(value, dict):
        return value
    elif hint in (int, float) and isinstance(value, int | float) and not isinstance(value, bool):
        if hint is float:
            return float(value)
        if isinstance(value, int):
            return value
    elif hint in (str, bool) and isinstance(value, hint):
        return value
    shown = getattr(hint, "__name__", str(hint))
    raise BoostrankError(f"field '{name}' must be {shown}, got {value!r}")


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> None:
    """A field's value is one of ``choices``, else a :class:`BoostrankError` naming them."""
    known = list(choices)
    if value not in known:
        raise BoostrankError(
            f"field '{name}': {value!r} is not one of {', '.join(map(str, known))}"
        )


def check_at_least(name: str, value: float | None, low: float) -> None:
    """A field's value (None passes) is at least ``low``."""
    if value is not None and value < low:
        raise BoostrankError(f"field '{name}' must be at least {low:g}, got {value!r}")


def stem(path: str) -> str:
    """The path a ``multiext`` output shares before its extension (``figures/x`` of
    ``figures/x.png``): where a command writes its figure or table files."""
    return os.path.splitext(path)[0]


@dataclass(frozen=True)
class Job:
    """One kind of Snakemake job of a work (its ``spec`` lists them): the sub-command it runs
    (or the rule's name, where several rules share one), the config keys it reads and the
    roots of its ``code()`` inputs (the workflow follows their imports transitively)."""

    command: str
    config: tuple[str, ...]
    code: tuple[str, ...]


@dataclass(frozen=True)
class JobKind(Job):
    """A kind of job ``boostrank job`` runs: its command (``<work>.<kind>``), config keys and
    code roots, its parameter dataclass and the ``module:function`` that runs it."""

    spec: type[JobSpec]
    entry: str


# A rule's outputs: name -> one file, or the files of one stem (``multiext``: a PNG and a PDF).
Outputs = Mapping[str, str | tuple[str, ...]]


def with_exts(stem: str, *exts: str) -> tuple[str, ...]:
    """The files of one stem (``figures/x.png``, ``figures/x.pdf``): one output of a rule, a
    ``multiext`` in the workflow."""
    return tuple(stem + ext for ext in exts)


def curve_outputs(figure: str, *, guards: bool) -> dict[str, str | tuple[str, ...]]:
    """A figure job's outputs: the PNG and PDF, the drawn CSV, the summary, the guards' counts
    (``guards``: where its jobs count them, :mod:`boostrank.guards`) and the summary's
    bootstrap samples."""
    from boostrank.guards import path

    out: dict[str, str | tuple[str, ...]] = {
        "figure": with_exts(f"figures/{figure}", ".png", ".pdf"),
        "csv": f"results/{figure}.csv",
        "summary": f"results/{figure}_summary.csv",
    }
    if guards:
        out["guards"] = path(figure)
    out["samples"] = f"results/{figure}_summary.samples.csv"
    return out


@dataclass(frozen=True)
class FigureCode:
    """How the pipeline makes one figure or table, declared once beside its work's jobs (the
    work's ``spec.FIGURES``).

    ``rules``: the Snakemake rules of its own jobs, in pipeline order, from the prepared data
    (after the shared ``fetch`` and ``prepare``) to its outputs, including those that run only
    on real data (replicates). ``entries``: the functions that compute and draw it, as
    ``module:function``: those its rules' commands call (from ``boostrank <command>`` to the
    handler), computing first, drawing last, and where one dispatches on the figure id, the
    function it dispatches to. ``outputs``: its files (under ``figures/`` or ``results/``),
    named as its rules name their outputs; the rules read them from here. ``unlisted``:
    outputs the catalogue leaves out (the per-sample statistics the claims read).
    tests/unit/test_figure_code.py checks each against the workflow."""

    rules: tuple[str, ...]
    entries: tuple[str, ...]
    outputs: Outputs
    unlisted: tuple[str, ...] = ()

    @property
    def files(self) -> tuple[str, ...]:
        """The catalogue's outputs (its Snakemake targets), in declaration order."""
        return tuple(
            path
            for name, files in self.outputs.items()
            if name not in self.unlisted
            for path in ((files,) if isinstance(files, str) else files)
        )


def registry(*jobs: JobKind) -> dict[str, JobKind]:
    """A work's ``JOBS``: kind (``run`` of ``chapter2.run``) -> job, for ``boostrank job``."""
    return {job.command.partition(".")[2]: job for job in jobs}


# The works, each a package of experiments/ with a ``spec`` module (its ``JOBS`` and
# ``FIGURES``): work -> its spec module, found from the files, in name order.
_PACKAGE = Path(__file__).parent
WORKS = {
    info.name: f"{__package__}.{info.name}.spec"
    for info in sorted(pkgutil.iter_modules([str(_PACKAGE)]), key=lambda i: i.name)
    if info.ispkg and (_PACKAGE / info.name / "spec.py").is_file()
}


def figure_code() -> dict[str, FigureCode]:
    """Every work's ``FIGURES`` (figure id -> how it is made), for
    :func:`boostrank.workflow.catalog.load_catalog` to join with the catalogue's prose."""
    code: dict[str, FigureCode] = {}
    for module in WORKS.values():
        code.update(importlib.import_module(module).FIGURES)
    return code


def lookup(name: str) -> JobKind:
    """The job of ``<work>.<kind>`` (``chapter2.run``), from its work's ``JOBS``."""
    work, _, kind = name.partition(".")
    if work not in WORKS:
        raise BoostrankError(f"unknown work '{work}' in '{name}'; known: {', '.join(WORKS)}")
    jobs: dict[str, JobKind] = importlib.import_module(WORKS[work]).JOBS
    if kind not in jobs:
        known = ", ".join(f"{work}.{k}" for k in jobs)
        raise BoostrankError(f"unknown job '{name}'; known: {known}")
    return jobs[kind]


def build(cls: type[JobSpec], data: Any) -> JobSpec:
    """The parameter object ``cls`` from decoded JSON: every field named, none unknown."""
    if not isinstance(data, dict):
        raise BoostrankError(f"the spec must be a JSON object, got {type(data).__name__}")
    names = {f.name for f in fields(cls)}
    required = {
        f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING
    }
    problems = []
    if unknown := sorted(set(data) - names):
        problems.append(f"unknown field(s) {', '.join(unknown)}")
    if missing := sorted(required - set(data)):
        problems.append(f"missing field(s) {', '.join(missing)}")
    if problems:
        known = f" (the fields of {cls.__name__}: {', '.join(sorted(names))})" if unknown else ""
        raise BoostrankError("; ".join(problems) + known)
    return cls(**data)


def run(name: str, text: str) -> Any:
    """Run the job ``name`` with the parameters ``text`` (the spec's JSON)."""
    job = lookup(name)
    try:
        spec = build(job.spec, json.loads(text))
    except json.JSONDecodeError as exc:
        raise BoostrankError(f"{name}: the spec is not JSON ({exc})") from None
    except BoostrankError as exc:
        raise BoostrankError(f"{name}: {exc}") from None
    module, _, function = job.entry.partition(":")
    return getattr(importlib.import_module(module), function)(spec)


__all__ = [
    "WORKS",
    "FigureCode",
    "Job",
    "JobKind",
    "JobSpec",
    "Outputs",
    "build",
    "check_at_least",
    "check_choice",
    "figure_code",
    "lookup",
    "registry",
    "run",
    "stem",
    "with_exts",
]
