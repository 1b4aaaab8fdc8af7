"""Stage 3b: comparison -> charts (matplotlib, headless), saved as deterministic PNGs.

Every chart is laid out so that a reviewer reads it at its saved size: plain tick labels (1×,
10k), one row per bar so that value labels cannot collide, zero drawn as zero on a log axis,
series that coincide all visible, lines only between points of one benchmark.
chartcheck.problems() holds every chart to it."""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # reports render headless; the notebooks embed the saved PNGs
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullLocator  # noqa: E402

from . import chartcheck  # noqa: E402
from .fmt import fmt_bytes, fmt_number, label  # noqa: E402
from ..analyze.compare import time_per_op  # noqa: E402
from ..jmh import MethodName, params_of  # noqa: E402
from .tables import MEASURE_UNITS, _candidates  # noqa: E402
from .units import byte_scale, score_scale  # noqa: E402

OLD_COLOR, NEW_COLORS = "#6e6e6e", ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b")
FLOOR_COLOR = "#000000"
#: One marker shape per series, so that series drawn over each other stay apart.
MARKERS = "osD^vP*X"
VERDICT_COLORS = {"faster": "#2ca02c", "slower": "#d62728", "same": "#7f7f7f",
                  "undecided": "#1f77b4"}
#: The floor files state heap and native floors; direct and zlib are parts of native.
FLOOR_COLUMNS = {"alloc": "heap_floor", "native": "native_floor"}
DPI = 110
#: A zero on a log axis sits this factor inside its left edge, clear of a zero floor's bar.
ZERO_INSET = 1.8
#: The floor marks a chart can draw, by the gid they are drawn with, and what a caption says of
#: each (floor_note): the caption names what was drawn, not what might have been.
FLOOR_MARKS = {"floor-line": "dashed: the allocation floor",
               "floor-zero": "black bar at the left edge: an allocation floor of 0"}


def floor_note(fig: Figure) -> str:
    """What the floor marks drawn in ``fig`` are, for its caption ('dashed: the allocation
    floor'); empty where it drew none (no floors given, or a sweep's floors all 0)."""
    drawn = {a.get_gid() for ax in fig.axes for a in ax.get_children()}
    return "; ".join(text for gid, text in FLOOR_MARKS.items() if gid in drawn)


def _figure(width: float, height: float) -> tuple[Figure, plt.Axes]:
    """A figure whose layout engine keeps every label inside it."""
    fig, ax = plt.subplots(figsize=(width, height), dpi=DPI, layout="constrained")
    return fig, ax


def _wrapped(text: str, width_in: float) -> str:
    """A title wrapped to the figure's width rather than cut at its edge."""
    return "\n".join(textwrap.wrap(text, max(30, int(width_in * 10))))


def _title(ax, text: str, width_in: float) -> None:
    ax.set_title(_wrapped(text, width_in), fontsize=10)


def _si(x: float) -> str:
    """A log-axis tick as a person writes it: 1, 10, 100, 1k, 10k, 1M."""
    if x <= 0:
        return "0"
    for size, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= size:
            return f"{x / size:g}{prefix}"
    return f"{x:g}"


def _comma(x: float) -> str:
    """A log-axis tick of a measure: 1, 10, 100, 1,000: a prefix letter beside a unit that has
    its own (k beside KB) would read as a second unit."""
    return f"{x:,.0f}" if x >= 1 else f"{x:g}"


def _plain_log_axis(axis, si: bool = True, most: int = 8) -> None:
    """Decades labelled 1, 10, 100, 1k… (``si``; else 1,000), at most ``most`` of them (every
    other decade beyond); on an axis of under two decades, 2× and 5× too, so that it is never
    left without a label."""
    label = _si if si else _comma
    axis.set_major_locator(LogLocator(base=10, numticks=most))
    axis.set_major_formatter(FuncFormatter(lambda x, _: label(x)))

    def minor(x: float, _=None) -> str:
        lo, hi = axis.get_view_interval()
        if x <= 0 or lo <= 0 or hi / lo >= 100:
            return ""
        mantissa = x / 10 ** math.floor(math.log10(x) + 1e-9)
        return label(x) if any(abs(mantissa - m) < 1e-6 for m in (2, 5)) else ""
    axis.set_minor_formatter(FuncFormatter(minor))


