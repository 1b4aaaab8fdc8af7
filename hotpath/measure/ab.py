"""Two builds measured with the study's method: the same benchmarks from a baseline and a
candidate build (a master and a patched jar), one fork per side per round in alternating order,
the sequential plan deciding each row, a memory pass of its own, every round's JSON kept.

A row is a benchmark x params both builds declare; what one build declares alone is named with
the reason and not measured. The same JMH options and JVM flags go to both sides; what still
differs between them (JMH version, the JVM arguments a build declares, a param's values) is
recorded for the report. A run writes into a staging folder and replaces
data/results/ab/<name>/ only when it is complete: a failed or interrupted run leaves the earlier
one as it was. A benchmark that fails on one side closes its rows as failed and the others go on.

Written per run (hotpath.runs.BUILDS): baseline.json and candidate.json (each build's forks
merged, JMH's own format), <side>.memory.json (native B/op), ab.sites.json (the allocation
sites), rounds/ (every fork's JSON as JMH wrote it) and ab.json (the provenance: both builds with
the SHA-256 of every jar, the selection, every round's command, the plan's record of each row,
the machine's load).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import json
import math
import os
import re
import shlex
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import children, runs
from ..errors import HotpathError
from ..jmh import RowKey, params_text, read_json
from ..paths import AB_RESULTS, ROOT, ab_shard_folder
from . import added, cpu, forkplan, hostcheck, interleave, passes, rounds, shards, sites
from .. import machine
from ..stats import sequential
from .jar import environment
from .builds import Side, SideError, listing, sha256
from .profiles import Profile, format_duration

ROLES = runs.ROLES
MANIFEST = runs.BUILDS.provenance
Declared = dict[str, dict[str, list[str]]]


@dataclass(frozen=True)
class Selection:
    """Which benchmarks: JMH's include regex, with ``-p`` restrictions (a param's values), or
    the rows themselves (benchmark and params), as a run of given rows names them."""

    include: str = "."
    params: dict[str, list[str]] = field(default_factory=dict)
    rows: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    def describe(self) -> str:
        if self.rows:
            return f"{len(self.rows)} given rows"
        return (f"benchmarks matching {self.include!r}"
                + "".join(f", {k}={','.join(v)}" for k, v in self.params.items()))

    def record(self) -> dict:
        return {"include": self.include, "params": self.params,
                "rows": [{"benchmark": b, "params": params_text(dict(p))} for b, p in self.rows]}


def parse_params(items: list[str]) -> dict[str, list[str]]:
    """JMH's -p as a user writes it: 'size=64,1024' (one or more)."""
    out: dict[str, list[str]] = {}
    for item in items:
        name, sep, values = str(item).partition("=")
        if not sep or not name.strip() or not values.strip():
            raise HotpathError(f"cannot read the param restriction {item!r}: give it as name=v1,v2")
        out[name.strip()] = [v.strip() for v in values.split(",") if v.strip()]
    return out


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._") or "ab"


def default_name(baseline: Side, candidate: Side) -> str:
    return slug(f"{baseline.name}-vs-{candidate.name}")


@dataclass
class Rows:
    """What a selection gives on two listings: the rows both declare, and the rest with why."""

    rows: list[forkplan.Row]
    declared: Declared
    one_sided: list[dict]


def _combos(params: dict[str, list[str]], restrict: dict[str, list[str]]) -> list[tuple[tuple[str, str], ...]]:
    names = list(params)
    values = [restrict.get(n, params[n]) for n in names]
    return [tuple(zip(names, combo)) for combo in itertools.product(*values)]


