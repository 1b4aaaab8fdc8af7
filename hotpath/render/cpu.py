"""'Where the time went': a report's rows by frame, old against new, from the timed forks' CPU
samples (hotpath.analyze.cpu), and each row's two differential CPU flame graphs, per operation.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from . import flamegraphs, fmt
from .sites import named_row, row_name, slug
from ..analyze import cpu as C
from ..analyze import claims
from ..paths import JAR

#: Frames shown per row: the decided ones, the biggest change first, then the biggest undecided.
SHOWN_DECIDED = 6
SHOWN_UNDECIDED = 2
#: The flame graphs' kind: their anchors in a report, their folder in the lab's.
FOLDER = "cpu"
#: A flame graph's weights: picoseconds per operation (integers, as collapsed stacks need).
PER_OP_UNIT = 1e-3
COLUMNS = ["row", "frame", "old", "new", "Δ ns/op (95% CI)", "share of the change", "flame graphs"]


def ns(value: float) -> str:
    """A time per op in ns, three significant digits: '1,234 ns', '21.3 ns', '0.412 ns'."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{fmt.fmt_number(value)} ns"


def change(d) -> str:
    """'−90.1 (−97.3 to −82.9)': a change and its interval, in ns/op."""
    if not math.isfinite(d.low):
        return fmt.fmt_number(d.delta)
    return f"{fmt.fmt_number(d.delta)} ({fmt.fmt_number(d.low)} to {fmt.fmt_number(d.high)})"


def share(value: float, low: float, high: float) -> str:
    """'81% (70–93%)'; '—' without a bounded interval (the row's change is not told from 0,
    and a share of it says nothing)."""
    if not (math.isfinite(value) and math.isfinite(low) and math.isfinite(high)):
        return "—"
    return claims.share_text(value, low, high)


def _frame_line(f: C.Frame) -> tuple:
    return (f.name + ("" if f.decided else " (undecided)"), ns(f.change.old), ns(f.change.new),
            change(f.change), share(f.share.share, f.share.low, f.share.high))


def _summed(frames: list[C.Frame]) -> tuple:
    """The frames not shown, as one line: their times summed."""
    old, new = (float(np.sum(np.array(v, dtype=float))) for v in
                zip(*((f.change.old, f.change.new) for f in frames)))
    return (f"{len(frames)} more frame(s)", ns(old), ns(new), fmt.fmt_number(new - old), "")


def _lines(r: C.SampledRow, a: C.Attribution) -> list[tuple]:
    """A row's lines: the decided frames (the biggest change first), the biggest undecided, the
    rest summed; then the collector's and the compiler's CPU per op and the row's time."""
    decided = [f for f in r.frames if f.decided]
    rest = [f for f in r.frames if not f.decided and f.samples >= C.MIN_SAMPLES]
    shown = decided[:SHOWN_DECIDED] + rest[:SHOWN_UNDECIDED]
    lines = [_frame_line(f) for f in shown]
    others = [f for f in r.frames if not any(f is g for g in shown)]
    if others:
        lines.append(_summed(others))
    lines.append(("the collector's threads (CPU per op, beside the row's time)",
                  ns(a.gc.old), ns(a.gc.new), change(a.gc), ""))
    lines.append(("the compiler's threads (CPU per op in the sampled iterations)",
                  ns(a.jit.old), ns(a.jit.new), change(a.jit), ""))
    lines.append((time_line(r.pair, a, r.own_forks), ns(a.time.old), ns(a.time.new), change(a.time), "100%"))
    return lines


def table(rows: tuple[C.SampledRow, ...], links: dict[str, tuple[str, str]] | None = None) -> pd.DataFrame:
    """One line per frame of each sampled row, by self time: the decided frames (the biggest
    change first), the biggest undecided, the rest summed; then the collector's and the
    compiler's CPU per op, apart, and the row's time, which the frames' times add up to."""
    out = []
    for r in rows:
        name = row_name(r.pair)
        if r.attribution is None:
            out.append({"row": name, "frame": f"not attributed: {r.why_not}",
                        **{c: "" for c in COLUMNS[2:]}, "old": "", "new": ""})
            continue
        graphs = (links or {}).get(slug(r.pair))
        for i, line in enumerate(_lines(r, r.attribution)):
            out.append({"row": name if i == 0 else "", **dict(zip(COLUMNS[1:6], line)),
                        "flame graphs": (f"[dropped]({graphs[0]}) · [added]({graphs[1]})"
                                         if i == 0 and graphs else "")})
    return pd.DataFrame(out, columns=COLUMNS)


