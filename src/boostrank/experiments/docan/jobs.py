"""Document-analysis report, Reuters-21578 experiments: Figures 4-7 and the random-forest result.

Sengupta, *Document Analysis – Clustering, Classification and Ranking* (2018):

- Figure 4 and its table ("Dataset description ..."): topic frequencies, top ten highlighted;
- Figure 5 ("Results"; methods: "Clustering algorithms"): K-means total within-cluster sum of
  squares against k, and the Gaussian mixture's AIC/BIC against the number of components;
- Figures 6 and 7 ("Results"; method: "Classification", k-nearest neighbours): test accuracy
  against k = 1, 3, ..., 101 with cosine and Euclidean distance;
- the random forest's training and test accuracy ("Results"), here ``docan-table1``.

Clustering and classification use the TF-IDF corpus of :mod:`boostrank.preprocess.reuters_corpus`
(ModApte, ten topics). Protocol choices the report leaves open are recorded in each output's
``note`` column.

This module holds the jobs that fit (clustering, k-NN, random forest) and write each results
CSV; Figure 4's counts, the figures and the table are made from them by :mod:`.summary` and
:mod:`.figure`; the LETOR ranking jobs are in :mod:`.jobs_ranking`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from boostrank.experiments.docan.spec import DATASET, ClusteringSpec, ForestSpec, KnnSpec

if TYPE_CHECKING:
    import pandas as pd
    import scipy.sparse as sp


# --------------------------------------------------------------------------- shared helpers


def _provenance_columns(meta: dict[str, Any]) -> dict[str, str]:
    return {"data_kind": meta["data_kind"], "provenance": meta["provenance_line"]}


def describe_selection(meta: dict[str, Any]) -> str:
    """One sentence on which documents and text a corpus holds (for the ``note`` columns)."""
    settings, stats = meta["settings"], meta["stats"]
    rules = {
        "first": "whose first listed topic is one of them (label: that topic)",
        "any": "listing one of them (label: the first such topic)",
        "single": "with exactly one topic, one of them",
    }
    text = {"body": "BODY text", "title_body": "TITLE and BODY text"}[settings["text"]]
    return (
        f"ModApte documents of the top {settings['top_topics']} topics "
        f"{rules[settings['multi_topic']]}: {stats['train']['documents']} train / "
        f"{stats['test']['documents']} test after dropping "
        f"{stats['train']['dropped_empty'] + stats['test']['dropped_empty']} left empty; {text}; "
        f"Porter stemmer {settings['stemmer']}; TF-IDF over the {stats['vocabulary']} training "
        "terms, idf log2(N/df) of the training set"
    )


def _write_csv(path: Path | str, frame: pd.DataFrame) -> None:
    from boostrank.io import write_text

    write_text(path, frame.to_csv(index=False))


# --------------------------------------------------------------------------- Figure 5


def topic_frequency_table(
    raw_dir: Path | str, *, top_n: int = 10, counting: str = "tags"
) -> pd.DataFrame:
    """Figure 4's counts from the raw SGML in ``raw_dir``: one row per ModApte topic, most
    frequent first, under every counting.

    ``count`` is the chosen ``counting`` over the ModApte training and test documents: ``tags``
    counts every ``<D>`` tag, ``documents`` the documents listing the topic, ``first`` only first
    topics. The other columns give the alternatives (and the training / test / all-21,578
    document counts) so the table shows which counting reproduces the report's.
    """
    import pandas as pd

    from boostrank.preprocess import reuters

    docs = reuters.read_reuters(Path(raw_dir))
    split = reuters.modapte(docs)
    both = split["train"] + split["test"]
    columns = {
        "tags": reuters.topic_counts(both, "tags"),
        "documents": reuters.topic_counts(both, "documents"),
        "first_topic": reuters.topic_counts(both, "first"),
        "train_documents": reuters.topic_counts(split["train"], "documents"),
        "test_documents": reuters.topic_counts(split["test"], "documents"),
        "all_sgml_documents": reuters.topic_counts(docs, "documents"),
    }
    chosen = reuters.topic_counts(both, counting)
    order = sorted(columns["tags"], key=lambda t: (-chosen[t], t))
    rows = [
        {
            "dataset": DATASET,
            "topic": topic,
            "rank": rank,
            "count": chosen[topic],
            **{name: counts[topic] for name, counts in columns.items()},
            "top10": int(rank <= top_n),
        }
        for rank, topic in enumerate(order, start=1)
    ]
    return pd.DataFrame(rows)


def kneedle_elbow(ks: np.ndarray, values: np.ndarray) -> int:
    """The elbow of a decreasing curve by Kneedle (Satopää et al., 2011).

    Both axes are scaled to [0, 1]; the elbow is the k whose point lies farthest below the
    chord from the first to the last point, i.e. maximises (1 - x) - y (first k on ties).
    """
    ks, values = np.asarray(ks, dtype=float), np.asarray(values, dtype=float)
    x = (ks - ks.min()) / (ks.max() - ks.min())
    span = values.max() - values.min()
    y = (values - values.min()) / span if span > 0 else np.zeros_like(values)
    return int(ks[np.argmax((1 - x) - y)])


def second_difference_elbow(ks: np.ndarray, values: np.ndarray) -> int:
    """The k with the largest second difference W(k-1) - 2 W(k) + W(k+1) (interior points)."""
    values = np.asarray(values, dtype=float)
    second = values[:-2] - 2 * values[1:-1] + values[2:]
    return int(np.asarray(ks)[1 + int(np.argmax(second))])


def kmeans_wss(X: sp.spmatrix, ks: list[int], *, n_init: int, seed: int) -> np.ndarray:
    """Total within-cluster sum of squares of K-means (Lloyd, k-means++ starts) for each k."""
    from sklearn.cluster import KMeans

    return np.asarray(
        [KMeans(k, n_init=n_init, random_state=seed).fit(X).inertia_ for k in ks], dtype=float
    )


def gmm_information(
    Z: np.ndarray, components: list[int], *, covariance: str, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """AIC and BIC of a Gaussian mixture (EM) with each number of components."""
    from sklearn.mixture import GaussianMixture

    aic, bic = [], []
    for c in components:
        model = GaussianMixture(c, covariance_type=covariance, random_state=seed).fit(Z)
        aic.append(model.aic(Z))
        bic.append(model.bic(Z))
    return np.asarray(aic), np.asarray(bic)


def clustering_curves(
    corpus_path: Path,
    meta_path: Path,
    csv: Path,
    *,
    seed: int,
    k_max: int = 15,
    n_init: int = 5,
    svd_dim: int = 50,
    gmm_max: int = 15,
    covariance: str = "full",
) -> pd.DataFrame:
    """Figure 5's numbers: K-means WSS on the training TF-IDF and its elbow; GMM AIC/BIC.

    A Gaussian mixture on the ~15,000-dimensional sparse matrix is infeasible, so it is fitted
    to the matrix's TruncatedSVD. Seeds: K-means ``seed``, TruncatedSVD ``seed + 1``, GMM
    ``seed + 2``. Rows: series ``kmeans_wss``, ``gmm_aic``, ``gmm_bic`` (one per k) and the
    summaries ``kmeans_elbow`` (Kneedle), ``kmeans_elbow_second_difference``, ``gmm_*_min``.
    """
    import pandas as pd
    from sklearn.decomposition import TruncatedSVD

    from boostrank.io import read_json
    from boostrank.preprocess.reuters_corpus import load_corpus

    corpus, meta = load_corpus(corpus_path), read_json(meta_path)
    X = corpus.X_train
    ks = list(range(1, k_max + 1))
    wss = kmeans_wss(X, ks, n_init=n_init, seed=seed)
    svd = TruncatedSVD(svd_dim, random_state=seed + 1)
    Z = svd.fit_transform(X)
    components = list(range(1, gmm_max + 1))
    aic, bic = gmm_information(Z, components, covariance=covariance, seed=seed + 2)
    context = (
        f"K-means (k-means++, n_init={n_init}) on the {X.shape[0]} x {X.shape[1]} training "
        f"TF-IDF matrix; GMM ({covariance} covariance) on its TruncatedSVD to {svd_dim} "
        f"dimensions ({svd.explained_variance_ratio_.sum():.1%} of the variance); "
        f"{describe_selection(meta)}"
    )
    rows = [
        *({"series": "kmeans_wss", "k": k, "value": v} for k, v in zip(ks, wss, strict=True)),
        *({"series": "gmm_aic", "k": c, "value": v} for c, v in zip(components, aic, strict=True)),
        *({"series": "gmm_bic", "k": c, "value": v} for c, v in zip(components, bic, strict=True)),
        {
            "series": "kmeans_elbow",
            "value": kneedle_elbow(np.asarray(ks), wss),
            "note": f"Kneedle: the k farthest below the chord of the scaled WSS curve; {context}",
        },
        {
            "series": "kmeans_elbow_second_difference",
            "value": second_difference_elbow(np.asarray(ks), wss),
            "note": "the k of the largest second difference of WSS",
        },
        {"series": "gmm_aic_min", "value": components[int(np.argmin(aic))]},
        {"series": "gmm_bic_min", "value": components[int(np.argmin(bic))]},
    ]
    table = pd.DataFrame(rows).fillna({"k": "", "note": ""})
    table["value"] = pd.Series([row["value"] for row in rows], dtype=object)  # ints stay ints
    table["k"] = [str(int(k)) if k != "" else "" for k in table["k"]]
    table.insert(0, "dataset", DATASET)
    for key, value in _provenance_columns(meta).items():
        table[key] = value
    table = table[["dataset", "series", "k", "value", "data_kind", "provenance", "note"]]
    _write_csv(csv, table)
    return table


# --------------------------------------------------------------------------- Figures 6 and 7


def knn_correct(
    X_train: sp.spmatrix,
    y_train: np.ndarray,
    X_test: sp.spmatrix,
    y_test: np.ndarray,
    ks: list[int],
    *,
    metric: str,
    chunk: int = 1024,
) -> np.ndarray:
    """Whether the k-NN majority vote predicts each test document right, for every k in
    ``ks``: a boolean (test documents x ks) array (its column sums are the correct counts).

    The test x training distances are computed once (in row chunks); each row's neighbours are
    ordered by one stable sort (equal distances: lower training index first); the votes of the
    first k neighbours, for every k at once, come from one cumulative count. A tied vote goes to
    the lowest class index, as in scikit-learn's ``KNeighborsClassifier``.
    """
    from sklearn.metrics import pairwise_distances

    ks = list(ks)
    k_max = max(ks)
    n_classes = int(max(y_train.max(), y_test.max())) + 1
    correct = np.zeros((X_test.shape[0], len(ks)), dtype=bool)
    positions = np.asarray(ks) - 1
    for start in range(0, X_test.shape[0], chunk):
        D = pairwise_distances(X_test[start : start + chunk], X_train, metric=metric)
        order = np.argsort(D, axis=1, kind="stable")[:, :k_max]
        votes = np.zeros((order.shape[0], k_max, n_classes), dtype=np.int32)
        np.put_along_axis(votes, y_train[order][:, :, None], 1, axis=2)
        predicted = votes.cumsum(axis=1)[:, positions, :].argmax(axis=2)
        correct[start : start + chunk] = predicted == y_test[start : start + chunk, None]
    return correct


def knn_curve(
    corpus_path: Path,
    meta_path: Path,
    csv: Path,
    *,
    metric: str,
    ks: list[int],
    samples: Path | None = None,
) -> pd.DataFrame:
    """Figure 6 or 7's numbers: k-NN test accuracy for each k, and a ``best`` row; to
    ``samples``, whether the best k got each test document right (the claims' units: the
    same test documents for both metrics, so they pair)."""
    import pandas as pd

    from boostrank.io import read_json
    from boostrank.preprocess.reuters_corpus import load_corpus
    from boostrank.report.spread import samples_table

    corpus, meta = load_corpus(corpus_path), read_json(meta_path)
    per_document = knn_correct(
        corpus.X_train, corpus.y_train, corpus.X_test, corpus.y_test, ks, metric=metric
    )
    correct = per_document.sum(axis=0)
    n_test = len(corpus.y_test)
    best = int(np.argmax(correct))  # the smallest such k on ties
    rows = [
        {"k": str(k), "accuracy": round(int(c) / n_test, 6), "correct": int(c), "best_k": ""}
        for k, c in zip(ks, correct, strict=True)
    ]
    rows.append(
        {
            **rows[best],
            "k": "best",
            "best_k": str(ks[best]),
            "note": (
                f"the highest accuracy over k = {', '.join(map(str, ks[:2]))}, ..., {ks[-1]}; "
                f"{metric} distance, majority vote of the k nearest training documents (a tie "
                f"goes to the more frequent topic); {describe_selection(meta)}"
            ),
        }
    )
    table = pd.DataFrame(rows).fillna({"note": ""})
    table.insert(0, "metric", metric)
    table.insert(0, "dataset", DATASET)
    table["n_test"] = n_test
    for key, value in _provenance_columns(meta).items():
        table[key] = value
    columns = ["dataset", "metric", "k", "accuracy", "correct", "n_test", "best_k"]
    table = table[[*columns, "data_kind", "provenance", "note"]]
    _write_csv(csv, table)
    if samples is not None:
        units = [f"doc{i}" for i in range(n_test)]
        row = {"metric": metric, "k": "best"}
        found = samples_table(
            [(row, units, per_document[:, best])], "test document", list(row), "accuracy"
        )
        _write_csv(samples, found)
    return table


# --------------------------------------------------------------------------- random forest


def random_forest_accuracy(
    corpus_path: Path,
    meta_path: Path,
    csv: Path,
    *,
    seed: int,
    n_estimators: int = 500,
    max_features: str = "sqrt",
    min_samples_leaf: int = 1,
    n_jobs: int = 1,
    samples: Path | None = None,
    replicate: int = 1,
) -> pd.DataFrame:
    """The random forest's accuracy on the training set (resubstitution and out of bag) and on
    the test set. Defaults follow R's ``randomForest`` (500 trees, sqrt(p) features a split).
    To ``samples``, whether each document was classified right, per split (the claims' units:
    training documents for ``train`` and ``oob``, test documents for ``test``; a training
    document that no tree left out of its bootstrap has no out-of-bag vote and no ``oob``
    unit). ``replicate`` r grows the forest from :func:`boostrank.seeds.replicate_seed`
    (``seed``, r); replicate 1 is ``seed`` itself."""
    import pandas as pd
    from sklearn.ensemble import RandomForestClassifier

    from boostrank.io import read_json
    from boostrank.preprocess.reuters_corpus import load_corpus
    from boostrank.report.spread import samples_table
    from boostrank.seeds import replicate_seed

    seed = replicate_seed(seed, replicate)
    corpus, meta = load_corpus(corpus_path), read_json(meta_path)
    forest = RandomForestClassifier(
        n_estimators=n_estimators,
        max_features=_max_features(max_features),
        min_samples_leaf=min_samples_leaf,
        oob_score=True,
        n_jobs=n_jobs,
        random_state=seed,
    ).fit(corpus.X_train, corpus.y_train)
    setup = (
        f"RandomForestClassifier: {n_estimators} trees, max_features={max_features}, "
        f"min_samples_leaf={min_samples_leaf}, seed {seed}; {describe_selection(meta)}"
    )
    train_right = forest.predict(corpus.X_train) == corpus.y_train
    test_right = forest.predict(corpus.X_test) == corpus.y_test
    oob_votes = forest.oob_decision_function_
    voted = np.isfinite(oob_votes).all(axis=1) & (oob_votes.sum(axis=1) > 0)
    oob_right = forest.classes_[oob_votes[voted].argmax(axis=1)] == corpus.y_train[voted]
    results = [
        ("train", train_right.mean(), len(corpus.y_train),
         f"resubstitution: the forest scored on the documents it was grown on; {setup}"),
        ("oob", forest.oob_score_, len(corpus.y_train),
         "out-of-bag estimate on the training set (what R's randomForest prints)"),
        ("test", test_right.mean(), len(corpus.y_test), ""),
    ]  # fmt: skip
    table = pd.DataFrame(
        [
            {
                "dataset": DATASET,
                "split": split,
                "accuracy": round(float(accuracy), 6),
                "documents": n,
                **_provenance_columns(meta),
                "note": note,
            }
            for split, accuracy, n, note in results
        ]
    )
    _write_csv(csv, table)
    if samples is not None:
        train_ids = np.array([f"train{i}" for i in range(len(corpus.y_train))])
        groups = [
            ({"split": "train"}, train_ids, train_right),
            ({"split": "oob"}, train_ids[voted], oob_right),
            ({"split": "test"}, [f"test{i}" for i in range(len(corpus.y_test))], test_right),
        ]
        _write_csv(samples, samples_table(groups, "document", ["split"], "accuracy"))
    return table


def clustering_job(spec: ClusteringSpec) -> pd.DataFrame:
    """The job of :class:`.spec.ClusteringSpec`: :func:`clustering_curves`."""
    return clustering_curves(
        Path(spec.corpus),
        Path(spec.meta),
        Path(spec.csv),
        seed=spec.seed,
        k_max=spec.k_max,
        n_init=spec.n_init,
        svd_dim=spec.svd_dim,
        gmm_max=spec.gmm_max,
        covariance=spec.covariance,
    )


def knn_job(spec: KnnSpec) -> pd.DataFrame:
    """The job of :class:`.spec.KnnSpec`: :func:`knn_curve`."""
    return knn_curve(
        Path(spec.corpus),
        Path(spec.meta),
        Path(spec.csv),
        metric=spec.metric,
        ks=list(spec.ks),
        samples=Path(spec.samples),
    )


def forest_job(spec: ForestSpec) -> pd.DataFrame:
    """The job of :class:`.spec.ForestSpec`: :func:`random_forest_accuracy`, on as many threads
    as the rule gives the job (its OMP_NUM_THREADS); the forest is the same for any count."""
    return random_forest_accuracy(
        Path(spec.corpus),
        Path(spec.meta),
        Path(spec.csv),
        seed=spec.seed,
        n_estimators=spec.n_estimators,
        max_features=spec.max_features,
        min_samples_leaf=spec.min_samples_leaf,
        n_jobs=int(os.environ.get("OMP_NUM_THREADS") or 1),
        samples=Path(spec.samples),
        replicate=spec.replicate,
    )


def _max_features(value: str) -> str | int | float | None:
    """``sqrt``/``log2``/``all`` (None), an integer count, or a fraction of the features."""
    if value in ("sqrt", "log2"):
        return value
    if value == "all":
        return None
    return float(value) if "." in value else int(value)


__all__ = [
    "clustering_curves",
    "clustering_job",
    "describe_selection",
    "forest_job",
    "gmm_information",
    "kmeans_wss",
    "kneedle_elbow",
    "knn_correct",
    "knn_curve",
    "knn_job",
    "random_forest_accuracy",
    "second_difference_elbow",
]