def rows_of(selection: Selection, listings: dict[str, Declared], names: dict[str, str],
            cap: int) -> Rows:
    """Rows both builds declare (benchmark x params), in the baseline's order; the one-sided
    ones with the reason. ``listings`` and ``names`` are keyed by role."""
    base, cand = listings["baseline"], listings["candidate"]
    rows: list[forkplan.Row] = []
    declared: Declared = {}
    one_sided: list[dict] = []

    def only(benchmark: str, params: tuple, role: str, why: str) -> None:
        one_sided.append({"benchmark": benchmark, "params": params_text(dict(params)),
                          "only_in": names[role], "reason": why})

    if selection.rows:
        for benchmark, params in selection.rows:
            for role, listed in listings.items():
                if benchmark not in listed:
                    raise HotpathError(f"{names[role]} has no benchmark {benchmark}")
            rows.append(forkplan.Row(benchmark, tuple(params), names["candidate"], cap))
            merged = declared.setdefault(benchmark, {k: [] for k in base[benchmark]})
            for k, v in params:
                if v not in merged.setdefault(k, []):
                    merged[k].append(v)
        return Rows(rows, declared, one_sided)
    for benchmark in [*base, *[b for b in cand if b not in base]]:
        if benchmark not in cand:
            only(benchmark, (), "baseline", f"the benchmark is only in {names['baseline']}'s build")
            continue
        if benchmark not in base:
            only(benchmark, (), "candidate", f"the benchmark is only in {names['candidate']}'s build")
            continue
        if sorted(base[benchmark]) != sorted(cand[benchmark]):
            # the builds declare other params: no combination means the same on both
            for role, listed in (("baseline", base), ("candidate", cand)):
                for c in _combos(listed[benchmark], selection.params):
                    only(benchmark, c, role, "the builds declare other @Params for this benchmark "
                         f"({', '.join(base[benchmark]) or 'none'} against "
                         f"{', '.join(cand[benchmark]) or 'none'})")
            continue
        theirs = {tuple(sorted(c)) for c in _combos(cand[benchmark], selection.params)}
        ours = {tuple(sorted(c)) for c in _combos(base[benchmark], selection.params)}
        for c in _combos(base[benchmark], selection.params):
            if tuple(sorted(c)) in theirs:
                rows.append(forkplan.Row(benchmark, c, names["candidate"], cap))
            else:
                only(benchmark, c, "baseline", f"{names['candidate']}'s build does not declare these values")
        for c in _combos(cand[benchmark], selection.params):
            if tuple(sorted(c)) not in ours:
                only(benchmark, c, "candidate", f"{names['baseline']}'s build does not declare these values")
        declared[benchmark] = {n: list(dict.fromkeys(v for r in rows if r.benchmark == benchmark
                                                     for k, v in r.params if k == n))
                               for n in base[benchmark]}
    return Rows(rows, declared, one_sided)


def differences(listings: dict[str, Declared], entries: dict[str, list[dict]],
                names: dict[str, str], rows: list[forkplan.Row]) -> list[dict]:
    """What differs between the two builds beyond the code: JMH version, the JVM arguments
    their forks ran with (what a build's @Fork declares), the values a param declares."""
    out = []
    versions = {role: sorted({e.get("jmhVersion", "?") for e in entries[role]}) for role in ROLES}
    if versions["baseline"] != versions["candidate"]:
        out.append({"what": "JMH version", "benchmark": "",
                    **{names[r]: ", ".join(versions[r]) for r in ROLES}})
    measured = list(dict.fromkeys(r.benchmark for r in rows))
    for benchmark in measured:
        args = {role: sorted({" ".join(e.get("jvmArgs") or []) for e in entries[role]
                              if e["benchmark"] == benchmark}) for role in ROLES}
        if args["baseline"] and args["candidate"] and args["baseline"] != args["candidate"]:
            out.append({"what": "JVM arguments of the forks", "benchmark": benchmark,
                        **{names[r]: " | ".join(args[r]) for r in ROLES}})
        declared = {role: listings[role].get(benchmark, {}) for role in ROLES}
        if declared["baseline"] != declared["candidate"]:
            out.append({"what": "declared @Params", "benchmark": benchmark,
                        **{names[r]: "; ".join(f"{k}={','.join(v)}" for k, v in declared[r].items())
                           or "none" for r in ROLES}})
    return out


def _recorded(cmd: list[str], sites_dir: Path | None = None, cpu_dir: Path | None = None) -> str:
    """A command as the provenance keeps it: paths under the project root relative to it, and
    the site profiler's and the CPU sampler's scratch folders (``sites_dir``, ``cpu_dir``) by
    the names their files go by, 'sites' and 'cpu' (replaced first: relative, they would no
    longer match)."""
    text = shlex.join(cmd)
    if sites_dir is not None:
        text = text.replace(str(sites_dir), "sites")
    if cpu_dir is not None:
        text = text.replace(str(cpu_dir), "cpu")
    return text.replace(f"{ROOT}{os.sep}", "")


def _run_jmh(cmd: list[str], log: Path) -> tuple[int, str]:
    """One JMH run; its console output is appended to the log and returned."""
    done = children.run(cmd, cwd=ROOT, capture_output=True, text=True)
    output = done.stdout + done.stderr
    with log.open("a", encoding="utf-8") as f:
        f.write(f"$ {shlex.join(cmd)}\n{output}\n")
    return done.returncode, output


