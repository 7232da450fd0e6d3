"""Sengupta (2018), *Document Analysis*, section "Results", Tables 2-6: the statistics the
claims on the tables' orderings read, one ``results/docan-table<N>_summary.csv`` per table
(:func:`.make_ranking.make_ranking_table` writes it beside the table).

Each statistic is computed twice from the table's five-fold means (the ``fold: mean`` rows of
:func:`.summary.merge_frames`): on our NDCG@10 (column ``value``) and on the report's printed
cells beside them (``printed_value``, empty where a printed cell is missing), so a claim's
published value can be checked against the print. Per split (train, validation, test):

- ``gap_to_lowest_other`` (every table, one row per configuration): the configuration's
  NDCG@10 minus the lowest of the other configurations'; below 0 when it is the worst row
  (Table 3's two-layer RankNet, Table 4's l2 = 1e5);
- ``range_from_100_trees`` (Table 2): the largest minus the smallest NDCG@10 over the tree
  counts from 100 up (100-1500 trees), how flat the curve is after 100 trees;
- ``larger_c_higher_fraction`` and ``smaller_c_higher_fraction`` (Tables 5 and 6): over the N
  (and gamma) with two values of C, the fraction where the larger (smaller) C has the strictly
  higher NDCG@10 (Table 5's effect of C on train NDCG@10, and Table 6's reverse);

and ``sem`` (test split, one row per configuration): the standard error of the five-fold mean
of test NDCG@10, the fold sd over sqrt(folds) (none with one fold); a change below it is
within the folds' spread. A statistic the run's rows cannot give (a configuration the quick
config leaves out) has an empty value and a note saying why.

Section "Working on a toy dataset": the toy corpus's printed tables computed from its five
printed documents and four queries by the report's preprocessing
(:mod:`boostrank.preprocess.text`): the TF and TF-IDF cells and feature 4's row means beside the
toy features (:func:`toy_term_columns`, ``results/docan-table7_features.csv``), and the toy
matrix's six features per query-document pair (:func:`toy_matrix`,
``results/docan-table7_matrix.csv``); and whether the 2-D demo's pairwise-transformed training
pairs are linearly separable (Figures 10-11: :func:`demo_statistics`,
``results/docan-table8_summary.csv``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.experiments.docan.spec import NDCG_DECIMALS, SPLITS

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = [
    "statistic",
    "table",
    "config",
    "split",
    "value",
    "printed_value",
    "units",
    "n_folds",
    "note",
    "data_kind",
    "dataset",
    "dataset_label",
    "provenance",
]
FLAT_FROM_TREES = 100  # Table 2: "flattens" is read over the tree counts from 100 up
_SOURCES = ("data_kind", "dataset", "dataset_label", "provenance")


def _number(value: Any) -> float | None:
    """A cell as a float, None where it is empty (a printed cell without a claim)."""
    if value is None or value == "":
        return None
    number = float(value)
    return None if math.isnan(number) else number


def _round(value: float | None) -> float | str:
    """Six decimals, as the tables' NDCG@10; "" for a statistic that cannot be had."""
    return "" if value is None else round(value, NDCG_DECIMALS)


def _column(means: pd.DataFrame, split: str, printed: bool) -> list[float | None]:
    """Each mean row's NDCG@10 of ``split``: ours, or the printed one."""
    name = f"published_{split}_ndcg10" if printed else f"{split}_ndcg10"
    if name not in means.columns:
        return [None] * len(means)
    return [_number(v) for v in means[name]]


def gap_to_lowest_other(values: Sequence[float | None], index: int) -> float | None:
    """Row ``index``'s value minus the lowest of the other rows' (None without two rows or
    with a missing value): below 0 when the row is the strict minimum (Tables 3 and 4)."""
    own = values[index]
    others = [v for n, v in enumerate(values) if n != index]
    known = [v for v in others if v is not None]
    if own is None or not others or len(known) != len(others):
        return None
    return own - min(known)


def range_from(trees: Sequence[int], values: Sequence[float | None], start: int) -> float | None:
    """The largest minus the smallest value over the tree counts from ``start`` up (Table 2);
    None unless ``start`` and at least one larger count are there, every value known."""
    kept = [v for t, v in zip(trees, values, strict=True) if t >= start]
    known = [v for v in kept if v is not None]
    if start not in trees or len(kept) < 2 or len(known) != len(kept):
        return None
    return max(known) - min(known)


