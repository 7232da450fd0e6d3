"""TREC run and qrels files: the test rankings of Figure 3.1 (Valizadegan 2010, chapter 3) in the
format every IR evaluator reads, and the evaluation of NDCG@1..k from them.

- run: ``qid Q0 docid rank score tag``, one line per document, rank 1-based by descending
  score within the query, **ties in their original (file) order** as LETOR's evaluation script
  ranks them. ``trec_eval`` ignores the rank column and re-sorts by score, breaking ties by
  docid (descending), so on tied scores it can rank differently; this module's reader keeps the
  rank column, the ranking that was evaluated.
- qrels: ``qid 0 docid rel`` with the graded label ``rel`` (0, 1, 2 for OHSUMED). For
  ``trec_eval``'s ``ndcg_cut`` to use LETOR's gain ``2^r - 1`` give it the gains
  (``-m ndcg_cut`` on qrels rewritten with ``2^r - 1``); P@k and MAP count ``rel >= 1`` as
  relevant either way.

The readers and writers use plain Python and numpy (no pandas), so a training job stays cheap
to start.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.io import write_text
from boostrank.metrics.ranking import Formula, ndcg_curve
from boostrank.metrics.ranking import tied_share as ranking_tied_share


@dataclass(frozen=True)
class Run:
    """A parsed run file, in file order."""

    qid: np.ndarray  # str
    docid: np.ndarray  # str
    rank: np.ndarray  # int, 1-based within the query
    score: np.ndarray  # float
    tag: str


@dataclass(frozen=True)
class Qrels:
    """A parsed qrels file, in file order."""

    qid: np.ndarray  # str
    docid: np.ndarray  # str
    rel: np.ndarray  # int


def _check_token(values: np.ndarray, what: str) -> None:
    bad = [v for v in values if not v or any(c.isspace() for c in v)]
    if bad:
        raise BoostrankError(f"{what} must be non-empty and without spaces; got {bad[0]!r}")


def _query_key(q: np.ndarray) -> np.ndarray:
    """Sort key of query ids: numeric when every id is an integer (so 2 comes before 10)."""
    text = q.astype(str)
    if len(text) and np.char.isdigit(text).all():
        return text.astype(np.int64)
    return text


def ranked_order(qid: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row order of a run: queries in ascending id, documents by descending score, ties in
    their original order; and each row's 1-based rank within its query (in that order)."""
    q = np.asarray(qid)
    s = np.asarray(scores, dtype=np.float64)
    if q.shape != s.shape or q.ndim != 1:
        raise BoostrankError(f"qid and scores must be 1-D of one length; got {q.shape}, {s.shape}")
    if np.isnan(s).any():
        raise BoostrankError("scores contain NaN")
    order = np.lexsort((np.arange(len(q)), -s, _query_key(q)))  # keys: query, -score, position
    q_sorted = q[order]
    start = np.r_[True, q_sorted[1:] != q_sorted[:-1]]
    first = np.maximum.accumulate(np.where(start, np.arange(len(q)), 0))
    return order, np.arange(len(q)) - first + 1


def write_run(
    path: Path | str, qid: np.ndarray, docid: np.ndarray, scores: np.ndarray, tag: str
) -> None:
    """Write ``qid Q0 docid rank score tag`` lines (scores in full precision, see module doc)."""
    q = np.asarray(qid).astype(str)
    d = np.asarray(docid).astype(str)
    if d.shape != q.shape:
        raise BoostrankError(f"qid and docid differ in shape: {q.shape} vs {d.shape}")
    _check_token(np.unique(q), "query ids")
    _check_token(np.unique(d), "document ids")
    _check_token(np.array([tag]), "the run tag")
    order, rank = ranked_order(q, np.asarray(scores, dtype=np.float64))
    s = np.asarray(scores, dtype=np.float64)[order]
    lines = [
        f"{qq} Q0 {dd} {r} {float(v)!r} {tag}\n"
        for qq, dd, r, v in zip(q[order], d[order], rank, s, strict=True)
    ]
    write_text(path, "".join(lines))


