"""The catalogue of figures and tables (``config/figures.yaml``): id, title, source, outputs."""

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
            f"unknown figure or table '{name}'{did_you_mean(name, catalog)}; use one of the "
            "ids `make list-figures` shows: " + ", ".join(catalog)
        ) from None


def producing_rules(outputs: list[str], workdir: Path | str = ".") -> dict[str, str]:
    """The Snakemake rule that makes each output file, from ``snakemake --summary``.

    Files Snakemake cannot place (e.g. the workflow does not parse) map to ``"?"``.
    """
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", "--summary", "--nolock", *outputs],
        cwd=workdir,
        capture_output=True,
        text=True,
    )
    rules = {}
    for line in proc.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) >= 3 and fields[0] != "output_file":
            rules[fields[0]] = fields[2]
    return {out: rules.get(out, "?") for out in outputs}
