"""FRank (Tsai, Liu, Qin, Chen and Ma 2007, "FRank: a ranking method with fidelity loss", SIGIR):
a generalised additive model ``H(x) = sum_t alpha_t h_t(x)`` of binary weak learners fitted by
stage-wise minimisation of the query-normalised fidelity loss.

For a within-query pair (i, j), with ``o_ij = H(x_i) - H(x_j)`` and ``P_ij = e^o / (1 + e^o)``
(the RankNet probability), the fidelity loss is

    F_ij = 1 - ( sqrt(P*_ij P_ij) + sqrt((1 - P*_ij)(1 - P_ij)) ),

and the objective is ``J(H) = (1/m) sum_q (1/#q) sum_{(i,j) in q} F_ij`` (query-level
normalisation by the number of pairs #q of each query, which the paper motivates by the loss
being bounded; the 1/m only scales J).

Algorithm (the paper's FRank learning algorithm, stage-wise over binary weak learners): at round
t, for each candidate ``h(x) = [x_k > theta]`` (feature k, threshold theta from the training values'
quantiles), find the alpha minimising J(H_{t-1} + alpha h); keep the candidate with the least
loss; ``H_t = H_{t-1} + alpha_t h_t``.

Readings, recorded (ids of config/readings.yaml in brackets):

- Pairs are the within-query pairs with different labels, oriented so that ``y_i > y_j``:
  ``P*_ij = 1`` (``pairs.query_pairs``); pairs of equal labels (P* = 1/2) are not used.
  Every pair is used by default, since a subsample can cost test NDCG; ``max_pairs_per_query``
  (an int) keeps a uniform subsample of each query's pairs drawn with ``random_state``, a
  budget guard the paper does not have.
- The model is nonlinear, ``H(x) = sum_t alpha_t [x_k_t > theta_t]``, as LETOR 3.0 lists FRank
  among its "algorithms with nonlinear ranking function".
- Candidate thresholds [``frank_thresholds``]: up to ``n_thresholds`` distinct quantiles per
  feature (levels ``1/(B+1) .. B/(B+1)``) below the feature's maximum.
- The paper derives an approximate closed form for alpha; here alpha comes from Newton steps on
  the exact fidelity loss [``frank_candidates``, ``frank_newton_steps``] (a fixed step of 1
  where its curvature is negative, every step halved until the loss decreases). Minimising over
  every candidate is too costly, so candidates are screened: the ``n_candidates`` (default 8;
  None: every one) with the largest |dJ/dalpha| at alpha = 0 (a per-document gradient summed
  over each threshold's documents, one sparse product for all candidates) get one Newton step
  each on the pairs they split; the least exact loss wins, and its alpha is refined to
  ``newton_steps`` (default 4) steps in all. Every step keeps ``|alpha| <= max_alpha`` (default
  10) [``frank_alpha_cap``], a guard the paper does not have: where every pair a weak learner
  splits is ordered right, the fidelity loss falls for ever larger alpha and the Newton steps
  would not end. ``guards_["frank_alpha_cap"]`` counts the weak learners kept at the cap
  (:mod:`boostrank.guards`).
- The number of weak learners [``frank_rounds``, ``baseline_selection_metric``]: at most
  ``n_rounds`` (default 100); with ``validation`` the prefix with the best validation score
  (default NDCG@10) is kept, as LETOR's baselines chose it on the validation fold.

Computation: every quantity is a vector operation over all pairs (the pair margins ``o`` are
updated in place, the P* = 1 loss is computed without its vanishing second term); no Python
loop runs over pairs or queries. :func:`reference_round` is the same round written pair by pair,
for the tests.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

import numpy as np
from scipy import sparse

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.ranking.base import Ranker
from boostrank.ranking.pairs import query_pairs
from boostrank.ranking.validation import Selection, Validation, check_metric

ALPHA_CAP = "frank_alpha_cap"  # guard id: a weak learner's alpha held at +-max_alpha


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """``0.5 (1 + tanh(z / 2))``, the same operations in one buffer (no temporaries);
    a 0-d input gives a 0-d array, not a scalar, so the in-place steps apply."""
    out = np.multiply(z, 0.5, out=np.empty(np.shape(z)))
    np.tanh(out, out=out)
    out += 1.0
    out *= 0.5
    return out


def fidelity_loss(
    o: np.ndarray, target: np.ndarray | float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fidelity loss of pair margins ``o`` (Tsai et al. 2007) and its first and second
    derivatives in ``o``, for target probabilities ``target`` (P*)."""
    o = np.asarray(o, dtype=np.float64)
    t = np.broadcast_to(np.asarray(target, dtype=np.float64), o.shape)
    p = _sigmoid(o)
    q = 1.0 - p
    sp, sq = np.sqrt(p), np.sqrt(q)
    a, b = np.sqrt(t), np.sqrt(1.0 - t)
    loss = 1.0 - a * sp - b * sq
    # dp/do = p q; d sqrt(p)/do = sqrt(p) q / 2; d sqrt(q)/do = -p sqrt(q) / 2
    d1 = -0.5 * a * sp * q + 0.5 * b * p * sq
    # d/do [sqrt(p) q] = sqrt(p) q (1 - 3p) / 2; d/do [p sqrt(q)] = p sqrt(q) (2 - 3p) / 2
    d2 = -0.25 * a * sp * q * (1.0 - 3.0 * p) + 0.25 * b * p * sq * (2.0 - 3.0 * p)
    return loss, d1, d2


