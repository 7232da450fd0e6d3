"""Sengupta (2018), *Document Analysis*: the job results turned into the tables and the numbers
the figures draw and the claims read (pandas and numpy, and the text pipeline for the worked
pre-processing example; :mod:`.figure` draws and writes).

- Reuters-21578: Figure 4's topic counts (:mod:`.jobs` counts them) beside the published ones,
  and the statistics of section "Dataset description" the claims read (the articles, the top
  topics' share, the non-sparsity, the worked pre-processing example: :func:`figure4_statistics`);
  what Figures 5-7 draw from their results CSVs (with the
  published values the claims hold), and the random-forest table;
- LETOR ranking: Tables 2-6 merged over the folds (means, the validation-selected configuration,
  the published values), and Tables 7 and 8 beside the report's printed values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from boostrank.errors import BoostrankError
from boostrank.experiments.docan.spec import LETOR_TABLES, NDCG_DECIMALS, SPLITS
from boostrank.guards import Guards, parse

if TYPE_CHECKING:
    import pandas as pd

    from boostrank.preprocess.reuters import ReutersDoc


@dataclass
class Table:
    """A table's tidy frame (its CSV), the frame people read (Markdown, LaTeX) and its caption."""

    tidy: pd.DataFrame
    shown: pd.DataFrame
    caption: str


# --------------------------------------------------------------------------- Figure 4


def figure4_table(
    counts: pd.DataFrame,
    provenance_path: Path | str,
    claims_path: Path | str,
    csv: Path | str,
    *,
    counting: str = "tags",
) -> pd.DataFrame:
    """Figure 4's table: the topic counts (:func:`.jobs.topic_frequency_table`) with the
    published counts beside them, and which countings equal every published count (the
    ``note`` of the first row)."""
    from boostrank.data.provenance import Provenance
    from boostrank.report.claims import load_claims, published_value

    provenance = Provenance.load(provenance_path)
    claims = load_claims(claims_path)
    table = counts.copy()
    published = [published_value(claims, str(csv), {"topic": t}, "count") for t in table["topic"]]
    table["published_count"] = ["" if p is None else p for p in published]
    with_published = table[table["published_count"] != ""]
    published_counts = with_published["published_count"].astype(int)
    alternatives = ("tags", "documents", "first_topic", "train_documents", "all_sgml_documents")
    matching = [
        name
        for name in alternatives
        if len(with_published) and (with_published[name].astype(int) == published_counts).all()
    ]
    note = (
        f"count: {counting} over the ModApte training and test documents (TOPICS=YES, "
        "LEWISSPLIT TRAIN/TEST); countings equal to every published count: "
        + (", ".join(matching) or "none")
    )
    table["data_kind"] = provenance.kind
    table["provenance"] = provenance.describe()
    table["note"] = [note if r == 1 else "" for r in table["rank"]]
    return table


# Section "Dataset description with an example on pre-processing": Figure 3's article (NEWID
# 9) is the worked example, its six printed steps named here in order.
EXAMPLE_NEWID = 9
PREPROCESSING_STEPS = (
    "raw",
    "lower_case",
    "numbers_removed",
    "punctuation_removed",
    "stop_words_removed",
    "stemmed",
)
FIG4_SUMMARY_COLUMNS = ["statistic", "dataset", "value", "units", "note", "data_kind", "provenance"]
# The corpus build's non-sparsity (boostrank.preprocess.reuters_corpus): statistic -> its key
# and which count matrix it is of.
_NON_SPARSITY = {
    "non_sparsity_train": ("train", "the training documents x their terms"),
    "non_sparsity_test_own_vocabulary": ("test_own_vocabulary", "the test documents x their terms"),
    "non_sparsity_test_shared_vocabulary": (
        "test_shared_vocabulary",
        "the test documents x the training set's terms",
    ),
}


