"""Command line: ``python -m boostrank <command>``. Snakemake rules call these entry points with
explicit inputs, outputs, parameters and seeds; they hold no logic of their own."""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boostrank.errors import BoostrankError
from boostrank.workflow.job_resources import JOB_RESOURCES_ENV, resource_line

if TYPE_CHECKING:
    from boostrank.report.protocol import Reduction

log = logging.getLogger("boostrank")


def _cmd_fetch(args: argparse.Namespace) -> None:
    from boostrank.data.registry import get_spec, load_registry
    from boostrank.data.sources import FetchSettings, fetch_dataset, mirror_setting

    spec = get_spec(load_registry(args.registry), args.dataset)
    # --mirror, as the workflow passes it (even empty), is the whole answer; without it the
    # environment is asked.
    mirror = args.mirror if args.mirror is not None else mirror_setting(None)[0]
    settings = FetchSettings(
        sources=tuple(args.sources.split(",")),
        mirror=mirror or None,
        allow_synthetic=args.allow_synthetic == "true",
        strict=args.strict == "true",
        replace_real=args.replace_real == "true",
        timeout=args.timeout,
        retries=args.retries,
        lock=Path(args.pins) if args.pins else None,
    )
    fetch_dataset(spec, Path(args.raw_dir), settings, key=args.rerun_key)


def _cmd_prepare(args: argparse.Namespace) -> None:
    from boostrank.data.prepare import prepare_dataset
    from boostrank.data.registry import get_spec, load_registry

    spec = get_spec(load_registry(args.registry), args.dataset)
    prepare_dataset(
        spec,
        Path(args.raw_dir),
        Path(args.npz),
        Path(args.meta),
        seed=args.seed,
        synthetic_scale=args.synthetic_scale,
    )


def _reductions(args: argparse.Namespace) -> list[Reduction]:
    """The printed keys the run's config (``--run-config``, JSON) changed; none without it."""
    from boostrank.io import json_object
    from boostrank.report.protocol import run_reductions

    if not args.run_config:
        return []
    return run_reductions(json_object(args.run_config), args.printed_config, args.config_schema)


def _protocol_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run-config", default="", help="the run's config as JSON (reduced protocol)")
    p.add_argument("--printed-config", default="config/config.yaml", help="the printed protocol")
    p.add_argument("--config-schema", default="workflow/schemas/config.schema.yaml")


def _cmd_readings(args: argparse.Namespace) -> None:
    from boostrank.io import json_object, write_text
    from boostrank.report.claims import load_claims
    from boostrank.report.readings import (
        deciding,
        draw,
        load_readings,
        outside_options,
        tabulate,
        unmeasured,
    )

    variants = json_object(args.variants)
    readings = load_readings(args.readings, list(variants))
    table = tabulate(
        readings,
        load_claims(args.claims),
        variants,
        root=args.root,
        seed=args.seed,
        reduced=_reductions(args),
        stage=args.stage,
        main_default=args.main_default,
    )
    if table.empty:
        raise BoostrankError(
            "make readings: no claim of any reading was checked on real data (every value came "
            "from a stand-in or is missing); set the data mirror (README, Data) and rerun"
        )
    write_text(args.csv, table.to_csv(index=False))
    kinds = sorted({p.split(":")[0] for p in table["provenance"] if p})
    draw(table, args.figure_prefix, f"{', '.join(kinds)} data (stand-ins left out)")
    decided = deciding(table)
    log.info(
        "%d rows; %d (reading, claim) pairs whose verdict the reading decides",
        len(table),
        len(decided),
    )
    for text, ids in (
        ("no row (no claim checked on real data)", unmeasured(table, [r.id for r in readings])),
        ("set outside their options by the run's config", outside_options(table)),
    ):
        if ids:
            log.info("%d readings %s: %s", len(ids), text, ", ".join(ids))


def _cmd_inventory(args: argparse.Namespace) -> None:
    from boostrank.data.inventory import inventory
    from boostrank.io import write_text

    write_text(args.out, inventory(args.inputs).to_csv(index=False))


