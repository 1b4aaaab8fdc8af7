"""Which change pays, drawn: per row, a waterfall from old to optimized, one step per mechanism
applied alone to old, then the interaction (what the parts alone do not add up to), in time per
op (a log axis: each step is a ratio) and in heap B/op; each step with its 95% interval. A patch
series' waterfall leads from its baseline to its last step, a bar per step, no interaction."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")  # reports render headless
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

from .charts import DPI, OLD_COLOR, VERDICT_COLORS, _plain_log_axis, _si, _wrapped  # noqa: E402
from .fmt import fmt_bytes  # noqa: E402
from ..analyze.mechanisms import OLD, OPTIMIZED, RowParts  # noqa: E402
from ..jmh import MethodName  # noqa: E402
from ..stats.decompose import Decomposition, Part  # noqa: E402

INTERACTION = "interaction"


def steps(d: Decomposition, levels: tuple[str, str] = (OLD, OPTIMIZED),
          interaction: bool = True) -> list[tuple[str, Part | None]]:
    """The waterfall's bars, top to bottom: old, each mechanism alone, the interaction,
    optimized (old and optimized are levels, not steps: None). A series' ``levels`` are its
    baseline and last step, its parts its steps, and no interaction (0 by construction)."""
    return [(levels[0], None), *((f"+ {m}", d.alone[m]) for m in d.mechanisms),
            *([(INTERACTION, d.interaction)] if interaction else []), (levels[1], None)]


def _color(part: Part | None, lower_is_better: bool = True) -> str:
    if part is None:
        return OLD_COLOR
    if not part.told_from_zero:
        return VERDICT_COLORS["undecided"]
    better = part.high < 0 if lower_is_better else part.low > 0
    return VERDICT_COLORS["faster" if better else "slower"]


def _panel(ax, d: Decomposition, log: bool, what: str, bars: list[tuple[str, Part | None]]) -> None:
    """One waterfall: each step a floating bar from the level before it to the level after,
    its interval drawn at the level after."""
    move = (lambda level, x: level * math.exp(x)) if log else (lambda level, x: level + x)
    base = math.exp(d.base) if log else d.base
    level, extent = base, [base]
    final = move(base, d.total.estimate)
    for i, (_, part) in enumerate(bars):
        y = len(bars) - 1 - i
        if part is None:
            edge = base if i == 0 else final
            ax.plot([edge], [y], "s", color=OLD_COLOR, ms=8)
            extent.append(edge)
            continue
        after = move(level, part.estimate)
        left, right = sorted((level, after))
        ax.barh(y, right - left, left=left, height=0.5, color=_color(part), alpha=0.8)
        lo, hi = move(level, part.low), move(level, part.high)
        ax.plot([lo, hi], [y, y], color="black", lw=1.2)
        extent += [lo, hi, after]
        level = after
    ax.set_yticks(range(len(bars)), [name for name, _ in reversed(bars)])
    positive = [x for x in extent if x > 0]
    if log and positive:
        ax.set_xscale("log")
        ax.set_xlim(min(positive) / 1.15, max(positive) * 1.15)
        _plain_log_axis(ax.xaxis)
        if max(positive) / min(positive) < 3:  # within a factor of 3: every minor tick a label
            ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: _si(x)))
    else:
        lo, hi = min(extent + [0.0]), max(extent)
        pad = 0.05 * (hi - lo or 1.0)
        ax.set_xlim(lo - pad, hi + pad)
        # a panel is half the width: few, wide labels; whole bytes, as the table gives them
        ax.xaxis.set_major_locator(MaxNLocator(4, integer=True))
        ax.xaxis.set_major_formatter(lambda x, _: fmt_bytes(x) if x >= 0 else "")
    ax.set_xlabel(what, fontsize=9)
    ax.grid(axis="x", alpha=0.3)


def waterfall_chart(row: RowParts, title: str = "", levels: tuple[str, str] = (OLD, OPTIMIZED),
                    interaction: bool = True) -> Figure:
    """The row's waterfalls: time per op, and heap B/op where measured (``levels`` and
    ``interaction``: as ``steps`` draws them)."""
    panels = [(d, log, what) for d, log, what in ((row.time, True, "time per op (ns, log scale)"),
                                                   (row.bytes, False, "heap B/op"))
              if d is not None]
    width = 8.4
    fig, grid = plt.subplots(1, max(len(panels), 1), figsize=(width, 0.45 * (len(row.mechanisms) + 2 + interaction) + 1.4),
                             dpi=DPI, layout="constrained", sharey=True, squeeze=False)
    axes = grid[0]
    for ax, (d, log, what) in zip(axes, panels):
        _panel(ax, d, log, what, steps(d, levels, interaction))
    fig.suptitle(_wrapped(title or f"Which change pays: {MethodName.of(row.benchmark).short} {row.params}",
                          width), fontsize=10)
    return fig
