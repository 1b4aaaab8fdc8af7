"""reports/index.md and reports/index.html: one row per case, linking every case report."""

from __future__ import annotations

import html
import math
from collections import Counter
from pathlib import Path

import pandas as pd

from . import claims, compare, render
from .cases import existing_cases
from .load import read_peaks, read_results
from .paths import REPORTS, ROOT, results_file


def rows(profile: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One row per case with results; and every claim of those cases, checked."""
    out, all_claims = [], []
    for case in existing_cases():
        path = results_file(profile, case.id)
        if not path.is_file():
            continue
        run = read_results(path)
        comparison = compare.pair(run.frame)
        s = compare.summary(comparison)
        verdicts = Counter(comparison.pairs["verdict"]) if not comparison.pairs.empty else Counter()
        checked = claims.check(case.id, comparison.pairs, read_peaks(path))
        comparable = checked[checked["verdict"] != "not comparable"]
        reproduced = int((checked["verdict"] == "reproduced").sum())
        all_claims.append(checked.assign(case=case.id)[["case", *checked.columns]])
        out.append({
            "case": case.id,
            "write-up": case.writeup,
            "time per op, new/old (geomean)": _ratio(s["time_geomean"]),
            "heap B/op, new/old (geomean)": _ratio(s["alloc_geomean"]),
            "time verdicts": ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items())) or "—",
            "claims reproduced": (f"{reproduced} of {len(comparable)} comparable" if len(comparable)
                                  else "none comparable") + f" ({len(checked)} claims)",
            "report": f"[{case.id}/report.html]({case.id}/report.html)",
            "source": source(path, run.provenance),
        })
    return pd.DataFrame(out), (pd.concat(all_claims, ignore_index=True) if all_claims
                               else pd.DataFrame())


def source(path: Path, provenance: dict | None) -> str:
    """Where a row's figures come from: the results file, and the run that wrote it."""
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    if not provenance:
        return f"{shown} (no provenance sidecar)"
    commit = str(provenance.get("git_commit", "unknown"))[:10]
    dirty = ", uncommitted changes" if provenance.get("git_dirty") else ""
    return (f"{shown}: {provenance.get('profile_settings', '?')}; commit {commit}{dirty}; "
            f"started {provenance.get('started', '?')}, {provenance.get('duration_s', '?')} s; "
            f"{provenance.get('cpu_model', '?')}, {provenance.get('cores', '?')} cores, "
            f"JDK {provenance.get('jdk', {}).get('java.runtime.version', '?')}")


def _html_table(frame: pd.DataFrame) -> str:
    if frame.empty:
        return "<p>None.</p>"
    head = "".join(f"<th>{html.escape(c)}</th>" for c in frame.columns)
    body = "".join("<tr>" + "".join(f"<td>{render.html_cell(v)}</td>" for v in r) + "</tr>\n"
                   for r in frame.itertuples(index=False))
    return f"<table><tr>{head}</tr>\n{body}</table>"


def _ratio(r: float) -> str:
    return "—" if r is None or math.isnan(r) else f"{r:.3f}"


def write(profile: str, folder: Path = REPORTS) -> Path:
    table, checked = rows(profile)
    sources = [f"{c}: {s}" for c, s in zip(table.get("case", []), table.get("source", []))]
    table = table.drop(columns="source", errors="ignore")
    folder.mkdir(parents=True, exist_ok=True)
    intro = (f"Results of the `{profile}` profile, one row per case. Ratios are geometric means "
             f"over the case's benchmarks (below 1: the optimized version is faster or allocates "
             f"less); verdicts are fork-level (see each report).")
    if not checked.empty:
        counts = Counter(checked["verdict"])
        intro += (" The write-ups' claims, all cases: " + ", ".join(
            f"{counts[v]} {v}" for v in ("reproduced", "contradicted", "inconclusive",
                                         "not comparable") if counts[v]) + ".")
    listed = "".join(f"- {line}\n" for line in sources)
    (folder / "index.md").write_text(
        f"# hotpath: overview\n\n{intro}\n\n{render.to_markdown(table)}\n"
        f"## Claims, all cases\n\n{render.to_markdown(checked) if not checked.empty else 'None.'}\n"
        f"## Sources\n\n{listed}",
        encoding="utf-8")
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>hotpath: overview</title>
<style>body{{font-family:sans-serif;max-width:1100px;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px;text-align:left}}
th{{background:#f3f3f3}}</style></head>
<body><h1>hotpath: overview</h1><p>{html.escape(intro).replace('`', '')}</p>
{_html_table(table)}
<h2>Claims, all cases</h2>
{_html_table(checked)}
<h2>Sources</h2><ul>{"".join(f"<li>{html.escape(line)}</li>" for line in sources)}</ul>
</body></html>
"""
    (folder / "index.html").write_text(page, encoding="utf-8")
    return folder / "index.html"