def _why(output: str, returncode: int) -> str:
    """The line of a JMH run's output that says why it failed."""
    for line in reversed(output.splitlines()):
        s = line.strip()
        if s and re.search(r"Exception|Error|Unable|cannot|Could not", s):
            return s[:300]
    return f"JMH exited with {returncode}"


class _NotMeasured(Exception):
    """A pass's JMH run that failed on one build: why, in JMH's own words."""


def _run_or_stop(log: Path, commands: list[str], shown: Callable[[list[str]], str],
                 keeps_json: bool = True):
    """A pass's JMH runner on a build: each command recorded as ``shown`` makes it, run, and a
    failure (or, where the pass keeps JMH's JSON, a run that wrote none) stops the pass with
    the line that says why."""
    def jmh(cmd: list[str]) -> None:
        commands.append(shown(cmd))
        code, output = _run_jmh(cmd, log)
        if code or (keeps_json and not Path(cmd[-1]).is_file()):
            raise _NotMeasured(_why(output, code))
    return jmh


def memory_pass(side: Side, plan: forkplan.Plan, profile: Profile, staging: Path, log: Path,
                written: runs.Run, java: str = "java") -> tuple[dict, dict | None]:
    """Native B/op of the side's rows in forks of their own, with hotpath's profiler on the
    side's classpath, put into the run being ``written`` (and, where the profile records them,
    its allocation sites in the same forks, returned as their document). Where the side's JMH
    cannot load the profiler, or the pass fails, the record says so and why."""
    if not profile.memory.profilers:
        return {"status": "not measured", "why": f"the {profile.name} profile has no memory pass"}, None
    recorded = staging / f"{side.role}.sites.d"
    files: list[Path] = []
    commands: list[str] = []

    def target(i: int) -> Path:
        files.append(staging / f"{side.role}.memory.{i}.json")
        return files[-1]

    def shown(cmd: list[str]) -> str:
        return _recorded(cmd[:-1] + [f"{side.role}.memory.json"], recorded)

    try:
        passes.run(side, [r.side(side.name) for r in plan.rows], plan.declared,
                   profile.memory_java(java, recorded), profile.memory_args(java, recorded),
                   target, _run_or_stop(log, commands, shown))
    except _NotMeasured as e:
        return {"status": "not measured", "why": str(e), "command": "; ".join(commands)}, None
    document = None
    if profile.memory.sites:
        # Each side's sites under its build's name, as the report pairs them (hotpath.analyze.sites)
        document = sites.collect(recorded, "; ".join(commands), side=side.name)
        shutil.rmtree(recorded, ignore_errors=True)
    merged = interleave.merge(files)
    if not any(n.lstrip("·").startswith("native.alloc") for e in merged
               for n in (e.get("secondaryMetrics") or {})):
        return {"status": "not measured", "command": "; ".join(commands),
                "why": "the memory pass ran but reported no native.alloc metrics"}, document
    written.put("memory", json.dumps(merged, indent=2).encode(), side=side.role)
    for f in files:
        f.unlink()
    return {"status": "measured", "command": "; ".join(commands)}, document


def rows_for(baseline: Side, candidate: Side, selection: Selection, profile: Profile,
             java: str = "java") -> tuple[dict[str, Declared], Rows]:
    """What both builds list under the selection (each side's listing, keyed by role) and the
    rows they share. Bad sides and empty selections raise (HotpathError)."""
    sides = {"baseline": baseline, "candidate": candidate}
    names = {role: s.name for role, s in sides.items()}
    listings = {role: listing(s, selection.include if not selection.rows else
                              interleave.include_only(sorted({b for b, _ in selection.rows})), java)
                for role, s in sides.items()}
    for role, listed in listings.items():
        if not listed:
            everything = listing(sides[role], ".", java)
            raise SideError(f"{role} {names[role]}: " + (
                f"no benchmark matches {selection.include!r} (it has {len(everything)}, e.g. "
                f"{next(iter(everything))})" if everything else "its JMH lists no benchmarks"))
    found = rows_of(selection, listings, names, profile.forks)
    if not found.rows:
        raise HotpathError(f"nothing to compare: no benchmark x params is declared by both "
                           f"{names['baseline']} and {names['candidate']} ("
                           + "; ".join(f"{o['benchmark']}: {o['reason']}" for o in found.one_sided[:3]) + ")")
    return listings, found


