"""reports/index.md and reports/index.html: per case a headline, a thumbnail of its main chart
and one row of figures, linking the case reports that exist (and only those)."""

from __future__ import annotations

import base64
import html
import json
from collections import Counter
from pathlib import Path

import pandas as pd

from ..analyze import claims, compare
from . import headline, matrix, tables
from .fmt import fmt_bytes, fmt_decided, fmt_ratio
from ..cases import existing_cases, get_case, load_floors
from .document import MANIFEST
from ..analyze.load import read_peaks, read_results
from ..paths import REPORTS, ROOT, results_file


def rows(profile: str, folder: Path = REPORTS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One row per case with results; and every claim of those cases, checked."""
    return combine([case_row(profile, case.id, folder) for case in existing_cases()])


def combine(made: list[tuple[dict, pd.DataFrame] | None]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """case_row's results, in case order, as the overview's two tables."""
    made = [m for m in made if m is not None]
    return (pd.DataFrame([row for row, _ in made]),
            pd.concat([c for _, c in made], ignore_index=True) if made else pd.DataFrame())


def case_row(profile: str, case_id: str, folder: Path = REPORTS) -> tuple[dict, pd.DataFrame] | None:
    """A case's row of figures and its claims, checked; None for a case without results.
    Made beside the case's report when reports are rendered side by side."""
    case = get_case(case_id)
    path = results_file(profile, case.id)
    if not path.is_file():
        return None
    run = read_results(path)
    comparison = compare.pair(run.frame)
    # The figures are the write-up's change; the floor and the release have their columns.
    mine = comparison.pairs[comparison.pairs["candidate"] == case.candidate] \
        if not comparison.pairs.empty else comparison.pairs
    s = compare.summary(compare.Comparison(mine, comparison.unpaired, comparison.baseline))
    verdicts = Counter(mine["verdict"]) if not mine.empty else Counter()
    excess = (compare.floor_excess(comparison.pairs, load_floors(case.id))
              if not comparison.pairs.empty else pd.DataFrame())
    checked = claims.check(case.id, comparison.pairs, read_peaks(path))
    comparable = checked[checked["verdict"] != "not comparable"]
    reproduced = int((checked["verdict"] == "reproduced").sum())
    shown = tables.claims_table(checked)
    page = folder / case.id / "report.html"
    row = {
        "case": case.id,
        "write-up": case.writeup,
        "time per op, new/old (geomean)": fmt_ratio(s["time_geomean"]),
        "heap B/op, new/old (geomean)": fmt_ratio(s["alloc_geomean"]),
        "write-up's variant vs floor": _vs_floor(excess, case.candidate),
        "best variant vs floor": _vs_floor(excess, _best(excess)),
        "JDK × GC matrix": matrix.overview_cell(profile, case, folder),
        "time rows decided": fmt_decided(mine),
        "time verdicts": ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())) or "—",
        "claims reproduced": (f"{reproduced} of {len(comparable)} comparable" if len(comparable)
                              else "none comparable") + f" ({len(checked)} claims)",
        # A report that was never rendered into this folder is not linked.
        "report": f"[{case.id}/report.html]({case.id}/report.html)" if page.is_file()
                  else "not rendered",
        "headline": headline.sentence(comparison.pairs, case.candidate, *case.headline),
        "chart": _main_chart(folder / case.id),
        "machines": (run.provenance or {}).get("machines") or [],
        "source": source(path, run.provenance) + "; "
                  + compare.precision_summary(compare.precision(run.frame)),
    }
    return row, shown.assign(case=case.id)[["case", *shown.columns]]


def _best(excess: pd.DataFrame) -> str:
    """The variant closest to the floor over the case's benchmarks (the release is fidelity,
    not a proposal, so it does not compete)."""
    if excess.empty:
        return ""
    mine = excess[excess["variant"] != compare.UPSTREAM]
    return str(mine.groupby("variant", sort=False)["excess"].sum().idxmin())


def _vs_floor(excess: pd.DataFrame, variant: str) -> str:
    """'floor: at it in 9 of 12 rows, at most 3,072 B/op above' (heap and native together)."""
    rows = excess[excess["variant"] == variant] if not excess.empty else excess
    if rows.empty:
        return "—"
    at = [compare.at_floor(e, f) for e, f in zip(rows["excess"], rows["floor"])]
    text = f"{variant}: at it in {sum(at)} of {len(rows)}"
    if not all(at):
        text += f", ≤ {fmt_bytes(rows['excess'].max())} B/op above"
    return text


def _main_chart(report_dir: Path) -> Path | None:
    """The first chart a case report drew (its manifest lists them in order)."""
    try:
        charts = json.loads((report_dir / MANIFEST).read_text(encoding="utf-8"))["charts"]
    except (OSError, ValueError, KeyError):
        return None
    first = report_dir / charts[0] if charts else None
    return first if first and first.is_file() else None


def source(path: Path, provenance: dict | None) -> str:
    """Where a row's figures come from: the results file, and the run that wrote it."""
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    if not provenance:
        return f"{shown} (no provenance sidecar)"
    commit = str(provenance.get("git_commit", "unknown"))[:10]
    dirty = ", uncommitted changes" if provenance.get("git_dirty") else ""
    machines = provenance.get("machines")
    where = (f"{provenance.get('shard_count')} shards on {len(machines)} machine(s) "
             f"({', '.join(machines)}); " if machines else "")
    return (f"{shown}: {provenance.get('profile_settings', '?')}; commit {commit}{dirty}; {where}"
            f"started {provenance.get('started', '?')}, {provenance.get('duration_s', '?')} s; "
            f"{provenance.get('cpu_model', '?')}, {provenance.get('cores', '?')} cores, "
            f"JDK {provenance.get('jdk', {}).get('java.runtime.version', '?')}")


