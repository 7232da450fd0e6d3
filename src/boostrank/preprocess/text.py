"""The text pipeline of the document-analysis report, and its three weightings.

Sengupta, *Document Analysis – Clustering, Classification and Ranking* (2018), sections
"Preprocessing", "Weighing algorithms" and "Dataset description with an example on
pre-processing" (R's ``tm`` package, whose functions each step mirrors):

1. lower-case (``tolower``);
2. delete digits (``removeNumbers``: ``[0-9]`` is deleted, no space inserted);
3. delete punctuation (``removePunctuation``: every punctuation or symbol character is deleted,
   no space inserted: "two-for-one" -> "twoforone", "doesn't" -> "doesnt");
4. split on white space and remove the English stop words: the 174-word Snowball list that
   ``tm::stopwords("english")`` returns (package data ``data/stopwords_en_snowball.txt``). As in
   ``tm``, the list is matched *after* punctuation removal, so its apostrophe forms ("doesn't")
   never match and "doesnt" survives, as the report's toy TF table shows. The report's "300
   such stop words which are listed in [1]" cite a paper that lists none; its worked example
   keeps "also", "five" and "inc", which scikit-learn's 318-word ``ENGLISH_STOP_WORDS``
   (``stop_words="sklearn"``, the other reading) removes and the Snowball list keeps;
5. drop documents left without words (the report's step 4, "removal of text articles without
   content");
6. stem each word with Porter's algorithm: NLTK's ``PorterStemmer`` in mode
   ``NLTK_EXTENSIONS`` (:data:`PORTER_MODE`). Every stem the report prints (the NEWID 9 example
   and the toy-corpus columns) is produced identically by all three NLTK modes, so the report
   cannot decide between them; ``tm::stemDocument`` calls SnowballC's English stemmer (Porter2),
   and on the 32,501 words of the Reuters-21578 ModApte bodies ``NLTK_EXTENSIONS`` agrees with
   Porter2 on 97.9 % (96.2 % of the tokens), ``MARTIN_EXTENSIONS`` on 96.0 % and
   ``ORIGINAL_ALGORITHM`` on 95.9 % (e.g. ``shy`` -> ``shi``, as Porter2 has it).
   ``"snowball"`` selects NLTK's Porter2 implementation itself.

``min_word_length`` (default 1: keep every word) can drop short words as ``tm``'s
``DocumentTermMatrix`` does by default (3); the report does not say it did, and none of its
printed words is shorter than three letters, so it cannot tell.

Weightings (section "Weighing algorithms"), sparse over one vocabulary: binary incidence, raw
term frequency, and TF-IDF as ``tm::weightTfIdf`` computes it: tf = count / document length
(the document's words in the vocabulary), idf = log2(N / df).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from importlib import resources

import numpy as np
import scipy.sparse as sp
from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer
from sklearn.feature_extraction.text import CountVectorizer

__all__ = [
    "PORTER_MODE",
    "STEMMERS",
    "STOP_LISTS",
    "WEIGHTINGS",
    "binary_weight",
    "count_matrix",
    "fit_vocabulary",
    "idf_log2",
    "load_stopwords",
    "preprocess",
    "preprocess_corpus",
    "remove_digits",
    "remove_punctuation",
    "remove_stopwords",
    "stem_tokens",
    "tf_weight",
    "tfidf_weight",
    "tokens_before_stemming",
    "weight",
]

PORTER_MODE = "NLTK_EXTENSIONS"
STEMMERS = ("NLTK_EXTENSIONS", "ORIGINAL_ALGORITHM", "MARTIN_EXTENSIONS", "snowball", "none")
WEIGHTINGS = ("binary", "tf", "tfidf")
STOP_LISTS = ("snowball", "sklearn")

_DIGITS = re.compile(r"[0-9]+")


@cache
def load_stopwords(name: str = "snowball") -> frozenset[str]:
    """The English stop words: ``snowball``, the 174 of Snowball / ``tm::stopwords("english")``,
    or ``sklearn``, scikit-learn's 318 ``ENGLISH_STOP_WORDS``."""
    if name == "sklearn":
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        return frozenset(ENGLISH_STOP_WORDS)
    if name != "snowball":
        raise ValueError(f"stop_words must be one of {STOP_LISTS}, not {name!r}")
    text = (
        resources.files("boostrank.preprocess")
        .joinpath("data/stopwords_en_snowball.txt")
        .read_text(encoding="utf-8")
    )
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


def remove_digits(text: str) -> str:
    """Delete the digits 0-9 (``tm::removeNumbers``)."""
    return _DIGITS.sub("", text)


@cache
def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


def remove_punctuation(text: str) -> str:
    """Delete punctuation and symbols without inserting spaces (``tm::removePunctuation``).

    For ASCII this is exactly ``string.punctuation``; other characters go if their Unicode
    category is punctuation (P*) or symbol (S*), as POSIX ``[[:punct:]]`` has it.
    """
    return "".join(c for c in text if not _is_punctuation(c))


def remove_stopwords(tokens: Iterable[str], stopwords: frozenset[str] | None = None) -> list[str]:
    """Drop the tokens that are stop words (default: :func:`load_stopwords`)."""
    stop = load_stopwords() if stopwords is None else stopwords
    return [t for t in tokens if t not in stop]


