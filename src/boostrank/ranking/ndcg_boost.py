"""NDCG_Boost: boosting binary classifiers to optimise a relaxation of the expected NDCG.

H. Valizadegan, *Boosting and Online Learning for Classification and Ranking*, PhD dissertation,
Michigan State University 2010, chapter 3 (Eqs. 3.1-3.18, Lemma 4, Propositions 1-2, Theorems
5-6, Algorithm 5; proofs in appendices A.4-A.8); published as Valizadegan, Jin, Zhang and Mao,
"Learning to Rank by Optimizing NDCG Measure", NIPS 2009.

The algorithm, as implemented (query k has documents i = 1..m_k with grades r_i; all sums over
i, j run within a query; ``s_i`` is the score the algorithm accumulates)::

    Z_k       = sum_p (2^{r_(p)} - 1) / log2(1 + p)     ideal DCG of the whole list    (3.1)
    s_i       = F_i = 2 F(d_i)                          the doubled ranking function    (3.8)
    A_i       = sum_{j != i} 1 / (1 + exp(s_i - s_j))    expected rank minus 1          (3.10)
    Mbar      = 1/n sum_k 1/Z_k sum_i (2^{r_i} - 1) A_i  relaxed objective (minimised)  (3.11)
    gamma_ij  = exp(s_i - s_j) / (1 + exp(s_i - s_j))^2                                 (3.14)
    theta_ij  = gamma_ij I(j != i)
    w_i       = sum_j (2^{r_i} - 2^{r_j}) / Z_k theta_ij                                (3.17)
    label     = sign(w_i); draw documents with probability |w_i| / sum |w|;
    f         = decision stump on the sample, f(x) = 1 where it predicts +1, else 0    (3.18)
    alpha_1   = 1/n sum_k sum_{i,j} (2^{r_i} - 1) / Z_k theta_ij I(f_j < f_i)
    alpha_2   = 1/n sum_k sum_{i,j} (2^{r_i} - 1) / Z_k theta_ij I(f_j > f_i)
    alpha     = 1/2 log(alpha_1 / alpha_2); stop when alpha <= 0                        (3.15)
    s_i      <- s_i + alpha f_i                                                         (3.12)

Readings (the text extraction lost symbols; the NIPS paper's full text was not retrievable, so
each choice below was derived from the dissertation's own proofs and checked numerically):

1. **The factor 2.** Lemma 4 (proof A.5) carries ``exp[2(F(d_i) - F(d_j))]``: swapping two
   documents in Eq. 3.6 multiplies the probability by ``exp(2 (pi(i) - pi(j)) (F_i - F_j))``,
   so the factor is right. The text then sets ``F_i = 2F(d_i)`` and writes the update (3.12)
   and Algorithm 5 step 9 on ``F_i``; alpha (3.15) is derived for that variable. The model
   therefore accumulates ``s = sum_t alpha_t f_t`` as ``F_i`` itself and evaluates gamma on
   ``s`` (no further doubling). Accumulating ``F(d) += alpha f`` and evaluating gamma on ``2F``
   would take twice the step Theorem 5 prescribes. :meth:`NDCGBoost.predict` returns
   ``F(d) = s / 2``, the ranking function of Eq. 3.6 (the ranking is the same).
2. **Z_k** (reading ``ndcg_boost_ideal_dcg``) is the normaliser of Eq. 3.1: the DCG of the
   ideal ordering of the *whole* list (Eq. 3.1 is untruncated), gain ``2^r - 1``, discount
   ``1 / log2(1 + p)``. The log base scales every Z_k alike and changes neither alpha nor
   sign(w). Queries with Z_k = 0 (no relevant document) add exactly 0 to Mbar, w and alpha and
   are skipped; n counts all queries. ``ideal_dcg_cutoff=c`` takes instead the ideal DCG of the
   top c ("NDCG is usually truncated at a particular rank level (e.g. the first 10 retrieved
   documents)", section 3.3.1): Z_k only weighs the queries against each other, so this
   changes which queries dominate.
3. **Theorem 6's sign.** Inequality (A.4) bounds ``theta [exp(alpha (f_j - f_i)) - 1]`` with the
   term ``(exp(3 alpha) - 1)/3 (f_j - f_i)``; the next line of A.7 writes ``(f_i - f_j)``. With
   the sign of (A.4) (gamma_ij is symmetric) the bound reads
   ``Mbar(F + alpha f) <= Mbar(F) + gamma(alpha) - (exp(3 alpha) - 1)/3 sum_i f_i w_i`` with
   ``gamma(alpha) = (exp(3 alpha) + exp(-3 alpha) - 2)/3 sum_{i,j} c_i theta_ij``: the
   classifier should put f = 1 where w > 0, which is what Algorithm 5 does (labels sign(w),
   maximise eta of Eq. 3.18). As printed, the bound would favour f = 1 where w < 0.
4. **alpha minimises the Proposition 2 bound, not the Theorem 6 bound.** Eq. 3.15 is the exact
   minimiser of ``sum c_i theta_ij exp(alpha (f_j - f_i))`` (proof A.6), i.e. of the upper bound
   of Proposition 2 (Theorem 5 calls it "the optimal alpha", which is true of that bound only).
   The looser Theorem 6 bound is minimised at ``alpha = 1/6 log(Theta / (Theta - sum f_i w_i))``
   (Theta = sum c_i theta_ij), a different number; it serves to choose f, not alpha.
5. **Sign of w.** In w_i = sum_j (2^{r_i} - 2^{r_j}) / Z_k theta_ij every document of lower
   grade pulls d_i up and every document of higher grade pulls it down, each by theta_ij,
   which is largest for documents scored close to d_i. w_i > 0 therefore means d_i should
   move up (it sits among documents less relevant than itself), and the text's "ranking
   position less than its true rank position" means lower in the list. Since gamma is
   symmetric, ``alpha_1 - alpha_2 = 1/n sum_i f_i w_i``: alpha > 0 exactly when the stump's
   f = 1 side carries positive total weight on the whole training set.
6. **Degenerate alpha** (readings ``chapter3_alpha_cap``, ``ndcg_boost_cap_scope``). If
   alpha_2 = 0 < alpha_1 the bound decreases without limit and so does Mbar (no relevant
   document with f = 0 shares a query with a document with f = 1); Eq. 3.15 is infinite there
   and alpha is set to ``max_alpha`` (guard ``chapter3_alpha_cap``, on: the printed step is
   undefined without it). Wherever alpha_2 > 0, Eq. 3.15 defines alpha and it is used as printed
   (``cap_scope="infinite"``, the default); ``cap_scope="all"`` also caps every finite alpha at
   ``max_alpha`` (guard ``ndcg_boost_cap_scope``). "Stop when alpha <= 0" (also MCSSB's rule,
   chapter 2, Algorithm 3 step 8; chapter 3's Remark asks the weak learner to beat random
   guessing) applies when alpha_1 <= alpha_2 with alpha_1 + alpha_2 > 0. A stump whose two
   leaves predict the same class (both majority +1, which the Gini criterion allows on a sample
   that is not exactly balanced), or any f constant within every query, leaves every pair
   unchanged and makes alpha = 1/2 log(0/0) undefined rather than <= 0: that round adds nothing
   and counts as an iteration (``n_skipped_``), and the next round draws a new sample (such
   stumps are common, so stopping at the first one would end the boosting early). All w = 0
   stops.
7. **Sampling** (reading ``ndcg_boost_sample_size``). Chapter 3 samples "according to
   |w_i|" without a size; the size ``s = max(20, n/5)`` (n training documents, n/5 rounded
   down; ``sample_fraction`` 0.2) is the dissertation's rule of chapter 4 (Algorithm 6) and of
   chapter 2 (section 2.3.4). Documents are drawn with replacement (as AdaBoost's resampling)
   from all training documents pooled over queries; ``sample_fraction=1`` draws as many as
   there are, as boosting by resampling does.
8. **Weak learner.** A depth-1 Gini decision tree on the sample (scikit-learn's
   ``DecisionTreeClassifier(max_depth=1)`` criterion, reimplemented by :func:`fit_stump` for row
   multiplicities and a fixed tie rule; ``make bench`` times both). Splits are midpoints between
   consecutive distinct sample values (values within 1e-7 count as equal), duplicated sample
   rows count twice, each leaf predicts its majority class (ties: -1, i.e. f = 0), and among
   equally good splits the lowest feature index and then the lowest threshold wins (scikit-learn
   breaks such ties by a random feature order). f = 1 where the stump predicts +1.
9. **No validation set**, 100 iterations (section 3.4.1); ``validation`` is accepted and ignored.
10. **alpha <= 0** (readings ``ndcg_boost_nonpositive_alpha``, ``ndcg_boost_max_redraws``).
   Algorithm 5 has no exit: it loops "until reach the maximum number of iterations" (step 10)
   and section 3.4.1 sets "the maximum number of iteration to 100". Eq. 3.17's w sums to 0
   within each query (theta is symmetric, 2^r_i - 2^r_j antisymmetric), so for the flipped stump
   ``1 - f`` alpha_1 and alpha_2 of Eq. 3.15 trade places: a stump with alpha < 0 *is* the
   flipped stump with weight -alpha > 0 (``s + alpha f`` and ``s - alpha (1 - f)`` differ by a
   constant per query and rank alike), and the flipped stump has the larger eta_t of Eq. 3.18
   (``eta(1 - f) = -eta(f) > 0``), which step 5 asks the classifier to maximise.
   ``on_nonpositive_alpha="flip"`` (the default) therefore keeps the flipped stump; a round
   whose stump is constant, whose alpha is undefined (0/0, see "Degenerate alpha") or exactly 0
   draws a new sample without using up an iteration (``n_redrawn_``), so 100 iterations means
   100 stumps. ``"redraw"`` re-draws every alpha <= 0 instead of flipping. Two other readings
   are options: ``"stop"`` ends the loop at the first alpha <= 0 (the Remark's "in order to have
   this boosting algorithm continue the iterations, the weak learner needs to produce models
   better than random guessing", read as an exit), and ``"skip"`` drops such a round; both let a
   constant or undefined round use up an iteration (``n_skipped_``). ``max_redraws`` consecutive
   draws without a usable stump end the loop (``stop_reason_``; guard
   ``ndcg_boost_max_redraws``, on: without it the loop need not end); the fold records carry
   ``n_iterations_``, ``n_flipped_``, ``n_redrawn_`` and ``n_skipped_``. Every flip, redraw,
   skip or stop of a round whose alpha is not > 0 fires guard ``ndcg_boost_nonpositive_alpha``.

Guards (:mod:`boostrank.guards`): ``guards_`` counts, per fit, how often each of the four acted.

Computation (vectorised per query; the Python loops run over queries and tiles, never pairs).
Every pair term needs only ``P_ij = exp(s_i - s_j)``: ``S = 1/(1 + P)`` is the logistic term of
A_i (3.10), ``Q = P S`` equals ``1 - S`` without cancellation, and ``gamma = Q S`` (3.14). P
is the outer product of ``exp(s_i - c)`` and ``exp(c - s_j)`` (c the query's mid-range): one
exp per document, none per pair; a query whose score range exceeds the dtype's exp range uses
``exp(clip(s_i - s_j))`` instead, which changes only terms below 1e-34. The sums
``R_i = sum_j theta_ij``, ``T_i = sum_j theta_ij u_j`` (u = 2^r / Z_k shifted so the lowest
grade is 0) and A_i are matrix-vector products over tiles of at most ``block`` x ``block``
pairs, so memory is O(block^2) whatever the query size; w_i = u_i R_i - T_i (3.17).

An update s += alpha f (3.12) changes only the pairs with f_i != f_j, usually a fraction of all
pairs. Each iteration therefore passes over those pairs twice: at the old scores (their theta
gives alpha_1 and alpha_2 of 3.15 exactly, and their old share of R, T, A) and at the new ones
(the new share); R, T, A are updated by the difference and recomputed from all pairs every
``refresh`` iterations (default 25), which bounds the drift of the incremental sums. The pair
terms are float32 by default (relative error ~1e-7, sums accumulated in float64);
``dtype="float64"`` computes them in double precision.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import KW_ONLY, dataclass
from typing import Literal

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.ranking.base import Ranker
from boostrank.ranking.pairs import query_groups
from boostrank.ranking.validation import Validation

Dtype = Literal["float32", "float64"]
# Largest |s_i - c| for which exp(s_i - c) * exp(c - s_j) stays a normal number.
_EXP_HALF_RANGE = {np.dtype(np.float32): 40.0, np.dtype(np.float64): 300.0}
_FEATURE_THRESHOLD = 1e-7  # scikit-learn's tree: feature values closer than this are equal
# Guard ids (readings in config/readings.yaml): Eq. 3.15 infinite (alpha_2 = 0) set to
# max_alpha; a finite alpha capped (cap_scope "all"); a round with alpha <= 0 or undefined
# flipped, redrawn, skipped or stopped at; the loop ended after max_redraws draws.
ALPHA_CAP = "chapter3_alpha_cap"
CAP_SCOPE = "ndcg_boost_cap_scope"
NONPOSITIVE = "ndcg_boost_nonpositive_alpha"
MAX_REDRAWS = "ndcg_boost_max_redraws"
CapScope = Literal["infinite", "all"]


# --------------------------------------------------------------------------------------------
# Per-query data and the pair passes


def _ideal_dcg(r: np.ndarray, cutoff: int | None = None) -> float:
    """Z_k of Eq. 3.1: DCG of the ideal ordering of the whole list (``cutoff``: of its top
    ``cutoff``), discount 1/log2(1 + p)."""
    gain = (np.exp2(np.sort(r.astype(np.float64))[::-1]) - 1.0)[:cutoff]
    return float((gain / np.log2(np.arange(2, len(gain) + 2))).sum())


def _exps(s: np.ndarray, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray] | None:
    """``(exp(s - c), exp(c - s))`` with c the mid-range of one query's scores, so that
    ``P_ij = exp(s_i - s_j)`` is their outer product; ``None`` if the range is too wide."""
    hi, lo = float(s.max()), float(s.min())
    if hi - lo > 2.0 * _EXP_HALF_RANGE[dtype]:
        return None  # each tile exponentiates clipped differences instead
    c = 0.5 * (hi + lo)
    return np.exp(s - c).astype(dtype), np.exp(c - s).astype(dtype)


def _tile(
    out_i: np.ndarray,
    out_j: np.ndarray | None,
    s: np.ndarray,
    ex: tuple[np.ndarray, np.ndarray] | None,
    u: np.ndarray,
    *,
    i: np.ndarray | slice,
    j: np.ndarray | slice,
    work: np.ndarray,
) -> None:
    """Add the sums over one tile of pairs (d_i, d_j) of one query to ``out_i`` / ``out_j``.

    ``out[0] += sum theta``, ``out[1] += sum theta u`` (of the other document) and
    ``out[2] += sum`` of the A terms (3.10): ``S_ij = 1/(1 + exp(s_i - s_j))`` (d_j ahead of
    d_i) for the rows and ``Q_ij = 1 - S_ij`` for the columns. ``out_j=None`` marks a
    diagonal tile (``i`` and ``j`` the same documents): row sums only, self-pairs left out.
    """
    ui, uj = u[i], u[j]
    mi, mj = len(ui), len(uj)
    buf = work[: 3 * mi * mj].reshape(3, mi, mj)
    S, G, P = buf[0], buf[1], buf[2]
    if ex is not None:
        np.multiply.outer(ex[0][i], ex[1][j], out=P)  # P_ij = exp(s_i - s_j)
    else:  # too wide a score range for the product: clipping changes terms below 1e-34
        lim = 2.0 * _EXP_HALF_RANGE[work.dtype]
        np.exp(np.clip(np.subtract.outer(s[i], s[j]), -lim, lim), out=P, casting="same_kind")
    np.add(P, 1.0, out=S)
    np.divide(1.0, S, out=S)  # S_ij = 1/(1 + exp(s_i - s_j)), Eqs. 3.8-3.10
    np.multiply(P, S, out=P)  # Q_ij = exp(s_i - s_j)/(1 + exp(s_i - s_j)) = 1 - S_ij
    np.multiply(P, S, out=G)  # gamma_ij = exp(s_i - s_j)/(1 + exp(s_i - s_j))^2, Eq. 3.14
    ones_j = np.ones(mj, dtype=work.dtype)
    if out_j is None:
        k = np.arange(mi)
        S[k, k] = 0.0  # theta_ij = gamma_ij I(j != i); A_i sums over j != i
        G[k, k] = 0.0
    out_i[0] += G @ ones_j  # theta summed over j, and the others below: one gemv each
    out_i[1] += G @ uj
    out_i[2] += S @ ones_j
    if out_j is not None:
        ones_i = np.ones(mi, dtype=work.dtype)
        out_j[0] += ones_i @ G
        out_j[1] += ui @ G
        out_j[2] += ones_i @ P


def _block_sums(
    s: np.ndarray,
    ex: tuple[np.ndarray, np.ndarray] | None,
    u: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    *,
    block: int | None,
    work: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Sums ``(3, len)`` for the rows and for the columns over all pairs between two disjoint
    sets of documents (indices into one query), in tiles of at most ``block`` x ``block``."""
    out_i, out_j = np.zeros((3, len(rows))), np.zeros((3, len(cols)))
    rb = len(rows) if block is None else block
    cb = len(cols) if block is None else block
    for i0 in range(0, len(rows), rb):
        for j0 in range(0, len(cols), cb):
            _tile(
                out_i[:, i0 : i0 + rb],
                out_j[:, j0 : j0 + cb],
                s,
                ex,
                u,
                i=rows[i0 : i0 + rb],
                j=cols[j0 : j0 + cb],
                work=work,
            )
    return out_i, out_j


