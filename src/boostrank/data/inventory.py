"""``results/datasets.csv``: every data set the run fetched, its source and parsed statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from boostrank.data.pins import PINNED
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
        rows.append(
            {
                "dataset": prov.dataset,
                "data_kind": prov.kind,
                "provenance": prov.describe(),
                "files": len(files),
                "sha256_verified": sum(f["check"] == "verified" for f in files),
                "sha256_pinned": sum(f["check"] == PINNED for f in files),
                **{k: stats.get(k, "") for k in _STATS},
                "sources_skipped": " | ".join(prov.detail.get("sources_skipped", [])),
            }
        )
    return pd.DataFrame(rows)


def standin_note(names: list[str]) -> str:
    """What a run says about its synthetic stand-ins ("" for none): at the end of the console
    output and at the top of the report."""
    if not names:
        return ""
    return (
        f"Synthetic stand-ins, not the real data: {', '.join(names)}. These {len(names)} "
        "synthetic stand-ins are labelled in every figure and table, and their claims are "
        "NOT-COMPARABLE. For the real data, point data.mirror (or $BOOSTRANK_DATA_MIRROR) at a "
        "copy, or run where the canonical URLs in config/datasets.yaml can be reached; "
        "strict=true refuses stand-ins."
    )


def standin_summary(raw_dir: Path | str = "data/raw") -> str:
    """The console note on the stand-ins in ``raw_dir`` ("" when every data set is real)."""
    names = [
        prov.dataset
        for prov in (
            Provenance(**read_json(p)) for p in sorted(Path(raw_dir).glob("*/provenance.json"))
        )
        if prov.kind == "synthetic"
    ]
    note = standin_note(names)
    return f"NOTE ({raw_dir}): {note}" if note else ""