def _cmd_report(args: argparse.Namespace) -> None:
    from dataclasses import replace

    import pandas as pd

    from boostrank.experiments.job import figure_code
    from boostrank.io import json_object, write_text
    from boostrank.report import guard_counts
    from boostrank.report.claims import evaluate, load_claims
    from boostrank.report.html import write_report
    from boostrank.report.readings import combined, findings
    from boostrank.workflow.catalog import load_catalog

    reduced = _reductions(args)
    screen, confirm = (
        pd.read_csv(t, keep_default_na=False) if Path(t).exists() else None
        for t in (args.readings_table, args.confirm_table)
    )
    readings = combined(screen, confirm)  # stage 2's rows where it ran, stage 1's elsewhere
    catalog = load_catalog(args.catalog, figure_code())
    guards = guard_counts.summary(
        guard_counts.load(catalog.values()), guard_counts.bases(args.readings)
    )
    known = replace(findings(readings, reduced), guards=guard_counts.diagnosis_notes(guards))
    claims = evaluate(load_claims(args.claims), seed=args.seed, findings=known)
    write_text(args.claims_out, claims.to_csv(index=False))
    inventory = pd.read_csv(args.inventory, dtype=str, keep_default_na=False)
    run_info = dict(item.split("=", 1) for item in args.info)
    write_report(
        args.out,
        catalog,
        claims,
        inventory,
        bench_dir=args.benchmarks,
        run_info=run_info,
        budgets=json_object(args.budgets),
        reduced=reduced,
        readings=readings,
        readings_registry=args.readings,
        statements=args.statements,
        guards=guards,
    )
    if args.captions_out:
        from boostrank.report.captions import write_captions

        write_captions(
            args.captions_out, catalog.values(), claims, inventory, reduced=reduced, guards=guards
        )
    counts = claims["verdict"].value_counts().to_dict()
    log.info("claims: %s; report written to %s", counts, args.out)


def _cmd_claims(args: argparse.Namespace) -> None:
    import pandas as pd

    from boostrank.report.claims import verdict_tally
    from boostrank.report.diagnosis import UNDIAGNOSED, kind

    claims = pd.read_csv(args.csv, dtype=str, keep_default_na=False)
    classes = (
        claims["class"] if "class" in claims.columns else pd.Series("reproduction", claims.index)
    )
    for name, group in claims.groupby(classes, sort=False):
        print(f"{len(group)} {name} claims: {verdict_tally(group['verdict'])}")
    kinds = claims["diagnosis"].map(kind)
    for name, count in kinds[kinds != ""].value_counts().items():
        print(f"  diagnosis {name}: {count}")
    missing = claims[kinds == UNDIAGNOSED]
    if args.undiagnosed and len(missing):
        for row in missing.itertuples():
            print(f"{row.verdict}\t{row.claim_id}\t{row.statement}")
        raise BoostrankError(
            f"{len(missing)} FAIL/INCONCLUSIVE claims of {args.csv} have no diagnosis (listed "
            "above): give each a diagnosis {kind, note} in config/claims.yaml"
        )


def _cmd_headline(args: argparse.Namespace) -> None:
    from boostrank.report.headline import write

    write(Path(args.csv), Path(args.summary), Path(args.readme), args.commit)


def _cmd_figures(args: argparse.Namespace) -> None:
    from boostrank.experiments.job import figure_code
    from boostrank.workflow.catalog import get_figure, load_catalog

    catalog = load_catalog(args.catalog, figure_code())
    if args.name and args.reading:
        print(_reading_target(get_figure(catalog, args.name), args.reading))
        return
    if args.name:
        print(" ".join(get_figure(catalog, args.name).outputs))
        return
    if args.markdown:
        from boostrank.report.figure_index import figure_index

        print(figure_index(catalog.values()), end="")
        return
    width = max(map(len, catalog), default=0)
    pad = " " * width
    for figure in catalog.values():
        print(f"{figure.id:<{width}}  {figure.title}\n{pad}  source: {figure.source}")
        if args.rules:
            print(f"{pad}  rules:  {', '.join(figure.rules)}   (make figure FIG={figure.id})")
            print(f"{pad}  code:   {', '.join(figure.entries)}")
        print(f"{pad}  snakemake " + " ".join(figure.outputs))


