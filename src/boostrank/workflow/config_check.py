"""Check the workflow configuration against its JSON schema with one clear message.

Snakemake's own ``validate`` prints the whole schema on a mistake (hundreds of lines); this
check runs first and names the key, what is wrong and how to fix it, in one line. Snakemake's
``validate`` still runs afterwards to fill in the schema's defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from boostrank.errors import BoostrankError, did_you_mean
from boostrank.io import read_yaml
from boostrank.workflow import stamp_cache

HINT = "fix it in config/config.yaml or in the --configfile / --config you passed"


SHOWN = 60  # characters of a wrong value a message quotes (a whole file read as YAML is long)


def check_working_directory(basedir: str | Path) -> None:
    """Stop with one line when the working directory holds no config/config.yaml.

    The default configuration is config/config.yaml of the working directory, where the run's
    config, data and results live. Run from elsewhere with a --configfile, Snakemake would skip
    it without a word and every key it holds would be reported missing: say where it looked.
    """
    if not Path("config/config.yaml").is_file():
        raise BoostrankError(
            f"no config/config.yaml in the working directory {Path.cwd()}: the workflow runs in "
            f"its repository (config/, data/ and results/ there); run it from {basedir} "
            f"(cd there, or add --directory {basedir})"
        )


def _short(value: Any) -> str:
    """``repr(value)``, cut to :data:`SHOWN` characters: a message stays one short line."""
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[: SHOWN - 5]}...{text[-2:]}"


def _location(path: Any) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def config_problem(
    config: dict[str, Any], schema: dict[str, Any], label: str = "config", hint: str = HINT
) -> str | None:
    """The most relevant violation of ``schema`` by ``config`` (named ``label`` in the
    message, which ends with ``hint``) as one line, or None."""
    import jsonschema  # a dependency of snakemake

    validator = jsonschema.validators.validator_for(schema)(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(config))
    if error is None:
        return None
    where = _location(error.absolute_path)
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        keys = ", ".join(repr(k) + did_you_mean(k, allowed) for k in extra)
        place = "at the top level" if where == "(top level)" else f"in '{where}'"
        return (
            f"{label}: unknown key {keys} {place}; known keys there: {', '.join(allowed)} "
            f"({hint}: correct the spelling or remove it)"
        )
    if error.validator == "enum":
        choices = ", ".join(map(str, error.validator_value))
        return (
            f"{label} '{where}': {_short(error.instance)} is not allowed"
            f"{did_you_mean(error.instance, error.validator_value)}; choose from {choices} "
            f"({hint})"
        )
    if error.validator == "required":
        return f"{label} '{where}': {error.message} ({hint}: add the key)"
    message = error.message.replace(repr(error.instance), _short(error.instance))
    return f"{label} '{where}': {message} ({hint})"


def coerce_cli_numbers(config: Any, schema: dict[str, Any]) -> Any:
    """Snakemake passes the numbers inside a nested ``--config key={...}`` as strings; turn
    a string into the number (or boolean) the schema wants there, and leave the rest alone.
    Works in place on dicts and lists and returns ``config``."""
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or [])
    if isinstance(config, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, value in config.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                config[key] = coerce_cli_numbers(value, sub)
        return config
    if isinstance(config, list) and isinstance(schema.get("items"), dict):
        return [coerce_cli_numbers(v, schema["items"]) for v in config]
    if isinstance(config, str):
        text = config.strip()
        if "boolean" in kinds and text.lower() in ("true", "false"):
            return text.lower() == "true"
        if "null" in kinds and text.lower() in ("null", "none"):
            return None
        try:
            if "integer" in kinds and text.lstrip("+-").isdigit():
                return int(text)
            if "number" in kinds:
                return float(text)
        except ValueError:
            return config
    return config


def _shown(path: Path) -> Path:
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def check_registry(path: Path | str, schema_path: Path | str) -> None:
    """Raise :class:`BoostrankError` with a one-line message if the registry file ``path``
    (``config/datasets.yaml``, ``claims.yaml`` or ``figures.yaml``) breaks its schema. A
    registry that passed is not read again until it, its schema or this module changes
    (:mod:`boostrank.workflow.stamp_cache`, when the workflow keeps one)."""
    path, schema_path = Path(path), Path(schema_path)
    # Checked before and unchanged since (file, schema and this check): nothing to do.
    checked_from: list[Path | str] = [path, schema_path, __file__]
    key = f"valid registry:{path.resolve()}|{schema_path.resolve()}"
    if stamp_cache.get(key, checked_from):
        return
    try:
        data = read_yaml(path)
    except OSError as exc:
        raise BoostrankError(f"cannot read {path}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        # One line: the problem and its line, not PyYAML's several lines with the text quoted.
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        what = " ".join(str(getattr(exc, "problem", None) or exc).split())
        raise BoostrankError(
            f"{path} is not valid YAML{where}: {what}; give the path of a registry file"
        ) from None
    if data is not None and not isinstance(data, dict):  # another kind of file named by mistake
        raise BoostrankError(
            f"{path} is not a registry (it reads as {type(data).__name__} "
            f"{_short(data)}, not a YAML mapping); check the path given for it"
        )
    schema = read_yaml(schema_path)
    problem = config_problem(data or {}, schema, label=str(path), hint=f"fix it in {path}")
    if problem:
        raise BoostrankError(f"{problem}; its schema is {_shown(schema_path)}")
    stamp_cache.put(key, checked_from, True)


def check_config(config: dict[str, Any], schema_path: Path | str) -> None:
    """Raise :class:`BoostrankError` with a one-line message if ``config`` breaks the schema
    (after turning the numbers a nested ``--config`` passes as strings into numbers)."""
    schema_path = Path(schema_path)
    schema = read_yaml(schema_path)
    coerce_cli_numbers(config, schema)
    problem = config_problem(config, schema)
    if problem:
        raise BoostrankError(f"{problem}; every key is described in {_shown(schema_path)}")
    _check_pins(config.get("data", {}).get("pins"))


def _check_pins(pins: str | None) -> None:
    """The lock file of pinned hashes is written by the fetch jobs: it stays under data/."""
    data = Path("data").resolve()
    if pins is not None and not Path(pins).resolve().is_relative_to(data):
        raise BoostrankError(
            f"config 'data.pins': {_short(pins)} lies outside {data}; the lock file is written "
            "by the run, so give a path under data/ (the default is data/registry.lock)"
        )
