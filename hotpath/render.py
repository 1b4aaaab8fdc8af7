"""Stage 3: comparison -> the write-up's tables (Jira wiki markup, GitHub Markdown) and charts."""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # reports render headless; a notebook's inline backend still shows figures
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

MINUS = "\u2212"
MEASURE_UNITS = {"alloc": "heap B/op", "native": "native B/op", "direct": "direct-buffer B/op",
                 "zlib": "zlib B/op"}
OLD_COLOR, NEW_COLORS = "#9e9e9e", ("#1f77b4", "#ff7f0e", "#2ca02c")


# ---------------------------------------------------------------- numbers

def fmt_number(x: float) -> str:
    """Significant digits that a reader can compare: 17,550 / 213.4 / 21.30 / 0.0123."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else f"{MINUS}∞"
    a = abs(x)
    if a >= 1000:
        s = f"{x:,.0f}"
    elif a >= 100:
        s = f"{x:.1f}"
    elif a >= 1:
        s = f"{x:.2f}"
    elif a == 0:
        s = "0"
    else:
        s = f"{x:.3g}"
    return s.replace("-", MINUS)


def fmt_score(score: float, error: float) -> str:
    if error is None or math.isnan(error):
        return fmt_number(score)
    return f"{fmt_number(score)} ± {fmt_number(error)}"


def fmt_bytes(x: float) -> str:
    """B/op: whole bytes; a run that allocates nothing shows 0."""
    if x is None or math.isnan(x):
        return "—"
    return f"{x:,.0f}".replace("-", MINUS)


def fmt_peak(peak_bytes: float, resolution_bytes: float) -> str:
    """A peak live heap in KB; at or below its resolution it is a bound, not a figure."""
    if peak_bytes is None or math.isnan(peak_bytes):
        return "—"
    if peak_bytes <= resolution_bytes:
        return f"≤ {(peak_bytes + resolution_bytes) / 1024:,.0f} KB"
    return f"{peak_bytes / 1024:,.0f} KB"


def fmt_pct(pct: float) -> str:
    if pct is None or math.isnan(pct):
        return "—"
    return f"{pct:+.1f}%".replace("-", MINUS)


def fmt_time_change(row: pd.Series) -> str:
    """benchstat-style: '−58.2% (2.39× faster)'; the ratio is of time per op."""
    ratio = row["ratio"]
    if math.isnan(ratio) or ratio <= 0:
        return "—"
    speedup = ratio if row["higher_is_better"] else 1 / ratio
    how = "faster" if speedup >= 1 else "slower"
    factor = speedup if speedup >= 1 else 1 / speedup
    if f"{factor:.2f}" == "1.00":
        return f"{fmt_pct(row['change_pct'])} (~)"
    return f"{fmt_pct(row['change_pct'])} ({factor:.2f}× {how})"


def fmt_verdict(row: pd.Series) -> str:
    v = row["verdict"]
    if v in ("faster", "slower"):
        return f"{v} (p={row['p_value']:.3f})"
    if v == "same":
        return f"same (±{row['threshold']:.0%})"
    return "~ inconclusive"


def fmt_alloc_change(old: float, new: float, verdict: str) -> str:
    if math.isnan(old) or math.isnan(new):
        return "—"
    delta = new - old
    if verdict == "same":
        return "~ same"
    if verdict == "→ 0 B/op":
        return f"{fmt_bytes(delta)} B (→ 0 B/op)"
    pct = f", {fmt_pct(delta / old * 100)}" if old else ""
    sign = "+" if delta > 0 else ""
    return f"{sign}{fmt_bytes(delta)} B{pct}"


def label(row: pd.Series) -> str:
    params = f"({row['params']})" if row["params"] else ""
    return f"{row['method']}{params}"


def warnings_by_row(pairs: pd.DataFrame, shown: int = 6) -> list[str]:
    """Each distinct warning once, with the rows it is about: 'text (all rows)' or 'text: a, b'."""
    if pairs.empty or "warnings" not in pairs:
        return []
    modes = pairs["mode"].nunique() > 1
    rows_of: dict[str, list[str]] = {}
    for _, r in pairs.iterrows():
        name = label(r) + (f" [{r['mode']}]" if modes else "")
        for w in r["warnings"]:
            rows_of.setdefault(w, []).append(name)
    out = []
    for w, names in sorted(rows_of.items()):
        if len(names) == len(pairs) and len(pairs) > 1:
            out.append(f"{w} (all rows)")
        else:
            more = f" and {len(names) - shown} more" if len(names) > shown else ""
            out.append(f"{w}: {', '.join(names[:shown])}{more}")
    return out


# ---------------------------------------------------------------- tables

def _candidates(pairs: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(pairs["candidate"]))


def _measured(pairs: pd.DataFrame, column: str) -> bool:
    return column in pairs and pairs[column].notna().any()


def native_columns(pairs: pd.DataFrame) -> list[str]:
    """Native origins that -prof gc cannot see (direct ByteBuffers, zlib), each only where some
    row allocates there: Jira tables must stay narrow. Measured but nowhere allocated: the total,
    so that the table still says "0 native B/op" rather than nothing."""
    if not _measured(pairs, "old_native"):
        return []
    shown = [stem for stem in ("direct", "zlib")
             if (pairs[[f"old_{stem}", f"new_{stem}"]] > 0.5).any(axis=None)]
    return shown or ["native"]


def wide_table(pairs: pd.DataFrame, gc: bool = False) -> pd.DataFrame:
    """One row per benchmark x params (x candidate): time, heap B/op, native B/op, GC.

    The write-ups' own shape (payload, old, new, time change, old B/op, new B/op, alloc change).
    """
    many = len(_candidates(pairs)) > 1
    # Files from elsewhere mix modes and units; one score column per unit would be mostly empty.
    modes, units = pairs["mode"].nunique() > 1, pairs["unit"].nunique() > 1
    native = native_columns(pairs)
    rows = []
    for _, r in pairs.iterrows():
        row = {"benchmark": label(r)}
        if many:
            row["variant"] = r["candidate"]
        if modes:
            row["mode"] = r["mode"]
        unit = r["unit"]
        if units:
            row["unit"] = unit
        # With one candidate its name heads its columns; with several, the variant column says.
        new = "new" if many else str(r["candidate"])
        row[r["baseline"] if units else f"{r['baseline']} {unit}"] = fmt_score(r["old_score"], r["old_error"])
        row[new if units else f"{new} {unit}"] = fmt_score(r["new_score"], r["new_error"])
        row["time"] = fmt_time_change(r)
        row["verdict"] = fmt_verdict(r)
        row[f"{r['baseline']} B/op"] = fmt_bytes(r["old_alloc"])
        row[f"{new} B/op"] = fmt_bytes(r["new_alloc"])
        row["alloc"] = fmt_alloc_change(r["old_alloc"], r["new_alloc"], r["alloc_verdict"])
        for stem in native:
            row[f"{MEASURE_UNITS[stem]} old → new"] = (f"{fmt_bytes(r[f'old_{stem}'])} → "
                                                      f"{fmt_bytes(r[f'new_{stem}'])}")
        if gc:
            row["GCs/10⁶ ops old → new"] = (f"{fmt_number(r['old_gc_count_per_mop'])} → "
                                             f"{fmt_number(r['new_gc_count_per_mop'])}")
            row["GC time % old → new"] = (f"{fmt_number(r['old_gc_time_pct'])} → "
                                          f"{fmt_number(r['new_gc_time_pct'])}")
        rows.append(row)
    return pd.DataFrame(rows)


def long_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """One row per benchmark x measure, like a write-up's "old | optimized | change" table."""
    rows = []
    for _, r in pairs.iterrows():
        name = label(r) + ("" if r["candidate"] == "optimized" else f" [{r['candidate']}]")
        what = "throughput" if r["higher_is_better"] else "time"
        rows.append({"benchmark": name, "measure": f"{what} ({r['unit']})",
                     "old": fmt_score(r["old_score"], r["old_error"]),
                     "new": fmt_score(r["new_score"], r["new_error"]),
                     "change": fmt_time_change(r), "verdict": fmt_verdict(r)})
        rows.append({"benchmark": name, "measure": "heap alloc (B/op)",
                     "old": fmt_bytes(r["old_alloc"]), "new": fmt_bytes(r["new_alloc"]),
                     "change": fmt_alloc_change(r["old_alloc"], r["new_alloc"],
                                                r["alloc_verdict"]),
                     "verdict": r["alloc_verdict"]})
        for stem, what in (("native", "native alloc, all (B/op)"),
                           ("direct", "native: direct buffers (B/op)"),
                           ("zlib", "native: zlib (B/op)")):
            if not math.isnan(r.get(f"old_{stem}", math.nan)):
                rows.append({"benchmark": name, "measure": what,
                             "old": fmt_bytes(r[f"old_{stem}"]), "new": fmt_bytes(r[f"new_{stem}"]),
                             "change": fmt_alloc_change(r[f"old_{stem}"], r[f"new_{stem}"],
                                                        r[f"{stem}_verdict"]),
                             "verdict": r[f"{stem}_verdict"]})
        rows.append({"benchmark": name, "measure": "GC count (per 10⁶ ops)",
                     "old": fmt_number(r["old_gc_count_per_mop"]),
                     "new": fmt_number(r["new_gc_count_per_mop"]),
                     "change": _ratio_text(r["old_gc_count_per_mop"], r["new_gc_count_per_mop"]),
                     "verdict": "no test (sum over the run)"})
        rows.append({"benchmark": name, "measure": "GC time (% of measured time)",
                     "old": fmt_number(r["old_gc_time_pct"]),
                     "new": fmt_number(r["new_gc_time_pct"]),
                     "change": _ratio_text(r["old_gc_time_pct"], r["new_gc_time_pct"]),
                     "verdict": "no test (sum over the run)"})
    return pd.DataFrame(rows)


