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
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from boostrank.plots import pyplot, save_figure

if TYPE_CHECKING:
    import pandas as pd
    import scipy.sparse as sp

    from boostrank.preprocess.reuters import ReutersDoc

log = logging.getLogger(__name__)

DATASET = "reuters21578"
_HIGHLIGHT, _OTHER, _PUBLISHED = "#1f77b4", "#b0b0b0", "#d62728"


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


# --------------------------------------------------------------------------- Figure 4


def topic_frequency_table(
    docs: list[ReutersDoc], *, top_n: int = 10, counting: str = "tags"
) -> pd.DataFrame:
    """One row per ModApte topic, most frequent first, under every counting.

    ``count`` is the chosen ``counting`` over the ModApte training and test documents: ``tags``
    counts every ``<D>`` tag, ``documents`` the documents listing the topic, ``first`` only first
    topics. The other columns give the alternatives (and the training / test / all-21,578
    document counts) so the table shows which counting reproduces the report's.
    """
    import pandas as pd

    from boostrank.preprocess import reuters

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


def figure4(
    raw_dir: Path,
    provenance_path: Path,
    claims_path: Path,
    csv: Path,
    prefix: Path,
    *,
    top_n: int = 10,
    counting: str = "tags",
    shown: int = 30,
) -> pd.DataFrame:
    """Figure 4: topic frequencies with the published counts beside them."""
    from boostrank.data.provenance import Provenance
    from boostrank.preprocess import reuters
    from boostrank.report.claims import load_claims, published_value

    provenance = Provenance.load(provenance_path)
    claims = load_claims(claims_path)
    table = topic_frequency_table(reuters.read_reuters(raw_dir), top_n=top_n, counting=counting)
    published = [published_value(claims, str(csv), {"topic": t}, "count") for t in table["topic"]]
    table["published_count"] = ["" if p is None else p for p in published]
    with_published = table[table["published_count"] != ""]
    published_counts = with_published["published_count"].astype(int)
    alternatives = ("tags", "documents", "first_topic", "train_documents", "all_sgml_documents")
    matching = [
        name
        for name in alternatives
        if len(with_published) and (with_published[name].astype(int) == published_counts).all()
    ]
    note = (
        f"count: {counting} over the ModApte training and test documents (TOPICS=YES, "
        "LEWISSPLIT TRAIN/TEST); countings equal to every published count: "
        + (", ".join(matching) or "none")
    )
    table["data_kind"] = provenance.kind
    table["provenance"] = provenance.describe()
    table["note"] = [note if r == 1 else "" for r in table["rank"]]
    _write_csv(csv, table)

    plt = pyplot()
    head = table.head(shown)
    fig, ax = plt.subplots(figsize=(10, 4.8), layout="constrained")
    colours = [_HIGHLIGHT if t else _OTHER for t in head["top10"]]
    x = np.arange(len(head))
    ax.bar(x, head["count"], color=colours, label=f"top {top_n} topics (reproduced)")
    pub = head[head["published_count"] != ""]
    ax.scatter(
        x[pub.index.to_numpy()],
        pub["published_count"].astype(float),
        marker="_",
        s=220,
        linewidths=2.5,
        color=_PUBLISHED,
        zorder=3,
        label="published (Figure 4 table)",
    )
    for xi, value in zip(x[:top_n], head["count"][:top_n], strict=True):
        ax.annotate(str(value), (xi, value), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, head["topic"], rotation=70, ha="right", fontsize=8)
    ax.set_xlabel("Topic")
    ax.set_ylabel("Frequency")
    ax.set_title(
        f"Figure 4: topics vs frequency (Reuters-21578 ModApte, {shown} most frequent "
        f"of {len(table)} topics)"
    )
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    save_figure(fig, prefix, table["provenance"])
    return table


# --------------------------------------------------------------------------- Figure 5


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
    covariance: str = "diag",
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


def _claim_band(claims_path: Path, csv: str, row: dict[str, Any], column: str) -> tuple | None:
    """(low, high) of the published value of the claim reading ``row``/``column``, or None."""
    from boostrank.report.claims import load_claims

    for claim in load_claims(claims_path):
        ref = claim.reproduce
        same = Path(str(ref.get("file"))).name == Path(csv).name and ref.get("row") == row
        if same and ref.get("column") == column and claim.rule.get("type") == "abs":
            tol = float(claim.rule["tol"])
            return float(claim.published) - tol, float(claim.published) + tol
    return None


