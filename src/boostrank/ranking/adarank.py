"""AdaRank-NDCG (Xu and Li 2007, "AdaRank: a boosting algorithm for information retrieval",
SIGIR, Figure 1; Valizadegan 2010, Algorithm 4), with single features as weak rankers, as in
LETOR 3.0's baseline.

Given queries q_1..q_m and the performance measure E(q, f) = NDCG@k of query q ranked by f:

- P_1(q) = 1/m;
- round t: the weak ranker is the feature h_t = x_k maximising sum_q P_t(q) E(q, x_k);
- alpha_t = 1/2 ln( sum_q P_t(q) (1 + E(q, h_t)) / sum_q P_t(q) (1 - E(q, h_t)) );
- f_t = sum_{s <= t} alpha_s h_s, and P_{t+1}(q) = exp(-E(q, f_t)) / sum_q' exp(-E(q', f_t)).

(The dissertation's Algorithm 4 writes alpha_t = 1/2 ln(eta_t / (1 - eta_t)) with eta_t the
weighted NDCG; this module follows the original paper's formula above.) The model is linear:
``predict(X) = X @ coef_`` with ``coef_[k]`` the sum of the alphas of feature k.

Readings (recorded here and in the fitted attributes; ids of config/readings.yaml in brackets):

- E is NDCG@``k`` (default 10) [``adarank_cutoff``, ``ndcg_formula``] with LETOR's evaluation
  formula (``ndcg_at_k``, ``formula="letor"``); ``k=None`` is NDCG over the whole list (with
  ``formula="report"`` only: the LETOR formula scores a query shorter than k as 0). A query
  shorter than k scores 0 for every ranker under the LETOR formula, so it does not influence
  which feature is chosen.
- The per-query NDCG of every feature is computed once (features do not change), so each round
  costs one ``ndcg_at_k`` on the training scores, plus one on the validation fold if given.
- If the weighted 1 - E is 0 (a perfect feature), its denominator is floored at 1e-12.
- Stopping [``adarank_early_stop``, ``adarank_repeated_feature``]: at most ``n_rounds`` rounds
  (default 500, RankLib's AdaRank default; the paper runs T rounds). As in RankLib's
  implementation (``tolerance`` 0.002), training stops -- the last round removed -- when the
  mean training E drops by more than ``tol``. When one feature has been chosen ``max_repeats``
  times in a row (default 5, RankLib's ``maxSelCount``) with the training E of every query
  unchanged, the query weights are fixed and the rounds only keep adding that feature. Neither
  the paper (Figure 1, "For t = 1, ..., T") nor the dissertation (Algorithm 4, "until reach the
  maximum number of iterations") has a step for this: ``on_repeat="continue"`` (default) runs
  every round as printed; ``"stop"`` ends training there; ``"remove"`` takes the feature out of
  the pool until the training E changes (RankLib's rule without its "enqueue" pass). With
  single-feature weak rankers the first round's feature often stays the weighted best (the
  weights exp(-E) vary by at most a factor e), so "stop" can end with one feature.
  ``guards_["adarank_repeated_feature"]`` counts the stops and removals
  (:mod:`boostrank.guards`).
- With ``validation=(X, y, qid)`` [``baseline_selection_metric``], the model keeps the prefix of
  rounds with the best validation score (``metric``, default NDCG@10; first of equal maxima), as
  LETOR's baselines select the model on the validation fold.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.metrics.ranking import Formula, ndcg_at_k
from boostrank.ranking.base import Ranker
from boostrank.ranking.validation import Selection, Validation, check_metric

REPEATED = "adarank_repeated_feature"  # guard id: a stop or removal on a repeated feature
ON_REPEAT = ("continue", "stop", "remove")


def adarank_alpha(weights: np.ndarray, measure: np.ndarray, floor: float = 1e-12) -> float:
    """``1/2 ln(sum P (1 + E) / sum P (1 - E))`` (Xu and Li 2007, Figure 1)."""
    p, e = np.asarray(weights, dtype=np.float64), np.asarray(measure, dtype=np.float64)
    return 0.5 * float(np.log(np.sum(p * (1.0 + e)) / max(float(np.sum(p * (1.0 - e))), floor)))


def query_weights(measure: np.ndarray) -> np.ndarray:
    """``P(q) = exp(-E(q)) / sum_q' exp(-E(q'))`` (Xu and Li 2007, Figure 1)."""
    z = np.exp(-np.asarray(measure, dtype=np.float64))
    return z / z.sum()


@dataclass(eq=False, repr=False)
class AdaRank(Ranker):
    """AdaRank-NDCG with feature weak rankers; ``fit(X, y, qid, validation=...)``, ``predict``."""

    n_rounds: int = 500
    _: KW_ONLY
    k: int | None = 10
    formula: Formula = "letor"
    tol: float | None = 0.002
    max_repeats: int | None = 5
    on_repeat: str = "continue"
    metric: str = "ndcg@10"
    random_state: int = 0  # unused: AdaRank is deterministic (API uniformity)

    def _measure(self, y: np.ndarray, s: np.ndarray, qid: np.ndarray, cut: int) -> np.ndarray:
        return ndcg_at_k(y, s, qid, cut, formula=self.formula)

    def _check_params(self) -> None:
        if self.n_rounds < 1:
            raise BoostrankError(f"AdaRank: n_rounds must be >= 1, got {self.n_rounds}")
        if self.k is None and self.formula == "letor":
            raise BoostrankError(
                "AdaRank: k=None (NDCG of the whole list) needs formula='report': LETOR's "
                "formula scores every query shorter than k as 0"
            )
        if self.on_repeat not in ON_REPEAT:
            raise BoostrankError(
                f"AdaRank: on_repeat must be one of {ON_REPEAT}, not {self.on_repeat!r}"
            )
        check_metric(self.metric)

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Boost up to ``n_rounds`` rounds; with ``validation``, keep the best prefix on it."""
        self._check_params()
        n, d = X.shape
        cut = n if self.k is None else int(self.k)
        # E(q, x_k) of every feature and query, computed once: shape (d, Q).
        E_feat = np.stack([self._measure(y, X[:, f], qid, cut) for f in range(d)])
        n_q = E_feat.shape[1]
        val = None if validation is None else Selection(validation, self.metric)

        P = np.full(n_q, 1.0 / n_q)
        coef = np.zeros(d)
        scores = np.zeros(n)
        vscores = None if val is None else np.zeros(len(val.X))
        features: list[int] = []
        alphas: list[float] = []
        weights = [P.copy()]
        train_curve: list[float] = []
        best = (0, coef.copy())
        last_E = np.full(n_q, -1.0)
        repeats = 0
        pool = np.ones(d, dtype=bool)  # features not removed (on_repeat="remove")
        self.stop_reason_ = "n_rounds"
        self.guards_ = Guards.of(REPEATED)
        watch = self.max_repeats is not None and self.on_repeat != "continue"
        for _ in range(self.n_rounds):
            if not pool.any():
                self.stop_reason_ = "no feature left"
                break
            f = int(np.argmax(np.where(pool, E_feat @ P, -np.inf)))  # first of equal maxima
            alpha = adarank_alpha(P, E_feat[f])
            new_scores = scores + alpha * X[:, f]
            E = self._measure(y, new_scores, qid, cut)
            if self.tol is not None and train_curve and E.mean() < train_curve[-1] - self.tol:
                self.stop_reason_ = "tolerance"
                break
            unchanged = np.array_equal(E, last_E)
            repeats = repeats + 1 if (features and f == features[-1] and unchanged) else 0
            if not unchanged:
                pool[:] = True
            scores = new_scores
            coef[f] += alpha
            features.append(f)
            alphas.append(alpha)
            train_curve.append(float(E.mean()))
            P = query_weights(E)
            weights.append(P.copy())
            last_E = E
            if val is not None and vscores is not None:
                vscores += alpha * val.X[:, f]
                if val.improves(vscores):
                    best = (len(features), coef.copy())
            if watch and repeats + 1 >= int(self.max_repeats or 0):
                self.guards_.fire(REPEATED)
                if self.on_repeat == "stop":
                    self.stop_reason_ = "repeats"
                    break
                pool[f] = False
                repeats = 0
        self.features_ = np.asarray(features, dtype=np.intp)
        self.alphas_ = np.asarray(alphas)
        self.query_weights_ = np.asarray(weights)
        self.train_curve_ = np.asarray(train_curve)
        self.valid_curve_ = np.asarray([] if val is None else val.curve)
        self.rounds_trained_ = len(features)
        if val is not None and best[0] > 0:
            self.n_rounds_, self.coef_ = best
        else:
            self.n_rounds_ = len(features)
            self.coef_ = coef

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Scores ``sum_t alpha_t x_{k_t}`` of the kept rounds."""
        return self.check_predict(X) @ self.coef_
