"""Chapter 4's results before they become rows (Valizadegan 2010, Figures 4.2-4.5): each
method's NDCG@1..k_max of every query as one job measured it, the average over a family's
replicates, and the tidy rows, 95% bands and per-query samples drawn from it.

Replicates (config ``chapter4.replicates``, on real data only): a (data set, method family)
job runs once per replicate, replicate r under the root seed
:func:`boostrank.seeds.replicate_seed` (r = 1: the config's seed, so one replicate is the
single run). Every random step of the job is drawn again: the evaluation's order of equal
scores, MRR's sampled documents, Ranking-SVM's solver and, on MovieLens, the 20 training
users and each test user's feedback movies. Each query's NDCG@k is averaged over the
replicates that ranked it (all of them on LETOR; on MovieLens those in which the user is a
test user) before anything else is computed: the mean curves, their bands over the queries,
the selections by mean NDCG@1..k (Rocchio's setting, LRR-Best, LRR-Worst) and the per-query
samples of the claims' intervals and paired tests.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

# mode -> (evaluated query ids, each one's NDCG@1..k_max: n_q x k_max, or G x n_q x k_max)
QueryMeans = dict[str, tuple["np.ndarray", "np.ndarray"]]
Z_95 = 1.959964  # the normal 97.5% quantile: the curves' bands are mean +- Z_95 sd / sqrt(n_q)


@dataclass
class MethodCurves:
    """One method's NDCG@1..k_max of each query per evaluation mode, or a grid of settings'
    (``settings``: each one's variant; values ``G x n_q x k_max``), with its rows' columns."""

    label: str
    columns: dict[str, Any]  # base_feature, feedback, variant
    queries: np.ndarray  # ids of the queries ranked (the rows' ``queries`` is their count)
    per_query: QueryMeans
    tied_share: Any = None  # share of tied documents (per setting); None: not reported
    settings: list[str] | None = None
    # A grid's rows, in order: (label, "every") every setting's curve; (label, "best" or
    # "worst") per mode the setting with the best (worst) mean over k, with band and samples.
    grid_rows: tuple[tuple[str, str], ...] = field(default_factory=tuple)


def column(per_query: QueryMeans, g: int) -> QueryMeans:
    """The per-query curves of setting ``g`` (of ``G x n_q x k_max`` values)."""
    return {mode: (ids, values[g]) for mode, (ids, values) in per_query.items()}


def mean_curves_of(per_query: QueryMeans) -> dict[str, np.ndarray]:
    """Per mode, the mean over the queries at each k (``G x k_max`` for a grid)."""
    import numpy as np

    return {
        mode: np.stack([v.mean(axis=0) for v in values]) if values.ndim == 3 else values.mean(0)
        for mode, (_, values) in per_query.items()
    }


def pick(curves: dict[str, np.ndarray], best: bool) -> dict[str, int]:
    """Per mode, the column (setting) with the best (or worst) mean over k; first on ties."""
    import numpy as np

    out = {}
    for mode, c in curves.items():
        m = c.mean(axis=1).round(12)
        out[mode] = int(np.argmax(m) if best else np.argmin(m))
    return out


def rows_for(
    curves: dict[str, np.ndarray],
    algorithm: str,
    n_queries: int,
    *,
    per_query: QueryMeans | None = None,
    samples: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> list[dict[str, Any]]:
    """Tidy rows (one per mode and k) of one mean curve per mode. With ``per_query``, each row
    gains ``ci_low`` and ``ci_high``: mean +- 1.96 sd / sqrt(n_q) over the evaluated queries at
    that k, clipped to [0, 1] (a normal 95% interval, the band the figures shade); with
    ``samples`` too, one row per (mode, query) is appended to it (column ``query``, ``value``:
    the query's mean NDCG@1..k_max)."""
    import numpy as np

    rows = []
    keys = {k: v for k, v in extra.items() if k != "tied_share"}
    for mode, curve in curves.items():
        band = None
        if per_query is not None:
            ids, each = per_query[mode]
            if samples is not None:
                samples += [
                    {"algorithm": algorithm, **keys, "evaluated": mode, "query": int(i),
                     "value": round(float(v), 6)}
                    for i, v in zip(ids, each.mean(axis=1), strict=True)
                ]  # fmt: skip
            if len(ids) > 1:
                half = Z_95 * each.std(axis=0, ddof=1) / np.sqrt(len(ids))
                band = (np.clip(curve - half, 0, 1), np.clip(curve + half, 0, 1))
        for k, value in enumerate(curve, start=1):
            row = {
                "algorithm": algorithm,
                **extra,
                "evaluated": mode,
                "k": k,
                "ndcg": round(float(value), 6),
                "queries": n_queries,
            }
            if band is not None:
                row.update(
                    ci_low=round(float(band[0][k - 1]), 6), ci_high=round(float(band[1][k - 1]), 6)
                )
            rows.append(row)
    return rows


def _share(c: MethodCurves, g: int | None = None) -> dict[str, Any]:
    """The ``tied_share`` column of a curve (of setting ``g`` of a grid), if it has one."""
    if c.tied_share is None:
        return {}
    return {"tied_share": c.tied_share if g is None else c.tied_share[g]}


def tidy_rows(items: Sequence[MethodCurves], samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of every method's curves, in order; the per-query means of the curves drawn
    with a band go to ``samples``."""
    rows: list[dict[str, Any]] = []
    for c in items:
        n, curves = len(c.queries), mean_curves_of(c.per_query)
        if c.settings is None:
            rows += rows_for(
                curves, c.label, n, per_query=c.per_query, samples=samples, **c.columns,
                **_share(c),
            )  # fmt: skip
            continue
        for label, which in c.grid_rows:
            if which == "every":  # every setting's curve, without a band
                for g, variant in enumerate(c.settings):
                    rows += rows_for(
                        {mode: cv[g] for mode, cv in curves.items()},
                        label,
                        n,
                        **{**c.columns, "variant": variant},
                        **_share(c, g),
                    )
                continue
            for mode, col in pick(curves, best=which == "best").items():
                rows += rows_for(
                    {mode: curves[mode][col]},
                    label,
                    n,
                    per_query=column(c.per_query, col),
                    samples=samples,
                    **{**c.columns, "variant": c.settings[col]},
                    **_share(c, col),
                )
    return rows


# --------------------------------------------------------------------------- replicates
def save_replicate(path: Path | str, items: Sequence[MethodCurves], record: dict[str, Any]) -> None:
    """One replicate's curves (and its ``record``: replicate, seed, notes) as an ``.npz``."""
    import numpy as np

    from boostrank.io import save_npz

    arrays: dict[str, Any] = {}
    meta = []
    for i, c in enumerate(items):
        share = None if c.tied_share is None else np.asarray(c.tied_share, dtype=float).tolist()
        meta.append(
            {
                "label": c.label,
                "columns": c.columns,
                "modes": list(c.per_query),
                "tied_share": share,
                "settings": c.settings,
                "grid_rows": [list(r) for r in c.grid_rows],
            }
        )
        arrays[f"{i}.queries"] = np.asarray(c.queries)
        for j, (ids, values) in enumerate(c.per_query.values()):
            arrays[f"{i}.{j}.ids"], arrays[f"{i}.{j}.values"] = ids, values
    arrays["meta"] = np.array(json.dumps({"record": record, "items": meta}, sort_keys=True))
    save_npz(path, **arrays)


def _share_array(share: Any) -> Any:
    """A stored tied share: None, one float or a list per setting."""
    import numpy as np

    if share is None:
        return None
    return np.asarray(share, dtype=float) if isinstance(share, list) else np.float64(share)


def load_replicate(path: Path | str) -> tuple[list[MethodCurves], dict[str, Any]]:
    """The curves and record :func:`save_replicate` wrote."""
    import numpy as np

    try:
        with np.load(path) as a:
            meta = json.loads(str(a["meta"]))
            items = []
            for i, m in enumerate(meta["items"]):
                share = m["tied_share"]
                items.append(
                    MethodCurves(
                        m["label"],
                        m["columns"],
                        a[f"{i}.queries"],
                        {
                            mode: (a[f"{i}.{j}.ids"], a[f"{i}.{j}.values"])
                            for j, mode in enumerate(m["modes"])
                        },
                        tied_share=_share_array(share),
                        settings=m["settings"],
                        grid_rows=tuple(tuple(r) for r in m["grid_rows"]),
                    )
                )
    except (OSError, KeyError, ValueError) as e:
        raise BoostrankError(
            f"{path}: not a Chapter 4 replicate file ({e}); delete it and rerun"
        ) from e
    return items, meta["record"]


def _average_queries(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Each query's curve averaged over the replicates that evaluated it (ids sorted where the
    replicates' queries differ)."""
    import numpy as np

    ids0 = parts[0][0]
    if all(np.array_equal(ids0, ids) for ids, _ in parts):
        return ids0, np.mean(np.stack([values for _, values in parts]), axis=0)
    union = np.unique(np.concatenate([ids for ids, _ in parts]))
    shape = list(parts[0][1].shape)
    shape[-2] = len(union)
    total, count = np.zeros(shape), np.zeros(len(union))
    for ids, values in parts:
        at = np.searchsorted(union, ids)
        total[..., at, :] += values
        count[at] += 1
    return union, total / count[:, None]


def average_replicates(runs: Sequence[Sequence[MethodCurves]]) -> list[MethodCurves]:
    """The replicates' curves merged method by method: each query's NDCG@k averaged over the
    replicates that ranked it, the tied shares averaged. One replicate is returned as is."""
    import numpy as np

    if len(runs) == 1:
        return list(runs[0])
    if len({len(r) for r in runs}) != 1:
        raise BoostrankError(
            f"replicates disagree on their methods ({[len(r) for r in runs]} curves): "
            "rerun them with the same configuration"
        )
    out = []
    for group in zip(*runs, strict=True):
        first = group[0]
        for c in group[1:]:
            if (c.label, c.columns, c.settings, list(c.per_query)) != (
                first.label,
                first.columns,
                first.settings,
                list(first.per_query),
            ):
                raise BoostrankError(
                    f"replicates disagree on {first.label} {first.columns} (another has "
                    f"{c.label} {c.columns}): rerun them with the same configuration"
                )
        shares = [c.tied_share for c in group]
        out.append(
            replace(
                first,
                queries=np.unique(np.concatenate([c.queries for c in group]))
                if any(not np.array_equal(first.queries, c.queries) for c in group)
                else first.queries,
                per_query={
                    mode: _average_queries([c.per_query[mode] for c in group])
                    for mode in first.per_query
                },
                tied_share=None
                if shares[0] is None
                else np.round(np.mean(np.asarray(shares, dtype=float), axis=0), 6),
            )
        )
    return out


def result_frame(rows: list[dict[str, Any]], info: dict[str, Any]) -> pd.DataFrame:
    """The tidy rows of a job with its data set's columns (``info``) appended."""
    import pandas as pd

    frame = pd.DataFrame(rows)
    for key, value in info.items():
        frame[key] = value
    return frame


def write_family(
    items: list[MethodCurves],
    replicate_files: Sequence[Path | str],
    info: dict[str, Any],
    record: dict[str, Any],
    out: Path | str,
    record_path: Path | str,
    queries_out: Path | str | None,
) -> pd.DataFrame:
    """A family's results: replicate 1's curves (``items``) averaged with those of the other
    replicates' files, as tidy rows (``out``), per-query means (``queries_out``) and a JSON
    record (``record`` plus each other replicate's record; its ``guards``, the guards' counts
    summed over the replicates, :mod:`boostrank.guards`)."""
    from boostrank.guards import FIELD, Guards
    from boostrank.io import write_json, write_text

    others = [load_replicate(p) for p in replicate_files]
    samples: list[dict[str, Any]] = []
    rows = tidy_rows(average_replicates([items, *[o[0] for o in others]]), samples)
    info = {**info, "replicates": 1 + len(others)}
    frame = result_frame(rows, info)
    write_text(out, frame.to_csv(index=False))
    if queries_out is not None:
        write_text(queries_out, result_frame(samples, info).to_csv(index=False))
    more = {"other_replicates": [o[1] for o in others]} if others else {}
    counts = Guards().add(record.get(FIELD))
    for _, other in others:
        counts.add(other.get(FIELD))
    write_json(record_path, {**info, **record, **more, FIELD: counts})
    return frame


__all__ = [
    "Z_95",
    "MethodCurves",
    "QueryMeans",
    "average_replicates",
    "column",
    "load_replicate",
    "mean_curves_of",
    "pick",
    "result_frame",
    "rows_for",
    "save_replicate",
    "tidy_rows",
    "write_family",
]
