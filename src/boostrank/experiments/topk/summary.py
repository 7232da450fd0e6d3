"""Table 1 and Figure 2 of Zhang, Jung & Tewari (2019), *Online Boosting for Multilabel Ranking
with Top-k Feedback*, section 4, from the run records of :mod:`boostrank.experiments.topk.jobs`:
the tidy results, the summaries the claims read, the table beside the published values and the
learning curves of the figure (pandas and numpy only; :mod:`.figure` writes and draws them).

Kept apart from the training code so that redrawing never retrains.

Table 1's Mediamill row has three published values for four columns (".07 .08 .05"); which
column lost its value is ambiguous. The claims read them left to right (TopOpt .07, TopAda .08,
FullOpt .05, FullAda none) and say so; the table shows FullAda's published value as "?".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boostrank.experiments.common import dataset_label
from boostrank.experiments.topk.spec import (
    ALGORITHMS,
    BY_KEY,
    COUNTERPARTS,
    LABELS,
    SOURCE_TABLE,
    TABLE_ID,
)


def _records(paths: Sequence[Path | str]) -> list[dict[str, Any]]:
    from boostrank.io import read_json

    return [read_json(p) for p in paths]


def _fmt(value: float, digits: int = 3) -> str:
    return f"{value:.{digits}f}"


def _per_pass(group: list[dict[str, Any]]) -> dict[str, float]:
    """Table 1's checkpoint columns of one (data set, algorithm): the test loss after each
    checkpoint pass, then Hedge's spread over the experts at each (bits; log2 N when
    uniform), means over the seeds."""
    import numpy as np

    cols = {}
    loops = sorted({int(c) for g in group for c in g.get("checkpoints", g["test_loss_at_loop"])})
    for c in loops:
        vals = [g["test_loss_at_loop"][str(c)] for g in group if str(c) in g["test_loss_at_loop"]]
        cols[f"loss_after_{c}_passes"] = round(float(np.mean(vals)), 4)
    for c in loops:
        ent = [g["expert_entropy_at_loop"][str(c)] for g in group
               if str(c) in g.get("expert_entropy_at_loop", {})]  # fmt: skip
        if ent:
            cols[f"expert_entropy_after_{c}_passes"] = round(float(np.mean(ent)), 4)
    return cols


def _table1_row(
    dataset: str, key: str, group: list[dict[str, Any]], claims: Any, split: dict[str, Any]
) -> dict[str, Any]:
    """Table 1's row of one (data set, algorithm) from its seeds' run records ``group``: the
    test loss's mean, sd, min and max over the seeds (at the chosen pass), the published value
    (``claims``), :func:`_per_pass` and the split's provenance (``split``)."""
    import numpy as np

    from boostrank.report.claims import find_claim

    algorithm = BY_KEY[key]
    losses = np.array([g["test_loss"] for g in group])
    first = group[0]
    kind = first["data_kind"]
    row = {
        "dataset": dataset,
        "dataset_label": dataset_label(LABELS.get(dataset, dataset), kind),
        "labels": first["labels"],
        "algorithm": algorithm.label,
        "algorithm_name": algorithm.name,
        "feedback": first["feedback"],
        "k": first["k"],
        "loops": first["loops"],
        "loops_rule": first.get("loops_rule", "fixed"),
        "chosen_loop": round(float(np.mean([g.get("chosen_loop", g["loops"]) for g in group])), 2),
        "loss": round(float(losses.mean()), 4),
        "sd": round(float(losses.std(ddof=1)), 4) if len(losses) > 1 else float("nan"),
        "min": round(float(losses.min()), 4),
        "max": round(float(losses.max()), 4),
        "n_seeds": len(losses),
    }
    where = f"results/{TABLE_ID}.csv"
    cells = {
        a.label: find_claim(claims, where, {"dataset": dataset, "algorithm": a.label}, "loss")
        for a in ALGORITHMS
    }
    claim = cells[algorithm.label]
    row["published"] = "" if claim is None else claim.published
    # A cell without a published value in a row the claims call ambiguous carries the
    # claims' erratum (Mediamill: three values for four columns).
    errata = [c.erratum for c in cells.values() if c is not None and c.erratum]
    return (
        row
        | _per_pass(group)
        | {
            "train_rows": first["rows"]["train"],
            "test_rows": first["rows"]["test"],
            "split": split.get("how", ""),
            "data_kind": kind,
            "provenance": first["provenance"],
            "note": errata[0] if claim is None and errata else "",
        }
    )


