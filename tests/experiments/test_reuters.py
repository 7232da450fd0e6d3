"""The Reuters-21578 SGML reader, the ModApte split and the report's topic countings."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from boostrank.preprocess import reuters as R
from boostrank.preprocess import text_cli
from boostrank.preprocess.reuters_corpus import TEXT_FIELDS
from boostrank.preprocess.text import STEMMERS
from boostrank.report.claims import load_claims

ROOT = Path(__file__).resolve().parents[2]

SGML = """<!DOCTYPE lewis SYSTEM "lewis.dtd">
<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="5552" NEWID="9">
<DATE>26-FEB-1987 15:17:11.20</DATE>
<TOPICS><D>grain</D><D>corn</D><D>grain</D></TOPICS>
<PLACES><D>usa</D></PLACES>
<UNKNOWN>&#5;&#5;&#5;F
&#22;&#22;&#1;f0762&#31;reute</UNKNOWN>
<TEXT>&#2;
<TITLE>CHAMPION PRODUCTS &lt;CH> APPROVES STOCK SPLIT</TITLE>
<DATELINE> ROCHESTER, N.Y., Feb 26 - </DATELINE><BODY>Champion &lt;CH> said
its board approved a split for M\xfcnchen.
 Reuter
&#3;</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="NO" LEWISSPLIT="TEST" CGISPLIT="TRAINING-SET" OLDID="1" NEWID="10">
<TOPICS></TOPICS>
<TEXT TYPE="BRIEF">&#2;
<TITLE>SHORT ITEM</TITLE>
&#3;</TEXT>
</REUTERS>
"""


def _doc(newid, topics, split="TRAIN", has_topics="YES", body="x"):
    return R.ReutersDoc(newid, split, has_topics, tuple(topics), "", body)


def test_parse_sgml_reads_attributes_topics_title_and_body():
    first, brief = R.parse_sgml(SGML)
    assert (first.newid, first.lewissplit, first.has_topics) == (9, "TRAIN", "YES")
    assert first.topics == ("grain", "corn", "grain")  # file order, repeats kept
    assert first.title == "CHAMPION PRODUCTS <CH> APPROVES STOCK SPLIT"
    assert first.body == "Champion <CH> said\nits board approved a split for M\xfcnchen."
    assert (brief.newid, brief.has_topics, brief.topics, brief.title) == (
        10,
        "NO",
        (),
        "SHORT ITEM",
    )
    assert brief.body == ""  # a BRIEF document has no BODY


def test_read_reuters_reads_latin1_gzip(tmp_path):
    with gzip.open(tmp_path / "reut2-000.sgm.gz", "wb") as handle:
        handle.write(SGML.encode("latin-1"))
    (tmp_path / "reut2-001.sgm").write_bytes(
        SGML.replace('NEWID="9"', 'NEWID="11"').encode("latin-1")
    )
    docs = R.read_reuters(tmp_path, files=["reut2-000.sgm", "reut2-001.sgm"])
    assert [d.newid for d in docs] == [9, 10, 11, 10]
    assert "M\xfcnchen" in docs[0].body


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Shares rose.\n Reuter", "Shares rose."),
        ("Shares rose.\nREUTER", "Shares rose."),
        ("Shares rose.\nREUTER...\n", "Shares rose."),
        ("Shares rose.\nREUTER^M", "Shares rose."),
        ("Shares rose. REUTER", "Shares rose."),
        ("Shares rose, he said. Reuter", "Shares rose, he said."),
        ("Shares rose.\nREUTER\n Reuter", "Shares rose."),  # signed off twice
        ("the spokesman told Reuters.", "the spokesman told Reuters."),  # running text
        ("Reuter", ""),
    ],
)
def test_strip_signoff(body, expected):
    assert R.strip_signoff(body) == expected


def test_modapte_keeps_topics_yes_train_and_test():
    docs = [
        _doc(1, ["earn"]),
        _doc(2, ["acq"], split="TEST"),
        _doc(3, ["acq"], split="NOT-USED"),
        _doc(4, ["earn"], has_topics="NO"),
        _doc(5, [], split="TEST"),
    ]
    split = R.modapte(docs)
    assert [d.newid for d in split["train"]] == [1]
    assert [d.newid for d in split["test"]] == [2, 5]


def test_topic_countings():
    docs = [_doc(1, ["trade", "trade"]), _doc(2, ["grain", "trade"]), _doc(3, ["corn"])]
    assert R.topic_counts(docs, "tags") == {"trade": 3, "grain": 1, "corn": 1}
    assert R.topic_counts(docs, "documents") == {"trade": 2, "grain": 1, "corn": 1}
    assert R.topic_counts(docs, "first") == {"trade": 1, "grain": 1, "corn": 1}
    assert R.top_topics(R.topic_counts(docs, "tags"), 2) == ["trade", "corn"]  # ties: a-z
    with pytest.raises(ValueError, match="counting"):
        R.topic_counts(docs, "words")


def test_multi_topic_rules():
    docs = [_doc(1, ["earn"]), _doc(2, ["cocoa", "acq"]), _doc(3, ["acq", "earn"]), _doc(4, [])]
    top = ["earn", "acq"]
    labels = {rule: [(d.newid, y) for d, y in R.select_top_topics(docs, top, rule)]
              for rule in R.MULTI_TOPIC_RULES}  # fmt: skip
    assert labels["first"] == [(1, "earn"), (3, "acq")]
    assert labels["any"] == [(1, "earn"), (2, "acq"), (3, "acq")]
    assert labels["single"] == [(1, "earn")]
    with pytest.raises(ValueError, match="rule"):
        R.select_top_topics(docs, top, "all")


def test_cli_choices_agree_with_the_modules():
    assert text_cli.TEXT_CHOICES == TEXT_FIELDS
    assert text_cli.MULTI_TOPIC_CHOICES == R.MULTI_TOPIC_RULES
    assert text_cli.COUNTING_CHOICES == R.TOPIC_COUNTINGS
    assert text_cli.STEMMER_CHOICES == STEMMERS


# --------------------------------------------------------------------------- the real collection


def _mirror() -> Path | None:
    for candidate in (os.environ.get("BOOSTRANK_DATA_MIRROR"), str(ROOT.parent / "shared/data")):
        if candidate and (Path(candidate) / "reuters21578" / "reut2-021.sgm.gz").exists():
            return Path(candidate) / "reuters21578"
    return None


@pytest.fixture(scope="module")
def collection():
    mirror = _mirror()
    if mirror is None:
        pytest.skip("no data mirror with reuters21578 (set BOOSTRANK_DATA_MIRROR)")
    return R.read_reuters(mirror)


def test_real_collection_modapte_sizes_and_signoffs(collection):
    assert len(collection) == 21578
    assert [d.newid for d in collection] == list(range(1, 21579))
    split = R.modapte(collection)
    assert (len(split["train"]), len(split["test"])) == (9603, 3299)
    ends = [d.body.split()[-1].lower() for d in collection if d.body]
    assert sum(e.startswith("reuter") and e != "reuters." for e in ends) <= 1  # REUTER11:43/VB


def test_figure4_counts_are_tags_over_modapte_train_and_test(collection):
    """The published counts (read from the claims registry) are the <D> tags of the ModApte
    training and test documents; counting documents is one short for trade and corn (NEWID 5467
    lists corn twice, NEWID 19918 trade twice), and training documents alone are far off."""
    published = {
        c.reproduce["row"]["topic"]: c.published
        for c in load_claims(ROOT / "config/claims.yaml")
        if c.id.startswith("docan.fig4.") and "topic" in (c.reproduce.get("row") or {})
    }
    assert len(published) == 10
    split = R.modapte(collection)
    both = split["train"] + split["test"]
    tags = R.topic_counts(both, "tags")
    assert {t: tags[t] for t in published} == published
    assert R.top_topics(tags, 10) == sorted(published, key=lambda t: -published[t])
    documents = R.topic_counts(both, "documents")
    assert {t for t in published if documents[t] != published[t]} == {"trade", "corn"}
    train = R.topic_counts(split["train"], "documents")
    assert all(train[t] < published[t] for t in published)