def plan_of(name: str, baseline: Side, found: Rows, profile: Profile,
            budget_s: float = math.inf) -> forkplan.Plan:
    """The sequential plan of two builds' rows: every fork keyed by the side that ran it."""
    return forkplan.Plan(forkplan.Subject(name, baseline.name), profile, found.rows,
                         found.declared, budget_s, label=None, tolerate_failures=True)


def in_shard(found: Rows, keys: set) -> Rows:
    """Only the rows of a shard's row groups ((benchmark, params) pairs), each benchmark's
    declared values cut to theirs (one JMH run's -p must not ask for another shard's)."""
    rows = [r for r in found.rows if r.group in keys]
    return Rows(rows, forkplan.declared_of(rows, found.declared), found.one_sided)


@dataclass
class BuildsRun:
    """A run of two builds in progress: what it measures, where it works and what it has done."""

    name: str
    out: Path
    profile: Profile
    selection: Selection
    sides: dict[str, Side]  # by role
    listings: dict[str, Declared]
    found: Rows
    plan: forkplan.Plan
    java: str
    shard: "shards.Shard | None"
    host: "hostcheck.HostCheck | None"
    #: where JMH's files go while it runs (replaced by the run's folder once it is whole)
    staging: Path
    log: Path
    started: dt.datetime
    #: the machine, JDK and revision (jar.environment), taken before anything runs
    env: dict
    t0: float = field(default_factory=time.monotonic)
    meter: machine.CpuMeter = field(default_factory=machine.CpuMeter.start)
    #: the run's files as they are made, written in place of the earlier run once it is whole
    written: runs.Run = field(default_factory=lambda: runs.Run(runs.BUILDS, {}))
    memory: dict[str, dict] = field(default_factory=dict)  # each side's memory pass, as recorded
    entries: dict[str, list[dict]] = field(default_factory=dict)  # each side's results
    done: list[tuple[list[str], Path]] = field(default_factory=list)  # the rounds' forks
    #: each round file's side (by its build's name)
    side_of: dict[Path, str] = field(default_factory=dict)

    @property
    def names(self) -> dict[str, str]:
        return {role: s.name for role, s in self.sides.items()}


def run(baseline: Side, candidate: Side, selection: Selection, profile: Profile,
        budget_s: float | None = None, name: str = "", out: Path | None = None,
        java: str = "java", log_to=print, shard: "shards.Shard | None" = None) -> Path:
    """Measure the two builds; returns the run's folder (data/results/ab/<name>/ unless
    ``out``; a ``shard``'s rows only, into data/results/ab-shards/<name>/<k>-of-<N>/).
    Bad sides and empty selections stop before anything runs (HotpathError)."""
    r = start(baseline, candidate, selection, profile, budget_s, name, out, java, shard)
    _announce(r, log_to)
    try:
        documents: list[dict | None] = []
        for role, side in r.sides.items():
            log_to(f"hotpath: {r.name}: memory pass of {side.name}")
            r.memory[role], document = memory_pass(side, r.plan, r.profile, r.staging, r.log,
                                                   r.written, java)
            documents.append(document)
        found = [d for d in documents if d]
        if len(found) == len(documents):
            r.written.put("sites", runs.sites_text(runs.joined_sites(found)).encode())
        r.plan.budget_s -= time.monotonic() - r.t0
        _timed_rounds(r, log_to)
        load = r.meter.read()
        r.written.rounds = {f.name: f.read_bytes() for f in sorted((r.staging / "rounds").glob("*.json"))}
        r.written.provenance = manifest_of(r, load)
        runs.dump(r.written, r.out)
    finally:
        shutil.rmtree(r.staging, ignore_errors=True)
    if load["others_cores"] > machine.QUIET_CORES:
        log_to(f"hotpath: warning: {r.name}: {machine.describe(load)}")
    return r.out


