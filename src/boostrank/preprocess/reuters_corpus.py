"""The document-analysis report's Reuters-21578 corpus: ModApte, ten topics, TF-IDF.

Sengupta, *Document Analysis – Clustering, Classification and Ranking* (2018), "Dataset
description with an example on pre-processing": the ModApte training and test documents of the
ten most frequent topics, each preprocessed (:mod:`boostrank.preprocess.text`) and weighted by
TF-IDF. The vocabulary and the idf are the training set's; test documents are weighted with them
(words the training set lacks are ignored). The report's non-sparsity figures (0.27 % train,
0.41 % test) look like two separately built matrices; :func:`build_corpus` records both that and
the shared-vocabulary figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from boostrank.errors import BoostrankError
from boostrank.io import save_npz
from boostrank.preprocess import reuters
from boostrank.preprocess import text as pipeline

TEXT_FIELDS = ("body", "title_body")


@dataclass(frozen=True)
class CorpusSettings:
    """How the corpus is built (every choice the report leaves open)."""

    text: str = "body"  # body | title_body
    multi_topic: str = "first"  # see boostrank.preprocess.reuters.select_top_topics
    topic_counting: str = "tags"  # how the top topics are ranked (Figure 4's counting)
    top_topics: int = 10
    stemmer: str = pipeline.PORTER_MODE
    min_word_length: int = 1
    stop_words: str = "snowball"  # snowball | sklearn (boostrank.preprocess.text.load_stopwords)

    def __post_init__(self) -> None:
        allowed = {
            "text": TEXT_FIELDS,
            "multi_topic": reuters.MULTI_TOPIC_RULES,
            "topic_counting": reuters.TOPIC_COUNTINGS,
            "stemmer": pipeline.STEMMERS,
            "stop_words": pipeline.STOP_LISTS,
        }
        for key, values in allowed.items():
            if getattr(self, key) not in values:
                raise BoostrankError(f"{key} must be one of {values}, not {getattr(self, key)!r}")
        if self.top_topics < 1 or self.min_word_length < 1:
            raise BoostrankError("top_topics and min_word_length must be at least 1")


@dataclass(frozen=True)
class Corpus:
    """TF-IDF matrices, labels (indices into ``topics``) and NEWIDs of the two ModApte sets."""

    X_train: sp.csr_matrix
    X_test: sp.csr_matrix
    y_train: np.ndarray
    y_test: np.ndarray
    newid_train: np.ndarray
    newid_test: np.ndarray
    topics: list[str]
    terms: list[str]


def _document_text(doc: reuters.ReutersDoc, field: str) -> str:
    if field == "body":
        return doc.body
    if field == "title_body":
        return f"{doc.title}\n{doc.body}"
    raise ValueError(f"text must be one of {TEXT_FIELDS}, not {field!r}")


def _non_sparsity(matrix: sp.csr_matrix) -> float:
    return float(matrix.nnz / max(1, matrix.shape[0] * matrix.shape[1]))


def build_corpus(
    docs: list[reuters.ReutersDoc], settings: CorpusSettings
) -> tuple[Corpus, dict[str, Any]]:
    """Select, preprocess and weight the ModApte documents; return the corpus and its statistics."""
    split = reuters.modapte(docs)
    counts = reuters.topic_counts(split["train"] + split["test"], settings.topic_counting)
    topics = reuters.top_topics(counts, settings.top_topics)
    tokens: dict[str, list[list[str]]] = {}
    labels: dict[str, np.ndarray] = {}
    newids: dict[str, np.ndarray] = {}
    stats: dict[str, Any] = {}
    for name in ("train", "test"):
        pairs = reuters.select_top_topics(split[name], topics, settings.multi_topic)
        texts = [_document_text(doc, settings.text) for doc, _ in pairs]
        tokens[name], kept = pipeline.preprocess_corpus(
            texts,
            stemmer=settings.stemmer,
            stopwords=pipeline.load_stopwords(settings.stop_words),
            min_word_length=settings.min_word_length,
        )
        labels[name] = np.asarray([topics.index(pairs[i][1]) for i in kept], dtype=np.int64)
        newids[name] = np.asarray([pairs[i][0].newid for i in kept], dtype=np.int64)
        stats[name] = {
            "modapte_documents": len(split[name]),
            "selected_documents": len(pairs),
            "dropped_empty": len(pairs) - len(kept),
            "documents": len(kept),
            "per_topic": {t: int((labels[name] == j).sum()) for j, t in enumerate(topics)},
        }
    vectorizer = pipeline.fit_vocabulary(tokens["train"])
    train_counts = pipeline.count_matrix(vectorizer, tokens["train"])
    test_counts = pipeline.count_matrix(vectorizer, tokens["test"])
    idf = pipeline.idf_log2(train_counts)
    own_test = pipeline.count_matrix(pipeline.fit_vocabulary(tokens["test"]), tokens["test"])
    corpus = Corpus(
        X_train=pipeline.tfidf_weight(train_counts),
        X_test=pipeline.tfidf_weight(test_counts, idf),
        y_train=labels["train"],
        y_test=labels["test"],
        newid_train=newids["train"],
        newid_test=newids["test"],
        topics=topics,
        terms=[str(t) for t in vectorizer.get_feature_names_out()],
    )
    stats["vocabulary"] = len(corpus.terms)
    stats["non_sparsity"] = {
        "train": _non_sparsity(train_counts),
        "test_shared_vocabulary": _non_sparsity(test_counts),
        "test_own_vocabulary": _non_sparsity(own_test),
    }
    stats["test_documents_without_training_words"] = int((np.diff(corpus.X_test.indptr) == 0).sum())
    return corpus, stats


def save_corpus(path: Path | str, corpus: Corpus) -> None:
    """Write the corpus to one compressed ``.npz``."""
    arrays: dict[str, np.ndarray] = {}
    for name, matrix in (("train", corpus.X_train), ("test", corpus.X_test)):
        arrays[f"X_{name}_data"] = matrix.data
        arrays[f"X_{name}_indices"] = matrix.indices
        arrays[f"X_{name}_indptr"] = matrix.indptr
        arrays[f"X_{name}_shape"] = np.asarray(matrix.shape, dtype=np.int64)
    save_npz(
        path,
        **arrays,
        y_train=corpus.y_train,
        y_test=corpus.y_test,
        newid_train=corpus.newid_train,
        newid_test=corpus.newid_test,
        topics=np.asarray(corpus.topics, dtype=str),
        terms=np.asarray(corpus.terms, dtype=str),
    )


def load_corpus(path: Path | str) -> Corpus:
    """Read a corpus written by :func:`save_corpus`."""
    with np.load(path, allow_pickle=False) as z:

        def matrix(name: str) -> sp.csr_matrix:
            parts = (z[f"X_{name}_data"], z[f"X_{name}_indices"], z[f"X_{name}_indptr"])
            return sp.csr_matrix(parts, shape=tuple(z[f"X_{name}_shape"]))

        return Corpus(
            X_train=matrix("train"),
            X_test=matrix("test"),
            y_train=z["y_train"],
            y_test=z["y_test"],
            newid_train=z["newid_train"],
            newid_test=z["newid_test"],
            topics=[str(t) for t in z["topics"]],
            terms=[str(t) for t in z["terms"]],
        )
