"""The statements ledger (``config/statements.yaml``): every experimental statement of the five
texts, and what keeps it honest.

Each entry quotes one statement (a result or observation about an experiment, a data set figure
or a table) and answers it in exactly one way: the registry claims that check it (``claims``),
why no claim can (``not_checkable``: the data do not exist, the run is not described), or what
claim would (``unchecked``: none yet). :func:`problems` keeps the ledger and the claims registry
(``config/claims.yaml``) in step: every registry claim checks some statement, and every claim a
statement names exists. :func:`coverage` counts the answers per work for the claims page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boostrank.errors import BoostrankError
from boostrank.io import read_yaml

WORKS = ("thesis", "qbrank", "prank", "topk", "docan")
ANSWERS = ("claims", "not_checkable", "unchecked")  # an entry gives exactly one


@dataclass(frozen=True)
class Statement:
    """One experimental statement of a text and its one answer."""

    id: str
    work: str
    where: str
    quote: str
    claims: tuple[str, ...] = ()
    not_checkable: str | None = None
    unchecked: str | None = None

    @property
    def answers(self) -> tuple[str, ...]:
        """The answer fields this entry gives (one when the entry is well formed)."""
        given = (bool(self.claims), self.not_checkable is not None, self.unchecked is not None)
        return tuple(name for name, present in zip(ANSWERS, given, strict=True) if present)


def _statement(entry: dict[str, Any], path: Path, index: int) -> Statement:
    """One ledger entry as a :class:`Statement`; a missing field names the entry."""
    try:
        return Statement(
            id=str(entry["id"]),
            work=str(entry["work"]),
            where=str(entry["where"]),
            quote=str(entry["quote"]),
            claims=tuple(str(c) for c in entry.get("claims") or ()),
            not_checkable=entry.get("not_checkable"),
            unchecked=entry.get("unchecked"),
        )
    except (KeyError, TypeError) as exc:
        raise BoostrankError(
            f"{path}: statements[{index}] lacks {exc} (fields: id, work, where, quote and one "
            f"of {', '.join(ANSWERS)}; workflow/schemas/statements.schema.yaml)"
        ) from None


def load_statements(path: Path | str) -> list[Statement]:
    """The ledger's entries, in file order."""
    path = Path(path)
    data = read_yaml(path) or {}
    entries = data.get("statements") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BoostrankError(f"{path}: expected a list under 'statements'")
    return [_statement(entry, path, i) for i, entry in enumerate(entries)]


def registry_ids(path: Path | str) -> list[str]:
    """The claim ids of the claims registry as written (a family's base id, not its units)."""
    data = read_yaml(Path(path)) or {}
    return [str(claim["id"]) for claim in data.get("claims", [])]


def problems(statements: Iterable[Statement], claim_ids: Iterable[str]) -> list[str]:
    """What is wrong between the ledger and the registry, one line each (empty when nothing):
    a duplicate id, an entry with none or several answers, a work or id prefix that is not one
    of :data:`WORKS`, a claim id the registry lacks, and a registry claim no entry names."""
    statements, registry = list(statements), list(claim_ids)
    known = set(registry)
    out = [
        f"duplicate statement id '{sid}' ({n} entries)"
        for sid, n in Counter(s.id for s in statements).items()
        if n > 1
    ]
    named: set[str] = set()
    for s in statements:
        if len(s.answers) != 1:
            given = ", ".join(s.answers) or "none"
            out.append(f"{s.id}: give exactly one of {', '.join(ANSWERS)} (given: {given})")
        if s.work not in WORKS or not s.id.startswith(f"{s.work}."):
            out.append(
                f"{s.id}: work '{s.work}' must be one of {', '.join(WORKS)} and prefix the id"
            )
        for cid in s.claims:
            named.add(cid)
            if cid not in known:
                out.append(f"{s.id}: unknown claim id '{cid}' (not in the claims registry)")
    out.extend(
        f"registry claim '{cid}' is in no statement's claims"
        for cid in registry
        if cid not in named
    )
    return out


def coverage(statements: Iterable[Statement]) -> dict[str, tuple[int, int, int, int]]:
    """Per work of :data:`WORKS` (in that order): the statements (checked, not checkable,
    unchecked, made); an entry with other than one answer counts as made only."""
    counts = {work: [0, 0, 0, 0] for work in WORKS}
    for s in statements:
        row = counts.setdefault(s.work, [0, 0, 0, 0])
        row[3] += 1
        if len(s.answers) == 1:
            row[ANSWERS.index(s.answers[0])] += 1
    return {work: (row[0], row[1], row[2], row[3]) for work, row in counts.items()}