def _floor_of(floors: pd.DataFrame | None, measure: str, benchmark: str, params: str) -> float:
    if floors is None or floors.empty or measure not in FLOOR_COLUMNS:
        return math.nan
    hit = floors[(floors["benchmark"] == benchmark) & (floors["params"] == params)]
    return float(hit.iloc[0][FLOOR_COLUMNS[measure]]) if len(hit) else math.nan


def _value(r: pd.Series, side: str, measure: str) -> tuple[float, float]:
    if measure == "score":
        error = r[f"{side}_error"]
        return r[f"{side}_score"], 0.0 if math.isnan(error) else error
    return r[f"{side}_{measure}"], 0.0


def bar_chart(pairs: pd.DataFrame, measure: str = "score", title: str = "",
              floors: pd.DataFrame | None = None) -> Figure:
    """Horizontal bars, one row per benchmark × variant (old first), each bar labelled with its
    value; JMH's 99.9% half-width as error bars for scores.

    On a log axis (values spanning orders of magnitude) a zero is drawn as a marker at the
    axis' left edge and labelled 0. With ``floors`` (data/floors/<case>.csv), each group gets a
    dashed black line at the least the operation must allocate (a zero floor: a black bar on
    the left edge)."""
    groups = list(dict.fromkeys(label(r) for _, r in pairs.iterrows()))
    baseline = pairs["baseline"].iloc[0]
    colors = {baseline: OLD_COLOR, **dict(zip(_candidates(pairs), NEW_COLORS))}
    bars = _bars(pairs, groups, measure)
    if measure == "score":
        scale = score_scale(pairs["unit"].iloc[0], [b[2] for b in bars])
        unit = scale.unit
        text_of = lambda raw: fmt_number(scale(raw))  # noqa: E731
    else:
        scale = byte_scale([b[2] for b in bars])
        unit = MEASURE_UNITS.get(measure, measure).replace("B/op", f"{scale.unit}/op")
        text_of = lambda raw: fmt_bytes(raw, scale)  # noqa: E731
    positive = [scale(b[2]) for b in bars if b[2] > 0]
    log = bool(positive) and max(positive) / min(positive) > 100
    left = min(positive) / 8 if log else 0.0
    ys, group_y, y = _bar_positions(bars)
    width = 7.6
    fig, ax = _figure(width, 0.24 * len(bars) + 0.3 * len(groups) + 1.8)
    seen: set[str] = set()
    ends = [1e-9]
    for (_, variant, raw, raw_err, _, _), yy in zip(bars, ys):
        v, err = scale(raw), scale(raw_err)
        color = colors.get(variant, "#7f7f7f")
        name = None if variant in seen else variant
        seen.add(variant)
        if v > 0 or not log:
            ax.barh(yy, v - left, left=left, height=0.8, color=color, label=name,
                    xerr=err or None, capsize=2, error_kw={"lw": 0.8})
        else:  # zero on a log axis: a marker just inside the left edge, labelled 0
            ax.plot([left * ZERO_INSET], [yy], "o", color=color, ms=5, label=name)
        ax.annotate(text_of(raw), (max(v + err, left * ZERO_INSET), yy), xytext=(4, 0),
                    textcoords="offset points", va="center", ha="left", fontsize=7)
        ends.append(v + err)
    _draw_floors(ax, bars, group_y, measure, floors, scale, left)
    ax.set_yticks([sum(g) / len(g) for g in group_y.values()])
    ax.set_yticklabels(groups, fontsize=8)
    ax.set_ylim(y - 0.4, -0.6)
    ax.tick_params(axis="y", length=0)
    if log:
        ax.set_xscale("log")
        _plain_log_axis(ax.xaxis, si=False, most=6)  # 1,000,000 is wide
        ax.set_xlim(left, max(ends) * 12)  # room for the value labels
        unit += " (log scale)"
    else:
        ax.set_xlim(0, max(ends) * 1.3)
    ax.set_xlabel(unit)
    _title(ax, title or unit, width)
    _legend(fig, ax, "outside lower center", order=list(colors))
    ax.grid(axis="x", alpha=0.3)
    return fig


