"""What each row's recorded forks did: their classes (flat, warmup, slowdown, no steady state),
the time each took to reach its steady state, the fork length the plan chose from them, and,
for the rows whose forks warmed up for long, slowed down or never settled, their iteration
series old beside new."""

from __future__ import annotations

import math
import textwrap
from collections import Counter

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..jmh import RowKey
from ..records import SLOW_PROBE, Slow
from ..stats import steady
from .charts import NEW_COLORS, OLD_COLOR, _plain_log_axis
from .fmt import label

#: Rows whose forks settled by this time are not charted: the JIT's first half-second is every
#: benchmark's, and a chart of it says nothing of the row.
QUICK_SETTLE_S = 0.5
#: Charts in one figure: the rows that matter most first (never settled, slowed down, then the
#: longest warmups).
MOST_CHARTED = 8
_ORDER = {steady.NO_STEADY_STATE: 0, steady.SLOWDOWN: 1, steady.HOST_NOISE: 2, steady.WARMUP: 3,
          steady.FLAT: 4}


def recorded(pairs: pd.DataFrame) -> pd.DataFrame:
    """The pairs whose forks were recorded from their start."""
    if pairs.empty or "old_steady" not in pairs:
        return pairs.iloc[0:0]
    has = pairs["old_steady"].map(bool) & pairs["new_steady"].map(bool)
    return pairs[has]


def classes(forks: list[dict]) -> str:
    """'3 warmup, 1 no steady state'."""
    counts = Counter(f["kind"] for f in forks)
    return ", ".join(f"{counts[k]} {k}" for k in sorted(counts, key=lambda k: _ORDER.get(k, 9)))


def steady_start(forks: list[dict]) -> str:
    """The time to steady state over a side's forks: 'median 0.4 s, at most 1.2 s'."""
    starts = [f["start_s"] for f in forks if f.get("start_s") is not None]
    if not starts:
        return "never"
    median, most = float(np.median(starts)), max(starts)
    never = len(forks) - len(starts)
    text = f"{median:.1f} s" if math.isclose(median, most) else f"{median:.1f} s (at most {most:.1f} s)"
    return text + (f"; {never} never" if never else "")


def lengths(r: pd.Series, iteration_s: float) -> str:
    """The forks' lengths: the scouts', then what the plan chose."""
    seen = sorted({f["iterations"] for f in (*r["old_steady"], *r["new_steady"])})
    text = " – ".join(f"{n * iteration_s:g} s" for n in dict.fromkeys((seen[0], seen[-1]))) if seen else ""
    first, chosen = r.get("first_fork_iterations"), r.get("fork_iterations")
    if _given(first):
        text += f"; first {int(first) * iteration_s:g} s, for the slowdown the 2026-11-26 A/A saw"
    if _given(chosen):
        text += f"; last chosen {int(chosen) * iteration_s:g} s"
    return text


def _given(n) -> bool:
    return bool(n) and not (isinstance(n, float) and math.isnan(n))


def host(r: pd.Series, traces: dict[RowKey, Slow]) -> str:
    """How the host ran during a row's counted iterations, both sides together, by the probe
    beside each: 'full speed' or '1.1× slow or more in 12 of 80 iterations (1.8× at their median)'."""
    found = [t for side in ("baseline", "candidate")
             if (t := traces.get(RowKey.of(r["benchmark"], r["params"], r[side]))) is not None]
    if not found:
        return "not recorded"
    total, slow = sum(t.iterations for t in found), sum(t.slow for t in found)
    if not slow:
        return "full speed"
    medians = [t.slow_median for t in found if t.slow]
    return (f"{SLOW_PROBE:g}× slow or more in {slow} of {total} iterations "
            f"({max(medians):.1f}× at their median)")


