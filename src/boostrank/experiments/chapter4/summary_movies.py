"""Figures 4.5-4.6 of Valizadegan (2010), sections 4.4.5-4.4.6: the statistics of ranking
refinement on MovieLens 100K -- (a) the methods, (b) MRR with 5..25 rated movies, the rating
the data treat as best -- and of MRR's running time against the number of rated movies."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter4.spec import ORDER
from boostrank.experiments.chapter4.summary_curves import curve
from boostrank.experiments.chapter4.summary_feedback import mean_ndcg_rows, sizes_stats
from boostrank.report.stat_rows import stat_row

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd


def best_rating(npz: Path | str, top: int = 50) -> tuple[int, float, float]:
    """The rating the data treat as best: 5 when the ``top`` most-rated movies (popular ones)
    have a higher mean rating than all movies, else 1; with both means."""
    import numpy as np

    with np.load(npz) as a:
        item, rating = a["item"], a["rating"].astype(float)
    counts = np.bincount(item)
    popular = np.argsort(-counts, kind="stable")[:top]
    pop_mean = float(rating[np.isin(item, popular)].mean())
    overall = float(rating.mean())
    return (5 if pop_mean > overall else 1), pop_mean, overall


# Section 1.6.2's inventory of MovieLens ("It contains 100,000 ratings ranging from 1 to 5 ...
# for 1682 movies given by 943 users"): statistic -> what it counts.
INVENTORY = {
    "ratings": "ratings in the data",
    "users": "users who rated",
    "movies": "movies rated",
    "rating_min": "the lowest rating",
    "rating_max": "the highest rating",
}


def inventory(npz: Path | str) -> dict[str, int]:
    """Section 1.6.2's counts of MovieLens: the ratings, the users and movies they come from,
    and the lowest and highest rating (keys of :data:`INVENTORY`)."""
    import numpy as np

    with np.load(npz) as a:
        user, item, rating = a["user"], a["item"], a["rating"]
    return {
        "ratings": len(rating),
        "users": len(np.unique(user)),
        "movies": len(np.unique(item)),
        "rating_min": int(rating.min()),
        "rating_max": int(rating.max()),
    }


def parts4_5(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, list[int]]:
    """Figure 4.5's panel (a) rows, panel (b) rows (family mrr_sizes) and its feedback
    sizes."""
    main = frame[frame["family"] != "mrr_sizes"]
    sizes_part = frame[frame["family"] == "mrr_sizes"]
    sizes = sorted(int(s) for s in sizes_part["feedback"].unique())
    return main, sizes_part, sizes


def stats4_5(d: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.5's tidy frame and statistics: (a) the algorithms on MovieLens; (b) MRR with
    5..25 rated movies; the rating the data treat as best."""
    import pandas as pd

    frame = d["frame"]
    k_max = int(frame["k"].max())
    rows: list[dict[str, Any]] = []
    main, sizes_part, sizes = parts4_5(frame)
    perf = mean_ndcg_rows(rows, main, "movielens_100k", ORDER, k_max)
    if "MRR" in perf:
        others = {a: v for a, v in perf.items() if a not in ("MRR", "LRR-Worst")}
        rows.append(
            stat_row(
                statistic="mrr_minus_best_baseline",
                dataset="movielens_100k",
                algorithm="",
                value=perf["MRR"] - max(others.values()),
                part=main,
                note="MRR minus the best of Base ranker, Rocchio, Ranking-SVM, LRR-Best",
            )
        )
    if "LRR-Best" in perf:
        rows.append(
            stat_row(
                statistic="lrr_best_minus_base",
                dataset="movielens_100k",
                algorithm="",
                value=perf["LRR-Best"] - perf["Base ranker"],
                part=main,
                note="LRR-Best minus the base ranker",
            )
        )
    means, base_means = {}, {}
    for size in sizes:
        c = curve(sizes_part, feedback=size, algorithm="MRR")
        b = curve(sizes_part, feedback=size, algorithm="Base ranker")
        means[size], base_means[size] = float(c.mean()), float(b.mean())
    if sizes:
        sizes_stats(rows, sizes_part, "movielens_100k", means, base_means)
    if "npz" in d:
        best, pop, overall = best_rating(d["npz"])
        rows.append(
            stat_row(
                statistic="best_rating",
                dataset="movielens_100k",
                algorithm="",
                value=float(best),
                part=main,
                note=f"mean rating of the 50 most-rated movies {pop:.3f} vs all {overall:.3f}: the "
                "higher rating is the better one (MovieLens README: 5 stars is best)",
            )
        )
        for stat, value in inventory(d["npz"]).items():
            rows.append(
                stat_row(
                    statistic=stat,
                    dataset="movielens_100k",
                    algorithm="",
                    value=value,
                    part=main,
                    note=INVENTORY[stat],
                )
            )
    return frame[frame["algorithm"] != "LRR"].reset_index(drop=True), pd.DataFrame(rows)


