"""A run held against the reference (hotpath.analyze.against) as plain text for the terminal:
one line per row in both, the rows of one side only, and the count of contradicting rows."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pandas as pd

from ..analyze.against import Held
from ..jmh import MethodName
from ..paths import ROOT
from .tables import FAULTS_SHOWN


def row_name(r: pd.Series) -> str:
    """'WriterCompressedMap.compressedMapFields(entries=30)': the class too, since two of a
    case's classes may share a method and params."""
    name = MethodName.of(r["benchmark"])
    return f"{name.stem}.{name.method}" + (f"({r['params']})" if r["params"] else "")


def interval(ratio: float, low: float, high: float) -> str:
    """'0.506 (0.452–0.566)', as the reports print time per op new/old and its 95% CI."""
    if math.isnan(ratio):
        return "—"
    if math.isnan(low) or math.isnan(high):
        return f"{ratio:.3f} (no interval)"
    return f"{ratio:.3f} ({low:.3f}–{high:.3f})"


def _side(r: pd.Series, side: str) -> tuple[str, str]:
    verdict = r[f"{side}_verdict"]
    return (interval(r[f"{side}_ratio"], r[f"{side}_low"], r[f"{side}_high"]),
            f"{verdict}, {r[f'{side}_forks']} fork"
            f"{'' if r[f'{side}_forks'] == 1 else 's'}")


def count_line(held: Held) -> str:
    """'4 of 17 rows contradict the reference': of the rows in both with an interval on each side."""
    n, m = held.contradicting, held.compared
    return f"{n} of {m} row{'s' if m != 1 else ''} contradict{'s' if m == 1 else ''} the reference"


def _needs(r: pd.Series) -> str:
    """'4 of 8', '14 > 8': forks per side the reference's ratio and fork CV need, against the
    run's cap."""
    needs, cap = r["reference_needs"], r["run_cap"]
    if math.isnan(needs):
        return "—"
    return f"{needs:.0f} of {cap:.0f}" if needs <= cap else f"{needs:.0f} > {cap:.0f}"


def reach_line(held: Held) -> str:
    """How many rows the reference's own forks would decide within the run's caps."""
    n, m = held.within_reach, held.reachable_known
    return (f"within reach: {n} of {m} rows. At the reference's own ratio and fork CV, {n} "
            f"row{'s' if n != 1 else ''} would be decided within the run's cap of forks per "
            f"side; the others need more forks of that precision than the cap allows (an "
            f"estimate: hotpath.stats.sequential.forks_to_decide). A run whose forks are no "
            f"more precise than the reference's decides about that many at most, unless its "
            f"ratios differ from the reference's.")


def machine_line(held: Held) -> str:
    """'the machine: old took 1.33x the reference's time per op (median of 18 rows, 0.68x-1.96x);
    median fork CV 6.7% against 2.3%': the same code on both, so the difference is the machine."""
    m = held.machine()
    if m is None:
        return ""
    line = (f"the machine: old took {m.slower:.2f}x the reference's time per op (median of "
            f"{m.rows} row{'s' if m.rows != 1 else ''}, {m.least:.2f}x-{m.most:.2f}x)")
    if math.isfinite(m.run_fork_cv) and math.isfinite(m.reference_fork_cv):
        line += (f"; median fork CV {m.run_fork_cv:.1%} against the reference's "
                 f"{m.reference_fork_cv:.1%}")
    if held.other_kind():
        line += (f"; the run's CPU is {', '.join(held.cpus['run'])}, the reference's "
                 f"{', '.join(held.cpus['reference'])}: another kind of machine, for which the "
                 f"{held.widen - 1:.0%} allowed between machines of one kind was not measured")
    if m.slower > held.widen or m.slower < 1 / held.widen:
        line += (f". Old's code is the same on both: this machine, on this day, runs it "
                 f"{'slower' if m.slower > 1 else 'faster'} than the reference's by more than "
                 f"the {held.widen - 1:.0%} the rule allows for between machines")
    return line + "."


def moved_lines(held: Held) -> list[str]:
    """Per contradicting row, how far each side's time moved from the reference's, against the
    machine's median: which path the machine treats differently."""
    m = held.machine()
    out = []
    for _, r in held.sides_moved().iterrows():
        if not (math.isfinite(r["old_moved"]) and math.isfinite(r["new_moved"])):
            continue
        out.append(f"{r['case']} {row_name(r)} {r['candidate']}: old ran at {r['old_moved']:.2f}x "
                   f"the reference's time, {r['candidate']} at {r['new_moved']:.2f}x"
                   + (f" (the machine's median {m.slower:.2f}x)" if m else "") + _faults(r)
                   + _frames(held, r))
    if out:
        out.insert(0, "the contradicting rows' sides, each against its own time in the reference "
                      "(where one side moved far from the machine's median and the other did not, "
                      "this machine treats the two paths differently):")
    return out


def _shares(frames: list[tuple[str, float]]) -> str:
    return ", ".join(f"{share:.0%} {name}" for name, share in frames)


