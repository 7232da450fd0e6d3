"""The document-analysis report's text pipeline (boostrank.preprocess.text) against the numbers
the report prints: the NEWID 9 example, the toy corpus's TF table, TF-IDF values and row means."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from nltk.stem.porter import PorterStemmer
from nltk.stem.snowball import SnowballStemmer

from boostrank.experiments.docan.spec import TOY_DOCUMENTS
from boostrank.preprocess import text as T
from boostrank.preprocess.reuters import read_reuters

ROOT = Path(__file__).resolve().parents[2]

# Sengupta (2018), "Working on a toy dataset": the five documents, as printed (one copy, in
# the docan spec, which the toy job reads too).
TOY = list(TOY_DOCUMENTS)
# "TF of the documents after pre-processing": the 17 columns printed in full.
TF_COLUMNS = [
    "anyon",
    "around",
    "bark",
    "bath",
    "best",
    "bird",
    "cage",
    "can",
    "cat",
    "daisi",
    "david",
    "doesnt",
    "dog",
    "drink",
    "drop",
    "eat",
    "fish",
]
TF_ROWS = [
    "0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 1 0",
    "0 1 0 1 0 0 0 0 1 1 0 1 0 1 0 0 1",
    "0 0 1 0 1 0 0 0 0 0 1 0 1 0 1 1 0",
    "1 0 0 0 0 1 1 1 0 0 0 0 0 0 0 1 0",
    "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2",
]
# Section "Dataset description ...", step 6 ("After stemming (R software was used)").
NEWID9 = (
    "champion product inc said board director approv twoforon stock split common share "
    "sharehold record april compani also said board vote recommend sharehold annual meet "
    "april increas author capit stock five mln mln share"
)


@pytest.fixture(scope="module")
def toy():
    docs, kept = T.preprocess_corpus(TOY)
    vectorizer = T.fit_vocabulary(docs)
    counts = T.count_matrix(vectorizer, docs)
    return docs, kept, counts, list(vectorizer.get_feature_names_out())


def _mirror() -> Path | None:
    candidates = [os.environ.get("BOOSTRANK_DATA_MIRROR"), str(ROOT.parent / "shared" / "data")]
    for candidate in candidates:
        if candidate and (Path(candidate) / "reuters21578").is_dir():
            return Path(candidate) / "reuters21578"
    return None


# --------------------------------------------------------------------------- the report's outputs


def test_newid9_reproduces_the_report_exactly():
    """Reads the real SGML from the data mirror (never copied into the repository).

    The BODY ends with the wire's "Reuter" sign-off line, which the report's printed output does
    not contain: the Reuters reader strips it explicitly (boostrank.preprocess.reuters).
    """
    mirror = _mirror()
    if mirror is None or not any(mirror.glob("reut2-000.sgm*")):
        pytest.skip("no data mirror with reuters21578 (set BOOSTRANK_DATA_MIRROR)")
    docs = read_reuters(mirror, files=["reut2-000.sgm"])
    doc = next(d for d in docs if d.newid == 9)
    assert doc.topics == ("earn",) and doc.lewissplit == "TRAIN"
    assert " ".join(T.preprocess(doc.body)) == NEWID9
    assert doc.body.startswith("Champion Products Inc said its")
    assert doc.body.endswith("from five mln to 25 mln shares.")  # sign-off gone
    with_signoff = T.preprocess(doc.body + "\n Reuter\n")
    assert with_signoff[-1] == "reuter"  # what the pipeline would have kept


def test_toy_tfidf_values_match_the_report(toy):
    _, _, counts, terms = toy
    tfidf = T.tfidf_weight(counts).toarray()
    printed = {(2, "cat"): 0.1786, (3, "bark"): 0.2322, (4, "anyon"): 0.0778}
    printed |= {(4, "bird"): 0.1366, (5, "anyon"): 0.1102}
    for (doc, term), value in printed.items():
        assert round(tfidf[doc - 1, terms.index(term)], 4) == value, (doc, term)
    # Every printed TF-IDF column of document 2 (cat, around, bath, daisi, doesnt) is 0.1786.
    for term in ("around", "bath", "daisi", "doesnt"):
        assert round(tfidf[1, terms.index(term)], 4) == 0.1786


def test_toy_tf_table_matches_the_report(toy):
    _, _, counts, terms = toy
    tf = T.tf_weight(counts).toarray()
    expected = np.array([[int(v) for v in row.split()] for row in TF_ROWS])
    np.testing.assert_array_equal(tf[:, [terms.index(t) for t in TF_COLUMNS]], expected)
    # Column order of the report's table is alphabetical, as CountVectorizer's.
    assert terms[: len(TF_COLUMNS)] == TF_COLUMNS


def test_toy_document_lengths_and_row_means_match_the_report(toy):
    docs, kept, counts, terms = toy
    assert list(kept) == [0, 1, 2, 3, 4]
    # "Number of words in document" (feature 2 of the toy ranking table).
    assert [len(d) for d in docs] == [12, 13, 10, 17, 12]
    # "Row means of the TF is 0.2222, 0.24074, 0.185185, 0.3148148 and 0.222222": 54 terms.
    assert len(terms) == 54
    np.testing.assert_allclose(
        T.tf_weight(counts).toarray().mean(axis=1),
        [0.2222, 0.24074, 0.185185, 0.3148148, 0.222222],
        atol=5e-5,
    )
    # "Row means of the TF-IDF is 0.039, 0.04157, 0.03634, 0.040183 and 0.03683" (its table
    # prints 0.03684 for document 3, so the third value is only good to about 5e-5).
    np.testing.assert_allclose(
        T.tfidf_weight(counts).toarray().mean(axis=1),
        [0.039, 0.04157, 0.03634, 0.040183, 0.03683],
        atol=5e-5,
    )


# --------------------------------------------------------------------------- stop words


def test_stop_list_is_snowballs_174_words_and_keeps_the_reports_words():
    stop = T.load_stopwords()
    assert len(stop) == 174
    for kept in ("said", "also", "can", "never", "mostly", "us", "will", "take", "old", "like"):
        assert kept not in stop, kept
    for removed in ("the", "its", "of", "she", "doesn't", "most", "not", "would", "ought"):
        assert removed in stop, removed
    raw = (ROOT / "src/boostrank/preprocess/data/stopwords_en_snowball.txt").read_text()
    header = [line for line in raw.splitlines() if line.startswith("#")]
    assert any("snowball" in line.lower() for line in header)
    assert any("tm" in line for line in header)


def test_the_other_stop_list_is_scikit_learns_318_words():
    stop = T.load_stopwords("sklearn")
    assert len(stop) == 318 and {"also", "five", "the"} <= stop
    assert T.load_stopwords("snowball") == T.load_stopwords()
    with pytest.raises(ValueError, match="stop_words"):
        T.load_stopwords("smart")


def test_stop_words_are_matched_after_punctuation_removal():
    # tm removes stop words after removePunctuation: "doesn't" (a stop word) has become
    # "doesnt" (not one), which the toy TF table keeps; "she's" likewise survives as "shes".
    assert T.tokens_before_stemming("She doesn't like it; she's here.") == [
        "doesnt",
        "like",
        "shes",
    ]


def test_the_reports_intermediate_steps():
    # Steps 3-5 of the worked example ("After removing numbers / punctuations / stop words").
    line = "shareholders of record as of april 1, 1987."
    assert T.remove_digits(line) == "shareholders of record as of april , ."
    assert T.remove_punctuation(T.remove_digits(line)).split() == [
        "shareholders", "of", "record", "as", "of", "april",
    ]  # fmt: skip
    assert T.tokens_before_stemming("approved a two-for-one stock split of its") == [
        "approved", "twoforone", "stock", "split",
    ]  # fmt: skip


# --------------------------------------------------------------------------- single steps


def test_remove_digits_deletes_without_spaces():
    assert T.remove_digits("2.5 years, 25 mln, A1B") == ". years,  mln, AB"


def test_remove_punctuation_deletes_without_spaces():
    assert T.remove_punctuation("two-for-one") == "twoforone"
    assert T.remove_punctuation("doesn't <CH> $5+3=8") == "doesnt CH 538"
    assert T.remove_punctuation("zürich «quoted» — café") == "zürich quoted  café"


def test_lowercase_then_split_on_any_white_space():
    assert T.tokens_before_stemming("Champion\nProducts\tINC") == ["champion", "products", "inc"]


def test_min_word_length_drops_short_words_only_when_asked():
    assert T.tokens_before_stemming("us pc mln") == ["us", "pc", "mln"]
    assert T.tokens_before_stemming("us pc mln", min_word_length=3) == ["mln"]


def test_documents_left_empty_are_dropped():
    docs, kept = T.preprocess_corpus(["It is 1987!", "Dogs bark.", "", "The, of; and 22"])
    assert docs == [["dog", "bark"]]
    assert kept.tolist() == [1]


# --------------------------------------------------------------------------- stemming


def test_chosen_porter_mode_gives_every_printed_stem():
    stems = T.stem_tokens(T.tokens_before_stemming(" ".join(TOY)))
    printed = set(TF_COLUMNS)
    assert printed <= set(stems)
    assert T.PORTER_MODE == "NLTK_EXTENSIONS"


def test_the_report_cannot_tell_the_porter_modes_apart_and_porter2_picks_extensions():
    # Every word the report prints stemmed comes out the same in all three NLTK modes ...
    words = set(T.tokens_before_stemming(" ".join(TOY))) | set(
        T.tokens_before_stemming(
            "Champion Products Inc said its board of directors approved a two-for-one stock "
            "split of its common shares for shareholders of record as of April company also "
            "voted to recommend annual meeting increase authorized capital from five mln"
        )
    )
    modes = ("NLTK_EXTENSIONS", "ORIGINAL_ALGORITHM", "MARTIN_EXTENSIONS")
    stemmers = [PorterStemmer(m) for m in modes]
    printed = set(NEWID9.split()) | set(TF_COLUMNS)
    for word in words:
        results = {s.stem(word) for s in stemmers}
        if results & printed:
            assert len(results) == 1, word
    # ... so the mode follows R's stemmer (SnowballC English, Porter2) where they differ.
    porter2 = SnowballStemmer("english")
    assert T.stem_tokens(["shy"]) == [porter2.stem("shy")] == ["shi"]
    assert PorterStemmer("ORIGINAL_ALGORITHM").stem("shy") == "shy"


# --------------------------------------------------------------------------- weightings


@pytest.fixture
def small():
    docs = [["a", "b", "b"], ["b", "c"], ["c", "c", "c", "d"]]
    vectorizer = T.fit_vocabulary(docs)
    return docs, vectorizer, T.count_matrix(vectorizer, docs)


def test_count_matrix_is_the_word_counts(small):
    docs, vectorizer, counts = small
    terms = list(vectorizer.get_feature_names_out())
    for i, doc in enumerate(docs):
        assert {terms[j]: counts[i, j] for j in counts[i].indices} == Counter(doc)


def test_binary_is_incidence_and_tf_the_counts(small):
    _, _, counts = small
    np.testing.assert_array_equal(T.binary_weight(counts).toarray(), counts.toarray() > 0)
    np.testing.assert_array_equal(T.tf_weight(counts).toarray(), counts.toarray())
    assert sp.issparse(T.weight(counts, "binary")) and sp.issparse(T.weight(counts, "tfidf"))
    with pytest.raises(ValueError, match="weighting"):
        T.weight(counts, "bm25")


def test_tfidf_is_length_normalised_tf_times_log2_idf(small):
    _, _, counts = small
    dense = counts.toarray()
    df = (dense > 0).sum(axis=0)
    expected = dense / dense.sum(axis=1, keepdims=True) * np.log2(3 / df)
    np.testing.assert_allclose(T.tfidf_weight(counts).toarray(), expected)
    np.testing.assert_allclose(T.idf_log2(counts), np.log2(3 / df))
    np.testing.assert_array_equal(T.weight(counts, "tf").toarray(), dense)


def test_tfidf_is_zero_for_a_term_in_every_document():
    docs = [["x", "y"], ["x"], ["x", "z", "z"]]
    counts = T.count_matrix(T.fit_vocabulary(docs), docs)
    assert (T.tfidf_weight(counts).toarray()[:, 0] == 0).all()


def test_test_documents_use_the_training_vocabulary_and_idf(small):
    _, vectorizer, counts = small
    idf = T.idf_log2(counts)
    unseen = T.count_matrix(vectorizer, [["b", "zzz", "zzz"], ["zzz"]])
    weighted = T.tfidf_weight(unseen, idf).toarray()
    b = list(vectorizer.get_feature_names_out()).index("b")
    assert weighted[0, b] == pytest.approx(1.0 * idf[b])  # length counts in-vocabulary words
    assert (weighted[1] == 0).all()  # nothing known: a zero row, no division by zero