def write(profile: str, folder: Path = REPORTS,
          made: tuple[pd.DataFrame, pd.DataFrame] | None = None) -> Path:
    """reports/index.html and index.md from ``made`` (combine's tables), else made here."""
    table, checked = made if made is not None else rows(profile, folder)
    cases = table.to_dict("records")
    table = table.drop(columns=["source", "headline", "chart", "machines"], errors="ignore")
    folder.mkdir(parents=True, exist_ok=True)
    intro = (f"Results of the `{profile}` profile, one row per case. Ratios are geometric means "
             f"over the case's benchmarks (below 1: the optimized version is faster or allocates "
             f"less); verdicts are fork-level (see each report).")
    machines = sorted({m for c in cases for m in c.get("machines") or []})
    if machines:
        intro += (f" The run was cut into shards and measured on {len(machines)} machine(s) "
                  f"({', '.join(machines)}); each row's two sides ran on one machine, and no figure "
                  f"of one machine is set against another's (each report names its rows' machines).")
    if not checked.empty:
        counts = Counter(checked["verdict"])
        intro += (" The write-ups' claims, all cases: " + ", ".join(
            f"{counts[v]} {v}" for v in ("reproduced", "contradicted", "inconclusive",
                                         "not comparable") if counts[v]) + ".")
    others = other_reports(folder)
    listed = "".join(f"- {c['case']}: {c['source']}\n" for c in cases)
    beyond_md = ("## Beyond the cases\n\n" + "".join(f"- [{name}]({href}): {text}\n" for name, href, text in others)
                 + "\n" if others else "")
    heads = "".join(f"- **{c['case']}**: {c['headline']}\n" for c in cases)
    (folder / "index.md").write_text(
        f"# hotpath: overview\n\n{heads}\n{intro}\n\n{tables.to_markdown(table) if cases else 'No results yet.'}\n"
        f"## Claims, all cases\n\n{tables.to_markdown(checked) if not checked.empty else 'No claims.'}\n"
        f"{beyond_md}## Sources\n\n{listed}",
        encoding="utf-8")
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>hotpath: overview</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto;line-height:1.45}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px}}
th{{background:#f3f3f3}}td.num,th.num{{text-align:right}}td.text,th.text{{text-align:left}}
table.wide{{font-size:.85em}}table.wide td,table.wide th{{padding:4px 5px}}
.case{{display:flex;gap:1em;align-items:flex-start;margin:0 0 1.2em 0}}
.case img{{width:260px;border:1px solid #ddd}}.case p{{margin:0}}</style></head>
<body><h1>hotpath: overview</h1>
{"".join(_case_block(c) for c in cases) or "<p>No results yet.</p>"}
<p>{html.escape(intro).replace('`', '')}</p>
{tables.html_table(table)}
<h2>Claims, all cases</h2>
{tables.html_table(checked)}
{_beyond_html(others)}<h2>Sources</h2><ul>{"".join(f"<li>{html.escape(c['case'] + ': ' + c['source'])}</li>" for c in cases)}</ul>
</body></html>
"""
    (folder / "index.html").write_text(page, encoding="utf-8")
    return folder / "index.html"


def other_reports(folder: Path) -> list[tuple[str, str, str]]:
    """The reports beside the cases' in this folder — two builds (ab/<name>/) and the A/A run
    (aa/) — as (name, link, headline)."""
    found = [("A/A: identical code as two sides", folder / "aa")]
    found += [(f"two builds: {d.name}", d) for d in sorted((folder / "ab").glob("*/"))]
    out = []
    for name, d in found:
        try:
            headline = json.loads((d / MANIFEST).read_text(encoding="utf-8")).get("headline", "")
        except (OSError, ValueError):
            continue
        if (d / "report.html").is_file():
            out.append((name, f"{d.relative_to(folder).as_posix()}/report.html", headline))
    return out


def _beyond_html(others: list[tuple[str, str, str]]) -> str:
    if not others:
        return ""
    items = "".join(f'<li><a href="{html.escape(href)}">{html.escape(name)}</a>: {html.escape(text)}</li>'
                    for name, href, text in others)
    return f"<h2>Beyond the cases</h2><ul>{items}</ul>\n"


def _case_block(c: dict) -> str:
    """A case's headline beside a thumbnail of its main chart (embedded: one file to open)."""
    linked = c["report"] != "not rendered"
    href = f"{c['case']}/report.html"
    title = (f'<a href="{href}">{html.escape(c["case"])}</a>' if linked
             else html.escape(c["case"]) + " (report not rendered)")
    thumb = ""
    if c["chart"] is not None:
        data = base64.b64encode(Path(c["chart"]).read_bytes()).decode("ascii")
        img = f'<img alt="{html.escape(c["case"])}: main chart" src="data:image/png;base64,{data}">'
        thumb = f'<a href="{href}">{img}</a>' if linked else img
    return (f'<div class="case">{thumb}<div><h2>{title}</h2>'
            f'<p class="headline">{html.escape(c["headline"])}</p></div></div>\n')