#: One bar of bar_chart: its group (a row's label), variant, value and error in the measure's
#: own unit, benchmark and params.
Bar = tuple[str, str, float, float, str, str]


def _bars(pairs: pd.DataFrame, groups: list[str], measure: str) -> list[Bar]:
    """Each group's bars, old first, then each candidate; bars without a value left out, and
    under half a byte per op shown as 0 (a profiler's rounding)."""
    baseline = pairs["baseline"].iloc[0]
    bars = []
    for g in groups:
        rows = pairs[[label(r) == g for _, r in pairs.iterrows()]]
        first = rows.iloc[0]
        bars.append((g, baseline, *_value(first, "old", measure), first["benchmark"], first["params"]))
        for _, r in rows.iterrows():
            bars.append((g, r["candidate"], *_value(r, "new", measure), r["benchmark"], r["params"]))
    bars = [b for b in bars if not math.isnan(b[2])]
    if measure != "score":
        bars = [(g, v, 0.0 if x < 0.5 else x, e, bm, p) for g, v, x, e, bm, p in bars]
    return bars


def _bar_positions(bars: list[Bar]) -> tuple[list[float], dict[str, list[float]], float]:
    """Each bar's y, each group's bars' ys and the y past the last: a gap between groups, the
    bars of a group one below the other."""
    ys: list[float] = []
    group_y: dict[str, list[float]] = {}
    y = 0.0
    for i, b in enumerate(bars):
        if i and b[0] != bars[i - 1][0]:
            y += 0.6
        ys.append(y)
        group_y.setdefault(b[0], []).append(y)
        y += 1
    return ys, group_y, y


def _legend(fig: Figure, ax, where: str, order: list[str] | None = None) -> None:
    """The axes' legend outside the plot, where it can cover no point and no label; the
    labels in ``order`` first."""
    handles, labels = ax.get_legend_handles_labels()
    if order:
        rank = {name: i for i, name in enumerate(order)}
        pairs = sorted(zip(handles, labels), key=lambda hl: rank.get(hl[1], len(rank)))
        handles, labels = [h for h, _ in pairs], [lab for _, lab in pairs]
    if handles:
        ncol = min(4, len(handles)) if "center" in where else 1
        # figure legends take 'outside …' locations too, which Matplotlib's stubs leave out
        fig.legend(handles, labels, loc=where, frameon=False, fontsize=8, ncol=ncol)  # type: ignore[call-overload]


def _draw_floors(ax, bars, group_y: dict, measure: str, floors, scale, left: float) -> None:
    """The allocation floor per group: a dashed line across the group's bars; a zero floor,
    a black bar on the left edge."""
    first: dict[Any, tuple[str, str]] = {}
    for g, _, _, _, benchmark, params in bars:
        first.setdefault(g, (benchmark, params))
    named = set()
    for g, (benchmark, params) in first.items():
        f = _floor_of(floors, measure, benchmark, params)
        if math.isnan(f):
            continue
        lo, hi = min(group_y[g]) - 0.45, max(group_y[g]) + 0.45
        if scale(f) > left:
            name = "allocation floor"
            ax.vlines(scale(f), lo, hi, colors=FLOOR_COLOR, linestyles="--", linewidth=1.2,
                      label=None if name in named else name, gid="floor-line")
        else:
            name = "allocation floor of 0 (bar on the left edge)"
            ax.vlines(left, lo, hi, colors=FLOOR_COLOR, linewidth=4, clip_on=False,
                      label=None if name in named else name, gid="floor-zero")
        named.add(name)


