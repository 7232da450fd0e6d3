"""The tidy curves and summary statistics of Figures 6 and 7 of Crammer & Singer (2005),
"Online Ranking by Projecting", section 6, from the curves :mod:`boostrank.experiments.prank.jobs`
computes: each learner's time-averaged rank loss at every recorded round, its instantaneous loss
(the round's own loss, averaged over the sequences), its final loss and 95% half-width, and the
statistics the claims read. pandas/numpy only: drawing is in ``figure``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boostrank.experiments.prank.spec import FIG6, FIG7, label_of, mu_key
from boostrank.report.stat_rows import stat_row
from boostrank.seeds import derive_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

Z_95 = 1.96  # the 95% bands of the curves (jobs.averaged): mean +- 1.96 standard errors
ADDITIVE = ("prank", "siprank")  # Figure 7's top panels: the additive PRank variants ...
BASELINES = ("mcp", "wh")  # ... against the multiclass perceptron and Widrow-Hoff


def _row(meta: dict[str, str], **fields: Any) -> dict[str, Any]:
    """A statistic's row (:func:`stat_row`) whose data kind and provenance are the run's,
    from ``meta``, rather than read from the rows it summarises."""
    return stat_row(kinds=None, meta=meta, **fields)


def instant_means(losses: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each learner's instantaneous loss ``|y_hat_T - y_T|`` at every round T, averaged over
    the sequences without smoothing (Crammer & Singer 2005, section 6: "averaged the
    instantaneous losses across the 100 runs"); ``losses``: each learner's (R, T) losses."""
    return {key: loss.mean(axis=0) for key, loss in losses.items()}


def lowest_fraction(curves: dict[str, np.ndarray], key: str, others: Sequence[str]) -> float:
    """The fraction of the rounds at which ``curves[key]`` is strictly below every curve of
    ``others`` (a tie is not the smallest loss)."""
    import numpy as np

    rest = np.min(np.stack([curves[o] for o in others]), axis=0)
    return float(np.mean(curves[key] < rest))


def below_fraction(ours: np.ndarray, other: np.ndarray, z: float = 0.0) -> float:
    """The fraction of the rounds T at which the time-averaged loss of the per-round losses
    ``ours`` (R, T) is below that of ``other`` on the same R sequences: the mean over the
    sequences of their paired difference, plus ``z`` of its standard errors, is below 0
    (``z`` 0: the figure's mean curves; :data:`Z_95`: the paired 95% interval lies below 0,
    section 6's "significantly better" for Figure 7, whose error bars are 95% intervals). NaN
    for ``z`` > 0 with fewer than two sequences (no interval)."""
    import numpy as np

    rounds = np.arange(1, ours.shape[1] + 1)
    cum = np.cumsum(ours, axis=1, dtype=np.float64) - np.cumsum(other, axis=1, dtype=np.float64)
    diff = cum / rounds
    upper = diff.mean(axis=0)
    if z > 0:
        if diff.shape[0] < 2:
            return float("nan")
        upper = upper + z * diff.std(axis=0, ddof=1) / np.sqrt(diff.shape[0])
    return float(np.mean(upper < 0))


def crossover_round(curves: dict[str, np.ndarray], ours: list[str], others: list[str]) -> int:
    """The first round T from which every learner of ``ours`` stays below every learner of
    ``others`` up to the end (0 if they never cross; len+1 if never below at the end)."""
    import numpy as np

    below = np.ones_like(curves[ours[0]], dtype=bool)
    for a in ours:
        for b in others:
            below &= curves[a] < curves[b]
    if not below[-1]:
        return len(below) + 1
    above = np.flatnonzero(~below)
    return int(above[-1] + 2) if len(above) else 1


