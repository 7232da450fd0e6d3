"""LRR, Linear Ranking Refinement (Valizadegan, *Boosting and Online Learning for
Classification and Ranking*, 2010, chapter 4, Eq. 4.9): minimise

    L_a = gamma err_w + err_t = sum_ij (gamma W_ij + T_ij) exp(F_j - F_i)            (Eq. 4.9)

for one query's documents by RankBoost (Freund, Iyer, Schapire and Singer 2003) with the pair
weights ``gamma W_ij + T_ij`` (section 4.3.4: "we can simply modify the Rank-Boost algorithm").
Each round: the pair distribution ``D_ij`` proportional to ``(gamma W_ij + T_ij)
exp(F_j - F_i)``, the potentials ``pi_i = sum_j D_ij - D_ji``, RankBoost's WeakLearn (a
threshold ranker ``h(x) = [x_k > theta]`` maximising ``|r|``, ``r = sum_i pi_i h_i``, over a
fixed set of thresholds per feature, :class:`boostrank.ranking.refinement.ThresholdBank`) and
``alpha = 1/2 ln((1 + r) / (1 - r))`` (RankBoost's choice for weak rankers in [0, 1]).

All values of gamma are fitted at once (the section 4.4.1 protocol runs 100 values in
[0.1, 10]): ``W``, ``T``, the thresholds and their 0/1 outputs are built once, each round costs
two products of ``W`` with an ``n x G`` matrix (the rank-one form of ``exp(F_j - F_i)``, see
:class:`boostrank.ranking.refinement.PairModel`) and one product of the threshold outputs with
the ``n x G`` potentials. ``F`` starts at 0 and documents with equal ``F`` keep their given
order. ``lam``, ``eta`` and ``t_scope`` as in :class:`boostrank.ranking.mrr.MRR`. The products
with ``W`` and the threshold outputs run in ``dtype`` (``float32`` by default: half the time;
the sums, potentials and ``F`` stay in float64).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

import numpy as np
from scipy.special import expit

from boostrank.errors import BoostrankError
from boostrank.ranking.refinement import (
    PairModel,
    Refiner,
    ThresholdBank,
    TScope,
)

# Section 4.4.1: "100 different values from 0.1 to +10" -- 0.1, 0.2, ..., 10.0.
DEFAULT_GAMMAS: tuple[float, ...] = tuple(round(0.1 * k, 1) for k in range(1, 101))


@dataclass(eq=False, repr=False)
class LRR(Refiner):
    """RankBoost on ``L_a`` for every gamma of ``gammas`` at once (one query).

    ``fit(X, base_scores, pairs)``; ``predict(X)`` gives an ``n x G`` score matrix (column g
    for ``gammas[g]``); ``objective_`` holds ``log L_a`` per round and gamma.
    """

    gammas: Sequence[float] = DEFAULT_GAMMAS
    n_iterations: int = 50
    _: KW_ONLY
    eta: float = 0.5
    lam: float | None = None
    lam_top: int = 10
    n_thresholds: int = 16
    t_scope: TScope = "all"
    max_edge: float = 1.0 - 1e-9
    dtype: str = "float32"

    def _refine(
        self, X: np.ndarray, pairs: np.ndarray, scope: np.ndarray | None, W: np.ndarray
    ) -> None:
        """Fit every gamma on one query (arguments as :meth:`Refiner.fit`)."""
        n = X.shape[0]
        gam = np.asarray(self.gammas, dtype=np.float64)
        if gam.ndim != 1 or len(gam) == 0 or (gam <= 0).any():
            raise BoostrankError("LRR: gammas must be a non-empty list of positive numbers")
        if self.dtype not in ("float32", "float64"):
            raise BoostrankError(f"LRR: dtype must be float32 or float64, got {self.dtype!r}")
        dt = np.dtype(self.dtype).type
        model = PairModel(W, pairs, self.eta, scope, dtype=dt)
        bank = ThresholdBank(X, self.n_thresholds, dtype=dt)
        G = len(gam)
        F = np.zeros((n, G))
        log_gamma = np.log(gam)
        chosen, alphas, objective = [], [], []
        for _ in range(int(self.n_iterations)):
            s = model.sums(F)
            objective.append(np.logaddexp(log_gamma + s.log_w, s.log_t))  # log L_a (Eq. 4.9)
            # D_ij ~ (gamma W_ij + T_ij) e^(F_j - F_i): share of the W part per gamma.
            share = expit(log_gamma + s.log_w - s.log_t)
            pi = share * (s.rw - s.cw) + (1.0 - share) * (s.rt - s.ct)
            idx, r = bank.best(pi)
            if idx[0] < 0:  # every feature constant: nothing to learn
                break
            r = np.clip(r, -self.max_edge, self.max_edge)
            alpha = 0.5 * np.log((1.0 + r) / (1.0 - r))
            F = F + bank.H[:, idx].astype(np.float64) * alpha  # each gamma's chosen h
            chosen.append(idx)
            alphas.append(alpha)
        s = model.sums(F)
        objective.append(np.logaddexp(log_gamma + s.log_w, s.log_t))
        self.objective_ = np.asarray(objective)  # (T + 1, G)
        self.features_ = (
            bank.features[np.asarray(chosen)] if chosen else np.zeros((0, G), dtype=np.int64)
        )
        self.thresholds_ = bank.thresholds[np.asarray(chosen)] if chosen else np.zeros((0, G))
        self.alpha_ = np.asarray(alphas) if alphas else np.zeros((0, G))
        self.train_scores_ = F

    def predict(self, X: np.ndarray) -> np.ndarray:
        """``F(x)`` for every gamma: an ``n x G`` matrix."""
        X = self.check_predict(X)
        out = np.zeros((X.shape[0], len(self.gammas)))
        for feats, thetas, alpha in zip(self.features_, self.thresholds_, self.alpha_, strict=True):
            out += (X[:, feats] > thetas[None, :]) * alpha[None, :]
        return out


__all__ = ["DEFAULT_GAMMAS", "LRR"]
