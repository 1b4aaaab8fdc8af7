"""Run a case's JMH matrix to JSON under data/results/<profile>/, with a provenance sidecar.

A run writes beside the final file and renames on success only: a run that fails, is
interrupted or misses a benchmark leaves the previous result as it was.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import json
import os
import re
import shlex
import shutil
import sys
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from . import cpu, forkplan, interleave, prior, rounds, shards
from .jar import benchmark_listing, environment, listed_benchmarks, run_jmh
from .memory import holding_jmh_lock, run_memory_pass, sites_staging
from .. import children, machine, runs, runtimes
from ..stats import sequential
from ..cases import Case
from ..errors import HotpathError
from ..jmh import VARIANT, MethodName, RowKey, names_mechanisms, params_text, read_json
from ..paths import JAR, ROOT, cpu_of, memory_of, peaks_of, results_file, shard_folder, sites_of
from .profiles import Profile, format_duration
from ..runtimes import Cell
from .passes import shown as _shown


def plan_for(case: Case, profile: Profile, jar: Path, budget_s: float | None = None,
             only: set | None = None) -> forkplan.Plan:
    """The case's sequential plan: its rows and its time budget (the profile's unless given);
    ``only``: the (benchmark, params) row groups of a shard (hotpath.measure.shards)."""
    declared = benchmark_listing(case, jar)
    rows = forkplan.plan_rows(case, profile, declared)
    if only is not None:
        rows = [r for r in rows if r.group in only]
    if not rows:
        raise HotpathError(f"case {case.id} has no rows to measure under profile {profile.name} "
                           + ("(no benchmark names the patch's mechanisms as variants, old+...)"
                              if profile.rows == forkplan.MECHANISMS else
                              f"(no 'variant' @Param beside {case.baseline!r})"))
    if budget_s is None:
        budget_s = profile.budget_s()
    known = prior.forks(profile.prior_runs) if profile.prior_runs else {}
    design = sequential.Design(cap=profile.forks, min_forks=profile.min_forks)
    return forkplan.Plan(case, profile, rows, declared, budget_s, prior=known,
                         expected=prior.expected(case.id, rows, design))


def run_sequential(plan: forkplan.Plan, jar: Path, out: Path, merged: Path,
                   extra_args: list[str], java: str = "java") -> list[str]:
    """The sequential fork plan's rounds (hotpath.measure.forkplan), merged into ``merged``.

    Returns the round commands. Round files are left in rounds/<case>.partial/ beside ``out``:
    they replace rounds/<case>/ once the run is accepted (finish), so that a failed run leaves
    the earlier run's rounds as they were."""
    case, profile = plan.case, plan.profile
    rounds_dir = rounds_of(out)
    staging = staging_of(rounds_dir)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)

    command = fork_command(profile, jar, java, extra_args, cpu_staging(staging))
    log = ROOT / "target" / "jmh-logs" / f"{profile.name}-{case.id}.log"
    log.unlink(missing_ok=True)
    print(f"hotpath: {case.id}: JMH's output goes to {_shown(log)}", flush=True)
    done = rounds.run(plan, command, staging, lambda cmd: run_jmh(cmd, case, out, log))
    files = [target for _, target in done]
    for target in files:
        read_json(target)
    merged.write_text(json.dumps(interleave.merge(files), indent=2), encoding="utf-8")
    return [_round_shown(cmd, rounds_dir / target.name, staging) for cmd, target in done]


def _round_shown(cmd: list[str], final: Path, staging: Path) -> str:
    """A round's command as it can be run again: its file in the rounds' folder, the CPU
    profiler's folder by name."""
    return shlex.join([*cmd[:-1], _shown(final)]).replace(str(cpu_staging(staging)), "cpu")


def fork_command(profile: Profile, jar: Path, java: str = "java", extra_args: list[str] | None = None,
                 cpu_dir: Path | None = None):
    """What builds one JMH run of a sequential plan's round: one fork of one variant's sides
    (with ``cpu_dir``, its CPU samples written there, where the profile takes them)."""
    def command(variant, benchmarks, params, target, iterations):
        return [*profile.java(1, java), "-jar", _shown(jar), interleave.include_only(benchmarks),
                *profile.jmh_args(forks=1, variant_filter=False, java=java, iterations=iterations,
                                  cpu_dir=cpu_dir),
                *(extra_args or []),
                "-p", f"variant={variant}", *forkplan.jmh_params(params),
                "-rf", "json", "-rff", str(target)]
    return command


