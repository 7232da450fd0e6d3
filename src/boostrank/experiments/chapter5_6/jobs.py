"""The run jobs of Figures 5.1, 5.2, 6.1 and 6.2 of Valizadegan (2010), *Boosting and Online
Learning for Classification and Ranking*, chapters 5 and 6: online multi-class learning with
bandit feedback on the seven classification data sets of Table 1.1 (section 1.6.1), and the
supplementary sweep of the exponential gradient's step factor. Each job writes one run CSV;
:mod:`boostrank.experiments.chapter5_6.summary` and ``figure`` read them.

Protocol (sections 5.4 and 6.4.1):

- Each run is a random permutation of the whole data set, fed one example per trial; the metric
  is the cumulative ("accumulate") error rate, mistakes / trials so far, averaged over runs. A
  bandit learner's mistake is its predicted label y~ != y.
- Figure 5.2: final error against gamma (config ``chapter5.gammas``) for the exponential
  gradient (Algorithm 9), the Banditron (Algorithm 7) and Banditron_Pos; 10 runs. One job per
  (data set, method) runs the whole gamma grid at once: the grid lies along the run axis
  (R = runs x grid).
- Figure 5.1: error against trials for each of them at its best gamma (lowest final error in
  the Figure 5.2 sweep, the same runs), plus the Perceptron (full feedback); 10 runs.
- Figure 6.1: the Banditron's final error against gamma (from the same sweep; the text says
  "these plots are extracted from Figure 5.2").
- Figure 6.2: error against trials for Banditron_Worst and Banditron_Best (the worst and best
  gamma of the sweep, run afresh), ag0, ag1, ag2 and ag3 (Algorithm 10 with the rules of
  section 6.3, omega(z) = (1 + z)^0.1); 50 runs.
- Inputs as the data sets give them (config ``chapter5.scaling: none``; section 5.4 describes
  no scaling). ``global`` divides each data set by its largest norm, ||x||_2 (Banditron,
  Perceptron) or ||x||_inf (exponential gradient, Theorem 13); see
  :mod:`boostrank.online.streams`.
- The exponential gradient's step is Eq. 5.12 times section 5.4's factor (``eta_factor``), and
  each learner's importance weight is the one its algorithm prints (``importance: printed``:
  p_{y~} in Algorithms 7 and 10, p_{y_hat} in Algorithm 9).
- Data: the processed arrays of each data set, labelled with their provenance. MNIST is what
  the data source gives: the 10,000 test images where the 60,000 training images are not
  available (the label says which); the dissertation's own chapter 2 uses the test set for the
  same reason. A synthetic stand-in is labelled "[synthetic stand-in]" and its claims are
  NOT-COMPARABLE.
- Seeds: run r's ordering of a data set derives from (config ``seed``, data set, r) and is the
  same for every method (paired comparisons); each learner's exploration uniforms derive from
  (seed, figure, data set, method, run).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter5_6.spec import (
    ADAPTIVE,
    ETA_SWEEP_FIGURE,
    LABELS,
    METHODS,
    SWEEP_METHODS,
    EtaSweepSpec,
    RunSpec,
    importance_of,
)
from boostrank.experiments.common import CLASSIFICATION_NAMES, dataset_label
from boostrank.seeds import derive_seeds

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

log = logging.getLogger(__name__)


def stream_label(meta: dict[str, Any]) -> str:
    """``MNIST (10,000 test images)``, ``Isolet [synthetic stand-in]``: the name outputs show."""
    name = meta["dataset"]
    label = CLASSIFICATION_NAMES.get(name, name)
    stats = meta.get("stats", {})
    if name == "mnist" and stats.get("split") == "test":
        label += f" ({stats.get('rows', 0):,} test images)"
    return dataset_label(label, meta["provenance"]["kind"])


def load_stream(npz: Path | str) -> tuple[np.ndarray, np.ndarray, int]:
    """X (float64), y (int) and the number of classes of a classification data set."""
    import numpy as np

    with np.load(npz) as z:
        if not {"X", "y"} <= set(z.files):
            raise BoostrankError(f"{npz}: not a classification data set (needs X and y)")
        X = z["X"].astype(np.float64)
        y = z["y"].astype(np.intp)
        n_classes = len(z["classes"]) if "classes" in z.files else int(y.max()) + 1
    if y.min() < 0 or y.max() >= n_classes:
        raise BoostrankError(f"{npz}: labels must be 0..K-1")
    return X, y, n_classes


def best_worst_gammas(sweep_csv: Path | str) -> tuple[float, float]:
    """The gamma values with the lowest and highest mean final error in a sweep CSV."""
    import pandas as pd

    sweep = pd.read_csv(sweep_csv)
    final = sweep[sweep["trial"] == sweep["trials"]]
    by_gamma = final.groupby("gamma")["error"].mean()
    return float(by_gamma.idxmin()), float(by_gamma.idxmax())


def make_learner(
    method: str,
    d: int,
    K: int,
    seeds: np.ndarray,
    *,
    gamma: np.ndarray | None,
    n_trials: int,
    options: dict[str, Any],
) -> Any:
    """The vectorised learner of one method (gamma: (R,) fixed values, None for the rest;
    ``options``: importance, eta_factor, lam1 and lam2 of its :class:`.spec.RunSpec`)."""
    if method == "perceptron":
        from boostrank.online.perceptron import Perceptron

        return Perceptron(d, K, seeds)
    if method in ("banditron", "banditron_pos", "banditron_best_worst"):
        from boostrank.online.banditron import Banditron

        return Banditron(
            d,
            K,
            seeds,
            gamma=gamma,
            positive=method == "banditron_pos",
            importance=importance_of(method, options["importance"]),
        )
    if method == "exp_gradient":
        from boostrank.online.exponential_gradient import ExponentialGradient

        return ExponentialGradient(
            d,
            K,
            seeds,
            gamma=gamma,
            n_trials=n_trials,
            eta_factor=options["eta_factor"],
            importance=importance_of(method, options["importance"]),
        )
    if method in ADAPTIVE:
        from boostrank.online.adaptive_exploration import AdaptiveGamma
        from boostrank.online.banditron import Banditron

        rule = AdaptiveGamma(method, options["lam1"], options["lam2"])
        return Banditron(
            d, K, seeds, gamma=rule, importance=importance_of(method, options["importance"])
        )
    raise BoostrankError(f"unknown method '{method}'; known: {METHODS}")


def _gamma_grid(spec: RunSpec) -> tuple[np.ndarray, list[str]]:
    """The gammas a method runs with and the label of each: the sweep's grid (Figure 5.2),
    the worst and best gamma of the Banditron sweep (Figure 6.2), or one NaN (no gamma)."""
    import numpy as np

    method = spec.method
    if method in SWEEP_METHODS:
        if not spec.gammas:
            raise BoostrankError(f"{method} needs a gamma grid (gammas)")
        grid = np.asarray(spec.gammas, dtype=np.float64)
        return grid, [LABELS[method]] * len(grid)
    if method == "banditron_best_worst":
        if spec.sweep is None:
            raise BoostrankError("banditron_best_worst needs the Banditron sweep CSV (sweep)")
        best, worst = best_worst_gammas(spec.sweep)
        return np.array([worst, best]), [LABELS["banditron_worst"], LABELS["banditron_best"]]
    return np.array([np.nan]), [LABELS[method]]


@dataclass(frozen=True)
class _Runs:
    """A job's runs: each gamma of the grid and its label, the checkpoints, the trials per run,
    the cumulative error rate (gamma, run, checkpoint) and each run's mean gamma_t."""

    grid: np.ndarray
    labels: list[str]
    points: np.ndarray
    trials: int
    error: np.ndarray
    gamma_used: np.ndarray