def c_pairs(means: pd.DataFrame) -> list[tuple[int, int]]:
    """(row of the smaller C, row of the larger C) for each N and gamma printed with two values
    of C (Tables 5 and 6: C = 2^-2 and 2^3 at N = 400-2000, gamma = 2^-7), in table order."""
    groups: dict[tuple[float, float], list[int]] = {}
    for n, (comp, gamma) in enumerate(zip(means["n_components"], means["gamma_exp"], strict=True)):
        groups.setdefault((float(comp), float(gamma)), []).append(n)
    pairs = []
    for rows in groups.values():
        if len(rows) == 2:
            low, high = sorted(rows, key=lambda n: float(means["c_exp"].iloc[n]))
            pairs.append((low, high))
    return pairs


def higher_fraction(
    values: Sequence[float | None], pairs: Sequence[tuple[int, int]], larger: bool
) -> float | None:
    """The fraction of ``pairs`` (smaller C, larger C) whose larger (``larger``) or smaller C
    has the strictly higher value; None without pairs or with a missing value."""
    known = [
        (low, high)
        for low, high in ((values[a], values[b]) for a, b in pairs)
        if low is not None and high is not None
    ]
    if not pairs or len(known) != len(pairs):
        return None
    wins = [(high > low) if larger else (low > high) for low, high in known]
    return sum(wins) / len(wins)


def standard_error(sd: Any, n_folds: Any) -> float | None:
    """The standard error of a mean over folds, sd / sqrt(folds) (None with one fold)."""
    sd = _number(sd)
    folds = int(float(n_folds))
    return None if sd is None or folds < 2 else sd / math.sqrt(folds)


def _row(
    statistic: str, config: str, split: str, found: tuple[Any, Any], **extra: Any
) -> dict[str, Any]:
    """One summary row: ``found`` is (ours, printed), each None where it cannot be had."""
    value, printed = found
    return {
        "statistic": statistic,
        "config": config,
        "split": split,
        "value": _round(value),
        "printed_value": _round(printed),
        **extra,
    }


def _gaps(means: pd.DataFrame, split: str) -> list[dict[str, Any]]:
    """``gap_to_lowest_other`` of every configuration (the worst rows of Tables 3 and 4)."""
    ours, printed = _column(means, split, False), _column(means, split, True)
    rows = []
    for n, config in enumerate(means["config"]):
        found = (gap_to_lowest_other(ours, n), gap_to_lowest_other(printed, n))
        note = (
            f"NDCG@10 of {config} minus the lowest of the other {len(means) - 1} rows "
            "(below 0: the worst row)"
            if found[0] is not None
            else "needs two configurations with NDCG@10 (the run has one)"
        )
        rows.append(_row("gap_to_lowest_other", config, split, found, units=len(means), note=note))
    return rows


def _flatness(means: pd.DataFrame, split: str) -> list[dict[str, Any]]:
    """``range_from_100_trees`` of Table 2 (LambdaMART; no row for the other tables)."""
    if "trees" not in means.columns:
        return []
    trees = [int(float(t)) for t in means["trees"]]
    ours, printed = _column(means, split, False), _column(means, split, True)
    found = (range_from(trees, ours, FLAT_FROM_TREES), range_from(trees, printed, FLAT_FROM_TREES))
    counts = sorted(t for t in trees if t >= FLAT_FROM_TREES)
    note = (
        f"largest minus smallest NDCG@10 over {len(counts)} tree counts "
        f"{', '.join(map(str, counts))}"
        if found[0] is not None
        else f"needs {FLAT_FROM_TREES} trees and a larger count (the run has "
        f"{', '.join(map(str, sorted(trees)))})"
    )
    return [_row("range_from_100_trees", "", split, found, units=len(counts), note=note)]


def _c_effect(means: pd.DataFrame, split: str) -> list[dict[str, Any]]:
    """The two C fractions of Tables 5 and 6 (RankSVM; no row for the other tables)."""
    if "c_exp" not in means.columns:
        return []
    pairs = c_pairs(means)
    ours, printed = _column(means, split, False), _column(means, split, True)
    ns = ", ".join(str(int(float(means["n_components"].iloc[a]))) for a, _ in pairs)
    rows = []
    for larger, name in ((True, "larger"), (False, "smaller")):
        found = (higher_fraction(ours, pairs, larger), higher_fraction(printed, pairs, larger))
        note = (
            f"fraction of the {len(pairs)} N with two values of C (N = {ns}) where the {name} "
            "C has the higher NDCG@10 (ties count for neither)"
            if pairs
            else "no N with two values of C in this run"
        )
        statistic = f"{name}_c_higher_fraction"
        rows.append(_row(statistic, "", split, found, units=len(pairs), note=note))
    return rows


