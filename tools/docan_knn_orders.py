"""Sengupta (2018), Results, Figures 6-7: k-NN test accuracy under each reading of the
report's neighbour order, on a run's Reuters corpus (a diagnosis tool, not a pipeline step).

The report defines "cosine distance = cos(theta)" and its algorithm says "these distances are
arranged in descending order. The top k observations are taken." Taken literally that keeps
the most similar documents for cos(theta) and the farthest ones for the Euclidean distance.
This prints the best accuracy over k = 1, 3, ..., 101 for: the pipeline's order (nearest
first under 1 - cos and Euclidean), cos(theta) in descending order (the printed steps),
cos(theta) in ascending order (cos used as a distance), and the Euclidean distance in
descending order (the printed steps).

    python tools/docan_knn_orders.py <run>/data/processed/reuters21578_corpus.npz
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.metrics import pairwise_distances

from boostrank.preprocess.reuters_corpus import load_corpus

KS = list(range(1, 102, 2))
ORDERS = {  # name -> (metric, sign): neighbours ranked by sign * value, smallest first
    "pipeline and printed steps: 1 - cos ascending = cos(theta) descending": ("cosine", 1.0),
    "cos(theta) as a distance, ascending": ("cosine", -1.0),
    "pipeline: Euclidean, ascending": ("euclidean", 1.0),
    "printed: Euclidean, descending": ("euclidean", -1.0),
}


def best_accuracy(corpus: object, metric: str, sign: float) -> tuple[float, int]:
    """The best test accuracy over :data:`KS` and its k (majority vote; ties to the lowest
    class index, stable order as in the pipeline's k-NN job)."""
    X_train, y_train = corpus.X_train, corpus.y_train  # type: ignore[attr-defined]
    X_test, y_test = corpus.X_test, corpus.y_test  # type: ignore[attr-defined]
    n_classes = int(max(y_train.max(), y_test.max())) + 1
    correct = np.zeros(len(KS))
    for start in range(0, X_test.shape[0], 512):
        D = sign * pairwise_distances(X_test[start : start + 512], X_train, metric=metric)
        order = np.argsort(D, axis=1, kind="stable")[:, : max(KS)]
        votes = np.zeros((order.shape[0], max(KS), n_classes), dtype=np.int32)
        np.put_along_axis(votes, y_train[order][:, :, None], 1, axis=2)
        predicted = votes.cumsum(axis=1)[:, np.asarray(KS) - 1, :].argmax(axis=2)
        correct += (predicted == y_test[start : start + 512, None]).sum(axis=0)
    accuracy = correct / X_test.shape[0]
    return float(accuracy.max()), KS[int(accuracy.argmax())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", help="a run's Reuters corpus (.npz)")
    corpus = load_corpus(parser.parse_args().corpus)
    for name, (metric, sign) in ORDERS.items():
        accuracy, k = best_accuracy(corpus, metric, sign)
        print(f"{name}: best accuracy {accuracy:.3f} at k = {k}")


if __name__ == "__main__":
    main()