def _fidelity_preferred(o: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`fidelity_loss` at P* = 1: ``1 - sqrt(p)`` and its two derivatives."""
    p = _sigmoid(o)
    sp = np.sqrt(p)
    d1 = np.multiply(sp, -0.5)
    d1 *= np.subtract(1.0, p)  # -0.5 sqrt(p) q, q = 1 - p
    p *= 1.5
    np.subtract(0.5, p, out=p)
    p *= d1  # d1 (0.5 - 1.5 p)
    np.subtract(1.0, sp, out=sp)
    return sp, d1, p


def _line_search(
    o: np.ndarray,
    h: np.ndarray,
    w: np.ndarray,
    start: tuple[float, float, float, float],
    *,
    steps: int,
    max_alpha: float,
) -> tuple[float, float, float, float]:
    """Minimise ``phi(a) = sum w F(o + a h)`` (h in {-1, +1}, P* = 1) from
    ``start = (a, phi(a), phi'(a), phi''(a))``: ``steps`` Newton steps (a fixed step of 1 where
    phi'' <= 0, the loss being non-convex), each halved until phi decreases (at most 8 times).
    Returns the same tuple at the new a."""
    alpha, phi, grad, curv = start
    for _ in range(steps):
        if grad == 0.0:
            break
        step = -grad / curv if curv > 0 else -float(np.sign(grad))
        step = float(np.clip(step, -max_alpha - alpha, max_alpha - alpha))
        for _ in range(8):
            f, g, c = _fidelity_preferred(o + (alpha + step) * h)
            value = float(w @ f)
            if value < phi:
                alpha, phi = alpha + step, value
                grad, curv = float(w @ (g * h)), float(w @ c)
                break
            step *= 0.5
        else:
            break
    return alpha, phi, grad, curv


@dataclass(frozen=True)
class Candidate:
    """A screened weak learner: its index, the pairs it splits, their signs h, and the line
    search's state (alpha, loss, gradient, curvature) at alpha = 0 and after one step."""

    index: int
    pairs: np.ndarray
    signs: np.ndarray
    start: tuple[float, float, float, float]
    first: tuple[float, float, float, float]


def _best_candidate(
    o: np.ndarray,
    *,
    f0: np.ndarray,
    g: np.ndarray,
    c2: np.ndarray,
    w: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    bins: np.ndarray,
    cand_feature: np.ndarray,
    cands: np.ndarray,
    cand_index: np.ndarray,
    max_alpha: float,
) -> Candidate | None:
    """The screened candidate whose first Newton step (halved up to 8 times until the exact
    loss falls) lowers the loss most, each evaluated on the pairs it splits only (the others'
    margins do not change). None if none lowers it; the first of equal decreases wins."""
    best: tuple[float, Candidate] | None = None
    for c in cands:
        hd = bins[cand_feature[c]] > cand_index[c]
        nz = np.flatnonzero(hd[i] != hd[j])
        if len(nz) == 0:
            continue
        h = np.where(hd[i[nz]], 1.0, -1.0)
        wn = w[nz]
        start = (0.0, float(wn @ f0[nz]), float(wn @ (g[nz] * h)), float(wn @ c2[nz]))
        first = _line_search(o[nz], h, wn, start, steps=1, max_alpha=max_alpha)
        if first[0] != 0.0 and (best is None or first[1] - start[1] < best[0]):
            best = (first[1] - start[1], Candidate(int(c), nz, h, start, first))
    return None if best is None else best[1]


def reference_round(
    X: np.ndarray, y: np.ndarray, qid: np.ndarray, H: np.ndarray, k: int, theta: float, alpha: float
) -> float:
    """The objective J(H + alpha [x_k > theta]) written pair by pair (for the tests):
    (1/m) sum_q (1/#q) sum over q's pairs with y_i > y_j of the fidelity loss at P* = 1."""
    per_query: dict[object, list[float]] = {}
    for a in range(len(y)):
        for b in range(len(y)):
            if qid[a] == qid[b] and y[a] > y[b]:
                oa = H[a] + alpha * float(X[a, k] > theta)
                ob = H[b] + alpha * float(X[b, k] > theta)
                p = 1.0 / (1.0 + np.exp(-(oa - ob)))
                per_query.setdefault(qid[a], []).append(1.0 - float(np.sqrt(p)))
    return sum(sum(v) / len(v) for v in per_query.values()) / len(per_query)


@dataclass(eq=False, repr=False)
class FRank(Ranker):
    """FRank: boosted binary weak learners on the fidelity loss; ``fit``, ``predict``."""

    n_rounds: int = 100
    _: KW_ONLY
    n_thresholds: int = 16
    n_candidates: int | None = 8
    newton_steps: int = 4
    max_alpha: float = 10.0
    max_pairs_per_query: int | None = None
    metric: str = "ndcg@10"
    random_state: int = 0

    def _thresholds(self, X: np.ndarray) -> list[np.ndarray]:
        levels = np.arange(1, self.n_thresholds + 1) / (self.n_thresholds + 1)
        out = []
        for k in range(X.shape[1]):
            theta = np.unique(np.quantile(X[:, k], levels, method="lower"))
            out.append(theta[theta < X[:, k].max()])
        return out

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Add up to ``n_rounds`` weak learners; with ``validation``, keep the best prefix."""
        if self.n_rounds < 1:
            raise BoostrankError(f"FRank: n_rounds must be >= 1, got {self.n_rounds}")
        check_metric(self.metric)
        n, d = X.shape
        i, j = query_pairs(
            y, qid, max_pairs_per_query=self.max_pairs_per_query, seed=self.random_state
        )
        if len(i) == 0:
            raise BoostrankError("FRank: no within-query pair with different labels")
        _, q_of = np.unique(qid, return_inverse=True)
        per_query = np.bincount(q_of[i])
        n_queries = int((per_query > 0).sum())
        w = 1.0 / (per_query[q_of[i]] * n_queries)  # (1/m)(1/#q) per pair
        self.n_pairs_ = len(i)

        thresholds = self._thresholds(X)
        sizes = np.array([len(t) for t in thresholds])
        if sizes.sum() == 0:
            raise BoostrankError("FRank: every feature is constant")
        offsets = np.concatenate([[0], np.cumsum(sizes + 1)])
        # bins[k, r] = number of thresholds of feature k below X[r, k]: h_{k,m}(x) = [bin > m].
        bins = np.stack([np.searchsorted(thresholds[k], X[:, k], side="left") for k in range(d)])
        # (bins x documents) membership, stored by document (CSC): a fast gradient sum per bin.
        onehot_t = sparse.csc_matrix(
            (np.ones(n * d), ((bins + offsets[:-1, None]).T.ravel(), np.repeat(np.arange(n), d))),
            shape=(int(offsets[-1]), n),
        )
        cand_feature = np.concatenate([np.full(s, k) for k, s in enumerate(sizes)])
        cand_index = np.concatenate([np.arange(s) for s in sizes])

        val = None if validation is None else Selection(validation, self.metric)
        self.guards_ = Guards.of(ALPHA_CAP)
        H = np.zeros(n)
        o = np.zeros(len(i))  # pair margins H_i - H_j
        vH = None if val is None else np.zeros(len(val.X))
        learners: list[tuple[int, float, float]] = []
        loss_curve = [float(w @ _fidelity_preferred(o)[0])]
        best = 0
        for _ in range(self.n_rounds):
            f0, g, c2 = _fidelity_preferred(o)
            gw = w * g
            g_doc = np.bincount(i, gw, minlength=n) - np.bincount(j, gw, minlength=n)
            per_bin = onehot_t @ g_doc  # gradient mass of each (feature, bin)
            # dJ/dalpha of h_{k,m} at 0 = sum of the bins above m: reverse cumulative sums.
            grads = np.concatenate(
                [
                    np.cumsum(per_bin[offsets[k] : offsets[k + 1]][::-1])[::-1][1:]
                    for k in range(d)
                    if sizes[k] > 0
                ]
            )
            cands = np.argsort(-np.abs(grads), kind="stable")[: self.n_candidates]
            chosen = _best_candidate(o, f0=f0, g=g, c2=c2, w=w, i=i, j=j, bins=bins,
                                     cand_feature=cand_feature, cands=cands,
                                     cand_index=cand_index, max_alpha=self.max_alpha)  # fmt: skip
            if chosen is None:
                break
            k, m = int(cand_feature[chosen.index]), int(cand_index[chosen.index])
            hd = bins[k] > m
            nz, h, start = chosen.pairs, chosen.signs, chosen.start
            # Its first Newton step was taken in the screening: the other steps follow on.
            state = (
                _line_search(
                    o[nz],
                    h,
                    w[nz],
                    chosen.first,
                    steps=self.newton_steps - 1,
                    max_alpha=self.max_alpha,
                )
                if self.newton_steps >= 1
                else start
            )
            if state[0] == 0.0:
                break
            change, alpha = state[1] - start[1], state[0]
            if abs(alpha) >= self.max_alpha:
                self.guards_.fire(ALPHA_CAP)
            theta = float(thresholds[k][m])
            learners.append((k, theta, alpha))
            H += alpha * hd
            o[nz] += alpha * h
            loss_curve.append(loss_curve[-1] + change)
            if val is not None and vH is not None:
                vH += alpha * (val.X[:, k] > theta)
                if val.improves(vH):
                    best = len(learners)
        if not learners:
            raise BoostrankError("FRank: no weak learner lowers the fidelity loss")
        self.rounds_trained_ = len(learners)
        self.n_rounds_ = best if val is not None and best > 0 else len(learners)
        self.learners_ = learners[: self.n_rounds_]
        self.loss_curve_ = np.asarray(loss_curve)
        self.valid_curve_ = np.asarray([] if val is None else val.curve)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """``H(x) = sum_t alpha_t [x_{k_t} > theta_t]`` over the kept weak learners."""
        X = self.check_predict(X)
        out = np.zeros(len(X))
        for k, theta, alpha in self.learners_:
            out += alpha * (X[:, k] > theta)
        return out