def table1_frame(
    runs: Sequence[Path | str], splits: Sequence[Path | str], claims_path: Path | str
) -> Any:
    """One row per (data set, algorithm), in the table's order (:func:`_table1_row`: mean, sd,
    min, max over the seeds of the test loss at the chosen pass, the loss after each
    checkpoint pass, the published value, provenance)."""
    import pandas as pd

    from boostrank.io import read_json
    from boostrank.report.claims import load_claims

    claims = load_claims(claims_path)
    split_info = {r["dataset"]: r for r in (read_json(p) for p in splits)}
    recs = _records(runs)
    if not recs:
        from boostrank.errors import BoostrankError

        raise BoostrankError("Table 1: no run records given")
    order = {d: i for i, d in enumerate(LABELS)}
    keyed: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in recs:
        keyed.setdefault((r["dataset"], r["algorithm_id"]), []).append(r)
    rows = [
        _table1_row(dataset, key, group, claims, split_info.get(dataset, {}))
        for (dataset, key), group in sorted(
            keyed.items(),
            key=lambda kv: (order.get(kv[0][0], 99), [a.key for a in ALGORITHMS].index(kv[0][1])),
        )
    ]
    frame = pd.DataFrame(rows)
    front = [c for c in frame.columns if not c.startswith(("loss_after_", "expert_entropy"))]
    passes = sorted(
        (c for c in frame.columns if c.startswith("loss_after_")),
        key=lambda c: int(c.split("_")[2]),
    )
    entropies = sorted(
        (c for c in frame.columns if c.startswith("expert_entropy_after_")),
        key=lambda c: int(c.split("_")[3]),
    )
    cut = front.index("published") + 1
    return frame[front[:cut] + passes + front[cut:] + entropies]


def table1_samples(runs: Sequence[Path | str]) -> Any:
    """Each seed's test loss per (data set, algorithm): ``results/topk-table1.samples.csv``,
    the units the claims' intervals resample (:mod:`boostrank.report.spread`; unit ``seed<i>``,
    shared by the algorithms, which see the same data order for the same seed index)."""
    import pandas as pd

    rows = [
        {
            "dataset": r["dataset"],
            "algorithm": BY_KEY[r["algorithm_id"]].label,
            "measure": "loss",
            "unit_kind": "seed",
            "unit": f"seed{r['seed_index']}",
            "value": round(float(r["test_loss"]), 6),
        }
        for r in _records(runs)
    ]
    columns = ["dataset", "algorithm", "measure", "unit_kind", "unit", "value"]
    return pd.DataFrame(rows, columns=columns).sort_values(["dataset", "algorithm", "unit"])


def table1_summary(frame: Any) -> Any:
    """Per data set: how many of the two counterpart pairs (TopOpt/FullOpt, TopAda/FullAda)
    full information wins (lower loss), the largest gap top-k minus full, the largest relative
    gap (:func:`relative_gap`), and the largest gaps the paper prints
    (:func:`published_gap_row`)."""
    import pandas as pd

    rows = []
    for dataset, group in frame.groupby("dataset", sort=False):
        loss = group.set_index("algorithm")["loss"]
        first = group.iloc[0]
        pairs = [(BY_KEY[t].label, BY_KEY[f].label) for t, f in COUNTERPARTS]
        pairs = [(t, f) for t, f in pairs if t in loss and f in loss]
        if not pairs:
            continue
        wins = sum(float(loss[f]) < float(loss[t]) for t, f in pairs)
        gap = max(float(loss[t]) - float(loss[f]) for t, f in pairs)
        relative = max(relative_gap(float(loss[t]), float(loss[f])) for t, f in pairs)
        common = {
            "dataset": dataset,
            "dataset_label": first["dataset_label"],
            "data_kind": first["data_kind"],
            "provenance": first["provenance"],
        }
        names = ", ".join(f"{f} < {t}" for t, f in pairs)
        rows.append(
            {
                **common,
                "quantity": "full_beats_topk",
                "value": wins,
                "note": f"pairs where full information wins ({names}), of {len(pairs)}",
            }
        )
        rows.append(
            {
                **common,
                "quantity": "max_gap",
                "value": round(gap, 4),
                "note": "largest top-k minus full-information loss over the pairs",
            }
        )
        rows.append(
            {
                **common,
                "quantity": "max_relative_gap",
                "value": round(relative, 4),
                "note": "largest |top-k - full-information| / full-information loss over the "
                "pairs (section 4.1's 'comparable': at most 0.1)",
            }
        )
        rows += published_gap_row(group, pairs, common)
    return pd.DataFrame(rows)


def relative_gap(topk: float, full: float) -> float:
    """|top-k - full-information| / |full-information| loss: the relative gap that section
    4.1's "our algorithms manage comparable asymptotic performance" reads, under the one
    threshold of "comparable" (:mod:`boostrank.report.words`: at most 0.1). NaN for a full
    loss of 0."""
    return abs(topk - full) / abs(full) if full != 0 else float("nan")


