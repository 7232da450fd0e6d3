"""Pairwise RankSVM (Herbrich, Graepel and Obermayer 1999; Joachims 2002), optionally on an
explicit approximate RBF feature map: Nystroem (Williams and Seeger 2001) or random Fourier
features (Rahimi and Recht 2008), as in Sengupta (2018), *Document Analysis*, sections "SVM",
"Kernel approximation" and "Random Fourier Features" (after Chen et al. 2017, "Ranking Support
Vector Machine with Kernel Approximation").

The ranking function is ``f(x) = w . phi(x)``; ``w`` is a linear SVM (scikit-learn
``LinearSVC``, hinge loss, no intercept) on the pairwise transform
``(phi(x_i) - phi(x_j), sign(y_i - y_j))`` of the within-query pairs with different labels.
``kernel_map=None`` is the linear RankSVM (``phi(x) = x``).

``LinearSVC`` solves the hinge loss in the dual (liblinear's coordinate descent), the faster
solver here (the primal, ``dual=False``, liblinear offers only for the squared hinge), for at
most ``max_iter`` iterations, a cap SVM-light does not have (it stops at its tolerance only);
``guards_["ranksvm_max_iter"]`` counts the solves that stopped at it (liblinear's
ConvergenceWarning; :mod:`boostrank.guards`), ``converged_`` says whether the kept one did. The pair
count can be capped per query (seeded subsample) for the time budget. Only the documents that
occur in a pair are mapped for training; Nystroem scores are computed as ``k(x, landmarks) .
(M^T w)`` with M the map's normalisation, which equals ``phi(x) . w`` without forming ``phi``
for every document.

C on a validation fold (LETOR 3.0's RankSVM baseline, Figure 3.1 of the dissertation): with a
``C_grid`` and ``fit(..., validation=(X_val, y_val, qid_val))``, the SVM is fitted on one pair
design for each C of the grid and the C with the best validation score (``metric``, default
NDCG@10 with LETOR's formula; first of equal maxima) is kept as ``C_``. Without a grid or
without validation, ``C`` is used.

SVM-light's default C (``C=None``; SVM-light is what LETOR's RankSVM baseline and the
dissertation's Ranking-SVM ran): its training vectors in ranking mode (``-z p``) are the pair
differences d = x_i - x_j (``svm_learn_ranking`` passes them to
``svm_learn_classification``). Two texts of SVM-light disagree on the rule, so it is a reading,
``default_C``:

- ``"code"`` (default): what ``svm_learn.c`` computes, ``svm_c = 1.0/(r_delta_avg*r_delta_avg)``
  with ``r_delta_avg`` from ``estimate_r_delta_average``, the mean of ``sqrt(k(d, d))``: C = 1 /
  mean(||d||)^2, the value the program actually used;
- ``"usage"``: the program's usage text, "-c float: C: trade-off between training error and
  margin (default [avg. x*x]^-1)", read as C = 1 / mean(d . d), which is never larger (Jensen).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Literal

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.svm import LinearSVC

from boostrank.errors import BoostrankError
from boostrank.guards import Guards
from boostrank.ranking.base import Ranker
from boostrank.ranking.pairs import balanced_signs, query_pairs
from boostrank.ranking.validation import Selection, Validation

KernelMap = Literal["nystroem", "rff"]
DefaultC = Literal["code", "usage"]
MAX_ITER = "ranksvm_max_iter"  # guard id: a liblinear solve stopped at max_iter


def svm_light_default_C(vectors: np.ndarray, rule: DefaultC = "code") -> float:
    """SVM-light's default C on its training vectors (module docstring): ``"code"``,
    1 / mean(||x||)^2 (``svm_learn.c``); ``"usage"``, 1 / mean(x . x) (its usage text)."""
    v = np.asarray(vectors, dtype=np.float64)
    if rule == "code":
        scale = float(np.linalg.norm(v, axis=1).mean()) ** 2
    elif rule == "usage":
        scale = float(np.einsum("ij,ij->i", v, v).mean())
    else:
        raise BoostrankError(f"default_C must be 'code' or 'usage', not {rule!r}")
    return 1.0 / max(scale, 1e-12)


def make_kernel_map(kind: str, n_components: int, gamma: float, seed: int) -> Any:
    """The scikit-learn RBF approximation: ``nystroem`` or ``rff`` (random Fourier features)."""
    if kind == "nystroem":
        return Nystroem(kernel="rbf", gamma=gamma, n_components=n_components, random_state=seed)
    if kind == "rff":
        return RBFSampler(gamma=gamma, n_components=n_components, random_state=seed)
    raise BoostrankError(f"unknown kernel map {kind!r}; choose nystroem, rff or None")


def pair_design(
    feature_map: Any,
    X: np.ndarray,
    y: np.ndarray,
    qid: np.ndarray,
    *,
    max_pairs_per_query: int | None = None,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """The SVM's training set: ``(phi(x_i) - phi(x_j)) * sign`` and ``sign`` (balanced +-1)."""
    i, j = query_pairs(y, qid, max_pairs_per_query=max_pairs_per_query, seed=seed)
    if len(i) == 0:
        raise BoostrankError("RankSVM: no within-query pair with different labels")
    docs, inverse = np.unique(np.concatenate([i, j]), return_inverse=True)
    Xd = np.asarray(X, dtype=np.float64)[docs]
    phi = Xd if feature_map is None else feature_map.transform(Xd)
    sign = balanced_signs(len(i))
    return (phi[inverse[: len(i)]] - phi[inverse[len(i) :]]) * sign[:, None], sign


