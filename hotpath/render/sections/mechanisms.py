"""Which change pays: each row's change from old to optimized split among the patch's mechanisms,
each measured as a variant of its own (hotpath.analyze.mechanisms), or from a baseline to a patch
series' last step split among its steps (hotpath.analyze.series): a table of the parts with
their intervals, the Result's row as a waterfall, and one line the paste keeps; where no run
measured them, nothing (a run that left them out says so where it says what it left out). Its
words are the data's: what the parts are (Words) and the levels they lead between."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from .. import waterfall
from ..paste import CORE, DETAIL
from ...analyze.mechanisms import MECHANISMS, OLD, OPTIMIZED, STEPS, Found, RowParts
from ...analyze.report import Analysis
from ...numbertext import MINUS, three_figures
from ...jmh import MethodName
from ...stats.decompose import Decomposition, Part
from . import Section, relative


@dataclass(frozen=True)
class Words:
    """What the section calls a split's parts, by what the data says they are (Found.kind)."""

    heading: str
    #: the note's first sentences: how a part was measured
    method: str
    #: the table's column of each part, and the word after a part's name in the paste's line
    part: str
    #: the waterfall's caption after its two levels
    bars: str
    #: what one part's build is: a variant of the code, or a step of the patch
    build: str


WORDS = {
    MECHANISMS: Words(
        "Which change pays: the patch's mechanisms, each measured alone",
        "Each mechanism applied alone to old, and taken back alone from optimized where the run has "
        "that variant; a *share* is Shapley's (the mechanism's change averaged over every order of "
        "applying them: the parts add up to the whole, and the share is of the whole's point) where "
        "every combination was measured. *Interaction* is what the parts alone do not add up to.",
        "alone", "a step per mechanism alone and the interaction", "variant"),
    STEPS: Words(
        "Which change pays: the steps of the patch, each measured against the one before",
        "Each step of the patch series is the patch up to one more commit, measured against the "
        "baseline in a run of two builds of its own; a step's part is its run's change less the step "
        "before's (the first step's: its run's change), its interval over both runs' forks (their "
        "variances add). A *share* is the step's part of the whole change (the last step's run). The "
        "steps add up to the whole by construction: there is no interaction to state.",
        "against the step before", "a bar per step of the patch, each against the one before", "step"),
}
#: The heading of a case's section (its mechanisms).
HEADING = WORDS[MECHANISMS].heading


def which_change_pays(analysis: Analysis) -> list[Section]:
    """The parts of each row's change (a case's mechanisms, or a patch series' steps), or
    nothing where no run measured them (a case's report says how, where it says what it left out)."""
    found = analysis.mechanisms
    if analysis.comparison is None or not found.rows:
        return []
    words = WORDS[found.kind]
    rows = ordered(found.rows, analysis.case.headline[1] if analysis.case is not None else None)
    main = rows[0]
    lines = [line for k, row in enumerate(rows) for line in _lines(row, k == 0, found.kind)]
    table = pd.DataFrame(lines).drop(columns=["main"])
    plan = [(CORE if line["main"] else DETAIL, k) for k, line in enumerate(lines)]
    note = (f"{words.method} Time as a speed-up ({found.levels[0]}'s time over the {words.build}'s, "
            "on each fork's figure as the verdicts take it), with its 95% interval over forks; a part "
            "whose interval holds 1× is not told from nothing. Heap B/op from -prof gc. "
            + _source(analysis, found))
    levels = " to ".join(found.levels)
    shown = [Section(text=summary(main, found.kind, found.levels), priority=CORE, name="which change pays"),
             Section(words.heading, table, note=note, rows=plan)]
    if main.time is None and main.bytes is None:  # nothing split: a chart would be empty axes
        return shown
    return [*shown,
            Section(figure=("which-change-pays",
                            waterfall.waterfall_chart(main, levels=found.levels, interaction=found.kind == MECHANISMS),
                            f"Which change pays, {_label(main)}: {levels} in time per op and heap "
                            f"B/op, {words.bars}, each with its 95% interval (green: pays, red: costs, "
                            "blue: not told from nothing)"))]