def start(baseline: Side, candidate: Side, selection: Selection, profile: Profile,
          budget_s: float | None, name: str, out: Path | None, java: str,
          shard: "shards.Shard | None") -> BuildsRun:
    """Two builds' run checked and planned, nothing measured yet (see :func:`run`)."""
    name = slug(name) if name else default_name(baseline, candidate)
    if out is None:
        out = AB_RESULTS / name if shard is None else ab_shard_folder(name, shard.index, shard.count)
    profile = dataclasses.replace(profile, fail_on_error=False)
    if budget_s is None:
        budget_s = profile.budget_s()
    if math.isfinite(budget_s):
        profile = dataclasses.replace(profile, budget=format_duration(budget_s))
    listings, found = rows_for(baseline, candidate, selection, profile, java)
    if shard is not None:
        found = in_shard(found, shard.keys(name))
        if not found.rows:
            raise HotpathError(f"shard {shard.label} holds no row of {name}: cut the run with the "
                               f"same builds, selection and name")
    host = None
    if profile.require_quiet:
        from .bench import refuse_if_busy
        refuse_if_busy(profile)
        host = hostcheck.refuse_if_contended(profile)
    plan = plan_of(name, baseline, found, profile, budget_s)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.with_name(f".{out.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "rounds").mkdir(parents=True)
    log = ROOT / "target" / "jmh-logs" / f"ab-{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.unlink(missing_ok=True)
    started = dt.datetime.now(dt.timezone.utc)
    return BuildsRun(name, out, profile, selection, {"baseline": baseline, "candidate": candidate},
                     listings, found, plan, java, shard, host, staging, log, started,
                     environment(java))


def _announce(r: BuildsRun, log_to) -> None:
    """What the run will measure, and where JMH's output goes."""
    names = r.names
    log_to(f"hotpath: {r.name}: {names['baseline']} against {names['candidate']}: "
           f"{r.selection.describe()}")
    log_to(f"hotpath: {r.name}: plan: {r.plan.describe()}")
    if r.found.one_sided:
        log_to(f"hotpath: {r.name}: {len(r.found.one_sided)} benchmark x params declared by one "
               f"build only, not measured (named in the report)")
    log_to(f"hotpath: {r.name}: JMH's output goes to {r.log.relative_to(ROOT)}")


def _timed_rounds(r: BuildsRun, log_to) -> None:
    """The plan's rounds, one fork per side of a row in each, the sides in alternating order;
    each side's forks merged into its results."""
    by_name = {s.name: s for s in r.sides.values()}
    profile, java = r.profile, r.java
    # hotpath's jar after the side's own entries, for its page-fault counter and CPU sampler
    ours = any(p.startswith("hotpath.") for p in profile.profilers) or profile.samples_cpu

    def command(side_name, benchmarks, params, target, iterations):
        r.side_of[target] = side_name
        return [*by_name[side_name].java(java, profiler=ours), interleave.include_only(benchmarks),
                *profile.jmh_args(forks=1, variant_filter=False, java=java, iterations=iterations,
                                  cpu_dir=cpu_folder(r, side_name)),
                *forkplan.jmh_params(params), "-rf", "json", "-rff", str(target)]

    r.done = rounds.run(r.plan, command, r.staging / "rounds",
                          lambda cmd: _run_jmh(cmd, r.log)[1], log_to)
    for role, side in r.sides.items():
        files = [t for _, t in r.done if r.side_of.get(t) == side.name and t.is_file()]
        for f in files:
            read_json(f)
        if not files:
            failed = [s.error for s in r.plan.states.values() if s.error]
            raise HotpathError(f"nothing ran on {side.name}: "
                               + (failed[0] if failed else f"see {r.log.relative_to(ROOT)}")
                               + f"; {r.out} was left as it was")
        r.entries[role] = interleave.merge(files)
        r.written.results[role] = json.dumps(r.entries[role], indent=2).encode()
    if profile.samples_cpu:
        _collect_cpu(r, log_to)


def cpu_folder(r: BuildsRun, side_name: str) -> Path:
    """Where a side's timed forks write their CPU samples, while the run is staged."""
    return r.staging / "cpu" / slug(side_name)


def _collect_cpu(r: BuildsRun, log_to) -> None:
    """Both sides' CPU samples, each tied to its own forks, as the run's one file under the
    builds' names; samples that cannot be tied leave the run without them, said."""
    documents = []
    for role, side in r.sides.items():
        shown = next((_recorded(cmd, cpu_dir=r.staging / "cpu") for cmd, t in r.done
                      if r.side_of.get(t) == side.name), "")
        try:
            documents.append(cpu.collect(cpu_folder(r, side.name), r.entries[role], shown,
                                         side=side.name))
        except HotpathError as e:
            log_to(f"hotpath: warning: {r.name}: CPU samples left out: {e}")
            return
    r.written.put("cpu", runs.sites_text(runs.joined_sites(documents)).encode())


def manifest_of(r: BuildsRun, load: dict) -> dict:
    """The run's provenance (ab.json): both builds with every jar's SHA-256, the selection,
    every round's command and side, the plan's record of each row, the machine's load."""
    plan = r.plan
    return {
        "kind": "ab",
        "name": r.name,
        "started": r.started.isoformat(timespec="seconds"),
        "duration_s": round(time.monotonic() - r.t0, 1),
        "profile": r.profile.name,
        "profile_settings": r.profile.describe(),
        "selection": r.selection.record(),
        "sides": {role: {**s.record(), "results": r.written.layout.results(role),
                         "sha256": r.written.sha256(role),
                         "jmh_version": ", ".join(sorted({e.get("jmhVersion", "?")
                                                          for e in r.entries[role]})),
                         "memory": r.memory[role]}
                  for role, s in r.sides.items()},
        "one_sided": r.found.one_sided,
        "differences": differences(r.listings, r.entries, r.names, plan.rows),
        "failed": [{"benchmark": row.benchmark, "params": row.params_text, "on": s.failed_on,
                    "error": s.error}
                   for row, s in plan.states.items() if s.stopped == sequential.FAILED],
        "jvm_args": list(r.profile.jvm_args),
        "interleaved_rounds": [_recorded([*c[:-1], f"rounds/{t.name}"], cpu_dir=r.staging / "cpu")
                               for c, t in r.done],
        "round_sides": [r.side_of.get(t, "?") for _, t in r.done],
        "sequential": plan.record(),
        "machine_load": load,
        "invoked_as": shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        **({"shard": {**shards.record(r.shard), "machine": shards.machine_name()}} if r.shard else {}),
        **({"host_check": r.host.record()} if r.host else {}),
        **r.env,
    }


def add_pass(kind: passes.Kind, folder: Path, java: str = "java") -> Path:
    """A finished run of two builds (one made before the pass) given a pass of ``kind``
    (passes.KINDS): each side's rows in forks of their own, from the jars the run names, into
    ab.<kind>.json in the run's folder; its other files stay as they were. Where a jar is not the
    one the run measured (its SHA-256 differs: built again), the file says so, and the report
    with it."""
    from .profiles import PROFILES

    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise HotpathError(f"{folder}: not a run of two builds (no {MANIFEST})")
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    sides = {role: _side_of_record(manifest["sides"][role], role) for role in ROLES}
    finished = runs.load(folder, runs.BUILDS)
    log = ROOT / "target" / "jmh-logs" / f"{kind.name}-ab-{folder.name}.log"
    include = (manifest.get("selection") or {}).get("include", ".")
    rebuilt = [jar for role in ROLES for jar in _rebuilt(manifest["sides"][role])]
    shares = [added.Share(side, list(dict.fromkeys(RowKey.of_entry(e, None, side.name)
                                                   for e in finished.entries(role))),
                          listing(side, include, java), _stopping(role, side, log, kind.keeps_json),
                          side=side.name)
              for role, side in sides.items()]
    return added.add(kind, PROFILES.get(str(manifest.get("profile")), PROFILES["ab"]), folder,
                     runs.BUILDS, shares, log, java, added=f"after the run, by hotpath {kind.name} --ab",
                     **({"rebuilt": "the jars " + ", ".join(rebuilt) + " were built again since the "
                                    "run: not the bytes it measured"} if rebuilt else {}))


def _stopping(role: str, side: Side, log: Path, keeps_json: bool) -> Callable[[list[str]], None]:
    """A pass's JMH runner on one build whose failure stops the pass, naming the build and the log."""
    run = _run_or_stop(log, [], shlex.join, keeps_json)

    def jmh(cmd: list[str]) -> None:
        try:
            run(cmd)
        except _NotMeasured as e:
            raise HotpathError(f"{role} {side.name}: {e}; the JMH log is {log.relative_to(ROOT)}") from None
    return jmh


def _side_of_record(record: dict, role: str) -> Side:
    """A build as a run's provenance names it; its jars and folders must still be there."""
    entries = tuple((ROOT / e) if not Path(e).is_absolute() else Path(e) for e in record["entries"])
    missing = [str(e) for e in entries if not e.exists()]
    if missing:
        raise HotpathError(f"{role} {record['name']}: {', '.join(missing)} is missing: build it "
                           f"as the run did (its command is in {MANIFEST})")
    return Side(role=role, name=record["name"], given=record["given"], entries=entries,
                kind=record["kind"])


def _rebuilt(record: dict) -> list[str]:
    """A side's jars that are not the bytes the run measured (built again since)."""
    found = []
    for jar in record.get("jars", []):
        path = Path(jar["path"]) if Path(jar["path"]).is_absolute() else ROOT / jar["path"]
        if path.is_file() and sha256(path) != jar["sha256"]:
            found.append(f"{jar['path']} ({record['name']})")
    return found
