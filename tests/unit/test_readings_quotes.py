"""config/readings.yaml against the five texts: a reading whose default is ``printed`` or an
``erratum`` rests on the text's own words, so each excerpt of its ``quote`` must occur verbatim
in the text of the work its ``source`` names. Excerpts are separated by " ... "; a part in
parentheses that the text lacks is our remark (the schema's ``quote``): it is inserted, so the
excerpt without it must be the text's words (a remark cannot stand in for garbled words; quote
them and add the remark). Extraction whitespace, line-end hyphens, markdown emphasis and
escapes, math delimiters and Unicode dashes and quotes do not count. The texts are found at
BOOSTRANK_SEEDS, else in the shared folder beside the clone; without them the check is skipped.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
READINGS = yaml.safe_load((ROOT / "config/readings.yaml").read_text(encoding="utf-8"))["readings"]
SEEDS = Path(os.environ.get("BOOSTRANK_SEEDS") or ROOT / ".." / "shared" / "seeds")
QUOTED = ("printed", "erratum")  # the bases that claim the text's words

# A source's author and year (or the method's name) -> the file prefix of the work's text.
WORKS = [
    (re.compile(r"Valizadegan"), "000"),
    (re.compile(r"Zheng|QBRank"), "001"),
    (re.compile(r"Crammer|PRank"), "002"),
    (re.compile(r"Zhang, Jung|Tewari \(2019\)|top-k", re.IGNORECASE), "003"),
    (re.compile(r"Sengupta|docan", re.IGNORECASE), "004"),
]
CHARACTERS = str.maketrans(
    {"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2010": "-", "\u2011": "-",
     "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "*": None, "$": None}
)  # fmt: skip
ELLIPSIS = re.compile(r"(?:^|\s)(?:\.\.\.|\u2026)(?=\s|$)")
REMARK = re.compile(r"\([^()]*\)")
MAX_REMARKS = 8  # parenthesised parts tried as remarks (2^8 readings of one excerpt)


def normalised(text: str) -> str:
    """``text`` with the differences an extraction makes and a quote may not copy removed."""
    text = unicodedata.normalize("NFKC", text).translate(CHARACTERS).replace("\\_", "_")
    return re.sub(r"\s+", " ", text).strip()


def seed_forms(raw: str) -> tuple[str, ...]:
    """A text's normalised forms: a word broken at a line end rejoined, with and without its
    hyphen (the hyphen may be the word's own)."""
    if raw.lstrip().startswith("{"):  # a web page's JSON record: its string fields
        raw = "\n".join(v for v in json.loads(raw).values() if isinstance(v, str))
    joined = re.sub(r"(\w)-[ \t]*\n\s*(\w)", r"\1\2", raw)
    kept = re.sub(r"(\w-)[ \t]*\n\s*(\w)", r"\1\2", raw)
    return tuple(dict.fromkeys(normalised(t) for t in (raw, joined, kept)))


def excerpts(quote: str) -> list[str]:
    """The excerpts of a quote: its parts between " ... " marks, outer ellipses dropped."""
    return [p.strip() for p in ELLIPSIS.split(normalised(quote)) if p.strip()]


def missing(quote: str, forms: tuple[str, ...]) -> list[str]:
    """The excerpts of ``quote`` no form of the text holds, each with some of its parenthesised
    parts (our remarks, the fewest that must go) left out; an excerpt that is all remark is
    ours alone."""
    absent = []
    for excerpt in excerpts(quote):
        groups = [m.span() for m in REMARK.finditer(excerpt)][:MAX_REMARKS]
        drops = (c for n in range(len(groups) + 1) for c in combinations(groups, n))
        candidates = [_without(excerpt, spans) for spans in drops]  # the last: no remark kept
        if candidates[-1] and not any(c in f for c in candidates if c for f in forms):
            absent.append(candidates[-1])
    return absent


def _without(excerpt: str, spans: tuple[tuple[int, int], ...]) -> str:
    """``excerpt`` with the parts at ``spans`` left out, whitespace collapsed."""
    for start, end in sorted(spans, reverse=True):
        excerpt = excerpt[:start] + " " + excerpt[end:]
    return re.sub(r"\s+", " ", excerpt).strip(" ,;:")


def seed_prefixes(source: str) -> list[str]:
    """The file prefixes of the texts a reading's ``source`` names."""
    return [prefix for pattern, prefix in WORKS if pattern.search(source)]


@cache
def forms_of(prefix: str) -> tuple[str, ...]:
    (path,) = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    return seed_forms(path.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ the matching itself
TEXT = (
    "We fixed its learning rate to a\n\nconstant value. The pro-\ncedure uses \u2212 0.5 (not 1)."
)


def test_a_made_up_quote_is_not_found() -> None:
    forms = seed_forms(TEXT)
    assert missing("we fixed its learning rate to 0.1", forms) == [
        "we fixed its learning rate to 0.1"
    ]
    assert missing("learning rate to a constant value ... uses - 0.7", forms) == ["uses - 0.7"]


def test_whitespace_hyphens_and_remarks_do_not_count_but_words_do() -> None:
    forms = seed_forms(TEXT)
    assert missing("learning rate to a constant value. ... The procedure uses -  0.5", forms) == []
    assert missing("The pro-cedure", forms) == []  # the hyphen kept, too
    assert missing("learning rate to a (the text gives no value) constant value", forms) == []
    assert missing("uses - 0.5 (not 1)", forms) == []  # the text's own parentheses
    assert missing("(our remark only) ... constant value", forms) == []
    assert missing("learning rate to an (our remark) unknown value", forms) == [
        "learning rate to an unknown value"
    ]
    # a remark is inserted: it cannot stand in for the text's words
    assert missing("The procedure uses (minus) 0.5", forms) == ["The procedure uses 0.5"]


def test_a_source_names_the_text_of_its_work() -> None:
    assert seed_prefixes("Valizadegan (2010), section 5.4") == ["000"]
    assert seed_prefixes("Crammer & Singer (2005), section 6") == ["002"]
    assert seed_prefixes("Zhang, Jung & Tewari (2019), Algorithm 3") == ["003"]
    assert seed_prefixes("Zheng et al. (2007), QBRank") == ["001"]
    assert seed_prefixes("Sengupta (2018), Figure 4") == ["004"]
    assert seed_prefixes("Qin et al. (2010), LETOR 3.0") == []


# ------------------------------------------------------------------ the registry's quotes
@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the five texts are not at {SEEDS}")
@pytest.mark.parametrize(
    "reading", [r for r in READINGS if r["basis"] in QUOTED], ids=lambda r: r["id"]
)
def test_a_printed_or_erratum_quote_is_the_texts_own_words(reading: dict[str, Any]) -> None:
    prefixes = seed_prefixes(reading["source"])
    assert prefixes, f"source names none of the five texts: {reading['source']}"
    forms = tuple(form for prefix in prefixes for form in forms_of(prefix))
    assert missing(reading["quote"], forms) == [], f"not in the text of {prefixes}"
