"""The readings registry (``config/readings.yaml``) and the sensitivity run of ``make readings``.

A *reading* is a choice the pipeline made where a source is ambiguous, silent or wrong: the
paper's words, the options, the default (the most faithful reading) and the config key that
switches it. ``make readings`` reruns the claims each reading can move under every option, each
(reading, option) as its own copy of the workflow under ``results/readings/<variant>/``
(``workflow/readings.smk``; options equal to the configured value share the ``default``
variant), and :func:`tabulate` checks the claims there as :mod:`boostrank.report.claims` does:
one row per (reading, option, claim), on real data only (claims whose value was made from a
synthetic stand-in are left out). A shift is measured in the claim's tolerance (``abs``: the
tolerance; ``rel``: the tolerance times the published value); claims without one (ordinal,
exact) show only their verdicts. A reading *decides* a claim's verdict when one option gives
PASS and another FAIL; the claims page and the figure name, for each deciding reading, the
claims it flips and the option that gives PASS, and a failing claim of the main run that another
option makes PASS has diagnosis ``reading`` (:mod:`boostrank.report.diagnosis`). ``make
readings`` runs on config/quick.yaml by default: the column ``protocol`` says, per claim, which
printed keys of its section the run reduced (:mod:`boostrank.report.protocol`), and the figure's
title says "reduced protocol" when any are.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from boostrank.errors import BoostrankError
from boostrank.io import read_yaml
from boostrank.report.claims import Claim, evaluate, figure_of
from boostrank.report.diagnosis import Findings, Flip
from boostrank.report.protocol import Reduction, label, reduced_for
from boostrank.report.roots import ROOT, ROOTS

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_VARIANT = "default"
# Stage 1 (screen) runs every (reading, option) at the run config's sizes (config/quick.yaml by
# default); stage 2 (confirm) reruns at the printed protocol the readings stage 1 found to
# matter (:func:`to_confirm`), under its own root, into its own table.
STAGES = ("screen", "confirm")
TABLES = {"screen": "results/readings.csv", "confirm": "results/readings_confirm.csv"}
FIGURES = {"screen": "figures/readings", "confirm": "figures/readings_confirm"}
CONFIRM_SHIFT = 0.5  # a claim moved by more than half its tolerance sends its reading to stage 2
# Paths a variant writes under its own root; data/raw (the fetched files) is shared.
VARIANT_PREFIXES = (
    "results/",
    "figures/",
    "logs/",
    "benchmarks/",
    "data/processed/",
    "data/interim/",
)
COLUMNS = [
    "reading",
    "option",
    "is_default",
    "claim_id",
    "value",
    "default_value",
    "published",
    "tolerance",
    "shift_in_tolerances",
    "verdict",
    "default_verdict",
    "variant",
    "provenance",
    "protocol",
    "stage",
]


@dataclass(frozen=True)
class Reading:
    """One entry of ``config/readings.yaml`` (its schema: ``workflow/schemas/readings``)."""

    id: str
    source: str
    quote: str
    choice: str
    config: str | list[str]
    options: list[Any]
    default: Any
    basis: str
    evidence: str
    claims: list[str]
    covers: tuple[str, ...] = ()  # keys the choice also sets, held as configured
    guard: bool = False  # the reading switches a guard (boostrank.guards counts its firings)

    @property
    def keys(self) -> list[str]:
        """The dotted config keys the reading sets (one choice may live in several places)."""
        return [self.config] if isinstance(self.config, str) else list(self.config)

    def configured(self, config: dict[str, Any]) -> Any:
        """The option ``config`` holds; its keys must agree (one line naming them if not)."""
        values = [config_value(config, key) for key in self.keys]
        if any(v != values[0] for v in values[1:]):
            found = ", ".join(f"{k} = {v!r}" for k, v in zip(self.keys, values, strict=True))
            raise BoostrankError(
                f"reading {self.id} sets its keys together, but the config has {found}; "
                "give them one value"
            )
        return values[0]

    def applied(self, config: dict[str, Any], option: Any) -> dict[str, Any]:
        """A deep copy of ``config`` with every key of the reading set to ``option``."""
        for key in self.keys:
            config = with_option(config, key, option)
        return config


def load_readings(path: Path | str, only: list[str] | None = None) -> list[Reading]:
    """The registry's readings, in file order (``only``: these ids; an unknown id stops with
    one line naming it)."""
    from boostrank.errors import did_you_mean

    raw = read_yaml(path) or {}
    readings = [Reading(**entry) for entry in raw.get("readings") or []]
    if not only:
        return readings
    ids = [r.id for r in readings]
    for wanted in only:
        if wanted not in ids:
            raise BoostrankError(
                f"config readings.only names '{wanted}', which {path} lacks"
                f"{did_you_mean(wanted, ids)}"
            )
    return [r for r in readings if r.id in only]


def config_value(config: dict[str, Any], key: str) -> Any:
    """The value at a dotted config key; one line naming the missing part if there is none."""
    node: Any = config
    parts = key.split(".")
    for i, part in enumerate(parts):
        if not isinstance(node, dict) or part not in node:
            raise BoostrankError(
                f"config/readings.yaml names config key '{key}', but the config has no "
                f"'{'.'.join(parts[: i + 1])}'; fix the key in config/readings.yaml"
            )
        node = node[part]
    return node


def with_option(config: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A deep copy of ``config`` with the dotted ``key`` set to ``value``."""
    config_value(config, key)  # the key must exist: a misspelt key is not a new option
    out = copy.deepcopy(config)
    node = out
    *parents, last = key.split(".")
    for part in parents:
        node = node[part]
    node[last] = value
    return out


