"""How a report's verdicts were reached and what its figures are: the note under its tables of
verdicts (Document.verdict_note)."""

from __future__ import annotations

import math

from .. import fmt, units
from ... import machine
from ...analyze import compare
from ...analyze.load import Run
from ...stats.sequential import THRESHOLD


def note(comparison: compare.Comparison, run: Run, estimate_note: str) -> str:
    """How a report's verdicts were reached (the sequential plan's or a fixed sample's test, by
    ``estimate_note``'s figures), the geometric means, which pass each column came from, and
    what to be wary of: a busy machine, rows with warnings, rows left unpaired."""
    s = compare.summary(comparison)
    pairs = comparison.pairs
    seq = (run.provenance or {}).get("sequential")
    # a profile that closes rows its cap will not decide (quick) says so where it did
    beyond = (", beyond their cap (their ratio and fork CV asking for more forks than it)"
              if any(r.get("stopped") == "out of reach" for r in (seq or {}).get("rows", []))
              else "")
    lines = [
        (f"Time verdicts use one figure per fork (the fork is the unit of replication). "
         f"{estimate_note}The ratio new/old is of their geometric means; its 95% CI is a repeated confidence "
         f"interval of the sequential fork plan ({seq['describe']}): rows took forks until "
         f"decided, capped{beyond} or out of budget. *faster*/*slower* needs the CI beyond "
         f"±{THRESHOLD:.0%}, *same* the CI inside ±{THRESHOLD:.0%}, anything else is "
         f"*undecided*. B/op changes count when they exceed the run's own spread and 8 B."
         if seq and seq.get("describe") else
         f"Time verdicts use one figure per fork (the fork is the unit of replication). "
         f"{estimate_note}A Mann-Whitney U test and a 95% CI of the ratio new/old (of "
         f"the geometric means of the fork figures; Welch t-interval on their logs); *faster*/*slower* "
         f"needs p < 0.05 and the CI beyond ±{THRESHOLD:.0%}, *same* needs the CI inside "
         f"±{THRESHOLD:.0%}, anything else is *undecided*. B/op changes count when they "
         f"exceed the run's own spread and 8 B."),
    ]
    if not math.isnan(s["time_geomean"]):
        heap = (f"**{s['alloc_geomean']:.3f}** (pairs falling to 0 B/op left out)"
                if not math.isnan(s["alloc_geomean"]) else
                "none (no row allocates enough on the heap for a ratio)")
        lines.append(f"Geometric mean of time-per-op ratios (new/old): "
                     f"**{s['time_geomean']:.3f}**; of heap B/op ratios: {heap}.")
    lines.append(passes_note(run) + " Times are in the unit each column names "
                 f"(ns, µs, ms or s per op; ops/s with SI prefixes); bytes in B, KB or MB "
                 f"({units.KIB_NOTE}).")
    load = (run.provenance or {}).get("machine_load")
    if load and load.get("others_cores", 0) > machine.QUIET_CORES:
        lines.append(f"**Warning: a busy machine.** {machine.describe(load)}.")
    warnings = fmt.warnings_by_row(pairs)
    if warnings:
        lines.append("Warnings: " + "; ".join(warnings) + ".")
    if not comparison.unpaired.empty:
        lines.append("Not paired: " + "; ".join(
            f"{u.benchmark}({u.params}) {u.variant}: {u.reason}"
            for u in comparison.unpaired.itertuples()) + ".")
    return "\n\n".join(lines)

def passes_note(run: Run) -> str:
    """Which pass each column came from: nothing that hooks allocations sits in a timed fork."""
    p = run.provenance or {}
    native = run.frame["metric"].str.startswith("native.alloc").any()
    parts = ["Time", "heap B/op (`-prof gc`)", "GC figures"]
    if (run.frame["metric"] == "faults.norm").any():
        parts.append("page faults per op (`PageFaultProfiler`, counters read between iterations)")
    text = ", ".join(parts[:-1]) + " and " + parts[-1] + " come from the timed forks"
    if not native:
        return text + "."
    if p.get("memory_command") or any(str(s).endswith(".memory.json")
                                      for s in run.frame["source"].unique()):
        return text + ("; native B/op from the memory pass: forks of their own with "
                       "`NativeAllocProfiler`, whose malloc hook would slow the timed forks.")
    return text + ("; native B/op from the same forks (a run from before the memory pass was "
                   "split off: its times carry the native profiler's malloc hook).")
