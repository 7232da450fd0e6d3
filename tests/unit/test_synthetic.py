"""Synthetic stand-ins: deterministic, with the published shape."""

import numpy as np
import pytest

from boostrank.data import synthetic


def _same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize(
    ("generator", "params"),
    [
        ("classification", {"rows": 300, "features": 7, "classes": 4}),
        ("letor", {"queries": 12, "rows": 400, "features": 9, "grades": [0.7, 0.2, 0.1]}),
        ("multilabel", {"rows": 200, "features": 5, "labels": 6, "cardinality": 1.9}),
        ("ratings", {"users": 30, "items": 50, "ratings": 600, "genres": 19}),
    ],
)
def test_same_seed_same_data_other_seed_other_data(generator, params):
    make = synthetic.GENERATORS[generator]
    assert _same(make(params, 11), make(params, 11))
    assert not _same(make(params, 11), make(params, 12))


def test_classification_shape_and_every_class_present():
    data = synthetic.classification({"rows": 500, "features": 16, "classes": 26}, seed=1)
    assert data["X"].shape == (500, 16)
    assert set(np.unique(data["y"])) == set(range(26))


def test_letor_shape_grades_and_query_level_normalisation():
    params = {"queries": 50, "rows": 5000, "features": 64, "grades": [0.99, 0.01]}
    data = synthetic.letor(params, seed=2)
    assert data["X"].shape == (5000, 64)
    assert len(np.unique(data["qid"])) == 50
    assert set(np.unique(data["y"])) <= {0, 1}
    assert 0.003 < data["y"].mean() < 0.02  # sparse relevance, as in LETOR's .Gov sets
    q = data["qid"] == data["qid"][0]
    informative = data["X"][q].max(axis=0) > data["X"][q].min(axis=0)
    assert np.allclose(data["X"][q][:, informative].min(axis=0), 0)
    assert np.allclose(data["X"][q][:, informative].max(axis=0), 1)
    assert set(np.unique(data["part"])) == {1, 2, 3, 4, 5}


def test_scale_shrinks_rows_but_keeps_features():
    params = {"queries": 100, "rows": 10000, "features": 46, "grades": [0.8, 0.15, 0.05]}
    data = synthetic.letor(params, seed=0, scale=0.1)
    assert len(data["y"]) == 1000 and len(np.unique(data["qid"])) == 10
    assert data["X"].shape[1] == 46


def test_multilabel_cardinality_and_no_empty_rows():
    data = synthetic.multilabel({"rows": 4000, "features": 8, "labels": 14, "cardinality": 4.2}, 0)
    assert (data["Y"].sum(axis=1) >= 1).all()
    assert abs(data["Y"].sum(axis=1).mean() - 4.2) < 0.3


def test_ratings_are_unique_pairs_on_the_1_to_5_scale():
    data = synthetic.ratings({"users": 40, "items": 60, "ratings": 900}, seed=5)
    pairs = set(zip(data["user"].tolist(), data["item"].tolist(), strict=True))
    assert len(pairs) == 900
    assert set(np.unique(data["rating"])) == {1, 2, 3, 4, 5}
    assert data["item_genres"].shape == (60, 19)