def variant_name(reading: Reading, option: Any, config: dict[str, Any]) -> str:
    """``default`` when the option is the configured value, else ``<reading>.<option>``
    (an option that is a list or a mapping, e.g. a grid, by its place: ``<reading>.option2``)."""
    if option == reading.configured(config):
        return DEFAULT_VARIANT
    if isinstance(option, list | dict):
        return f"{reading.id}.option{reading.options.index(option) + 1}"
    return f"{reading.id}.{option}"


def variant_dir(root: Path | str, name: str, main_default: bool = False) -> Path:
    """Where a variant's workflow copy writes: ``<root>/<name>``, or the working directory (the
    main run) for the default variant of the confirm stage (``main_default``)."""
    return Path(".") if main_default and name == DEFAULT_VARIANT else Path(root, name)


def matched_claims(reading: Reading, claims: list[Claim]) -> list[Claim]:
    """The claims whose id matches one of the reading's patterns."""
    return [c for c in claims if any(fnmatch(c.id, p) for p in reading.claims)]


def claim_files(claims: list[Claim]) -> list[str]:
    """The results files the claims read (their own and those they compare with)."""
    files = {str(c.reproduce["file"]) for c in claims}
    files |= {str(c.rule["other"]["file"]) for c in claims if "other" in c.rule}
    return sorted(files)


@dataclass(frozen=True)
class Variant:
    """One copy of the workflow: its config and the results files its claims read."""

    name: str
    config: dict[str, Any]
    files: tuple[str, ...]


def plan(
    readings: list[Reading], claims: list[Claim], config: dict[str, Any]
) -> dict[str, Variant]:
    """Every variant ``make readings`` runs: ``default`` (the config as given) and one per
    (reading, option) that differs from it, each with the files its readings' claims read."""
    files: dict[str, set[str]] = {}
    configs: dict[str, dict[str, Any]] = {DEFAULT_VARIANT: config}
    for reading in readings:
        needed = claim_files(matched_claims(reading, claims))
        if not needed:
            raise BoostrankError(f"reading {reading.id}: its claim patterns match no claim")
        for option in reading.options:
            name = variant_name(reading, option, config)
            if name != DEFAULT_VARIANT:
                configs[name] = reading.applied(config, option)
            files.setdefault(name, set()).update(needed)
    return {n: Variant(n, configs[n], tuple(sorted(files.get(n, ())))) for n in configs}


