"""Helpers every experiment shares (seeds live in :mod:`boostrank.seeds`, the processed-data
loaders in :mod:`boostrank.data.prepare`)."""

from __future__ import annotations

from typing import Any


def letor_label(meta: dict[str, Any]) -> str:
    """The name a LETOR data set carries in every output: ``OHSUMED``, ``MQ2008``,
    ``OHSUMED (features rebuilt)`` or ``TD2003 [synthetic stand-in]`` (as Figure 3.1 names
    them)."""
    name = meta["dataset"].removesuffix("_rebuilt").upper()
    if meta["dataset"].endswith("_rebuilt"):
        name += " (features rebuilt)"
    if meta["provenance"]["kind"] == "synthetic":
        name += " [synthetic stand-in]"
    return name


__all__ = ["letor_label"]
