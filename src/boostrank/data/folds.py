"""Cross-validation partitions.

LETOR's rotation (Qin et al., LETOR 3.0): the queries are split into five parts S1..S5, and fold k
trains on S_k, S_k+1, S_k+2, validates on S_k+3 and tests on S_k+4 (indices cyclic, 1-based).
The official LETOR fold files are used where they exist; elsewhere queries are assigned to parts
with a seed. Classification protocols use stratified partitions.
"""

from __future__ import annotations

import numpy as np

from boostrank.errors import BoostrankError


def part_of_fold_test(fold: int, n_folds: int = 5) -> int:
    """The part S_j held by fold ``fold``'s test file: j = fold + 4 (cyclic), e.g. Fold1 -> S5."""
    return (fold + n_folds - 2) % n_folds + 1


def letor_fold_masks(
    part: np.ndarray, fold: int, n_folds: int = 5
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Boolean (train, validation, test) row masks of LETOR fold ``fold`` (1-based)."""
    if not 1 <= fold <= n_folds:
        raise BoostrankError(f"fold must be in 1..{n_folds}, got {fold}")

    def parts(offsets: range) -> np.ndarray:
        wanted = [(fold - 1 + o) % n_folds + 1 for o in offsets]
        return np.isin(part, wanted)

    return (
        parts(range(0, n_folds - 2)),
        parts(range(n_folds - 2, n_folds - 1)),
        parts(range(n_folds - 1, n_folds)),
    )


def assign_query_parts(qid: np.ndarray, n_folds: int = 5, *, seed: int) -> np.ndarray:
    """Assign each row the part (1..n_folds) of its query, queries shuffled with ``seed``."""
    queries = np.unique(qid)
    if len(queries) < n_folds:
        raise BoostrankError(f"{len(queries)} queries cannot fill {n_folds} parts")
    order = np.random.default_rng(seed).permutation(len(queries))
    query_part = np.empty(len(queries), dtype=np.int8)
    for j, chunk in enumerate(np.array_split(order, n_folds), start=1):
        query_part[chunk] = j
    return query_part[np.searchsorted(queries, qid)]


def stratified_partitions(y: np.ndarray, n_parts: int = 5, *, seed: int) -> np.ndarray:
    """Assign each row a part 0..n_parts-1 so that every part keeps the class proportions."""
    # lazy: importing scikit-learn is slow, and only this function uses it
    from sklearn.model_selection import StratifiedKFold

    part = np.empty(len(y), dtype=np.int8)
    splitter = StratifiedKFold(n_splits=n_parts, shuffle=True, random_state=seed)
    for j, (_, test) in enumerate(splitter.split(np.zeros(len(y)), y)):
        part[test] = j
    return part
