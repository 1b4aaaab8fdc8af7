"""Stage 3b: comparison -> charts (matplotlib, headless), saved as deterministic PNGs."""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # reports render headless; the notebooks embed the saved PNGs
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .fmt import fmt_bytes, fmt_number, label  # noqa: E402
from .headline import time_per_op  # noqa: E402
from .tables import MEASURE_UNITS, _candidates  # noqa: E402

OLD_COLOR, NEW_COLORS = "#9e9e9e", ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b")
FLOOR_COLOR = "#000000"
#: The floor files state heap and native floors; direct and zlib are parts of native.
FLOOR_COLUMNS = {"alloc": "heap_floor", "native": "native_floor"}



def _floor_of(floors: pd.DataFrame | None, measure: str, benchmark: str, params: str) -> float:
    if floors is None or floors.empty or measure not in FLOOR_COLUMNS:
        return math.nan
    hit = floors[(floors["benchmark"] == benchmark) & (floors["params"] == params)]
    return float(hit.iloc[0][FLOOR_COLUMNS[measure]]) if len(hit) else math.nan


def bar_chart(pairs: pd.DataFrame, measure: str = "score", title: str = "",
              floors: pd.DataFrame | None = None) -> Figure:
    """Grouped bars, baseline beside each candidate; error bars are JMH's 99.9% half-width.

    With ``floors`` (data/floors/<case>.csv), each group of an allocation chart gets a black
    line at the least the operation must allocate (a zero floor cannot sit on a log axis and
    is said in the legend instead)."""
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
    log = bool(plotted) and max(plotted) / min(plotted) > 100
    if log:
        ax.set_yscale("log")  # sizes spanning orders of magnitude: bars stay readable
        unit += " (log scale)"
    _draw_floors(ax, pairs, labels, measure, floors, log, half=0.45)
    ax.set_ylabel(unit)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
    ax.set_title(title or unit)
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig



def _draw_floors(ax, pairs, labels, measure, floors, log: bool, half: float) -> None:
    values = []
    for j, lab in enumerate(labels):
        r = next(r for _, r in pairs.iterrows() if label(r) == lab)
        values.append(_floor_of(floors, measure, r["benchmark"], r["params"]))
    if all(math.isnan(v) for v in values):
        return
    zeros = sum(1 for v in values if v == 0)
    legend = "allocation floor" + (f" (0 B/op for {zeros} of {len(values)}, not drawn)"
                                   if zeros and log else "")
    drawn = False
    for j, v in enumerate(values):
        if math.isnan(v) or (log and v <= 0):
            continue
        ax.hlines(v, j - half, j + half, colors=FLOOR_COLOR, linestyles="--", linewidth=1.2,
                  label=None if drawn else legend)
        drawn = True
    if not drawn:
        ax.plot([], [], "--", color=FLOOR_COLOR, label=legend)


