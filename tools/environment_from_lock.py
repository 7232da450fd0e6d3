"""Write environment.yml's pip section from requirements.lock: the same exact versions
(without hashes, which pip cannot check beside the editable install of the package).
Run by `make lock`; tests/unit/test_environment.py checks the two agree."""

import re
import sys
from pathlib import Path

HEADER = """\
# Conda environment with the exact versions of requirements.lock (made by `make lock` from
# pyproject.toml; tests/unit/test_environment.py checks they agree). Use:
#   conda env create -f environment.yml
name: boostrank
channels:
  - conda-forge
dependencies:
  - python=3.11
  - pip
  - pip:
"""


def pins(lock: Path) -> list[str]:
    """``name==version`` of every package the lock file pins, in its order."""
    return re.findall(r"^([A-Za-z0-9_.\-\[\]]+==[^\s\\]+)", lock.read_text(), re.MULTILINE)


def main(lock: str = "requirements.lock", env: str = "environment.yml") -> None:
    lines = [f"      - {pin}" for pin in pins(Path(lock))] + ["      - -e ."]
    Path(env).write_text(HEADER + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
