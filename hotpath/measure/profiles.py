"""Benchmark profiles: how long and how often JMH runs. The one place they are defined."""

from __future__ import annotations

import math
import re
from typing import Any
from dataclasses import dataclass, field, fields, is_dataclass, replace

from pathlib import Path

from . import sites
from ..stats import sequential, steady
from ..errors import HotpathError, UnknownNameError

#: Every fork gets the same fixed heap so that GC counts and times compare between variants,
#: pre-touched: without it, allocation-heavy benchmarks pay a page fault per fresh heap page
#: until the first pass through the heap (seen here: 4-5x slower allocating benchmarks).
JVM_ARGS: tuple[str, ...] = ("-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch")
#: What some benchmarks' @Fork annotations add (the released Ignite reads Buffer.address); a
#: run without forks must give the host JVM the same.
HOST_ARGS: tuple[str, ...] = ("--add-opens=java.base/java.nio=ALL-UNNAMED",)
#: Every fork that samples CPU runs with these: C2 then records where each inlined method's code
#: lies between safepoints too, so that a sampler loaded after the code was compiled names inlined
#: methods as themselves rather than the frame they were inlined into (the benchmark's, or JMH's
#: stub). What they cost the counted iterations: docs/evidence/what-the-cpu-sampler-costs.md.
DEBUG_ARGS: tuple[str, ...] = ("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints")


NATIVE_PROFILER = "hotpath.profiler.NativeAllocProfiler"
#: Page faults per op (faults.norm): two reads of /proc/self/stat per iteration, a counter as
#: cheap as -prof gc's. It shows the cost of first-touched memory that a low quantile of a fork's
#: iterations could step over (rowfigures.row_estimate).
FAULT_PROFILER = "hotpath.profiler.PageFaultProfiler"
#: The host's speed around each iteration (hotpath.records.PROBE_METRIC, µs), as cheap as the
#: page-fault counter's reads; what only the host can slow down, recorded beside the code's time.
PROBE_PROFILER = "hotpath.profiler.HostSpeedProfiler"
#: Profilers that hook allocations or sample stacks: they move what they sit beside (the
#: nativemem hook halved a malloc-heavy benchmark's throughput), so never in a timed fork.
ALLOCATION_HOOKING = (NATIVE_PROFILER, sites.PROFILER, "async", "stack", "perfasm", "perfnorm", "jfr", "dtraceasm")


def hooks_allocations(profiler: str) -> bool:
    return profiler.split(":", 1)[0] in ALLOCATION_HOOKING


@dataclass(frozen=True)
class MemoryPass:
    """The memory pass: forks of their own for what hooks every allocation (native B/op by
    origin: direct, zlib, other). Native B/op counts mallocs per op, which the JIT does not
    change (a Deflater's zlib state is malloc'd at any tier), so one fork with a short warmup
    and two short iterations suffice."""

    profilers: tuple[str, ...] = (NATIVE_PROFILER,)
    warmup_iterations: int = 2
    warmup_time: str = "500 ms"
    iterations: int = 2
    time: str = "500 ms"
    forks: int = 1
    #: The allocation-site pass (hotpath.measure.sites) in the memory pass's forks: two more
    #: warmup iterations, the second of them recorded allocation by allocation.
    sites: bool = True


@dataclass(frozen=True)
class CpuTail:
    """CPU samples in the timed forks of a sequential plan (hotpath.measure.cpu): the sampler's
    interval in ns of a thread's CPU, 0 for none, in ``iterations`` that each recorded fork runs
    after the ones its figure counts and that its results leave out. Never in a counted
    iteration: a sampled one costs about 1% (each start opens the sampler afresh) and nothing
    spills into the next (docs/evidence/what-the-cpu-sampler-costs.md)."""

    interval_ns: int = 0
    iterations: int = 0