def _frames(held: Held, r: pd.Series) -> str:
    """Where each side spent its time here and in the reference, by the frames that took most
    of the benchmark thread's samples; empty where neither side was sampled in both."""
    parts = []
    for variant in (r["baseline"], r["candidate"]):
        here, there = held.frames(r, variant)
        if here and there:
            parts.append(f"{variant}: {_shares(here)} here against {_shares(there)} there")
        elif here:
            parts.append(f"{variant}: {_shares(here)} here (the reference took no CPU samples)")
    return ("; its time by frame (self, share of the benchmark thread's samples): "
            + "; ".join(parts)) if parts else ""


def _faults(r: pd.Series) -> str:
    """Where a side of the run faults once a call or more: the counts, and the reference's where
    it counted them. A path that first-touches memory costs what a page fault costs on the day's
    host, which moves it apart from a path that does not."""
    run = (r["run_old_faults"], r["run_new_faults"])
    if not any(math.isfinite(f) and f >= FAULTS_SHOWN for f in run):
        return ""
    counted = [f for f in (r["reference_old_faults"], r["reference_new_faults"]) if math.isfinite(f)]
    reference = (f"{r['reference_old_faults']:.1f} and {r['reference_new_faults']:.1f}" if counted
                 else "none counted")
    return (f"; old faulted {run[0]:.1f} times a call here and {r['candidate']} {run[1]:.1f} "
            f"(the reference: {reference}), and what a page fault costs is the host's")


def _columns(header: list[str], lines: list[list[str]]) -> list[str]:
    widths = [max(len(x) for x in column) for column in zip(header, *lines)]
    return ["  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip()
            for line in [header, *lines]]


def _only(rows: pd.DataFrame, where: str) -> list[str]:
    if rows.empty:
        return [f"only in the {where}: none"]
    out = [f"only in the {where}, not compared ({len(rows)} row{'s' if len(rows) != 1 else ''}):"]
    for (case, candidate), group in rows.groupby(["case", "candidate"], sort=False):
        names = ", ".join(row_name(r) for _, r in group.iterrows())
        out += textwrap.wrap(f"{case} [{candidate}] ({len(group)}): {names}", width=100,
                             initial_indent="  ", subsequent_indent="      ", break_on_hyphens=False)
    return out


def text(held: Held, run: str, reference: str) -> str:
    """The whole report: what is held against what and by which rule, the rows, the rows of one
    side only, and the count line last."""
    pct = f"{held.widen - 1:.0%}"
    out = textwrap.wrap(f"{run} against the reference {reference}: time per op new/old (95% CI) "
                        f"of each row in both; a row contradicts the reference when the two "
                        f"intervals, each widened by {pct} (low/{held.widen:g}, "
                        f"high×{held.widen:g}), do not overlap.", width=100, break_on_hyphens=False)
    rows = held.rows
    if rows.empty:
        out.append("no row is in both")
    else:
        modes = rows["mode"].nunique() > 1
        header = ["case", "row", "variant", *(["mode"] if modes else []), "run", "verdict",
                  "reference", "verdict", "reference's forks need", "contradicts"]
        lines = []
        for _, r in rows.iterrows():
            contradicts = ("yes" if r["contradicts"] else "no") if r["compared"] else "no interval"
            lines.append([r["case"], row_name(r), r["candidate"], *([r["mode"]] if modes else []),
                          *_side(r, "run"), *_side(r, "reference"), _needs(r), contradicts])
        out += [""] + _columns(header, lines)
        if held.reachable_known:
            out += [""] + textwrap.wrap(reach_line(held), width=100, break_on_hyphens=False)
        machine = machine_line(held)
        if machine:
            out += [""] + textwrap.wrap(machine, width=100, break_on_hyphens=False)
        moved = moved_lines(held)
        if moved:
            out += [""] + textwrap.wrap(moved[0], width=100, break_on_hyphens=False) + [
                line for m in moved[1:] for line in textwrap.wrap(
                    m, width=100, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)]
        runtimes = rows.loc[rows["run_runtime"] != rows["reference_runtime"],
                            ["run_runtime", "reference_runtime"]].drop_duplicates()
        for _, r in runtimes.iterrows():
            out.append(f"note: rows of the run ran on {r['run_runtime']}, the reference's on "
                       f"{r['reference_runtime']}: more than the machine differs between them")
        uncompared = len(rows) - held.compared
        if uncompared:
            out.append(f"{uncompared} row{'s' if uncompared != 1 else ''} in both without an "
                       f"interval on a side (fewer forks than a first look): not compared")
    out += [""] + _only(held.only_run, "run") + _only(held.only_reference, "reference")
    out += ["", count_line(held) + f" (intervals widened by {pct})"]
    return "\n".join(out) + "\n"


def folder_of(folder: Path) -> str:
    """A folder as the text names it: relative to the project where it lies inside it, 'data/reference/'."""
    try:
        text = str(folder.resolve().relative_to(ROOT.resolve()))
    except ValueError:
        text = str(folder)
    return text.rstrip("/") + "/"