def _numeric(value: str) -> float:
    """A sweep's x value: '1024', '8K', '1M', 'BYTES_8K' -> bytes or count."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*([KMG]?)B?$", value, re.IGNORECASE)
    if not m:
        return math.nan
    scale = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}[m.group(2).upper()]
    return float(m.group(1)) * scale



def sweep_chart(pairs: pd.DataFrame, param: str, measure: str = "score", title: str = "",
                xlabel: str = "", floors: pd.DataFrame | None = None,
                x_of: dict[str, float] | None = None, mark: float | None = None) -> Figure:
    """One line per variant against a numeric @Param, log-log: how cost grows with size.

    ``x_of`` maps @Param values to sizes where the value is a name (zip's payloads: their
    marshalled bytes); ``mark`` draws a dotted vertical line (a claimed break-even); ``floors``
    adds the allocation floor as a dashed black line."""
    rows = pairs[pairs["params"].str.contains(rf"(?:^|, ){re.escape(param)}=")].copy()
    value = rows["params"].map(lambda p: dict(kv.split("=", 1) for kv in p.split(", "))[param])
    rows["x"] = value.map(lambda v: (x_of or {}).get(v, math.nan) if x_of is not None else _numeric(v))
    rows = rows.dropna(subset=["x"]).sort_values("x")
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    baseline = rows["baseline"].iloc[0] if len(rows) else "old"
    column = "score" if measure == "score" else measure
    first = rows.drop_duplicates("x")
    ax.plot(first["x"], first[f"old_{column}"], "o-", color=OLD_COLOR, label=baseline)
    for candidate, color in zip(_candidates(rows), NEW_COLORS):
        sub = rows[(rows["candidate"] == candidate) & (rows[f"new_{column}"] > 0)]
        ax.plot(sub["x"], sub[f"new_{column}"], "o-", color=color, label=candidate)
    floor = [(x, _floor_of(floors, measure, r["benchmark"], r["params"]))
             for x, (_, r) in zip(first["x"], first.iterrows())]
    floor = [(x, f) for x, f in floor if not math.isnan(f) and f > 0]
    if floor:
        ax.plot(*zip(*floor), "--", color=FLOOR_COLOR, lw=1.2, label="allocation floor")
    if mark:
        ax.axvline(mark, color="#555555", ls=":", lw=1)
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



def peak_chart(peaks: pd.DataFrame, param: str, x_of: dict[str, float], title: str = "",
               xlabel: str = "", mark: float | None = None) -> Figure:
    """Peak live heap per call against size, one line per variant (hotpath.peak); peaks at
    or below their resolution are bounds, not figures, and are not drawn."""
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    rows = peaks.assign(x=peaks["params"].map(lambda p: x_of.get(p.partition("=")[2], math.nan)))
    rows = rows[rows["x"].notna() & (rows["peak_bytes"] > rows["resolution_bytes"])]
    variants = list(dict.fromkeys(rows["variant"]))
    colors = dict(zip([v for v in variants if v != "old"], NEW_COLORS), old=OLD_COLOR)
    for v in variants:
        sub = rows[rows["variant"] == v].sort_values("x")
        ax.plot(sub["x"], sub["peak_bytes"], "o-", color=colors[v], label=v)
    if mark:
        ax.axvline(mark, color="#555555", ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel or param)
    ax.set_ylabel("peak live heap, bytes")
    ax.set_title(title or "Peak live heap per call")
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
    _ratio_axes(ax, names, threshold,
                title or f"Time per op new/old with its 95% CI (band: ±{threshold:.0%})")
    fig.tight_layout()
    return fig


def _ratio_axes(ax, names: list[str], threshold: float, title: str) -> None:
    """A log axis of time per op new/old, one row per name, the "same" band around 1."""
    ax.axvspan(1 - threshold, 1 + threshold, color="#dddddd", alpha=0.6, lw=0)
    ax.axvline(1.0, color="#555555", lw=1)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("time per op, new / old (log scale; < 1 is faster)")
    ax.set_title(title)
    ax.grid(axis="x", which="both", alpha=0.3)


def matrix_chart(pairs: pd.DataFrame, threshold: float, name_of, title: str = "") -> Figure:
    """Time per op new/old of each benchmark on every runtime cell, with its 95% CI: one row per
    benchmark, one marker per cell, side by side; the band is the "same" threshold."""
    names = list(dict.fromkeys(name_of(r) for _, r in pairs.iterrows()))
    cells = list(dict.fromkeys(pairs["cell"]))
    markers = "osD^vP*X"
    step = 0.8 / max(len(cells), 1)
    fig, ax = plt.subplots(figsize=(8.0, 0.55 * len(names) * max(1, len(cells) / 4) + 2.0), dpi=110)
    for j, cell in enumerate(cells):
        color = NEW_COLORS[j % len(NEW_COLORS)] if j < len(NEW_COLORS) else "#7f7f7f"
        for k, (_, r) in enumerate(pairs[pairs["cell"] == cell].iterrows()):
            y = names.index(name_of(r)) - 0.4 + step * (j + 0.5)
            ratio, lo, hi = time_per_op(r)
            if not (math.isnan(lo) or math.isnan(hi)):
                ax.plot([lo, hi], [y, y], color=color, lw=2, alpha=0.5)
            ax.plot([ratio], [y], markers[j % len(markers)], color=color, ms=5,
                    label=cell if k == 0 else None)
    _ratio_axes(ax, names, threshold, title or "Time per op new/old per runtime cell (95% CI)")
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    return fig