@dataclass(frozen=True)
class Profile:
    name: str
    purpose: str
    forks: int
    warmup_iterations: int
    warmup_time: str
    measurement_iterations: int
    measurement_time: str
    #: Profilers in the timed forks: cheap counters only (-prof gc for heap B/op and GC time,
    #: hotpath's page-fault counter and host-speed probe).
    profilers: tuple[str, ...] = ("gc", FAULT_PROFILER, PROBE_PROFILER)
    #: The memory pass (forks of their own for what hooks every allocation) and its allocation
    #: sites.
    memory: MemoryPass = MemoryPass()
    #: CPU samples in the timed forks' tail.
    cpu: CpuTail = CpuTail()
    #: Bisection resolution of the peak-live-heap measurement, % of the heap size.
    peak_resolution_pct: float = 2.0
    #: Measure peak live heap per call where a case has it (zip).
    peaks: bool = True
    #: The sequential fork plan (hotpath.measure.forkplan): one fork per side of every open row per
    #: round, the variants alternating; ``forks`` is then the cap of a write-up row's forks per
    #: side, ``beyond_cap`` that of the floor and upstream rows, and ``budget`` the run's time.
    interleave: bool = False
    min_forks: int = 4
    #: Close a row at a look when its ratio and fork CV ask for more forks than its cap, rather
    #: than give it forks after the rows that can still be decided: its time goes to those.
    drop_out_of_reach: bool = False
    #: Every open row a fork a side in each round while the budget takes a round of them, rather
    #: than the rows whose first look fits first (the mechanisms profile: a decomposition sums over
    #: every variant, and at 6 minutes for writer's 14 rows the first looks of 2 left 11 at 1 fork).
    even_forks: bool = False
    beyond_cap: int = 8
    budget: str = ""
    #: Which rows: "all" (every benchmark x params x variant but the mechanisms' combinations,
    #: old+...: make mechanisms measures them), "writeups" (the rows the
    #: write-ups' tables name, data/claims/, and each case's headline row; old against the
    #: write-up's own variants) or "mechanisms" (the benchmarks whose variants are the patch's
    #: mechanisms, each combination against old: hotpath.measure.forkplan.MECHANISMS).
    rows: str = "all"
    #: Refuse to start while other processes use the machine (hotpath.machine).
    require_quiet: bool = False
    jvm_args: tuple[str, ...] = field(default=JVM_ARGS)
    #: The variants run (empty: every variant the benchmarks declare).
    variants: tuple[str, ...] = ()
    #: Timed forks recorded from their start: no unrecorded warmup, iterations of
    #: ``iteration_time`` from the first (-wi 0), so that each fork's steady state is found in
    #: its own series (hotpath.stats.steady) and its figures come from its steady segment. A row's
    #: first fork of each side runs ``scout_s``, long enough to see it settle; later forks run
    #: for the latest steady start its forks showed, ``margin_s``, and as many steady
    #: iterations as pay off, at most ``max_fork_s`` in all (hotpath.measure.forklength).
    recorded: bool = False
    iteration_time: str = "100 ms"
    scout_s: float = 3.0
    margin_s: float = 0.3
    min_steady_s: float = 0.5
    #: The most steady seconds a fork is given beyond its warmup, whatever Kalibera and Jones's
    #: trade-off asks for (None: up to ``max_fork_s``). A budgeted run needs ``min_forks`` per
    #: side before its first look, and its forks are spent on that count first.
    max_steady_s: float | None = None
    max_fork_s: float = 6.0
    #: A row whose forks have no steady state gets a next fork with room for the latest last
    #: level any of them began (a level that began at 1.2 s of a 2 s fork is found in a 2.7 s
    #: one); False: as long as the longest so far, the scout's at least. A short budget on a
    #: noisy host spends it on forks, not on room: there most forks find no steady state for
    #: the host's busy stretches, and room made 21 of 103 forks of a quick run 4 s long.
    room_for_late_levels: bool = True
    #: Committed recorded runs (paths under the project root) whose forks of the same rows set a
    #: row's first fork where they saw a slowdown too late for a scout (hotpath.measure.prior);
    #: empty: every first fork is a scout.
    prior_runs: tuple[str, ...] = ()
    #: JMH's -foe: a benchmark that throws stops the run (the cases: a setup that finds the
    #: variants disagree must stop everything); off for two builds, whose failing rows are
    #: named in the report while the others go on.
    fail_on_error: bool = True
    #: How a recorded fork's counted iterations make its figure (hotpath.stats.steady.ESTIMATES):
    #: the mean, or a low quantile that the host's interference, which only slows iterations
    #: down, moves least. Unrecorded forks (two or three iterations of a second) keep the mean.
    estimate: str = steady.MEAN

    def __post_init__(self):
        if self.estimate not in steady.ESTIMATES:
            raise UnknownNameError(f"profile {self.name!r}: unknown fork estimate {self.estimate!r}; "
                                   f"known: {', '.join(steady.ESTIMATES)}")
        hooking = [p for p in self.profilers if hooks_allocations(p)]
        if hooking:
            raise ValueError(f"profile {self.name!r}: {', '.join(hooking)} would run in timed "
                             f"forks; put it in the memory pass's profilers")

    @property
    def samples_cpu(self) -> bool:
        """Whether the timed forks take CPU samples: only recorded ones have a tail to take them in."""
        return self.recorded and self.cpu.interval_ns > 0 and self.cpu.iterations > 0

    def jmh_args(self, forks: int | None = None, variant_filter: bool = True,
                 java: str = "java", iterations: int | None = None,
                 cpu_dir: Path | None = None) -> list[str]:
        """The timing pass's JMH options; they override the benchmarks' annotations. An
        interleaved round names its one variant itself (``variant_filter=False``); a ``java``
        other than the default is the forks' JVM (JMH's -jvm). A recorded profile's forks run
        ``iterations`` iterations from their start (the plan chooses; default: a scout's), and
        where the profile samples CPU and ``cpu_dir`` is given, its tail of sampled iterations
        after them, the sampler writing there."""
        forks = self.forks if forks is None else forks
        if self.recorded:
            from . import cpu
            sampler = ((cpu.profiler_arg(cpu_dir, self.cpu.interval_ns, tail=self.cpu.iterations),)
                       if cpu_dir is not None and self.samples_cpu else ())
            return self._args(forks, 0, self.iteration_time,
                              (iterations or self.scout_iterations) + (self.cpu.iterations if sampler else 0),
                              self.iteration_time, (*self.profilers, *sampler),
                              variant_filter, java, DEBUG_ARGS if sampler else ())
        return self._args(forks, self.warmup_iterations, self.warmup_time,
                          self.measurement_iterations, self.measurement_time,
                          self.profilers, variant_filter, java)

    @property
    def iteration_s(self) -> float:
        from ..jmh import seconds

        return seconds(self.iteration_time)

    @property
    def fork_estimate_s(self) -> float:
        """What one benchmark's timing pass is expected to take before anything is measured: a
        scout (recorded) or the forks' warmup and measurement, and about a second of fork start."""
        from ..jmh import seconds

        if self.recorded:
            return self.scout_s + 1.0
        per_fork = (self.warmup_iterations * seconds(self.warmup_time)
                    + self.measurement_iterations * seconds(self.measurement_time) + 1.0)
        return max(self.forks, 1) * per_fork

    def budget_s(self, given: str | None = None) -> float:
        """The budget given, else the profile's, in seconds; math.inf where neither is."""
        return parse_budget(given or self.budget) or math.inf

    @property
    def scout_iterations(self) -> int:
        return math.ceil(round(self.scout_s / self.iteration_s, 6))

    def memory_args(self, java: str = "java", sites_dir: Path | None = None) -> list[str]:
        """The memory pass: one fork, a short warmup, native bytes per op; with ``sites_dir``,
        the allocation-site pass in the same forks (two more warmup iterations, and the JVM
        without TLABs: sites.JVM_ARGS)."""
        recorder = (sites.profiler_arg(sites_dir),) if sites_dir is not None and self.memory.sites else ()
        return self._args(self.memory.forks,
                          self.memory.warmup_iterations + (sites.EXTRA_WARMUPS if recorder else 0),
                          self.memory.warmup_time, self.memory.iterations, self.memory.time,
                          (*self.memory.profilers, *recorder), True, java, sites.JVM_ARGS if recorder else ())

    def sites_args(self, java: str, sites_dir: Path, forks: int) -> list[str]:
        """The allocation-site pass alone, for a finished run: the memory pass's forks and
        warmup with the site profiler only, and one short measured iteration to throw away."""
        return self._args(forks, self.memory.warmup_iterations + sites.EXTRA_WARMUPS,
                          self.memory.warmup_time, 1, self.memory.time,
                          (sites.profiler_arg(sites_dir),), False, java, sites.JVM_ARGS)

    def cpu_args(self, java: str, cpu_dir: Path, forks: int, iterations: int,
                 interval_ns: int) -> list[str]:
        """The CPU pass alone, for a finished run: forks recorded from their start in the
        profile's iterations (as the timed forks are), its counters and the sampler."""
        from . import cpu
        return self._args(forks, 0, self.iteration_time, iterations, self.iteration_time,
                          (*self.profilers, cpu.profiler_arg(cpu_dir, interval_ns)), False, java,
                          DEBUG_ARGS)

    def memory_java(self, java: str = "java", sites_dir: Path | None = None) -> list[str]:
        """The command that starts the memory pass's JMH (its JVM's arguments when it runs
        without forks)."""
        recorded = sites_dir is not None and self.memory.sites
        return self.java(self.memory.forks, java, sites.JVM_ARGS if recorded else ())

    def java(self, forks: int, java: str = "java", extra: tuple[str, ...] = ()) -> list[str]:
        """The command that starts JMH: without forks (-f 0) the benchmarks run in this JVM,
        which then needs the forks' JVM arguments itself. The harness runs on the forks' java."""
        return [java, *self.jvm_args, *extra, *HOST_ARGS] if forks == 0 else [java]

    def _args(self, forks: int, warmup_iterations: int, warmup_time: str, iterations: int,
              time: str, profilers: tuple[str, ...], variant_filter: bool,
              java: str, extra_jvm_args: tuple[str, ...] = ()) -> list[str]:
        args = [
            "-f", str(forks),
            "-wi", str(warmup_iterations), "-w", warmup_time,
            "-i", str(iterations), "-r", time,
            "-jvmArgsAppend", " ".join((*self.jvm_args, *extra_jvm_args)),
            # Fail on error: a benchmark that throws (e.g. a setup that finds the variants
            # disagree) stops the run instead of silently vanishing from the JSON.
            "-foe", "true" if self.fail_on_error else "false",
        ]
        for profiler in profilers:
            args += ["-prof", profiler]
        if forks and java != "java":
            args += ["-jvm", java]
        if self.variants and variant_filter:
            args += ["-p", f"variant={','.join(self.variants)}"]
        return args

    def describe(self) -> str:
        if self.recorded:
            return self._describe_recorded()
        forks = ("no forks (one JVM per pass)" if self.forks == 0 else
                 f"{self.min_forks} to {self.forks} forks per side as the verdicts need"
                 + (f" ({self.beyond_cap} for floor and upstream)" if self.rows == "all" else "")
                 if self.interleave else f"{self.forks} fork(s)")
        return (
            f"{forks} x ({self.warmup_iterations} x {self.warmup_time} warmup + "
            f"{self.measurement_iterations} x {self.measurement_time} measurement)"
            + (", variants interleaved fork by fork, a row closing when decided"
               + (f", budget {self.budget}" if self.budget else "") if self.interleave else "")
            + self._describe_rows_and_memory()
        )

    def _describe_rows_and_memory(self) -> str:
        return ((", the write-ups' rows only (old and the write-up's variants)"
                 if self.rows == "writeups" else
                 ", the patch's mechanisms only (each combination against old)" if self.rows == "mechanisms" else "")
                + (f", CPU samples every {self.cpu.interval_ns / 1e6:g} ms of a thread's CPU in "
                   f"{self.cpu.iterations} x {self.iteration_time} more of each timed fork, after the "
                   f"iterations it counts" if self.samples_cpu else "")
                + (f", variants {', '.join(self.variants)} only" if self.variants else "")
                + (f"; memory pass {self.memory.forks or 'no'} fork x ({self.memory.warmup_iterations} x "
                   f"{self.memory.warmup_time} warmup + {self.memory.iterations} x {self.memory.time})"
                   + (f", its allocation sites from {sites.EXTRA_WARMUPS} more warmup iterations"
                      if self.memory.sites else "")
                   if self.memory.profilers else ""))

    def _describe_recorded(self) -> str:
        forks = (f"{self.min_forks} to {self.forks} forks per side as the verdicts need"
                 + (f" ({self.beyond_cap} for floor and upstream)" if self.rows == "all" else ""))
        return (
            f"{forks}, each recorded from its start in {self.iteration_time} iterations (no "
            f"unrecorded warmup), its figures from its steady segment"
            + (f" (time: {steady.describe_estimate(self.estimate)}, the mean where the sides' "
               f"GC time differs)" if self.estimate != steady.MEAN else "")
            + f"; a row's first fork per "
            f"side {self.scout_s:g} s"
            + (f" (old's as long as a fork may run where its committed forks in "
               f"{', '.join(sorted({p.rsplit('/', 1)[0] + '/' for p in self.prior_runs}))} "
               f"slowed down later than a scout sees)" if self.prior_runs else "")
            + f", later ones its latest steady start + {self.margin_s:g} s + "
            f"the steady iterations that pay off (at least {self.min_steady_s:g} s"
            + (f", at most {self.max_steady_s:g} s" if self.max_steady_s is not None else "")
            + f"; at most {self.max_fork_s:g} s a fork), a side that slowed down as long as a fork "
            f"may run, variants interleaved fork by fork, a row closing when decided"
            + (f", budget {self.budget}" if self.budget else "")
            + self._describe_rows_and_memory()
        )