def cpu_staging(staging: Path) -> Path:
    """Where the timed forks' CPU profiler writes its files, in a plan's staging folder."""
    return staging / "cpu"


def collect_cpu(run: CaseRun, folder: Path) -> None:
    """The case's timed forks' CPU samples in ``folder`` tied to its results, into its partial
    file. Samples that cannot be tied to the run's forks are not a failed run: its timing
    stands, without them, and the report says they were not taken."""
    if not run.profile.samples_cpu or not folder.is_dir():
        return
    mine = {r.benchmark for r in run.plan.rows} if run.plan else None
    try:
        document = cpu.collect(folder, read_json(run.partial), run.rounds[0] if run.rounds else "",
                               benchmarks=mine)
    except HotpathError as e:
        print(f"hotpath: warning: {run.case.id}: CPU samples left out: {e}", file=sys.stderr)
        return
    run.cpu_partial.write_text(runs.sites_text(document), encoding="utf-8")


def rounds_of(out: Path) -> Path:
    """Where a results file's round files lie (hotpath.runs)."""
    return out.parent / runs.case(out.stem).rounds


def staging_of(rounds_dir: Path) -> Path:
    return rounds_dir.with_name(rounds_dir.name + ".partial")


def measure_peaks(case: Case, profile: Profile, jar: Path, out: Path, final: Path,
                  sides: list[RowKey] | None = None) -> str:
    """Peak live heap per call (hotpath.peak.PeakHeapMain): bisection on -Xmx in child JVMs.
    With ``sides`` (a run of the write-ups' rows), only their calls: every bisection is a
    dozen JVMs, and the rows the run leaves out would only cost the budget."""
    cmd = ["java", "-cp", _shown(jar), "hotpath.peak.PeakHeapMain", case.peak_calls or "",
           _shown(out), "--resolution-pct", str(profile.peak_resolution_pct)]
    if sides:
        cmd += ["--only", peak_filter(sides)]
    print(f"hotpath: {case.id}: measuring peak live heap per call", flush=True)
    done = children.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise HotpathError(f"peak-heap measurement failed for case {case.id}: {reason}")
    return shlex.join([*cmd[:5], _shown(final), *cmd[6:]])


def peak_filter(sides: list[RowKey]) -> str:
    """PeakHeapMain's --only: a pattern its calls' params ("{payload=MAP_3K, variant=old}")
    match when they are one of these sides' params and variant, in any order."""
    combos = dict.fromkeys(tuple(sorted({**dict(params), VARIANT: variant}.items()))
                           for _, params, variant in sides)
    return "|".join("^" + "".join(rf"(?=.*\b{re.escape(k)}={re.escape(v)}\b)" for k, v in c)
                    for c in combos)


@dataclass
class CaseRun:
    """One case's run in progress: where it writes, what it measures, and what it has done."""

    case: Case
    profile: Profile
    jar: Path
    out: Path
    expected: list[str]
    plan: forkplan.Plan | None
    java: str = "java"
    cell: Cell | None = None
    shard: shards.Shard | None = None
    extra_args: list[str] = field(default_factory=list)
    env: dict = field(default_factory=dict)
    # when it started, and the clocks it is timed by from its construction (start() constructs it
    # once the JDK's environment is read, which a run's duration leaves out)
    started: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.timezone.utc))
    t0: float = field(default_factory=time.monotonic)
    meter: machine.CpuMeter = field(default_factory=machine.CpuMeter.start)
    memory_cmd: str | None = None
    peak_cmd: str | None = None
    rounds: list[str] = field(default_factory=list)
    #: The cases whose rows shared one plan and one budget with this one (run_together).
    shared_with: list[str] = field(default_factory=list)
    #: The host check the command ran before it (hotpath.measure.hostcheck), as recorded.
    host_check: dict | None = None

    @property
    def layout(self) -> runs.Layout:
        return runs.case(self.out.stem)

    @property
    def partial(self) -> Path:
        return self.out.with_name(self.out.name + ".partial")

    @property
    def memory_partial(self) -> Path:
        return memory_of(self.out).with_name(memory_of(self.out).name + ".partial")

    @property
    def sites_partial(self) -> Path:
        return sites_of(self.out).with_name(sites_of(self.out).name + ".partial")

    @property
    def cpu_partial(self) -> Path:
        return cpu_of(self.out).with_name(cpu_of(self.out).name + ".partial")

    @property
    def peak_partial(self) -> Path:
        return peaks_of(self.out).with_name(peaks_of(self.out).name + ".partial")