def _sems(means: pd.DataFrame) -> list[dict[str, Any]]:
    """``sem`` of every configuration's test NDCG@10 (the basis of Table 2's flatness)."""
    rows = []
    for _, mean in means.iterrows():
        folds = int(float(mean["n_folds"]))
        sem = standard_error(mean.get("test_ndcg10_sd"), folds)
        note = f"fold sd of test NDCG@10 / sqrt({folds})" if sem is not None else "needs 2 folds"
        found = (sem, None)  # the report prints no spread over its folds
        rows.append(_row("sem", str(mean["config"]), "test", found, units=folds, note=note))
    return rows


def table_statistics(table: str, tidy: pd.DataFrame) -> pd.DataFrame:
    """The statistics of one of Tables 2-6 (module docstring) from its tidy frame (the
    ``fold: mean`` rows of :func:`.summary.merge_frames`), as the summary CSV's rows."""
    import pandas as pd

    means = tidy[tidy["fold"] == "mean"].reset_index(drop=True)
    rows = []
    for split in SPLITS:
        rows += _gaps(means, split) + _flatness(means, split) + _c_effect(means, split)
    rows += _sems(means)
    source = {c: means[c].iloc[0] if c in means and len(means) else "" for c in _SOURCES}
    n_folds = int(float(means["n_folds"].max())) if len(means) else 0
    frame = pd.DataFrame(rows).assign(table=table, n_folds=n_folds, **source)
    return frame[COLUMNS]


# --------------------------------------------------------------------------- Table 7: the toy
# The toy example's four queries as printed (section "Working on a toy dataset", "Query").
TOY_QUERIES = ("Dog food", "Cat", "Pet dog", "Animals")
TOY_PROVENANCE = (
    "printed: the toy documents and queries of Sengupta (2018), Working on a toy dataset"
)


@dataclass(frozen=True)
class ToyCorpus:
    """The toy documents and queries after the report's preprocessing."""

    terms: list[str]  # the corpus's terms, alphabetical (the printed tables' column order)
    counts: np.ndarray  # documents x terms: how often each term occurs in each document
    queries: list[list[str]]  # each query's preprocessed words


def toy_corpus(documents: Sequence[str], queries: Sequence[str] = TOY_QUERIES) -> ToyCorpus:
    """``documents`` and ``queries`` through the report's preprocessing ("Pre-processing: Same
    as in the case of Reuters": :mod:`boostrank.preprocess.text`), the terms those of the
    documents."""
    from boostrank.preprocess import text as pipeline

    docs, kept = pipeline.preprocess_corpus(list(documents))
    if len(kept) != len(documents):
        raise BoostrankError("a toy document was left empty by the preprocessing")
    vectorizer = pipeline.fit_vocabulary(docs)
    return ToyCorpus(
        terms=[str(t) for t in vectorizer.get_feature_names_out()],
        counts=pipeline.count_matrix(vectorizer, docs).toarray(),
        queries=[pipeline.preprocess(q) for q in queries],
    )


def idf_row_means(counts: np.ndarray) -> np.ndarray:
    """Feature 4 ("4. IDF"; "Row means of the DF is 1.331, ..."), per document: the row mean,
    over the corpus's terms, of the document's IDF row, idf(t) = log2(N / df(t)) where the
    document holds t and 0 elsewhere, as the TF and TF-IDF row means are taken (section
    "Weighing algorithms" defines idf(t, D) = log N / |{d in D : t in d}|; its base is the
    pipeline's, tm's log2, with which the printed TF-IDF cells agree)."""
    from scipy import sparse

    from boostrank.preprocess import text as pipeline

    idf = pipeline.idf_log2(sparse.csr_matrix(counts))
    return np.asarray(((counts > 0) * idf).mean(axis=1))


def boolean_retrieval(query: Sequence[str], counts: np.ndarray, terms: Sequence[str]) -> np.ndarray:
    """Feature 6 ("6. Boolean retrieval"), per document: how many of the query's distinct
    (preprocessed) words it contains, each word's presence a Boolean (the incidence matrix of
    section "Weighing algorithms" summed over the query's words; a word the corpus lacks is in
    no document)."""
    index = {t: j for j, t in enumerate(terms)}
    columns = [index[w] for w in dict.fromkeys(query) if w in index]
    return (np.asarray(counts)[:, columns] > 0).sum(axis=1).astype(int)


def _tfidf(counts: np.ndarray) -> np.ndarray:
    from scipy import sparse

    from boostrank.preprocess import text as pipeline

    return pipeline.tfidf_weight(sparse.csr_matrix(counts)).toarray()


