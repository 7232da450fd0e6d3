"""Table 1 and Figure 2 of Zhang, Jung & Tewari (2019), *Online Boosting for Multilabel Ranking
with Top-k Feedback* (section 4): TopkBBM (TopOpt) and TopkAdaptive (TopAda) with top-k
feedback against the full-information OnlineBMR (FullOpt) and Ada.OLMR (FullAda) of Jung &
Tewari (2018), on the MULAN data sets Emotions, Scene, Yeast, Mediamill and M-reduced.

Protocol (section 4 and 4.1; the choices its copy leaves open are config ``topk`` keys):

- Data: ``data/processed/<name>.npz`` (X, Y) with the publisher's train/test split. For a real
  or mirror copy, the split is recovered by matching the rows of MULAN's ``<name>-train.arff``
  (the registry's file) to the processed arrays, one to one (:func:`make_split`); a synthetic
  stand-in is split in the published proportions (Mediamill: 30,993 / 12,914), first rows for
  training. M-reduced, Jung & Tewari's reduced Mediamill, is derived: ``topk.m_reduced.train``
  and ``.test`` rows drawn (seeded) from Mediamill's training and test parts (1,500 / 500, our
  reading). Features are standardised with the training part's mean and sd.
- Full-information algorithms make one pass over the training set, top-k ones ``topk.loops``
  passes (the paper: a hyper-parameter that never exceeds 20; 20 is the one value its text
  pins down, for Mediamill and M-reduced: "k = 3 and L = 20 ... 60 labels"); each pass in a
  fresh seeded order, the same order for every algorithm of a seed. The test loss is also
  recorded after each pass in ``topk.checkpoints`` (the loops sensitivity in the CSV).
- k = 3 (``topk.k``; it fits "m = 6 ... observed in two loops" and "m = 101 ... 60% of the
  labels"), exploration rate rho, N weak learners, the edge gamma of TopkBBM, the weak learners
  and the step sizes: config ``topk`` (see :mod:`boostrank.online.topk_boosting`).
- Metric: the average weighted rank loss on the test set (ties 1/2; a row with an empty Y or
  Y^c scores 0), learning frozen, no exploration. ``topk.seeds`` runs per cell (mean, sd).
- Figure 2: TopkBBM on Yeast for ``topk.fig2.k`` values; the weighted rank loss of the
  booster's (explored) prediction on each training round, averaged over each 100 consecutive
  rounds, then over the seeds.

One Snakemake job per (data set, algorithm, k, seed) writes a JSON record; :mod:`boostrank.
experiments.topk.summary` turns them into the table, the figure and the claims' CSVs.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.experiments.topk.spec import (
    TABLE_ID,
    Algorithm,
    SplitSpec,
    TrainSpec,
    get_algorithm,
    source_dataset,
)
from boostrank.seeds import derive_seed

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- data
def load_multilabel(npz: Path | str) -> tuple[Any, Any]:
    """X (n, d) float64 and Y (n, m) int8 of a processed MULAN data set."""
    import numpy as np

    with np.load(npz) as arrays:
        if not {"X", "Y"} <= set(arrays.files):
            raise BoostrankError(f"{npz}: not a multi-label data set (needs arrays X and Y)")
        return arrays["X"].astype(np.float64), arrays["Y"].astype(np.int8)


def _match_rows(X: Any, Y: Any, X_part: Any, Y_part: Any, where: str) -> Any:
    """Indices into (X, Y) of the rows of (X_part, Y_part), one to one (duplicates too)."""
    import numpy as np

    pool: dict[bytes, list[int]] = {}
    for i in range(len(X)):
        pool.setdefault(X[i].tobytes() + Y[i].tobytes(), []).append(i)
    out = np.empty(len(X_part), dtype=np.int64)
    for j in range(len(X_part)):  # set-up, once per data set
        hits = pool.get(X_part[j].tobytes() + Y_part[j].tobytes())
        if not hits:
            raise BoostrankError(
                f"{where}: row {j + 1} is not among the processed rows; the processed data "
                "and the raw ARFF disagree -- re-run the data set's prepare job"
            )
        out[j] = hits.pop(0)
    return out


def make_split(spec: SplitSpec) -> dict[str, Any]:
    """Write the train/test row indices of a Table 1 data set (``out`` .npz) and how they were
    found (``record`` JSON).

    Real/mirror copies: the rows of MULAN's ``<name>-train.arff`` (found through the fetch
    job's ``provenance.json``) matched to the processed rows; the rest is the test part and
    must match ``<name>-test.arff`` in size. Synthetic stand-ins: the first
    round(n * train / (train + test)) rows (``published`` sizes). Derived data sets
    (M-reduced): ``subsample`` (train, test) rows drawn from ``base_split`` with a seed derived
    from the root ``seed``."""
    import numpy as np

    from boostrank.data import formats
    from boostrank.io import read_json, save_npz, write_json

    dataset, base_split, subsample = spec.dataset, spec.base_split, spec.subsample
    published, raw_provenance = spec.published, spec.raw_provenance
    seed = derive_seed(spec.seed, TABLE_ID, dataset, "split", bits=63)
    meta = read_json(spec.meta)
    X, Y = load_multilabel(spec.npz)
    kind = meta["provenance"]["kind"]
    if base_split is not None:
        if subsample is None or len(subsample) != 2:
            raise BoostrankError(f"{dataset}: a derived split needs subsample (train, test)")
        with np.load(base_split) as base:
            tr_base, te_base = base["train"], base["test"]
        rng = np.random.default_rng(seed)
        n_tr, n_te = min(int(subsample[0]), len(tr_base)), min(int(subsample[1]), len(te_base))
        train = np.sort(rng.choice(tr_base, n_tr, replace=False))
        test = np.sort(rng.choice(te_base, n_te, replace=False))
        how = (
            f"derived from {source_dataset(dataset)}: {n_tr} training and {n_te} test rows "
            f"drawn (seed {seed}) from its training and test parts"
        )
    elif kind == "synthetic":
        if not published or len(published) != 2:
            raise BoostrankError(f"{dataset}: a stand-in needs the published (train, test) sizes")
        n_tr = round(len(X) * published[0] / (published[0] + published[1]))
        train, test = np.arange(n_tr), np.arange(n_tr, len(X))
        how = (
            f"synthetic stand-in split in the published proportions {published[0]}/"
            f"{published[1]}: first {n_tr} rows for training"
        )
    else:
        if raw_provenance is None:
            raise BoostrankError(f"{dataset}: a real copy's split needs the raw provenance.json")
        prov = read_json(raw_provenance)
        raw_dir = Path(raw_provenance).parent
        files = prov.get("files", {})

        def find(suffix: str) -> Path:
            for name, entry in files.items():
                if name.endswith(suffix):
                    return raw_dir / entry.get("stored_as", name)
            raise BoostrankError(
                f"{dataset}: {raw_provenance} lists no '*{suffix}' file; the published split "
                "needs MULAN's train/test ARFF files (see config/datasets.yaml)"
            )

        xml = find(".xml")
        X_tr, Y_tr, _, _ = formats.read_arff_multilabel(find("-train.arff"), xml)
        _, Y_te, _, _ = formats.read_arff_multilabel(find("-test.arff"), xml)
        train = np.sort(_match_rows(X.astype(np.float32), Y, X_tr, Y_tr, f"{dataset} train"))
        test = np.setdiff1d(np.arange(len(X)), train)
        if len(test) != len(Y_te):
            raise BoostrankError(
                f"{dataset}: {len(train)} training rows matched leave {len(test)} rows, but "
                f"the test ARFF has {len(Y_te)}"
            )
        how = f"MULAN's published split: {len(train)} rows of the train ARFF matched one to one"
    save_npz(spec.out, train=train.astype(np.int64), test=test.astype(np.int64))
    info = {
        "dataset": dataset,
        "source_dataset": meta["dataset"],
        "train": len(train),
        "test": len(test),
        "how": how,
        "data_kind": kind,
        "provenance": meta["provenance_line"],
    }
    write_json(spec.record, info)
    log.info("%s: %s", dataset, how)
    return info


# --------------------------------------------------------------------------- one run
def booster_kwargs(params: dict[str, Any], algorithm: Algorithm) -> dict[str, Any]:
    """Constructor arguments of :class:`TopkBooster` from config ``topk`` (see its keys)."""
    alpha_lr = params.get("alpha_lr", {}).get("topk" if algorithm.topk else "full")
    return {
        "n_learners": int(params["n_learners"]),
        "rho": float(params["rho"]),
        "n_swap": int(params["n_swap"]),
        "gamma": float(params["gamma"]),
        "margin": float(params["margin"]),
        "alpha_lr": None if alpha_lr is None else float(alpha_lr),
        "hedge_rate": float(params["hedge_rate"]),
        "hedge_scale": params["hedge_scale"],
        "test_expert": params["test_expert"],
        "weak": dict(params["weak"]),
    }


def train_run(spec: TrainSpec) -> dict[str, Any]:
    """Train one booster on a data set's training part (one pass, or ``params['loops']``
    passes under top-k feedback) and record: the test loss after each checkpoint pass and at
    the end, the training rounds' losses averaged per ``params['window']`` rounds, timings."""
    import numpy as np

    from boostrank.io import read_json, write_json
    from boostrank.online.rank_loss import weighted_rank_loss
    from boostrank.online.topk_boosting import TopkBooster

    dataset, k, seed_index, params = spec.dataset, spec.k, spec.seed_index, spec.params
    root_seed = spec.seed
    algorithm = get_algorithm(spec.algorithm)
    meta = read_json(spec.meta)
    X, Y = load_multilabel(spec.npz)
    with np.load(spec.split) as parts:
        train, test = parts["train"], parts["test"]
    X_tr, Y_tr, X_te, Y_te = X[train], Y[train], X[test], Y[test]
    if params.get("standardize", True):
        mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0)
        sd[sd == 0] = 1.0
        X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd
    m = Y.shape[1]
    loops = int(params["loops"]) if algorithm.topk else 1
    order_seed = derive_seed(root_seed, TABLE_ID, dataset, "order", seed_index, bits=63)
    booster_seed = derive_seed(root_seed, TABLE_ID, dataset, algorithm.key, k, seed_index, bits=63)
    booster = TopkBooster(
        X.shape[1],
        m,
        algorithm=algorithm.booster,
        k=k if algorithm.topk else None,
        random_state=booster_seed,
        **booster_kwargs(params, algorithm),
    )
    order_rng = np.random.default_rng(order_seed)
    shuffle = bool(params.get("shuffle", True))
    checkpoints = sorted(
        {int(c) for c in params.get("checkpoints", []) if int(c) <= loops} | {loops}
    )
    window = int(params.get("window", 100))
    losses, at_checkpoint, entropy = [], {}, {}
    started = time.perf_counter()
    for loop in range(1, loops + 1):
        order = order_rng.permutation(len(train)) if shuffle else np.arange(len(train))
        losses.append(booster.fit_stream(X_tr, Y_tr, order))
        if loop in checkpoints:
            scores = booster.decision_scores(X_te)
            at_checkpoint[loop] = float(weighted_rank_loss(scores, Y_te).mean())
            p = booster.expert_weights()  # Hedge's distribution (one-hot for BBM)
            p = p[p > 0]
            entropy[loop] = round(float(-(p * np.log2(p)).sum()), 6)  # bits; log2(N) uniform
    seconds = time.perf_counter() - started
    rounds = np.concatenate(losses)
    n_win = len(rounds) // window
    curve = rounds[: n_win * window].reshape(n_win, window).mean(axis=1)
    record = {
        "table": TABLE_ID,
        "dataset": dataset,
        "dataset_file": meta["dataset"],
        "algorithm": algorithm.label,
        "algorithm_id": algorithm.key,
        "algorithm_name": algorithm.name,
        "k": k if algorithm.topk else m,
        "feedback": "top-k" if algorithm.topk else "full",
        "labels": m,
        "seed_index": seed_index,
        "seed": booster_seed,
        "order_seed": order_seed,
        "loops": loops,
        "rows": {"train": len(train), "test": len(test)},
        "rounds": len(rounds),
        "explored_rounds": int(booster.explored),
        "test_loss": at_checkpoint[loops],
        "test_loss_at_loop": {str(c): v for c, v in at_checkpoint.items()},
        "expert_entropy_at_loop": {str(c): v for c, v in entropy.items()},
        "train_loss_last_pass": float(losses[-1].mean()),
        "window": window,
        "curve": [round(float(v), 6) for v in curve],
        "alpha": [round(float(a), 6) for a in booster.alpha],
        "params": booster_kwargs(params, algorithm),
        "data_kind": meta["provenance"]["kind"],
        "provenance": meta["provenance_line"],
    }
    write_json(spec.out, record)
    log.info(
        "%s on %s (k=%s, seed %d): %d rounds in %.1f s (%.0f us/round), test loss %.4f",
        algorithm.name,
        dataset,
        record["k"],
        seed_index,
        len(rounds),
        seconds,
        1e6 * seconds / max(1, len(rounds)),
        record["test_loss"],
    )
    return record


__all__ = [
    "booster_kwargs",
    "load_multilabel",
    "make_split",
    "train_run",
]