def _query_sums(s: np.ndarray, u: np.ndarray, block: int | None, work: np.ndarray) -> np.ndarray:
    """``(3, m)`` sums over all pairs of one query: ``R_i = sum_j theta_ij``,
    ``T_i = sum_j theta_ij u_j`` and ``A_i`` (3.10). Row block I is paired with itself (one
    diagonal tile) and with the documents after it, so each unordered pair is formed once;
    ``block=None`` makes the whole query one diagonal tile."""
    m = len(s)
    ex = _exps(s, work.dtype)
    rb = m if block is None else block
    out = np.zeros((3, m))
    for i0 in range(0, m, rb):
        i1 = min(i0 + rb, m)
        _tile(out[:, i0:i1], None, s, ex, u, i=slice(i0, i1), j=slice(i0, i1), work=work)
        if i1 < m:
            rows, cols = np.arange(i0, i1), np.arange(i1, m)
            out_i, out_j = _block_sums(s, ex, u, rows, cols, block=block, work=work)
            out[:, i0:i1] += out_i
            out[:, i1:] += out_j
    return out


def _cross_sums(
    s: np.ndarray, u: np.ndarray, f: np.ndarray, block: int | None, work: np.ndarray
) -> np.ndarray:
    """The part of :func:`_query_sums` that comes from the pairs with ``f_i != f_j``, the only
    pairs whose terms change when ``s`` moves by ``alpha f`` (3.12)."""
    out = np.zeros((3, len(s)))
    one, zero = np.flatnonzero(f), np.flatnonzero(~f)
    if len(one) and len(zero):
        ex = _exps(s, work.dtype)
        out[:, one], out[:, zero] = _block_sums(s, ex, u, one, zero, block=block, work=work)
    return out


