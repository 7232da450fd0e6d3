"""LETOR fold rotation and stratified partitions."""

import numpy as np
import pytest

from boostrank.data.folds import (
    assign_query_parts,
    letor_fold_masks,
    part_of_fold_test,
    stratified_partitions,
)
from boostrank.errors import BoostrankError


def test_fold_test_files_hold_the_parts_letor_documents():
    # LETOR 3.0 OHSUMED: Fold1/test = S5, Fold2/test = S1, ..., Fold5/test = S4.
    assert [part_of_fold_test(k) for k in range(1, 6)] == [5, 1, 2, 3, 4]


@pytest.mark.parametrize("fold", range(1, 6))
def test_fold_rotation_trains_on_three_parts_validates_and_tests_on_the_next(fold):
    part = np.repeat(np.arange(1, 6), 3)
    train, vali, test = letor_fold_masks(part, fold)
    expected = [(fold - 1 + o) % 5 + 1 for o in range(5)]
    assert set(part[train]) == set(expected[:3])
    assert set(part[vali]) == {expected[3]}
    assert set(part[test]) == {expected[4]}
    assert (train.astype(int) + vali + test == 1).all()  # a partition of the rows


def test_validation_part_of_a_fold_is_the_test_part_of_the_previous_fold():
    part = np.arange(1, 6)
    for fold in range(1, 6):
        previous = (fold - 2) % 5 + 1
        assert part[letor_fold_masks(part, fold)[1]] == part[letor_fold_masks(part, previous)[2]]


def test_bad_fold_number_is_a_clear_error():
    with pytest.raises(BoostrankError, match=r"fold must be in 1\.\.5"):
        letor_fold_masks(np.arange(1, 6), 6)


def test_query_parts_keep_each_query_whole_and_are_seeded():
    qid = np.repeat(np.arange(100, 123), 7)
    part = assign_query_parts(qid, 5, seed=3)
    for q in np.unique(qid):
        assert len(set(part[qid == q])) == 1
    per_part = [len(np.unique(qid[part == j])) for j in range(1, 6)]
    assert sorted(per_part) == [4, 4, 5, 5, 5]
    assert np.array_equal(part, assign_query_parts(qid, 5, seed=3))
    assert not np.array_equal(part, assign_query_parts(qid, 5, seed=4))


def test_stratified_partitions_keep_class_proportions():
    y = np.array([0] * 50 + [1] * 25 + [2] * 10)
    part = stratified_partitions(y, 5, seed=0)
    for j in range(5):
        counts = np.bincount(y[part == j], minlength=3)
        assert counts.tolist() == [10, 5, 2]