def preprocessing_steps(body: str, settings: dict[str, Any] | None = None) -> dict[str, str]:
    """The worked example's six steps (section "Dataset description with an example on
    pre-processing", steps 1-6: the raw data, lower case, numbers removed, punctuation removed,
    stop words removed, stemmed) applied to ``body`` by the corpus's own functions
    (:mod:`boostrank.preprocess.text`, with the corpus's ``stemmer``, ``stop_words`` and
    ``min_word_length`` from ``settings``); each step's text with its words joined by one
    space (the report breaks its lines where its page did)."""
    from boostrank.preprocess import text as pipeline

    settings = settings or {}
    lower = body.lower()
    numbers = pipeline.remove_digits(lower)
    punctuation = pipeline.remove_punctuation(numbers)
    shortest = int(settings.get("min_word_length", 1))
    stop = pipeline.load_stopwords(str(settings.get("stop_words", "snowball")))
    words = [w for w in pipeline.remove_stopwords(punctuation.split(), stop) if len(w) >= shortest]
    stems = pipeline.stem_tokens(words, str(settings.get("stemmer", pipeline.PORTER_MODE)))
    texts = (body, lower, numbers, punctuation, " ".join(words), " ".join(stems))
    return {step: " ".join(t.split()) for step, t in zip(PREPROCESSING_STEPS, texts, strict=True)}


def top_topics_share(counts: Iterable[Any], top_n: int) -> float:
    """The share of Figure 4's topic frequencies (one count per ModApte topic) that the
    ``top_n`` most frequent topics hold: "most of the data is present in the first few
    topics. So heuristically top 10 topics were taken" (section "Dataset description")."""
    ordered = sorted((int(c) for c in counts), reverse=True)
    if sum(ordered) <= 0:
        raise BoostrankError("Figure 4 has no topic frequencies to share out")
    return sum(ordered[:top_n]) / sum(ordered)


def figure4_statistics(
    table: pd.DataFrame,
    docs: Sequence[ReutersDoc],
    meta: dict[str, Any],
    *,
    top_n: int,
    counting: str,
    provenance_path: Path | str,
) -> pd.DataFrame:
    """The numbers section "Dataset description" states about the data (the claims' rows of
    ``results/docan-fig4_summary.csv``): how many articles the SGML files hold ("It contains
    21578 news articles"); the top ``top_n`` topics' share of Figure 4's frequencies
    (:func:`top_topics_share` of ``table``, :func:`figure4_table`, whose ``count`` is the
    ``counting`` named); the corpus build's non-sparsity (``meta``, the sidecar of
    :mod:`boostrank.preprocess.reuters_corpus`: nonzero cells over all cells of a documents x
    terms count matrix; "the training set had a non-sparsity of around 0.27% while the testing
    had around 0.41%"); and the worked example's six steps on Figure 3's article
    (:func:`preprocessing_steps`; empty when NEWID 9 is not among ``docs``)."""
    import pandas as pd

    from boostrank.data.provenance import Provenance

    share = round(top_topics_share(table["count"], top_n), 6)
    rows: list[tuple[str, Any, str, str]] = [
        ("sgml_records", len(docs), "REUTERS elements", "the <REUTERS> elements of the SGML files"),
        (
            "top_topics_share",
            share,
            "topic frequencies",
            f"the {top_n} most frequent of the {len(table)} ModApte topics' share of all their "
            f"frequencies (Figure 4's counting: {counting})",
        ),
    ]
    for statistic, (key, matrix) in _NON_SPARSITY.items():
        value = round(meta["stats"]["non_sparsity"][key], 8)
        rows.append((statistic, value, "cells", f"nonzero / all cells of {matrix} counts"))
    example = next((d for d in docs if d.newid == EXAMPLE_NEWID), None)
    steps = preprocessing_steps(example.body, meta["settings"]) if example else {}
    for n, step in enumerate(PREPROCESSING_STEPS, start=1):
        note = f"step {n} of the worked example, the BODY of NEWID {EXAMPLE_NEWID}"
        if not steps:
            note = f"NEWID {EXAMPLE_NEWID} is not in the SGML files"
        rows.append((f"preprocessing_{step}", steps.get(step, ""), "words", note))
    provenance = Provenance.load(provenance_path)
    frame = pd.DataFrame(rows, columns=["statistic", "value", "units", "note"])
    frame = frame.assign(dataset=meta["dataset"], data_kind=provenance.kind)
    frame["provenance"] = provenance.describe()
    return frame[FIG4_SUMMARY_COLUMNS]