def tokens_before_stemming(
    text: str, *, stopwords: frozenset[str] | None = None, min_word_length: int = 1
) -> list[str]:
    """Steps 1-4: lower-case, delete digits and punctuation, split, remove stop words."""
    words = remove_punctuation(remove_digits(text.lower())).split()
    return [w for w in remove_stopwords(words, stopwords) if len(w) >= min_word_length]


@cache
def _stemmer(mode: str) -> Callable[[str], str]:
    if mode == "none":
        return str
    if mode == "snowball":
        return cache(SnowballStemmer("english").stem)
    if mode not in STEMMERS:
        raise ValueError(f"stemmer must be one of {STEMMERS}, not {mode!r}")
    return cache(PorterStemmer(mode).stem)


def stem_tokens(tokens: Iterable[str], mode: str = PORTER_MODE) -> list[str]:
    """Stem each token (memoised per word: a corpus has far fewer words than tokens)."""
    stem = _stemmer(mode)
    return [stem(t) for t in tokens]


def preprocess(
    text: str,
    *,
    stemmer: str = PORTER_MODE,
    stopwords: frozenset[str] | None = None,
    min_word_length: int = 1,
) -> list[str]:
    """The whole pipeline for one text: its stemmed words, in order (possibly none)."""
    words = tokens_before_stemming(text, stopwords=stopwords, min_word_length=min_word_length)
    return stem_tokens(words, stemmer)


def preprocess_corpus(
    texts: Sequence[str],
    *,
    stemmer: str = PORTER_MODE,
    stopwords: frozenset[str] | None = None,
    min_word_length: int = 1,
) -> tuple[list[list[str]], np.ndarray]:
    """Preprocess every text and drop those left empty.

    Returns the token lists of the kept documents and their indices into ``texts``.
    """
    docs, kept = [], []
    for i, text in enumerate(texts):
        tokens = preprocess(
            text, stemmer=stemmer, stopwords=stopwords, min_word_length=min_word_length
        )
        if tokens:
            docs.append(tokens)
            kept.append(i)
    return docs, np.asarray(kept, dtype=np.int64)


def _identity(tokens: list[str]) -> list[str]:
    return tokens


def fit_vocabulary(docs: Sequence[Sequence[str]]) -> CountVectorizer:
    """A ``CountVectorizer`` over already preprocessed token lists; terms sorted alphabetically."""
    return CountVectorizer(analyzer=_identity, lowercase=False).fit(docs)


def count_matrix(vectorizer: CountVectorizer, docs: Sequence[Sequence[str]]) -> sp.csr_matrix:
    """Raw term counts (documents x terms); words outside the vocabulary are ignored."""
    return sp.csr_matrix(vectorizer.transform(docs), dtype=np.float64)


def binary_weight(counts: sp.csr_matrix) -> sp.csr_matrix:
    """Incidence: 1 where the term occurs in the document, else 0."""
    out = sp.csr_matrix(counts, dtype=np.float64, copy=True)
    out.eliminate_zeros()
    out.data[:] = 1.0
    return out


def tf_weight(counts: sp.csr_matrix) -> sp.csr_matrix:
    """Raw term frequency: the counts themselves (``tm::weightTf``)."""
    return sp.csr_matrix(counts, dtype=np.float64, copy=True)


def idf_log2(counts: sp.csr_matrix) -> np.ndarray:
    """log2(N / df) over the documents of ``counts`` (0 for a term no document holds)."""
    counts = sp.csr_matrix(counts)
    df = np.bincount(counts.indices[counts.data != 0], minlength=counts.shape[1])
    with np.errstate(divide="ignore"):
        idf = np.log2(counts.shape[0] / df.astype(np.float64))
    idf[df == 0] = 0.0
    return idf


def tfidf_weight(counts: sp.csr_matrix, idf: np.ndarray | None = None) -> sp.csr_matrix:
    """``tm::weightTfIdf`` (normalised): count / document length x log2(N / df).

    ``idf`` defaults to that of ``counts`` itself; pass the training set's to weight test
    documents. A document with no word in the vocabulary gets a zero row.
    """
    counts = sp.csr_matrix(counts, dtype=np.float64)
    if idf is None:
        idf = idf_log2(counts)
    length = np.asarray(counts.sum(axis=1)).ravel()
    scale = np.divide(1.0, length, out=np.zeros_like(length), where=length > 0)
    out = sp.csr_matrix(sp.diags(scale) @ counts @ sp.diags(idf))
    out.eliminate_zeros()
    return out


def weight(counts: sp.csr_matrix, scheme: str, idf: np.ndarray | None = None) -> sp.csr_matrix:
    """One of :data:`WEIGHTINGS` (``binary``, ``tf``, ``tfidf``)."""
    if scheme == "binary":
        return binary_weight(counts)
    if scheme == "tf":
        return tf_weight(counts)
    if scheme == "tfidf":
        return tfidf_weight(counts, idf)
    raise ValueError(f"weighting must be one of {WEIGHTINGS}, not {scheme!r}")