def variant_table(readings: list[Reading], config: dict[str, Any]) -> dict[str, dict[str, str]]:
    """``{reading: {option: variant}}`` (options as text, as the CSV shows them)."""
    return {r.id: {option_text(o): variant_name(r, o, config) for o in r.options} for r in readings}


def option_text(option: Any) -> str:
    """An option as the CSV shows it (a list as its items joined by spaces)."""
    if isinstance(option, list):
        return " ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in option)
    return str(option)


def tolerance(rule: dict[str, Any], published: Any) -> float | None:
    """A claim's tolerance in its value's units (None for ordinal and exact claims)."""
    kind = rule.get("type", "equal")
    if kind == "abs":
        return float(rule["tol"])
    if kind == "rel":
        return float(rule["tol"]) * abs(float(published))
    return None


def tabulate(
    readings: list[Reading],
    claims: list[Claim],
    variants: dict[str, dict[str, str]],
    root: Path | str = ROOT,
    seed: int = 0,
    reduced: list[Reduction] | None = None,
    stage: str = "screen",
    main_default: bool = False,
) -> pd.DataFrame:
    """One row per (reading, option, claim) checked on real data (module docstring);
    ``reduced``: the printed keys the run's config changed (its ``protocol`` column);
    ``stage``: which of :data:`STAGES` made the variants; ``main_default``: the default
    variant is the main run (the working directory), as in the confirm stage."""
    import pandas as pd

    root = Path(root)
    checked: dict[str, pd.DataFrame] = {}  # variant -> its claims' verdicts (all claims)
    rows = []
    for reading in readings:
        rules = {c.id: c.rule for c in matched_claims(reading, claims)}
        by_option = {}
        for option, variant in variants[reading.id].items():
            if variant not in checked:
                where = variant_dir(root, variant, main_default)
                checked[variant] = evaluate(claims, where, seed).set_index("claim_id")
            by_option[option] = checked[variant]
        default = by_option[option_text(reading.default)]
        for option, frame in by_option.items():
            for claim_id, row in frame.iterrows():
                # A family's or a table's members extend their claim's id.
                owners = [c for c in rules if str(claim_id).startswith(c)]
                if not owners:
                    continue
                if row["verdict"] == "NOT-COMPARABLE" or claim_id not in default.index:
                    continue  # a stand-in, or a value the data cannot establish
                base = cast("pd.Series", default.loc[str(claim_id)])  # claim ids are unique
                tol = tolerance(rules[max(owners, key=len)], row["published"])
                rows.append(
                    {
                        "reading": reading.id,
                        "option": option,
                        "is_default": option == option_text(reading.default),
                        "claim_id": claim_id,
                        "value": _judged(row),
                        "default_value": _judged(base),
                        "published": row["published"],
                        "tolerance": "" if tol is None else tol,
                        "shift_in_tolerances": _shift(_judged(row), _judged(base), tol),
                        "verdict": row["verdict"],
                        "default_verdict": base["verdict"],
                        "variant": variants[reading.id][option],
                        "provenance": row["provenance"],
                        "protocol": label(reduced_for(figure_of(str(claim_id)), reduced or [])),
                        "stage": stage,
                    }
                )
    return pd.DataFrame(rows, columns=COLUMNS)


DECIDING = ["reading", "claim_id", "pass", "fail", "default"]


def deciding(table: pd.DataFrame) -> pd.DataFrame:
    """The (reading, claim) pairs where one option gives PASS and another FAIL: the options
    giving each (``pass``, ``fail``, comma-separated) and the reading's ``default``."""
    import pandas as pd

    rows = [
        {
            "reading": d.reading,
            "claim_id": d.claim_id,
            "pass": ", ".join(d.passing),
            "fail": ", ".join(d.failing),
            "default": d.default,
        }
        for d in _decided(table)
    ]
    return pd.DataFrame(rows, columns=DECIDING)