#: CPU samples in the timed forks: every 5 ms of a thread's CPU in 3 iterations after each fork's
#: counted ones, about 20 of the benchmark thread's samples an iteration, 60 a fork, for 0.3 s
#: a fork (the forks' own, not the reference's 10 ms: the tail's cost is in no figure).
TIMED_CPU = CpuTail(interval_ns=5_000_000, iterations=3)

PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            name="smoke",
            purpose="every benchmark runs briefly, in one JVM per pass (no forks): proves "
                    "that it runs, numbers mean little",
            # No warmup, and short iterations: a benchmark that runs is proved by its first
            # iterations, and make test pays for every one of some 190 benchmark x params x
            # variant rows (0.15 s a row at 2 x 50 ms; the five cases 104 s alone).
            forks=0, warmup_iterations=0, warmup_time="100 ms",
            measurement_iterations=2, measurement_time="50 ms", peak_resolution_pct=20.0,
            # Sites would add two warmups to each of the ~190 rows; make test holds the pass to
            # known answers on its own (tests/measure/test_site_pass.py).
            memory=MemoryPass(forks=0, warmup_iterations=0, warmup_time="100 ms", iterations=1,
                              time="50 ms", sites=False),
        ),
        Profile(
            name="quick",
            # The write-ups' own rows, old against the write-up's variants, in ten minutes from a
            # fresh clone: the sequential plan in a budget of 7 min 10 s of benchmarks for the
            # five cases, their memory passes included. It was 7 min 50 s with the timed forks'
            # CPU tails (0.3 s a fork); the memory passes two at a time took 56 s, not 88, and a
            # fresh clone's make report at 7 min 20 s still took 565 s of the 570 it may, so 10 s
            # more went to its margin. (The warmup and measurement fields below are what the
            # forks were before they were recorded; the A/A run of that design uses them.)
            purpose="the default: each write-up's own rows, every fork recorded from its start, "
                    "decided as far as a budget of seven minutes and ten seconds allows (all "
                    "five cases in ten minutes from a fresh clone)",
            forks=8, warmup_iterations=2, warmup_time="300 ms",
            measurement_iterations=2, measurement_time="200 ms", interleave=True,
            rows="writeups", budget="7m10s", peak_resolution_pct=5.0,
            # The first look at three forks per side: the rows that change by 25% or more
            # (13 of the 18) are decided a fork sooner, and the budget reaches more first looks.
            # The boundaries are calibrated for it (3.81 at three forks against 2.97 at four).
            min_forks=3,
            # Writer's primitiveFields, marshaller's stream and encoder's OBJ_MAP ask for 14 to
            # 792 forks at the reference's precision: their forks go to the rows that can be decided.
            drop_out_of_reach=True,
            # Recorded forks: the scout sees zip's buffered path settle (1-1.5 s) and old
            # writer's waves; later forks are as long as each row's own forks say.
            recorded=True, scout_s=2.0, margin_s=0.3, min_steady_s=0.5, max_steady_s=1.0,
            max_fork_s=4.0, room_for_late_levels=False,
            # Each fork by its 10th percentile (hotpath.stats.steady.figure): replayed on the
            # 2026-11-26 A/A's forks in 90 min, 40-41 of 54 rows same (19-23 by the mean), none
            # called faster or slower, a bound of 45 (32 by the mean).
            estimate="p10",
            # A 2 s scout sees old zip's MAP_1600B before it slows down (at 2.0 s): a row whose
            # forks in the 2026-11-26 A/A run slowed down that late starts with a 4 s fork.
            prior_runs=("data/aa-runs/2026-11-26/baseline.json", "data/aa-runs/2026-11-26/candidate.json"),
            # Native B/op counts mallocs per op: one JVM per variant, no forks, is enough.
            memory=MemoryPass(forks=0, warmup_iterations=1, warmup_time="200 ms", iterations=1,
                              time="200 ms"),
            cpu=TIMED_CPU,
        ),
        Profile(
            name="full",
            # Up to 24 forks per side for the write-ups' variants, 8 for floor and upstream (their
            # B/op is what they are for). The scout is 6 s: some rows still ran 15-47% slower
            # after 1-2 s than later, and old zip slows down after 1.5 s. (The warmup and
            # measurement fields are the reference's unrecorded forks: 3 x 1 s + 2 x 1 s.)
            purpose="verdicts that hold up: every row, 4 to 24 forks per side, each recorded "
                    "from its start, interleaved, a row closing when decided",
            forks=24, beyond_cap=8, warmup_iterations=3, warmup_time="1 s",
            measurement_iterations=2, measurement_time="1 s", interleave=True,
            require_quiet=True, budget="2h30m",
            recorded=True, scout_s=6.0, margin_s=0.5, min_steady_s=1.0, max_fork_s=8.0,
            estimate="p10", cpu=TIMED_CPU,
        ),
    )
}