def published_gap_row(
    group: Any, pairs: Sequence[tuple[str, str]], common: dict[str, Any]
) -> list[dict[str, Any]]:
    """The largest top-k minus full-information loss the paper prints for a data set, and the
    largest relative gap (:func:`relative_gap`), over the pairs with both values printed (none
    when no pair has): published numbers, which the text-consistency claims on section 4.1's
    "largest gap" and "comparable asymptotic performance" read (no run of ours decides them)."""
    printed = group.set_index("algorithm")["published"]

    def known(label: str) -> bool:
        value = printed.get(label, "")
        return value != "" and value is not None and value == value  # not blank, not NaN

    both = [(t, f) for t, f in pairs if known(t) and known(f)]
    if not both:
        return []
    gap = max(float(printed[t]) - float(printed[f]) for t, f in both)
    relative = max(relative_gap(float(printed[t]), float(printed[f])) for t, f in both)
    published = {**common, "data_kind": "published", "provenance": f"published: {SOURCE_TABLE}"}
    return [
        {
            **published,
            "quantity": "published_max_gap",
            "value": round(gap, 4),
            "note": "largest printed top-k minus full-information loss over the pairs "
            + ", ".join(f"{t} - {f}" for t, f in both),
        },
        {
            **published,
            "quantity": "published_max_relative_gap",
            "value": round(relative, 4),
            "note": "largest printed |top-k - full-information| / full-information loss over "
            "the pairs " + ", ".join(f"{t}, {f}" for t, f in both),
        },
    ]


def table1_shown(frame: Any) -> tuple[Any, str]:
    """The table as people read it (one row per data set, each cell "mean ± sd (published
    ...)") and its caption."""
    import pandas as pd

    shown_rows = []
    for _dataset, group in frame.groupby("dataset", sort=False):
        first = group.iloc[0]
        cells = {"Data": first["dataset_label"], "m": first["labels"]}
        for a in ALGORITHMS:
            hit = group[group["algorithm"] == a.label]
            if hit.empty:
                cells[a.label] = "n/a"
                continue
            r = hit.iloc[0]
            text = _fmt(r["loss"]) + ("" if pd.isna(r["sd"]) else f" ± {_fmt(r['sd'])}")
            pub = r["published"]
            if pub == "" and r["note"]:
                pub = "?"  # the source's row is ambiguous (the note says why)
            cells[a.label] = text + (f" (published {pub})" if pub != "" else "")
        shown_rows.append(cells)
    shown = pd.DataFrame(shown_rows)
    top = frame[frame["feedback"] == "top-k"]
    ks = ", ".join(map(str, sorted(set(top["k"]))))
    passes = ", ".join(map(str, sorted(set(top["loops"]))))
    if "tuned" in set(top.get("loops_rule", [])):  # section 4: the loops are tuned
        passes = f"the pass of up to {passes} with the lowest loss on a held-out validation part"
    else:
        passes += " passes"
    seeds = f"{int(frame['n_seeds'].min())}-{int(frame['n_seeds'].max())}"
    noted = frame[frame["note"] != ""].drop_duplicates("dataset")
    notes = "".join(f" {r.dataset_label}: {r.note}" for r in noted.itertuples())
    caption = (
        f"{SOURCE_TABLE}: average weighted rank loss on the test set (mean ± sd over {seeds} "
        f"seeds); top-k feedback with k = {ks} and {passes}, full information one pass." + notes
    )
    return shown, caption