def _numeric(value: str) -> float:
    """A sweep's x value: '1024', '8K', '1M', 'BYTES_8K' -> bytes or count."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*([KMG]?)B?$", value, re.IGNORECASE)
    if not m:
        return math.nan
    scale = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}[m.group(2).upper()]
    return float(m.group(1)) * scale


def _coincide(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Two series with the same points (within 1%) wherever both were measured."""
    m = a.merge(b, on="x", suffixes=("_a", "_b"))
    if m.empty:
        return False
    return all(abs(p - q) <= 0.01 * max(abs(p), abs(q), 1e-12) for p, q in zip(m["y_a"], m["y_b"]))


def _series_plot(ax, series: list[tuple[str, str, pd.DataFrame]]) -> None:
    """Lines of (name, benchmark, points x/y), one colour and marker shape per name and one
    line style per benchmark, lines only within one benchmark. Earlier series get larger,
    hollow markers, so that a later series drawn over an equal one leaves it visible; a name
    whose points all equal an earlier one's says so in the legend. Zeros on the log y axis sit
    on its bottom edge, labelled 0."""
    names = list(dict.fromkeys(n for n, _, _ in series))
    benchmarks = list(dict.fromkeys(b for _, b, _ in series))
    styles = dict(zip(benchmarks, ["-", "--", ":", "-."] * 4))
    colors = {n: (OLD_COLOR if i == 0 else NEW_COLORS[(i - 1) % len(NEW_COLORS)])
              for i, n in enumerate(names)}
    points = {n: pd.concat([s for m, _, s in series if m == n]) for n in names}
    same_as = {}
    for i, n in enumerate(names):
        for earlier in names[:i]:
            if earlier not in same_as and _coincide(points[earlier], points[n]):
                same_as[n] = earlier
                break
    positive = [y for _, _, s in series for y in s["y"] if y > 0]
    bottom = min(positive) / 6 if positive else 1.0
    has_zero = False
    for n, benchmark, s in series:
        i = names.index(n)
        size = 9 - 1.5 * min(i, 3)
        style = dict(color=colors[n], marker=MARKERS[i % len(MARKERS)], ms=size, mew=1.4,
                     mfc="none" if i < len(names) - 1 else colors[n])
        shown = s[s["y"] > 0]
        text = n + (f" (= {same_as[n]} here)" if n in same_as else "")
        first = benchmark == next(b for m, b, _ in series if m == n)
        ax.plot(shown["x"], shown["y"], linestyle=styles[benchmark], lw=1.4,
                label=text if first else None, **style)
        zeros = s[s["y"] <= 0]
        if len(zeros):
            has_zero = True
            ax.plot(zeros["x"], [bottom] * len(zeros), linestyle="none", clip_on=False, **style)
    if len(benchmarks) > 1:  # which line style is which benchmark
        for benchmark in benchmarks:
            ax.plot([], [], linestyle=styles[benchmark], color="#444444", gid=chartcheck.KEY,
                    label=benchmark)
    ax.set_yscale("log")
    _plain_log_axis(ax.yaxis, si=False)
    if has_zero:
        ax.set_ylim(bottom=bottom)
        ticks = [t for t in ax.get_yticks() if t > bottom * 3]
        ax.yaxis.set_major_locator(FixedLocator([bottom] + ticks))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _: "0" if x <= bottom else _comma(x)))