class _Pairs:
    """The training queries in sorted order with their label terms, computed once.

    ``u = (2^r - 2^r_min) / Z_k`` (pair dtype; w_i = u_i R_i - sum_j theta_ij u_j, Eq. 3.17)
    and ``c = (2^r - 1) / (n Z_k)`` (the coefficients of Mbar, Eq. 3.11, and of alpha, Eq.
    3.15) for the queries with Z_k > 0 and two or more documents; 0 for the other documents.
    """

    def __init__(
        self,
        y: np.ndarray,
        qid: np.ndarray,
        block: int | None,
        dtype: str | np.dtype,
        cutoff: int | None = None,
    ) -> None:
        self.dtype = np.dtype(dtype)
        if self.dtype not in _EXP_HALF_RANGE:
            raise BoostrankError(f"dtype must be float32 or float64, got {dtype!r}")
        if block is not None and int(block) < 1:
            raise BoostrankError(f"block must be >= 1 or None, got {block!r}")
        self.block = None if block is None else int(block)
        self.order, bounds = query_groups(qid)
        self.n = len(self.order)
        r_sorted = np.asarray(y)[self.order].astype(np.float64)
        self.u = np.zeros(self.n)
        self.c = np.zeros(self.n)
        self.spans: list[slice] = []
        for k in range(len(bounds) - 1):
            sl = slice(int(bounds[k]), int(bounds[k + 1]))
            z = _ideal_dcg(r_sorted[sl], cutoff)
            if sl.stop - sl.start < 2 or z <= 0.0:
                continue  # no pair, or no relevant document: adds 0 to Mbar, w and alpha
            g = np.exp2(r_sorted[sl])
            self.u[sl] = (g - g.min()) / z
            self.c[sl] = (g - 1.0) / ((len(bounds) - 1) * z)
            self.spans.append(sl)
        self.u_pair = self.u.astype(self.dtype)
        widest = max((sl.stop - sl.start for sl in self.spans), default=1)
        side = widest if block is None else min(int(block), widest)
        self.work = np.empty(3 * side * side, dtype=self.dtype)

    def sums(self, s: np.ndarray) -> np.ndarray:
        """``(3, n)``: R, T and A of every document (sorted order) at scores ``s``."""
        out = np.zeros((3, self.n))
        for sl in self.spans:
            out[:, sl] = _query_sums(s[sl], self.u_pair[sl], self.block, self.work)
        return out

    def cross_sums(self, s: np.ndarray, f: np.ndarray) -> np.ndarray:
        """The part of :meth:`sums` from the pairs with ``f_i != f_j``."""
        out = np.zeros((3, self.n))
        for sl in self.spans:
            out[:, sl] = _cross_sums(s[sl], self.u_pair[sl], f[sl], self.block, self.work)
        return out

    def weights(self, sums: np.ndarray) -> np.ndarray:
        """w_i = sum_j (2^r_i - 2^r_j)/Z_k theta_ij = u_i R_i - T_i (3.17)."""
        return self.u * sums[0] - sums[1]

    def objective(self, sums: np.ndarray) -> float:
        """Mbar = 1/n sum_k 1/Z_k sum_i (2^r_i - 1) A_i (3.11)."""
        return float(np.dot(self.c, sums[2]))

    def alpha_terms(self, cross: np.ndarray, f: np.ndarray) -> tuple[float, float]:
        """``(alpha_1, alpha_2)`` of Eq. 3.15 from the cross sums ``sum_{j: f_j != f_i}
        theta_ij``: alpha_1 sums c_i times them over f_i = 1, alpha_2 over f_i = 0."""
        return float(np.dot(self.c[f], cross[0, f])), float(np.dot(self.c[~f], cross[0, ~f]))