def _stream_runs(spec: RunSpec) -> _Runs:
    """Every run of the job, vectorised in one learner over (gamma, run): run r of every
    method of a data set shares the r-th random ordering, so runs pair."""
    import numpy as np

    from boostrank.online.streams import checkpoints, run_stream, scale_inputs, stream_orders

    method, runs = spec.method, spec.runs
    opts = {
        "importance": spec.importance,
        "eta_factor": spec.eta_factor,
        "lam1": spec.lam1,
        "lam2": spec.lam2,
    }
    X, y, K = load_stream(spec.npz)
    n, d = X.shape
    X = scale_inputs(X, "linf" if method == "exp_gradient" else "l2", spec.scaling)
    T = n if spec.max_trials is None else min(int(spec.max_trials), n)
    orders = stream_orders(n, derive_seeds(spec.seed, ["chapter5-orders", spec.dataset], runs), T)
    grid, labels = _gamma_grid(spec)
    G = len(grid)
    gamma = None if np.isnan(grid).all() else np.repeat(grid, runs)
    keys = ["chapter5-learner", spec.figure, spec.dataset, method]
    seeds = derive_seeds(spec.seed, keys, G * runs)
    learner = make_learner(method, d, K, seeds, gamma=gamma, n_trials=T, options=opts)
    points = checkpoints(T, spec.points)
    started = time.perf_counter()
    counts = run_stream(learner, X, y, np.tile(orders, (G, 1)), points)
    seconds = time.perf_counter() - started
    log.info(
        "%s %s on %s: %d trials x %d runs in %.2f s: %.0f trials/s (%.0f run-trials/s)",
        spec.figure,
        method,
        spec.dataset,
        T,
        G * runs,
        seconds,
        T / seconds,
        T * G * runs / seconds,
    )
    error = (counts / points[None, :]).reshape(G, runs, len(points))
    gamma_used = (getattr(learner, "gamma_sum_", np.full(G * runs, np.nan)) / T).reshape(G, runs)
    return _Runs(
        grid=grid, labels=labels, points=points, trials=T, error=error, gamma_used=gamma_used
    )