def sweep_chart(pairs: pd.DataFrame, param: str, measure: str = "score", title: str = "",
                xlabel: str = "", floors: pd.DataFrame | None = None,
                x_of: dict[str, float] | None = None, mark: float | None = None) -> Figure:
    """One line per variant against a numeric @Param, log-log: how cost grows with size.

    ``x_of`` maps @Param values to sizes where the value is a name (zip's payloads: their
    marshalled bytes); ``mark`` draws a dotted vertical line (a claimed break-even); ``floors``
    adds the allocation floor as a dashed black line (a zero floor is not drawn)."""
    rows = pairs[pairs["params"].str.contains(rf"(?:^|, ){re.escape(param)}=")].copy()
    value = rows["params"].map(lambda p: params_of(p)[param])
    rows["x"] = value.map(lambda v: (x_of or {}).get(v, math.nan) if x_of is not None else _numeric(v))
    # A line joins the points of one benchmark at the same other params, never two of them.
    rows["line"] = [MethodName.of(b).method + "".join(f", {kv}" for kv in p.split(", ")
                                                      if not kv.startswith(f"{param}="))
                    for b, p in zip(rows["benchmark"], rows["params"])]
    rows = rows.dropna(subset=["x"]).sort_values(["line", "x"])
    width = 7.0
    fig, ax = _figure(width, 4.6)
    baseline = rows["baseline"].iloc[0] if len(rows) else "old"
    column = "score" if measure == "score" else measure
    values = [*rows[f"old_{column}"], *rows[f"new_{column}"]]
    scale = (score_scale(rows["unit"].iloc[0], values) if measure == "score" and len(rows)
             else byte_scale(values, least=1.0))
    series = []
    for line, group in rows.groupby("line", sort=False):
        first = group.drop_duplicates("x")
        series.append((baseline, line, pd.DataFrame(
            {"x": first["x"], "y": first[f"old_{column}"].map(scale)})))
    for candidate in _candidates(rows):
        for line, group in rows[rows["candidate"] == candidate].groupby("line", sort=False):
            series.append((candidate, line, pd.DataFrame(
                {"x": group["x"], "y": group[f"new_{column}"].map(scale)})))
    _series_plot(ax, series)
    floor = []
    for _, r in rows.drop_duplicates(["line", "x"]).iterrows():
        f = _floor_of(floors, measure, r["benchmark"], r["params"])
        if not math.isnan(f) and f > 0:
            floor.append((r["line"], r["x"], scale(f)))
    for i, (_, points) in enumerate(pd.DataFrame(
            floor, columns=["line", "x", "y"]).groupby("line", sort=False)):
        ax.plot(points["x"], points["y"], "--", color=FLOOR_COLOR, lw=1.2,
                label="allocation floor" if i == 0 else None, gid="floor-line")
    if mark:
        ax.axvline(mark, color="#555555", ls=":", lw=1)
    ax.set_xscale("log")
    _plain_log_axis(ax.xaxis)
    ax.set_xlabel(xlabel or param)
    unit = scale.unit if measure == "score" else MEASURE_UNITS.get(measure, measure).replace(
        "B/op", f"{scale.unit}/op")
    ax.set_ylabel(unit)
    _title(ax, title or f"{unit} against {param}", width)
    _legend(fig, ax, "outside right upper")
    ax.grid(which="major", alpha=0.3)
    return fig


def peak_chart(peaks: pd.DataFrame, param: str, x_of: dict[str, float], title: str = "",
               xlabel: str = "", mark: float | None = None) -> Figure:
    """Peak live heap per call against size, one line per variant (hotpath.peak); peaks at
    or below their resolution are bounds, not figures, and are not drawn."""
    width = 7.0
    fig, ax = _figure(width, 4.6)
    rows = peaks.assign(x=peaks["params"].map(lambda p: x_of.get(p.partition("=")[2], math.nan)))
    rows = rows[rows["x"].notna() & (rows["peak_bytes"] > rows["resolution_bytes"])]
    variants = list(dict.fromkeys(["old", *rows["variant"]]))
    variants = [v for v in variants if v in set(rows["variant"])]
    scale = byte_scale(rows["peak_bytes"], least=1.0)
    _series_plot(ax, [(v, "peak", rows[rows["variant"] == v].sort_values("x").assign(
        y=lambda d: d["peak_bytes"].map(scale))[["x", "y"]]) for v in variants])
    if mark:
        ax.axvline(mark, color="#555555", ls=":", lw=1)
    ax.set_xscale("log")
    _plain_log_axis(ax.xaxis)
    ax.set_xlabel(xlabel or param)
    ax.set_ylabel(f"peak live heap, {scale.unit}")
    _title(ax, title or "Peak live heap per call", width)
    _legend(fig, ax, "outside right upper")
    ax.grid(which="major", alpha=0.3)
    return fig


