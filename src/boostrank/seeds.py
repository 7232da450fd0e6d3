"""Seeds: every random step of the pipeline draws its seed from the config's root seed and
the labels of the step (figure, data set, method, fold, ...), so that the same config gives
the same numbers and changing one job's labels does not move another job's seed.

A label is hashed as the CRC-32 of its ``str``; the root and the hashes seed numpy's
``SeedSequence``. Two seeds hash no labels but keep their own entropy: a synthetic
stand-in's seed (:func:`standin_seed`) and the per-tree seeds of a boosted ensemble
(:func:`tree_seeds`). An estimator that makes several random draws splits its own
``random_state`` into independent streams (:func:`estimator_streams`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def _sequence(root: int, keys: Iterable[Any]) -> np.random.SeedSequence:
    import zlib

    import numpy as np

    return np.random.SeedSequence([int(root), *(zlib.crc32(str(k).encode()) for k in keys)])


def derive_seed(root: int, *keys: Any, bits: int = 32) -> int:
    """One seed for the step labelled ``keys``: 32 bits, or (``bits=63``) a 64-bit state
    shifted right by one, a non-negative int64 (top-k's jobs)."""
    import numpy as np

    if bits == 63:
        return int(_sequence(root, keys).generate_state(1, np.uint64)[0] >> 1)
    if bits != 32:
        raise ValueError(f"bits must be 32 or 63, not {bits}")
    return int(_sequence(root, keys).generate_state(1)[0])


def derive_seeds(root: int, keys: Iterable[Any], n: int) -> np.ndarray:
    """``n`` 64-bit seeds (one per run) for the step labelled ``keys``."""
    import numpy as np

    return _sequence(root, keys).generate_state(n, dtype=np.uint64)


def standin_seed(root: int, name: str) -> int:
    """The 32-bit seed of data set ``name``'s synthetic stand-in: the root seed and the bytes of
    the name as ``SeedSequence`` entropy (each data set its own stream)."""
    import numpy as np

    return int(np.random.SeedSequence([int(root), *name.encode()]).generate_state(1)[0])


def tree_seeds(random_state: int, n_trees: int) -> np.ndarray:
    """One ``random_state`` per tree of a boosted ensemble (scikit-learn's trees break ties
    between equally good splits with it): ``n_trees`` 31-bit seeds drawn from the estimator's
    own ``random_state``."""
    import numpy as np

    return np.random.SeedSequence(int(random_state)).generate_state(n_trees) & 0x7FFFFFFF


def estimator_streams(random_state: int, n: int) -> list[np.random.Generator]:
    """``n`` independent generators spawned from an estimator's own ``random_state``, one per
    kind of random draw it makes (e.g. weak learners' initialisation, rounds, tie-breaks)."""
    import numpy as np

    return [np.random.default_rng(s) for s in np.random.SeedSequence(int(random_state)).spawn(n)]


def replicate_seed(root: int, replicate: int) -> int:
    """The root seed of replicate ``replicate`` (1, 2, ...) of a figure family: replicate 1 is
    the config's root seed itself (a run of one replicate is the run without replicates),
    replicate r >= 2 the seed derived from (root, "replicate", r); every job of the replicate
    derives its own seeds from it as usual."""
    if int(replicate) < 1:
        raise ValueError(f"replicates count from 1, got {replicate}")
    return int(root) if int(replicate) == 1 else derive_seed(root, "replicate", int(replicate))


__all__ = [
    "derive_seed",
    "derive_seeds",
    "estimator_streams",
    "replicate_seed",
    "standin_seed",
    "tree_seeds",
]