def flips(table: pd.DataFrame) -> dict[str, list[Flip]]:
    """``{claim id: [Flip]}``: the options other than a reading's default that give PASS where
    the reading decides the claim (a failing claim they would flip), with the claim's value
    under that option and under the default."""
    out: dict[str, list[Flip]] = {}
    for d in _decided(table):
        for option in d.passing:
            if option != d.default:
                value, base = d.values.get(option, ""), d.values.get(d.default, "")
                out.setdefault(d.claim_id, []).append(Flip(d.reading, option, value, base))
    return out


def ruled_out(table: pd.DataFrame) -> dict[str, list[str]]:
    """``{claim id: [reading]}``: the readings under none of whose options the claim PASSes
    (every option FAIL or INCONCLUSIVE): what the table rules out for a failing claim."""
    out: dict[str, list[str]] = {}
    if table.empty:
        return out
    for (reading, claim_id), group in table.groupby(["reading", "claim_id"], sort=False):
        if set(group["verdict"]) <= {"FAIL", "INCONCLUSIVE"}:
            out.setdefault(str(claim_id), []).append(str(reading))
    return out


class _Decided(NamedTuple):
    """A (reading, claim) pair the reading decides: the options giving PASS and FAIL, the
    reading's default option and the claim's value under each option."""

    reading: str
    claim_id: str
    passing: list[str]
    failing: list[str]
    default: str
    values: dict[str, Any]


def _decided(table: pd.DataFrame) -> Iterator[_Decided]:
    """Each (reading, claim) pair of the table that the reading decides."""
    if table.empty:
        return
    defaults = table[is_default(table)].groupby("reading")["option"].first().astype(str)
    for (reading, claim_id), group in table.groupby(["reading", "claim_id"], sort=False):
        options = group["option"].astype(str)
        verdicts = dict(zip(options, group["verdict"], strict=True))
        passing = [o for o, v in verdicts.items() if v == "PASS"]
        failing = [o for o, v in verdicts.items() if v == "FAIL"]
        if passing and failing:
            values = dict(zip(options, group["value"], strict=True))
            default = defaults.get(reading, "")
            yield _Decided(
                reading=str(reading),
                claim_id=str(claim_id),
                passing=passing,
                failing=failing,
                default=default,
                values=values,
            )


def to_confirm(table: pd.DataFrame) -> list[str]:
    """The readings stage 2 reruns at the printed protocol: those with an option that, on real
    data, changes a claim's verdict or moves its value by more than :data:`CONFIRM_SHIFT` of
    its tolerance."""
    if table.empty:
        return []
    shift = pd_numeric(table["shift_in_tolerances"]).abs()
    moved = table["verdict"].astype(str).ne(table["default_verdict"].astype(str))
    moved |= shift > CONFIRM_SHIFT
    return [str(r) for r in dict.fromkeys(table.loc[moved, "reading"])]


def combined(screen: pd.DataFrame | None, confirm: pd.DataFrame | None) -> pd.DataFrame | None:
    """One table for the claims page and the diagnoses: stage 2's rows for the readings it
    reran, stage 1's for the others (None when neither stage has run)."""
    import pandas as pd

    parts = [t for t in (screen, confirm) if t is not None]
    if not parts:
        return None
    if screen is None or confirm is None or confirm.empty:
        return parts[0]
    kept = screen[~screen["reading"].isin(set(confirm["reading"]))]
    return pd.concat([kept, confirm], ignore_index=True)


def pd_numeric(column: pd.Series) -> pd.Series:
    """A column of numbers and blanks ("" where a claim has no tolerance) as floats (NaN)."""
    import pandas as pd

    return pd.to_numeric(column, errors="coerce")


