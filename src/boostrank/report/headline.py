"""The README's headline: the claim tally of the last full run, by work.

``make readme-results`` reads a run's ``results/claims.csv``, writes the tally to
``docs/last-run.json`` (committed: which commit evaluated the claims, on what data) and renders
it between the README's markers, so the numbers there are never typed by hand; a test checks
that the README's block is what the committed summary renders to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from boostrank.errors import BoostrankError
from boostrank.report.claims import CLASSES, VERDICTS

START, END = "<!-- headline:start -->", "<!-- headline:end -->"
WORKS = {  # claim-id prefix -> the work's short name, in the README's order
    "thesis": "Valizadegan 2010 (dissertation)",
    "qbrank": "Zheng et al. 2007 (QBRank)",
    "prank": "Crammer & Singer 2005 (PRank)",
    "topk": "Zhang, Jung & Tewari 2019 (top-k)",
    "docan": "Sengupta 2018 (document analysis)",
}


def summarise(
    claims: pd.DataFrame, datasets: pd.DataFrame, commit: str, date: str
) -> dict[str, Any]:
    """Each work's verdict counts in ``claims`` (a ``results/claims.csv``) and the data sets of
    each kind in ``datasets`` (its ``results/datasets.csv``)."""
    work = claims["claim_id"].str.split(".").str[0]
    unknown = sorted(set(work) - set(WORKS))
    if unknown:
        raise BoostrankError(f"claims of unknown works {unknown}: add them to headline.WORKS")
    # A claims table without a class column counts every claim as a reproduction claim.
    kind = claims["class"] if "class" in claims.columns else pd.Series("reproduction", claims.index)
    ours = kind == "reproduction"
    counts = {
        w: {v: int(((work == w) & ours & (claims["verdict"] == v)).sum()) for v in VERDICTS}
        for w in WORKS
    }
    apart = {
        c: {v: int(((kind == c) & (claims["verdict"] == v)).sum()) for v in VERDICTS}
        for c in CLASSES[1:]
    }
    kinds = datasets.groupby("data_kind")["dataset"].apply(sorted).to_dict()
    return {"commit": commit, "date": date, "works": counts, "apart": apart, "data": kinds}


def render(summary: dict[str, Any]) -> str:
    """The Markdown block: one row per work and a total row."""
    head = "| work | " + " | ".join(VERDICTS) + " |"
    rows = [head, "|---|" + "---:|" * len(VERDICTS)]
    total = dict.fromkeys(VERDICTS, 0)
    for work, counts in summary["works"].items():
        rows.append(f"| {WORKS[work]} | " + " | ".join(str(counts[v]) for v in VERDICTS) + " |")
        for v in VERDICTS:
            total[v] += counts[v]
    rows.append("| **all** | " + " | ".join(f"**{total[v]}**" for v in VERDICTS) + " |")
    only = ", reproduction claims only" if "apart" in summary else ""
    lead = (
        f"The claims of the last full run, checked at commit `{summary['commit']}` on "
        f"{summary['date']} (`make readme-results` writes this table from its "
        f"`results/claims.csv`){only}. NOT-COMPARABLE: made from a synthetic stand-in, or the data "
        "cannot establish the number."
    )
    data = "; ".join(
        f"{kind} {len(names)} ({', '.join(names)})" for kind, names in summary["data"].items()
    )
    apart = [
        f"{kind} " + ", ".join(f"{v} {n}" for v, n in counts.items() if n)
        for kind, counts in summary.get("apart", {}).items()
        if sum(counts.values())
    ]
    tail = [f"Tallied apart (no number of ours decides them): {'; '.join(apart)}.", ""] * bool(
        apart
    )
    return "\n".join([START, lead, "", *rows, "", *tail, f"Data sets by source: {data}.", END])


def replace_block(text: str, block: str) -> str:
    """``text`` with the part between the markers (inclusive) replaced by ``block``."""
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        raise BoostrankError(f"the README needs one {START} ... {END} pair, in that order")
    return text[: text.index(START)] + block + text[text.index(END) + len(END) :]


def current_block(text: str) -> str:
    """The README's block between the markers (inclusive)."""
    return text[text.index(START) : text.index(END) + len(END)]


def write(claims_csv: Path, summary_path: Path, readme: Path, commit: str) -> None:
    """Tally ``claims_csv`` into ``summary_path`` and render it into ``readme``."""
    claims = pd.read_csv(claims_csv, dtype=str, keep_default_na=False)
    datasets = pd.read_csv(Path(claims_csv).with_name("datasets.csv"), dtype=str)
    date = pd.Timestamp(Path(claims_csv).stat().st_mtime, unit="s").strftime("%Y-%m-%d")
    summary = summarise(claims, datasets, commit, date)
    summary_path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    readme.write_text(replace_block(readme.read_text(encoding="utf-8"), render(summary)))