def time_line(p: pd.Series, a: C.Attribution, own_forks: bool = False) -> str:
    """The row's time line: what it sums, the forks set aside, and where it parts from the
    verdict's figure, why (``own_forks``: sampled in forks of their own, not the verdict's)."""
    text = "the row's time (all frames' self times"
    aside = [(side, len(k), n) for side, k, n in
             zip((p["baseline"], p["candidate"]), a.set_aside,
                 (a.old.forks + len(a.set_aside[0]), a.new.forks + len(a.set_aside[1]))) if k]
    if aside:
        text += (f"; set aside, their tail more than {math.expm1(a.tail_tolerance):.0%} from their "
                 "counted time: " + ", ".join(f"{k} of {side}'s {n} forks" for side, k, n in aside))
    old, new = C.verdict_ns(p)
    if all(math.isfinite(x) and x > 0 for x in (old, new)):
        if own_forks:
            text += f"; sampled in forks of their own: the verdict's {ns(old)} → {ns(new)} are other forks'"
        elif a.parts_from(old, new):
            estimate = str(p.get("estimate") or "each fork's mean over its counted iterations")
            text += (f"; the verdict's {ns(old)} → {ns(new)} is the geometric mean of {estimate}, "
                     "this the mean of their counted iterations"
                     + (" less those set aside" if aside else ""))
    return text + ")"


def collapsed(s: C.Side) -> str:
    """A side's benchmark-thread stacks as collapsed text, each weighed by its mean time per op
    over the forks (ps/op: its share of each fork's samples times the fork's time), so that two
    sides of different lengths and speeds compare per operation."""
    if s.stacks.empty:
        return ""
    per_op = (s.stacks * (s.time_ns / s.samples)).mean(axis=1) / PER_OP_UNIT
    return "".join(f"{stack} {int(round(w))}\n" for stack, w in sorted(per_op.items()) if round(w) > 0)


def graphs(rows: tuple[C.SampledRow, ...]) -> list[flamegraphs.Row]:
    """Each attributed row's two differential CPU flame graphs to draw, weighed per operation:
    'dropped' in old's shape, 'added' in new's."""
    out = []
    for p, a in ((r.pair, r.attribution) for r in rows if r.attribution is not None):
        row = fmt.label(p)
        out.append(flamegraphs.Row(
            slug(p), collapsed(a.old), collapsed(a.new),
            f"{row}: CPU time {p['baseline']} spends that {p['candidate']} no longer does "
            f"(ps per op, {p['baseline']}'s shape)",
            f"{row}: CPU time {p['candidate']} spends beyond {p['baseline']} "
            f"(ps per op, {p['candidate']}'s shape)"))
    return out


def draw(rows: tuple[C.SampledRow, ...], jar: Path = JAR, java: str = "java") -> tuple[flamegraphs.Pages, str]:
    """Both differential CPU flame graphs of every attributed row, as pages by row; where none
    could be drawn, why in one line."""
    return flamegraphs.draw(graphs(rows), jar, java)