def plot_figure5(csv: Path, claims_path: Path, prefix: Path) -> None:
    """Draw Figure 5 from its results CSV (the published elbow band from the claims)."""
    import pandas as pd

    table = pd.read_csv(csv, dtype={"k": str}, keep_default_na=False)

    def series(name: str) -> tuple[np.ndarray, np.ndarray]:
        part = table[table["series"] == name]
        return part["k"].astype(int).to_numpy(), part["value"].astype(float).to_numpy()

    def summary(name: str) -> int:
        return int(float(table.loc[table["series"] == name, "value"].iloc[0]))

    ks, wss = series("kmeans_wss")
    band = _claim_band(claims_path, str(csv), {"series": "kmeans_elbow"}, "value")
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4), layout="constrained")
    left.plot(ks, wss, "o-", color=_HIGHLIGHT, label="K-means")
    knee, second = summary("kmeans_elbow"), summary("kmeans_elbow_second_difference")
    left.axvline(knee, color=_PUBLISHED, ls="--", lw=1, label=f"elbow (Kneedle): k = {knee}")
    left.axvline(second, color="grey", ls=":", lw=1, label=f"largest 2nd difference: k = {second}")
    if band is not None:
        low, high = band
        left.axvspan(low, high, color="orange", alpha=0.15, label="published elbow (k = 3 or 4)")
    left.set_xlabel("Number of clusters k")
    left.set_ylabel("Total within-cluster sum of squares")
    left.set_title("K-means on the training TF-IDF matrix")
    left.legend(frameon=False, fontsize=8)
    for name, marker in (("gmm_aic", "o-"), ("gmm_bic", "s-")):
        components, values = series(name)
        right.plot(components, values, marker, ms=4, label=name.removeprefix("gmm_").upper())
    right.set_xlabel("Number of mixture components")
    right.set_ylabel("Information criterion (lower is better)")
    right.set_title("Gaussian mixture on a TruncatedSVD of it")
    right.legend(frameon=False, fontsize=8)
    for ax in (left, right):
        ax.grid(alpha=0.3)
    fig.suptitle(
        "Figure 5: total within-cluster sum of squares vs number of clusters (Reuters-21578)"
    )
    save_figure(fig, prefix, table["provenance"])


# --------------------------------------------------------------------------- Figures 6 and 7


def knn_correct_counts(
    X_train: sp.spmatrix,
    y_train: np.ndarray,
    X_test: sp.spmatrix,
    y_test: np.ndarray,
    ks: list[int],
    *,
    metric: str,
    chunk: int = 1024,
) -> np.ndarray:
    """Correct test predictions of the k-NN majority vote for every k in ``ks``.

    The test x training distances are computed once (in row chunks); each row's neighbours are
    ordered by one stable sort (equal distances: lower training index first); the votes of the
    first k neighbours, for every k at once, come from one cumulative count. A tied vote goes to
    the lowest class index, as in scikit-learn's ``KNeighborsClassifier``.
    """
    from sklearn.metrics import pairwise_distances

    ks = list(ks)
    k_max = max(ks)
    n_classes = int(max(y_train.max(), y_test.max())) + 1
    correct = np.zeros(len(ks), dtype=np.int64)
    positions = np.asarray(ks) - 1
    for start in range(0, X_test.shape[0], chunk):
        D = pairwise_distances(X_test[start : start + chunk], X_train, metric=metric)
        order = np.argsort(D, axis=1, kind="stable")[:, :k_max]
        votes = np.zeros((order.shape[0], k_max, n_classes), dtype=np.int32)
        np.put_along_axis(votes, y_train[order][:, :, None], 1, axis=2)
        predicted = votes.cumsum(axis=1)[:, positions, :].argmax(axis=2)
        correct += (predicted == y_test[start : start + chunk, None]).sum(axis=0)
    return correct


def knn_curve(
    corpus_path: Path, meta_path: Path, csv: Path, *, metric: str, ks: list[int]
) -> pd.DataFrame:
    """Figure 6 or 7's numbers: k-NN test accuracy for each k, and a ``best`` row."""
    import pandas as pd

    from boostrank.io import read_json
    from boostrank.preprocess.reuters_corpus import load_corpus

    corpus, meta = load_corpus(corpus_path), read_json(meta_path)
    correct = knn_correct_counts(
        corpus.X_train, corpus.y_train, corpus.X_test, corpus.y_test, ks, metric=metric
    )
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
    return table


_KNN_TITLES = {"cosine": "Figure 6: cosine distance vs k", "euclidean": "Figure 7: Euclidean vs k"}