@dataclass(eq=False, repr=False)
class RankSVM(Ranker):
    """Pairwise linear SVM on ``phi(x)``; ``fit(X, y, qid)``, ``predict(X)`` (scores).

    ``feature_map`` may be given already fitted (e.g. shared by several C values); otherwise it
    is built from ``kernel_map``, ``n_components``, ``gamma`` and ``random_state`` and fitted on X.
    ``C_grid`` (with ``fit(..., validation=...)``) chooses C on the validation fold; ``C=None``
    is SVM-light's default on the pair differences (``default_C``, module docstring).
    """

    C: float | None = 1.0
    _: KW_ONLY
    kernel_map: KernelMap | None = None
    n_components: int = 500
    gamma: float = 1.0
    max_pairs_per_query: int | None = None
    max_iter: int = 1000
    tol: float = 1e-4
    random_state: int = 0
    feature_map: Any = None
    C_grid: Sequence[float] | None = None
    metric: str = "ndcg@10"
    default_C: DefaultC = "code"
    # Fitted attributes, declared for the type checker; not parameters (dataclass init=False).
    C_: float = field(init=False)
    converged_: bool = field(init=False)
    n_iter_: int = field(init=False)
    coef_: np.ndarray = field(init=False)

    def _fit(
        self, X: np.ndarray, y: np.ndarray, qid: np.ndarray, validation: Validation | None
    ) -> None:
        """Build (or take) the feature map, then fit the SVM on the pairs of ``(X, y, qid)``;
        with ``validation`` and a ``C_grid``, for each C of the grid, keeping the best."""
        fmap = self.feature_map
        if fmap is None and self.kernel_map is not None:
            fmap = make_kernel_map(
                self.kernel_map, self.n_components, self.gamma, self.random_state
            )
            fmap.fit(X)
        self.feature_map_ = fmap
        self.guards_ = Guards.of(MAX_ITER)
        diff, sign = pair_design(
            fmap, X, y, qid, max_pairs_per_query=self.max_pairs_per_query, seed=self.random_state
        )
        if validation is None or not self.C_grid:
            self._solve(diff, sign)
            return
        val = Selection(validation, self.metric, floor=None)
        best: tuple[float, bool, int, np.ndarray] | None = None
        for C in self.C_grid:
            self._solve(diff, sign, C=float(C))
            if val.improves(self.predict(val.X)):
                best = (self.C_, self.converged_, self.n_iter_, self.coef_)
        assert best is not None
        self.C_, self.converged_, self.n_iter_, self.coef_ = best
        self.validation_scores_ = dict(zip((float(C) for C in self.C_grid), val.curve, strict=True))

    def fit_pairs(self, diff: np.ndarray, sign: np.ndarray, *, C: float | None = None) -> RankSVM:
        """Fit the SVM on a ready pair design (from :func:`pair_design` with this map), with
        ``C`` (default: the constructor's, or SVM-light's default where that is None); the C
        used is ``C_``. Called alone, the pairs were built with the constructor's
        ``feature_map``."""
        self.guards_ = Guards.of(MAX_ITER)
        return self._solve(diff, sign, C=C)

    def _solve(self, diff: np.ndarray, sign: np.ndarray, *, C: float | None = None) -> RankSVM:
        """liblinear on the pairs (:meth:`fit_pairs`), counting a stop at ``max_iter``."""
        if self.feature_map is not None or not hasattr(self, "feature_map_"):
            self.feature_map_ = self.feature_map
        if C is None:
            C = self.C if self.C is not None else svm_light_default_C(diff, self.default_C)
        self.C_ = float(C)
        svm = LinearSVC(
            C=self.C_,
            loss="hinge",
            dual=True,
            fit_intercept=False,
            max_iter=self.max_iter,
            tol=self.tol,
            random_state=self.random_state,
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            svm.fit(diff, sign)
        self.converged_ = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
        if not self.converged_:
            self.guards_.fire(MAX_ITER)
        self.n_iter_ = int(svm.n_iter_)
        self.n_pairs_ = len(sign)
        self.coef_ = svm.coef_.ravel().copy()
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Ranking scores ``w . phi(x)``."""
        X = self.check_predict(X)
        fmap = self.feature_map_
        if fmap is None:
            return X @ self.coef_
        if isinstance(fmap, Nystroem):
            kernel = pairwise_kernels(X, fmap.components_, metric="rbf", gamma=fmap.gamma)
            return kernel @ (fmap.normalization_.T @ self.coef_)
        return fmap.transform(X) @ self.coef_
