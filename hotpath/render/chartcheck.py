"""What makes a chart unreadable at its saved size, found after a draw: text over text, text
cut at the figure's edge, a legend entry whose series cannot be seen (drawn over by another,
or with nothing drawn). Document.figure records what it finds in report.json; the tests hold
every chart of the reference reports to none."""

from __future__ import annotations

import math

import numpy as np

from matplotlib.collections import LineCollection
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text

#: Pixels two extents may share (anti-aliasing) before they count as overlapping.
SLACK = 1.0
#: The gid of a legend key that explains a style rather than draws a series.
KEY = "legend-key"


def _tick_labels(axis) -> list[Text]:
    """The tick labels a draw shows: ticks inside the view, with text."""
    lo, hi = sorted(axis.get_view_interval())
    out = []
    for tick in axis.get_major_ticks() + axis.get_minor_ticks():
        loc = tick.get_loc()
        if loc is None or not (lo - 1e-12 * abs(lo) <= loc <= hi + 1e-12 * abs(hi)):
            continue
        out += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    return out


def texts(fig: Figure) -> list[Text]:
    """Every text a reader sees: titles, axis and tick labels, annotations, legends."""
    found = list(fig.texts)
    for ax in fig.axes:
        # the left and right titles are Text objects Matplotlib keeps private (its stubs leave them out)
        found += [ax.title, ax._left_title, ax._right_title,  # type: ignore[attr-defined]
                  ax.xaxis.label, ax.yaxis.label,
                  ax.xaxis.get_offset_text(), ax.yaxis.get_offset_text(), *ax.texts]
        found += _tick_labels(ax.xaxis) + _tick_labels(ax.yaxis)
        legend = ax.get_legend()
        if legend:
            found += legend.get_texts()
    for figure_legend in fig.legends:
        found += figure_legend.get_texts()
    return [t for t in found if t.get_visible() and t.get_text().strip()]


def _overlap(a, b) -> bool:
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > SLACK
            and min(a.y1, b.y1) - max(a.y0, b.y0) > SLACK)


def _points(artist, ax) -> list[tuple[float, float]]:
    """An artist's points in display pixels (a line's vertices, a bar's far end)."""
    if isinstance(artist, Line2D):
        xy = artist.get_xydata()
        return [tuple(p) for p in artist.get_transform().transform(xy)
                if all(math.isfinite(c) for c in p)]
    return []


def _drawn(handle, ax) -> bool:
    """Whether a legend handle's artist puts anything on the canvas."""
    if isinstance(handle, BarContainer):
        return any(p.get_window_extent().width >= 1 and p.get_window_extent().height >= 1
                   for p in handle.patches)
    if isinstance(handle, Line2D):
        if handle.axes is None:
            return False
        if not np.size(handle.get_xdata()):
            # A key (which line style is which benchmark) draws nothing, on purpose.
            return handle.get_gid() == KEY
        return bool(_points(handle, ax))
    if isinstance(handle, LineCollection):
        return len(handle.get_segments()) > 0
    return True


def _covered(line: Line2D, ax) -> str | None:
    """The label of a series drawn later over every point of ``line`` with markers at least as
    large and lines at least as wide, so that ``line`` cannot be seen; else None."""
    mine = _points(line, ax)
    if not mine:
        return None
    lines = [a for a in ax.get_lines() if a.get_visible()]
    later = lines[lines.index(line) + 1:] if line in lines else []
    for other in later:
        if other.get_markersize() < line.get_markersize() or other.get_linewidth() < line.get_linewidth():
            continue
        if other.get_marker() != line.get_marker() and line.get_marker() not in ("", "None", None):
            continue
        theirs = _points(other, ax)
        if all(any(abs(x - u) <= SLACK and abs(y - v) <= SLACK for u, v in theirs) for x, y in mine):
            return other.get_label()
    return None


def problems(fig: Figure, drawn: bool = False) -> list[str]:
    """What a reader of this figure at its saved size could not read, in words; ``drawn``:
    the figure was just drawn at its saved size (saved), so its layout is final."""
    if not drawn:
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg's, as charts draws
    found = []
    shown = texts(fig)
    boxes = [(t, t.get_window_extent(renderer)) for t in shown]
    frame = fig.bbox
    for t, b in boxes:
        if b.x0 < -SLACK or b.y0 < -SLACK or b.x1 > frame.x1 + SLACK or b.y1 > frame.y1 + SLACK:
            found.append(f"text {t.get_text()!r} leaves the figure")
    for i, (t, b) in enumerate(boxes):
        for u, c in boxes[i + 1:]:
            if _overlap(b, c):
                found.append(f"texts {t.get_text()!r} and {u.get_text()!r} overlap")
    for ax in fig.axes:
        handles, labels = ax.get_legend_handles_labels()
        for handle, name in zip(handles, labels):
            if not _drawn(handle, ax):
                found.append(f"legend entry {name!r} has nothing drawn")
            elif isinstance(handle, Line2D) and (over := _covered(handle, ax)):
                found.append(f"legend entry {name!r} is hidden under {over!r}")
    return found
