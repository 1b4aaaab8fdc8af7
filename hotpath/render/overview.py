"""reports/index.md and reports/index.html: per case its Result as one table row, the machine
said once for the whole run, a thumbnail of each case's main chart and one row of figures,
linking the case reports that exist (and only those)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections import Counter
from pathlib import Path

import pandas as pd

from ..analyze import claims, compare, floors
from ..analyze import cpu as cpu_analysis
from ..analyze import mechanisms as mechanism_analysis
from ..analyze import sites as site_analysis
from . import headline, markup, matrix, noise, paste, reuse, tables
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
    found = [m for m in made if m is not None]
    return (pd.DataFrame([row for row, _ in found]),
            pd.concat([c for _, c in found], ignore_index=True) if found else pd.DataFrame())


def case_row(profile: str, case_id: str, folder: Path = REPORTS) -> tuple[dict, pd.DataFrame] | None:
    """A case's row of figures and its claims, checked; None for a case without results.
    Made beside the case's report when reports are rendered side by side."""
    case = get_case(case_id)
    path = results_file(profile, case.id)
    if not path.is_file():
        return None
    run = read_results(path)
    comparison = compare.paired(run)
    # The figures are the write-up's change; the floor and the release have their columns.
    mine = comparison.pairs[comparison.pairs["candidate"] == case.candidate] \
        if not comparison.pairs.empty else comparison.pairs
    s = compare.summary(compare.Comparison(mine, comparison.unpaired, comparison.baseline))
    verdicts = Counter(mine["verdict"]) if not mine.empty else Counter()
    excess = (floors.floor_excess(comparison.pairs, load_floors(case.id))
              if not comparison.pairs.empty else pd.DataFrame())
    # the claims as the case's report checks them: part claims on the mechanisms its run or the
    # case's run of the mechanisms measured (analyze.report.Analysis.claims)
    checked = claims.check(case.id, comparison.pairs, read_peaks(path), sites=site_analysis.read(path),
                           profiles=cpu_analysis.read(path),
                           parts=mechanism_analysis.found_for(path, run.frame, case.id))
    comparable = checked[checked["verdict"] != "not comparable"]
    reproduced = int((checked["verdict"] == "reproduced").sum())
    shown = tables.claims_table(checked)
    page = folder / case.id / "report.html"
    machine = noise.of_run(run.frame, comparison.pairs, case.id, path)
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
        # the case's Result as one row of the overview's first table, and its machine
        "result": result_row(case, comparison.pairs, mine, page.is_file(), machine),
        "noise": machine,
        "chart": _main_chart(folder / case.id),
        "machines": (run.provenance or {}).get("machines") or [],
        "source": source(path, run.provenance) + "; "
                  + compare.precision_summary(compare.precision(run.frame)),
    }
    return row, shown.assign(case=case.id)[["case", *shown.columns]]


def result_row(case, pairs: pd.DataFrame, mine: pd.DataFrame, linked: bool,
               machine: noise.Noise) -> dict:
    """A case's Result as a row: its main row and what changed there (headline.lead, as the
    report's Result says it), its rows decided (``mine``: the write-up's variant's rows) and its
    median fork CV."""
    name = f"[{case.id}]({case.id}/report.html)" if linked else case.id
    if mine.empty:
        return {"case": name, "row": "—", "time": "nothing paired", "allocation": "—",
                "rows decided": "—", "fork CV": "—"}
    main = headline.lead(pairs, case.candidate, *case.headline)
    return {"case": name, "row": f"{main.label}, {main.candidate} against {main.baseline}",
            "time": main.time, "allocation": "; ".join(main.alloc) or "—",
            "rows decided": fmt_decided(mine), "fork CV": noise.fmt_cv(machine.fork_cv)}


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
    at = [floors.at_floor(e, f) for e, f in zip(rows["excess"], rows["floor"])]
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


#: Keys of a case's row that are not figures of the overview's second table.
NOT_FIGURES = ["source", "chart", "machines", "result", "noise"]


