"""Helpers every experiment shares (seeds live in :mod:`boostrank.seeds`, the processed-data
loaders in :mod:`boostrank.data.prepare`): the names data sets carry in every output."""

from __future__ import annotations

from typing import Any

STANDIN_MARK = " [synthetic stand-in]"  # never let a stand-in pass for the real thing

# The classification data sets (dissertation Table 1.1) as outputs name them.
CLASSIFICATION_NAMES = {
    "protein": "Protein",
    "pendigits": "Pendigits",
    "isolet": "Isolet",
    "nursery": "Nursery",
    "optdigits": "Optdigits",
    "letter": "Letter",
    "mnist": "MNIST",
}


def dataset_label(name: str, kind: str) -> str:
    """``name`` as every output shows it: marked ``[synthetic stand-in]`` when ``kind`` (the
    provenance kind: real, mirror, embedded or synthetic) says it is one."""
    return name + STANDIN_MARK if kind == "synthetic" else name


def classification_label(meta: dict[str, Any]) -> str:
    """``Letter`` or ``Isolet [synthetic stand-in]``, from a processed data set's metadata."""
    name = CLASSIFICATION_NAMES.get(meta["dataset"], meta["dataset"].capitalize())
    return dataset_label(name, meta["provenance"]["kind"])


def letor_label(meta: dict[str, Any]) -> str:
    """The name a LETOR data set carries in every output: ``OHSUMED``, ``MQ2008``,
    ``OHSUMED (features rebuilt)`` or ``TD2003 [synthetic stand-in]`` (as Figure 3.1 names
    them)."""
    name = meta["dataset"].removesuffix("_rebuilt").upper()
    if meta["dataset"].endswith("_rebuilt"):
        name += " (features rebuilt)"
    return dataset_label(name, meta["provenance"]["kind"])


__all__ = [
    "CLASSIFICATION_NAMES",
    "STANDIN_MARK",
    "classification_label",
    "dataset_label",
    "letor_label",
]
