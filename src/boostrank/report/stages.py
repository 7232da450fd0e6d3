"""Which readings ``make readings`` runs, and at which stage: screen at the run config's sizes,
then confirm at the printed protocol.

Stage 1, ``screen`` (``make readings``), runs every reading of ``config/readings.yaml`` (or
config ``readings.only``) on the config it is given, config/quick.yaml by default. Stage 2,
``confirm`` (``make readings PROTOCOL=full``), runs on config/config.yaml only the readings the
screen's table sends on (:func:`boostrank.report.readings.to_confirm`), under its own root and
into its own table; ``make readings ONLY=<id>`` confirms one reading, whatever the screen found.
The Makefile passes the choice as two top-level config keys, ``readings_stage`` and
``readings_only``, which :func:`stage_selection` takes out of the config so that no variant's
workflow sees them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boostrank.errors import BoostrankError, did_you_mean
from boostrank.report.readings import STAGES, TABLES, load_readings, to_confirm


def stage_selection(
    config: dict[str, Any], registry: Path | str
) -> tuple[str, list[str] | None, list[str]]:
    """``(stage, readings to run or None for all, the screen's table if the choice read it)``;
    removes ``readings_stage`` and ``readings_only`` from ``config``. One line on a bad value."""
    stage = str(config.pop("readings_stage", None) or "screen")
    only = config.pop("readings_only", None)
    if stage not in STAGES:
        raise BoostrankError(
            f"readings_stage is '{stage}'; give one of {', '.join(STAGES)} "
            "(make readings PROTOCOL=full runs the confirm stage)"
        )
    if only:
        return stage, only_ids(str(only), registry), []
    if stage == "screen":
        return stage, (config.get("readings") or {}).get("only"), []
    return stage, _sent_on(Path(TABLES["screen"])), [TABLES["screen"]]


def only_ids(text: str, registry: Path | str) -> list[str]:
    """The reading ids of ``ONLY=<id>[,<id>]``; one line naming an unknown one."""
    ids = [i.strip() for i in text.split(",") if i.strip()]
    known = [r.id for r in load_readings(registry)]
    for wanted in ids:
        if wanted not in known:
            raise BoostrankError(
                f"ONLY={text!r} names '{wanted}', which {registry} lacks"
                f"{did_you_mean(wanted, known)}; the ids are those of config/readings.yaml"
            )
    return ids


def _sent_on(table_path: Path) -> list[str]:
    """The readings the screen's table sends to stage 2 (one line if it has not run or sends
    none)."""
    import pandas as pd

    if not table_path.is_file():
        raise BoostrankError(
            f"make readings PROTOCOL=full confirms what the screen found, but {table_path} is "
            "missing; run make readings first (or name one reading: make readings ONLY=<id>)"
        )
    chosen = to_confirm(pd.read_csv(table_path, keep_default_na=False))
    if not chosen:
        raise BoostrankError(
            f"{table_path}: no reading changes a verdict or moves a claim by more than half its "
            "tolerance, so stage 2 has nothing to confirm"
        )
    return chosen


__all__ = ["only_ids", "stage_selection"]
