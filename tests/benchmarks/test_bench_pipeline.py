"""Speed benchmarks (pytest-benchmark): `make bench` prints the figures.

Skipped in `make test` (--benchmark-skip); targets are stated here, never asserted on time:
- planning the DAG (`snakemake -n`) of the full config: <= 15 s; a no-op rerun: <= 10 s;
- parsing a LETOR file of HP2003's size (147,606 rows x 64 features): a few seconds;
- generating the largest synthetic LETOR stand-in (NP2003: 148,657 rows): a few seconds.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boostrank.data import formats, synthetic

ROOT = Path(__file__).resolve().parents[2]
NP2003 = {"queries": 150, "rows": 148657, "features": 64, "grades": [0.998, 0.002]}


@pytest.fixture(scope="module")
def letor_file(tmp_path_factory):
    data = synthetic.letor(NP2003, seed=0)
    path = tmp_path_factory.mktemp("bench") / "hp2003.txt"
    with open(path, "w") as handle:
        for x, y, q in zip(data["X"], data["y"], data["qid"], strict=True):
            feats = " ".join(f"{j + 1}:{v:.6f}" for j, v in enumerate(x))
            handle.write(f"{y} qid:{q} {feats} #docid = d\n")
    return path


def test_parse_letor_hp2003_size(benchmark, letor_file):
    table = benchmark.pedantic(formats.read_letor, args=(letor_file, 64), rounds=3)
    assert table.X.shape == (148657, 64)


def test_generate_synthetic_letor_np2003_size(benchmark):
    data = benchmark.pedantic(synthetic.letor, args=(NP2003, 1), rounds=3)
    assert len(np.unique(data["qid"])) == 150


def test_plan_full_dag(benchmark):
    def plan():
        return subprocess.run(
            [sys.executable, "-m", "snakemake", "-n", "--profile", "profiles/local"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )

    benchmark.pedantic(plan, rounds=3)