def ordered(rows: tuple[RowParts, ...], headline: str | None) -> list[RowParts]:
    """The rows split, the headline's params first (the row the summary and the chart are of); a
    row its run could not split goes last."""
    return sorted(rows, key=lambda r: (r.time is None, headline is not None and r.params != headline))


def _source(analysis: Analysis, found: Found) -> str:
    """Whose forks the parts come from."""
    if found.kind == STEPS:
        return (f"From the patch series {relative(found.source) if found.source else ''}: each step's "
                f"run against {found.levels[0]}, this report's the last ({found.levels[1]}).")
    if found.source is not None and analysis.run is not None and found.source == analysis.run.source:
        return "From this report's run."
    return (f"From {relative(found.source) if found.source else 'a run'}, a run of its own "
            "(make mechanisms), not this report's forks.")


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


def summary(row: RowParts, kind: str = MECHANISMS, levels: tuple[str, str] = (OLD, OPTIMIZED)) -> str:
    """The one line a paste keeps: the whole speed-up and each part (a mechanism's alone; a
    step's against the one before, and the step that moves the row most)."""
    if row.time is None:
        return f"**Which change pays, {_label(row)}:** not split ({row.why})."
    t = row.time
    word = f" {WORDS[kind].part}" if kind == MECHANISMS else ""
    parts = ", ".join(f"{m}{word} {ratio_text(t.alone[m])}" + ("" if t.alone[m].told_from_zero
                                                               else " (not told from nothing)")
                      for m in t.mechanisms)
    heap = ""
    if row.bytes is not None:
        heap = "; heap B/op: " + ", ".join(f"{m} {_whole(round(row.bytes.alone[m].estimate))}"
                                          for m in row.bytes.mechanisms)
    if kind == STEPS:
        return (f"**Which change pays, {_label(row)}:** of the {ratio_text(t.total)} speed-up from "
                f"{levels[0]} to {levels[1]}, {parts}; the steps add up to it by construction; "
                f"{_most(t)}{heap}.")
    return (f"**Which change pays, {_label(row)}:** of the {ratio_text(t.total)} speed-up, {parts}; "
            f"what they do not add up to {ratio_text(t.interaction)}{heap}.")


def _most(t: Decomposition) -> str:
    """The step whose part moves the row most, among those told from nothing."""
    told = [m for m in t.mechanisms if t.alone[m].told_from_zero]
    if not told:
        return "no step is told from nothing"
    return f"the step that moves it most: {max(told, key=lambda m: abs(t.alone[m].estimate))}"


def _lines(row: RowParts, main: bool, kind: str = MECHANISMS) -> list[dict]:
    """A row's table lines: one per part, the interaction where it is an estimate (a series' is 0
    by construction) and the whole change (``main``: the Result's row, which the paste keeps)."""
    t, b = row.time, row.bytes
    label, part = _label(row), WORDS[kind].part
    mechanisms = kind == MECHANISMS
    if t is None:
        return [{"row": label, "part": "(not split)", part: row.why, **({"taken back": ""} if mechanisms else {}),
                 "share": "", f"heap B/op {part}": "", "main": main}]

    def line(name: str, value: str, taken_back: str, share: str, heap: Part | None) -> dict:
        return {"row": label, "part": name, part: value, **({"taken back": taken_back} if mechanisms else {}),
                "share": share, f"heap B/op {part}": bytes_text(heap), "main": main}

    out = [line(m, ratio_text(t.alone[m]), ratio_text(t.taken_back[m]) if m in t.taken_back else "—",
                _share(t, m, t.shapley if mechanisms else t.alone), b.alone[m] if b else None)
           for m in t.mechanisms]
    if mechanisms:
        out.append(line("interaction", ratio_text(t.interaction), "", "", b.interaction if b else None))
    out.append(line("the whole patch", ratio_text(t.total), "", "100%", b.total if b else None))
    return out


def _share(t: Decomposition, m: str, parts: dict[str, Part] | None) -> str:
    """A part that adds up to the whole (Shapley's, or a series' step's): its share of the whole
    change in log time, and the part as a speed-up with its interval."""
    if parts is None or t.total.estimate == 0:
        return "—"
    part = parts[m]
    share = f"{part.estimate / t.total.estimate:.0%}"
    return ("0%" if share == "-0%" else share.replace("-", MINUS)) + f": {ratio_text(part)}"