# --------------------------------------------------------------------------- Figure 5


def _claim_band(
    claims_path: Path | str, csv: str, row: dict[str, Any], column: str
) -> tuple[float, float] | None:
    """(low, high): the published value of the claim reading ``row``/``column`` with its
    absolute tolerance, or None."""
    from boostrank.report.claims import find_claim, load_claims

    claim = find_claim(load_claims(claims_path), csv, row, column)
    if claim is None or claim.rule.get("type") != "abs":
        return None
    tol = float(claim.rule["tol"])
    return float(claim.published) - tol, float(claim.published) + tol


@dataclass
class Figure5:
    """What Figure 5 draws: the WSS curve and its two elbows, the published elbow band, and
    the mixture's information criteria."""

    ks: np.ndarray
    wss: np.ndarray
    knee: int  # Kneedle's elbow
    second: int  # the largest second difference
    band: tuple[float, float] | None  # (low, high) of the published elbow, if a claim gives one
    criteria: dict[str, tuple[np.ndarray, np.ndarray]]  # gmm_aic, gmm_bic: (components, values)
    provenance: pd.Series


def figure5_summary(csv: Path | str, claims_path: Path | str) -> Figure5:
    """Figure 5's curves and elbows from its results CSV (the published elbow band from the
    claims)."""
    import pandas as pd

    table = pd.read_csv(csv, dtype={"k": str}, keep_default_na=False)

    def series(name: str) -> tuple[np.ndarray, np.ndarray]:
        part = table[table["series"] == name]
        return part["k"].astype(int).to_numpy(), part["value"].astype(float).to_numpy()

    def summary(name: str) -> int:
        return int(float(table.loc[table["series"] == name, "value"].iloc[0]))

    ks, wss = series("kmeans_wss")
    band = _claim_band(claims_path, str(csv), {"series": "kmeans_elbow"}, "value")
    return Figure5(
        ks=ks,
        wss=wss,
        knee=summary("kmeans_elbow"),
        second=summary("kmeans_elbow_second_difference"),
        band=band,
        criteria={name: series(name) for name in ("gmm_aic", "gmm_bic")},
        provenance=table["provenance"],
    )


# --------------------------------------------------------------------------- Figures 6 and 7


@dataclass
class KnnCurve:
    """What Figure 6 or 7 draws: test accuracy (%) against k, its maximum, the published one."""

    metric: str
    ks: np.ndarray
    accuracy: np.ndarray  # percent
    best_k: int
    best_accuracy: float  # percent
    published: float | None  # the published maximum (a fraction), where a claim gives a number
    provenance: pd.Series


def knn_summary(csv: Path | str, claims_path: Path | str) -> KnnCurve:
    """Figure 6 or 7's curve from its results CSV, with the published maximum where one
    exists."""
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value

    table = pd.read_csv(csv, dtype={"k": str, "best_k": str}, keep_default_na=False)
    metric = table["metric"].iloc[0]
    curve = table[table["k"] != "best"]
    ks, accuracy = curve["k"].astype(int).to_numpy(), 100 * curve["accuracy"].to_numpy()
    best_row = table[table["k"] == "best"].iloc[0]
    best_k, best_accuracy = int(best_row["best_k"]), 100 * float(best_row["accuracy"])
    published = published_value(
        load_claims(claims_path), str(csv), {"metric": metric, "k": "best"}, "accuracy"
    )
    if not isinstance(published, int | float):  # e.g. Figure 7's ordinal claim
        published = None
    return KnnCurve(
        metric=metric,
        ks=ks,
        accuracy=accuracy,
        best_k=best_k,
        best_accuracy=best_accuracy,
        published=published,
        provenance=table["provenance"],
    )