def _curve_rows(
    figure: str,
    panel: str,
    curves: dict[str, Any],
    rounds: list[int],
    meta: dict[str, str],
    *,
    instant: dict[str, np.ndarray],
) -> list[dict[str, Any]]:
    """Tidy rows: each learner's time-averaged loss (``mean_loss``, ``ci95``) and instantaneous
    loss (``instant_loss``, :func:`instant_means`) at each of ``rounds``."""
    rows = []
    for key, (mean, ci) in curves.items():
        for T in rounds:
            rows.append(
                {
                    "figure": figure,
                    "panel": panel,
                    "algorithm": label_of(key),
                    "key": key,
                    "round": T,
                    "mean_loss": round(float(mean[T - 1]), 6),
                    "ci95": round(float(ci[T - 1]), 6),
                    "instant_loss": round(float(instant[key][T - 1]), 6),
                    **meta,
                }
            )
    return rows


def final_stats(panel: str, curves: dict[str, Any], meta: dict[str, str]) -> list[dict[str, Any]]:
    """Each learner's time-averaged loss and 95% half-width after the last round."""
    rows = []
    for key, (mean, ci) in curves.items():
        T = len(mean)
        rows.append(
            _row(
                meta,
                panel=panel,
                statistic="final_loss",
                algorithm=label_of(key),
                key=key,
                value=float(mean[-1]),
                note=f"time-averaged rank loss after {T} rounds",
            )
        )
        rows.append(
            _row(
                meta,
                panel=panel,
                statistic="final_ci95",
                algorithm=label_of(key),
                key=key,
                value=float(ci[-1]),
                note="95% half-width of the final loss over the runs",
            )
        )
    return rows


def final_loss_samples(result: dict[str, Any]) -> pd.DataFrame:
    """Each run's final loss per (panel, learner) of Figure 6's or 7's result: the samples of
    the summary's ``final_loss`` rows (``results/prank-fig<6|7>_summary.samples.csv``, read
    by :mod:`boostrank.report.claims`); run r of every learner is the same sequence."""
    from boostrank.report.spread import samples_table

    panels = (
        {"synthetic": result}
        if "finals" in result
        else {f">={m}": panel for m, panel in result["panels"].items()}
    )
    groups = [
        (
            {"panel": name, "statistic": "final_loss", "key": key},
            [f"run{r}" for r in range(1, len(values) + 1)],
            values,
        )
        for name, panel in panels.items()
        for key, values in panel["finals"].items()
    ]
    return samples_table(groups, "run", ["panel", "statistic", "key"])


def early_stats(
    means: dict[str, np.ndarray], instant: dict[str, np.ndarray], early: int, meta: dict[str, str]
) -> list[dict[str, Any]]:
    """Figure 6's "WH initially suffers the smallest instantaneous loss" (section 6): the
    fraction of the rounds 1..``early`` at which WH's instantaneous loss (``instant``, averaged
    over the sequences, no smoothing) is strictly the lowest of PRank, Si-PRank, MCP and WH
    (the claim's); and the same for the time-averaged loss of the curves (``means``)."""
    others = [k for k in ("prank", "siprank", "mcp") if k in means]
    rows = []
    kinds = (
        ("lowest_instant_fraction_early", instant, "instantaneous loss (mean over sequences)"),
        ("lowest_fraction_early", means, "time-averaged loss (information)"),
    )
    for statistic, curves, what in kinds:
        window = {k: curves[k][:early] for k in [*others, "wh"]}
        rows.append(
            _row(
                meta,
                panel="synthetic",
                statistic=statistic,
                algorithm=label_of("wh"),
                key="wh",
                value=lowest_fraction(window, "wh", others),
                note=f"fraction of rounds 1..{early} where WH has strictly the lowest {what} of "
                "PRank, Si-PRank, MCP and WH",
            )
        )
    return rows


