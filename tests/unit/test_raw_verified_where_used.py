"""Every job that parses fetched raw files checks them against the sha256 their fetch recorded
first: Reuters-21578's corpus and Figure 4 jobs and OHSUMED's feature rebuild stop with one
line naming the changed file and the fix, before any parse (as the prepare job does,
tests/e2e/test_cached_data.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boostrank.data.provenance import Provenance
from boostrank.errors import ChecksumError
from boostrank.experiments.datasets.jobs_letor import rebuild
from boostrank.experiments.docan.make import make_fig4
from boostrank.experiments.docan.spec import Fig4Spec
from boostrank.io import sha256_file
from boostrank.preprocess import text_cli


def _raw_dir(tmp_path: Path, dataset: str, name: str) -> Path:
    """A raw folder as a mirror fetch leaves it, then one byte of ``name`` changed."""
    raw = tmp_path / "raw" / dataset
    raw.mkdir(parents=True)
    (raw / name).write_text("as fetched\n")
    files = {name: {"sha256": sha256_file(raw / name), "check": "verified"}}
    Provenance(dataset, "mirror", "/mirror", files).save(raw / "provenance.json")
    (raw / name).write_text("as edited\n")
    return raw


def _one_line(excinfo: pytest.ExceptionInfo[ChecksumError], path: Path) -> None:
    message = str(excinfo.value)
    assert "\n" not in message and f"{path} of data set" in message
    assert "recorded at its fetch" in message and "delete" in message


def test_the_reuters_corpus_job_refuses_a_changed_file(tmp_path):
    raw = _raw_dir(tmp_path, "reuters21578", "reut2-000.sgm")
    parser = text_cli.argparse.ArgumentParser()
    text_cli.register(parser.add_subparsers())
    paths = {"--raw-dir": raw, "--provenance": raw / "provenance.json"}
    paths |= {"--npz": tmp_path / "c.npz", "--meta": tmp_path / "c.json"}
    args = parser.parse_args(["reuters-corpus", *(str(x) for kv in paths.items() for x in kv)])
    with pytest.raises(ChecksumError) as excinfo:
        args.func(args)
    _one_line(excinfo, raw / "reut2-000.sgm")
    assert not (tmp_path / "c.npz").exists()


def test_the_figure4_job_refuses_a_changed_file(tmp_path):
    raw = _raw_dir(tmp_path, "reuters21578", "reut2-000.sgm")
    spec = Fig4Spec(
        raw_dir=str(raw),
        provenance=str(raw / "provenance.json"),
        claims="config/claims.yaml",
        csv=str(tmp_path / "fig4.csv"),
        figure_prefix=str(tmp_path / "fig4"),
        top_topics=10,
        counting="tags",
    )
    with pytest.raises(ChecksumError) as excinfo:
        make_fig4(spec)
    _one_line(excinfo, raw / "reut2-000.sgm")
    assert not (tmp_path / "fig4.csv").exists()


def test_the_ohsumed_rebuild_refuses_a_changed_file(tmp_path):
    raw = _raw_dir(tmp_path, "ohsumed", "Fold1.txt")
    out = tmp_path / "rebuilt.npz"
    with pytest.raises(ChecksumError) as excinfo:
        rebuild(raw, tmp_path / "p.npz", tmp_path / "p.json", out, tmp_path / "rebuilt.json")
    _one_line(excinfo, raw / "Fold1.txt")
    assert not out.exists()
