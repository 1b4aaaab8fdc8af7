"""What the run was: its forks' steady states, the shards that measured it, the allocation flame
graphs made for it and its environment (the raw file, the command, the commit, the machine)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from .. import flamegraphs, forks, versions
from ..paste import EXTRA, LEAD
from ... import machine
from ...analyze import compare, hostspeed
from ...analyze.load import Run
from ...jmh import MethodName
from ...records import SLOW_PROBE
from . import Section

#: The environment's rows a paste keeps: what identifies the run; the rest is in report.html.
KEY_ENVIRONMENT = ("results file", "profile", "git commit", "date", "CPU", "JDK", "rendered with")


def steady_state(pairs: pd.DataFrame, frame: pd.DataFrame) -> Section | None:
    """Where the forks were recorded from their start: each row's fork classes, time to steady
    state and fork lengths, and the series of the rows that took long to settle."""
    if forks.recorded(pairs).empty:
        return None
    timed = frame[frame["metric"] == "score"]["measurement_time_s"]
    iteration_s = float(timed.min()) if len(timed) else 0.1
    unsettled = int((pairs["unsettled_old"] + pairs["unsettled_new"]).sum())
    traces = hostspeed.traces(frame)
    return Section(
        "Steady state: what each row's forks did", forks.table(pairs, iteration_s, traces), priority=EXTRA,
        note=f"Every fork was recorded from its start in {iteration_s * 1000:g} ms "
             f"iterations; its steady state was found by changepoint analysis (PELT) "
             f"and its figures (time, heap B/op, GC) are its steady segment's. A row's "
             f"first fork per side is a scout (or, where the 2026-11-26 A/A run saw "
             f"the row slow down later than a scout could, the longest fork); the "
             f"plan chose the later forks' length "
             f"from what the row's forks showed. "
             + (f"{unsettled} fork(s) never settled: each counts by its second half, "
                f"and its row's verdict says so." if unsettled else
                "Every fork settled.")
             + (f" The host's speed is the host-speed probe's (a fixed, cache-resident "
                f"piece of work timed before and after each iteration) against its "
                f"full speed over the run, its 10th percentile (its fastest can be a burst "
                f"the host did not hold); \"full speed\" where it stayed within "
                f"{SLOW_PROBE:g}× of that: a trace of the host beside the code, not a "
                f"measure of it (on a contended host the probe ran slow where the code did "
                f"not, and the code's own slowdowns, page faults and GC, leave it fast)."
                if traces else ""),
        figure=(("fork-series", forks.series_chart(pairs, iteration_s), forks.CAPTION)
                if not forks.charted(pairs).empty else None))


def shards(run: Run) -> Section | None:
    """A run cut into shards: which machine measured which rows."""
    p = run.provenance or {}
    if not p.get("shards"):
        return None
    rows = [{"row": MethodName.of(str(r.get("benchmark", ""))).short
                    + (f"({r['params']})" if r.get("params") else ""),
             "variant": r.get("candidate", ""), "shard": r.get("shard", ""),
             "machine": r.get("machine", "")}
            for r in (p.get("sequential") or {}).get("rows", [])]
    if not rows:
        rows = [{"row": "every row", "variant": "", "shard": s["shard"], "machine": s["machine"]}
                for s in p["shards"]]
    return Section("Shards: the machine that measured each row", pd.DataFrame(rows), priority=EXTRA,
                   note=f"The run was cut into {p.get('shard_count', '?')} shards and measured on "
                        f"{len(p.get('machines') or [])} machine(s). A row's two sides ran on one "
                        f"machine, alternating fork by fork; no figure of one machine is set "
                        f"against another's.")


def flame_graphs(case_id: str, profile: str, folder: Path) -> Section:
    """Links to the allocation flame graphs of `make profile` in ``folder``, if they were made."""
    pages = sorted(folder.glob("*/flame-alloc-forward.html")) if folder.is_dir() else []
    if not pages:
        return Section(text=f"*No allocation flame graphs yet: `make profile CASE={case_id} "
                            f"PROFILE={profile}` makes them (async-profiler, one fork, apart from the "
                            f"timing runs) and renders this report again.*", priority=EXTRA)
    # carried inside report.html, as the rows' differential graphs are: a link to the
    # folder beside it would be dead in the report attached alone
    drawn = {page.parent.name: (page.read_text(encoding="utf-8"),
                                page.with_name("flame-alloc-reverse.html").read_text(encoding="utf-8"))
             for page in pages}
    links, graphs = flamegraphs.embedded("flames", drawn, sides=("forward", "reverse"))
    rows = []
    for name, (forward, reverse) in links.items():
        rows.append({"benchmark": name.replace("hotpath.", "").replace(f"{case_id}.", "", 1),
                     "flame graph": f"[forward]({forward}) · [reverse]({reverse})"})
    return Section("Allocation flame graphs", pd.DataFrame(rows), priority=EXTRA,
                   note="async-profiler `alloc` event, one fork per benchmark, apart from timing runs; "
                        "the pages are inside the full report (a click opens one, offline).",
                   report_only=("flame graph",), graphs=graphs)


def environment(run: Run, source: str) -> Section:
    """Where the numbers come from: the raw file (``source``, as the report names it), the
    command, the commit, the machine; and what drew the report from them."""
    p = run.provenance or {}
    f = run.frame.iloc[0]
    rows = [
        ("results file", source),
        ("profile", f"{p.get('profile', '?')}: {p.get('profile_settings', '?')}"),
        *_commands(p),
        *([("memory pass", p["memory_command"])] if p.get("memory_command") else []),
        ("machine load", machine.describe(p.get("machine_load"))),
        ("precision", compare.precision_summary(compare.precision(run.frame))),
        ("git commit", f"{p.get('git_commit', '?')}" + _dirty(p)),
        ("date", p.get("started", "?")),
        ("CPU", f"{p.get('cpu_model', '?')}, {p.get('cores', '?')} cores"),
        ("OS", p.get("os", "?")),
        ("JDK", f"{f['jdk']}, {f['vm']}"),
        ("JMH", str(f["jmh_version"])),
        # The rows above are the run's; this one is the render's own (hotpath.render.versions).
        ("rendered with", versions.describe()),
        ("JVM args", f["jvm_args"] or "(none)"),
    ]
    # every paste keeps what identifies the run (its key rows, LEAD: a paste that ran out of room
    # left them out first, the last block's, and named no raw file, commit or software); the rest
    # is report.html's
    return Section("Environment", pd.DataFrame(rows, columns=["what", "value"]), rows=[
        (LEAD if what in KEY_ENVIRONMENT else EXTRA, i) for i, (what, _) in enumerate(rows)])


def _commands(p: dict[str, Any]) -> list[tuple[str, str]]:
    """The command that ran; for an interleaved run, its rounds (one fork each), then the merge."""
    rounds = p.get("interleaved_rounds")
    if not rounds:
        return [("command", p.get("command", "unknown (no provenance sidecar)"))]
    order = p.get("round_sides") or [m.group(1) if (m := re.search(r"variant=(\S+)", cmd)) else "?"
                                      for cmd in rounds]
    return [
        ("rounds", f"{len(rounds)} JMH runs of one fork each, in this order: {', '.join(order)}; "
                   "every command is in the provenance sidecar"),
        ("first round", rounds[0]),
        ("merged", "hotpath.measure.interleave.merge: the rounds' forks in one file, score and error "
                   "recomputed as JMH does"),
    ]


def _dirty(p: dict[str, Any]) -> str:
    if not p.get("git_dirty"):
        return ""
    paths = p.get("git_dirty_paths")
    return f" (uncommitted changes: {', '.join(paths)})" if paths else " (uncommitted changes)"