def combination_weight(
    alpha_1: float,
    alpha_2: float,
    max_alpha: float = 10.0,
    cap_scope: CapScope = "infinite",
    guards: Guards | None = None,
) -> float:
    """Eq. 3.15, ``1/2 log(alpha_1 / alpha_2)``: ``max_alpha`` when only alpha_2 = 0 (Eq. 3.15
    infinite), ``-inf`` when only alpha_1 = 0, NaN (undefined) when both are 0, i.e. when f is
    constant within every query (module docstring, reading chapter3_alpha_cap). A finite alpha
    is capped at ``max_alpha`` only with ``cap_scope="all"``. ``guards`` counts each cap that
    acted."""
    if not alpha_1 > 0.0:
        return math.nan if not alpha_2 > 0.0 else -math.inf
    if not alpha_2 > 0.0:
        if guards is not None:
            guards.fire(ALPHA_CAP)
        return float(max_alpha)
    alpha = 0.5 * math.log(alpha_1 / alpha_2)
    if cap_scope == "all" and alpha > max_alpha:
        if guards is not None:
            guards.fire(CAP_SCOPE)
        return float(max_alpha)
    return alpha


# --------------------------------------------------------------------------------------------
# Public helpers on (scores, y, qid): the quantities of chapter 3, for tests and inspection


