"""The catalogue of figures and tables: the prose of ``config/figures.yaml`` (id, title, kind,
source, description, data sets) joined with what each work's ``spec.py`` declares in its
``FIGURES`` (:class:`FigureCode`: the rules and functions that make each, its outputs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from boostrank.errors import BoostrankError, did_you_mean
from boostrank.io import read_yaml


class FigureCode(Protocol):
    """How a figure is made, as its work's spec declares it
    (:class:`boostrank.experiments.job.FigureCode`, in ``spec.FIGURES``)."""

    @property
    def rules(self) -> tuple[str, ...]: ...

    @property
    def entries(self) -> tuple[str, ...]: ...

    @property
    def files(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Figure:
    """One figure or table the pipeline reproduces."""

    id: str
    title: str
    kind: str
    source: str
    outputs: tuple[str, ...]
    datasets: tuple[str, ...] = ()
    description: str = ""
    rules: tuple[str, ...] = ()  # the Snakemake rules of its jobs
    entries: tuple[str, ...] = ()  # ``module:function`` that compute and draw it

    @property
    def work(self) -> str:
        """The work it reproduces: its source's authors and year (``Valizadegan (2010)``,
        ``Zhang, Jung & Tewari (2019)``)."""
        head, year, _ = self.source.partition(")")
        return (head + year).strip() if year else self.source.split(",")[0].strip()

    @property
    def image(self) -> str | None:
        """The PNG shown in the report, if any."""
        return next((o for o in self.outputs if o.endswith(".png")), None)

    @property
    def table_csv(self) -> str | None:
        """The CSV shown in the report: a table's first CSV; a figure's numbers as a table
        (its output under ``figures/tables/``), if it writes one."""
        if self.kind != "table":
            return next(
                (o for o in self.outputs if o.startswith("figures/tables/") and o.endswith(".csv")),
                None,
            )
        return next((o for o in self.outputs if o.endswith(".csv")), None)


def load_catalog(path: Path | str, code: Mapping[str, FigureCode]) -> dict[str, Figure]:
    """The catalogue, in the file's order: each figure's prose (``path``) joined with its
    work's declaration (``code``: every work's ``spec.FIGURES``,
    :func:`boostrank.experiments.job.figure_code`). A figure the file names but no spec
    declares is one line naming it. The file may name only some of the declared figures (a
    config's ``catalog`` may restrict a run to them); tests/unit/test_figure_code.py checks
    that config/figures.yaml names them all."""
    raw = read_yaml(path) or {}
    prose = raw.get("figures") or {}
    if missing := [f for f in prose if f not in code]:
        raise BoostrankError(
            f"{path}: figure '{missing[0]}'{did_you_mean(missing[0], code)} is declared in no"
            " work's spec.FIGURES (src/boostrank/experiments/<work>/spec.py): declare how it is"
            " made there, or remove it from the catalogue"
        )
    figures = {}
    for fid, entry in prose.items():
        made = code[fid]
        try:
            figures[fid] = Figure(
                id=fid,
                title=entry["title"],
                kind=entry["kind"],
                source=entry["source"],
                outputs=made.files,
                datasets=tuple(entry.get("datasets", ())),
                description=entry.get("description", ""),
                rules=made.rules,
                entries=made.entries,
            )
        except (KeyError, TypeError) as exc:
            raise BoostrankError(f"{path}: figure '{fid}' is missing key {exc}") from None
    return figures


def get_figure(catalog: dict[str, Figure], name: str) -> Figure:
    """Look a figure up by id, with the list of known ids on a miss."""
    try:
        return catalog[name]
    except KeyError:
        raise BoostrankError(
            f"unknown figure or table {name!r}{did_you_mean(name, catalog)}; use one of the "
            "ids `make list-figures` shows: " + ", ".join(catalog)
        ) from None