def _reading_target(figure: Any, choice: str) -> str:
    """The side-by-side PNG of ``figure`` under ``choice`` (``<reading>=<option>``), against the
    printed config (make readings' confirm stage)."""
    from boostrank.io import read_yaml
    from boostrank.report.readings_figure import figure_target, parse_choice

    if not figure.image:
        raise BoostrankError(f"{figure.id} is a table (no PNG): READING= draws figures only")
    _, variant = parse_choice(choice, "config/readings.yaml", read_yaml("config/config.yaml"))
    return figure_target(figure.id, variant)


def _cmd_readings_only(args: argparse.Namespace) -> None:
    from boostrank.report.stages import only_ids

    print(",".join(only_ids(args.ids, args.readings)))


def _cmd_readings_figure(args: argparse.Namespace) -> None:
    from boostrank.report.claims import load_claims
    from boostrank.report.readings import DEFAULT_VARIANT, variant_dir
    from boostrank.report.readings_figure import changed_claims, draw_side_by_side

    roots = (
        variant_dir(args.root, DEFAULT_VARIANT, args.main_default),
        variant_dir(args.root, args.variant),
    )
    changed = changed_claims(load_claims(args.claims), args.figure, roots, args.seed)
    pngs = (roots[0] / args.image, roots[1] / args.image)
    draw_side_by_side(pngs, (args.default_label, args.label), changed, args.out_prefix)


def _cmd_job(args: argparse.Namespace) -> None:
    from boostrank.experiments.job import run

    run(args.name, args.spec)


def _cmd_config_doc(args: argparse.Namespace) -> None:
    from boostrank.io import write_text
    from boostrank.report.config_doc import config_reference

    text = config_reference(args.schema, args.config)
    if args.out:
        write_text(args.out, text)
    else:
        sys.stdout.write(text)


def _cmd_registry_hashes(args: argparse.Namespace) -> None:
    from boostrank.data.download import sha256_payload
    from boostrank.data.registry import load_registry
    from boostrank.errors import ChecksumError

    mirror = Path(args.mirror)
    for spec in load_registry(args.registry).values():
        for name, expected in spec.all_files.items():
            for candidate in (
                mirror / spec.mirror_folder / name,
                mirror / spec.mirror_folder / (name + ".gz"),
            ):
                if candidate.is_file():
                    try:
                        actual = sha256_payload(candidate)
                    except ChecksumError as exc:  # a corrupt or truncated .gz
                        print(f"{spec.name}\t{name}\t-\tcorrupt: {exc}")
                        break
                    flag = "ok" if actual == expected else f"registry has {expected}"
                    print(f"{spec.name}\t{name}\t{actual}\t{flag}")
                    break


# Every work's jobs run through ``boostrank job`` (boostrank.experiments.job); the one plugin
# left is the text preprocessing command.
PLUGINS = ("boostrank.preprocess.text_cli",)

PLUGIN_PREFIXES = {
    "reuters-corpus": "boostrank.preprocess.text_cli",
}


# The sub-commands defined here: they load no work's plugin (each plugin's imports cost start-up).
ROOT_COMMANDS = frozenset(
    (
        "fetch",
        "prepare",
        "inventory",
        "report",
        "readings",
        "claims",
        "headline",
        "figures",
        "registry-hashes",
        "config-doc",
        "job",
    )
)


