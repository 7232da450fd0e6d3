"""Compile a generated LaTeX table with a real pdflatex (Debian's TeX Live), as a reader would:
``\\input`` into a minimal ``article`` with ``booktabs`` and ``longtable``."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

# booktabs is in texlive-latex-recommended; pdflatex and longtable in texlive-latex-base, which
# it depends on.
PACKAGES = ["texlive-latex-recommended"]
MISSING = (
    "pdflatex with booktabs and longtable is missing: install Debian's "
    + " ".join(PACKAGES)
    + " (apt-get install --no-install-recommends "
    + " ".join(PACKAGES)
    + "); the test installs it itself when run as root with apt-get"
)

DOCUMENT = r"""\documentclass{article}
\usepackage{booktabs}
\usepackage{longtable}
\tracinglostchars=3
\begin{document}
\input{%s}
\end{document}
"""


def _ready() -> str | None:
    found = shutil.which("pdflatex")
    kpsewhich = shutil.which("kpsewhich")
    if not (found and kpsewhich):
        return None
    proc = subprocess.run(
        [kpsewhich, "booktabs.sty", "longtable.sty"], capture_output=True, text=True
    )
    return found if len(proc.stdout.split()) == 2 else None


def pdflatex() -> str | None:
    """The pdflatex binary, installed from Debian's archive when missing and possible (root
    with apt-get, as the browser tests install Chromium); None when it cannot be had."""
    if found := _ready():
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return None
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *PACKAGES]
    for cmd in (["apt-get", "update", "-qq"], install):
        if subprocess.run(cmd, env=env, capture_output=True, timeout=1800).returncode != 0:
            return None
    return _ready()


def compile_table(binary: str, table: Path, workdir: Path) -> str:
    """Compile ``table`` in the minimal document; return the first error's lines of pdflatex's
    log (a character no font has is an error too), or "" when it compiled."""
    workdir.mkdir(parents=True, exist_ok=True)
    document = workdir / "document.tex"
    document.write_text(DOCUMENT % table.resolve().as_posix(), encoding="utf-8")
    proc = subprocess.run(
        [binary, "-interaction=nonstopmode", "-halt-on-error", document.name],
        cwd=workdir,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )
    log = (workdir / "document.log").read_text(errors="replace").splitlines()
    errors = [i for i, line in enumerate(log) if line.startswith("!")]
    if proc.returncode == 0 and not errors and (workdir / "document.pdf").exists():
        return ""
    first = errors[0] if errors else max(len(log) - 10, 0)
    return f"{table.name}: " + "\n".join(log[first : first + 6])
