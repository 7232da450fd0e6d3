"""The run jobs of Figures 2.1-2.3 (Valizadegan 2010, section 2.4): one method on one data
set for a block of repeats and every setting of a figure, one CSV row per run.

Protocol (section 2.4.1), as implemented:

- Data: ``data/processed/<name>.npz``. MNIST is its 10,000-image test set, as the dissertation
  used. Where the processed arrays hold more rows than the training set Table 1.1 counts
  (Letter 20,000 vs 15,000; Pendigits 10,992 vs 7,495; Optdigits 5,620 vs 3,823: the embedded
  copies merge the train and test files), a stratified subset of the published size is drawn
  once per data set (config ``chapter2.rows``, seeded; null keeps every row). Nursery arrives
  with the two-row class "recommend" already dropped (as section 1.6.1 did): 12,958 rows of 4
  classes (Table 1.1's "3" is the erratum recorded for that table). Isolet and Protein have no
  resolvable source here: their synthetic stand-ins are labelled "[synthetic stand-in]" and
  their claims are NOT-COMPARABLE.
- Each repeat draws five stratified partitions (:func:`stratified_parts`): one trains, the
  other four test. A class with fewer rows than partitions lands in some partitions only (its
  rows are dealt one per partition from a random start); a class absent from the training
  partition can be neither labelled nor predicted, and its test rows count as errors.
- The labelled rows are the first ``round(f N)`` of a per-repeat order of the training
  partition, so the 2% set is inside the 4% set and so on; the rest of the partition is
  unlabelled (``y = -1``). Section 2.4.1 uses "a small percentage (between 2 to 10 percent) of
  training instances as labeled examples", with no word on classes: config
  ``chapter2.labelled_sample: random`` (default) takes a plain random order, so a class may
  have no labelled row (each run records them in ``missing_classes``); ``stratified``
  (:func:`labelled_order`) puts one row of every class present first, then the rest
  stratified (at least as many labelled rows as classes). Partitions and labelled sets depend
  on (data set, repeat) only, so every method sees the same ones.
- Methods (:data:`.spec.METHODS`): Tree (labelled rows only), ASSEMBLE, MCSSB (Gaussian S),
  MCSSB-Uniform, MCSSB-Absolute; T = 50, C = 10^4, trees of depth 2 unless the figure varies
  them; constructor arguments from config ``chapter2.methods``.
- Error: the fraction of misclassified rows of the four test partitions, averaged over the
  repeats (10 in the full protocol).
- Figure 2.2 varies C at 2% labelled; Figure 2.3 varies the depth at 2% labelled from 1 (a
  stump) to the fully grown tree. The fully grown depth of a data set is measured per repeat
  as the depth of an unrestricted tree on the whole training partition with its true labels;
  grid depths at or beyond it are skipped (they would repeat the fully grown tree), and the
  fully grown point (``depth = full``, no limit) is drawn at the mean measured depth.
- Jobs: one per (figure, data set, method, block of repeats), looping over its repeats and the
  figure's settings; the Gaussian S of a repeat is computed once and shared by its settings.
  Every seed derives from (data set, repeat) (and the method and setting for the model), so
  the blocks' CSVs, read in repeat order, hold the rows of one job over all the repeats.
  Figure 2.2's C = 10^4 and Figure 2.3's depth 2 are Figure 2.1's 2% runs, read from there.
- Seeds derive from config ``seed`` (:func:`boostrank.seeds.derive_seed`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.experiments.chapter2.spec import (
    DEFAULT_C,
    LABELLED_SAMPLES,
    SEED_KEY,
    Method,
    RunSpec,
    get_method,
)
from boostrank.experiments.common import classification_label
from boostrank.guards import Guards
from boostrank.seeds import derive_seed

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

log = logging.getLogger(__name__)


def parse_depth(depth: str | int | None) -> int | None:
    """``"full"`` (or None) -> None (no limit), else a positive int."""
    if depth is None or str(depth) == "full":
        return None
    value = int(depth)
    if value < 1:
        raise BoostrankError(f"tree depth must be >= 1 or 'full', got {depth}")
    return value


# --------------------------------------------------------------------------- partitions
def stratified_parts(y: np.ndarray, n_parts: int, seed: int) -> np.ndarray:
    """Part 0..n_parts-1 of each row: each class's rows, shuffled, are dealt round-robin from a
    random starting part, so part sizes per class differ by at most one and a class with fewer
    rows than parts appears in some parts only."""
    import numpy as np

    rng = np.random.default_rng(seed)
    order = np.lexsort((rng.random(len(y)), y))  # by class, shuffled within
    sorted_y = y[order]
    starts = np.searchsorted(sorted_y, sorted_y, side="left")
    rank = np.arange(len(y)) - starts
    offset = rng.integers(0, n_parts, int(y.max()) + 1)
    part = np.empty(len(y), dtype=np.int64)
    part[order] = (rank + offset[sorted_y]) % n_parts
    return part


def labelled_order(y: np.ndarray, seed: int) -> np.ndarray:
    """A permutation of the rows: one random row of each class first, then the rest
    stratified (each class's k-th row at (k + u) / n_class, u uniform), so any prefix holds
    every class once it is at least as long as the number of classes and is roughly
    proportional after that."""
    import numpy as np

    rng = np.random.default_rng(seed)
    order = np.lexsort((rng.random(len(y)), y))
    sorted_y = y[order]
    starts = np.searchsorted(sorted_y, sorted_y, side="left")
    counts = np.bincount(sorted_y)[sorted_y]
    rank = np.arange(len(y)) - starts
    key = np.where(rank == 0, -1.0 + rng.random(len(y)), (rank + rng.random(len(y))) / counts)
    return order[np.argsort(key, kind="stable")]


def labelled_rows(y: np.ndarray, seed: int, sample: str = "random") -> np.ndarray:
    """The order whose prefixes are the labelled sets: a random permutation (``random``) or
    :func:`labelled_order` (``stratified``)."""
    import numpy as np

    if sample == "random":
        return np.random.default_rng(seed).permutation(len(y))
    if sample == "stratified":
        return labelled_order(y, seed)
    raise BoostrankError(
        f"config chapter2.labelled_sample: {sample!r} is not one of {LABELLED_SAMPLES}"
    )


def n_labelled(n_train: int, fraction: float, n_classes_present: int, sample: str) -> int:
    """round(fraction N) labelled rows, at least one (``random``) or one per class present
    (``stratified``)."""
    return max(round(fraction * n_train), n_classes_present if sample == "stratified" else 1)


def subset_rows(y: np.ndarray, rows: int | None, seed: int) -> np.ndarray:
    """Indices of a stratified subset of ``rows`` rows (all rows if None or more)."""
    import numpy as np

    if rows is None or rows >= len(y):
        return np.arange(len(y))
    order = labelled_order(y, seed)
    return np.sort(order[:rows])


# --------------------------------------------------------------------------- models
def make_model(
    method: Method, params: dict[str, Any], C: float, depth: int | None, seed: int
) -> Any:
    """The estimator of ``method`` with config ``params``, C, depth and seed."""
    kwargs = dict(params)
    for forbidden in ("random_state", "depth", "C", "similarity"):
        if forbidden in kwargs:
            raise BoostrankError(
                f"config chapter2.methods.{method.key} sets {forbidden}; it is fixed by the "
                "figure's protocol (seeds derive from config 'seed')"
            )
    kwargs.update(dict(method.options))
    if method.estimator == "tree":
        from boostrank.boosting.base import TreeClassifier

        return TreeClassifier(depth=depth, random_state=seed, **kwargs)
    if method.estimator == "assemble":
        from boostrank.boosting.assemble import Assemble

        return Assemble(depth=depth, random_state=seed, **kwargs)
    from boostrank.boosting.mcssb import MCSSB

    return MCSSB(C=C, depth=depth, random_state=seed, **kwargs)


def load_data(npz: Path | str) -> tuple[np.ndarray, np.ndarray]:
    """X (float32) and y (int) of a processed classification data set."""
    import numpy as np

    with np.load(npz) as arrays:
        if not {"X", "y"} <= set(arrays.files):
            raise BoostrankError(f"{npz}: not a classification data set (needs X and y)")
        X = arrays["X"].astype(np.float32)
        y = arrays["y"].astype(np.int64)
    if X.ndim != 2 or len(X) != len(y):
        raise BoostrankError(f"{npz}: X and y do not match")
    return X, y


def fully_grown_depth(X: np.ndarray, y: np.ndarray, seed: int) -> int:
    """Depth of an unrestricted CART tree on (X, y)."""
    from sklearn.tree import DecisionTreeClassifier

    return int(DecisionTreeClassifier(random_state=seed).fit(X, y).get_depth())


# --------------------------------------------------------------------------- the job
@dataclass(frozen=True)
class _Data:
    """A run job's spec, method and rows: the data set after the row subset, its class count
    and metadata."""

    spec: RunSpec
    method: Method
    meta: dict[str, Any]
    X: np.ndarray
    y: np.ndarray
    n_classes: int


@dataclass(frozen=True)
class _Repeat:
    """One repeat's training and test partitions (section 2.4.1), the order its labelled rows
    are taken in, the classes present, the fully grown depth (when measured) and the Gaussian
    S shared by its settings (MCSSB with the Gaussian similarity only)."""

    repeat: int
    train: np.ndarray
    test: np.ndarray
    order: np.ndarray
    classes: np.ndarray
    full: int | None
    similarity: Any


def _repeat(data: _Data, repeat: int) -> _Repeat:
    """The partitions, labelled order, fully grown depth and Gaussian S of one repeat."""
    import numpy as np

    spec, method, y = data.spec, data.method, data.y
    seed, dataset = spec.seed, spec.dataset
    part = stratified_parts(
        y, spec.parts, derive_seed(seed, SEED_KEY, "partition", dataset, repeat)
    )
    train, test = np.flatnonzero(part == 0), np.flatnonzero(part != 0)
    Xtr, ytr = data.X[train], y[train]
    order = labelled_rows(
        ytr, derive_seed(seed, SEED_KEY, "labelled", dataset, repeat), spec.labelled_sample
    )
    classes = np.unique(ytr)
    measure_full = spec.figure == "thesis-fig2_3" or "full" in spec.depths
    full = (
        fully_grown_depth(Xtr, ytr, derive_seed(seed, SEED_KEY, "full", dataset, repeat))
        if measure_full
        else None
    )
    similarity = None
    if method.estimator == "mcssb" and dict(method.options)["similarity"] == "gaussian":
        probe = make_model(method, spec.params, DEFAULT_C, 2, 0)
        t0 = time.perf_counter()
        similarity = probe.make_similarity(Xtr)
        log.info(
            "repeat %d: Gaussian S of %d rows in %.2f s",
            repeat,
            len(Xtr),
            time.perf_counter() - t0,
        )
    return _Repeat(
        repeat=repeat,
        train=train,
        test=test,
        order=order,
        classes=classes,
        full=full,
        similarity=similarity,
    )


def _run(data: _Data, rep: _Repeat, fraction: float, C: float, depth: str) -> dict[str, Any]:
    """One setting's run of a repeat: its CSV row (test error, sizes, labelled classes,
    iterations, guards), or a skipped row where the depth reaches the fully grown tree."""
    import numpy as np

    spec, method, y = data.spec, data.method, data.y
    train, test, order, full = rep.train, rep.test, rep.order, rep.full
    ytr = y[train]
    n_l = n_labelled(len(train), fraction / 100.0, len(rep.classes), spec.labelled_sample)
    yy = np.full(len(train), -1, dtype=np.int64)
    yy[order[:n_l]] = ytr[order[:n_l]]
    missing = np.setdiff1d(rep.classes, yy[order[:n_l]])
    row: dict[str, Any] = {
        "figure": spec.figure,
        "dataset": spec.dataset,
        "dataset_label": classification_label(data.meta),
        "method": method.label,
        "method_id": method.key,
        "fraction": fraction,
        "C": C,
        "depth": depth,
        "repeat": rep.repeat,
        "n_rows": len(y),
        "n_train": len(train),
        "n_labelled": n_l,
        "labelled_sample": spec.labelled_sample,
        "missing_classes": ";".join(str(int(c)) for c in missing),
        "n_test": len(test),
        "full_depth": full if full is not None else "",
    }
    limit = parse_depth(depth)
    if limit is not None and full is not None and limit >= full and depth != "full":
        note = f"skipped: depth {limit} >= fully grown depth {full}"
        row.update(error="", n_iterations="", stop_reason="", note=note)
        return row
    s = derive_seed(
        spec.seed, SEED_KEY, "model", spec.dataset, method.key, rep.repeat, fraction, C, depth
    )
    model = make_model(method, spec.params, C, limit, s)
    t0 = time.perf_counter()
    if method.estimator == "mcssb":
        model.fit(data.X[train], yy, data.n_classes, similarity=rep.similarity)
    else:
        model.fit(data.X[train], yy, data.n_classes)
    fit_s = time.perf_counter() - t0
    predicted = model.predict(data.X[test])
    error = float(np.mean(predicted != y[test]))
    history = getattr(model, "history_", [])
    row.update(
        error=round(error, 6),
        n_iterations=getattr(model, "n_iterations_", 1),
        stop_reason=getattr(model, "stop_reason_", ""),
        predicted_classes=len(np.unique(predicted)),  # 1: a constant-class predictor
        labelled_argmin_own=(
            round(float(np.mean([h["labelled_argmin_own"] for h in history])), 6) if history else ""
        ),
        # the guards' firing counts of this fit (boostrank.guards; Tree has none)
        guards=Guards(getattr(model, "guards_", {})).text(),
        note="",
    )
    log.info(
        "%s %s repeat %d f=%g%% C=%g depth=%s: error %.4f, %s iterations, fit %.2f s",
        spec.dataset,
        method.label,
        rep.repeat,
        fraction,
        C,
        depth,
        error,
        row["n_iterations"],
        fit_s,
    )
    return row


def run_job(spec: RunSpec) -> pd.DataFrame:
    """Run one method on one data set for every (repeat of the block, fraction, C, depth);
    write one CSV row per run (test error, sizes, labelled classes, iterations, provenance)."""
    import pandas as pd

    from boostrank.io import read_json, write_text

    meta = read_json(spec.meta)
    X_all, y_all = load_data(spec.npz)
    keep = subset_rows(y_all, spec.rows, derive_seed(spec.seed, SEED_KEY, "rows", spec.dataset))
    n_classes = int(y_all.max()) + 1
    method = get_method(spec.method)
    data = _Data(spec, method, meta, X=X_all[keep], y=y_all[keep], n_classes=n_classes)
    settings = [
        (float(f), float(c), str(d)) for f in spec.fractions for c in spec.C for d in spec.depths
    ]
    records: list[dict[str, Any]] = []
    started = time.perf_counter()
    last = spec.first_repeat + spec.repeats - 1
    for repeat in range(spec.first_repeat, last + 1):
        rep = _repeat(data, repeat)
        records.extend(_run(data, rep, fraction, C, depth) for fraction, C, depth in settings)
    table = pd.DataFrame(records)
    table["data_kind"] = meta["provenance"]["kind"]
    table["provenance"] = meta["provenance_line"]
    write_text(spec.out, table.to_csv(index=False))
    log.info(
        "%s %s %s repeats %d-%d: %d runs in %.1f s",
        spec.figure,
        spec.dataset,
        method.label,
        spec.first_repeat,
        last,
        len(records),
        time.perf_counter() - started,
    )
    return table


__all__ = [
    "fully_grown_depth",
    "labelled_order",
    "labelled_rows",
    "load_data",
    "make_model",
    "n_labelled",
    "parse_depth",
    "run_job",
    "stratified_parts",
    "subset_rows",
]