#: The JDK x GC matrix (hotpath.runtimes): the write-up's change in every cell, in a sitting.
#: Per cell 4 to 12 forks per side, recorded from their start (the pilot: after 2 s, 31 of 40 rows
#: were within 10% of steady; a 4 s scout), old and the write-up's variant only (hotpath.measure.matrix),
#: the budget shared by the case's cells; native B/op per cell from a memory pass of
#: 1 x 200 ms + 1 x 200 ms (mallocs per op are counted, not timed).
PROFILES["matrix"] = replace(
    PROFILES["full"], name="matrix",
    purpose="the JDK x GC matrix (make matrix): per cell 4 to 12 forks per side, each "
            "recorded from its start, old and the write-up's variant, interleaved, a row closing "
            "when decided; written under data/matrix/",
    forks=12, warmup_iterations=2, measurement_time="500 ms", budget="1h",
    scout_s=4.0, max_fork_s=6.0,
    memory=replace(PROFILES["full"].memory, warmup_iterations=1, warmup_time="200 ms", iterations=1,
                   time="200 ms"),
    # Its forks take the timed forks' CPU tail (full's): the matrix report's time by frame per
    # cell, the collector's CPU per op on each collector. 0.3 s a fork of 4-6 s, in its budget.
)

#: Two builds of one benchmark source (hotpath.measure.ab: `make report BASELINE=master.jar
#: CANDIDATE=patch.jar`): the full profile's forks, 4 to 24 per side, the builds alternating
#: fork by fork, in a budget of 20 minutes unless given.
PROFILES["ab"] = replace(
    PROFILES["full"], name="ab",
    purpose="two builds (a master and a patched benchmark jar): 4 to 24 forks per side, each "
            "recorded from its start, the builds alternating fork by fork, a row closing when "
            "decided; budget 20 min unless given",
    budget="20m", require_quiet=False, fail_on_error=False,
)

