"""MRR, Multiplicative Ranking Refinement (Valizadegan, *Boosting and Online Learning for
Classification and Ranking*, 2010, chapter 4, Algorithm 6): boosting that minimises

    L_p = (sum_ij T_ij exp(F_j - F_i)) (sum_ij W_ij exp(F_j - F_i))          (Eq. 4.10)

for one query's documents, where ``W`` encodes the base ranker's order (Eq. 4.1) and ``T`` the
judged pairs (Eq. 4.3), see :mod:`boostrank.ranking.refinement`. Each iteration:

3. ``gamma_ij = a_ij + b_ij`` (Eqs. 4.11-4.12, each normalised to sum 1);
4. ``w_i = sum_j gamma_ij - gamma_ji``; 5. labels ``y_i = sign(w_i)``;
6. a binary weak learner ``f(x) in {0, 1}`` trained to maximise ``eta_t = sum_i |w_i| f_i y_i``
   (Eq. 4.13): by default a decision stump on ``s = max(20, n/5)`` instances sampled with
   probability proportional to ``|w_i|`` (section 4.3.4), or (``weak_learner="thresholds"``)
   RankBoost's threshold search maximising Eq. 4.13 over all instances exactly;
8. ``alpha = 1/2 log(mu / nu)``, ``mu = sum gamma_ij [f_i = 1, f_j = 0]``,
   ``nu = sum gamma_ij [f_i = 0, f_j = 1]`` (Eq. 4.14); 9. ``F <- F + alpha f``.

``F`` starts at 0, so ``L_p^0 = (sum T)(sum W)``. The step-8 ``alpha`` minimises the bound of
Lemma 5, so ``L_p`` never rises. Where ``nu`` (or ``mu``) is 0, Eq. 4.14's alpha is infinite and the
printed step undefined; ``alpha = 1/2 log((mu + s)/(nu + s))`` with ``smoothing`` s (default 1e-12)
keeps it finite, a guard the text does not have. ``guards_["mrr_alpha_smoothing"]`` counts the
iterations where ``min(mu, nu) < s``, i.e. where the smoothing, not the data, sets the size of alpha
(:mod:`boostrank.guards`). Everything is vectorised over the ``n x n`` pair matrices through the
rank-one form of ``exp(F_j - F_i)``: an iteration costs a few products with ``W``.

Recorded per iteration: ``objective_`` (``log L_p``, length T + 1), ``mu_``, ``nu_``,
``edge_`` (``eta_t = mu - nu``, Appendix A.12), ``alpha_``. :meth:`theorem9_bound` and
:meth:`theorem10_bound` give the right-hand sides of Eqs. 4.15 and 4.19 (log scale). Note: the
proof of Theorem 10 (Appendix A.12) substitutes ``eta_t >= (sqrt(mu) - sqrt(nu))^2`` into
Theorem 9, which bounds ``L_p`` from above by the *larger* quantity, so Eq. 4.19 does not
follow; Theorem 9 is what the algorithm guarantees.

``t_scope``: which pairs ``T``'s ``eta/2`` part covers -- ``all`` (every pair of the n
documents: Eq. 4.3's "otherwise" and the sums over i, j = 1..n of Eqs. 4.5-4.10 and the
Remark; the default) or ``judged`` (the pairs of the judged documents only, "the probability
of ranking x_i before x_j in the training data" read as a restriction).

``lam``: ``None`` is the dissertation's choice, ``1 / sd`` of the top 10 base scores
(section 4.3.2); ``0`` makes ``W = 1/2`` and MRR ignores the base ranker. The final ranking
function is ``F(x) = sum_t alpha_t f_t(x)``; documents with equal ``F`` are left in their
given order (the experiments pass them in the base ranker's order).
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Literal

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.ranking.refinement import (
    PairModel,
    Refiner,
    Stump,
    ThresholdBank,
    TScope,
    fit_sampled_stump,
    sample_size,
)

WeakLearner = Literal["sampled_stump", "thresholds"]
SMOOTHING = "mrr_alpha_smoothing"  # guard id: mu or nu of Eq. 4.14 below the smoothing


@dataclass(eq=False, repr=False)
class MRR(Refiner):
    """Algorithm 6 for one query: ``fit(X, base_scores, pairs)``, ``predict(X)``."""

    n_iterations: int = 50
    _: KW_ONLY
    eta: float = 0.5
    lam: float | None = None
    lam_top: int = 10
    weak_learner: WeakLearner = "sampled_stump"
    sample_min: int = 20
    sample_fraction: float = 0.2
    n_thresholds: int = 16
    t_scope: TScope = "all"
    smoothing: float = 1e-12
    random_state: int = 0

    def _refine(
        self, X: np.ndarray, pairs: np.ndarray, scope: np.ndarray | None, W: np.ndarray
    ) -> None:
        """Algorithm 6 on one query (arguments as :meth:`Refiner.fit`)."""
        if self.weak_learner not in ("sampled_stump", "thresholds"):
            raise BoostrankError(
                f"MRR: unknown weak_learner {self.weak_learner!r}; "
                "choose sampled_stump or thresholds"
            )
        n = X.shape[0]
        rng = np.random.default_rng(self.random_state)
        s = sample_size(n, self.sample_min, self.sample_fraction)
        bank = ThresholdBank(X, self.n_thresholds) if self.weak_learner == "thresholds" else None
        model = PairModel(W, pairs, self.eta, scope)
        F = np.zeros(n)
        self.stumps_: list[Stump] = []
        self._alphas_kept: list[float] = []
        self.guards_ = Guards.of(SMOOTHING)
        alphas, mus, nus, objective = [], [], [], []
        for _ in range(int(self.n_iterations)):
            sums = model.sums(F)
            objective.append(float(sums.log_w[0] + sums.log_t[0]))  # log L_p (Eq. 4.10)
            # Steps 3-4: w_i = sum_j gamma_ij - gamma_ji, gamma = a + b (Eqs. 4.11-4.12).
            w = (sums.rw - sums.cw + sums.rt - sums.ct)[:, 0]
            # Steps 5-6: labels sign(w), a weak learner maximising Eq. 4.13.
            if bank is None:
                stump = fit_sampled_stump(X, w, s, rng)
            else:
                idx, val = bank.best(w)
                stump = None if idx[0] < 0 else bank.stump(int(idx[0]), float(val[0]))
            mu = nu = alpha = 0.0
            if stump is not None:
                f = stump.predict(X)  # step 7
                mu, nu = model.blocks(sums, f)
                if mu > 0 or nu > 0:  # step 8 (Eq. 4.14); f constant: mu = nu = 0
                    if min(mu, nu) < self.smoothing:  # Eq. 4.14 infinite or nearly so
                        self.guards_.fire(SMOOTHING)
                    alpha = 0.5 * float(np.log((mu + self.smoothing) / (nu + self.smoothing)))
                    F = F + alpha * f  # step 9
                    self.stumps_.append(stump)
                    self._alphas_kept.append(alpha)
            alphas.append(alpha)
            mus.append(mu)
            nus.append(nu)
        sums = model.sums(F)
        objective.append(float(sums.log_w[0] + sums.log_t[0]))
        self.alpha_ = np.asarray(alphas)
        self.mu_ = np.asarray(mus)
        self.nu_ = np.asarray(nus)
        self.edge_ = self.mu_ - self.nu_  # eta_t of Eq. 4.13 (Appendix A.12)
        self.objective_ = np.asarray(objective)  # log L_p^t, t = 0..T
        self.train_scores_ = F

    def predict(self, X: np.ndarray) -> np.ndarray:
        """``F(x) = sum_t alpha_t f_t(x)``."""
        X = self.check_predict(X)
        out = np.zeros(X.shape[0])
        for a, stump in zip(self._alphas_kept, self.stumps_, strict=True):
            out += a * stump.predict(X)
        return out

    def theorem9_bound(self) -> np.ndarray:
        """``log`` of Eq. 4.15's right-hand side after t = 0..T iterations."""
        gap = (np.sqrt(self.mu_) - np.sqrt(self.nu_)) ** 2
        return self.objective_[0] - np.r_[0.0, np.cumsum(gap)]

    def theorem10_bound(self) -> np.ndarray:
        """``log`` of Eq. 4.19's right-hand side after t = 0..T iterations."""
        return self.objective_[0] - np.r_[0.0, np.cumsum(self.edge_)]


__all__ = ["MRR"]
