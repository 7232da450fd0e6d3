"""``results/datasets.csv``: every data set the run fetched, its source and parsed statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from boostrank.data.provenance import Provenance
from boostrank.io import read_json

_STATS = ("rows", "queries", "features", "classes", "labels", "grades", "users", "items", "split")


def inventory(paths: list[Path | str]) -> pd.DataFrame:
    """One row per data set from processed sidecars (``.json``) or raw ``provenance.json`` files."""
    rows = []
    for path in paths:
        data: dict[str, Any] = read_json(path)
        if "provenance" in data:
            prov, stats = Provenance(**data["provenance"]), data["stats"]
        else:
            prov, stats = Provenance(**data), {}
        files = prov.files.values()
        rows.append({
            "dataset": prov.dataset,
            "data_kind": prov.kind,
            "provenance": prov.describe(),
            "files": len(files),
            "sha256_verified": sum(f["check"] == "verified" for f in files),
            **{k: stats.get(k, "") for k in _STATS},
            "sources_skipped": " | ".join(prov.detail.get("sources_skipped", [])),
        })
    return pd.DataFrame(rows)


def standin_summary(raw_dir: Path | str = "data/raw") -> str:
    """The lines a run prints when it ends if any data set is a synthetic stand-in: which
    ones, and how to get the real data ("" when every data set is real)."""
    standins = []
    for path in sorted(Path(raw_dir).glob("*/provenance.json")):
        prov = Provenance(**read_json(path))
        if prov.kind == "synthetic":
            standins.append(prov.dataset)
    if not standins:
        return ""
    return (
        f"NOTE: {len(standins)} data set(s) in {raw_dir} are synthetic stand-ins, not the real "
        f"data: {', '.join(standins)}. Their figures and tables say so and their claims are "
        "NOT-COMPARABLE. For the real data, point data.mirror (or $BOOSTRANK_DATA_MIRROR) at a "
        "copy, or run where the canonical URLs in config/datasets.yaml can be reached; "
        "strict=true refuses stand-ins."
    )
