"""MCSSB: multi-class semi-supervised boosting, with its Uniform and Absolute variants.

H. Valizadegan, *Boosting and Online Learning for Classification and Ranking*, PhD dissertation,
Michigan State University 2010, chapter 2 (Eqs. 2.1-2.21, Lemmas 1-2, Theorems 1-4,
Algorithm 3; proofs in appendix A.1-A.3); published as Valizadegan, Jin and Jain,
"Semi-supervised Boosting for Multi-Class Classification", ECML PKDD 2008.

The algorithm, as implemented (rows i, j = 1..N, the first N_l labelled with one-hot y_i; H the
N x m scores; all quantities are matrix expressions, O(N^2 m) per iteration through BLAS)::

    B      = softmax(H)                    b_i^k, rows sum to 1                        (2.1)
    Z^u    = B B^T                         Z^u_ij = b_i . b_j                          (2.1)
    P      = 1 / B                         so 1 / Z^l_ij = P_j^{c_i}                   (2.5)
    M      = S Y                           M_i^c = sum_{j labelled, c_j = c} S_ij
    F      = sum_ij S_ij / Z^u_ij + C sum_{i,c} M_i^c P_i^c     = F_u + C F_l   (2.4, 2.6, 2.7)
    r      = (S / Z^u) 1,   QB = (S / Z^u^2) B
    alpha_i^k = b_i^k (r_i - QB_i^k)                                                 (2.12)
    beta_i^k  = 1/2 [ b_i^k sum_c M_i^c P_i^c - M_i^k P_i^k ]                         (2.12)
    g      = alpha + C beta                (rows sum to 0)
    k*_i   = argmin_k g_i^k,  w_i = -g_i^{k*} >= 0                            (2.13, Alg. 3)
    draw s = max(20, N/5) unlabelled rows with probability w_i / sum w; fit the tree on
             (x_i, k*_i)                                                    (Alg. 3 steps 6-7)
    h      = one-hot predictions of the tree on every row
    A_u = sum_i r_i (h_i . b_i)          A_l = 1/2 sum_i (sum_c M_i^c P_i^c)(h_i . b_i)  (2.15-16)
    B_u = sum_i h_i . (b_i * QB_i)       B_l = 1/2 sum_i h_i . (M_i * P_i)              (2.17-18)
    a      = 1/4 log((B_u + C B_l) / (A_u + C A_l)); exit the loop if a <= 0          (2.19)
    H     <- H + a h

``tau_ij^k / Z_ij = b_i^k b_j^k / Z_ij^2`` and ``phi`` (Eq. 2.10) with one-hot y give the
closed forms of alpha and beta above; no N x N x m tensor is formed. The N x N work (Z, S/Z,
S/Z^2, the row sums and (S/Z^2) B) runs over blocks of rows (``block``), so the intermediate
blocks stay in cache and S is read once per iteration.

Similarity (section 2.4.1): ``gaussian``, S_ij = exp(-d_ij^2 / sigma^2) with Euclidean d of
the features as given and sigma = 0.15 (d_max - d_min) over pairs i != j (``kernel_width``;
the form follows the SemiBoost paper the text cites as [70]; ``kernel_form="two_sigma2"``
divides by 2 sigma^2 instead, ``feature_scaling="standard"`` standardises each feature first;
with ``rescale_similarity`` S is divided by its largest entry and entries below the dtype's
smallest normal number are 0, reading mcssb_similarity_rescale); ``uniform``, S_ij = 1 for all
i, j (MCSSB-Uniform); ``absolute``, S = I (MCSSB-Absolute, O(N m) per iteration).

Readings of what the text leaves open (each configurable):

1. **Diagonal of S.** Section 2.3.1 sets S_ii = 0 "for the convenience of discussion"; section
   2.4.1 defines MCSSB-Uniform with S_ij = 1 for all i, j and MCSSB-Absolute by S_ii = 1 (with
   S_ii = 0 it would be the zero matrix). So the Gaussian MCSSB zeroes its diagonal
   (``zero_diagonal=True``) and the two variants keep theirs. With S = I, F_l is
   sum_{i labelled} sum_k exp(H_i^k - H_i^{y_i}), the multi-class exponential loss: MCSSB with
   C -> infinity and no unlabelled rows is a supervised multi-class booster.
2. **Which rows the weak learner sees** (``mcssb_sampled_rows``, ``mcssb_labelled_targets``).
   Algorithm 3's input is "s: the number of sampled examples from (N - N_l) unlabeled
   examples" and step 5 assigns "each unlabeled example x_i to class k*_i";
   ``sampled_rows="unlabelled"`` (the default) samples those rows only. Then
   MCSSB-Absolute (S = I) cannot start: an unlabelled row's beta is 0 (M_i = 0) and, at H = 0,
   so is its alpha, so every weight is 0 and the loop stops before its first tree
   (``stop_reason_ = "zero_weights"``). ``sampled_rows="all"`` samples every row: an
   unlabelled row with target k*_i and weight w_i, a labelled row with the target
   ``labelled_targets`` gives it: ``"own"``, its own label and the decrease of the bound if
   the tree predicts that label, max(0, -g_i^{y_i}) (inferred from F_l's "true labels",
   section 2.3.3, and from MCSSB-Absolute, which section 2.4.1 says exploits "a direct
   formulation of the multi-class problem"), or ``"argmin"``, k*_i as for an unlabelled row
   (which need not be y_i: the history's ``labelled_argmin_own`` is the share of labelled
   rows where it is). The objective, alpha and the stopping rule always use every row.
3. **The weight** (``mcssb_weight``). Step 5 writes w_i = alpha_i^{k*} + C beta_i^{k*},
   which is <= 0 (k* is the argmin and the row sums to 0), so it cannot weight a sample; the
   text before Algorithm 3 says w_i = max_k(alpha_i^k + C beta_i^k) >= 0. ``weight="max"``
   uses that printed form; ``weight="gain"`` uses -min_k g_i^k, step 5's weight with its sign
   turned, the decrease of the Theorem 1 bound that row i contributes when the tree predicts
   k*_i (for m = 2 the two agree). The class default is ``gain``; the experiments' default is
   the printed ``max``.
4. **Signs in Lemma 2.** Eqs. 2.14-2.19 are used as printed; they are a valid bound (checked
   against the exact objective in the tests), and Eq. 2.19 is its exact minimiser. Remark II's
   epsilon has "C(A_l + B_u)", a typo for C(A_l + B_l); it is not used.
5. **Guards.** The first iteration starts from H = 0 (Algorithm 3 step 2). Eq. 2.19 is
   infinite where A_u + C A_l = 0 < B_u + C B_l; with every b_i^k > 0 that cannot happen (A_u
   = 0 needs S = 0, which makes B_u = 0 too; A_l = 0 needs M = 0, so B_l = 0), so only a
   softmax that underflows reaches it: alpha is then ``max_alpha``, counted under
   ``boosting_alpha_cap``. Finite alphas are used as printed unless ``clip_alpha`` clips them
   at ``max_alpha`` (``boosting_alpha_clip``). All-zero weights stop the loop (step 6 cannot
   sample). F_u sums over all pairs as Eq. 2.4 writes it (``unlabelled_pairs_only=True``: over
   the unlabelled sub-matrix, the footnote's alternative).
6. **Rescaled similarity** (``mcssb_similarity_rescale``). ``rescale_similarity=True`` divides
   the Gaussian S by its largest off-diagonal entry: MCSSB is invariant to the scale of S (F,
   alpha_i^k, beta_i^k and A, B of Lemma 2 are linear in S; k*, the sampling distribution and
   Eq. 2.19's ratio are not moved), and the rescaled S stays representable where
   exp(-d^2 / sigma^2) underflows float32. Entries then below the dtype's smallest normal number
   are set to 0; the number of entries that flush changed is counted under that id in every fit
   on that S.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from boostrank.boosting.base import (
    ALPHA_CAP,
    ALPHA_CLIP,
    WeakTree,
    bounded_alpha,
    fit_sample,
    one_hot,
    resample,
    sample_size,
    validate_predict_input,
    validate_semi_supervised,
)
from boostrank.errors import BoostrankError, InputError
from boostrank.guards import Guards

SIMILARITIES = ("gaussian", "uniform", "absolute")
SAMPLED_ROWS = ("unlabelled", "all")
RESCALE = "mcssb_similarity_rescale"  # the guard id of the rescaled S (its reading's id)


# --------------------------------------------------------------------------- similarity
def squared_distances(X: np.ndarray, block: int = 1024) -> np.ndarray:
    """Squared Euclidean distances of the rows of X (float64, BLAS, clipped at 0)."""
    X = np.asarray(X, dtype=np.float64)
    norms = np.einsum("ij,ij->i", X, X)
    out = np.empty((len(X), len(X)))
    for start in range(0, len(X), block):
        rows = slice(start, start + block)
        out[rows] = norms[rows, None] + norms[None, :] - 2.0 * (X[rows] @ X.T)
    np.maximum(out, 0.0, out=out)
    np.fill_diagonal(out, 0.0)
    return out


KERNEL_FORMS = ("sigma2", "two_sigma2")
FEATURE_SCALINGS = ("none", "standard")


def gaussian_similarity(
    X: np.ndarray,
    width: float = 0.15,
    zero_diagonal: bool = True,
    dtype: Any = np.float64,
    form: str = "sigma2",
    scaling: str = "none",
    rescale: bool = True,
    guards: Guards | None = None,
) -> tuple[np.ndarray, float]:
    """S_ij = exp(-d_ij^2 / sigma^2) (``form="two_sigma2"``: exp(-d_ij^2 / (2 sigma^2))),
    sigma = width (d_max - d_min) over pairs i != j (section 2.4.1), d the Euclidean distance
    of the rows as given (``scaling="standard"``: of each feature standardised to mean 0 and
    sd 1 over the rows); with ``zero_diagonal``, S_ii = 0. With ``rescale`` (module docstring,
    reading mcssb_similarity_rescale), S is divided by its largest entry and its subnormal
    entries are set to 0, the number of entries that changed counted in ``guards`` under
    :data:`RESCALE`. Returns S and sigma."""
    if form not in KERNEL_FORMS or scaling not in FEATURE_SCALINGS:
        raise BoostrankError(
            f"kernel form must be one of {KERNEL_FORMS} and feature scaling one of "
            f"{FEATURE_SCALINGS}, not {form!r}, {scaling!r}"
        )
    if scaling == "standard":
        X = np.asarray(X, dtype=np.float64)
        sd = X.std(axis=0)
        X = (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    d2 = squared_distances(X)
    n = len(d2)
    if n < 2:
        raise InputError(f"a similarity needs at least two rows, got {n} sample(s)")
    np.fill_diagonal(d2, np.inf)
    d_min = float(np.sqrt(d2.min()))
    np.fill_diagonal(d2, 0.0)
    sigma = float(width * (np.sqrt(d2.max()) - d_min))
    if sigma <= 0:
        raise BoostrankError("all rows are equally far apart: the kernel width is 0")
    d2 *= -1.0 / (sigma**2 if form == "sigma2" else 2.0 * sigma**2)
    if zero_diagonal:
        np.fill_diagonal(d2, -np.inf)
    if rescale and zero_diagonal:  # with S_ii = exp(0) = 1 the largest entry is 1 already
        # S / max_{i != j} S_ij: MCSSB is invariant to scaling S (F, alpha_i^k, beta_i^k and
        # A, B of Lemma 2 are linear in S; argmin, sampling and Eq. 2.19 are not affected),
        # and the rescaled S stays representable where exp(-d^2 / sigma^2) would underflow
        # float32 (high-dimensional data, whose distances concentrate far above sigma).
        d2 -= d2.max()
    S = d2.astype(dtype, copy=False)
    np.exp(S, out=S)
    if not rescale:
        return S, sigma
    # Entries below the dtype's smallest normal number (float32: 1.2e-38 of the largest S) are
    # set to 0: they hold fewer significant bits than the dtype's precision, and arithmetic on
    # subnormal numbers can be many times slower than on normal ones. An S without subnormal
    # entries is unchanged.
    subnormal = np.less(S, np.finfo(S.dtype).tiny) & (S != 0)
    if guards is not None:
        guards.fire(RESCALE, int(np.count_nonzero(subnormal)))
    S[subnormal] = 0.0
    return S, sigma


@dataclass
class Similarity:
    """S in one of three forms: a dense matrix, all ones (Uniform) or the identity
    (Absolute); the latter two are never stored. ``guards``: what computing S counted (the
    entries the rescaled S flushed to 0), added to every fit on it."""

    kind: str  # "dense" | "ones" | "identity"
    n: int
    matrix: np.ndarray | None = None
    block: int | None = None
    dtype: Any = np.float64
    guards: Guards = field(default_factory=Guards)

    @classmethod
    def make(
        cls,
        kind: str,
        X: np.ndarray | None = None,
        *,
        n: int | None = None,
        width: float = 0.15,
        zero_diagonal: bool = True,
        matrix: np.ndarray | None = None,
        dtype: Any = np.float64,
        block: int | None = None,
        form: str = "sigma2",
        scaling: str = "none",
        rescale: bool = True,
    ) -> Similarity:
        """``kind`` gaussian (from X, or ``matrix`` if given), uniform or absolute."""
        if kind == "gaussian":
            guards = Guards()
            if matrix is None:
                if X is None:
                    raise BoostrankError("the Gaussian similarity needs X or a matrix")
                matrix, _ = gaussian_similarity(
                    X,
                    width,
                    zero_diagonal=zero_diagonal,
                    dtype=dtype,
                    form=form,
                    scaling=scaling,
                    rescale=rescale,
                    guards=guards,
                )
            matrix = np.asarray(matrix, dtype=dtype)
            return cls("dense", len(matrix), matrix, block=block, dtype=dtype, guards=guards)
        size = n if n is not None else (len(X) if X is not None else None)
        if size is None:
            raise BoostrankError("give n or X")
        if kind == "uniform":
            return cls("ones", size, None, block, dtype)
        if kind == "absolute":
            return cls("identity", size, None, block, dtype)
        raise BoostrankError(f"similarity must be one of {SIMILARITIES}, got {kind!r}")

    def restricted(self, keep: np.ndarray) -> Similarity:
        """S with the rows and columns outside ``keep`` (bool) zeroed (F_u over a sub-matrix)."""
        if self.kind == "dense":
            m = self.matrix * keep[:, None] * keep[None, :]
        elif self.kind == "ones":
            m = np.outer(keep, keep).astype(self.dtype)
        else:
            m = np.diag(keep.astype(self.dtype))
        return Similarity("dense", self.n, m, self.block, self.dtype)

    def dense(self) -> np.ndarray:
        """The full matrix (for tests and small problems)."""
        if self.kind == "dense":
            return np.asarray(self.matrix, dtype=np.float64)
        if self.kind == "ones":
            return np.ones((self.n, self.n))
        return np.eye(self.n)

    def labelled_mass(self, Y: np.ndarray, labelled: np.ndarray) -> np.ndarray:
        """M = S Y with Y the one-hot labels of the labelled rows (zero rows elsewhere):
        M_i^c = sum over labelled j of class c of S_ij."""
        Yl = Y[labelled]
        if self.kind == "dense":
            assert self.matrix is not None  # a dense S stores its matrix
            return np.asarray(self.matrix[:, labelled] @ Yl, dtype=np.float64)
        if self.kind == "ones":
            return np.broadcast_to(Yl.sum(axis=0), (self.n, Y.shape[1])).copy()
        out = np.zeros_like(Y, dtype=np.float64)
        out[labelled] = Yl
        return out

    def pair_terms(self, B: np.ndarray, need_qb: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """r_i = sum_j S_ij / Z_ij and QB = (S / Z^2) B with Z = B B^T (QB zeros if not
        needed), computed over blocks of rows."""
        n, m = B.shape
        if self.kind == "identity":
            z = np.einsum("ik,ik->i", B, B)
            return 1.0 / z, B / (z * z)[:, None]
        n, m = B.shape
        fast = np.dtype(self.dtype) != np.float64
        B64 = np.asarray(B, dtype=np.float64)
        Bd = B64.astype(self.dtype) if fast else B64
        # float32 keeps S / Z^2 finite while Z >= tiny^(1/3) (about 2e-13, a log-odds of
        # about 29); a block with a smaller Z is computed in float64 instead.
        floor = float(np.finfo(np.float32).tiny) ** (1 / 3)
        # Z_ij >= b_i^{k_j} b_j^{k_j} >= min(B) / m (k_j = argmax b_j): then no block needs a check.
        check = fast and float(B64.min()) / m < floor
        r = np.empty(n)
        qb = np.zeros((n, m)) if need_qb else np.zeros((0, m))
        block = self.block or max(16, min(512, (1 << 18) // max(n, 1)))
        for start in range(0, n, block):
            rows = slice(start, min(start + block, n))
            z = Bd[rows] @ Bd.T
            if check and z.min() < floor:
                r[rows], q = self._ratios(rows, B64[rows] @ B64.T, need_qb, B64)
            else:
                r[rows], q = self._ratios(rows, z, need_qb, Bd)
            if need_qb:
                qb[rows] = q
        return r, qb

    def _ratios(
        self, rows: slice, z: np.ndarray, need_qb: bool, Bd: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Row sums of S/Z and (S/Z^2) B for one block of rows (Z given)."""
        if self.kind == "dense":
            assert self.matrix is not None  # a dense S stores its matrix
            ratio = np.divide(self.matrix[rows], z, dtype=z.dtype)
        else:
            ratio = np.reciprocal(z)
        if not need_qb:
            return ratio @ np.ones(len(Bd), dtype=z.dtype), None
        ratio /= z
        qb = ratio @ Bd
        # r_i = sum_j S_ij / Z_ij = sum_k b_i^k [(S / Z^2) B]_i^k, since b_i . b_j = Z_ij.
        return np.einsum("ik,ik->i", Bd[rows], qb, dtype=np.float64), qb