def _curve_rows(spec: RunSpec, meta: dict[str, Any], out: _Runs) -> list[dict[str, Any]]:
    """One row per (gamma, checkpoint): the mean and sd over the runs of the cumulative error
    rate."""
    import numpy as np

    method, runs = spec.method, spec.runs
    rows = []
    for g in range(len(out.grid)):
        mean = out.error[g].mean(axis=0)
        sd = out.error[g].std(axis=0, ddof=1) if runs > 1 else np.full(len(out.points), np.nan)
        for i, t in enumerate(out.points):
            rows.append(
                {
                    "figure": spec.figure,
                    "dataset": spec.dataset,
                    "dataset_label": stream_label(meta),
                    "method": out.labels[g],
                    "method_id": method,
                    "gamma": "" if np.isnan(out.grid[g]) else round(float(out.grid[g]), 6),
                    "mean_gamma_t": round(float(out.gamma_used[g].mean()), 6)
                    if method in ADAPTIVE
                    else "",
                    "runs": runs,
                    "trial": int(t),
                    "trials": out.trials,
                    "error": round(float(mean[i]), 6),
                    "sd": round(float(sd[i]), 6),
                    "scaling": spec.scaling,
                    "importance": importance_of(method, spec.importance)
                    if method != "perceptron"
                    else "",
                    "eta_factor": spec.eta_factor if method == "exp_gradient" else "",
                    "data_kind": meta["provenance"]["kind"],
                    "provenance": meta["provenance_line"],
                }
            )
    return rows