#: The false-alarm run (make aa): identical code on both sides, the full profile's cap, forks
#: recorded from their start with the matrix's 4 s scout and steady windows as long as Kalibera
#: and Jones's trade-off asks, in about 90 minutes for the 54 write-up rows: the 2026-11-26 run
#: (data/aa-runs/2026-11-26/, by the mean: median fork CV 6.7%, 9 rows same) and, by the 10th
#: percentile with the CPU tail, the reference A/A (data/reference/aa/: 1.6%, 38 same;
#: docs/evidence/aa-days.md). Only time is asked about: no memory pass.
PROFILES["aa"] = replace(
    PROFILES["quick"], name="aa",
    purpose="the A/A run: old against old as two sides, 4 to 24 forks per side, each recorded "
            "from its start, alternating fork by fork, a row closing when decided",
    forks=24, budget="1h30m", memory=replace(PROFILES["quick"].memory, profilers=()), require_quiet=True, fail_on_error=False,
    scout_s=4.0, margin_s=0.5, min_steady_s=1.0, max_steady_s=None, max_fork_s=6.0,
    min_forks=4, prior_runs=(),  # its own forks are the prior's source
    room_for_late_levels=True,
    # Every row keeps its place in the queue: quick closes rows out of reach so that its few
    # minutes go to the next case, but the A/A's rows share one budget, and closed, 38 of 54
    # leave a third of it unspent (replayed on the 2026-11-26 A/A's forks: 16 rows same in 55 min
    # against 23 in 90 min; hotpath replay data/aa-runs/2026-11-26 --same-code).
    drop_out_of_reach=False,
)