def timing_frame(d: dict[str, Any]) -> pd.DataFrame:
    """Figure 4.6's timing CSV (MRR's running time per test user)."""
    t = d["timing"]
    if t is None:
        raise BoostrankError("thesis-fig4_6 needs the timing CSV")
    return t


def timing_groups(t: pd.DataFrame, bin_width: int) -> pd.DataFrame:
    """Users grouped by their number of rated movies (groups of ``bin_width``): mean number of
    rated movies, mean and sd of the running time."""
    t = t.copy()
    t["group"] = (t["rated_movies"] // bin_width) * bin_width
    groups = (
        t.groupby("group")
        .agg(
            users=("user", "size"),
            rated_movies=("rated_movies", "mean"),
            seconds=("seconds", "mean"),
            sd=("seconds", "std"),
        )
        .reset_index()
    )
    groups["data_kind"] = t["data_kind"].iloc[0]
    groups["provenance"] = t["provenance"].iloc[0]
    return groups


def timing_fit(groups: pd.DataFrame) -> tuple[np.ndarray, float, float]:
    """A line and a parabola through the group means (weighted by users): the line's
    coefficients, its R^2, and the share of the quadratic term at the largest group (NaN with
    fewer than three groups)."""
    import numpy as np

    x, y = groups["rated_movies"].to_numpy(), groups["seconds"].to_numpy()
    w = groups["users"].to_numpy()
    span = x.max()
    if len(groups) >= 3:  # a line and a parabola through the group means
        coef = np.polyfit(x, y, 1, w=np.sqrt(w))
        fit = np.polyval(coef, x)
        r2 = 1 - np.average((y - fit) ** 2, weights=w) / np.average(
            (y - np.average(y, weights=w)) ** 2, weights=w
        )
        quad = np.polyfit(x, y, 2, w=np.sqrt(w))
        share = abs(quad[0]) * span**2 / max(abs(np.polyval(quad, span)), 1e-12)
    else:
        coef, r2, share = np.array([np.nan, np.nan]), np.nan, np.nan
    return coef, r2, share


def stats4_6(d: dict[str, Any], bin_width: int = 50) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figure 4.6's tidy frame (the groups of users) and statistics: is MRR's running time
    linear in the number of rated movies?"""
    import pandas as pd

    groups = timing_groups(timing_frame(d), bin_width)
    coef, r2, share = timing_fit(groups)
    rows: list[dict[str, Any]] = []
    rows.append(
        stat_row(
            statistic="time_linear_r2",
            dataset="movielens_100k",
            algorithm="",
            value=float(r2),
            part=groups,
            note=f"R^2 of a straight line through the group means (groups of {bin_width} movies, "
            "weighted by users)",
        )
    )
    rows.append(
        stat_row(
            statistic="time_slope_ms_per_movie",
            dataset="movielens_100k",
            algorithm="",
            value=float(coef[0] * 1000),
            part=groups,
            note="slope of the line, milliseconds per rated movie",
        )
    )
    rows.append(
        stat_row(
            statistic="time_quadratic_share",
            dataset="movielens_100k",
            algorithm="",
            value=float(share),
            part=groups,
            note="share of the quadratic term of a degree-2 fit at the largest group",
        )
    )
    return groups, pd.DataFrame(rows)


__all__ = [
    "INVENTORY",
    "best_rating",
    "inventory",
    "parts4_5",
    "stats4_5",
    "stats4_6",
    "timing_fit",
    "timing_frame",
    "timing_groups",
]