def fig6_outputs(
    result: dict[str, Any], settings: dict[str, Any], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 6's tidy curves and summary statistics."""
    import pandas as pd

    curves = result["curves"]
    rounds = int(result["rounds"])
    meta = {
        "dataset": "synthetic_crammer_singer",
        "data_kind": "generated",
        "provenance": f"generated: the paper's section 6 recipe, {result['runs']} sequences of "
        f"{rounds} rounds, seed {derive_seed(seed, FIG6, 'data')} (from config seed {seed})",
    }
    grid = sorted(
        {
            *range(1, min(rounds, 100) + 1),
            *range(100, min(rounds, 1000) + 1, 10),
            *range(1000, rounds + 1, 50),
            rounds,
        }
    )
    instant = instant_means(result["losses"])
    tidy = pd.DataFrame(_curve_rows(FIG6, "synthetic", curves, grid, meta, instant=instant))
    stats = final_stats("synthetic", curves, meta)
    means = {key: c[0] for key, c in curves.items()}
    stats += early_stats(means, instant, int(settings["early_rounds"]), meta)
    cross = crossover_round(means, ["prank", "siprank"], ["mcp", "wh"])
    stats.append(
        _row(
            meta,
            panel="synthetic",
            statistic="crossover_round",
            algorithm="",
            key="",
            value=cross,
            note="first round from which PRank and Si-PRank both stay below MCP and WH "
            f"to round {rounds} ({rounds + 1}: not below at the end)",
            digits=None,
        )
    )
    worst = (means["mcp"] > means["wh"]) & (means["mcp"] > means["prank"])
    stats.append(
        _row(
            meta,
            panel="synthetic",
            statistic="worse_than_wh_and_prank_fraction",
            algorithm=label_of("mcp"),
            key="mcp",
            value=float(worst.mean()),
            note="fraction of rounds where MCP's loss is above both WH's and PRank's",
        )
    )
    stats.append(
        _row(
            meta,
            panel="synthetic",
            statistic="wh_learning_rate",
            algorithm=label_of("wh"),
            key="wh",
            value=result["wh_rate"],
            note=f"wh.step {settings['wh']['step']} / mean |phi(x)|^2",
            digits=8,
        )
    )
    return tidy, pd.DataFrame(stats)


def along_run_stats(
    panel: str, losses: dict[str, np.ndarray], meta: dict[str, str]
) -> list[dict[str, Any]]:
    """Figure 7's "Along the entire run of the algorithms, PRank and Si-PRank are significantly
    better than WH and consistently better than the multiclass perceptron" (section 6): for
    PRank and Si-PRank against MCP and WH, the fraction of the rounds 1..T (no burn-in) at
    which the time-averaged loss is below (``below_<other>_fraction``: mean curves) and
    significantly below (``significantly_below_<other>_fraction``: the paired 95% interval
    over the sequences) the other's (:func:`below_fraction`)."""
    rows = []
    for key in (k for k in ADDITIVE if k in losses):
        for other in (o for o in BASELINES if o in losses):
            T = losses[key].shape[1]
            for prefix, z, how in (
                ("", 0.0, "the mean over the sequences is"),
                ("significantly_", Z_95, "the paired 95% interval over the sequences lies"),
            ):
                rows.append(
                    _row(
                        meta,
                        panel=panel,
                        statistic=f"{prefix}below_{other}_fraction",
                        algorithm=label_of(key),
                        key=key,
                        value=below_fraction(losses[key], losses[other], z),
                        note=f"fraction of rounds 1..{T} where {label_of(key)}'s time-averaged "
                        "loss "
                        f"minus {label_of(other)}'s: {how} below 0",
                    )
                )
    return rows


def mu_eta_stats(
    panel: str, curves: dict[str, Any], mus: list[str], meta: dict[str, str]
) -> list[dict[str, Any]]:
    """Figure 7's bottom plots, Mu-PRank against its own learning rates (section 6): "the
    performance of Mu-PRank is sensitive to the choice of the learning rate"
    (``mu_eta_spread_over_ci``) and "the best learning rate is eta=4 for the first partition
    of EachMovie, while eta=0.5 results in the smallest ranking loss in the case of the second"
    (``best_mu_eta``; ``mu_eta_rank``: each copy's rank by final loss among the copies, 1 =
    lowest, ties sharing the best rank, so "eta=4 is best" is the ordering rank <= 1)."""
    final = {k: float(curves[k][0][-1]) for k in mus}
    ci = {k: float(curves[k][1][-1]) for k in mus}
    lo, hi = min(final, key=final.__getitem__), max(final, key=final.__getitem__)
    spread = (final[hi] - final[lo]) / (ci[hi] + ci[lo]) if ci[hi] + ci[lo] > 0 else 0.0
    rows = [
        _row(
            meta,
            panel=panel,
            statistic="mu_eta_spread_over_ci",
            algorithm="",
            key="",
            value=float(spread),
            note="(worst - best final loss of Mu-PRank over eta) / (sum of their 95% "
            "half-widths): > 1 means the learning rate matters significantly; "
            f"best {label_of(lo)}, worst {label_of(hi)}",
        ),
        _row(
            meta,
            panel=panel,
            statistic="best_mu_eta",
            algorithm=label_of(lo),
            key=lo,
            value=float(lo.removeprefix("mu_eta")),
            note="the learning rate with the lowest final loss",
            digits=None,
        ),
    ]
    for key in mus:
        rank = 1 + sum(final[other] < final[key] for other in mus)
        rows.append(
            _row(
                meta,
                panel=panel,
                statistic="mu_eta_rank",
                algorithm=label_of(key),
                key=key,
                value=rank,
                note=f"rank of {label_of(key)}'s final loss among the {len(mus)} Mu-PRank copies "
                "(1 = lowest)",
                digits=None,
            )
        )
    return rows


def mu_against_others_stats(
    panel: str, curves: dict[str, Any], mus: list[str], meta: dict[str, str]
) -> list[dict[str, Any]]:
    """Figure 7, Mu-PRank against the other learners by final loss (section 6):
    "Mu-PRank outperforms most of the other algorithms we compared for a broad range of
    learning rates" (``mu_beats_others_fraction``: the fraction of the (eta, other learner)
    pairs, the others PRank, Si-PRank, MCP and WH, in which Mu-PRank's final loss is the lower)
    and "both the additive and multiplicative versions of PRank outperform regression and
    classification algorithms" (``mu_below_<wh|mcp>_eta_fraction``: the fraction of the
    learning rates at which Mu-PRank's final loss is below WH's, MCP's). A tie is not a win."""
    final = {k: float(curves[k][0][-1]) for k in curves}
    others = [k for k in (*ADDITIVE, *BASELINES) if k in final]
    rows = []
    if others:
        wins = [final[m] < final[o] for m in mus for o in others]
        names = ", ".join(label_of(o) for o in others)
        rows.append(
            _row(
                meta,
                panel=panel,
                statistic="mu_beats_others_fraction",
                algorithm="",
                key="",
                value=sum(wins) / len(wins),
                note=f"fraction of the (eta, other) pairs, others {names}, where Mu-PRank's final "
                "loss is below the other's",
            )
        )
    for base in (b for b in BASELINES if b in final):
        below = [final[m] < final[base] for m in mus]
        rows.append(
            _row(
                meta,
                panel=panel,
                statistic=f"mu_below_{base}_eta_fraction",
                algorithm="",
                key="",
                value=sum(below) / len(below),
                note=f"fraction of the {len(mus)} learning rates at which Mu-PRank's final loss is "
                f"below {label_of(base)}'s",
            )
        )
    return rows


def siprank_mu_stats(
    panel: str,
    means: dict[str, np.ndarray],
    mus: list[str],
    meta: dict[str, str],
    *,
    start_rounds: int,
) -> list[dict[str, Any]]:
    """Figure 7's bottom left plot, Si-PRank against the Mu-PRank copies (section 6): "after
    about 60 rounds, Si-PRank achieves the best performance, while at the start of the training
    process, its ranking loss is almost inferior to most of the copies of Mu-PRank". On the
    time-averaged loss (``means``): ``siprank_best_from_round`` (:func:`crossover_round`: the
    first round from which Si-PRank stays below every copy), ``siprank_minus_best_mu_final``
    (its final loss minus the lowest copy's: below 0 when it ends best) and
    ``siprank_above_mu_fraction_start`` (the fraction of the (round, copy) pairs of the rounds
    1..``start_rounds`` in which Si-PRank's loss is above the copy's; config
    ``prank.fig7.start_rounds``, reading ``prank_start_rounds``: the text gives the start no
    length)."""
    import numpy as np

    rounds = len(means["siprank"])
    start = min(start_rounds, rounds)
    cross = crossover_round(means, ["siprank"], mus)
    gap = float(means["siprank"][-1]) - min(float(means[k][-1]) for k in mus)
    above = np.stack([means["siprank"][:start] > means[k][:start] for k in mus])
    return [
        _row(
            meta,
            panel=panel,
            statistic="siprank_best_from_round",
            algorithm=label_of("siprank"),
            key="siprank",
            value=cross,
            note="first round from which Si-PRank's time-averaged loss stays below every Mu-PRank "
            f"copy's to round {rounds} ({rounds + 1}: not below at the end)",
            digits=None,
        ),
        _row(
            meta,
            panel=panel,
            statistic="siprank_minus_best_mu_final",
            algorithm=label_of("siprank"),
            key="siprank",
            value=gap,
            note="Si-PRank's final loss minus the lowest final loss of the Mu-PRank copies",
        ),
        _row(
            meta,
            panel=panel,
            statistic="siprank_above_mu_fraction_start",
            algorithm=label_of("siprank"),
            key="siprank",
            value=float(above.mean()),
            note=f"fraction of the (round, Mu-PRank copy) pairs of the rounds 1..{start} where "
            f"Si-PRank's time-averaged loss is above the copy's (start_rounds {start_rounds})",
        ),
    ]


def fig7_outputs(
    result: dict[str, Any], settings: dict[str, Any], meta_data: dict[str, Any]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 7's tidy curves and summary statistics."""
    import pandas as pd

    meta = {
        "dataset": meta_data["dataset"],
        "data_kind": meta_data["provenance"]["kind"],
        "provenance": meta_data["provenance_line"] + " (MovieLens 100K substituting for EachMovie)",
    }
    rows, stats = [], []
    for min_ratings, panel in result["panels"].items():
        name = f">={min_ratings}"
        curves = panel["curves"]
        rounds = len(next(iter(curves.values()))[0])
        instant = instant_means(panel["losses"])
        rows += _curve_rows(FIG7, name, curves, list(range(1, rounds + 1)), meta, instant=instant)
        stats += final_stats(name, curves, meta)
        stats += along_run_stats(name, panel["losses"], meta)
        mus = [mu_key(e) for e in settings["mu_etas"]]
        stats += mu_eta_stats(name, curves, mus, meta)
        stats += mu_against_others_stats(name, curves, mus, meta)
        stats += siprank_mu_stats(
            name,
            {k: curves[k][0] for k in curves},
            mus,
            meta,
            start_rounds=int(settings["start_rounds"]),
        )
        stats.append(
            _row(
                meta,
                panel=name,
                statistic="wh_learning_rate",
                algorithm=label_of("wh"),
                key="wh",
                value=panel["wh_rate"],
                note=f"wh.step {settings['wh']['step']} / mean |x|^2",
                digits=8,
            )
        )
        stats.append(
            _row(
                meta,
                panel=name,
                statistic="eligible_users",
                algorithm="",
                key="",
                value=panel["eligible"],
                note=f"users with >= {panel['threshold_used']} ratings; "
                f"{panel['distinct_targets']} "
                f"distinct targets in {settings['runs']} runs"
                + (
                    f" (synthetic stand-in: no user has {min_ratings} ratings, its most active "
                    "users stand in)"
                    if panel["threshold_used"] < min_ratings
                    else ""
                ),
                digits=None,
            )
        )
    return pd.DataFrame(rows), pd.DataFrame(stats)


__all__ = [
    "along_run_stats",
    "below_fraction",
    "crossover_round",
    "early_stats",
    "fig6_outputs",
    "fig7_outputs",
    "final_loss_samples",
    "final_stats",
    "instant_means",
    "lowest_fraction",
    "mu_against_others_stats",
    "mu_eta_stats",
    "siprank_mu_stats",
]
