"""Tables 1.1 and 1.2 of the dissertation (Valizadegan 2010, section 1.6): the benchmark data sets,
computed from the data the run actually used, beside the published values: one row per data
set, from its processed sidecar's statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boostrank.experiments.datasets.spec import SPLIT_WORDS, TABLE1_1_SPLIT
from boostrank.report.claims import Claim, published_value


def table1_1(metas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table 1.1: instances (training set), features and classes of each classification set."""
    rows = []
    for meta in metas:
        name, stats = meta["dataset"], meta["stats"]
        split = TABLE1_1_SPLIT.get(name, "train")
        instances = stats.get("split_rows", {}).get(split, "")
        note = ""
        if instances == "":
            held = SPLIT_WORDS.get(stats.get("split"), stats.get("split"))
            note = (
                f"the source holds {held} ({stats['rows']} rows); the size of the "
                f"{SPLIT_WORDS[split].removeprefix('the ')} cannot be established from it"
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
    return rows


def table1_2(metas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table 1.2: query-document pairs, queries, relevance levels and features of LETOR 3.0;
    and, in the CSV only, the judged documents per query (pairs over queries, one decimal),
    which section 1.6.2's prose states ("each query equipped with around 1000 manually judged
    documents")."""
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
                "pairs_per_query": round(stats["rows"] / stats["queries"], 1),
                "note": "",
            }
        )
    return rows


ROWS = {"thesis-table1_1": table1_1, "thesis-table1_2": table1_2}


def with_published(
    rows: list[dict[str, Any]],
    metas: list[dict[str, Any]],
    claims: list[Claim],
    prefix: Path | str,
    columns: tuple[str, ...] | list[str],
) -> list[dict[str, Any]]:
    """Complete each row (in place) with its data's provenance and, for each of ``columns``, the
    published value of the claim that reads it in ``<prefix>.csv``."""
    csv = f"{prefix}.csv"
    for row, meta in zip(rows, metas, strict=True):
        row["data_kind"] = meta["provenance"]["kind"]
        row["provenance"] = meta["provenance_line"]
        for col in columns:
            row[f"published_{col}"] = published_value(claims, csv, {"dataset": row["dataset"]}, col)
    return rows


__all__ = ["ROWS", "table1_1", "table1_2", "with_published"]