def _ratio_text(old: float, new: float) -> str:
    if math.isnan(old) or math.isnan(new):
        return "—"
    if old == new:
        return "~"
    if new == 0:
        return "→ 0"
    if old == 0:
        return "from 0"
    r = old / new
    return f"{r:.1f}× less" if r >= 1 else f"{1 / r:.1f}× more"


#: A Markdown link in a table cell: [text](target).
MD_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def html_cell(value: object) -> str:
    """A table cell as HTML: escaped, with Markdown links made into anchors."""
    return MD_LINK.sub(r'<a href="\2">\1</a>', html.escape(str(value)))


def _jira_cell(text: object) -> str:
    # Jira wiki markup gives | [ ] { } meaning inside table cells.
    return re.sub(r"([|\[\]{}])", r"\\\1", str(text)).replace("\n", " ") or " "


def to_jira(table: pd.DataFrame) -> str:
    lines = ["||" + "||".join(_jira_cell(c) for c in table.columns) + "||"]
    for _, row in table.iterrows():
        lines.append("|" + "|".join(_jira_cell(v) for v in row) + "|")
    return "\n".join(lines) + "\n"


def _md_cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


_NUMERIC = re.compile(r"^[−+\-~0-9.,± ()%×a-z/→–—≤]*$")


def numeric_column(values) -> bool:
    """Figures align right, words left: a column of numbers (with units, ±, →) is numeric."""
    values = [str(v) for v in values]
    return bool(values) and all(_NUMERIC.match(v) and any(ch.isdigit() for ch in v) or v == "—"
                                for v in values)


