"""How many replicates a figure family runs on one data set (config ``<family>.replicates``).

A replicate is one more training run under its own root seed (:func:`boostrank.seeds.
replicate_seed`); the spread over replicates is evidence only where a claim is judged, on real
data. The workflow asks once a data set is fetched (its ``fetch`` checkpoint).
"""

from __future__ import annotations


def replicates_for(configured: int, data_kind: str) -> int:
    """The configured count on real data (``data_kind`` one of
    :data:`boostrank.data.provenance.KINDS` other than ``synthetic``), one on a synthetic
    stand-in, whose numbers are never compared with the paper's."""
    if int(configured) < 1:
        raise ValueError(f"replicates must be at least 1, got {configured}")
    return 1 if data_kind == "synthetic" else int(configured)


__all__ = ["replicates_for"]