# --------------------------------------------------------------------------- random forest
_SET_NAMES = {"train": "training (resubstitution)", "oob": "training (out of bag)", "test": "test"}


def table1_frames(results_csv: Path | str, claims_path: Path | str, prefix: Path | str) -> Table:
    """The random-forest table with the published accuracies beside."""
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value
    from boostrank.report.render import beside

    tidy = pd.read_csv(results_csv, keep_default_na=False)
    claims = load_claims(claims_path)
    csv = f"{prefix}.csv"
    published = [published_value(claims, csv, {"split": s}, "accuracy") for s in tidy["split"]]
    tidy.insert(4, "published_accuracy", ["" if p is None else p for p in published])
    shown = pd.DataFrame(
        {
            "Set": [_SET_NAMES.get(s, s) for s in tidy["split"]],
            "Accuracy": [
                beside(f"{100 * float(a):.2f}%", _percent(p))
                for a, p in zip(tidy["accuracy"], tidy["published_accuracy"], strict=True)
            ],
            "Documents": tidy["documents"],
            "Data": tidy["provenance"],
        }
    )
    caption = (
        "Random forest on Reuters-21578 (ModApte, top 10 topics): accuracy "
        "(reproduced; published in parentheses)"
    )
    return Table(tidy, shown, caption)


