"""One command runs every job of the converted works: ``boostrank job <work>.<kind> --spec JSON``.

A work's ``spec`` module declares its kinds of job in ``JOBS`` (kind -> :class:`.common.Job`,
each naming its parameter dataclass, a :class:`.common.JobSpec`, and the ``module:function``
that runs it) and the plain functions that build each parameter object from the config, the
wildcards and the job's input and output files. A Snakemake rule passes that object as one
params entry, its JSON (:meth:`.common.JobSpec.to_json`: sorted keys, compact, paths
included), so the text that decides reruns is the whole of what the job is given. This module
looks the kind up, builds the dataclass from the JSON (an unknown or missing field, a wrong
type or a bad choice is one line naming it), imports the job's module only then, and calls it.

Converted: chapter2, chapter5_6, prank, qbrank and topk. chapter3, chapter4, datasets and docan
keep their own sub-commands (``experiments/<work>/cli.py``) until they are converted the same
way.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import MISSING, fields
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.common import Job, JobSpec

# The works whose jobs run through ``boostrank job``: work -> its spec module.
WORKS = {
    work: f"boostrank.experiments.{work}.spec"
    for work in ("chapter2", "chapter5_6", "prank", "qbrank", "topk")
}


def lookup(name: str) -> Job:
    """The job of ``<work>.<kind>`` (``chapter2.run``), from its work's ``JOBS``."""
    work, _, kind = name.partition(".")
    if work not in WORKS:
        raise BoostrankError(f"unknown work '{work}' in '{name}'; known: {', '.join(WORKS)}")
    jobs: dict[str, Job] = importlib.import_module(WORKS[work]).JOBS
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
    if job.spec is None or not job.entry:
        raise BoostrankError(f"job '{name}' names no parameter dataclass or function")
    try:
        spec = build(job.spec, json.loads(text))
    except json.JSONDecodeError as exc:
        raise BoostrankError(f"{name}: the spec is not JSON ({exc})") from None
    except BoostrankError as exc:
        raise BoostrankError(f"{name}: {exc}") from None
    module, _, function = job.entry.partition(":")
    return getattr(importlib.import_module(module), function)(spec)


__all__ = ["WORKS", "build", "lookup", "run"]