#: Which part of the patch pays (make mechanisms): the benchmarks whose variants are a patch's
#: mechanisms, each alone and in combination (hotpath.measure.forkplan.MECHANISMS), every one against
#: old with the full profile's forks, 6 to 12 a side for every variant: a decomposition is a sum over
#: every variant, so each needs forks of its own before any row's later ones (a first try at 4 to 12
#: in 8 minutes gave the optimized rows 4 forks and the others 1, which splits nothing); in a budget
#: of 45 minutes unless given: marshaller's 28 rows ask for about 22 minutes before every row's first
#: look, and at 20 minutes 5 of its rows kept 1 fork; a row closes when decided, so that a run
#: ends when its rows have. No memory pass (mechanisms move heap B/op, which -prof gc counts in the
#: timed forks).
PROFILES["mechanisms"] = replace(
    PROFILES["full"], name="mechanisms",
    purpose="which part of the patch pays: each of the patch's mechanisms alone and in combination "
            "against old, 6 to 12 forks per side, each recorded from its start, interleaved, a row "
            "closing when decided; budget 45 min unless given",
    rows="mechanisms", forks=12, beyond_cap=12, min_forks=6, budget="45m", require_quiet=False,
    even_forks=True,
    memory=replace(PROFILES["full"].memory, profilers=()),
)

