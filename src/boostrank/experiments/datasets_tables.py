"""Tables 1.1 and 1.2 of the dissertation (Valizadegan 2010, section 1.6): the benchmark data sets,
computed from the data the run actually used, beside the published values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from boostrank.experiments.common import dataset_label
from boostrank.report.claims import Claim, published_value
from boostrank.report.render import beside, write_table

# Section 1.6.1: "for some of these data sets, there were two separate sets, one for training and
# one for testing. We only used the training set." Isolet's 7797 and Nursery's 12960 are whole sets.
TABLE1_1_SPLIT = {
    "isolet": "all",
    "mnist": "train",
    "protein": "train",
    "optdigits": "train",
    "nursery": "all",
    "letter": "train",
    "pendigits": "train",
}
_SPLIT_WORDS = {
    "train": "the training set",
    "test": "the test set",
    "all": "training and test sets merged",
}
NAMES = {
    "isolet": "Isolet",
    "mnist": "MNIST",
    "protein": "Protein",
    "optdigits": "Optdigits",
    "nursery": "Nursery",
    "letter": "Letter",
    "pendigits": "Pendigits",
    "ohsumed": "OHSUMED",
    "td2003": "TD2003",
    "td2004": "TD2004",
    "hp2003": "HP2003",
    "hp2004": "HP2004",
    "np2003": "NP2003",
    "np2004": "NP2004",
}


def table1_1(metas: list[dict[str, Any]], claims: list[Claim], prefix: Path | str) -> pd.DataFrame:
    """Table 1.1: instances (training set), features and classes of each classification set."""
    rows = []
    for meta in metas:
        name, stats = meta["dataset"], meta["stats"]
        split = TABLE1_1_SPLIT.get(name, "train")
        instances = stats.get("split_rows", {}).get(split, "")
        note = ""
        if instances == "":
            held = _SPLIT_WORDS.get(stats.get("split"), stats.get("split"))
            note = (
                f"the source holds {held} ({stats['rows']} rows); the size of the "
                f"{_SPLIT_WORDS[split].removeprefix('the ')} cannot be established from it"
            )
        if stats.get("dropped_classes"):
            note = f"class(es) {stats['dropped_classes']} removed, as section 1.6.1 says"
        rows.append(
            {
                "dataset": name,
                "instances": instances,
                "features": stats["features"],
                "classes": stats["classes"],
                "rows_used": stats["rows"],
                "split_used": stats.get("split", ""),
                "note": note,
            }
        )
    return _finish(
        rows,
        metas,
        claims,
        prefix,
        ["instances", "features", "classes"],
        "Table 1.1: classification data sets (reproduced; published in parentheses)",
    )


def table1_2(metas: list[dict[str, Any]], claims: list[Claim], prefix: Path | str) -> pd.DataFrame:
    """Table 1.2: query-document pairs, queries, relevance levels and features of LETOR 3.0."""
    rows = []
    for meta in metas:
        stats = meta["stats"]
        levels = "binary" if stats["grades"] == 2 else str(stats["grades"])
        rows.append(
            {
                "dataset": meta["dataset"],
                "pairs": stats["rows"],
                "queries": stats["queries"],
                "relevance": levels,
                "features": stats["features"],
                "note": "",
            }
        )
    return _finish(
        rows,
        metas,
        claims,
        prefix,
        ["pairs", "queries", "relevance", "features"],
        "Table 1.2: LETOR 3.0 data sets (reproduced; published in parentheses)",
    )


def _finish(
    rows: list[dict[str, Any]],
    metas: list[dict[str, Any]],
    claims: list[Claim],
    prefix: Path | str,
    columns: list[str],
    caption: str,
) -> pd.DataFrame:
    csv = f"{prefix}.csv"
    for row, meta in zip(rows, metas, strict=True):
        row["data_kind"] = meta["provenance"]["kind"]
        row["provenance"] = meta["provenance_line"]
        for col in columns:
            row[f"published_{col}"] = published_value(claims, csv, {"dataset": row["dataset"]}, col)
    tidy = pd.DataFrame(rows)
    shown = pd.DataFrame(
        {
            # A stand-in copies the published shape, so its numbers match by construction.
            "Data set": [
                dataset_label(NAMES.get(r["dataset"], r["dataset"]), r["data_kind"]) for r in rows
            ],
            **{
                col.capitalize(): [beside(r[col], r[f"published_{col}"]) for r in rows]
                for col in columns
            },
            **(
                {"Rows used": [f"{r['rows_used']} ({r['split_used']})" for r in rows]}
                if "rows_used" in rows[0]
                else {}
            ),
            "Data": [r["provenance"] for r in rows],
        }
    )
    write_table(prefix, tidy, shown, caption)
    return tidy