def write(profile: str, folder: Path = REPORTS,
          made: tuple[pd.DataFrame, pd.DataFrame] | None = None) -> Path:
    """reports/index.html and index.md from ``made`` (combine's tables), else made here: the
    cases' Results, one row each, and the machine; then the figures, the claims and the sources."""
    table, checked = made if made is not None else rows(profile, folder)
    cases = table.to_dict("records")
    results = pd.DataFrame([c["result"] for c in cases])
    machine = noise.line(noise.combine([c["noise"] for c in cases])) if cases else ""
    table = table.drop(columns=NOT_FIGURES, errors="ignore")
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
            f"{counts[v]} {v}" for v in ("reproduced", "contradicted", "undecided",
                                         "not comparable") if counts[v]) + ".")
    others = other_reports(folder)
    listed = "".join(f"- {c['case']}: {c['source']}\n" for c in cases)
    beyond_md = ("## Beyond the cases\n\n" + "".join(f"- [{name}]({href}): {text}\n" for name, href, text in others)
                 + "\n" if others else "")
    said = f"**The machine.** {machine}\n\n" if machine else ""
    (folder / "index.md").write_text(paste_md(results, said, intro, table, checked, beyond_md, listed,
                                              bool(cases)), encoding="utf-8")
    said = f"<p><strong>The machine.</strong> {html.escape(machine)}</p>\n" if machine else ""
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>hotpath: overview</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto;line-height:1.45}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px}}
th{{background:#f3f3f3}}td.num,th.num{{text-align:right}}td.text,th.text{{text-align:left}}
table.wide{{font-size:.85em}}table.wide td,table.wide th{{padding:4px 5px}}
.charts{{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0}}.charts figure{{margin:0}}
.charts img{{width:200px;border:1px solid #ddd}}.charts figcaption{{text-align:center}}</style></head>
<body><h1>hotpath: overview</h1>
{f'<div class="headline"><p>{html.escape(RESULTS_NOTE)}</p>{markup.html_table(results)}</div>' if cases else "<p>No results yet.</p>"}
{said}{_charts_html(cases)}
<p>{html.escape(intro).replace('`', '')}</p>
{markup.html_table(table)}
<h2>Claims, all cases</h2>
{markup.html_table(checked)}
{_beyond_html(others)}<h2>Sources</h2><ul>{"".join(f"<li>{html.escape(c['case'] + ': ' + c['source'])}</li>" for c in cases)}</ul>
</body></html>
"""
    (folder / "index.html").write_text(page, encoding="utf-8")
    return folder / "index.html"


#: The overview's files, in the folder of the reports it sums up.
PAGES = ("index.html", "index.md")


def inputs_key(inputs: reuse.Inputs, profile: str, folder: Path) -> str:
    """The key of what the overview is made of: the inputs of every render, the profile, and
    the files of the reports it reads in ``folder`` (the cases', the A/A's, the two builds')."""
    read = {name: reuse.files(folder / name) for name in [c.id for c in existing_cases()] + ["aa", "ab"]}
    text = json.dumps([inputs.digest, "overview", profile, str(folder.resolve()), read], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def kept(inputs: reuse.Inputs | None, profile: str, folder: Path) -> bool:
    """Whether index.html and index.md are what the same inputs and reports made last time."""
    return inputs is not None and reuse.fresh((folder / PAGES[0]).resolve(),
                                              inputs_key(inputs, profile, folder), _pages(folder))


def keep(inputs: reuse.Inputs | None, profile: str, folder: Path) -> None:
    """Record the overview just written, under the key of what it was made of."""
    if inputs is not None and inputs.unchanged():
        reuse.keep((folder / PAGES[0]).resolve(), inputs_key(inputs, profile, folder), _pages(folder))


def _pages(folder: Path) -> dict[str, str]:
    return {name: reuse.sha256(folder / name) for name in PAGES if (folder / name).is_file()}


def paste_md(results: pd.DataFrame, said: str, intro: str, table: pd.DataFrame,
             checked: pd.DataFrame, beyond: str, listed: str, any_case: bool) -> str:
    """index.md, fitted as a report's summary.md is (hotpath.render.paste): the Results, the
    machine and the figures whole, the claims by rows, the sources last; ending on index.html."""
    blocks = [paste.text_block("hotpath: overview", "# hotpath: overview\n\n" + (
        f"{RESULTS_NOTE}\n\n{markup.to_markdown(results)}\n{said}{intro}\n" if any_case
        else "No results yet.\n"), "", paste.LEAD)]
    if any_case:
        blocks.append(paste.text_block("the figures of every case", markup.to_markdown(table), "",
                                       paste.CORE))
    if checked.empty:
        blocks.append(paste.text_block("Claims, all cases", "## Claims, all cases\n\nNo claims.\n", "",
                                       paste.DETAIL))
    else:
        lines = markup.to_markdown(checked).rstrip("\n").split("\n")
        blocks.append(paste.table_block("Claims, all cases", lines, ["", *lines[2:]],
                                        [(paste.DETAIL, i) for i in range(len(lines) - 2)]))
    if beyond:
        blocks.append(paste.text_block("Beyond the cases", beyond, "", paste.CORE))
    blocks.append(paste.text_block("Sources", f"## Sources\n\n{listed}", "", paste.EXTRA))
    return paste.fit(blocks, jira=False, attachment="index.html", what="overview").text


#: Above the Results table: what its cells are (each is its case report's Result).
RESULTS_NOTE = ("Each case's Result, one row per case: its write-up's main row, what changed there "
                "and by how much with its verdict, the time rows decided and the median fork CV "
                "(each report's At a glance has every row).")


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


def _charts_html(cases: list[dict]) -> str:
    """Each case's main chart as a thumbnail, embedded (one file to open), linking its report."""
    out = []
    for c in cases:
        if c["chart"] is None:
            continue
        data = base64.b64encode(Path(c["chart"]).read_bytes()).decode("ascii")
        img = f'<img alt="{html.escape(c["case"])}: main chart" src="data:image/png;base64,{data}">'
        if c["report"] != "not rendered":
            img = f'<a href="{c["case"]}/report.html">{img}</a>'
        out.append(f'<figure>{img}<figcaption>{html.escape(c["case"])}</figcaption></figure>')
    return f'<div class="charts">{"".join(out)}</div>\n' if out else ""
