"""Compare the results CSVs of two run directories byte for byte (a refactor keeps them).

    python tools/compare_results.py RUN_A RUN_B

Lists the CSVs under ``results/`` and ``figures/tables/`` that exist in only one run or differ,
and exits 1 if any differ. The run's timing record (``results/timing.csv``) is left out; Figure
4.6's CSVs (and the claim read from them) measure MRR's running time, so they differ too.
"""

from __future__ import annotations

import sys
from pathlib import Path


def csvs(run: Path) -> dict[str, bytes]:
    return {
        name: p.read_bytes()
        for folder in ("results", "figures/tables")
        for p in sorted((run / folder).rglob("*.csv"))
        if (name := str(p.relative_to(run))) != "results/timing.csv"
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    a, b = (csvs(Path(arg)) for arg in argv)
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    differ = sorted(name for name in set(a) & set(b) if a[name] != b[name])
    for label, names in (("only in A", only_a), ("only in B", only_b), ("differ", differ)):
        for name in names:
            print(f"{label}: {name}")
    same = len(set(a) & set(b)) - len(differ)
    print(f"{same} of {len(set(a) | set(b))} CSVs byte-identical; {len(differ)} differ")
    return 1 if differ or only_a or only_b else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
