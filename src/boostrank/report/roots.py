"""Where make readings' workflow copies live: each stage's root, ``<root>/<variant>/`` per
variant (:mod:`boostrank.report.readings`). A module of its own, so that the workflow and
:mod:`boostrank.experiments.reuse` read it without importing the readings' tables."""

from __future__ import annotations

ROOT = "results/readings"  # stage 1, the screen: ROOT/<variant>/results/...
ROOTS = {"screen": ROOT, "confirm": "results/readings-full"}  # stage 2 at the printed protocol

__all__ = ["ROOT", "ROOTS"]