def save_png(fig: Figure, path: Path) -> Path:
    """PNG without a software/date stamp, so the same JSON renders the same file. Drawn once by
    Agg's own canvas: ``savefig`` lays a constrained figure out twice (a dry draw, then the
    draw), for the same pixels."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig).print_png(path, metadata={"Software": None})
    return path


def ratio_chart(pairs: pd.DataFrame, threshold: float, title: str = "") -> Figure:
    """Speed-up of each candidate as time-per-op ratio new/old with its 95% CI over fork means.

    One scale for every benchmark whatever its unit; the band is the "same" threshold; the
    colour is the verdict."""
    rows = list(pairs.iterrows())
    modes = pairs["mode"].nunique() > 1
    names = [label(r) + ("" if r["candidate"] == "optimized" else f" [{r['candidate']}]")
             + (f" {r['mode']}" if modes else "") for _, r in rows]
    width = 8.4
    fig, ax = _figure(width, 0.3 * len(rows) + 2.0)
    shown: set[str] = set()
    extent = [1.0]
    for i, (_, r) in enumerate(rows):
        ratio, lo, hi = time_per_op(r)
        verdict = r["verdict"] if r["verdict"] in VERDICT_COLORS else "undecided"
        color = VERDICT_COLORS[verdict]
        if not (math.isnan(lo) or math.isnan(hi)):
            ax.plot([lo, hi], [i, i], color=color, lw=2.5, alpha=0.6)
            extent += [lo, hi]
        if not math.isnan(ratio):
            ax.plot([ratio], [i], "o", color=color, label=None if verdict in shown else verdict)
            shown.add(verdict)
            extent.append(ratio)
    _ratio_axes(ax, names, threshold, extent,
                title or f"Time per op new/old with its 95% CI (grey band: same within ±{threshold:.0%})",
                width)
    _legend(fig, ax, "outside lower center")
    return fig


#: Multipliers a reader writes on a ratio axis.
NICE_RATIOS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 10, 20, 50, 100)


def ratio_ticks(lo: float, hi: float, most: int = 7) -> list[float]:
    """Nice multipliers between lo and hi, 1× always, no two closer than 1/most of the span."""
    span = math.log10(hi / lo)
    gap = span / most
    inside = [v for v in NICE_RATIOS if lo <= v <= hi]
    chosen = [1.0]
    for direction in (sorted((v for v in inside if v < 1), reverse=True),
                      sorted(v for v in inside if v > 1)):
        last = 1.0
        for v in direction:
            if abs(math.log10(v / last)) >= gap:
                chosen.append(v)
                last = v
    return sorted(chosen)


def _ratio_label(x: float, _=None) -> str:
    return f"{x:g}×"


def _ratio_axes(ax, names: list[str], threshold: float, extent: list[float], title: str,
                width: float) -> None:
    """A log axis of time per op new/old labelled 0.5×, 1×, 2×, one row per name, the "same"
    band around 1."""
    ax.axvspan(1 - threshold, 1 + threshold, color="#dddddd", alpha=0.6, lw=0)
    ax.axvline(1.0, color="#555555", lw=1)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=8)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xscale("log")
    lo, hi = min(extent) / 1.15, max(extent) * 1.15
    lo, hi = min(lo, 1 / 1.3), max(hi, 1.3)
    ax.set_xlim(lo, hi)
    ax.xaxis.set_major_locator(FixedLocator(ratio_ticks(lo, hi)))
    ax.xaxis.set_major_formatter(FuncFormatter(_ratio_label))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel("time per op, new / old (log scale; below 1× is faster)")
    # Centred on the figure, not the axes: long row names push the axes right, and a title
    # centred over them would leave the figure.
    ax.figure.suptitle(_wrapped(title, width), fontsize=10)
    ax.grid(axis="x", alpha=0.3)


def matrix_chart(pairs: pd.DataFrame, threshold: float, name_of, title: str = "") -> Figure:
    """Time per op new/old of each benchmark on every runtime cell, with its 95% CI: one row per
    benchmark, one marker per cell, side by side; the band is the "same" threshold."""
    names = list(dict.fromkeys(name_of(r) for _, r in pairs.iterrows()))
    cells = list(dict.fromkeys(pairs["cell"]))
    step = 0.8 / max(len(cells), 1)
    width = 8.4
    fig, ax = _figure(width, 0.12 * len(names) * max(len(cells), 1) + 0.2 * len(names) + 2.2)
    extent = [1.0]
    for j, cell in enumerate(cells):
        color = NEW_COLORS[j % len(NEW_COLORS)] if j < len(NEW_COLORS) else "#7f7f7f"
        for k, (_, r) in enumerate(pairs[pairs["cell"] == cell].iterrows()):
            y = names.index(name_of(r)) - 0.4 + step * (j + 0.5)
            ratio, lo, hi = time_per_op(r)
            if not (math.isnan(lo) or math.isnan(hi)):
                ax.plot([lo, hi], [y, y], color=color, lw=2, alpha=0.5)
                extent += [lo, hi]
            if not math.isnan(ratio):
                extent.append(ratio)
            ax.plot([ratio], [y], MARKERS[j % len(MARKERS)], color=color, ms=5,
                    label=cell if k == 0 else None)
    _ratio_axes(ax, names, threshold, extent,
                title or "Time per op new/old per runtime cell (95% CI)", width)
    _legend(fig, ax, "outside lower center")
    return fig


def noise_chart(residuals: pd.DataFrame, title: str = "") -> Figure:
    """The forks' noise against the simulation's model, two panels: the standardized log fork
    means of every row and side against a normal's quantiles (a straight line is the model;
    tails and levels bend it), and each fork's deviation from its row's mean across the run
    (drift tilts the cloud; a neighbour's burst makes a band)."""
    from scipy import special  # (the normal's quantiles: scipy.stats.norm.ppf's own function)

    fig, (qq, drift) = plt.subplots(1, 2, figsize=(10, 4), dpi=DPI, layout="constrained")
    keys = ["benchmark", "params", "side"]
    spread = residuals.groupby(keys)["residual"].transform(lambda r: r.std(ddof=1) if len(r) > 1 else np.nan)
    z = np.sort((residuals["residual"] / spread).replace([np.inf, -np.inf], np.nan).dropna().to_numpy())
    if len(z):
        q = special.ndtri((np.arange(1, len(z) + 1) - 0.5) / len(z))
        qq.plot(q, z, "o", markersize=3, color=NEW_COLORS[0], alpha=0.6, label="fork means")
        lim = max(abs(q).max(), abs(z).max()) * 1.05
        qq.plot([-lim, lim], [-lim, lim], "--", color=OLD_COLOR, linewidth=1, label="normal (the model)")
        qq.set_xlim(-lim, lim)
        qq.set_ylim(-lim, lim)
    qq.set_xlabel("normal quantile")
    qq.set_ylabel("standardized log fork mean")
    qq.legend(loc="upper left", fontsize=8)
    qq.set_title("Tails and levels", fontsize=10)
    pct = (np.exp(residuals["residual"]) - 1) * 100
    drift.plot(residuals["position"], pct, "o", markersize=2, color=NEW_COLORS[0], alpha=0.4)
    drift.axhline(0, color=OLD_COLOR, linewidth=1)
    drift.set_xlabel("place in the run (0: first fork, 1: last)")
    drift.set_ylabel("fork mean against its row's, %")
    drift.set_title("Drift over the run", fontsize=10)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig
