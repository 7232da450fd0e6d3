"""One seed derivation for every job (boostrank.seeds): stable, distinct per label, and pinned
to the values the experiments have always used, so that results stay byte-identical."""

import numpy as np
import pytest

from boostrank.seeds import (
    derive_seed,
    derive_seeds,
    estimator_streams,
    standin_seed,
    tree_seeds,
)


def test_derive_seed_is_stable_and_distinct_per_label():
    a = derive_seed(7, "thesis-fig3_1", "ohsumed", "frank", 1)
    assert a == derive_seed(7, "thesis-fig3_1", "ohsumed", "frank", 1)
    others = {
        derive_seed(7, "thesis-fig3_1", "ohsumed", "frank", 2),
        derive_seed(7, "thesis-fig3_1", "td2003", "frank", 1),
        derive_seed(7, "thesis-fig3_1", "ohsumed", "listnet", 1),
        derive_seed(8, "thesis-fig3_1", "ohsumed", "frank", 1),
    }
    assert a not in others and len(others) == 4


def test_seeds_are_the_ones_the_results_were_made_with():
    # values of the per-module functions this one replaced (chapter3.job_seed,
    # chapter4.stable_seed, topk.derive_seed), computed before the change
    assert derive_seed(5, "thesis-fig3_1", "ohsumed", "regression", 2) == 3062116620
    assert derive_seed(20100601, "thesis-ch4", "ohsumed", "ties") == 1369179819
    assert derive_seed(20100601, "topk-table1", "yeast", "order", 0, bits=63) == (
        3477601908068913186
    )
    runs = derive_seeds(3, ["chapter5-orders", "pendigits"], 4)
    assert runs.dtype == np.uint64 and len(set(runs.tolist())) == 4
    assert derive_seeds(3, ["chapter5-orders", "pendigits"], 2).tolist() == runs[:2].tolist()
    with pytest.raises(ValueError, match="bits"):
        derive_seed(1, "x", bits=16)


def test_the_stand_in_and_tree_seeds_are_the_ones_the_results_were_made_with():
    # values of the schemes these replaced (data.prepare's stand-in stream, ranking.gbt's
    # tree_seeds), computed before the move
    assert standin_seed(20100601, "ohsumed") == 472256801
    assert standin_seed(20100601, "td2003") != standin_seed(20100601, "ohsumed")
    assert standin_seed(20100602, "ohsumed") != standin_seed(20100601, "ohsumed")
    trees = tree_seeds(20100601, 4)
    assert trees.tolist() == [122081859, 925145688, 651462584, 1009870224]
    assert tree_seeds(np.int64(7), 2).tolist() == [2083679832, 1792079617]
    assert tree_seeds(20100601, 2).tolist() == trees[:2].tolist()  # more trees, same first ones
    assert all(0 <= s < 2**31 for s in tree_seeds(3, 1000).tolist())  # scikit-learn's range


def test_replicates_run_on_real_data_and_once_on_a_stand_in():
    from boostrank.data.provenance import KINDS
    from boostrank.replicates import replicates_for

    assert {kind: replicates_for(5, kind) for kind in KINDS} == {
        "real": 5,
        "mirror": 5,
        "embedded": 5,
        "synthetic": 1,
    }
    assert replicates_for(1, "mirror") == 1
    with pytest.raises(ValueError, match="at least 1"):
        replicates_for(0, "mirror")


def test_an_estimators_streams_are_independent_and_those_the_topk_learner_drew_from():
    # the values of the top-k learner's own SeedSequence(random_state).spawn(3), before the move
    streams = estimator_streams(20100601, 3)
    assert [g.integers(0, 2**31, 2).tolist() for g in streams] == [
        [1287110206, 1158148357],
        [1414353108, 2084679075],
        [1764425699, 775789491],
    ]
    again = estimator_streams(20100601, 4)  # one more stream leaves the first three as they were
    assert [g.integers(0, 2**31, 2).tolist() for g in again[:3]] == [
        g.integers(0, 2**31, 2).tolist() for g in estimator_streams(20100601, 3)
    ]
