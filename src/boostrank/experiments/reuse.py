"""Each distinct job once across make readings' variants (docs/readings-reuse.md).

Every variant of ``make readings`` is the whole workflow under its own root
(``results/readings/<variant>/``), so a job whose parameters a reading does not touch would
be run once per variant: Figure 3.1's training jobs, the heaviest, once per reading of any
chapter. A job's *computation* is its parameter object (:class:`boostrank.experiments.job.
JobSpec`) built with the paths it reads relative to its variant's root and its output paths
left out (they follow from its wildcards, already in the spec), plus the config that makes its
inputs (:data:`UPSTREAM`); the code is the same for every variant of a run. Two variants
whose jobs have the same computation get the same bytes, so the later variant reads the files
of the first (its *owner*, ``default`` first): :func:`owners` says which, per folder of files,
and ``workflow/readings.smk`` hands each variant its share as config ``readings.reuse``
(``{path prefix: owner's root}``), which the rules' ``reused()`` (workflow/rules/common.smk)
applies to the paths they read. The owner's own job writes the files, so they are what the
variant's job would have written, byte for byte; the variant has no job for them at all (a dry
run lists none).

Only the kinds in :data:`KINDS` are shared: the processed data sets (``prepare``, one job
per data set), Figure 3.1's training jobs (``chapter3_train``,
one folder per (data set, algorithm), all its replicates and folds) and qrels
(``chapter3_qrels``, one job per data set), Chapter 2's run jobs
(``chapter2_run``, one file per block of repeats) and the top-k training runs (``topk_train``,
one record each, keyed with the split it trains on). This module is the workflow's, not a
job's: no job imports it, so editing it reruns nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

from boostrank.report.roots import ROOT, ROOTS

# The config outside a work's section that makes a job's inputs (the processed data sets):
# the registry (what each data set is) and the stand-ins' size. The seed and the processed
# file's name (letor.ohsumed_features, the letor section's one key) are in the spec itself;
# where the data are found (data.mirror, sources) is not what they are.
UPSTREAM = ("registry", "data.synthetic_scale")


def ranking_name(config: Mapping[str, Any], dataset: str) -> str:
    """The processed data set a ranking experiment reads for ``dataset``: OHSUMED comes rebuilt
    from Meta/ (``ohsumed_rebuilt``) when config ``letor.ohsumed_features`` is ``rebuilt``."""
    choice = config.get("letor", {}).get("ohsumed_features", "distributed")
    return "ohsumed_rebuilt" if dataset == "ohsumed" and choice == "rebuilt" else dataset


def upstream(config: Mapping[str, Any]) -> dict[str, Any]:
    """The values of :data:`UPSTREAM` in ``config`` (a missing key as None)."""
    out: dict[str, Any] = {}
    for key in UPSTREAM:
        node: Any = config
        for part in key.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        out[key] = node
    return out


def _computation(specs: list[Any], config: Mapping[str, Any], data_seed: bool = False) -> str:
    """A short digest of a job's computation: its specs (outputs blanked) and :data:`UPSTREAM`
    (``data_seed``: the spec has no seed, but its input, a stand-in, is drawn with it)."""
    made = {**upstream(config), **({"seed": config["seed"]} if data_seed else {})}
    text = json.dumps([[spec.to_json() for spec in specs], made], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _files(name: str) -> SimpleNamespace:
    """A processed data set's files, relative to a variant's root."""
    return SimpleNamespace(npz=f"data/processed/{name}.npz", meta=f"data/processed/{name}.json")


def prepare(config: Mapping[str, Any], reader: Mapping[str, Any]) -> dict[str, str | None]:
    """Every registry data set's processed files (``data/processed/<name>.npz`` and ``.json``,
    one prepare job): made from the fetched files (shared by every variant), the registry, the
    stand-ins' size and the seed a stand-in is drawn with, whatever the reader's sections."""
    from boostrank.data.registry import load_registry

    digest = _computation([], config, data_seed=True)
    return {f"data/processed/{name}.": digest for name in load_registry(config["registry"])}


def chapter3_train(config: Mapping[str, Any], reader: Mapping[str, Any]) -> dict[str, str | None]:
    """Figure 3.1's training jobs by folder (``results/runs/thesis-fig3_1/<data set>/<algorithm>/``,
    every replicate and fold in it): the computation under ``config`` of the jobs ``reader``
    (a variant's config) reads there, on its folds; None where ``config``'s rule cannot make
    them all (the data set, the algorithm or a fold not configured). A replicate is a wildcard
    only (its seed is derived from it in the job), so replicate 1's spec stands for all."""
    from boostrank.experiments.chapter3 import spec as ch3

    section, folds = config["chapter3"], reader["chapter3"]["folds"]
    algorithms = ch3.configured(section)
    out: dict[str, str | None] = {}
    for dataset in ch3.DATASETS:
        for algorithm in ch3.BY_KEY:
            folder = f"{ch3.RUNS}/{dataset}/{algorithm}/"
            out[folder] = None
            if (
                dataset not in section["datasets"]
                or algorithm not in algorithms
                or not set(folds) <= set(section["folds"])
            ):
                continue
            files = _files(ranking_name(config, dataset))
            specs = [
                ch3.train_spec(
                    dict(config),
                    SimpleNamespace(
                        dataset=dataset, algorithm=algorithm, replicate="1", fold=str(fold)
                    ),
                    files,
                    SimpleNamespace(run="", record=""),  # outputs: where, not what
                )
                for fold in folds
            ]
            out[folder] = _computation(specs, config)
    return out


def chapter3_qrels(config: Mapping[str, Any], reader: Mapping[str, Any]) -> dict[str, str | None]:
    """Figure 3.1's qrels by data set (``results/runs/thesis-fig3_1/<data set>/fold*.qrels``,
    one job writes every fold's): their computation under ``config``, None where ``config``'s
    rule cannot make them (the data set not configured). The folds are in the spec, so a
    variant with other folds computes its own."""
    from boostrank.experiments.chapter3 import spec as ch3

    section = config["chapter3"]
    out: dict[str, str | None] = {}
    for dataset in reader["chapter3"]["datasets"]:
        prefix = f"{ch3.RUNS}/{dataset}/fold"
        out[prefix] = None
        if dataset in section["datasets"]:
            files = _files(ranking_name(config, dataset))
            wildcards = SimpleNamespace(dataset=dataset)
            # the outputs relative to a variant's root: the same paths in every variant
            written = [ch3.QRELS_FILE.format(dataset=dataset, fold=f) for f in section["folds"]]
            spec = ch3.qrels_spec(dict(config), wildcards, files, SimpleNamespace(qrels=written))
            out[prefix] = _computation([spec], config, data_seed=True)
    return out


def chapter2_run(config: Mapping[str, Any], reader: Mapping[str, Any]) -> dict[str, str | None]:
    """Chapter 2's run jobs by file (``results/chapter2/<figure>/<data set>/<method>/
    repeats<a>-<b>.csv``, one block of repeats each) that ``reader`` reads: their computation
    under ``config``, None where ``config``'s rule cannot make the file (the data set or the
    block of repeats not configured)."""
    from boostrank.experiments.chapter2 import spec as ch2

    section, mine = config["chapter2"], reader["chapter2"]
    blocks = ch2.repeat_blocks(section)
    out: dict[str, str | None] = {}
    for figure in ch2.FIGURES:
        for dataset in mine["datasets"]:
            for method in ch2.BY_KEY:
                for block in ch2.repeat_blocks(mine):
                    path = ch2.run_file(figure, dataset, method, block)
                    out[path] = None
                    if dataset not in section["datasets"] or block not in blocks:
                        continue
                    wildcards = SimpleNamespace(
                        figure=figure, dataset=dataset, method=method, block=block
                    )
                    spec = ch2.run_spec(dict(config), wildcards, _files(dataset), _NO_CSV)
                    out[path] = _computation([spec], config)
    return out


_NO_CSV = SimpleNamespace(csv="")  # a run job's output: where, not what


def topk_train(config: Mapping[str, Any], reader: Mapping[str, Any]) -> dict[str, str | None]:
    """The top-k training runs by record (``results/topk/runs/<data set>/<algorithm>/k<k>/
    seed<i>.json``) that ``reader``'s Table 1 and Figure 2 read: their computation under
    ``config`` with that of the split they train on (rule topk_split, and for a derived data
    set its base split), None where ``config``'s rules cannot make the record (its k is
    neither full information, config topk.k, nor one of Figure 2's on its data set)."""
    from boostrank.experiments.topk import spec as tk

    section = config["topk"]
    fig2 = section["fig2"]
    out: dict[str, str | None] = {}
    for path in [*tk.table1_runs(dict(reader)), *tk.figure2_runs(dict(reader))]:
        dataset, algorithm, k, seed = _topk_wildcards(path, tk.RESULTS_DIR)
        out[path] = None
        table = k in ("full", str(section["k"]))
        figure = (
            dataset == fig2["dataset"]
            and algorithm == "topopt"
            and k in {str(x) for x in tk.figure2_extra_k(dict(config))}
        )
        if not (table or figure):
            continue
        wildcards = SimpleNamespace(dataset=dataset, algorithm=algorithm, k=k, seed=seed)
        source = _files(tk.source_dataset(dataset))
        train = SimpleNamespace(**vars(source), split=tk.split_file(dataset, ".npz"))
        specs: list[Any] = [
            tk.train_spec(dict(config), wildcards, train, SimpleNamespace(record=""))
        ]
        for name in [dataset, *([tk.DERIVED[dataset]] if dataset in tk.DERIVED else [])]:
            files = _files(tk.source_dataset(name))
            split = SimpleNamespace(**vars(files), raw="", base=tk.base_split(name))
            blank = SimpleNamespace(npz="", record="")
            specs.append(tk.split_spec(dict(config), SimpleNamespace(dataset=name), split, blank))
        out[path] = _computation(specs, config)
    return out


def _topk_wildcards(path: str, root: str) -> tuple[str, str, str, str]:
    """(data set, algorithm, k, seed) of a top-k run record's path (topk.spec.run_record)."""
    dataset, algorithm, k, seed = path.removeprefix(f"{root}/runs/").split("/")
    return dataset, algorithm, k.removeprefix("k"), seed.removeprefix("seed").removesuffix(".json")


# The job kinds whose files a variant may read from an earlier variant: the config its jobs'
# specs read (its builder is given only these keys, so a spec that reads another one fails
# loudly instead of being keyed short), its computations, and what of the reading variant's
# config decides which files it reads and how (most variants share both, so both are memo keys).
_MADE_BY = ("seed", "registry", "data")  # the seed, and what makes the processed data (UPSTREAM)
KINDS: dict[
    str, tuple[tuple[str, ...], Callable[..., dict[str, str | None]], Callable[..., Any]]
] = {
    "prepare": (("registry", "seed", "data"), prepare, lambda c: None),
    "chapter3_train": (
        ("chapter3", "letor", *_MADE_BY),
        chapter3_train,
        lambda c: c["chapter3"]["folds"],
    ),
    "chapter3_qrels": (
        ("chapter3", "letor", *_MADE_BY),
        chapter3_qrels,
        lambda c: c["chapter3"]["datasets"],
    ),
    "chapter2_run": (
        ("chapter2", *_MADE_BY),
        chapter2_run,
        lambda c: [c["chapter2"][k] for k in ("datasets", "repeats", "repeats_per_job")],
    ),
    "topk_train": (
        ("topk", *_MADE_BY),
        topk_train,
        lambda c: [c["topk"][k] for k in ("datasets", "k", "seeds", "seeds_per_dataset", "fig2")],
    ),
}


def owners(configs: Mapping[str, Mapping[str, Any]], root: str = ROOT) -> dict[str, dict[str, str]]:
    """``{variant: {path prefix: owner's root}}``: for each variant (in ``configs``' order,
    ``default`` first), the files and folders (of the kinds in :data:`KINDS`) whose jobs an
    earlier variant computes the same way, with the root of the first such variant
    (``<root>/<owner>``; ``root``: the stage's, results/readings-full for the confirm stage).
    An owner computes its files itself: it reads none."""
    memo: dict[tuple[str, str, str], dict[str, str | None]] = {}
    given = {
        (kind, name): {k: config[k] for k in keys if k in config}
        for kind, (keys, _, _) in KINDS.items()
        for name, config in configs.items()
    }
    signature = {key: json.dumps(value, sort_keys=True) for key, value in given.items()}
    shapes = {
        (kind, name): json.dumps(shape(config), sort_keys=True) if keys[0] in config else ""
        for kind, (keys, _, shape) in KINDS.items()
        for name, config in configs.items()
    }

    def computations(kind: str, name: str, reader: str) -> dict[str, str | None]:
        keys, build, _ = KINDS[kind]
        if keys[0] not in configs[name] or keys[0] not in configs[reader]:
            return {}
        memo_key = (kind, signature[kind, name], shapes[kind, reader])
        if memo_key not in memo:
            memo[memo_key] = build(given[kind, name], configs[reader])
        return memo[memo_key]

    out: dict[str, dict[str, str]] = {}
    names = list(configs)
    for index, name in enumerate(names):
        out[name] = {}
        for kind in KINDS:
            left = {p: c for p, c in computations(kind, name, name).items() if c is not None}
            for earlier in names[:index]:
                theirs = computations(kind, earlier, name)
                for prefix in [p for p, c in left.items() if theirs.get(p) == c]:
                    if prefix not in out[earlier]:
                        out[name][prefix] = f"{root}/{earlier}"
                        del left[prefix]
    return out


__all__ = [
    "KINDS",
    "ROOT",
    "ROOTS",
    "UPSTREAM",
    "chapter2_run",
    "chapter3_qrels",
    "chapter3_train",
    "owners",
    "prepare",
    "ranking_name",
    "topk_train",
    "upstream",
]