def html_table(table: pd.DataFrame) -> str:
    """A plain HTML table: escaped cells, links as anchors, figures right and words left.

    Written by hand rather than by pandas' Styler, whose random ids would make every render
    of the same JSON differ."""
    if table.empty:
        return "<p>None.</p>"
    align = ["num" if numeric_column(table[c]) else "text" for c in table.columns]
    head = "".join(f'<th class="{a}">{html.escape(str(c))}</th>' for c, a in zip(table.columns, align))
    body = "".join("<tr>" + "".join(f'<td class="{a}">{html_cell(v)}</td>' for v, a in zip(row, align))
                   + "</tr>\n" for row in table.itertuples(index=False))
    return f'<table class="hotpath"><thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody></table>'


def to_markdown(table: pd.DataFrame) -> str:
    align = ["---:" if numeric_column(table[c]) else "---" for c in table.columns]
    lines = ["| " + " | ".join(_md_cell(c) for c in table.columns) + " |",
             "| " + " | ".join(align) + " |"]
    for _, row in table.iterrows():
        lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- charts

def bar_chart(pairs: pd.DataFrame, measure: str = "score", title: str = "") -> Figure:
    """Grouped bars, baseline beside each candidate; error bars are JMH's 99.9% half-width."""
    labels = list(dict.fromkeys(label(r) for _, r in pairs.iterrows()))
    candidates = _candidates(pairs)
    baseline = pairs["baseline"].iloc[0]
    series = [(baseline, OLD_COLOR)] + list(zip(candidates, NEW_COLORS))
    width = 0.8 / len(series)
    plotted: list[float] = []
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(labels) + 2), 4.2), dpi=110)
    for i, (variant, color) in enumerate(series):
        values, errors = [], []
        for lab in labels:
            rows = pairs[[label(r) == lab for _, r in pairs.iterrows()]]
            row = rows[rows["candidate"] == variant] if variant != baseline else rows
            if row.empty:
                values.append(math.nan)
                errors.append(0.0)
                continue
            r = row.iloc[0]
            side = "old" if variant == baseline else "new"
            if measure == "score":
                values.append(r[f"{side}_score"])
                errors.append(r[f"{side}_error"] if not math.isnan(r[f"{side}_error"]) else 0.0)
            else:
                values.append(r[f"{side}_{measure}"])
                errors.append(0.0)
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(labels))]
        bars = ax.bar(xs, values, width, yerr=errors, capsize=3, color=color, label=variant)
        texts = [fmt_bytes(v) if measure != "score" else fmt_number(v) for v in values]
        ax.bar_label(bars, labels=texts, fontsize=7, padding=2)
        plotted.extend(v for v in values if v and not math.isnan(v) and v > 0)
    unit = pairs["unit"].iloc[0] if measure == "score" else MEASURE_UNITS.get(measure, measure)
    if plotted and max(plotted) / min(plotted) > 100:
        ax.set_yscale("log")  # sizes spanning orders of magnitude: bars stay readable
        unit += " (log scale)"
    ax.set_ylabel(unit)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
    ax.set_title(title or unit)
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def _numeric(value: str) -> float:
    """A sweep's x value: '1024', '8K', '1M', 'BYTES_8K' -> bytes or count."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*([KMG]?)B?$", value, re.IGNORECASE)
    if not m:
        return math.nan
    scale = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}[m.group(2).upper()]
    return float(m.group(1)) * scale


def sweep_chart(pairs: pd.DataFrame, param: str, measure: str = "score", title: str = "",
                xlabel: str = "") -> Figure:
    """One line per variant against a numeric @Param, log-log: how cost grows with size."""
    rows = pairs[pairs["params"].str.contains(rf"(?:^|, ){re.escape(param)}=")].copy()
    rows["x"] = rows["params"].map(
        lambda p: _numeric(dict(kv.split("=", 1) for kv in p.split(", "))[param]))
    rows = rows.dropna(subset=["x"]).sort_values("x")
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    baseline = rows["baseline"].iloc[0] if len(rows) else "old"
    column = "score" if measure == "score" else measure
    first = rows.drop_duplicates("x")
    ax.plot(first["x"], first[f"old_{column}"], "o-", color=OLD_COLOR, label=baseline)
    for candidate, color in zip(_candidates(rows), NEW_COLORS):
        sub = rows[rows["candidate"] == candidate]
        ax.plot(sub["x"], sub[f"new_{column}"], "o-", color=color, label=candidate)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel or param)
    unit = rows["unit"].iloc[0] if measure == "score" and len(rows) else MEASURE_UNITS.get(measure, measure)
    ax.set_ylabel(unit)
    ax.set_title(title or f"{unit} against {param}")
    ax.legend(frameon=False)
    ax.grid(which="both", alpha=0.3)
    fig.tight_layout()
    return fig


def save_png(fig: Figure, path: Path) -> Path:
    """PNG without a software/date stamp, so the same JSON renders the same file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    return path