#: The study's reference data set: the full profile (recorded forks, each fork's 10th percentile,
#: the CPU tail with full debug information in the timed forks, so that its verdicts and frames come
#: from the same forks), run once on a quiet host with `make bench PROFILE=reference`, committed under
#: data/reference/. No other profile writes there, and `make report PROFILE=reference` renders it
#: without benchmarking. The committed run was made by the profile's earlier forks (unrecorded,
#: 3 x 1 s warmup + 2 x 1 s; its frames from make cpu's forks of their own); a run by these that
#: replaces it (make promote) keeps it in data/reference-runs/<its day>/
#: (docs/evidence/is-a-run-fit-to-be-the-reference.md).
PROFILES["reference"] = replace(
    PROFILES["full"], name="reference",
    purpose="the committed reference data set (data/reference/): the full profile's forks, 4 to 24 "
            "per side, each recorded from its start; make report renders it without re-running",
)


def with_settings(profile: Profile, settings: list[str]) -> Profile:
    """The profile with fields changed from "name=value" texts (a replay's --set): numbers,
    true/false, none, or text, as the field's current value is; a pass's own settings by its
    name and theirs (memory.forks=0, cpu.interval_ns=10000000)."""
    for text in settings:
        name, sep, value = text.partition("=")
        outer, dot, inner = name.strip().partition(".")
        try:
            if not sep or outer == "name" or (dot and not is_dataclass(getattr(profile, outer, None))):
                raise KeyError(outer)
            if dot:
                nested = getattr(profile, outer)
                profile = replace(profile, **{outer: replace(nested, **_setting(nested, inner, value, text))})
            else:
                profile = replace(profile, **_setting(profile, outer, value, text))
        except KeyError:
            known = [f.name for f in fields(Profile) if f.name != "name"]
            raise UnknownNameError(f"{text!r}: give FIELD=VALUE with a profile field (or a pass's, "
                                   f"as memory.forks); fields: {', '.join(sorted(known))}") from None
    return profile