def start(case: Case, profile: Profile, jar: Path = JAR, out: Path | None = None,
          extra_args: list[str] | None = None, cell: Cell | None = None,
          budget_s: float | None = None, shard: shards.Shard | None = None,
          host_check: dict | None = None) -> CaseRun:
    """A case's run checked and planned, nothing measured yet (see :func:`run`)."""
    java = "java"
    if cell is not None:
        java = str(runtimes.java_of(cell))  # a missing JDK stops here, before anything runs
        profile = dataclasses.replace(profile, jvm_args=cell.jvm_args(profile.jvm_args))
    if budget_s is not None and math.isfinite(budget_s) and profile.interleave:
        # Said and recorded as the budget this run was given (a matrix cell's share), not the
        # profile's default.
        profile = dataclasses.replace(profile, budget=format_duration(budget_s))
    if not jar.is_file():
        raise HotpathError(f"{jar} is missing: build it with 'make build' (mvn package)")
    expected = listed_benchmarks(case.benchmarks, jar)
    if not expected:
        raise HotpathError(f"no benchmarks match {case.benchmarks!r} in {jar}")
    if shard is not None and out is None:
        out = shard_folder(profile.name, shard.index, shard.count) / f"{case.id}.json"
    out = out or results_file(profile.name, case.id)
    if profile.require_quiet:
        refuse_if_busy(profile)
    out.parent.mkdir(parents=True, exist_ok=True)
    only = shard.keys(case.id) if shard is not None and not shard.whole(case.id) else None
    plan = plan_for(case, profile, jar, budget_s, only) if profile.interleave else None
    started = dt.datetime.now(dt.timezone.utc)
    # Taken before the run: the revision that ran, not whatever the tree holds hours later.
    env = environment(java)
    run = CaseRun(case, profile, jar, out, expected, plan, java, cell, shard, list(extra_args or []),
                  env=env, started=started, host_check=host_check)
    print(f"hotpath: {case.id} [{profile.name}]: {len(expected)} benchmark methods, "
          f"{profile.describe()}", flush=True)
    if plan:
        print(f"hotpath: {case.id}: plan: {plan.describe()}", flush=True)
    return run


def measure_untimed(run: CaseRun, log: Path | None = None) -> None:
    """The passes outside the timed forks: native bytes per op, then peak live heap. With a
    ``log``, the memory pass runs beside another (:func:`measure_untimed_together`): its JMH
    output goes to the log, and its JMH passes JMH's lock."""
    case, profile, plan = run.case, run.profile, run.plan
    sides = forkplan.sides_of(plan.rows, case.baseline) if plan else None
    run.memory_cmd = run_memory_pass(case, profile, run.jar, run.memory_partial, memory_of(run.out),
                                     run.expected, run.extra_args, run.java, plan,
                                     sites_partial=run.sites_partial, log=log)
    # a case's peaks are measured once: by the shard holding its first row group, for all
    # of the case's rows (a whole run of the write-ups' rows: for its own sides only)
    shard = run.shard
    if (case.peak_calls and run.cell is None and profile.peaks
            and (shard is None or shard.holds_first(case.id))):
        run.peak_cmd = measure_peaks(case, profile, run.jar, run.peak_partial, peaks_of(run.out),
                                     sides if profile.rows == "writeups" and shard is None else None)


#: The untimed passes of several cases run this many at a time: they count bytes, pages and
#: peak heap, which a JVM beside them cannot change, and one at a time left about 40% of the two
#: cores idle (a fresh clone's make report: 88 s for the five cases, JVM start-ups and one
#: compiler at a time).
UNTIMED_AT_ONCE = 2


def memory_log(run: CaseRun) -> Path:
    return ROOT / "target" / "jmh-logs" / f"{run.profile.name}-{run.case.id}-memory.log"


