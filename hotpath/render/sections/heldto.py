"""The frames held to the intervention: each time-mechanism claim's frames, whose share of a row's
saving the CPU samples give, set beside the share its mechanisms measured alone pay of that
saving (hotpath.analyze.mechanisms.frames_held), on the rows of the run that measured the
mechanisms; whether the two agree, and where not, the frames that moved without the mechanisms."""

from __future__ import annotations

import math

import pandas as pd

from ...analyze.mechanisms import FramesHeld
from ...analyze.report import Analysis
from ...jmh import MethodName
from ...stats.shares import Share
from . import Section, relative

HEADING = "The frames held to the intervention: a claim's frames against its mechanisms alone"

NOTE = ("*Frames*: the share of the row's saving (old to optimized, ns per op) that the claim's "
        "frames explain by the CPU samples, with Fieller's 95% interval over forks. *Intervention*: "
        "the share of that saving the claim's mechanisms pay, measured as code of their own (Shapley's "
        "part where every combination was measured, else each applied alone to old), with Fieller's "
        "95% interval. They *agree* where the intervals overlap; a share without a bounded interval "
        "tells nothing either way. Both from the same run's forks: ")


def frames_held(analysis: Analysis) -> Section | None:
    """The table, for a case's report whose mechanisms were measured and whose claims name them."""
    held = analysis.frames_held
    if not held:
        return None
    lines = [{"claim": h.what, "mechanisms": " + ".join(h.mechanisms),
              "row": f"{MethodName.of(h.benchmark).short}({h.params})" if h.benchmark else h.params,
              "frames": share_text(h.frames), "intervention": share_text(h.intervention),
              "agree": agreement(h)} for h in held]
    source = analysis.mechanisms.source
    own = analysis.run is not None and source == analysis.run.source
    return Section(HEADING, pd.DataFrame(lines),
                   note=NOTE + ("this report's run." if own or source is None else f"{relative(source)}."))


def share_text(s: Share | None) -> str:
    if s is None or not math.isfinite(s.share):
        return "—"
    interval = f" ({s.low:.0%} to {s.high:.0%})" if math.isfinite(s.low) else " (unbounded)"
    return f"{s.share:.0%}{interval}".replace("-", "\u2212")


def agreement(h: FramesHeld) -> str:
    """Whether a claim's frames agree with its mechanisms alone, in words; what moved where not."""
    if h.why:
        return f"not held: {h.why}"
    if h.agree is None:
        return "not told: a share's interval is unbounded"
    if h.agree:
        return "agree"
    moved = (f"; moved without {' or '.join(h.mechanisms)} alone: {', '.join(h.moved)}" if h.moved
             else "; every frame of the claim that moved also moved with its mechanisms alone")
    return "disagree" + moved
