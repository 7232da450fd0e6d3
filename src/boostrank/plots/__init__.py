"""Figure output shared by every experiment: PNG + PDF, written atomically, each stamped with the
data it was made from (real / mirror / embedded / synthetic)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from boostrank.io import atomic_path


def pyplot() -> Any:
    """matplotlib's pyplot on the non-interactive Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


BAND_ALPHA = 0.12  # every figure's interval band: the line's colour, this opacity


def shade_band(ax: Any, x: Any, low: Any, high: Any, colour: str, **extra: Any) -> Any:
    """Shade a line's interval (``low`` .. ``high`` at ``x``) in its colour; returns the patch
    (``extra``: e.g. a legend ``label``)."""
    return ax.fill_between(x, low, high, color=colour, alpha=BAND_ALPHA, linewidth=0, **extra)


def save_figure(fig: Any, prefix: Path | str, provenance: Iterable[str]) -> None:
    """Write ``<prefix>.png`` and ``<prefix>.pdf`` with a "Data: ..." footer naming the sources.

    ``provenance`` holds the provenance lines of the rows drawn (duplicates are shown once).
    The PDF carries no creation date, so the same data give the same bytes.
    """
    lines = list(dict.fromkeys(p for p in provenance if p))
    if lines:
        fig.text(0.01, -0.01, "Data: " + "; ".join(lines), ha="left", va="top", fontsize=7,
                 color="#555555", wrap=True)  # fmt: skip
    prefix = Path(prefix)
    for suffix, extra in ((".png", {"dpi": 150}), (".pdf", {"metadata": {"CreationDate": None}})):
        with atomic_path(prefix.with_name(prefix.name + suffix)) as tmp:
            fig.savefig(tmp, format=suffix[1:], bbox_inches="tight", **extra)
    pyplot().close(fig)