def measure_untimed_together(runs: list[CaseRun]) -> None:
    """Every case's untimed passes, :data:`UNTIMED_AT_ONCE` at a time, the cases with the most
    sides first (their passes are the longest); JMH's output in a log per case. The first
    failure stops the cases not yet started and is raised once the running ones end."""
    def sides(r: CaseRun) -> int:
        return len(forkplan.sides_of(r.plan.rows, r.case.baseline)) if r.plan else len(r.expected)

    for r in runs:
        memory_log(r).unlink(missing_ok=True)
    with holding_jmh_lock("the memory passes"), ThreadPoolExecutor(UNTIMED_AT_ONCE) as pool:
        started = [pool.submit(measure_untimed, r, memory_log(r))
                   for r in sorted(runs, key=sides, reverse=True)]
        wait(started, return_when=FIRST_EXCEPTION)
        for f in started:
            f.cancel()
    for f in started:
        if not f.cancelled():
            f.result()


def finish(run: CaseRun, record: dict | None = None) -> Path:
    """The case's timed results checked, its provenance written, and every file put in place
    (hotpath.runs); ``record``: the plan record of its rows (its own plan's by default)."""
    entries = read_json(run.partial)
    _check_complete(run, entries)
    load = run.meter.read()
    written = runs.Run(run.layout, {run.layout.sides[0]: run.partial.read_bytes()})
    if run.plan:
        written.rounds = {f.name: f.read_bytes()
                          for f in sorted(staging_of(rounds_of(run.out)).glob("*.json"))}
    if run.cpu_partial.is_file():
        written.put("cpu", run.cpu_partial.read_bytes())
    if run.memory_cmd:
        written.put("memory", run.memory_partial.read_bytes())
        if run.sites_partial.is_file():
            written.put("sites", run.sites_partial.read_bytes())
    # a case's peaks are measured once (hotpath.measure.shards): a run that did not measure
    # them keeps the earlier ones
    peaks = run.peak_partial if run.peak_cmd else peaks_of(run.out)
    if peaks.is_file():
        written.put("peaks", peaks.read_bytes())
    written.provenance = _provenance(run, entries, load, record, written.sha256())
    runs.dump(written, run.out.parent)
    if load["others_cores"] > machine.QUIET_CORES:
        print(f"hotpath: warning: {run.case.id}: {machine.describe(load)}", file=sys.stderr)
    return run.out


def _check_complete(run: CaseRun, entries: list[dict]) -> None:
    """Every side the plan measured (every benchmark, without a plan) has its result."""
    if run.plan:
        sides = forkplan.sides_of(run.plan.rows, run.case.baseline)
        found = {RowKey.of_entry(e) for e in entries}
        missing = [f"{b}({params_text(dict(p))}) {v}" for b, p, v in sides
                   if (b, p, v) not in found]
    else:
        missing = sorted(set(run.expected) - {e["benchmark"] for e in entries})
    if missing:
        raise HotpathError(f"JMH produced no result for {', '.join(missing)}; "
                           f"{run.out} was left as it was")


def _provenance(run: CaseRun, entries: list[dict], load: dict, record: dict | None,
                sha256: str) -> dict:
    """What the case's run records of itself (its sidecar): how, where and when it ran."""
    case, profile, plan = run.case, run.profile, run.plan
    cmd = timing_command(case, profile, run.jar, run.partial, run.extra_args, run.java)
    return {
        "case": case.id,
        "profile": profile.name,
        "profile_settings": profile.describe(),
        "started": run.started.isoformat(timespec="seconds"),
        "duration_s": round(time.monotonic() - run.t0, 1),
        "jmh_version": entries[0].get("jmhVersion", ""),
        "jvm_args": list(profile.jvm_args),
        "runtime": (run.cell or runtimes.MAIN).id,
        "runtime_description": (run.cell or runtimes.MAIN).describe(),
        "command": (shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]) if plan
                    else shlex.join([*cmd[:-1], _shown(run.out)])),
        "memory_command": run.memory_cmd,
        "peak_command": run.peak_cmd,
        "machine_load": load,
        "interleaved_rounds": run.rounds or None,
        "sequential": (record or plan.record()) if plan else None,
        **({"shared_with": run.shared_with} if run.shared_with else {}),
        **({"host_check": run.host_check} if run.host_check else {}),
        "left_out": left_out(case, profile, plan) if plan else None,
        "invoked_as": shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        **({"shard": {**shards.record(run.shard), "machine": shards.machine_name()}}
           if run.shard else {}),
        **run.env,
        "sha256": sha256,
    }