def unmeasured(table: pd.DataFrame, ids: list[str]) -> list[str]:
    """The readings of ``ids`` with no row in the table: no claim they name was checked on
    real data in this run (every value came from a stand-in, or is an absolute value on
    substitute data, which is NOT-COMPARABLE), or ``readings.only`` left them out."""
    present = set(table["reading"].astype(str)) if not table.empty else set()
    return [i for i in ids if i not in present]


def outside_options(table: pd.DataFrame) -> list[str]:
    """The readings none of whose rows came from the ``default`` variant: the run's config set
    their key to a value outside the options (e.g. config/quick.yaml's smaller sizes), so every
    option ran apart and is measured against the reading's default option, not the run."""
    if table.empty:
        return []
    from_run = table["variant"].astype(str).eq(DEFAULT_VARIANT).groupby(table["reading"]).any()
    return [str(r) for r in dict.fromkeys(table["reading"]) if not from_run[r]]


def is_default(table: pd.DataFrame) -> pd.Series:
    """The rows of the reading's default option (``is_default`` read back from the CSV too)."""
    return table["is_default"].astype(str).str.lower().eq("true")


def reduced_protocols(table: pd.DataFrame) -> list[str]:
    """The distinct ``reduced protocol (...)`` labels of the table's claims (empty: every
    claim ran on the printed protocol)."""
    column: pd.Series | list[str] = table["protocol"] if "protocol" in table.columns else []
    return [p for p in dict.fromkeys(column) if p]


def draw(table: pd.DataFrame, prefix: Path | str, provenance: str) -> None:
    """``figures/readings.{png,pdf}``: for each reading and each non-default option, how far it
    moves each claim that has a tolerance (|shift| in tolerances; 1 = the claim's tolerance; red
    where the claim's verdict changes), with the count of verdicts it changes and the claims it
    flips between FAIL and PASS (the options that decide a verdict are red on the left). The
    title says "reduced protocol" when the run changed a printed key."""
    from matplotlib.transforms import offset_copy

    from boostrank.plots import pyplot, save_figure

    plt = pyplot()
    shown = table[~is_default(table)]
    keys = list(dict.fromkeys(zip(shown["reading"], shown["option"], strict=True)))
    parts = [shown[(shown["reading"] == r) & (shown["option"] == o)] for r, o in keys]
    flips_of = [_flipped(part) for part in parts]
    width = 14 if any(flips_of) else 9  # room for the claims named beside the axes
    fig, ax = plt.subplots(figsize=(width, 0.55 * max(len(keys), 4) + 1.4))
    for i, (part, named) in enumerate(zip(parts, flips_of, strict=True)):
        changed = part["verdict"] != part["default_verdict"]
        measured = part["shift_in_tolerances"] != ""
        for flipped, colour in ((False, "#1f77b4"), (True, "#d62728")):
            points = part[measured & (changed == flipped)]["shift_in_tolerances"]
            ax.scatter(
                [abs(float(s)) for s in points],
                [i] * len(points),
                s=18,
                alpha=0.6,
                color=colour,
                label=("verdict changes" if flipped else "verdict stays") if i == 0 else None,
            )
        ax.annotate(
            f"{int(changed.sum())} of {len(part)} verdicts change"
            + ("" if measured.any() else " (no tolerance: ordinal claims)")
            + "".join(f"\n{text}" for text in named),
            (1.0, i),
            xycoords=("axes fraction", "data"),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=7,
            color="#d62728" if named else "black",
        )
    ax.set_yticks(range(len(keys)), [f"{r} = {o}" for r, o in keys], fontsize=7)
    for tick, named in zip(ax.get_yticklabels(), flips_of, strict=True):
        if named:
            tick.set_color("#d62728")
            tick.set_fontweight("bold")
    ax.set_xscale("symlog", linthresh=0.01)  # a claim that does not move sits at 0
    moved = [abs(float(v)) for v in shown["shift_in_tolerances"] if v != ""]
    ax.set_xlim(-0.002, max([2.0, *moved]) * 1.5)
    ax.axvline(1.0, color="grey", ls="--", lw=1, label="one tolerance")
    ax.set_ylim(max(len(keys), 1) - 0.5, -0.5)  # first reading on top, no empty rows around
    ax.tick_params(axis="x", top=True, labeltop=True)  # the scale at both ends of a tall figure
    above_ticks = offset_copy(ax.transAxes, fig=fig, y=14, units="points")
    ax.legend(
        fontsize=7,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        bbox_transform=above_ticks,
        ncol=3,
        frameon=False,
    )
    ax.set_xlabel("|value under the option - value under the default| / the claim's tolerance")
    title = "How each reading moves the published numbers"
    if reduced_protocols(table):
        title += "\n(reduced protocol: smaller than the printed one, not the reproduction's result)"
    ax.set_title(title, fontsize=10, pad=34)
    fig.tight_layout()
    save_figure(fig, prefix, [provenance])