def ratio_chart(pairs: pd.DataFrame, threshold: float, title: str = "") -> Figure:
    """Speed-up of each candidate as time-per-op ratio new/old with its 95% CI over fork means.

    One scale for every benchmark whatever its unit; the band is the "same" threshold.
    """
    rows = list(pairs.iterrows())
    modes = pairs["mode"].nunique() > 1
    names = [label(r) + ("" if r["candidate"] == "optimized" else f" [{r['candidate']}]")
             + (f" {r['mode']}" if modes else "") for _, r in rows]
    fig, ax = plt.subplots(figsize=(7.0, 0.45 * len(rows) + 1.6), dpi=110)
    for i, (_, r) in enumerate(rows):
        # Throughput ratios are inverted so that < 1 always means less time per op.
        flip = r["higher_is_better"]
        ratio = 1 / r["ratio"] if flip else r["ratio"]
        lo, hi = (1 / r["ci_high"], 1 / r["ci_low"]) if flip else (r["ci_low"], r["ci_high"])
        color = {"faster": "#2ca02c", "slower": "#d62728", "same": "#7f7f7f"}.get(
            r["verdict"], "#1f77b4")
        if not (math.isnan(lo) or math.isnan(hi)):
            ax.plot([lo, hi], [i, i], color=color, lw=2.5, alpha=0.6)
        ax.plot([ratio], [i], "o", color=color)
    ax.axvspan(1 - threshold, 1 + threshold, color="#dddddd", alpha=0.6, lw=0)
    ax.axvline(1.0, color="#555555", lw=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("time per op, new / old (log scale; < 1 is faster)")
    ax.set_title(title or f"Time per op new/old with its 95% CI (band: ±{threshold:.0%})")
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    return fig