def run_method(spec: RunSpec) -> pd.DataFrame:
    """One job: ``runs`` runs of ``method`` on ``dataset`` (for each gamma of ``gammas``, or of
    the best and worst gamma of ``sweep``), all vectorised in one learner; writes the mean and
    sd over runs of the cumulative error rate at ~``points`` checkpoints; and to ``finals``
    each run's final error (run r of every method of a data set shares the r-th random
    ordering, so runs pair)."""
    import numpy as np
    import pandas as pd

    from boostrank.io import read_json, write_text

    meta = read_json(spec.meta)
    out = _stream_runs(spec)
    table = pd.DataFrame(_curve_rows(spec, meta, out))
    write_text(spec.out, table.to_csv(index=False))
    runs, G = spec.runs, len(out.grid)
    finals = pd.DataFrame(
        {
            "dataset": spec.dataset,
            "method": np.repeat(out.labels, runs),
            "gamma": np.repeat([round(float(g), 6) for g in out.grid], runs),
            "run": np.tile(np.arange(1, runs + 1), G),
            "final_error": np.round(out.error[:, :, -1].ravel(), 6),
        }
    )
    if spec.finals is not None:
        write_text(spec.finals, finals.to_csv(index=False))
    return table


def eta_sweep(spec: EtaSweepSpec) -> pd.DataFrame:
    """The supplementary sweep of the exponential gradient's step (section 5.4's factor on Eq.
    5.12): for each input scale (``linf``: ||x||_inf <= 1 as Theorem 13 assumes; ``raw``: the
    data as stored) and factor, the final error of every gamma of the grid over ``runs`` runs
    (the orderings of Figures 5.1/5.2), and how far theta moved (max |theta - theta^0|)."""
    import numpy as np
    import pandas as pd

    from boostrank.io import read_json, write_text
    from boostrank.online.exponential_gradient import ExponentialGradient
    from boostrank.online.streams import run_stream, scale_inputs, stream_orders

    dataset, runs, seed, importance = spec.dataset, spec.runs, spec.seed, spec.importance
    meta = read_json(spec.meta)
    X, y, K = load_stream(spec.npz)
    n, d = X.shape
    T = n if spec.max_trials is None else min(spec.max_trials, n)
    orders = stream_orders(n, derive_seeds(seed, ["chapter5-orders", dataset], runs), T)
    grid = np.asarray(spec.gammas, dtype=np.float64)
    G = len(grid)
    rows = []
    for scale in spec.input_scales:
        data = scale_inputs(X, "linf", "global") if scale == "linf" else X
        for factor in spec.factors:
            keys = ["chapter5-learner", ETA_SWEEP_FIGURE, dataset, scale, factor]
            learner = ExponentialGradient(
                d,
                K,
                derive_seeds(seed, keys, G * runs),
                gamma=np.repeat(grid, runs),
                n_trials=T,
                eta_factor=float(factor),
                importance=importance_of("exp_gradient", importance),
            )
            counts = run_stream(learner, data, y, np.tile(orders, (G, 1)), np.array([T]))
            error = (counts[:, -1] / T).reshape(G, runs)
            shift = learner.theta_shift_.reshape(G, runs)
            finite = bool(np.isfinite(learner.coef_).all())
            for g in range(G):
                rows.append(
                    {
                        "figure": ETA_SWEEP_FIGURE,
                        "dataset": dataset,
                        "dataset_label": stream_label(meta),
                        "input_scale": scale,
                        "eta_factor": float(factor),
                        "gamma": round(float(grid[g]), 6),
                        "runs": runs,
                        "trials": T,
                        "error": round(float(error[g].mean()), 6),
                        "sd": round(float(error[g].std(ddof=1)), 6) if runs > 1 else "",
                        "theta_shift": float(f"{shift[g].mean():.6g}"),
                        "finite": finite,
                        "data_kind": meta["provenance"]["kind"],
                        "provenance": meta["provenance_line"],
                    }
                )
            log.info("%s %s factor %g: best final error %.4f", dataset, scale, factor,
                     error.mean(axis=1).min())  # fmt: skip
    table = pd.DataFrame(rows)
    write_text(spec.out, table.to_csv(index=False))
    return table


__all__ = [
    "best_worst_gammas",
    "eta_sweep",
    "load_stream",
    "make_learner",
    "run_method",
    "stream_label",
]