def clean_up(run: CaseRun) -> None:
    """What a run leaves behind when it fails: nothing of its own, the earlier run's files as
    they were."""
    run.partial.unlink(missing_ok=True)
    shutil.rmtree(staging_of(rounds_of(run.out)), ignore_errors=True)
    run.memory_partial.unlink(missing_ok=True)
    run.sites_partial.unlink(missing_ok=True)
    shutil.rmtree(sites_staging(run.sites_partial), ignore_errors=True)
    run.peak_partial.unlink(missing_ok=True)
    run.cpu_partial.unlink(missing_ok=True)


def run(case: Case, profile: Profile, jar: Path = JAR, out: Path | None = None,
        extra_args: list[str] | None = None, cell: Cell | None = None,
        budget_s: float | None = None, shard: shards.Shard | None = None,
        host_check: dict | None = None) -> Path:
    """Run the case's benchmarks under the profile; return the results file.

    With a ``cell``, the forks run on that cell's JDK and collector (hotpath.runtimes) instead
    of the main configuration; peak live heap is measured on the main configuration only.
    A sequential profile spends at most ``budget_s`` (else its own budget) on the whole case:
    the memory pass and the peak measurement first, then the timed rounds in what is left.
    With a ``shard``, only its row groups of the case are measured, into the shard's folder.
    ``host_check``: the host check run before it, recorded in the provenance."""
    r = start(case, profile, jar, out, extra_args, cell, budget_s, shard, host_check)
    try:
        measure_untimed(r)
        if r.plan:
            before = time.monotonic() - r.t0
            r.plan.budget_s -= before
            r.rounds = run_sequential(r.plan, jar, r.out, r.partial, r.extra_args, r.java)
            collect_cpu(r, cpu_staging(staging_of(rounds_of(r.out))))
            if not r.plan.forks_run:
                raise HotpathError(
                    f"the budget was spent before the first timed fork (the memory pass and "
                    f"set-up took {format_duration(before)}): give at least "
                    f"{format_duration(before + r.plan.first_look_s())} for a first look "
                    f"of every row; {r.out} was left as it was")
        else:
            run_jmh(timing_command(case, r.profile, jar, r.partial, r.extra_args, r.java), case, r.out)
        return finish(r)
    finally:
        clean_up(r)


def run_together(cases: list[Case], profile: Profile, budget_s: float, jar: Path = JAR,
                 shard: shards.Shard | None = None, folder: Path | None = None,
                 host_check: dict | None = None) -> list[Path]:
    """Several cases' rows as one sequential plan in one budget: every case's memory pass and
    peaks first, then rounds that bring every row of every case to its first look before any
    row gets a later fork, the rows expected to need the fewest forks first (forkplan.Plan.
    affordable), so that no row ends at one or two forks for want of budget while rows of
    another case took more. Each case's results, rounds and provenance are written as a run of
    that case alone would write them, its plan record holding its own rows. A failure leaves
    every case's earlier results as they were. ``folder``: where the results go (default: the
    profile's, or the shard's)."""
    # the budget counts from here: each case's set-up is spent from it as its memory pass is
    t0 = time.monotonic()
    runs = [start(c, profile, jar, folder / f"{c.id}.json" if folder else None, budget_s=budget_s,
                  shard=shard, host_check=host_check) for c in cases]
    try:
        measure_untimed_together(runs)
        before = time.monotonic() - t0
        plans = [r.plan for r in runs if r.plan is not None]
        if len(plans) < len(runs):
            raise HotpathError(f"profile {profile.name} does not interleave its forks: its cases "
                               f"cannot share one plan")
        plan = forkplan.joint(plans, budget_s - before)
        print(f"hotpath: one plan for {', '.join(c.id for c in cases)}: {plan.describe()}", flush=True)
        staging = runs[0].out.parent / "rounds" / ".together.partial"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        log = ROOT / "target" / "jmh-logs" / f"{profile.name}-together.log"
        log.unlink(missing_ok=True)
        print(f"hotpath: JMH's output goes to {_shown(log)}", flush=True)

        done = rounds.run(plan, fork_command(profile, jar, cpu_dir=cpu_staging(staging)), staging,
                            lambda cmd: run_jmh(cmd, plan.case, runs[0].out.parent, log))
        if not plan.forks_run:
            raise HotpathError(
                f"the budget was spent before the first timed fork (the memory passes and "
                f"set-up took {format_duration(before)}); the earlier results were "
                f"left as they were")
        for r, own in zip(runs, plans):
            r.shared_with = [c.id for c in cases if c.id != r.case.id]
            r.rounds = _split_rounds(r, own, done)
            collect_cpu(r, cpu_staging(staging))
        return [finish(r, plan.record(rows=own.rows)) for r, own in zip(runs, plans)]
    finally:
        for r in runs:
            clean_up(r)
        shutil.rmtree(runs[0].out.parent / "rounds" / ".together.partial", ignore_errors=True)


