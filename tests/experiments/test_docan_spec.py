"""The document-analysis jobs' parameter objects as the rules build them from the shipped
config: the replicate files the forest merge reads, the ranking tables' settings, the k grid and
seeds of the corpus jobs, and a wrong value refused by name."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from boostrank.errors import BoostrankError
from boostrank.experiments.docan import spec

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))


def test_forest_files_follow_the_data_sets_replicate_count():
    asked = []

    def replicates(configured: int, dataset: str) -> int:
        asked.append((configured, dataset))
        return 1 if dataset == "reuters21578" and configured == 5 else 99  # a stand-in: one

    config = {"docan_reuters": {"random_forest": {"replicates": 5}}}
    assert spec.forest_files(config, replicates, ".csv") == ["results/docan/forest/r1.csv"]
    assert asked == [(5, "reuters21578")]
    files = spec.forest_files(config, lambda n, d: n, ".samples.csv")
    assert files == [f"results/docan/forest/r{r}.samples.csv" for r in range(1, 6)]


def test_each_ranking_table_reads_its_own_section_and_the_cutoff():
    settings = spec.ranking_settings(CONFIG, "docan-table5")
    ranking = CONFIG["docan_ranking"]
    assert settings == {
        "k": ranking["k"],
        "ndcg_formula": ranking["ndcg_formula"],
        "fold_roles": ranking["fold_roles"],
        **ranking["ranksvm"],
    }
    assert spec.ranking_settings(CONFIG, "docan-table6") == settings  # both RankSVM tables
    assert "trees" in spec.ranking_settings(CONFIG, "docan-table2")
    with pytest.raises(KeyError):
        spec.ranking_settings(CONFIG, "docan-table7")  # the toy is not a LETOR table


def _files(**named):
    return SimpleNamespace(**named)


def test_corpus_jobs_take_the_configured_grid_and_offset_seeds():
    corpus = _files(npz="c.npz", meta="c.json")
    knn = spec.knn_spec(CONFIG, _files(fig="fig6"), corpus, _files(csv="k.csv", samples="k.s"))
    section = CONFIG["docan_reuters"]
    assert knn.metric == "cosine" and knn.ks[0] == section["knn"]["k_min"]
    assert knn.ks[-1] == section["knn"]["k_max"] == 101 and len(knn.ks) == 51  # 1, 3, ..., 101
    clustering = spec.clustering_spec(CONFIG, _files(), corpus, ["f5.csv"])
    assert clustering.seed == CONFIG["seed"] + section["seed_offsets"]["clustering"]
    assert clustering.csv == "f5.csv" and clustering.gmm_max == section["gmm"]["components_max"]
    forest = spec.forest_spec(
        CONFIG, _files(replicate="3"), corpus, _files(csv="r3.csv", samples="r3.s")
    )
    assert forest.replicate == 3 and forest.seed != clustering.seed


def test_figure4_reads_the_raw_folder_of_its_provenance():
    made = spec.fig4_spec(
        CONFIG,
        _files(),
        _files(raw="data/raw/reuters21578/provenance.json", claims="claims.yaml"),
        _files(csv="results/docan-fig4.csv", figure=["figures/docan-fig4.png", "x.pdf"]),
    )
    assert made.raw_dir == "data/raw/reuters21578"
    assert made.figure_prefix == "figures/docan-fig4"


@pytest.mark.parametrize(
    ("cls", "fields", "message"),
    [
        (spec.PlotSpec, ("fig8", "a.csv", "c.yaml", "f"), "field 'figure'"),
        (spec.KnnSpec, ("c", "m", "o", "s", "manhattan", (1, 3)), "field 'metric'"),
        (spec.KnnSpec, ("c", "m", "o", "s", "cosine", (0, 1)), "field 'ks'"),
        (spec.ForestMergeSpec, (("a.csv", "b.csv"), ("a.s",), "o", "s"), "one samples file"),
    ],
)
def test_a_wrong_value_is_refused_by_name(cls, fields, message):
    with pytest.raises(BoostrankError, match=message):
        cls(*fields)
