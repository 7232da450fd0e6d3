"""Helpers every experiment shares (seeds live in :mod:`boostrank.seeds`, the processed-data
loaders in :mod:`boostrank.data.prepare`): the names data sets carry in every output, and the
kinds of Snakemake job and their checked parameter objects."""

from __future__ import annotations

import functools
import json
import os
import types
import typing
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from typing import Any

from boostrank.errors import BoostrankError

STANDIN_MARK = " [synthetic stand-in]"  # never let a stand-in pass for the real thing

# The classification data sets (dissertation Table 1.1) as outputs name them.
CLASSIFICATION_NAMES = {
    "protein": "Protein",
    "pendigits": "Pendigits",
    "isolet": "Isolet",
    "nursery": "Nursery",
    "optdigits": "Optdigits",
    "letter": "Letter",
    "mnist": "MNIST",
}


def dataset_label(name: str, kind: str) -> str:
    """``name`` as every output shows it: marked ``[synthetic stand-in]`` when ``kind`` (the
    provenance kind: real, mirror, embedded or synthetic) says it is one."""
    return name + STANDIN_MARK if kind == "synthetic" else name


def classification_label(meta: dict[str, Any]) -> str:
    """``Letter`` or ``Isolet [synthetic stand-in]``, from a processed data set's metadata."""
    name = CLASSIFICATION_NAMES.get(meta["dataset"], meta["dataset"].capitalize())
    return dataset_label(name, meta["provenance"]["kind"])


def letor_label(meta: dict[str, Any]) -> str:
    """The name a LETOR data set carries in every output: ``OHSUMED``, ``MQ2008``,
    ``OHSUMED (features rebuilt)`` or ``TD2003 [synthetic stand-in]`` (as Figure 3.1 names
    them)."""
    name = meta["dataset"].removesuffix("_rebuilt").upper()
    if meta["dataset"].endswith("_rebuilt"):
        name += " (features rebuilt)"
    return dataset_label(name, meta["provenance"]["kind"])


__all__ = [
    "CLASSIFICATION_NAMES",
    "STANDIN_MARK",
    "Job",
    "JobSpec",
    "check_at_least",
    "check_choice",
    "classification_label",
    "dataset_label",
    "letor_label",
    "registry",
    "stem",
]


@dataclass(frozen=True)
class JobSpec:
    """The parameters of one job, one frozen dataclass per kind of job (a work's ``spec``
    defines them): made from JSON by ``boostrank job`` or directly in Python, each field is
    checked against its annotation (an int where a float is declared becomes a float, a list
    where a tuple is declared a tuple), then :meth:`check` checks choices and ranges. A bad
    value is one line naming the field."""

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in fields(self):
            value = _coerce(getattr(self, f.name), hints[f.name], f.name)
            object.__setattr__(self, f.name, value)
        self.check()

    def check(self) -> None:
        """Choices and ranges (a kind's own rules); raise :class:`BoostrankError`."""

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
    """One kind of Snakemake job of a work (its ``spec`` lists them): the command it runs
    (``<work>.<kind>`` of ``boostrank job``; an unconverted work's sub-command or rule name),
    the config keys it reads and the roots of its ``code()`` inputs (the workflow follows
    their imports transitively). A ``boostrank job`` kind also names its parameter dataclass
    and the ``module:function`` that runs it."""

    command: str
    config: tuple[str, ...]
    code: tuple[str, ...]
    spec: type[JobSpec] | None = None
    entry: str = ""


def registry(*jobs: Job) -> dict[str, Job]:
    """A work's ``JOBS``: kind (``run`` of ``chapter2.run``) -> job, for ``boostrank job``."""
    return {job.command.partition(".")[2]: job for job in jobs}