def _split_rounds(run: CaseRun, plan: forkplan.Plan, done: list[tuple[list[str], Path]]) -> list[str]:
    """The case's share of a joint plan's round files: each file's entries of the case's
    benchmarks, as a file of the case's rounds (one JMH run may hold several cases' benchmarks:
    interleave.invocations groups them by their params), and all of them merged into its
    results (``plan``: the case's own plan). Returns the round commands that gave the case any entry."""
    mine = {r.benchmark for r in plan.rows}
    rounds_dir = rounds_of(run.out)
    staging = staging_of(rounds_dir)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    files: list[Path] = []
    commands: list[str] = []
    for cmd, target in done:
        if not target.is_file():
            continue
        entries = [e for e in read_json(target) if e["benchmark"] in mine]
        if not entries:
            continue
        own = staging / target.name
        own.write_text(json.dumps(entries, indent=2), encoding="utf-8")
        files.append(own)
        commands.append(_round_shown(cmd, rounds_dir / target.name, target.parent))
    run.partial.write_text(json.dumps(interleave.merge(files), indent=2), encoding="utf-8")
    return commands


def timing_command(case: Case, profile: Profile, jar: Path, target: Path,
                   extra_args: list[str] | None = None, java: str = "java") -> list[str]:
    return [*profile.java(profile.forks, java), "-jar", _shown(jar), case.benchmarks,
            *profile.jmh_args(java=java),
            *(extra_args or []), "-rf", "json", "-rff", str(target)]


def left_out(case: Case, profile: Profile, plan: forkplan.Plan) -> dict | None:
    """What a run of the write-ups' rows did not measure, and the command that does."""
    if profile.rows == "all":
        return None
    measured = {(r.benchmark, r.params, r.candidate) for r in plan.rows}
    everything = forkplan.plan_rows(case, dataclasses.replace(profile, rows="all"), plan.declared)
    rest = [r for r in everything if (r.benchmark, r.params, r.candidate) not in measured]
    return {
        "rows": len(rest),
        # the mechanisms' combinations are not among them: the sentence on make mechanisms names them
        "variants": sorted({r.candidate for r in rest} - {r.candidate for r in plan.rows}),
        "benchmarks": sorted({MethodName.of(r.benchmark).class_name for r in rest}
                             - {MethodName.of(r.benchmark).class_name for r in plan.rows}),
        "command": f"make report CASE={case.id} PROFILE=full",
        # which part of the patch pays is measured apart, in minutes (make mechanisms)
        **({"mechanisms": f"make mechanisms CASE={case.id}"}
           if any(names_mechanisms(v) for params in plan.declared.values() for v in params.get(VARIANT, []))
           else {}),
    }


def refuse_if_busy(profile: Profile) -> None:
    """Full and reference runs decide verdicts: they do not start on a busy machine."""
    if os.environ.get(machine.OVERRIDE):
        return
    load = machine.others_now()
    if load["others_cores"] > machine.QUIET_CORES:
        raise HotpathError(
            f"the machine is busy: other processes used {load['others_cores']:.2f} cores over "
            f"{load['wall_s']:.0f} s (load average {load['load_average_end']}); PROFILE="
            f"{profile.name} needs a quiet machine. Stop what else runs (builds, tests, other "
            f"benchmarks) and try again, or set {machine.OVERRIDE}=1 to run anyway (the run's "
            f"load is recorded and reported).")