def document_weights(
    scores: np.ndarray,
    y: np.ndarray,
    qid: np.ndarray,
    *,
    block: int | None = None,
    dtype: Dtype = "float64",
) -> np.ndarray:
    """w_i of Eq. 3.17 at accumulated scores ``scores`` (= F_i = 2F(d_i)), in input order."""
    pairs = _Pairs(y, qid, block, dtype)
    w = np.empty(pairs.n)
    w[pairs.order] = pairs.weights(pairs.sums(np.asarray(scores, dtype=np.float64)[pairs.order]))
    return w


def relaxed_objective(
    scores: np.ndarray,
    y: np.ndarray,
    qid: np.ndarray,
    *,
    block: int | None = None,
    dtype: Dtype = "float64",
) -> float:
    """Mbar of Eq. 3.11 at accumulated scores ``scores`` (= F_i = 2F(d_i))."""
    pairs = _Pairs(y, qid, block, dtype)
    return pairs.objective(pairs.sums(np.asarray(scores, dtype=np.float64)[pairs.order]))


def alpha_terms(
    scores: np.ndarray,
    y: np.ndarray,
    qid: np.ndarray,
    f: np.ndarray,
    *,
    block: int | None = None,
    dtype: Dtype = "float64",
) -> tuple[float, float]:
    """``(alpha_1, alpha_2)``, the numerator and denominator sums of Eq. 3.15 (Theorem 7)."""
    pairs = _Pairs(y, qid, block, dtype)
    s = np.asarray(scores, dtype=np.float64)[pairs.order]
    fs = np.asarray(f, dtype=bool)[pairs.order]
    return pairs.alpha_terms(pairs.cross_sums(s, fs), fs)