def findings(table: pd.DataFrame | None, reduced: list[Reduction]) -> Findings:
    """What the diagnoses of a run's claims read: make readings' table (None: it has not
    run) and the printed keys the run reduced."""
    if table is None:
        return Findings(reduced=tuple(reduced))
    passing = table[is_default(table) & (table["verdict"] == "PASS")]["claim_id"]
    return Findings(
        flips=flips(table),
        ruled_out=ruled_out(table),
        checked=frozenset(table["claim_id"].astype(str)),
        passing_by_default=frozenset(passing.astype(str)),
        readings_run=True,
        readings_reduced=_reduced_pairs(table),
        reduced=tuple(reduced),
    )


def _reduced_pairs(table: pd.DataFrame) -> frozenset[tuple[str, str]]:
    """The (claim id, reading) pairs of the table's rows made on a reduced protocol."""
    if "protocol" not in table.columns:
        return frozenset()
    rows = table.loc[table["protocol"].astype(str) != "", ["claim_id", "reading"]].astype(str)
    return frozenset(zip(rows["claim_id"], rows["reading"], strict=True))


def _flipped(part: pd.DataFrame, shown: int = 3) -> list[str]:
    """``PASS here, FAIL by default: a, b`` and the reverse, for one option's rows."""
    import textwrap

    out = []
    for here, there in (("PASS", "FAIL"), ("FAIL", "PASS")):
        ids = list(part[(part["verdict"] == here) & (part["default_verdict"] == there)]["claim_id"])
        if ids:
            more = f" +{len(ids) - shown} more" if len(ids) > shown else ""
            text = f"{here} here, {there} by default: {', '.join(ids[:shown])}{more}"
            out.append(textwrap.fill(text, 90, subsequent_indent="    "))
    return out


def _judged(row: pd.Series) -> Any:
    """The value a verdict reads: the mean where the row has one, else the reproduced value."""
    mean = row.get("mean", "")
    if mean != "" and not (isinstance(mean, float) and math.isnan(mean)):
        return mean
    return row["reproduced"]


def _shift(value: Any, base: Any, tol: float | None) -> Any:
    if tol is None or tol == 0:
        return ""
    try:
        return round((float(value) - float(base)) / tol, 4)
    except (TypeError, ValueError):
        return ""


__all__ = [
    "COLUMNS",
    "CONFIRM_SHIFT",
    "DEFAULT_VARIANT",
    "FIGURES",
    "ROOT",
    "ROOTS",
    "STAGES",
    "TABLES",
    "VARIANT_PREFIXES",
    "Reading",
    "Variant",
    "claim_files",
    "combined",
    "config_value",
    "deciding",
    "draw",
    "findings",
    "flips",
    "is_default",
    "load_readings",
    "matched_claims",
    "outside_options",
    "plan",
    "reduced_protocols",
    "ruled_out",
    "tabulate",
    "to_confirm",
    "tolerance",
    "unmeasured",
    "variant_dir",
    "variant_name",
    "variant_table",
    "with_option",
]
