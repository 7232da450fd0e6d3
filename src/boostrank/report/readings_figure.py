"""A figure under a reading's option, beside the same figure under the default
(``make figure FIG=<id> READING=<reading>=<option>``, and every figure ``make readings ONLY=<id>``
moves), with the claims whose verdict the option changes listed under the two panels.

Both panels are the PNGs the two workflow copies of ``make readings``' confirm stage drew
(``results/readings-full/<variant>/figures/<id>.png``), so the option's figure reuses every job
the option does not change. The output is ``figures/readings/<id>__<variant>.{png,pdf}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boostrank.errors import BoostrankError, did_you_mean
from boostrank.report.claims import Claim, evaluate, figure_of
from boostrank.report.readings import (
    DEFAULT_VARIANT,
    Reading,
    load_readings,
    matched_claims,
    option_text,
    variant_name,
)

OUT = "figures/readings"  # OUT/<figure>__<variant>.png


def figure_target(figure: str, variant: str) -> str:
    """The side-by-side PNG of ``figure`` under ``variant`` (a reading's option)."""
    return f"{OUT}/{figure}__{variant}.png"


def parse_choice(text: str, registry: Path | str, config: dict[str, Any]) -> tuple[Reading, str]:
    """``<reading>=<option>`` as the reading and its variant; one line if either is unknown or
    the option is the configured one (nothing to draw beside the default)."""
    reading_id, sep, option = text.partition("=")
    if not sep or not option:
        raise BoostrankError(
            f"READING={text!r}: give <reading>=<option>, e.g. READING=chapter3_tie_break=random"
        )
    reading = load_readings(registry, [reading_id])[0]
    texts = {option_text(o): o for o in reading.options}
    if option not in texts:
        raise BoostrankError(
            f"reading {reading.id} has no option {option!r}; its options: "
            f"{', '.join(texts)}{did_you_mean(option, list(texts))}"
        )
    variant = variant_name(reading, texts[option], config)
    if variant == DEFAULT_VARIANT:
        raise BoostrankError(
            f"{reading.id} = {option} is the configured option: the figure under it is the "
            "default; pick another option"
        )
    return reading, variant


def moved_figures(reading: Reading, claims: list[Claim], drawn: set[str]) -> list[str]:
    """The figures (of ``drawn``, those with a PNG) whose claims ``reading`` names."""
    return sorted({figure_of(c.id) for c in matched_claims(reading, claims)} & drawn)


def changed_claims(
    claims: list[Claim], figure: str, roots: tuple[Path, Path], seed: int = 0
) -> list[str]:
    """``<claim>: <verdict> -> <verdict>``, each claim of ``figure`` whose verdict differs
    between the default's root and the option's (stand-ins included: they are labelled)."""
    own = [c for c in claims if figure_of(c.id) == figure]
    default, option = (evaluate(own, root, seed).set_index("claim_id") for root in roots)
    both = default.index.intersection(option.index)
    return [
        f"{cid}: {default.at[cid, 'verdict']} -> {option.at[cid, 'verdict']}"
        for cid in both
        if default.at[cid, "verdict"] != option.at[cid, "verdict"]
    ]


def draw_side_by_side(
    pngs: tuple[Path, Path], titles: tuple[str, str], changed: list[str], prefix: Path | str
) -> None:
    """The two PNGs in two panels, titled, with ``changed`` listed below."""
    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    images = [plt.imread(p) for p in pngs]
    height = max(i.shape[0] / i.shape[1] for i in images) * 7
    fig, axes = plt.subplots(1, 2, figsize=(14, height + 0.4 + 0.18 * min(len(changed), 12)))
    for ax, image, title in zip(axes, images, titles, strict=True):
        ax.imshow(image)
        ax.set_title(title, fontsize=10)
        ax.axis("off")
    shown = changed[:12] + ([f"... and {len(changed) - 12} more"] if len(changed) > 12 else [])
    text = "Claims whose verdict changes: " + ("; ".join(shown) if shown else "none")
    fig.text(0.01, 0.01, text, ha="left", va="bottom", fontsize=8, wrap=True)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    save_figure(fig, prefix, [])


__all__ = [
    "OUT",
    "changed_claims",
    "draw_side_by_side",
    "figure_target",
    "moved_figures",
    "parse_choice",
]