def table(pairs: pd.DataFrame, iteration_s: float,
          traces: dict[RowKey, Slow] | None = None) -> pd.DataFrame:
    """One row per recorded pair: the forks' classes and times to steady state per side, their
    lengths and, where the forks recorded the host-speed probe, how the host ran meanwhile."""
    rows = []
    many = pairs["candidate"].nunique() > 1
    for _, r in recorded(pairs).iterrows():
        rows.append({
            "benchmark": label(r) + (f" [{r['candidate']}]" if many else ""),
            f"{r['baseline']}: forks": classes(r["old_steady"]),
            f"{r['baseline']}: steady from": steady_start(r["old_steady"]),
            "new: forks": classes(r["new_steady"]),
            "new: steady from": steady_start(r["new_steady"]),
            "fork lengths": lengths(r, iteration_s),
            **({"host's speed": host(r, traces)} if traces else {}),
        })
    return pd.DataFrame(rows)


def worth_charting(r: pd.Series) -> bool:
    forks = [*r["old_steady"], *r["new_steady"]]
    return any(f["kind"] in (steady.NO_STEADY_STATE, steady.SLOWDOWN)
               or (f["start_s"] or 0) > QUICK_SETTLE_S for f in forks)


def charted(pairs: pd.DataFrame) -> pd.DataFrame:
    """The rows to chart, most telling first, at most MOST_CHARTED."""
    rows = recorded(pairs)
    rows = rows[[worth_charting(r) for _, r in rows.iterrows()]]
    if rows.empty:
        return rows
    rank = [min(_ORDER.get(f["kind"], 9) for f in (*r["old_steady"], *r["new_steady"]))
            for _, r in rows.iterrows()]
    return rows.assign(_rank=rank).sort_values("_rank", kind="stable").drop(columns="_rank").head(MOST_CHARTED)


#: A panel's title at 8 points across half the 9-inch figure, in characters.
TITLE_CHARS = 60


def series_chart(pairs: pd.DataFrame, iteration_s: float, title: str = "") -> Figure:
    """Small multiples, one per row: every fork's iterations over the fork's time, old in grey,
    the candidate in colour; solid where the fork's figure comes from (its steady segment, or the
    second half of a fork that never settled), faint before. Log scale: a step is a ratio
    wherever it lies."""
    rows = charted(pairs)
    n = max(1, len(rows))
    cols = 2 if n > 1 else 1
    height = 2.3 * math.ceil(n / cols) + 0.6
    width = 9.0
    fig, axes = plt.subplots(math.ceil(n / cols), cols, figsize=(width, height), squeeze=False,
                             layout="constrained")
    for ax, (_, r) in zip(axes.flat, rows.iterrows()):
        unit = r["unit"]
        for side, colour, name in (("old", OLD_COLOR, r["baseline"]), ("new", NEW_COLORS[0], r["candidate"])):
            for k, (series, fork) in enumerate(zip(r[f"{side}_series"], r[f"{side}_steady"])):
                t = np.arange(len(series)) * iteration_s
                first = fork["first"]
                ax.plot(t, series, color=colour, alpha=0.25, linewidth=0.8)
                ax.plot(t[first:], series[first:], color=colour, alpha=0.9, linewidth=1.0,
                        label=name if k == 0 else None)
        ax.set_yscale("log")
        _plain_log_axis(ax.yaxis)
        # wrapped to its panel: a row named with its class and a mechanism's variant left it
        ax.set_title("\n".join(textwrap.wrap(f"{label(r)}: {r['candidate']} vs {r['baseline']}",
                                              TITLE_CHARS * 2 // cols, break_on_hyphens=False)), fontsize=8)
        ax.set_xlabel("seconds into the fork", fontsize=7)
        ax.set_ylabel(unit, fontsize=7)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7, loc="best")
    for ax in list(axes.flat)[len(rows):]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title, fontsize=9)
    return fig


CAPTION = ("Every recorded fork of the rows whose forks warmed up for more than "
           f"{QUICK_SETTLE_S:g} s, slowed down or never settled: iterations over the fork's time "
           "(log scale), the old side grey, the candidate in colour; solid where each fork's figure "
           "comes from (its steady segment, or the second half of a fork that never settled), "
           "faint before")