# --------------------------------------------------------------------------- the terms
def softmax_and_inverse(H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """B = softmax(H) row-wise (Eq. 2.1) and P = 1 / B, both computed stably."""
    shifted = H - H.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    total = e.sum(axis=1, keepdims=True)
    B = e / total
    P = np.exp(np.log(total) - shifted)
    return B, P


def objective_terms(H: np.ndarray, sim: Similarity, M: np.ndarray) -> tuple[float, float]:
    """(F_u, F_l) of Eqs. 2.4 and 2.6 at scores H; F = F_u + C F_l (Eq. 2.7)."""
    B, P = softmax_and_inverse(H)
    r, _ = sim.pair_terms(B, need_qb=False)
    return float(r.sum()), float((M * P).sum())


def gradient_terms(
    B: np.ndarray, P: np.ndarray, r: np.ndarray, qb: np.ndarray, M: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """alpha_i^k and beta_i^k of Eq. 2.12 (N x m each). A difference r_i - (QB)_i^k within
    rounding of 0 (8 ulps of its larger term) is 0, as in exact arithmetic: with S = I the two
    terms are equal, and their rounding noise must not weight a row (reading
    mcssb_sampled_rows)."""
    diff = r[:, None] - qb
    scale = np.maximum(np.abs(r)[:, None], np.abs(qb))
    diff[np.abs(diff) <= 8 * np.finfo(diff.dtype).eps * scale] = 0.0
    alpha = B * diff
    mp = (M * P).sum(axis=1)
    beta = 0.5 * (B * mp[:, None] - M * P)
    return alpha, beta


def bound_terms(
    h: np.ndarray, B: np.ndarray, P: np.ndarray, r: np.ndarray, qb: np.ndarray, M: np.ndarray
) -> tuple[float, float, float, float]:
    """(A_u, A_l, B_u, B_l) of Lemma 2 (Eqs. 2.15-2.18) for the one-hot predictions h."""
    hb = (h * B).sum(axis=1)
    mp = (M * P).sum(axis=1)
    a_u = float(r @ hb)
    a_l = 0.5 * float(mp @ hb)
    b_u = float((h * B * qb).sum())
    b_l = 0.5 * float((h * M * P).sum())
    return a_u, a_l, b_u, b_l


def lemma2_bound(alpha: float, terms: tuple[float, float, float, float], C: float) -> float:
    """Right-hand side of Eq. 2.14: an upper bound on F(H + alpha h) - F(H)."""
    a_u, a_l, b_u, b_l = terms
    return (np.exp(2 * alpha) - 1) * (a_u + C * a_l) + (np.exp(-2 * alpha) - 1) * (b_u + C * b_l)


def optimal_alpha(terms: tuple[float, float, float, float], C: float) -> float:
    """Theorem 3 (Eq. 2.19): alpha = 1/4 log((B_u + C B_l) / (A_u + C A_l)) as printed:
    -inf where B_u + C B_l = 0 (the loop exits), +inf where only A_u + C A_l is 0 (the
    caller caps it, :func:`~boostrank.boosting.base.bounded_alpha`)."""
    a_u, a_l, b_u, b_l = terms
    a, b = a_u + C * a_l, b_u + C * b_l
    if b <= 0:
        return -np.inf
    if a <= 0:
        return np.inf
    return float(0.25 * np.log(b / a))


# --------------------------------------------------------------------------- estimator
class MCSSB(ClassifierMixin, BaseEstimator):
    """Multi-class semi-supervised boosting (Algorithm 3) over decision trees.

    ``similarity``: gaussian (MCSSB), uniform (MCSSB-Uniform) or absolute (MCSSB-Absolute).
    Defaults follow section 2.4.1: T = 50 iterations, C = 10^4, kernel width 0.15 of the
    distance range, trees of depth 2, s = max(20, N/5) sampled rows per iteration.
    """

    def __init__(
        self,
        n_iterations: int = 50,
        C: float = 1e4,
        similarity: str = "gaussian",
        kernel_width: float = 0.15,
        kernel_form: str = "sigma2",
        feature_scaling: str = "none",
        zero_diagonal: bool = True,
        depth: int | None = 2,
        sample_min: int = 20,
        sample_fraction: float = 0.2,
        sampled_rows: str = "unlabelled",
        labelled_targets: str = "own",
        weight: str = "gain",
        unlabelled_pairs_only: bool = False,
        max_alpha: float = 10.0,
        clip_alpha: bool = False,
        rescale_similarity: bool = True,
        dtype: str = "float64",
        block: int | None = None,
        random_state: int | None = None,
    ) -> None:
        self.n_iterations = n_iterations
        self.C = C
        self.similarity = similarity
        self.kernel_width = kernel_width
        self.kernel_form = kernel_form
        self.feature_scaling = feature_scaling
        self.zero_diagonal = zero_diagonal
        self.depth = depth
        self.sample_min = sample_min
        self.sample_fraction = sample_fraction
        self.sampled_rows = sampled_rows
        self.labelled_targets = labelled_targets
        self.weight = weight
        self.unlabelled_pairs_only = unlabelled_pairs_only
        self.max_alpha = max_alpha
        self.clip_alpha = clip_alpha
        self.rescale_similarity = rescale_similarity
        self.dtype = dtype
        self.block = block
        self.random_state = random_state

    def _check_params(self) -> None:
        if self.similarity not in SIMILARITIES:
            raise BoostrankError(f"similarity must be one of {SIMILARITIES}")
        if self.sampled_rows not in SAMPLED_ROWS:
            raise BoostrankError(f"sampled_rows must be one of {SAMPLED_ROWS}")
        if self.labelled_targets not in ("argmin", "own"):
            raise BoostrankError("labelled_targets must be argmin or own")
        if self.weight not in ("gain", "max"):
            raise BoostrankError("weight must be gain or max")
        if self.dtype not in ("float32", "float64"):
            raise BoostrankError("dtype must be float32 or float64")
        if self.C < 0 or self.n_iterations < 1:
            raise BoostrankError("need C >= 0 and n_iterations >= 1")

    def make_similarity(self, X: np.ndarray, matrix: np.ndarray | None = None) -> Similarity:
        """This model's S for the training rows X (``matrix``: a precomputed Gaussian S)."""
        return Similarity.make(
            self.similarity,
            X,
            width=self.kernel_width,
            zero_diagonal=self.zero_diagonal,
            matrix=matrix,
            dtype=np.dtype(self.dtype),
            block=self.block,
            form=self.kernel_form,
            scaling=self.feature_scaling,
            rescale=self.rescale_similarity,
        )

    def fit(
        self,
        X: Any,
        y: Any,
        n_classes: int | None = None,
        similarity: Similarity | None = None,
    ) -> MCSSB:
        """Fit on all rows; ``y = -1`` marks unlabelled rows (``n_classes``: ``classes_`` is
        ``0..n_classes-1``). ``similarity`` may pass a precomputed :class:`Similarity` over
        the same rows (the experiments share one)."""
        self._check_params()
        X, y, m = validate_semi_supervised(self, X, y, n_classes)
        n = len(X)
        labelled = y >= 0
        rng = np.random.default_rng(self.random_state)
        sim = similarity if similarity is not None else self.make_similarity(X)
        if sim.n != n:
            raise BoostrankError(f"the similarity covers {sim.n} rows, X has {n}")
        Y = np.zeros((n, m))
        Y[labelled] = one_hot(y[labelled], m)
        M = sim.labelled_mass(Y, labelled)
        pair_sim = sim.restricted(~labelled) if self.unlabelled_pairs_only else sim
        s = sample_size(n, self.sample_min, self.sample_fraction)
        # Algorithm 3's input: s sampled "from (N - N_l) unlabeled examples"
        # (reading mcssb_sampled_rows)
        pool = ~labelled if self.sampled_rows == "unlabelled" else np.ones(n, dtype=bool)
        if not pool.any():
            raise BoostrankError("sampled_rows='unlabelled' needs unlabelled rows")
        C = float(self.C)
        rescaled = self.similarity == "gaussian" and self.rescale_similarity
        self.guards_ = Guards.of(
            ALPHA_CAP, *([ALPHA_CLIP] if self.clip_alpha else []), *([RESCALE] if rescaled else [])
        )
        self.guards_.add(sim.guards)  # the entries the rescaled S flushed to 0

        H = np.zeros((n, m))
        self.trees_: list[WeakTree] = []
        self.alphas_: list[float] = []
        self.history_: list[dict[str, float]] = []
        self.stop_reason_ = "max_iterations"
        for _ in range(self.n_iterations):
            B, P = softmax_and_inverse(H)
            r, qb = pair_sim.pair_terms(B)
            alpha_ik, beta_ik = gradient_terms(B, P, r, qb, M)  # step 4
            g = alpha_ik + C * beta_ik  # Theorem 1: rows sum to 0
            target, w, record = self._sample_weights(g, y, labelled, pool)  # step 5
            record.update(F_u=float(r.sum()), F_l=float((M * P).sum()))
            record["F"] = record["F_u"] + C * record["F_l"]
            if w.sum() <= 0:  # step 6 cannot sample from all-zero weights
                self.stop_reason_ = "zero_weights"
                self.history_.append(record)
                break
            idx = resample(w, s, rng)  # step 6
            tree = fit_sample(X, target, idx, m, depth=self.depth, rng=rng)  # step 7
            h = one_hot(tree.predict(X), m)
            terms = bound_terms(h, B, P, r, qb, M)
            a = optimal_alpha(terms, C)  # step 8, Eq. 2.19
            record.update(alpha=a, A_u=terms[0], A_l=terms[1], B_u=terms[2], B_l=terms[3])
            record["sampled_labelled"] = float(labelled[idx].mean())
            self.history_.append(record)
            if not a > 0:  # step 8: "Exit the loop if alpha <= 0"
                self.stop_reason_ = "alpha<=0"
                break
            a = bounded_alpha(a, self.max_alpha, self.clip_alpha, self.guards_)
            record["alpha"] = a
            H += a * h
            self.trees_.append(tree)
            self.alphas_.append(a)
        self.n_classes_ = m
        self.n_iterations_ = len(self.trees_)
        self.train_scores_ = H
        fu, fl = objective_terms(H, pair_sim, M)
        self.objective_ = [rec["F"] for rec in self.history_ if "alpha" in rec]
        self.objective_.append(fu + C * fl)
        return self

    def _sample_weights(
        self, g: np.ndarray, y: np.ndarray, labelled: np.ndarray, pool: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, float]]:
        """Step 5: each row's target k*_i = argmin_k g_i^k and sampling weight (reading
        mcssb_weight), zero outside ``pool``; a labelled row, if sampled, gets the target of
        ``labelled_targets`` (reading mcssb_labelled_targets). Returns the targets, the weights
        and the record of the iteration's diagnostics."""
        n = len(g)
        target = np.argmin(g, axis=1)
        gain = -g[np.arange(n), target]
        raw = gain if self.weight == "gain" else g.max(axis=1)
        w = raw.copy()
        own_share = float((target[labelled] == y[labelled]).mean()) if labelled.any() else 1.0
        if self.labelled_targets == "own":
            target[labelled] = y[labelled]
            w[labelled] = -g[labelled, y[labelled]]
        w = np.clip(w, 0.0, None) * pool
        if not np.isfinite(w).all():
            raise BoostrankError("MCSSB weights are not finite (scores overflowed)")
        record = {
            "min_weight": float(w.min()),
            "min_raw_weight": float(raw.min()),
            "g_row_sum_max": float(np.abs(g.sum(axis=1)).max()),
            "labelled_argmin_own": own_share,  # labelled rows whose k* is their label
        }
        return target, w, record

    def decision_function(self, X: Any) -> np.ndarray:
        """H(x) = sum_t alpha_t h_t(x) (N x m)."""
        X = validate_predict_input(self, X)
        H = np.zeros((len(X), self.n_classes_))
        rows = np.arange(len(X))
        for a, tree in zip(self.alphas_, self.trees_, strict=True):
            H[rows, tree.predict(X)] += a
        return H

    def predict_proba(self, X: Any) -> np.ndarray:
        """softmax(H(x)), the b of Eq. 2.1."""
        return softmax_and_inverse(self.decision_function(X))[0]

    def predict(self, X: Any) -> np.ndarray:
        """The class of argmax_k H^k(x) (``classes_[0]`` where no tree was kept)."""
        index = np.argmax(self.decision_function(X), axis=1)
        return self.classes_[index]