def _plugins_for(command: str | None) -> tuple[str, ...]:
    if command in ROOT_COMMANDS:
        return ()
    for prefix, module in PLUGIN_PREFIXES.items():
        if command and (command == prefix or (prefix.endswith("-") and command.startswith(prefix))):
            return (module,)
    return PLUGINS


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every sub-command (``command``: load only its plugin, if listed
    in ``PLUGIN_PREFIXES``)."""
    parser = argparse.ArgumentParser(prog="boostrank", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("fetch", help="resolve a data set into data/raw/<name>/ from its sources")
    p.add_argument("dataset")
    p.add_argument("--registry", default="config/datasets.yaml")
    p.add_argument("--raw-dir", required=True)
    p.add_argument("--mirror", help="default: $BOOSTRANK_DATA_MIRROR; '' for none")
    p.add_argument("--sources", default="mirror,download,embedded,synthetic")
    p.add_argument("--allow-synthetic", choices=["true", "false"], default="true")
    p.add_argument("--strict", choices=["true", "false"], default="false")
    p.add_argument(
        "--replace-real",
        choices=["true", "false"],
        default="false",
        help="let a stand-in replace real data no source can provide any more",
    )
    p.add_argument("--rerun-key", help="the job's rerun key, kept in the provenance")
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--retries", type=int, default=3)
    p.add_argument(
        "--pins",
        default="data/registry.lock",
        help="lock file of the sha256 pinned on first use for files the registry has no "
        "trusted hash for ('' for none)",
    )
    p.set_defaults(func=_cmd_fetch)

    p = sub.add_parser("prepare", help="parse raw files (or generate the stand-in) into .npz")
    p.add_argument("dataset")
    p.add_argument("--registry", default="config/datasets.yaml")
    p.add_argument("--raw-dir", required=True)
    p.add_argument("--npz", required=True)
    p.add_argument("--meta", required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--synthetic-scale", type=float, default=1.0)
    p.set_defaults(func=_cmd_prepare)

    p = sub.add_parser("inventory", help="list the fetched data sets and their provenance")
    p.add_argument("inputs", nargs="+")
    p.add_argument("--out", required=True)
    p.set_defaults(func=_cmd_inventory)

    p = sub.add_parser("report", help="check the claims and write results/report.html")
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--catalog", default="config/figures.yaml")
    p.add_argument("--inventory", required=True)
    p.add_argument("--benchmarks", default="benchmarks")
    p.add_argument("--claims-out", required=True)
    p.add_argument("--seed", type=int, default=0, help="root seed of the claims' bootstraps")
    p.add_argument("--out", required=True)
    p.add_argument("--captions-out", help="the caption file of Snakemake's report (make report)")
    p.add_argument("--budgets", default="{}", help="CPU-s budget per figure family, as JSON")
    p.add_argument("--info", nargs="*", default=[], help="key=value lines for the page header")
    p.add_argument("--readings", default="config/readings.yaml", help="the readings registry")
    p.add_argument(
        "--statements", default="config/statements.yaml", help="the statements ledger (coverage)"
    )
    p.add_argument("--readings-table", default="results/readings.csv", help="make readings' table")
    p.add_argument(
        "--confirm-table",
        default="results/readings_confirm.csv",
        help="make readings PROTOCOL=full's table (its rows replace the screen's)",
    )
    _protocol_arguments(p)
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("claims", help="tally a results/claims.csv by verdict and diagnosis")
    p.add_argument("csv", help="results/claims.csv")
    p.add_argument(
        "--undiagnosed",
        action="store_true",
        help="list the FAIL/INCONCLUSIVE claims without a diagnosis; exit 1 if there are any",
    )
    p.set_defaults(func=_cmd_claims)

    p = sub.add_parser("headline", help="the README's claim tally from a run's claims.csv")
    p.add_argument("csv", help="results/claims.csv of a full run")
    p.add_argument("--commit", required=True, help="the commit that evaluated the claims")
    p.add_argument("--summary", default="docs/last-run.json")
    p.add_argument("--readme", default="README.md")
    p.set_defaults(func=_cmd_headline)

    p = sub.add_parser("readings-only", help="check make readings' ONLY=<id>[,<id>] (one line)")
    p.add_argument("ids", help="reading ids, comma-separated")
    p.add_argument("--readings", default="config/readings.yaml")
    p.set_defaults(func=_cmd_readings_only)

    p = sub.add_parser(
        "readings-figure", help="a figure under a reading's option, beside the default"
    )
    p.add_argument("--figure", required=True, help="the figure id")
    p.add_argument("--image", required=True, help="its PNG, relative to a variant's root")
    p.add_argument("--variant", required=True, help="the option's workflow copy")
    p.add_argument("--label", required=True, help="<reading> = <option>, the right panel's title")
    p.add_argument("--default-label", default="default", help="the left panel's title")
    p.add_argument("--main-default", action="store_true", help="the default variant: the main run")
    p.add_argument("--root", required=True, help="the variants' workflow copies")
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out-prefix", required=True)
    p.set_defaults(func=_cmd_readings_figure)

    p = sub.add_parser("readings", help="each reading's claims under every option (make readings)")
    p.add_argument("--readings", default="config/readings.yaml")
    p.add_argument("--claims", default="config/claims.yaml")
    p.add_argument("--variants", required=True, help="{reading: {option: variant}} as JSON")
    p.add_argument("--root", default="results/readings", help="the variants' workflow copies")
    p.add_argument("--seed", type=int, default=0, help="root seed of the claims' bootstraps")
    p.add_argument("--csv", required=True)
    p.add_argument("--figure-prefix", required=True)
    p.add_argument("--stage", default="screen", choices=["screen", "confirm"])
    p.add_argument("--main-default", action="store_true", help="the default variant: the main run")
    _protocol_arguments(p)
    p.set_defaults(func=_cmd_readings)

    p = sub.add_parser("figures", help="list every figure and table with its Snakemake target")
    p.add_argument("name", nargs="?", help="print only this figure's target files")
    p.add_argument(
        "--rules", action="store_true", help="also name the rules and functions that make each"
    )
    p.add_argument(
        "--markdown", action="store_true", help="the figure-to-code table of docs/figures.md"
    )
    p.add_argument(
        "--reading", help="<reading>=<option>: print the target drawing the figure under it"
    )
    p.add_argument("--catalog", default="config/figures.yaml")
    p.set_defaults(func=_cmd_figures)

    p = sub.add_parser("registry-hashes", help="sha256 of the registry files found in a mirror")
    p.add_argument("mirror")
    p.add_argument("--registry", default="config/datasets.yaml")
    p.set_defaults(func=_cmd_registry_hashes)

    p = sub.add_parser("config-doc", help="the configuration reference (docs/configuration.md)")
    p.add_argument("--schema", default="workflow/schemas/config.schema.yaml")
    p.add_argument("--config", default="config/config.yaml")
    p.add_argument("--out", help="write it here (default: standard output)")
    p.set_defaults(func=_cmd_config_doc)

    p = sub.add_parser("job", help="run one job of a work from its parameters (a rule's spec)")
    p.add_argument("name", help="<work>.<kind>, e.g. chapter2.run")
    p.add_argument("--spec", required=True, help="the job's parameter object as JSON")
    p.set_defaults(func=_cmd_job)

    for name in _plugins_for(command):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a missing dependency, not a missing plugin
                raise
            continue
        module.register(sub)
    return parser


FULL_DISK = (errno.ENOSPC, errno.EDQUOT)  # a full disk or a used-up quota: one line, no traceback


def main(argv: Sequence[str] | None = None) -> int:
    """Run one sub-command; a :class:`BoostrankError` or a full disk prints one line and exits 1."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(command).parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
        stream=sys.stderr,
    )
    try:
        args.func(args)
    except BoostrankError as exc:
        print(f"boostrank {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        if exc.errno not in FULL_DISK:
            raise
        # Every output is written atomically: the failed write left no half-written file.
        print(
            f"boostrank {args.command}: error: no space left writing {exc.filename or 'a file'}"
            f" ({exc.strerror}); free some space, then run the same command again",
            file=sys.stderr,
        )
        return 1
    finally:
        if os.environ.get(JOB_RESOURCES_ENV):  # a workflow job: the timing record reads it
            print(resource_line(), file=sys.stderr)
    return 0