def note(rows: tuple[C.SampledRow, ...], profiles: C.Profiles, graphs: bool) -> str:
    """How the table was made and how far the samples account for each row's time."""
    found = [r.attribution for r in rows if r.attribution is not None]
    if not found:
        return ""
    sides = [s for a in found for s in (a.old, a.new)]
    covered = sum(1 for s in sides if not C.coverage_note(s))
    coverage = np.concatenate([s.coverage for s in sides])
    text = (f"{(profiles.recorded or 'CPU samples').rstrip('.')}. "
            "A frame's time per op in a fork is its share of the benchmark thread's samples times "
            "the fork's time per op; forks are the replicates: the change is Welch's 95% interval "
            "of new − old, a frame is *decided* where the Benjamini–Hochberg procedure keeps it at "
            f"a {C.FDR:.0%} false discovery rate across the row's frames, and its share of the "
            "row's change has Fieller's interval (below 0, the frame's time rose while the row's fell; "
            "above 100%, it fell by more than the row's, other frames rising by the rest). "
            "Self time: the frames' times add up to the row's. "
            "The collector's and the compiler's threads are apart, as CPU per op. "
            "What the frames cannot place is the time the benchmark's thread was off the CPU: "
            + ("by its own CPU clock" if all(s.clocked for s in sides)
               else "by its CPU clock, or its samples where the clock was not read,")
            + f" it was on the CPU for the row's time within {C.COVERAGE_TOLERANCE:.0%} on {covered} "
            f"of {len(sides)} row-sides (a median {np.median(coverage):.0%} of the time per op)")
    short = {C.coverage_note(s) for s in sides} - {""}
    if short:
        text += "; on the others " + "; ".join(sorted(short))
    text += "."
    kept = sum(a.old.forks + a.new.forks for a in found)
    aside = sum(len(k) for a in found for k in a.set_aside)
    if any("tail" in e for e in profiles.sides["entry"]):
        text += (f" A fork whose tail ran further from its counted time per op than {C.TAIL_SPREADS:g} "
                 f"of its row's fork spreads, and than {C.TAIL_FLOOR:.0%}, is set aside (its samples "
                 f"were taken on a machine running otherwise than when its figure was counted): "
                 f"{aside} of {kept + aside} forks here.")
    single = sum(1 for a in found if min(a.old.forks, a.new.forks) < 2)
    if single:
        text += (f" {single} row(s) had one fork a side (the plan closed them at their first look): "
                 "their frames' changes come without an interval and none is decided.")
    if graphs:
        text += (" Flame graphs per row, inside the full report (a click opens one, offline), weighed "
                 "per operation (each stack's share of a fork's samples times the fork's time per op, "
                 "averaged over the forks): *dropped* in old's shape, *added* in the new side's.")
    return text


def explore(results: str | Path, row: str, old: str = "old", new: str = "optimized",
            out_dir: str | Path | None = None, graphs: bool = True, how: str = "self") -> pd.DataFrame:
    """One row's frames for any two variants, in the lab: ``row`` as the reports name it
    (``encode(payload=STR_1K)``, or the method alone for a row without params); ``how``: self
    or total time. Returns the table (ns/op, the change's 95% interval, whether it is decided,
    the share of the row's change); in a notebook, shows both differential CPU flame graphs
    below it, inline and offline."""
    from ..errors import HotpathError
    from ..paths import REPORTS

    if how not in ("self", "total"):
        raise HotpathError(f"how={how!r}: self or total")
    found = C.read(results)
    if not found.measured:
        raise HotpathError(f"{results}: no CPU samples beside it: a run whose timed forks took "
                           "them (`make report`) writes them")
    benchmark, method, params = named_row(found.sides, row, results, (old, new), "sampled")
    a = C.attribute(found, benchmark, params, old, new)
    f = a.frames[a.frames["how"] == how]
    table = pd.DataFrame({"frame": f["frame"], f"{old} ns/op": f["old_ns"].round(3),
                          f"{new} ns/op": f["new_ns"].round(3), "Δ ns/op": f["delta_ns"].round(3),
                          "95% CI": [f"{lo:.3g} to {hi:.3g}" for lo, hi in zip(f["low_ns"], f["high_ns"])],
                          "decided": f["decided"],
                          "share": [share(s, lo, hi) for s, lo, hi in
                                    zip(f["share"], f["share_low"], f["share_high"])],
                          "samples": f["samples"]}).reset_index(drop=True)
    if graphs:
        pair = pd.Series({"benchmark": benchmark, "method": method, "params": params,
                          "baseline": old, "candidate": new})
        folder = Path(out_dir) if out_dir else REPORTS / "lab"
        pages, why = draw((C.SampledRow(pair, a, C.frames_of(a)),))
        written = flamegraphs.written(folder, FOLDER, pages)
        flamegraphs.show(pages, why, {k: (str(folder / a), str(folder / b)) for k, (a, b) in written.items()})
    return table