def gamma_matrix(scores: np.ndarray) -> np.ndarray:
    """gamma_ij of Eq. 3.14 for one query, dense and in float64 (a reference for small m)."""
    d = np.subtract.outer(np.asarray(scores, dtype=np.float64), scores)
    return np.exp(-np.abs(d)) / (1.0 + np.exp(-np.abs(d))) ** 2


def permutation_marginals(F: np.ndarray) -> np.ndarray:
    """Exact ``Pr(pi(i) > pi(j))`` (d_j ranked before d_i) under Eq. 3.6, by enumerating all
    m! permutations; ``F`` is the ranking function F(d) (not doubled). For m <= 8."""
    F = np.asarray(F, dtype=np.float64)
    m = len(F)
    if m > 8:
        raise BoostrankError(f"permutation_marginals enumerates m! rankings; m = {m} > 8")
    pos = np.array(list(itertools.permutations(range(1, m + 1))))  # pos[:, i] = pi(i)
    logp = (m - 2 * pos + 1) @ F  # Eq. 3.6, second form
    p = np.exp(logp - logp.max())
    p /= p.sum()
    later = pos[:, :, None] > pos[:, None, :]  # [perm, i, j]: pi(i) > pi(j)
    return np.einsum("p,pij->ij", p, later)


def permutation_log_weight(F: np.ndarray, pi: np.ndarray) -> tuple[float, float]:
    """Both forms of Eq. 3.6's exponent for ranks ``pi`` (1-based): the pairwise sum
    ``sum_i sum_{j: pi(j) > pi(i)} (F_i - F_j)`` and ``sum_i (m - 2 pi(i) + 1) F_i``."""
    F, pi = np.asarray(F, dtype=np.float64), np.asarray(pi)
    pairwise = float(((pi[None, :] > pi[:, None]) * np.subtract.outer(F, F)).sum())
    return pairwise, float(((len(F) - 2 * pi + 1) * F).sum())


def logistic_marginals(F: np.ndarray) -> np.ndarray:
    """Lemma 4's logistic model ``1 / (1 + exp(2 (F(d_i) - F(d_j))))`` (Eqs. 3.7, 3.8)."""
    F = np.asarray(F, dtype=np.float64)
    return 0.5 * (1.0 - np.tanh(np.subtract.outer(F, F)))  # = 1/(1 + exp(2 (F_i - F_j)))


# --------------------------------------------------------------------------------------------
# The weak learner


