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

Only the kinds in :func:`owners` are shared: Figure 3.1's training jobs (``chapter3_train``,
one folder per (data set, algorithm), all its replicates and folds). This module is the
workflow's, not a job's: no job imports it, so editing it reruns nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

# The config outside a work's section that makes a job's inputs (the processed data sets):
# the registry (what each data set is) and the stand-ins' size. The seed and the processed
# file's name (letor.ohsumed_features, the letor section's one key) are in the spec itself;
# where the data are found (data.mirror, sources) is not what they are.
UPSTREAM = ("registry", "data.synthetic_scale")
ROOT = "results/readings"  # a variant's root: ROOT/<variant>/ (boostrank.report.readings.ROOT)


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


def chapter3_train(config: Mapping[str, Any], folds: list[int]) -> dict[str, str | None]:
    """Figure 3.1's training jobs of ``config`` by folder (``results/runs/thesis-fig3_1/<data
    set>/<algorithm>/``, every replicate and fold in it): the computation of its jobs on
    ``folds`` (a variant's folds), None where ``config``'s rule cannot make them all (the data
    set, the algorithm or a fold not configured). A replicate is a wildcard only (its seed is
    derived from it in the job), so replicate 1's spec stands for all."""
    from boostrank.experiments.chapter3 import spec as ch3

    section = config["chapter3"]
    algorithms = ch3.configured(section)
    out: dict[str, str | None] = {}
    for dataset in ch3.DATASETS:
        for algorithm in ch3.BY_KEY:
            folder = f"{ch3.RUNS}/{dataset}/{algorithm}/"
            if (
                dataset not in section["datasets"]
                or algorithm not in algorithms
                or not set(folds) <= set(section["folds"])
            ):
                out[folder] = None
                continue
            name = ranking_name(config, dataset)
            files = SimpleNamespace(
                npz=f"data/processed/{name}.npz", meta=f"data/processed/{name}.json"
            )
            specs = [
                ch3.train_spec(
                    dict(config),
                    SimpleNamespace(
                        dataset=dataset, algorithm=algorithm, replicate="1", fold=str(fold)
                    ),
                    files,
                    SimpleNamespace(run="", record=""),  # outputs: where, not what
                ).to_json()
                for fold in folds
            ]
            out[folder] = json.dumps([specs, upstream(config)], sort_keys=True)
    return out


def owners(configs: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """``{variant: {path prefix: owner's root}}``: for each variant (in ``configs``' order,
    ``default`` first), the folders whose jobs an earlier variant computes the same way, with
    the root of the first such variant (``results/readings/<owner>``)."""
    names = list(configs)
    memo: dict[tuple[str, tuple[int, ...]], dict[str, str | None]] = {}

    def computations(name: str, folds: tuple[int, ...]) -> dict[str, str | None]:
        if (name, folds) not in memo:
            memo[name, folds] = chapter3_train(configs[name], list(folds))
        return memo[name, folds]

    out: dict[str, dict[str, str]] = {}
    for index, name in enumerate(names):
        folds = tuple(configs[name]["chapter3"]["folds"])
        out[name] = {}
        for folder, computation in computations(name, folds).items():
            if computation is None:
                continue
            for earlier in names[:index]:
                same = computations(earlier, folds).get(folder) == computation
                if same and folder not in out[earlier]:
                    out[name][folder] = f"{ROOT}/{earlier}"
                    break
    return out


__all__ = ["ROOT", "UPSTREAM", "chapter3_train", "owners", "ranking_name", "upstream"]