def _setting(owner: Any, name: str, value: str, text: str) -> dict[str, Any]:
    """One field of ``owner`` read from ``value`` as its current value is typed."""
    if name not in {f.name for f in fields(owner)}:
        raise KeyError(name)
    current = getattr(owner, name)
    value = value.strip()
    try:
        if value.lower() == "none":
            return {name: None}
        if isinstance(current, bool):
            if value.lower() not in ("true", "false"):
                raise ValueError(value)
            return {name: value.lower() == "true"}
        if isinstance(current, int):
            return {name: int(value)}
        if isinstance(current, float) or current is None:
            return {name: float(value)}
        if isinstance(current, str):
            return {name: value}
        raise ValueError(value)
    except ValueError:
        raise UnknownNameError(f"{text!r}: {name} takes a value like {current!r}") from None


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown profile {name!r}; known profiles: {', '.join(PROFILES)}"
        ) from None


def designs() -> set[tuple[int, int]]:
    """The sequential designs (first look, cap) the profiles' rows take: the write-up's rows
    at the profile's forks, the floor's and upstream's at its ``beyond_cap``; and a comparison's
    default (hotpath.analyze.compare). The boundaries of these ship (``write_boundaries``)."""
    found = {(sequential.MIN_FORKS, sequential.DEFAULT_CAP)}
    for p in PROFILES.values():
        for cap in (p.forks, min(p.beyond_cap, p.forks)):
            if cap >= p.min_forks:
                found.add((p.min_forks, cap))
    return found


def write_boundaries() -> Path:
    """The shipped table of the profiles' boundaries (hotpath.stats.sequential.TABLE), simulated."""
    return sequential.write_table(designs())


def parse_budget(text: str | None, what: str = "budget") -> float | None:
    """'45m', '1h30m', '600s', '600' (seconds) -> seconds; '' or None -> None. ``what`` names
    the duration in the error."""
    if text is None or not str(text).strip():
        return None
    t = str(text).strip().lower()
    if re.fullmatch(r"\d+(\.\d+)?", t):
        return float(t)
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*(h|min|m|s)", t)
    if not parts or "".join(a + b for a, b in parts) != re.sub(r"\s+", "", t):
        raise HotpathError(f"cannot read the {what} {text!r}: give it as 45m, 1h30m, 90s or seconds")
    scale = {"h": 3600, "min": 60, "m": 60, "s": 1}
    return sum(float(a) * scale[b] for a, b in parts)


def format_duration(seconds: float) -> str:
    if math.isinf(seconds):
        return "no limit"
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return (f"{h} h {m:02d} min" if h else f"{m} min {s:02d} s" if m else f"{s} s")
