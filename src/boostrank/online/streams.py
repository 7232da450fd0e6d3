"""The shared trial loop of the online learners of Valizadegan (2010), *Boosting and Online
Learning for Classification and Ranking*, chapters 5 and 6: input scaling, R random orderings
of a stream, per-run random state, checkpoints of the cumulative error rate.

Every learner here is vectorised over R independent runs: run r sees its own ordering of the
stream and draws its own uniforms, and all R runs advance in lockstep, one array operation per
trial for all of them. A run's random numbers come from its own ``numpy.random.Generator``
seeded with its own seed, drawn in blocks, so a vectorised learner over R seeds equals R
separate scalar learners (R = 1) with the same seeds, bit for bit.

Scaling (chapter 5, Theorems 11-13; chapter 6, Theorem 14): the bounds assume ||x||_2 <= 1
(Banditron, Perceptron) or ||x||_inf <= 1 (exponential gradient, Theorem 13). The dissertation
does not say the data were scaled (section 5.4 describes no scaling), so :func:`scale_inputs`
leaves them as the data sets give them by default (``none``); ``global`` divides the whole data
set by its largest norm (the Perceptron and the Banditron are invariant to it, the exponential
gradient is not), ``row`` each row by its own norm.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boostrank.errors import BoostrankError


def scale_inputs(X: np.ndarray, norm: str = "l2", mode: str = "global") -> np.ndarray:
    """``X`` (n, d) as float64, as given (``none``) or scaled so every row has ``norm`` (``l2``
    or ``linf``) <= 1 (``global``: by the largest row norm; ``row``: each by its own)."""
    X = np.asarray(X, dtype=np.float64)
    if mode == "none":
        return X.copy()
    if norm == "l2":
        norms = np.sqrt(np.einsum("ij,ij->i", X, X))
    elif norm == "linf":
        norms = np.abs(X).max(axis=1) if X.shape[1] else np.zeros(len(X))
    else:
        raise BoostrankError(f"unknown norm '{norm}'; use l2 or linf")
    if mode == "global":
        top = float(norms.max()) if len(norms) else 0.0
        return X / top if top > 0 else X.copy()
    if mode == "row":
        return X / np.where(norms > 0, norms, 1.0)[:, None]
    raise BoostrankError(f"unknown scaling mode '{mode}'; use none, global or row")


def stream_orders(
    n_samples: int, seeds: Sequence[int] | np.ndarray, length: int | None = None
) -> np.ndarray:
    """(R, length) sample indices: run r's random permutation of the stream (its first
    ``length`` entries; all of it by default), from its own seed."""
    length = n_samples if length is None else min(int(length), n_samples)
    orders = np.empty((len(seeds), length), dtype=np.intp)
    for r, seed in enumerate(seeds):  # set-up only: one call per run, not per trial
        orders[r] = np.random.default_rng(int(seed)).permutation(n_samples)[:length]
    return orders


def checkpoints(n_trials: int, n_points: int = 100) -> np.ndarray:
    """Trial numbers (1-based, increasing, ending at ``n_trials``) at which the cumulative
    error is recorded: half spaced geometrically (the early trials), half linearly."""
    if n_trials < 1:
        raise BoostrankError("a stream needs at least one trial")
    half = max(n_points // 2, 1)
    geo = np.geomspace(1, n_trials, half)
    lin = np.linspace(1, n_trials, n_points - half + 1)
    points = np.unique(np.round(np.concatenate([geo, lin, [n_trials]])).astype(np.int64))
    return points[(points >= 1) & (points <= n_trials)]


class RunUniforms:
    """Per-run uniform [0, 1) numbers, one per trial and run, each run from its own generator.

    Drawn in blocks of ``block`` trials (R generator calls per block, none per trial); a
    generator's sequence does not depend on the block size, so any R and block size give each
    run the same numbers as a scalar run with its seed.
    """

    def __init__(self, seeds: Sequence[int] | np.ndarray, block: int = 2048) -> None:
        self._gens = [np.random.Generator(np.random.PCG64(int(s))) for s in seeds]
        self._block = int(block)
        self._buf = np.empty((0, len(self._gens)))
        self._i = 0

    def next(self) -> np.ndarray:
        """The (R,) uniforms of the next trial."""
        if self._i >= len(self._buf):
            self._buf = np.stack([g.random(self._block) for g in self._gens], axis=1)
            self._i = 0
        u = self._buf[self._i]
        self._i += 1
        return u


class MulticlassLearner:
    """Base of the vectorised multi-class learners: R runs, d features, K classes. They follow
    :class:`boostrank.online.base.OnlineLearner`: ``partial_fit`` returns the labels played.

    Subclasses implement ``_trial(x, y)`` for one trial of all runs (``x`` (R, d) float64,
    ``y`` (R,) int) and return the (R,) labels they played.
    """

    def __init__(self, n_features: int, n_classes: int, seeds: Sequence[int] | np.ndarray):
        if n_classes < 2:
            raise BoostrankError(f"need at least 2 classes, got {n_classes}")
        self.n_features = int(n_features)
        self.n_classes = int(n_classes)
        self.seeds = np.asarray(seeds, dtype=np.uint64).reshape(-1)
        self.n_runs = len(self.seeds)
        if self.n_runs < 1:
            raise BoostrankError("need at least one run (one seed per run)")
        self._rows = np.arange(self.n_runs)
        self._uniforms = RunUniforms(self.seeds)
        self.t_ = 0  # trials seen

    def _trial(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def partial_fit(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Play and learn trials in order: ``X`` (R, d) and ``y`` (R,) for one trial of every
        run, or (R, n, d) and (R, n) for n trials. Returns the labels played, (R,) or (R, n);
        the mistakes are ``played != y``."""
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.intp)
        R, d = self.n_runs, self.n_features
        if X.shape == (R, d) and y.shape == (R,):
            return self._trial(X, y)
        if X.ndim != 3 or X.shape[0] != R or X.shape[2] != d or y.shape != X.shape[:2]:
            raise BoostrankError(
                f"partial_fit takes X (R, d) or (R, n, d) with R={R}, d={d} and y to match; "
                f"got X {X.shape}, y {y.shape}"
            )
        out = np.empty(y.shape, dtype=np.intp)
        for j in range(X.shape[1]):
            out[:, j] = self._trial(np.ascontiguousarray(X[:, j]), y[:, j])
        return out


def run_stream(
    learner: MulticlassLearner,
    X: np.ndarray,
    y: np.ndarray,
    orders: np.ndarray,
    points: np.ndarray,
) -> np.ndarray:
    """Feed run r the samples ``orders[r]`` (one trial per column) and return the cumulative
    mistakes of every run at the 1-based trials ``points``: (R, len(points)) int64."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.intp)
    if orders.shape[0] != learner.n_runs:
        raise BoostrankError(f"{orders.shape[0]} orderings for {learner.n_runs} runs")
    out = np.zeros((learner.n_runs, len(points)), dtype=np.int64)
    want = {int(p) - 1: i for i, p in enumerate(points)}
    mistakes = np.zeros(learner.n_runs, dtype=np.int64)
    step = learner.partial_fit
    for t in range(orders.shape[1]):  # the trial loop is sequential by nature
        idx = orders[:, t]
        truth = y[idx]
        mistakes += step(X[idx], truth) != truth
        i = want.get(t)
        if i is not None:
            out[:, i] = mistakes
    return out
