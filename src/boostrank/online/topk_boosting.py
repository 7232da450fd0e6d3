"""Online boosting for multilabel ranking with top-k feedback: TopkBBM and TopkAdaptive of
Zhang, Jung & Tewari (2019), *Online Boosting for Multilabel Ranking with Top-k Feedback*, and
their full-information counterparts OnlineBMR and Ada.OLMR of Jung & Tewari (2018), *Online
Boosting Algorithms for Multi-label Ranking* (AISTATS).

The booster template (Algorithm 1), one round t:

1. the N weak learners predict distributions h^1..h^N over the m labels (step 5);
2. experts s^i = sum_{j <= i} alpha^j h^j (step 6); an expert index i_t is chosen (step 7):
   the last expert (TopkBBM, OnlineBMR) or one drawn from Hedge's weights (TopkAdaptive,
   Ada.OLMR);
3. the prediction is the ranking of s^{i_t}, randomised by the exploration step of section 2.2
   (top-k algorithms; :mod:`boostrank.online.topk_feedback`) (step 8);
4. feedback: the relevance of the k shown labels (top-k), or all of Y (full information)
   (step 10);
5. cost vectors c^i for every learner (step 11, from the experts of *this* round's
   predictions), the learners update (step 12), the booster updates alpha and Hedge (13-14).

Cost vectors, per variant (pairs (l, r): l relevant, r irrelevant; top-k variants use only the
shown pairs, each weighted by 1 / P(shown), the estimator of Eq. 1):

- TopkBBM (Algorithm 2, Eq. 3): c^i[j] = sum_pairs w psi^{N-i}_lr(s^{i-1} + e_j), with the
  surrogate potential psi^n_lr(s) = E f_lr(s + n random votes drawn from u_gamma^l), u_gamma^l
  the biased uniform distribution with gamma more mass on the pair's relevant label l
  (u[l] = gamma + (1 - gamma)/m, else (1 - gamma)/m) and f_lr the hinge
  (margin + s_r - s_l)_+. alpha = 1; the last expert predicts.
- OnlineBMR: the same with the ground-truth potential, votes drawn from u_gamma^Y
  (u[l] = gamma + (1 - gamma |Y|)/m on Y, (1 - gamma |Y|)/m elsewhere), pairs weighted
  1/(|Y||Y^c|) (the weighted hinge loss). On a row with gamma |Y| > 1, u_gamma^Y is no
  distribution and the potential is undefined: a guard (reading ``topk_bmr_edge``, counted in
  ``guards_``) lowers gamma to 1/|Y| on that row (``edge_guard='lower'``) or skips the row's
  update (``'skip'``).
- TopkAdaptive (Algorithm 3, Eq. 4): c^i = gradient of the estimated logistic loss
  sum_pairs w log(1 + exp(s_r - s_l)) at s^{i-1}; alpha^i by projected SGD onto [-2, 2] with
  step eta_t = alpha_lr / sqrt(t) on the estimated loss at s^i; Hedge picks the expert, each
  expert's weight multiplied by exp(-hedge_rate * estimated unweighted rank loss of s^i).
- Ada.OLMR: the same with every pair, weight 1/(|Y||Y^c|) (its loss and the Hedge input are
  the weighted logistic and rank losses).

The potentials are computed exactly, not by Monte Carlo: only the votes landing on l or r move
f_lr, so D = (votes on r) - (votes on l) after n draws is a lazy random walk (-1 w.p. p_l,
+1 w.p. p_r), and psi^n(z) = E (margin + z + D)_+ is piecewise linear in z = s_r - s_l with
kinks where z + margin is an integer; a table over those integers, interpolated, gives it at
any z (:class:`PairPotential`).

Readings of the text (its copy lost most inline symbols; each is a constructor argument and a
reading of config/readings.yaml on a key of config ``topk``): the hinge margin (the authors'
code: 0; 1 is the usual hinge rank loss), the exploration's number of swaps (2, section 2.2),
the step size alpha_lr (top-k: 8 sqrt(2) rho / m^2, full information: 1, as in the authors'
released code), hedge_rate (1), whether the test predictions use a Hedge draw per row or the
heaviest expert (a draw), and the weak learners (:mod:`boostrank.online.multilabel_weak`).
Section 4 says Table 1 was made "using publicly available codes", so where the text is silent
the authors' code is the experiment's default.

Hedge's input and rate (config ``hedge_scale``, ``hedge_rate``). Section 3.3.2 runs "the
Hedge algorithm from Freund and Schapire (1997)" on each expert's estimated unweighted rank
loss; Hedge is defined for losses in [0, 1], and Eq. 1's estimate is not: its importance
weights 1 / P(pair shown) make one round's estimate as large as
:func:`~boostrank.online.topk_feedback.estimate_bound` (45 on Emotions' shape, ~2.4e4 on
Mediamill's). ``hedge_scale: none`` (the experiment's default) feeds the raw estimate, as the
authors' released code does (``exp(-exp_step_size * estimate)``, ``exp_step_size = 1``): then
one exploration round can put all of Hedge's mass on one expert. ``range`` divides the
estimate by that bound, so Hedge sees a loss in [0, 1] and ``exp(-hedge_rate * loss)`` is
Freund and Schapire's update with beta = exp(-hedge_rate). Full information (Ada.OLMR): the
weighted rank loss is already in [0, 1], so the two agree. The experiment records Hedge's
entropy after each checkpoint pass (``expert_entropy_after_<n>_passes`` in Table 1's CSV).
The authors' weak learners are VFDT Hoeffding trees, each on a random subset of 20 covariates
with random split confidence, grace period and tie threshold; the weak learner here is a
linear softmax learner (:mod:`boostrank.online.multilabel_weak`), which differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import expit

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.online.multilabel_weak import OnlineSoftmaxLearners
from boostrank.online.rank_loss import ranking
from boostrank.online.topk_feedback import (
    check_feedback,
    estimate_bound,
    explore,
    full_pairs,
    observed_pairs,
)
from boostrank.seeds import estimator_streams

_SHIFTS = np.array([-1.0, 0.0, 1.0])[:, None, None, None]
EDGE_GUARD = "topk_bmr_edge"  # OnlineBMR on a row with gamma |Y| > 1 (its reading's id)


@dataclass(frozen=True)
class _Round:
    """One round's weak predictions H, experts S, scores shown and feedback pairs (relevant
    ``rel``, irrelevant ``irr``, weights ``w``)."""

    H: np.ndarray
    S: np.ndarray
    shown: np.ndarray
    rel: np.ndarray
    irr: np.ndarray
    w: np.ndarray


class PairPotential:
    """psi^n(z) = E (margin + z + D_n)_+ for n = 0..n_max, D_n the sum of n independent steps
    -1 (prob ``p_rel``, a vote on the relevant label), +1 (prob ``p_irr``), else 0."""

    def __init__(self, n_max: int, p_rel: float, p_irr: float, margin: float = 1.0) -> None:
        if p_rel < 0 or p_irr < 0 or p_rel + p_irr > 1 + 1e-12:
            raise BoostrankError(f"bad vote probabilities p_rel={p_rel}, p_irr={p_irr}")
        self.n_max, self.margin = int(n_max), float(margin)
        N = self.n_max
        dist = np.zeros((N + 1, 2 * N + 1))  # P(D_n = d), d = -N..N at column d + N
        dist[0, N] = 1.0
        step = np.array([p_rel, max(0.0, 1.0 - p_rel - p_irr), p_irr])  # d-1, d, d+1
        for n in range(1, N + 1):
            dist[n] = np.convolve(dist[n - 1], step, mode="same")
        self.dist = dist
        d = np.arange(-N, N + 1)
        u = np.arange(-N, N + 1)  # u = z + margin on the integer grid
        self.table = dist @ np.maximum(0.0, u[None, :] + d[:, None])  # (N+1, 2N+1): g_n(u)

    def __call__(self, n: np.ndarray, z: np.ndarray) -> np.ndarray:
        """psi^{n}(z); ``n`` (N,) remaining draws, ``z`` (..., N, ...) with N on axis -3
        (the boosters' (N, |rel|, |irr|) pair blocks)."""
        N = self.n_max
        u = np.asarray(z, dtype=np.float64) + self.margin
        if N == 0:
            return np.maximum(0.0, u)
        uc = np.minimum(np.maximum(u, -N), N)
        j = np.minimum(np.floor(uc), N - 1).astype(np.intp)
        frac = uc - j
        j += N
        rows = np.asarray(n, dtype=np.intp)[:, None, None]
        lo = self.table[rows, j]
        hi = self.table[rows, j + 1]
        return lo + frac * (hi - lo) + np.maximum(u - N, 0.0)  # slope 1 beyond the grid

    def reference(self, n: int, z: float) -> float:
        """Direct sum over D_n's distribution (for tests)."""
        d = np.arange(-self.n_max, self.n_max + 1)
        return float(self.dist[n] @ np.maximum(0.0, self.margin + z + d))


def potential_costs(
    S_prev: np.ndarray,
    rel: np.ndarray,
    irr: np.ndarray,
    w: np.ndarray,
    pot: PairPotential,
    remaining: np.ndarray,
) -> np.ndarray:
    """Eq. 3 (TopkBBM) and OnlineBMR's cost vectors, (N, m): row i is
    c[j] = sum_pairs w psi^{remaining_i}(s^{i-1} + e_j) minus the same at s^{i-1} (a constant
    per row, which no learner's choice can change)."""
    z = S_prev[:, irr][:, None, :] - S_prev[:, rel][:, :, None]  # (N, |rel|, |irr|)
    lower, base, upper = pot(remaining, z[None] + _SHIFTS)
    cost = np.zeros(S_prev.shape)
    cost[:, rel] = ((lower - base) * w).sum(axis=2)  # a vote on l lowers z = s_r - s_l
    cost[:, irr] = ((upper - base) * w).sum(axis=1)
    return cost


def logistic_costs(
    S_prev: np.ndarray, rel: np.ndarray, irr: np.ndarray, w: np.ndarray
) -> np.ndarray:
    """Eq. 4 (TopkAdaptive) and Ada.OLMR's cost vectors, (N, m): the gradient at s^{i-1} of
    sum_pairs w log(1 + exp(s_r - s_l))."""
    g = expit(S_prev[:, irr][:, None, :] - S_prev[:, rel][:, :, None]) * w
    cost = np.zeros(S_prev.shape)
    cost[:, rel] = -g.sum(axis=2)
    cost[:, irr] = g.sum(axis=1)
    return cost


class TopkBooster:
    """Algorithm 1 with the cost vectors, weights and expert choice of one of the four boosters.

    ``algorithm``: ``bbm`` (TopkBBM / OnlineBMR) or ``adaptive`` (TopkAdaptive / Ada.OLMR);
    ``k``: top-k feedback, or None for full information (k = m, no exploration)."""

    def __init__(
        self,
        n_features: int,
        n_labels: int,
        *,
        algorithm: str = "bbm",
        k: int | None = 3,
        n_learners: int = 20,
        rho: float = 0.2,
        n_swap: int = 2,
        gamma: float = 0.1,
        margin: float = 1.0,
        alpha_lr: float | None = None,
        hedge_rate: float = 1.0,
        hedge_scale: str = "range",
        test_expert: str = "sample",
        edge_guard: str = "lower",
        weak: dict[str, Any] | None = None,
        random_state: int = 0,
    ) -> None:
        if algorithm not in ("bbm", "adaptive"):
            raise BoostrankError(f"algorithm must be bbm or adaptive, not {algorithm!r}")
        if hedge_scale not in ("range", "none"):
            raise BoostrankError(f"hedge_scale must be range or none, not {hedge_scale!r}")
        if test_expert not in ("sample", "best"):
            raise BoostrankError(f"test_expert must be sample or best, not {test_expert!r}")
        if edge_guard not in ("lower", "skip"):
            raise BoostrankError(f"edge_guard must be lower or skip, not {edge_guard!r}")
        self.m, self.algorithm, self.N = int(n_labels), algorithm, int(n_learners)
        self.k = None if k is None or int(k) >= self.m else int(k)
        self.rho, self.n_swap = float(rho), int(n_swap)
        if self.k is not None:
            check_feedback(self.m, self.k, self.n_swap)
        # Hedge's input in [0, 1] (range) or raw (none); full information: already in [0, 1]
        bound = 1.0 if self.k is None else estimate_bound(self.m, self.k, self.rho, self.n_swap)
        self.hedge_scale = hedge_scale
        self.hedge_bound = bound if hedge_scale == "range" else 1.0
        self.gamma, self.margin = float(gamma), float(margin)
        if alpha_lr is None:
            alpha_lr = 8 * np.sqrt(2) * self.rho / self.m**2 if self.k is not None else 1.0
        self.alpha_lr, self.hedge_rate, self.test_expert = (
            float(alpha_lr),
            float(hedge_rate),
            test_expert,
        )
        weak_rng, self.rng, self._test_rng = estimator_streams(random_state, 3)
        self.weak = OnlineSoftmaxLearners(self.N, self.m, int(n_features), weak_rng, **(weak or {}))
        bbm = algorithm == "bbm"
        self.alpha = np.ones(self.N) if bbm else np.zeros(self.N)  # Algorithm 2 / 3, step 2
        self.log_v = np.zeros(self.N)  # Hedge's expert log-weights (Algorithm 3)
        self.t = 0
        self.explored = 0
        self._remaining = self.N - 1 - np.arange(self.N)  # draws left after learner i: N - i
        self._potentials: dict[int, PairPotential] = {}
        # OnlineBMR alone can meet an undefined potential (gamma |Y| > 1); counted per row
        self.edge_guard = edge_guard
        self.guards_ = Guards.of(EDGE_GUARD) if bbm and self.k is None else Guards.of()

    # ------------------------------------------------------------------ potentials
    def _potential(self, n_rel: int) -> PairPotential:
        """TopkBBM's surrogate (votes from u_gamma^l) or OnlineBMR's (from u_gamma^Y; gamma
        lowered to 1/|Y| where gamma |Y| > 1, the guard ``topk_bmr_edge``)."""
        key = 1 if self.k is not None else n_rel
        pot = self._potentials.get(key)
        if pot is None:
            g = min(self.gamma, 1.0 / key)
            base = (1.0 - g * key) / self.m
            pot = self._potentials[key] = PairPotential(self.N, g + base, base, self.margin)
        return pot

    # ------------------------------------------------------------------ one round
    def partial_fit(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """Rounds on the rows ``X`` (n, d), in order, with relevance ``Y`` (n, m) (only the
        shown labels' relevance is read under top-k feedback). Returns the (n, m) scores the
        booster showed: row t is the chosen expert's s with its labels moved as the exploration
        step moved them, so it ranks the labels as the booster's (randomised) prediction did;
        a round's loss is :func:`~boostrank.online.rank_loss.weighted_rank_loss` of it."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        Y = np.asarray(Y).astype(np.int8)
        shown = np.empty((len(X), self.m))
        for t in range(len(X)):  # online: one round after another
            shown[t] = self._round(X[t], Y[t])
        return shown

    def _round(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """One round of Algorithm 1 on row ``x``; returns the scores shown."""
        self.t += 1
        played: list[_Round] = []

        def feedback(H: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
            played.append(self._play(H, y))  # steps 6-10
            return self._costs(played[0], y)  # step 11

        self.weak.partial_fit(x, feedback)  # steps 5 and 12
        r = played[0]
        if self.algorithm == "adaptive" and r.w.size:
            self._adapt(r)  # steps 13-14
        return r.shown

    def _play(self, H: np.ndarray, y: np.ndarray) -> _Round:
        """Steps 6-10: the experts, the chosen one's (explored) ranking and the feedback."""
        S = np.cumsum(self.alpha[:, None] * H, axis=0)  # step 6: experts s^1..s^N
        if self.algorithm == "bbm":
            i_t = self.N - 1  # Algorithm 2, step 7
        else:
            p = np.exp(self.log_v - self.log_v.max())
            i_t = int(self.rng.choice(self.N, p=p / p.sum()))  # Algorithm 3, step 7
        s = S[i_t]
        sigma = ranking(s)
        if self.k is None:
            sigma_tilde = sigma
            rel, irr, w = full_pairs(y, normalize=True)
        else:  # steps 8, 10: exploration and top-k feedback
            sigma_tilde, did = explore(sigma, self.k, self.rho, self.rng, self.n_swap)
            self.explored += did
            rel, irr, w = observed_pairs(
                sigma, sigma_tilde, y, k=self.k, rho=self.rho, n_swap=self.n_swap
            )
        shown = np.empty(self.m)  # the explored ranking, scores moved with the labels
        shown[sigma_tilde] = s[sigma]
        return _Round(H=H, S=S, shown=shown, rel=rel, irr=irr, w=w)

    def _costs(self, r: _Round, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Step 11: every weak learner's cost vector and the relevant labels seen; None when
        the learners do not update (no (relevant, irrelevant) pair seen, every cost vector 0;
        or OnlineBMR's skipped edge row)."""
        if r.w.size == 0:
            return None
        S_prev = np.vstack([np.zeros((1, self.m)), r.S[:-1]])  # s^{i-1}
        if self.algorithm == "bbm":  # Eq. 3
            n_rel = 1 if self.k is not None else int(y.sum())
            if self.k is None and self.gamma * n_rel > 1:  # u_gamma^Y is no distribution
                self.guards_.fire(EDGE_GUARD)
                if self.edge_guard == "skip":
                    return None
            pot = self._potential(n_rel)
            cost = potential_costs(S_prev, r.rel, r.irr, r.w, pot=pot, remaining=self._remaining)
        else:  # Eq. 4
            cost = logistic_costs(S_prev, r.rel, r.irr, r.w)
        relevant = np.zeros(self.m)
        relevant[r.rel] = 1.0
        return cost, relevant

    def _adapt(self, r: _Round) -> None:
        """Steps 13-14 of Algorithm 3, at the experts s^i: alpha by projected SGD, Hedge."""
        S, H, rel, irr, w = r.S, r.H, r.rel, r.irr, r.w
        zi = S[:, irr][:, None, :] - S[:, rel][:, :, None]
        dh = H[:, irr][:, None, :] - H[:, rel][:, :, None]
        grad = (dh * expit(zi) * w).sum(axis=(1, 2))
        eta = self.alpha_lr / np.sqrt(self.t)
        self.alpha = np.clip(self.alpha - eta * grad, -2.0, 2.0)
        rank = (zi > 0) + 0.5 * (zi == 0)  # Eq. 1 estimate of each expert's rank loss
        loss_hat = (rank * w).sum(axis=(1, 2)) / self.hedge_bound  # Eq. 1, per expert
        self.log_v -= self.hedge_rate * loss_hat
        self.log_v -= self.log_v.max()

    # ------------------------------------------------------------------ test
    def expert_weights(self) -> np.ndarray:
        """Hedge's distribution over the experts (the last expert alone for BBM)."""
        if self.algorithm == "bbm":
            return np.eye(self.N)[-1]
        p = np.exp(self.log_v - self.log_v.max())
        return p / p.sum()

    def decision_scores(self, X: np.ndarray, block: int = 1024) -> np.ndarray:
        """Test scores (n, m): the chosen expert's s, without exploration or learning. For
        the adaptive boosters the expert is a Hedge draw per row (``test_expert='sample'``)
        or the heaviest one (``'best'``)."""
        X = np.asarray(X, dtype=np.float64)
        p = self.expert_weights()
        if self.algorithm == "bbm" or self.test_expert == "best":
            experts = np.full(len(X), int(np.argmax(p)))
        else:
            experts = self._test_rng.choice(self.N, size=len(X), p=p)
        out = np.empty((len(X), self.m))
        for a in range(0, len(X), block):
            H = self.weak.predict_rows(X[a : a + block])  # (b, N, m)
            S = np.cumsum(self.alpha[None, :, None] * H, axis=1)
            out[a : a + block] = S[np.arange(len(H)), experts[a : a + block]]
        return out


def TopkBBM(n_features: int, n_labels: int, k: int = 3, **kw: Any) -> TopkBooster:
    """TopkBBM (Algorithm 2): top-k feedback, surrogate potentials, alpha = 1, last expert."""
    return TopkBooster(n_features, n_labels, algorithm="bbm", k=k, **kw)


def TopkAdaptive(n_features: int, n_labels: int, k: int = 3, **kw: Any) -> TopkBooster:
    """TopkAdaptive (Algorithm 3): top-k feedback, logistic gradients, SGD alphas, Hedge."""
    return TopkBooster(n_features, n_labels, algorithm="adaptive", k=k, **kw)


def OnlineBMR(n_features: int, n_labels: int, **kw: Any) -> TopkBooster:
    """OnlineBMR (Jung & Tewari, 2018): full information, ground-truth potentials."""
    kw.pop("k", None)
    return TopkBooster(n_features, n_labels, algorithm="bbm", k=None, **kw)


def AdaOLMR(n_features: int, n_labels: int, **kw: Any) -> TopkBooster:
    """Ada.OLMR (Jung & Tewari, 2018): full information, weighted logistic loss, Hedge."""
    kw.pop("k", None)
    return TopkBooster(n_features, n_labels, algorithm="adaptive", k=None, **kw)


__all__ = [
    "AdaOLMR",
    "OnlineBMR",
    "PairPotential",
    "TopkAdaptive",
    "TopkBBM",
    "TopkBooster",
    "logistic_costs",
    "potential_costs",
]
