"""``results/report.html``: one self-contained page with every figure and table, its claims, the
data it was made from, and what it cost to compute."""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any, cast

import pandas as pd

from boostrank.data.inventory import standin_note
from boostrank.io import write_text
from boostrank.report import guard_counts
from boostrank.report.claims import CLASSES, VERDICT_RULES, VERDICTS, verdict_tally
from boostrank.report.diagnosis import DIAGNOSED_VERDICTS, KINDS, UNDIAGNOSED
from boostrank.report.diagnosis import kind as diagnosis_kind
from boostrank.report.protocol import Reduction
from boostrank.report.render import beside
from boostrank.report.statements import coverage, load_statements
from boostrank.workflow.catalog import Figure

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0;font-size:.88em}
td,th{border:1px solid #ccc;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#f3f3f3}.PASS{background:#d9f2d9}.FAIL{background:#f9d6d5}
.NOT-COMPARABLE{background:#eee}.ERRATUM{background:#fbe8c8}.INCONCLUSIVE{background:#dce8f5}
.kind-synthetic{color:#a33;font-weight:bold}.meta{color:#555;font-size:.9em}
.standin{border:3px solid #a33;background:#fdecea;padding:.6em 1em;margin:1em 0}
img{max-width:100%}.summary td{font-size:1.05em}
.bar{display:flex;width:420px;height:1.1em}.bar span{display:block;height:100%}
.bar .PASS{background:#5cb85c}.bar .FAIL{background:#d9534f}.bar .ERRATUM{background:#f0ad4e}
.bar .NOT-COMPARABLE{background:#bbb}.bar .INCONCLUSIVE{background:#5b8cc8}
.filters label{margin-right:1.2em}
.reduced{border:3px solid #c60;background:#fff1dc;padding:.6em 1em;margin:1em 0}
.undiagnosed{border:3px solid #a33;background:#fdecea;padding:.6em 1em;margin:1em 0}
.reduced ul,.undiagnosed ul{margin:.3em 0;font-size:.9em}
.coverage caption{text-align:left;font-weight:bold}.coverage td{text-align:right}
"""

# The claims table's filter: plain JavaScript, no external assets, works offline.
_FILTER_SCRIPT = """
function filterClaims(){
  var verdict=document.getElementById('verdict-filter').value;
  var work=document.getElementById('work-filter').value;
  var diagnosis=document.getElementById('diagnosis-filter').value;
  var shown=0;
  document.querySelectorAll('#all-claims tr[data-verdict]').forEach(function(row){
    var keep=(!verdict||row.dataset.verdict===verdict)&&(!work||row.dataset.work===work)
      &&(!diagnosis||row.dataset.diagnosis===diagnosis);
    row.style.display=keep?'':'none'; if(keep){shown++;}
  });
  document.getElementById('claims-shown').textContent=shown;
}
"""


def write_report(
    out: Path | str,
    catalog: dict[str, Figure],
    claims: pd.DataFrame,
    inventory: pd.DataFrame,
    *,
    bench_dir: Path | str = "benchmarks",
    root: Path | str = ".",
    run_info: dict[str, Any] | None = None,
    budgets: dict[str, float] | None = None,
    reduced: list[Reduction] | None = None,
    readings: pd.DataFrame | None = None,
    readings_registry: Path | str | None = None,
    statements: Path | str | None = None,
    guards: pd.DataFrame | None = None,
) -> None:
    """Write the report page: ``reduced`` (the printed keys the run changed) puts the
    reduced-protocol box above the tally; ``readings`` (make readings' table, with the
    registry ``readings_registry`` for each reading's basis) adds its section; the statements
    ledger ``statements`` (config/statements.yaml) adds the coverage table under the tally;
    ``guards`` (:func:`boostrank.report.guard_counts.summary`) the guards' firing counts."""
    from boostrank.report.timing import figure_timing

    root, bench_dir = Path(root), Path(bench_dir)
    # each benchmark file (and its job's log) read once
    timing = figure_timing(catalog, bench_dir, budgets or {}, bench_dir.with_name("logs"))
    cost = timing.set_index("name")
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>boostrank report</title>"
        f"<style>{_STYLE}</style></head><body>",
        "<h1>boostrank: reproduction report</h1>",
        _run_summary(claims, inventory, run_info or {}, reduced or [], _coverage(statements)),
        _claims_overview(catalog, claims),
    ]
    for figure in catalog.values():
        row = cast("pd.Series", cost.loc[figure.id])  # one timing row per figure
        parts.append(_figure_section(figure, claims, root, row))
        parts.append(_guard_lines(guards, figure.id))
    parts.append(_all_claims(catalog, claims))
    parts.append(_guards_section(guards))
    parts.append(_readings_section(root, readings, readings_registry))
    parts.append(_timing_section(timing, root))
    parts.append(
        "<h2 id='data'>Data sets</h2><p class='meta'>Every registry data set the run "
        "fetched: source, checksums, and the statistics parsed.</p>"
    )
    parts.append(_table_html(inventory))
    parts.append(f"<script>{_FILTER_SCRIPT}</script></body></html>")
    write_text(out, "\n".join(parts))


VERSIONED = ("boostrank", "numpy", "scipy", "scikit-learn", "pandas", "lightgbm", "snakemake")


def installed_versions() -> str:
    """The versions this run actually imported (requirements.lock pins them)."""
    import importlib.metadata as metadata
    import platform

    parts = [f"Python {platform.python_version()}"]
    for name in VERSIONED:
        try:
            parts.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name} (not installed)")
    return ", ".join(parts)


def _run_summary(
    claims: pd.DataFrame,
    inventory: pd.DataFrame,
    run_info: dict[str, Any],
    reduced: list[Reduction],
    coverage_table: str = "",
) -> str:
    kind = claims["class"] if "class" in claims.columns else pd.Series("reproduction", claims.index)
    counts = claims.loc[kind == "reproduction", "verdict"].value_counts()
    verdicts = " · ".join(f"<span class='{v}'>{v}: {counts.get(v, 0)}</span>" for v in VERDICTS)
    apart = "; ".join(
        f"{name}: {verdict_tally(claims.loc[kind == name, 'verdict'])}"
        for name in CLASSES[1:]
        if (kind == name).any()
    )
    kinds = inventory["data_kind"].value_counts() if len(inventory) else pd.Series(dtype=int)
    data = ", ".join(f"{k}: {n}" for k, n in kinds.items())
    info = " · ".join(f"{html.escape(str(k))}: {html.escape(str(v))}" for k, v in run_info.items())
    standins = (
        sorted(inventory.loc[inventory["data_kind"] == "synthetic", "dataset"])
        if len(inventory)
        else []
    )
    note = standin_note(standins)
    warning = f"<div class='standin'><strong>{html.escape(note)}</strong></div>" if note else ""
    failing = claims[claims["verdict"].isin(DIAGNOSED_VERDICTS)]
    diagnosed = failing["diagnosis"].map(diagnosis_kind).value_counts()
    why = ", ".join(f"{k}: {diagnosed[k]}" for k in KINDS if diagnosed.get(k, 0))
    return (
        f"{warning}{_reduced_box(reduced)}<p class='meta'>{info}</p><table class='summary'>"
        f"<tr><th>Reproduction claims</th><td>{verdicts}</td></tr>"
        f"<tr><th>Tallied apart</th><td>{html.escape(apart or 'none')} (no number of ours "
        "decides a text-consistency check; a test is an identity of our code)</td></tr>"
        f"<tr><th>Why FAIL / INCONCLUSIVE</th><td>{html.escape(why or 'none fails')}</td></tr>"
        f"<tr><th>Software</th><td>{html.escape(installed_versions())}"
        f"</td></tr><tr><th>Data sets by source</th><td>{html.escape(data)}"
        "</td></tr></table>"
        f"{coverage_table}{_undiagnosed_box(claims)}"
        f"<p class='meta'>{html.escape(VERDICT_RULES)}</p>"
    )


def _coverage(ledger: Path | str | None) -> str:
    """The texts' experimental statements per work by answer (the statements ledger): how
    many the claims check, how many no claim can, how many no claim checks yet; "" without it."""
    if ledger is None or not Path(ledger).exists():
        return ""
    table = coverage(load_statements(ledger))
    total = tuple(sum(column) for column in zip(*table.values(), strict=True))
    rows = "".join(
        f"<tr><th>{html.escape(work)}</th>" + "".join(f"<td>{n}</td>" for n in counts) + "</tr>"
        for work, counts in [*table.items(), ("all", total)]
    )
    return (
        "<table class='coverage' id='coverage'><caption>Coverage: the texts' experimental "
        "statements (<code>config/statements.yaml</code>)</caption><tr><th>work</th>"
        "<th>checked by claims</th><th>not checkable</th><th>unchecked</th><th>made</th></tr>"
        f"{rows}</table>"
    )


def _reduced_box(reduced: list[Reduction]) -> str:
    """The box above the tally when the run changed printed keys: the keys, by section."""
    if not reduced:
        return ""
    sections: dict[str, list[str]] = {}
    for r in reduced:
        sections.setdefault(r.section, []).append(str(r).removeprefix(r.section + "."))
    items = "".join(
        f"<li><b>{html.escape(s)}</b>: {html.escape('; '.join(keys))}</li>"
        for s, keys in sections.items()
    )
    return (
        "<div class='reduced' id='reduced-protocol'><strong>Reduced protocol: this run changed "
        f"{len(reduced)} printed setting{'s' if len(reduced) != 1 else ''} of "
        "<code>config/config.yaml</code>, so its claims in these sections are not the "
        "reproduction's result (each one's note says <i>reduced protocol</i>).</strong>"
        f"<ul>{items}</ul></div>"
    )


def _undiagnosed_box(claims: pd.DataFrame) -> str:
    """The FAIL and INCONCLUSIVE claims nobody has explained yet, listed where they show."""
    missing = claims[claims["diagnosis"].map(diagnosis_kind) == UNDIAGNOSED]
    if missing.empty:
        return ""
    items = "".join(
        f"<li><a href='#{html.escape(str(row.figure))}'>{html.escape(str(row.claim_id))}</a> "
        f"({html.escape(str(row.verdict))}): {html.escape(str(row.statement))}</li>"
        for row in missing.itertuples()
    )
    return (
        f"<div class='undiagnosed' id='undiagnosed'><strong>{len(missing)} FAIL/INCONCLUSIVE "
        "claim" + ("s have" if len(missing) != 1 else " has") + " no diagnosis</strong> "
        "(no source erratum, data substitute, deciding reading or registry entry; "
        "<code>python -m boostrank claims --undiagnosed results/claims.csv</code> lists them):"
        f"<ul>{items}</ul></div>"
    )


def _claims_overview(catalog: dict[str, Figure], claims: pd.DataFrame) -> str:
    """One bar per figure: how many of its claims got each verdict."""
    rows = []
    for figure in catalog.values():
        verdicts = claims.loc[claims["figure"] == figure.id, "verdict"]
        counts = verdicts.value_counts()
        total = int(counts.sum())
        if not total:
            continue
        bar = "".join(
            f"<span class='{v}' style='width:{100 * counts[v] / total:.2f}%' "
            f"title='{v}: {counts[v]}'></span>"
            for v in VERDICTS
            if counts.get(v, 0)
        )
        text = verdict_tally(verdicts)
        rows.append(
            f"<tr><td><a href='#{figure.id}'>{figure.id}</a></td>"
            f"<td><div class='bar'>{bar}</div></td><td>{html.escape(text)}</td></tr>"
        )
    return (
        "<h2 id='overview'>Claims by figure</h2><table class='overview'><tr><th>figure</th>"
        f"<th>verdicts</th><th>counts</th></tr>{''.join(rows)}</table>"
        "<p class='meta'><a href='#all-claims-section'>Every claim in one table</a>, "
        "filtered by verdict and work.</p>"
    )


def _all_claims(catalog: dict[str, Figure], claims: pd.DataFrame) -> str:
    """Every claim in one table, with a filter by verdict and by work."""
    work = {f.id: f.work for f in catalog.values()}
    works = sorted(set(work.values()))

    def options(values: list[str]) -> str:
        return "<option value=''>all</option>" + "".join(
            f"<option>{html.escape(v)}</option>" for v in values
        )

    columns = ["claim_id", "figure", "statement", "published", "reproduced", "n", "95% interval"]
    columns += ["verdict", "diagnosis", "substitute", "class"]
    head = "".join(f"<th>{c}</th>" for c in columns)
    body = []
    shown = claims.assign(**{"95% interval": _interval(claims)})
    for column, default in (("class", "reproduction"), ("substitute", "")):
        if column not in shown.columns:  # a claims table from before these columns
            shown[column] = default
    for _, row in shown.iterrows():
        cells = "".join(f"<td>{html.escape(str(row[c]))}</td>" for c in columns)
        body.append(
            f"<tr class='{row['verdict']}' data-verdict='{html.escape(str(row['verdict']))}' "
            f"data-work='{html.escape(work.get(row['figure'], ''))}' "
            f"data-diagnosis='{html.escape(diagnosis_kind(str(row['diagnosis'])))}'>{cells}</tr>"
        )
    return (
        "<h2 id='all-claims-section'>Every claim</h2><p class='filters'>"
        "<label>verdict <select id='verdict-filter' onchange='filterClaims()'>"
        f"{options(list(VERDICTS))}</select></label>"
        "<label>work <select id='work-filter' onchange='filterClaims()'>"
        f"{options(works)}</select></label>"
        "<label>diagnosis <select id='diagnosis-filter' onchange='filterClaims()'>"
        f"{options(list(KINDS))}</select></label>"
        f"showing <span id='claims-shown'>{len(claims)}</span> of {len(claims)}</p>"
        f"<details><summary>The table</summary><table id='all-claims'><tr>{head}</tr>"
        f"{''.join(body)}</table></details>"
    )


def _interval(claims: pd.DataFrame) -> list[str]:
    """``[low, high]`` where a claim has one (its title says how it was made), else blank."""
    return [
        f"[{low}, {high}]" if str(low) not in ("", "nan") and int(n or 1) > 1 else ""
        for low, high, n in zip(claims["ci_low"], claims["ci_high"], claims["n"], strict=True)
    ]


def _guard_lines(guards: pd.DataFrame | None, figure: str) -> str:
    """The figure's guard counts, one line each, under its section (none: nothing)."""
    lines = [] if guards is None else guard_counts.figure_lines(guards, figure)
    if not lines:
        return ""
    items = "".join(f"<li>{html.escape(text)}</li>" for text in lines)
    return f"<p class='meta'>Guards (steps the text lacks):</p><ul class='meta'>{items}</ul>"


def _guards_section(guards: pd.DataFrame | None) -> str:
    """Every figure's guards: the times each fired, in how many jobs, on real data."""
    if guards is None or not len(guards):
        return ""
    return (
        "<h2 id='guards'>Guards</h2><p class='meta'>Steps a learner takes that its printed "
        "algorithm lacks (a cap, an early stop, a rescaling), each a reading of "
        "<code>config/readings.yaml</code> with <code>guard: true</code>; counted by every job "
        "(<code>results/guards/</code>). A <i>silent</i> guard is one the printed algorithm "
        "is undefined without; where it fired on real data, every failing claim of its "
        "figure names it.</p>" + _table_html(guards)
    )


def _readings_section(root: Path, table: pd.DataFrame | None, registry: Path | str | None) -> str:
    """ "How the readings move the published numbers", from ``make readings``'s table (empty
    when it has not run): whether it ran on a reduced protocol, each reading that decides a
    verdict with its basis, the claims it flips and the option giving PASS, then each
    reading's largest shift and verdict changes."""
    from boostrank.report.readings import deciding, is_default, load_readings, reduced_protocols

    if table is None:
        return ""
    basis = (
        {r.id: r.basis for r in load_readings(registry)}
        if registry and Path(registry).exists()
        else {}
    )
    decided = deciding(table)
    figures = [root / f"figures/{n}.png" for n in ("readings", "readings_confirm")]
    confirmed = bool(_confirmed(table))
    tables = "<code>results/readings.csv</code>" + (
        " and <code>results/readings_confirm.csv</code>" if confirmed else ""
    )
    out = [
        "<h2 id='readings'>How the readings move the published numbers</h2>",
        "<p class='meta'><code>make readings</code> reran the claims each reading of "
        "<code>config/readings.yaml</code> can move under every option, on real data only "
        f"({tables}, {len(table)} rows). A reading "
        "<b>decides</b> a verdict when one option gives PASS and another FAIL. Basis: why the "
        "default is the default (printed, erratum, inferred, convention, silent; the registry "
        "quotes the evidence).</p>",
        _readings_reduced_box(reduced_protocols(table), confirmed),
        *_readings_stages(table),
    ]
    out.extend(_readings_coverage(table, list(basis)))
    if decided.empty:
        out.append("<p>No reading decides a verdict: every claim keeps its verdict under every "
                   "option, or never passes.</p>")  # fmt: skip
    else:
        rows = []
        for reading, part in decided.groupby("reading", sort=False):
            flipped = "; ".join(
                f"{r['claim_id']} (PASS under {r['pass']}, FAIL under {r['fail']})"
                for _, r in part.iterrows()
            )
            rows.append(
                {
                    "reading": reading,
                    "basis": basis.get(str(reading), ""),
                    "default": part["default"].iloc[0],
                    "claims it decides": len(part),
                    "the claims (the options giving PASS and FAIL)": flipped,
                }
            )
        names = ", ".join(
            f"{r['reading']} ({r['basis']})" if r["basis"] else r["reading"] for r in rows
        )
        out.append(f"<p>Readings that decide a verdict: <b>{html.escape(names)}</b>.</p>")
        out.append(_table_html(pd.DataFrame(rows)))
    for figure in (f for f in figures if f.exists()):
        png = base64.b64encode(figure.read_bytes()).decode()
        out.append(f"<img alt='{figure.stem}' src='data:image/png;base64,{png}'>")
    moved = table[~is_default(table)]
    if not moved.empty:
        shifts = pd.to_numeric(moved["shift_in_tolerances"], errors="coerce").abs()
        summary = (
            moved.assign(shift=shifts, changed=moved["verdict"] != moved["default_verdict"])
            .groupby(["reading", "option"], sort=False)
            .agg(
                claims=("claim_id", "size"),
                largest_shift=("shift", "max"),
                verdicts_changed=("changed", "sum"),
            )
            .reset_index()
        )
        summary.insert(1, "basis", summary["reading"].map(basis).fillna(""))
        summary["largest_shift"] = summary["largest_shift"].round(2)
        out.append(_table_html(summary))
    return "\n".join(out)


def _readings_reduced_box(reduced: list[str], confirmed: bool) -> str:
    """The box that says the screen's rows are on a reduced protocol ("" when none is)."""
    if not reduced:
        return ""
    items = "".join(f"<li>{html.escape(r)}</li>" for r in reduced)
    after = " Stage 2's rows, named below, are at the printed protocol." if confirmed else ""
    return (
        "<div class='reduced' id='readings-reduced'><strong>Reduced protocol: the screen "
        "(<code>make readings</code>) ran on a config smaller than the printed one "
        "(config/quick.yaml by default), so its verdicts show which readings matter, not the "
        f"reproduction's result.{after}</strong><ul>{items}</ul></div>"
    )


def _readings_stages(table: pd.DataFrame) -> list[str]:
    """One line: which readings stage 2 (``make readings PROTOCOL=full``) confirmed at the
    printed protocol; the others' rows are stage 1's, at the screen's sizes."""
    confirmed = _confirmed(table)
    if not confirmed:
        return [
            "<p id='readings-stages'>Stage 2 (<code>make readings PROTOCOL=full</code>, the "
            "printed protocol) has not run: every row is the screen's.</p>"
        ]
    return [
        f"<p id='readings-stages'>Stage 2 (<code>make readings PROTOCOL=full</code>) reran "
        f"{len(confirmed)} readings at the printed protocol; their rows replace the screen's "
        f"and the diagnoses read them: {html.escape(', '.join(confirmed))}. The other "
        "readings' rows are the screen's.</p>"
    ]


def _confirmed(table: pd.DataFrame) -> list[str]:
    """The readings whose rows are stage 2's (``stage`` = confirm), in table order."""
    stages = table["stage"] if "stage" in table.columns else pd.Series(dtype=str)
    return list(dict.fromkeys(table.loc[stages == "confirm", "reading"].astype(str)))


def _readings_coverage(table: pd.DataFrame, ids: list[str]) -> list[str]:
    """One line each: the readings with no row, and those the run set outside their options."""
    from boostrank.report.readings import outside_options, unmeasured

    out = []
    missing = unmeasured(table, ids)
    if missing:
        out.append(
            f"<p id='readings-unmeasured'>{len(missing)} of {len(ids)} readings have no row: no "
            "claim they name was checked on real data in this run (every value came from a "
            "stand-in, or is an absolute value on substitute data, NOT-COMPARABLE), or "
            f"<code>readings.only</code> left them out: {html.escape(', '.join(missing))}.</p>"
        )
    outside = outside_options(table)
    if outside:
        out.append(
            f"<p id='readings-outside'>{len(outside)} readings' keys were set by the run's config "
            "to a value outside their options (smaller sizes), so each option ran apart and is "
            "measured against the reading's default option, not the run: "
            f"{html.escape(', '.join(outside))}.</p>"
        )
    return out


def _timing_section(figures: pd.DataFrame, root: Path) -> str:
    """What each figure family's jobs cost against its budget, and the last whole run."""
    from boostrank.report.timing import budget_chart, family_timing

    families = family_timing(figures)
    chart = base64.b64encode(budget_chart(families)).decode()
    out = [
        "<h2 id='timing'>What the run cost</h2>",
        "<p class='meta'>CPU-seconds of each figure family's jobs: each job's own "
        "<code>getrusage</code>, the last line of its log (Snakemake's sampled "
        "<code>benchmark:</code> figure only where a log lacks it); red: over its budget, "
        "config <code>timing.budgets_cpu_s</code>.</p>",
        f"<img alt='timing' src='data:image/png;base64,{chart}'>",
        _table_html(families),
    ]
    record = root / "results/timing.csv"
    if record.exists():
        run = pd.read_csv(record, keep_default_na=False)
        out.append(
            "<p class='meta'>The last run that ended (<code>results/timing.csv</code>, written when"
            " Snakemake finishes, so it describes the run before this page's):</p>"
        )
        out.append(_table_html(run[run["scope"] == "run"].drop(columns=["scope"])))
    return "\n".join(out)


def _figure_section(figure: Figure, claims: pd.DataFrame, root: Path, cost: pd.Series) -> str:
    out = [
        f"<h2 id='{figure.id}'>{html.escape(figure.title)}</h2>",
        f"<p class='meta'>{html.escape(figure.source)} · outputs: "
        + ", ".join(f"<code>{html.escape(o)}</code>" for o in figure.outputs)
        + "</p>",
    ]
    if figure.description:
        out.append(f"<p>{html.escape(figure.description)}</p>")
    if figure.image and (root / figure.image).exists():
        data = base64.b64encode((root / figure.image).read_bytes()).decode()
        out.append(f"<img alt='{figure.id}' src='data:image/png;base64,{data}'>")
    if figure.table_csv and (root / figure.table_csv).exists():
        table = pd.read_csv(root / figure.table_csv, dtype=str, keep_default_na=False)
        shown = table
        if "fold" in table and (table["fold"] == "mean").any():  # per-fold rows stay in the CSV
            shown = table[table["fold"] == "mean"]
            out.append(
                f"<p class='meta'>Means over folds; per-fold rows: "
                f"<code>{html.escape(figure.table_csv)}</code>.</p>"
            )
        if figure.kind == "table":
            out.append(_table_html(_for_people(shown)))
        else:  # the figure's numbers, folded away below the picture
            out.append(
                "<details><summary>The figure's numbers as a table</summary>"
                + _table_html(_for_people(shown))
                + "</details>"
            )
        if "provenance" in table:
            out.append(_provenance_list(table))
    mine = claims[claims["figure"] == figure.id]
    if len(mine):
        tally = verdict_tally(mine["verdict"])
        shown = mine.assign(**{"95% interval": _interval(mine)})[
            [
                "claim_id",
                "statement",
                "published",
                "reproduced",
                "95% interval",
                "verdict",
                "diagnosis",
                "note",
            ]
        ]
        out.append(
            f"<details class='claims'><summary><strong>Claims ({len(mine)})</strong>: {tally}"
            f"</summary>{_table_html(shown, verdict_column='verdict')}</details>"
        )
    out.append(
        f"<p class='meta'>Runtime of its {cost['jobs']} job{'' if cost['jobs'] == 1 else 's'} "
        "(their logs' resource lines and benchmark files): "
        f"{cost['wall_s']:.1f} s wall, {cost['cpu_s']:.1f} CPU-s; the data sets' fetch and "
        "prepare jobs count once, as <a href='#timing'>data</a></p>"
    )
    return "\n".join(out)


def _provenance_list(table: pd.DataFrame) -> str:
    """Each distinct data source once, with the rows (data sets) made from it."""
    names = table["dataset"] if "dataset" in table else pd.Series("", index=table.index)
    groups: dict[tuple[str, str], list[str]] = {}
    for name, kind, line in zip(names, table["data_kind"], table["provenance"], strict=True):
        members = groups.setdefault((kind, line), [])
        if name and name not in members:
            members.append(name)
    items = "".join(
        f"<li><span class='kind-{kind}'>{html.escape(', '.join(members) or kind)}</span>: "
        f"{html.escape(line)}</li>"
        for (kind, line), members in groups.items()
    )
    return f"<p class='meta'>Data the rows were made from:</p><ul>{items}</ul>"


def _for_people(tidy: pd.DataFrame) -> pd.DataFrame:
    """Reproduced values with the published ones beside them; provenance goes below the table."""
    shown = {}
    for col in tidy.columns:
        if col.startswith("published_") or col == "provenance":
            continue
        published = tidy.get(f"published_{col}")
        shown[col] = (
            tidy[col]
            if published is None
            else [beside(r, p) for r, p in zip(tidy[col], published, strict=True)]
        )
    return pd.DataFrame(shown)


def _table_html(frame: pd.DataFrame, verdict_column: str | None = None) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = []
    for _, row in frame.iterrows():
        css = f" class='{row[verdict_column]}'" if verdict_column else ""
        cells = "".join(f"<td>{html.escape(str(v))}</td>" for v in row)
        body.append(f"<tr{css}>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"
