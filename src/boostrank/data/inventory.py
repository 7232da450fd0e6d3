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