def plot_knn(csv: Path, claims_path: Path, prefix: Path) -> None:
    """Draw Figure 6 or 7 from its results CSV, with the published maximum where one exists."""
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value

    table = pd.read_csv(csv, dtype={"k": str, "best_k": str}, keep_default_na=False)
    metric = table["metric"].iloc[0]
    curve = table[table["k"] != "best"]
    ks, accuracy = curve["k"].astype(int).to_numpy(), 100 * curve["accuracy"].to_numpy()
    best_row = table[table["k"] == "best"].iloc[0]
    best_k, best_accuracy = int(best_row["best_k"]), 100 * float(best_row["accuracy"])
    published = published_value(
        load_claims(claims_path), str(csv), {"metric": metric, "k": "best"}, "accuracy"
    )
    if not isinstance(published, int | float):  # e.g. Figure 7's ordinal claim
        published = None
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    ax.plot(ks, accuracy, "o-", ms=3, color=_HIGHLIGHT, label="reproduced (test set)")
    ax.plot(best_k, best_accuracy, "*", ms=12, color=_HIGHLIGHT)
    near_left = best_k - ks.min() < 0.15 * (ks.max() - ks.min())
    ax.annotate(
        f"max {best_accuracy:.1f}% at k = {best_k}",
        (best_k, best_accuracy),
        textcoords="offset points",
        xytext=(6 if near_left else 0, 9),
        ha="left" if near_left else "center",
        fontsize=8,
    )
    low = min(accuracy.min(), 100 * float(published) if published is not None else 100)
    ax.set_ylim(low - 3, best_accuracy + 4)
    if published is not None:
        ax.axhline(
            100 * float(published),
            color=_PUBLISHED,
            ls="--",
            lw=1,
            label=f"published maximum ({100 * float(published):.1f}%)",
        )
    ax.set_xlabel("k (number of neighbours)")
    ax.set_ylabel("Test accuracy (%)")
    ax.set_title(_KNN_TITLES.get(metric, f"{metric} vs k"))
    ax.legend(frameon=False, fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    save_figure(fig, prefix, table["provenance"])


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
) -> pd.DataFrame:
    """The random forest's accuracy on the training set (resubstitution and out of bag) and on
    the test set. Defaults follow R's ``randomForest`` (500 trees, sqrt(p) features a split)."""
    import pandas as pd
    from sklearn.ensemble import RandomForestClassifier

    from boostrank.io import read_json
    from boostrank.preprocess.reuters_corpus import load_corpus

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
    results = [
        ("train", forest.score(corpus.X_train, corpus.y_train), len(corpus.y_train),
         f"resubstitution: the forest scored on the documents it was grown on; {setup}"),
        ("oob", forest.oob_score_, len(corpus.y_train),
         "out-of-bag estimate on the training set (what R's randomForest prints)"),
        ("test", forest.score(corpus.X_test, corpus.y_test), len(corpus.y_test), ""),
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
    return table


_SET_NAMES = {"train": "training (resubstitution)", "oob": "training (out of bag)", "test": "test"}


def table1(results_csv: Path, claims_path: Path, prefix: Path) -> pd.DataFrame:
    """The random-forest table (CSV, Markdown, LaTeX) with the published accuracies beside."""
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value
    from boostrank.report.render import beside, write_table

    tidy = pd.read_csv(results_csv, keep_default_na=False)
    claims = load_claims(claims_path)
    csv = f"{prefix}.csv"
    published = [published_value(claims, csv, {"split": s}, "accuracy") for s in tidy["split"]]
    tidy.insert(4, "published_accuracy", ["" if p is None else p for p in published])
    shown = pd.DataFrame(
        {
            "Set": [_SET_NAMES.get(s, s) for s in tidy["split"]],
            "Accuracy": [
                beside(f"{100 * float(a):.2f}%", _percent(p))
                for a, p in zip(tidy["accuracy"], tidy["published_accuracy"], strict=True)
            ],
            "Documents": tidy["documents"],
            "Data": tidy["provenance"],
        }
    )
    write_table(
        prefix,
        tidy,
        shown,
        "Random forest on Reuters-21578 (ModApte, top 10 topics): accuracy "
        "(reproduced; published in parentheses)",
    )
    return tidy


def _max_features(value: str) -> str | int | float | None:
    """``sqrt``/``log2``/``all`` (None), an integer count, or a fraction of the features."""
    if value in ("sqrt", "log2"):
        return value
    if value == "all":
        return None
    return float(value) if "." in value else int(value)


def _percent(value: object) -> str | None:
    return None if value in ("", None) else f"{100 * float(value):.2f}%"


# --------------------------------------------------------------------------- command line


def _cmd_fig4(args: argparse.Namespace) -> None:
    figure4(
        args.raw_dir,
        args.provenance,
        args.claims,
        args.csv,
        args.figure_prefix,
        top_n=args.top_topics,
        counting=args.topic_counting,
    )


def _cmd_clustering(args: argparse.Namespace) -> None:
    clustering_curves(
        args.corpus,
        args.meta,
        args.csv,
        seed=args.seed,
        k_max=args.k_max,
        n_init=args.n_init,
        svd_dim=args.svd_dim,
        gmm_max=args.gmm_max,
        covariance=args.covariance,
    )


def _cmd_knn(args: argparse.Namespace) -> None:
    knn_curve(
        args.corpus,
        args.meta,
        args.csv,
        metric=args.metric,
        ks=list(range(args.k_min, args.k_max + 1, args.k_step)),
    )


def _cmd_forest(args: argparse.Namespace) -> None:
    random_forest_accuracy(
        args.corpus,
        args.meta,
        args.csv,
        seed=args.seed,
        n_estimators=args.n_estimators,
        max_features=args.max_features,
        min_samples_leaf=args.min_samples_leaf,
        n_jobs=args.n_jobs,
    )


def _cmd_plot(args: argparse.Namespace) -> None:
    if args.figure == "fig5":
        plot_figure5(args.csv, args.claims, args.figure_prefix)
    else:
        plot_knn(args.csv, args.claims, args.figure_prefix)


def _cmd_table1(args: argparse.Namespace) -> None:
    table1(args.results, args.claims, args.out_prefix)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``docan-*`` sub-commands of the Reuters-21578 experiments."""

    def corpus_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--corpus", type=Path, required=True, help="reuters-corpus .npz")
        p.add_argument("--meta", type=Path, required=True, help="its .json sidecar")
        p.add_argument("--csv", type=Path, required=True, help="results CSV to write")

    p = sub.add_parser("docan-fig4", help="docan Figure 4: Reuters-21578 topic frequencies")
    p.add_argument("--raw-dir", type=Path, required=True)
    p.add_argument("--provenance", type=Path, required=True)
    p.add_argument("--claims", type=Path, default=Path("config/claims.yaml"))
    p.add_argument("--csv", type=Path, required=True)
    p.add_argument("--figure-prefix", type=Path, required=True, help="writes .png and .pdf")
    p.add_argument("--top-topics", type=int, default=10)
    p.add_argument("--topic-counting", choices=("tags", "documents", "first"), default="tags")
    p.set_defaults(func=_cmd_fig4)

    p = sub.add_parser("docan-clustering", help="docan Figure 5 numbers: K-means WSS, GMM AIC/BIC")
    corpus_args(p)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--k-max", type=int, default=15)
    p.add_argument("--n-init", type=int, default=5)
    p.add_argument("--svd-dim", type=int, default=50)
    p.add_argument("--gmm-max", type=int, default=15)
    p.add_argument("--covariance", choices=("full", "tied", "diag", "spherical"), default="diag")
    p.set_defaults(func=_cmd_clustering)

    p = sub.add_parser("docan-knn", help="docan Figures 6/7 numbers: k-NN accuracy against k")
    corpus_args(p)
    p.add_argument("--metric", choices=("cosine", "euclidean"), required=True)
    p.add_argument("--k-min", type=int, default=1)
    p.add_argument("--k-max", type=int, default=101)
    p.add_argument("--k-step", type=int, default=2)
    p.set_defaults(func=_cmd_knn)

    p = sub.add_parser("docan-forest", help="docan random forest: train/OOB/test accuracy")
    corpus_args(p)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--n-estimators", type=int, default=500)
    p.add_argument("--max-features", default="sqrt")
    p.add_argument("--min-samples-leaf", type=int, default=1)
    p.add_argument("--n-jobs", type=int, default=1)
    p.set_defaults(func=_cmd_forest)

    p = sub.add_parser("docan-plot", help="draw docan Figure 5, 6 or 7 from its results CSV")
    p.add_argument("figure", choices=("fig5", "fig6", "fig7"))
    p.add_argument("--csv", type=Path, required=True)
    p.add_argument("--claims", type=Path, default=Path("config/claims.yaml"))
    p.add_argument("--figure-prefix", type=Path, required=True, help="writes .png and .pdf")
    p.set_defaults(func=_cmd_plot)

    p = sub.add_parser("docan-table1", help="docan random-forest table from its results CSV")
    p.add_argument("--results", type=Path, required=True)
    p.add_argument("--claims", type=Path, default=Path("config/claims.yaml"))
    p.add_argument("--out-prefix", type=Path, required=True)
    p.set_defaults(func=_cmd_table1)