def write_qrels(path: Path | str, qid: np.ndarray, docid: np.ndarray, y: np.ndarray) -> None:
    """Write ``qid 0 docid rel`` lines, queries in ascending id, documents in original order."""
    q = np.asarray(qid).astype(str)
    d = np.asarray(docid).astype(str)
    rel = np.asarray(y).astype(np.int64)
    if not (q.shape == d.shape == rel.shape):
        raise BoostrankError(f"qid, docid and y differ in shape: {q.shape}, {d.shape}, {rel.shape}")
    _check_token(np.unique(q), "query ids")
    _check_token(np.unique(d), "document ids")
    order = np.lexsort((np.arange(len(q)), _query_key(q)))
    lines = [f"{a} 0 {b} {c}\n" for a, b, c in zip(q[order], d[order], rel[order], strict=True)]
    write_text(path, "".join(lines))


def _columns(path: Path | str, n: int) -> list[np.ndarray]:
    """The ``n`` whitespace-separated columns of a file (blank lines skipped), as str arrays."""
    text = Path(path).read_text(encoding="utf-8")
    tokens = text.split()
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise BoostrankError(f"{path}: empty")
    if len(tokens) != n * len(lines):  # find the offending line
        for number, line in enumerate(text.splitlines(), start=1):
            fields = line.split()
            if fields and len(fields) != n:
                raise BoostrankError(f"{path}:{number}: expected {n} fields, got {len(fields)}")
    table = np.array(tokens, dtype=str).reshape(len(lines), n)
    return [table[:, j] for j in range(n)]


def read_run(path: Path | str) -> Run:
    """Parse a run file written by :func:`write_run` (or any six-column TREC run)."""
    q, _, d, rank, score, tag = _columns(path, 6)
    tags = set(tag.tolist())
    if len(tags) != 1:
        raise BoostrankError(f"{path}: more than one run tag: {sorted(tags)}")
    return Run(q, d, rank.astype(np.int64), score.astype(np.float64), tags.pop())


def read_qrels(path: Path | str) -> Qrels:
    """Parse a four-column TREC qrels file."""
    q, _, d, rel = _columns(path, 4)
    return Qrels(q, d, rel.astype(np.int64))


def run_labels(run: Run, qrels: Qrels) -> np.ndarray:
    """The qrels label of every run line; every judged document must be ranked once and only
    judged documents may be ranked (the LETOR test files judge every document)."""
    pairs = zip(qrels.qid.tolist(), qrels.docid.tolist(), strict=True)
    judged = dict(zip(pairs, qrels.rel.tolist(), strict=True))
    if len(judged) != len(qrels.qid):
        raise BoostrankError("qrels: a (query, document) pair appears twice")
    keys = list(zip(run.qid.tolist(), run.docid.tolist(), strict=True))
    if len(set(keys)) != len(keys):
        raise BoostrankError("run: a (query, document) pair appears twice")
    missing = next((k for k in keys if k not in judged), None)
    if missing is not None:
        raise BoostrankError(f"run ranks an unjudged document ({' '.join(missing)}); qrels lack it")
    if len(keys) != len(judged):
        raise BoostrankError(f"run ranks {len(keys)} documents, qrels judge {len(judged)}")
    return np.fromiter((judged[k] for k in keys), dtype=np.int64, count=len(keys))


def random_tie_break(run: Run, seed: int) -> Run:
    """``run`` re-ranked with equal scores of a query in a seeded random order (distinct scores
    keep their order): the rank column a tie-agnostic evaluation reads."""
    key = np.random.default_rng(seed).permutation(len(run.qid))  # row i's place among ties
    perm = np.argsort(key)  # rows in that order, so ranked_order breaks ties by ``key``
    order, rank = ranked_order(run.qid[perm], run.score[perm])
    ranks = np.empty(len(perm), dtype=np.int64)
    ranks[perm[order]] = rank
    return Run(run.qid, run.docid, ranks, run.score, run.tag)


def tied_share(run: Run) -> float:
    """The share of a run's documents whose score equals another document's of the same query."""
    return ranking_tied_share(run.score, _query_key(run.qid))


def evaluate_run(
    run: Run, qrels: Qrels, k_max: int, *, formula: Formula = "letor"
) -> tuple[np.ndarray, np.ndarray]:
    """NDCG@1..k_max of every query of ``run`` against ``qrels``, ranked by the run's rank
    column: ``(query ids, array (queries, k_max))``, queries in ascending (numeric) id."""
    labels = run_labels(run, qrels)
    key = _query_key(run.qid)  # integer ids sort (and hash) faster, in numeric order
    curve = ndcg_curve(labels, -run.rank.astype(np.float64), key, k_max, formula=formula)
    return np.unique(key).astype(str), curve
