"""What the table job of Tables 1.1 and 1.2 reads: the sidecars of the processed data sets
(``data/processed/<name>.json``), whose statistics the tables show."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def read_metas(paths: Sequence[Path | str]) -> list[dict[str, Any]]:
    """The processed sidecars, in the tables' row order."""
    from boostrank.data.prepare import load_meta

    return [load_meta(p) for p in paths]


__all__ = ["read_metas"]