@dataclass(frozen=True)
class Stump:
    """A depth-1 tree: ``f(x) = left if x[feature] <= threshold else right`` (f in {0, 1})."""

    feature: int
    threshold: float
    left: int
    right: int

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Binary outputs f(x) in {0, 1}."""
        x = np.asarray(X, dtype=np.float32)[:, self.feature].astype(np.float64)
        return np.where(x <= self.threshold, self.left, self.right).astype(np.int8)


def fit_stump(X: np.ndarray, labels: np.ndarray, counts: np.ndarray | None = None) -> Stump | None:
    """Gini decision stump on ``(X, labels in {-1, +1})`` as scikit-learn's
    ``DecisionTreeClassifier(max_depth=1)`` grows it, leaf outputs mapped to f = 1 for class
    +1; ``counts`` are row multiplicities (a row with count 3 is the row three times). ``None``
    when the sample is pure or every feature is constant (module docstring, "Weak learner")."""
    Xs = np.asarray(X, dtype=np.float32)
    pos = np.asarray(labels) > 0
    cnt = np.ones(len(pos), dtype=np.int64) if counts is None else np.asarray(counts, np.int64)
    n, n_pos = int(cnt.sum()), int(cnt[pos].sum())
    if len(pos) < 2 or n_pos in (0, n):
        return None
    XT = np.ascontiguousarray(Xs.T)
    order = np.argsort(XT, axis=1)  # ties in any order: splits fall between distinct values
    xs = np.take_along_axis(XT, order, axis=1).astype(np.float64)
    left_pos = np.cumsum(np.where(pos, cnt, 0)[order], axis=1)[:, :-1]  # split after position
    left_n = np.cumsum(cnt[order], axis=1)[:, :-1]
    left_neg = left_n - left_pos
    right_pos = n_pos - left_pos
    right_neg = (n - left_n) - right_pos
    # scikit-learn's proxy of the Gini improvement: sum_k n_lk^2/n_l + sum_k n_rk^2/n_r
    proxy = (left_pos * left_pos + left_neg * left_neg) / left_n
    proxy += (right_pos * right_pos + right_neg * right_neg) / (n - left_n)
    proxy[xs[:, 1:] <= xs[:, :-1] + _FEATURE_THRESHOLD] = -np.inf
    best = int(np.argmax(proxy))  # first maximum: lowest feature, then lowest threshold
    feature, p = divmod(best, len(pos) - 1)
    if not np.isfinite(proxy[feature, p]):
        return None
    lo, hi = xs[feature, p], xs[feature, p + 1]
    threshold = lo / 2.0 + hi / 2.0
    if threshold == hi or not math.isfinite(threshold):
        threshold = lo
    return Stump(
        int(feature),
        float(threshold),
        int(left_pos[feature, p] > left_neg[feature, p]),
        int(right_pos[feature, p] > right_neg[feature, p]),
    )


# --------------------------------------------------------------------------------------------
# The ranker


@dataclass(eq=False, repr=False)
class NDCGBoost(Ranker):
    """NDCG_Boost (dissertation chapter 3, Algorithm 5; Valizadegan et al., NIPS 2009);
    ``fit(X, y, qid)``, ``predict(X)``.

    ``sample_size``: documents sampled per iteration (default ``max(20, int(n *
    sample_fraction))``, n training documents; reading ndcg_boost_sample_size).
    ``ideal_dcg_cutoff``: Z_k over the whole list (None) or its top c (reading
    ndcg_boost_ideal_dcg). Keyword options (module docstring): ``block``, the largest tile side
    of a query's pair matrix (``None``: whole queries at once); ``dtype`` of the pair terms;
    ``max_alpha`` and ``cap_scope`` (readings chapter3_alpha_cap, ndcg_boost_cap_scope);
    ``refresh``, iterations between full recomputations of the pair sums (``None``: never);
    ``on_nonpositive_alpha``, ``"flip"`` (default), ``"redraw"``, ``"stop"`` or ``"skip"``, and
    ``max_redraws`` (readings ndcg_boost_nonpositive_alpha, ndcg_boost_max_redraws).

    Attributes after ``fit``: ``alphas_`` (Eq. 3.15 of each kept stump), ``stumps_``
    (:class:`Stump`) and the same as arrays ``features_``, ``thresholds_``, ``leaf_values_``
    (f of the left and right leaf); ``objective_``, Mbar (3.11) at F = 0 and after each
    iteration (``n_iterations_ + 1`` values); ``n_iterations_``, stumps kept; ``n_flipped_``,
    stumps kept flipped; ``n_redrawn_``, samples drawn again; ``n_skipped_``, rounds used up
    without a stump (``"stop"``/``"skip"`` only); ``stop_reason_``; ``guards_``, the guards'
    firings in this fit (module docstring).
    """

    x_dtype = "float32"  # the stumps split float32 features

    n_iterations: int = 100
    sample_size: int | None = None
    random_state: int = 0
    _: KW_ONLY
    block: int | None = 512
    dtype: Dtype = "float32"
    max_alpha: float = 10.0
    cap_scope: CapScope = "infinite"
    refresh: int | None = 25
    on_nonpositive_alpha: Literal["flip", "redraw", "stop", "skip"] = "flip"
    max_redraws: int = 100
    sample_fraction: float = 0.2
    ideal_dcg_cutoff: int | None = None

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Algorithm 5 for ``n_iterations`` iterations (reading ndcg_boost_nonpositive_alpha for
        alpha <= 0); ``validation`` is ignored (the dissertation uses none, section 3.4.1)."""
        if (y < 0).any():
            raise BoostrankError("relevance labels must be >= 0")
        n = len(y)
        size = (
            max(20, int(n * self.sample_fraction))
            if self.sample_size is None
            else int(self.sample_size)
        )
        if size < 1:
            raise BoostrankError(f"sample_size must be >= 1, got {self.sample_size}")
        mode = self.on_nonpositive_alpha
        if mode not in ("flip", "redraw", "stop", "skip"):
            raise BoostrankError(
                f"on_nonpositive_alpha must be 'flip', 'redraw', 'stop' or 'skip', not {mode!r}"
            )
        if self.cap_scope not in ("infinite", "all"):
            raise BoostrankError(f"cap_scope must be 'infinite' or 'all', not {self.cap_scope!r}")
        # every iteration adds a stump (reading ndcg_boost_nonpositive_alpha)
        full_run = mode in ("flip", "redraw")
        self.guards_ = guards = Guards.of(ALPHA_CAP, CAP_SCOPE, NONPOSITIVE, MAX_REDRAWS)
        weight = functools.partial(
            combination_weight, max_alpha=self.max_alpha, cap_scope=self.cap_scope, guards=guards
        )
        rng = np.random.default_rng(self.random_state)
        if self.ideal_dcg_cutoff is not None and self.ideal_dcg_cutoff < 1:
            raise BoostrankError(
                f"ideal_dcg_cutoff must be >= 1 or None, not {self.ideal_dcg_cutoff}"
            )
        pairs = _Pairs(y, qid, self.block, self.dtype, self.ideal_dcg_cutoff)
        Xs = X[pairs.order]
        s = np.zeros(n)  # F_i = 2F(d_i), sorted by query; Algorithm 5 step 1: F = 0
        sums = pairs.sums(s)  # R, T, A of every document
        stumps: list[Stump] = []
        alphas: list[float] = []
        objective = [pairs.objective(sums)]
        self.stop_reason_ = "n_iterations"
        self.n_skipped_ = self.n_flipped_ = self.n_redrawn_ = 0
        t = 0  # iterations run (the counter of step 10); "stop"/"skip" count lost rounds too
        misses = 0  # consecutive draws without a usable stump
        while t < self.n_iterations:
            w = pairs.weights(sums)  # step 4, Eq. 3.17 (theta of step 3 inside the sums)
            total = float(np.abs(w).sum())
            if total <= 0.0:
                self.stop_reason_ = "all w = 0"
                break
            # Steps 5-6: sample by |w| (with replacement), labels sign(w), train the stump
            draws = rng.choice(n, size=size, p=np.abs(w) / total)
            idx, counts = np.unique(draws, return_counts=True)  # duplicates as counts
            stump = fit_stump(Xs[idx], np.sign(w[idx]), counts)
            # constant f: alpha undefined, nothing to add (reading ndcg_boost_nonpositive_alpha)
            alpha = math.nan
            if stump is not None and stump.left != stump.right:
                f = stump.predict(Xs).astype(bool)  # step 7
                before = pairs.cross_sums(s, f)  # the only pair terms that alpha f changes
                alpha = weight(*pairs.alpha_terms(before, f))  # Eq. 3.15
                # 1 - f with weight -alpha (reading ndcg_boost_nonpositive_alpha)
                if alpha < 0.0 and mode == "flip":
                    stump = Stump(stump.feature, stump.threshold, 1 - stump.left, 1 - stump.right)
                    f = ~f  # the pairs with f_i != f_j, and so ``before``, stay the same
                    alpha = weight(*pairs.alpha_terms(before, f))
                    self.n_flipped_ += 1
                    guards.fire(NONPOSITIVE)
            if not alpha > 0.0:  # NaN, 0, or < 0 where not flipped
                guards.fire(NONPOSITIVE)  # redrawn, skipped or stopped at
                if full_run:
                    self.n_redrawn_ += 1
                    misses += 1
                    if misses >= self.max_redraws:
                        self.stop_reason_ = f"no usable stump in {misses} draws"
                        guards.fire(MAX_REDRAWS)
                        break
                    continue
                if math.isnan(alpha) or mode == "skip":
                    self.n_skipped_ += 1
                    t += 1
                    continue
                self.stop_reason_ = "alpha <= 0"  # the Remark read as an exit
                break
            assert stump is not None  # alpha > 0 needs a stump
            misses = 0
            t += 1
            s += alpha * f  # step 9, Eq. 3.12
            stumps.append(stump)
            alphas.append(alpha)
            if self.refresh and t % self.refresh == 0:
                sums = pairs.sums(s)
            else:
                sums += pairs.cross_sums(s, f) - before
            objective.append(pairs.objective(sums))  # Mbar after this iteration (3.11)
        self.stumps_ = stumps
        self.alphas_ = np.asarray(alphas)
        self.features_ = np.array([t.feature for t in stumps], dtype=np.intp)
        self.thresholds_ = np.array([t.threshold for t in stumps], dtype=np.float64)
        self.leaf_values_ = np.array([(t.left, t.right) for t in stumps], dtype=np.float64).reshape(
            -1, 2
        )
        self.n_iterations_ = len(stumps)
        self.objective_ = np.asarray(objective)

    def predict(self, X: np.ndarray, *, n_iterations: int | None = None) -> np.ndarray:
        """Ranking scores ``F(x) = 1/2 sum_t alpha_t f_t(x)`` of the first ``n_iterations``
        stumps (default all; module docstring, "The factor 2")."""
        X = self.check_predict(X)
        t = (
            self.n_iterations_
            if n_iterations is None
            else min(int(n_iterations), self.n_iterations_)
        )
        if t == 0:
            return np.zeros(len(X))
        x = X[:, self.features_[:t]].astype(np.float64)
        leaf = self.leaf_values_[:t]
        f = np.where(x <= self.thresholds_[:t], leaf[:, 0], leaf[:, 1])
        return 0.5 * (f @ self.alphas_[:t])
