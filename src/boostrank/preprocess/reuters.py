"""Reuters-21578 (Distribution 1.0) reader and the document-analysis report's ModApte subset.

Sengupta, *Document Analysis – Clustering, Classification and Ranking* (2018), section "Dataset
description with an example on pre-processing": the ModApte split, the ten most frequent topics
(Figure 4 and its table) and the BODY of each article (the printed example, NEWID 9, is its BODY).

Reading: the 22 SGML files are latin-1 (one byte 0xFC in ``reut2-017.sgm``); each ``<REUTERS>``
element gives NEWID, LEWISSPLIT, the TOPICS attribute, the ``<TOPICS><D>`` categories in file
order, TITLE and BODY. Entities are unescaped (``&lt;`` ...); the control characters the files
carry as ``&#2;``, ``&#3;`` etc. are dropped. The BODY's trailing sign-off line ("Reuter",
"REUTER", "REUTER...") is stripped: it is wire-service boilerplate and the report's printed
example does not contain it (also when it ends the last line of text rather than standing on a
line of its own). Documents of ``TYPE="BRIEF"`` or ``"UNPROC"`` have no BODY; their
``body`` is empty (the report's step 4 drops documents without content).

ModApte (README, section VIII.B): LEWISSPLIT in {TRAIN, TEST} and TOPICS="YES": 9,603 training
and 3,299 test documents. The report's topic frequencies (Figure 4's table) are the ``<D>`` tags
of the ModApte training and test documents together (``topic_counts(..., "tags")``): counting
documents instead is one short for trade and corn, and the training set alone is far off.

Multi-topic documents: the report does not say how it labels a document with several topics.
:func:`select_top_topics` implements three rules (``multi_topic``):

- ``first`` (default): the label is the first listed topic; keep the document if that topic is
  one of the top ten;
- ``any``: the label is the first listed topic that is one of the top ten; keep the document if
  it has one;
- ``single``: keep only documents with exactly one topic, which must be one of the top ten.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from boostrank.data.formats import open_text

__all__ = [
    "MULTI_TOPIC_RULES",
    "SGML_FILES",
    "TOPIC_COUNTINGS",
    "ReutersDoc",
    "modapte",
    "parse_sgml",
    "read_reuters",
    "select_top_topics",
    "strip_signoff",
    "top_topics",
    "topic_counts",
]

SGML_FILES = tuple(f"reut2-{i:03d}.sgm" for i in range(22))
MULTI_TOPIC_RULES = ("first", "any", "single")

_DOC = re.compile(r"<REUTERS\b([^>]*)>(.*?)</REUTERS>", re.DOTALL)
_ATTR = re.compile(r'([A-Z]+)="([^"]*)"')
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.DOTALL)
_D = re.compile(r"<D>(.*?)</D>", re.DOTALL)
_TITLE = re.compile(r"<TITLE>(.*?)</TITLE>", re.DOTALL)
_BODY = re.compile(r"<BODY>(.*?)</BODY>", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The sign-off: "Reuter", "REUTER", "Reuters", "REUTER...", "REUTER^M" (a literal caret-M), ...
# on a line of its own, or after the last sentence of a line: in upper case, or after a full stop.
_SIGNOFF = re.compile(
    r"(?:(?:\A|(?<=\n))[ \t]*(?i:reuters?)|[ \t]+REUTERS?|(?<=[.!?\"])[ \t]+(?i:reuters?))"
    r"(?:\^M|[^A-Za-z\s])*\s*\Z"
)


@dataclass(frozen=True)
class ReutersDoc:
    """One ``<REUTERS>`` element."""

    newid: int
    lewissplit: str
    has_topics: str  # the TOPICS attribute: YES, NO or BYPASS
    topics: tuple[str, ...]  # <TOPICS><D> categories, in file order
    title: str
    body: str  # BODY text, unescaped, sign-off stripped; "" when there is no BODY


def _clean(text: str) -> str:
    """Unescape SGML entities and drop control characters (``&#3;`` etc.); CRLF -> LF."""
    return _CONTROL.sub("", html.unescape(text).replace("\r\n", "\n").replace("\r", "\n"))


def strip_signoff(body: str) -> str:
    """Remove the trailing "Reuter"/"REUTER" sign-off (any case, trailing dots or digits).

    Usually it stands on a line of its own; some bodies put it after the last sentence of a line
    and a few sign off twice. A closing "... told Reuters." in running text is kept.
    """
    body = body.rstrip()
    while (stripped := _SIGNOFF.sub("", body).rstrip()) != body:
        body = stripped
    return body


def parse_sgml(text: str) -> list[ReutersDoc]:
    """Parse the ``<REUTERS>`` elements of one SGML file's text."""
    docs = []
    for match in _DOC.finditer(text):
        attrs = dict(_ATTR.findall(match.group(1)))
        inner = match.group(2)
        topics_block = _TOPICS.search(inner)
        topics = tuple(_D.findall(topics_block.group(1))) if topics_block else ()
        title = _TITLE.search(inner)
        body = _BODY.search(inner)
        docs.append(
            ReutersDoc(
                newid=int(attrs["NEWID"]),
                lewissplit=attrs.get("LEWISSPLIT", ""),
                has_topics=attrs.get("TOPICS", ""),
                topics=topics,
                title=_clean(title.group(1)).strip() if title else "",
                body=strip_signoff(_clean(body.group(1))) if body else "",
            )
        )
    return docs


def read_reuters(raw_dir: Path | str, files: Sequence[str] = SGML_FILES) -> list[ReutersDoc]:
    """Read the SGML files (``reut2-000.sgm`` ..., or their ``.gz``) of ``raw_dir`` in order."""
    docs: list[ReutersDoc] = []
    for name in files:
        with open_text(Path(raw_dir) / name, encoding="latin-1") as handle:
            docs.extend(parse_sgml(handle.read()))
    return docs


def modapte(docs: Iterable[ReutersDoc]) -> dict[str, list[ReutersDoc]]:
    """The ModApte split: ``{"train": [...], "test": [...]}`` (TOPICS="YES" documents only)."""
    split: dict[str, list[ReutersDoc]] = {"train": [], "test": []}
    for doc in docs:
        if doc.has_topics == "YES" and doc.lewissplit in ("TRAIN", "TEST"):
            split[doc.lewissplit.lower()].append(doc)
    return split


TOPIC_COUNTINGS = ("tags", "documents", "first")


def topic_counts(docs: Iterable[ReutersDoc], how: str = "tags") -> Counter[str]:
    """Topic frequencies: ``tags`` counts every ``<D>`` tag (two documents list a topic twice:
    NEWID 5467 "corn", NEWID 19918 "trade"); ``documents`` counts the documents listing the topic;
    ``first`` counts only each document's first topic."""
    if how not in TOPIC_COUNTINGS:
        raise ValueError(f"topic counting must be one of {TOPIC_COUNTINGS}, not {how!r}")
    counts: Counter[str] = Counter()
    for doc in docs:
        if how == "tags":
            counts.update(doc.topics)
        elif how == "documents":
            counts.update(set(doc.topics))
        else:
            counts.update(doc.topics[:1])
    return counts


def top_topics(counts: Counter[str], n: int = 10) -> list[str]:
    """The ``n`` most frequent topics, most frequent first (ties: alphabetical)."""
    return [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]


def select_top_topics(
    docs: Iterable[ReutersDoc], top: Sequence[str], rule: str = "first"
) -> list[tuple[ReutersDoc, str]]:
    """(document, label) pairs kept under the multi-topic ``rule`` (see the module docstring)."""
    if rule not in MULTI_TOPIC_RULES:
        raise ValueError(f"multi-topic rule must be one of {MULTI_TOPIC_RULES}, not {rule!r}")
    wanted = set(top)
    kept = []
    for doc in docs:
        if not doc.topics:
            continue
        if rule == "first":
            label = doc.topics[0] if doc.topics[0] in wanted else None
        elif rule == "any":
            label = next((t for t in doc.topics if t in wanted), None)
        else:
            label = doc.topics[0] if len(doc.topics) == 1 and doc.topics[0] in wanted else None
        if label is not None:
            kept.append((doc, label))
    return kept