def merge_forest_replicates(
    csvs: Sequence[Path | str], samples: Sequence[Path | str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The random forest's accuracies over its replicates (one forest per seed, from
    :func:`.jobs.random_forest_accuracy`): each split's mean accuracy, and per document the
    share of the forests that classified it right (its ``oob`` share over the forests that
    left it out of their bootstrap), the claims' units. One replicate is copied unchanged."""
    import pandas as pd

    tables = [pd.read_csv(path, keep_default_na=False) for path in csvs]
    units = [pd.read_csv(path, keep_default_na=False) for path in samples]
    if len(tables) != len(units) or not tables:
        raise BoostrankError("the forest merge needs one samples file per results file")
    table = tables[0].copy()
    if len(tables) > 1:
        accuracy = pd.concat([t["accuracy"] for t in tables], axis=1).mean(axis=1)
        table["accuracy"] = accuracy.round(6)
        first = table.index[0]
        table.loc[first, "note"] = (
            f"{table.loc[first, 'note']}; mean over {len(tables)} forests (replicate seeds)"
        )
    keys = [c for c in units[0].columns if c != "value"]
    merged = pd.concat(units, ignore_index=True).groupby(keys, sort=False)["value"].mean()
    return table, merged.round(6).reset_index()


def _percent(value: str | float | None) -> str | None:
    return None if value in ("", None) else f"{100 * float(value):.2f}%"


# --------------------------------------------------------------------------- Tables 2-6: merge
FORMULA_NAMES = {
    "report": "the report's formula (discount 1/log2(1 + position))",
    "letor": "LETOR 4.0's evaluation script",
}
FOLD_ROLE_NAMES = {
    "printed": "as the report's table prints them (Fold1 tests on S4, validates on S5)",
    "letor": "as LETOR 4.0 distributes them (Fold1 validates on S4, tests on S5)",
}


def _round(value: float) -> float:
    """Six decimals: the CSVs stay identical across BLAS builds' last-bit differences."""
    return round(float(value), NDCG_DECIMALS)


def _fmt(value: Any) -> str:
    return "" if value is None or value == "" else f"{float(value):.5f}"


NDCG_COLUMNS = ("_ndcg10", "_ndcg10_report_formula", "_ndcg10_letor_formula")


def _summed_guards(cells: Iterable[Any]) -> str:
    """The guard counts of several rows (:func:`boostrank.guards.parse`), summed, as text."""
    summed = Guards()
    for cell in cells:
        summed.add(parse(cell))
    return summed.text()


def merge_frames(table: str, inputs: list[str], claims_path: str, prefix: Path | str) -> Table:
    """Per-fold rows, their means over the folds, the validation-selected configuration and the
    report's published values (the table ``<prefix>.csv/.md/.tex``)."""
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value
    from boostrank.report.render import beside

    folds = pd.concat(
        [pd.read_csv(p, keep_default_na=False, dtype={"fold": str}) for p in inputs],
        ignore_index=True,
    )
    k_cols = [c for c in folds.columns if c.endswith(NDCG_COLUMNS)]
    formula = str(folds["ndcg_formula"].iloc[0]) if "ndcg_formula" in folds else "letor"
    other = "letor" if formula == "report" else "report"
    csv = f"{prefix}.csv"
    claims = load_claims(claims_path)
    config_cols = [c for c in folds.columns if c not in {"fold", *k_cols}]
    means = []
    for config, group in folds.groupby("config", sort=False):
        row = {c: group[c].iloc[0] for c in config_cols}
        for col in folds.columns:
            if col in k_cols or col in (
                "trees_kept",
                "rounds_trained",
                "pairs",
                "svm_iterations",
                "final_train_loss",
            ):
                row[col] = _round(pd.to_numeric(group[col]).mean())
        if "converged" in group:
            row["converged"] = bool(group["converged"].astype(str).eq("True").all())
        if "guards" in group:  # the folds' guard counts, summed
            row["guards"] = _summed_guards(group["guards"])
        row["test_ndcg10_sd"] = (
            _round(pd.to_numeric(group["test_ndcg10"]).std(ddof=1)) if len(group) > 1 else None
        )
        row.update(fold="mean", n_folds=len(group))
        where = {"config": config, "fold": "mean"}
        for split in SPLITS:  # the printed table's cells are claims (config/claims.yaml)
            row[f"published_{split}_ndcg10"] = published_value(
                claims, csv, where, f"{split}_ndcg10"
            )
        row["claimed"] = row["published_test_ndcg10"] is not None
        means.append(row)
    mean_frame = pd.DataFrame(means)
    best_row = mean_frame.loc[mean_frame["validation_ndcg10"].astype(float).idxmax()]
    best = cast("pd.Series", best_row).copy()  # idxmax names one row
    best["fold"] = "selected"
    tidy = pd.concat([folds.assign(n_folds=1), mean_frame, best.to_frame().T], ignore_index=True)
    lead = ["table", "config", "fold", "n_folds"]
    tidy = tidy[lead + [c for c in tidy.columns if c not in lead]]
    label = str(folds["dataset_label"].iloc[0])
    n_folds = int(mean_frame["n_folds"].max())
    shown = pd.DataFrame(
        {
            "Configuration": mean_frame["config"]
            + np.where(mean_frame["config"] == best["config"], " [selected]", ""),
            **{
                f"{split.capitalize()} NDCG@10": [
                    beside(_fmt(r[f"{split}_ndcg10"]), _fmt(r[f"published_{split}_ndcg10"]))
                    for r in means
                ]
                for split in SPLITS
            },
            "Test sd over folds": [_fmt(r["test_ndcg10_sd"]) for r in means],
            f"Test NDCG@10, {FORMULA_NAMES[other]}": [
                _fmt(r[f"test_ndcg10_{other}_formula"]) for r in means
            ],
        }
    )
    title = LETOR_TABLES[table][1]
    roles = str(folds["fold_roles"].iloc[0]) if "fold_roles" in folds else "letor"
    caption = (
        f"{title} (Sengupta 2018), mean over {n_folds} LETOR fold(s) on {label}; NDCG@10 of "
        f"{FORMULA_NAMES[formula]}; folds {FOLD_ROLE_NAMES[roles]}; published values (MQ2007) "
        f"in parentheses. [selected]: best validation NDCG@10. "
        f"Data: {folds['provenance'].iloc[0]}"
    )
    return Table(tidy, shown, caption)


# --------------------------------------------------------------------------- Table 7: the toy
def toy_table(tidy: pd.DataFrame, claims_path: str, prefix: Path | str) -> Table:
    """Table 7: the toy models' rankings and NDCG on query 4 (``jobs_ranking.run_toy``),
    beside the report's."""
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value
    from boostrank.report.render import beside

    csv = f"{prefix}.csv"
    claims = load_claims(claims_path)
    published = [
        published_value(claims, csv, {"model": key}, "ndcg_all_report_formula")
        for key in tidy["model"]
    ]
    tidy = tidy.copy()
    tidy.insert(
        cast("int", tidy.columns.get_loc("data_kind")),
        "published_ndcg_all_report_formula",
        published,
    )
    shown = pd.DataFrame(
        {
            "Model": tidy["method"] + " (" + tidy["source"] + ")",
            "Detail": tidy["detail"],
            "Ranking of Q4": tidy["ranking"] + " (labels " + tidy["labels_in_ranked_order"] + ")",
            "NDCG, report's formula": [
                beside(f"{v:.4f}", "" if pd.isna(p) else f"{p:.4f}")
                for v, p in zip(
                    tidy["ndcg_all_report_formula"],
                    tidy["published_ndcg_all_report_formula"],
                    strict=True,
                )
            ],
            "NDCG, LETOR's formula": tidy["ndcg_all_letor_formula"].map("{:.4f}".format),
        }
    )
    caption = (
        "Table 7: the toy example of Sengupta (2018): queries 1-3 train, query 4 tests; "
        "NDCG over all 5 documents of query 4 (published in parentheses)"
    )
    return Table(tidy, shown, caption)


# --------------------------------------------------------------------------- Table 8: the demo
def demo_table(tidy: pd.DataFrame, claims_path: str, prefix: Path | str) -> Table:
    """Table 8: Kendall tau per block and model (``jobs_ranking.run_demo``), beside the
    report's."""
    import pandas as pd

    from boostrank.report.claims import load_claims, published_value
    from boostrank.report.render import beside

    csv = f"{prefix}.csv"
    claims = load_claims(claims_path)
    published = [
        published_value(claims, csv, {"method": key, "block": int(block)}, "kendall_tau")
        for key, block in zip(tidy["method"], tidy["block"], strict=True)
    ]
    tidy = tidy.copy()
    tidy.insert(cast("int", tidy.columns.get_loc("label")), "published_kendall_tau", published)
    shown = pd.DataFrame(
        {
            "Model": tidy["label"],
            "Block": tidy["block"].map({0: "0 (triangles)", 1: "1 (circles)"}),
            "Kendall tau": [
                beside(f"{v:.5f}", "" if pd.isna(p) else f"{p:.5f}")
                for v, p in zip(tidy["kendall_tau"], tidy["published_kendall_tau"], strict=True)
            ],
            "(P-Q)/(P+Q)": tidy["p_minus_q_over_p_plus_q"].map("{:.5f}".format),
            "Test samples": tidy["test_samples"],
        }
    )
    caption = (
        "Table 8: the 2-D pairwise-transform demo of Sengupta (2018): Kendall tau "
        "(scipy's tau-b) per block on the test half (published in parentheses)"
    )
    return Table(tidy, shown, caption)


__all__ = [
    "EXAMPLE_NEWID",
    "FIG4_SUMMARY_COLUMNS",
    "PREPROCESSING_STEPS",
    "Figure5",
    "KnnCurve",
    "Table",
    "demo_table",
    "figure4_statistics",
    "figure4_table",
    "figure5_summary",
    "knn_summary",
    "merge_forest_replicates",
    "merge_frames",
    "table1_frames",
    "toy_table",
]