def converge_round(curve: Any, window: int, tolerance: float, smooth: int) -> tuple[int, float]:
    """(rounds until the running mean of ``smooth`` windows first comes within ``tolerance``
    of the final level, the final level = mean of the last tenth of the windows)."""
    import numpy as np

    curve = np.asarray(curve, dtype=np.float64)
    final = float(curve[-max(1, len(curve) // 10) :].mean())
    kernel = np.ones(min(smooth, len(curve))) / min(smooth, len(curve))
    running = np.convolve(curve, kernel, mode="valid")  # ends at window index j + smooth - 1
    hit = np.flatnonzero(running <= final + tolerance)
    first = int(hit[0]) + len(kernel) if len(hit) else len(curve)
    return first * window, final


@dataclass
class Curve:
    """Figure 2's line for one k: rounds, mean and sd over the seeds of the windowed loss."""

    k: int
    rounds: Any  # numpy array of the rounds ending each window
    mean: Any
    sd: Any
    n_seeds: int


@dataclass
class Figure2:
    """What Figure 2 draws and the two CSVs it writes."""

    curves: list[Curve]
    frame: Any  # one row per (k, window): results/topk-fig2.csv
    summary: Any  # rounds to converge, final level, test loss per k; the spread of the finals
    label: str  # the data set as the figure names it
    provenance: str
    window: int
    seeds: list[int]  # the seed counts of the k values, sorted


def _k_curve(k: int, group: list[dict[str, Any]]) -> tuple[Curve, int]:
    """Figure 2's line for one k: the mean and sd over the seeds of the windowed loss, cut to
    the shortest seed's curve; and the window in rounds."""
    import numpy as np

    n = min(len(g["curve"]) for g in group)
    curves_k = np.array([g["curve"][:n] for g in group])
    window = int(group[0]["window"])
    mean = curves_k.mean(axis=0)
    sd = curves_k.std(axis=0, ddof=1) if len(group) > 1 else np.zeros(n)
    return Curve(k, (np.arange(n) + 1) * window, mean, sd, len(group)), window


def _curve_rows(curve: Curve, dataset: str, kind: str, prov: str) -> list[dict[str, Any]]:
    """The tidy rows of one line of Figure 2 (``results/topk-fig2.csv``): one per window."""
    return [
        {
            "dataset": dataset,
            "k": curve.k,
            "round": int(curve.rounds[w]),
            "loss": round(float(curve.mean[w]), 5),
            "sd": round(float(curve.sd[w]), 5),
            "n_seeds": curve.n_seeds,
            "data_kind": kind,
            "provenance": prov,
        }
        for w in range(len(curve.mean))
    ]


def _k_summary(
    common: dict[str, Any], converged: tuple[int, float], test: float, tolerance: float, smooth: int
) -> list[dict[str, Any]]:
    """One k's convergence (:func:`converge_round`: rounds to converge and final level) and
    test loss, as Figure 2's summary rows."""
    rounds, final = converged
    return [
        {
            **common,
            "quantity": "rounds_to_converge",
            "value": rounds,
            "note": f"first round where the {smooth}-window running mean is within "
            f"{tolerance} of the final level",
        },
        {
            **common,
            "quantity": "final_loss",
            "value": round(final, 4),
            "note": "mean of the last tenth of the windows",
        },
        {
            **common,
            "quantity": "test_loss",
            "value": round(test, 4),
            "note": "test loss after training, mean over the seeds",
        },
    ]


def figure2_summary(runs: Sequence[Path | str], tolerance: float, smooth: int) -> Figure2:
    """Figure 2's numbers: TopkBBM's learning curves on one data set for several k (mean over
    seeds of the loss averaged over each ``window`` rounds, :func:`_k_curve`), their tidy frame
    and the convergence summary (:func:`_k_summary`, and the spread of the final levels)."""
    import numpy as np
    import pandas as pd

    from boostrank.errors import BoostrankError

    recs = _records(runs)
    if not recs:
        raise BoostrankError("Figure 2: no run records given")
    by_k: dict[int, list[dict[str, Any]]] = {}
    for r in recs:
        by_k.setdefault(int(r["k"]), []).append(r)
    rows, summ, curves = [], [], []
    first = recs[0]
    kind, prov = first["data_kind"], first["provenance"]
    label = dataset_label(LABELS.get(first["dataset"], first["dataset"]), kind)
    common = {"dataset": first["dataset"], "dataset_label": label}
    finals = {}
    for k in sorted(by_k):
        group = by_k[k]
        curve, window = _k_curve(k, group)
        rows += _curve_rows(curve, first["dataset"], kind, prov)
        curves.append(curve)
        converged = converge_round(curve.mean, window, tolerance, smooth)
        finals[k] = converged[1]
        test = float(np.mean([g["test_loss"] for g in group]))
        of_k = {**common, "k": k, "data_kind": kind, "provenance": prov}
        summ += _k_summary(of_k, converged, test, tolerance, smooth)
    spread = max(finals.values()) - min(finals.values())
    summ.append(
        {
            **common,
            "k": "all",
            "data_kind": kind,
            "provenance": prov,
            "quantity": "final_spread",
            "value": round(spread, 4),
            "note": "largest minus smallest final level over the k values",
        }
    )
    return Figure2(
        curves=curves,
        frame=pd.DataFrame(rows),
        summary=pd.DataFrame(summ),
        label=label,
        provenance=prov,
        window=int(first["window"]),
        seeds=sorted({len(g) for g in by_k.values()}),
    )


__all__ = [
    "Curve",
    "Figure2",
    "converge_round",
    "figure2_summary",
    "published_gap_row",
    "relative_gap",
    "table1_frame",
    "table1_samples",
    "table1_shown",
    "table1_summary",
]
