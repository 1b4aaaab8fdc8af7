"""Which change pays: each row's change from old to optimized split among the patch's mechanisms,
each measured as a variant of its own (hotpath.analyze.mechanisms): a table of the parts with
their intervals, the Result's row as a waterfall, and one line the paste keeps; where no run
measured them, nothing (a run that left them out says so where it says what it left out)."""

from __future__ import annotations

import math

import pandas as pd

from .. import waterfall
from ..paste import CORE, DETAIL
from ...analyze.mechanisms import RowParts
from ...analyze.report import Analysis
from ...numbertext import MINUS, three_figures
from ...jmh import MethodName
from ...stats.decompose import Decomposition, Part
from . import Section, relative

HEADING = "Which change pays: the patch's mechanisms, each measured alone"


def which_change_pays(analysis: Analysis) -> list[Section]:
    """The parts of each row's change, or how to measure them (a case's report only)."""
    case = analysis.case
    if case is None or analysis.comparison is None:
        return []
    found = analysis.mechanisms
    if not found.rows:  # a run of the write-up's rows says how to measure them (front.left_out)
        return []
    # the Result's params first among the rows split; a row its run could not split goes last
    rows = sorted(found.rows, key=lambda r: (r.time is None, r.params != case.headline[1]))
    main = rows[0]
    lines = [line for k, row in enumerate(rows) for line in _lines(row, k == 0)]
    table = pd.DataFrame(lines).drop(columns=["main"])
    plan = [(CORE if line["main"] else DETAIL, k) for k, line in enumerate(lines)]
    own = found.source is not None and analysis.run is not None and found.source == analysis.run.source
    source = ("From this report's run." if own else
              f"From {relative(found.source) if found.source else 'a run'}, a run of its own (make mechanisms), not this report's forks.")
    note = ("Each mechanism applied alone to old, and taken back alone from optimized where the run has "
            "that variant; a *share* is Shapley's (the mechanism's change averaged over every order of "
            "applying them: the parts add up to the whole, and the share is of the whole's point) where "
            "every combination was measured. "
            "*Interaction* is what the parts alone do not add up to. Time as a speed-up (old's time over "
            "the variant's, on each fork's figure as the verdicts take it), with its 95% interval over "
            "forks; a part whose interval holds 1× is not told from nothing. Heap B/op from -prof gc. "
            + source)
    shown = [Section(text=summary(main), priority=CORE, name="which change pays"),
             Section(HEADING, table, note=note, rows=plan)]
    if main.time is None and main.bytes is None:  # nothing split: a chart would be empty axes
        return shown
    return [*shown,
            Section(figure=("which-change-pays", waterfall.waterfall_chart(main),
                            f"Which change pays, {_label(main)}: old to optimized in time per op and heap "
                            "B/op, a step per mechanism alone and the interaction, each with its 95% "
                            "interval (green: pays, red: costs, blue: not told from nothing)"))]


def _label(row: RowParts) -> str:
    return f"{MethodName.of(row.benchmark).short}({row.params})"


def ratio_text(part: Part) -> str:
    """A part of log time as a speed-up with its interval: '1.36× (1.32–1.40)'."""
    x, lo, hi = part.speedup()
    interval = f" ({three_figures(lo)}–{three_figures(hi)})" if math.isfinite(part.df) else ""
    return f"{three_figures(x)}×{interval}"


def bytes_text(part: Part | None) -> str:
    """A part of heap B/op in whole bytes (-prof gc's figure per op is a count over many ops, not
    finer than a byte), with its interval where that is wider than a byte: '−16,400'."""
    if part is None:
        return "—"
    low, high = round(part.low), round(part.high)
    interval = f" ({_whole(low)} to {_whole(high)})" if high > low else ""
    return f"{_whole(round(part.estimate))}{interval}"


def _whole(n: int) -> str:
    return f"{n:,}".replace("-", MINUS)


def summary(row: RowParts) -> str:
    """The one line a paste keeps: the whole speed-up and each mechanism's part alone."""
    if row.time is None:
        return f"**Which change pays, {_label(row)}:** not split ({row.why})."
    t = row.time
    parts = ", ".join(f"{m} alone {ratio_text(t.alone[m])}" + ("" if t.alone[m].told_from_zero
                                                                else " (not told from nothing)")
                      for m in t.mechanisms)
    heap = ""
    if row.bytes is not None:
        heap = "; heap B/op: " + ", ".join(f"{m} {_whole(round(row.bytes.alone[m].estimate))}"
                                          for m in row.bytes.mechanisms)
    return (f"**Which change pays, {_label(row)}:** of the {ratio_text(t.total)} speed-up, {parts}; "
            f"what they do not add up to {ratio_text(t.interaction)}{heap}.")


def _lines(row: RowParts, main: bool) -> list[dict]:
    """A row's table lines: one per mechanism, the interaction and the whole change (``main``: the
    Result's row, which the paste keeps)."""
    t, b = row.time, row.bytes
    label = _label(row)
    if t is None:
        return [{"row": label, "part": "(not split)", "alone": row.why, "taken back": "", "share": "",
                 "heap B/op alone": "", "main": main}]
    out = []
    for m in t.mechanisms:
        out.append({"row": label, "part": m, "alone": ratio_text(t.alone[m]),
                    "taken back": ratio_text(t.taken_back[m]) if m in t.taken_back else "—",
                    "share": _share(t, m), "heap B/op alone": bytes_text(b.alone[m] if b else None),
                    "main": main})
    out.append({"row": label, "part": "interaction", "alone": ratio_text(t.interaction), "taken back": "",
                "share": "", "heap B/op alone": bytes_text(b.interaction if b else None), "main": main})
    out.append({"row": label, "part": "the whole patch", "alone": ratio_text(t.total), "taken back": "",
                "share": "100%", "heap B/op alone": bytes_text(b.total if b else None), "main": main})
    return out


def _share(t: Decomposition, m: str) -> str:
    """A mechanism's Shapley part: its share of the whole change in log time, and the part as a
    speed-up with its interval."""
    if t.shapley is None or t.total.estimate == 0:
        return "—"
    part = t.shapley[m]
    return f"{part.estimate / t.total.estimate:.0%}".replace("-", MINUS) + f": {ratio_text(part)}"
