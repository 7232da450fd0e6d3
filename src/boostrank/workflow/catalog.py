"""The catalogue of figures and tables (``config/figures.yaml``): id, title, source, the rules
and functions that make each, outputs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boostrank.errors import BoostrankError, did_you_mean
from boostrank.io import read_yaml


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


def load_catalog(path: Path | str) -> dict[str, Figure]:
    """Parse the catalogue, in file order."""
    raw = read_yaml(path) or {}
    figures = {}
    for fid, entry in (raw.get("figures") or {}).items():
        try:
            figures[fid] = Figure(
                id=fid,
                title=entry["title"],
                kind=entry["kind"],
                source=entry["source"],
                outputs=tuple(entry["outputs"]),
                datasets=tuple(entry.get("datasets", ())),
                description=entry.get("description", ""),
                rules=tuple(entry["rules"]),
                entries=tuple(entry["entries"]),
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