def toy_term_columns(corpus: ToyCorpus) -> pd.DataFrame:
    """Per toy document (``document`` 1-5): feature 4's row mean (``df_row_mean``,
    :func:`idf_row_means`) and each term's cells of the printed tables "TF of the documents
    after pre-processing" (``tf_<term>``, its count) and "TF-IDF" (``tfidf_<term>``, tm's
    normalised weighting)."""
    import pandas as pd

    tfidf = _tfidf(corpus.counts)
    columns: dict[str, Any] = {
        "document": np.arange(1, len(corpus.counts) + 1),
        "df_row_mean": np.round(idf_row_means(corpus.counts), 6),
    }
    columns |= {f"tf_{t}": corpus.counts[:, j].astype(int) for j, t in enumerate(corpus.terms)}
    columns |= {f"tfidf_{t}": np.round(tfidf[:, j], 6) for j, t in enumerate(corpus.terms)}
    return pd.DataFrame(columns)


def toy_matrix(corpus: ToyCorpus) -> pd.DataFrame:
    """The toy matrix ("The matrix would look like this:") rebuilt from the corpus: one row per
    query-document pair (``pair`` "Q1 D1", ...), with feature 1 the query's words, 2 the
    document's words, 3, 4 and 5 the row means of its TF, IDF (:func:`idf_row_means`) and
    TF-IDF over the corpus's terms, and 6 the Boolean retrieval (:func:`boolean_retrieval`)."""
    import pandas as pd

    means = {
        "f3": corpus.counts.mean(axis=1),
        "f4": idf_row_means(corpus.counts),
        "f5": _tfidf(corpus.counts).mean(axis=1),
    }
    rows = []
    for q, query in enumerate(corpus.queries, start=1):
        hits = boolean_retrieval(query, corpus.counts, corpus.terms)
        for d, words in enumerate(corpus.counts.sum(axis=1).astype(int), start=1):
            rows.append(
                {
                    "pair": f"Q{q} D{d}",
                    "query": q,
                    "document": d,
                    "f1": len(query),
                    "f2": int(words),
                    **{f: round(float(v[d - 1]), 6) for f, v in means.items()},
                    "f6": int(hits[d - 1]),
                }
            )
    return pd.DataFrame(rows).assign(data_kind="printed", provenance=TOY_PROVENANCE)


# --------------------------------------------------------------------------- Table 8: the demo
def pairs_separable(X: np.ndarray, y: np.ndarray, blocks: np.ndarray) -> tuple[bool, int]:
    """Figures 10-11 ("It can be easily seen from the graph that it is a linearly
    separable"): whether one weight vector w orders every pairwise-transformed pair, x_i - x_j
    with sign(y_i - y_j) for two samples of one block with different grades
    (:func:`boostrank.ranking.pairs.pairwise_transform`, the blocks as queries), i.e. whether
    the linear program s_k w . d_k >= 1 for all pairs k is feasible; and how many pairs."""
    from scipy.optimize import linprog

    from boostrank.ranking.pairs import pairwise_transform

    diff, sign = pairwise_transform(X, y, blocks)
    if not len(sign):
        raise BoostrankError("no pair of samples of one block with different grades")
    dim = diff.shape[1]
    found = linprog(
        np.zeros(dim),
        A_ub=-(sign[:, None] * diff),
        b_ub=-np.ones(len(sign)),
        bounds=[(None, None)] * dim,
        method="highs",
    )
    if found.status not in (0, 2):  # 0: a w exists; 2: none does
        raise BoostrankError(f"the separability program did not finish: {found.message}")
    return found.status == 0, len(sign)


def demo_statistics(data: dict[str, np.ndarray], provenance: str) -> pd.DataFrame:
    """Table 8's summary: whether the demo's training pairs (``data``:
    :func:`.jobs_ranking.demo_data`, its ``train`` samples) are linearly separable
    (:func:`pairs_separable`, 1 or 0), and how many pairs there are."""
    import pandas as pd

    train = data["train"]
    separable, pairs = pairs_separable(data["X"][train], data["y"][train], data["blocks"][train])
    how = "a w with s_k w . d_k >= 1 for every pair k exists (linear program)"
    rows = [
        ("training_pairs_separable", int(separable), "pairs", how),
        ("training_pairs", pairs, "pairs", "pairs of one block with different grades"),
    ]
    frame = pd.DataFrame(rows, columns=["statistic", "value", "units", "note"])
    return frame.assign(data_kind="generated", provenance=provenance)


__all__ = [
    "COLUMNS",
    "FLAT_FROM_TREES",
    "TOY_QUERIES",
    "ToyCorpus",
    "boolean_retrieval",
    "c_pairs",
    "demo_statistics",
    "gap_to_lowest_other",
    "higher_fraction",
    "idf_row_means",
    "pairs_separable",
    "range_from",
    "standard_error",
    "table_statistics",
    "toy_corpus",
    "toy_matrix",
    "toy_term_columns",
]
