"""Benchmark profiles: how long and how often JMH runs. The one place they are defined."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .errors import UnknownNameError

#: Every fork gets the same fixed heap so that GC counts and times compare between variants,
#: pre-touched: without it, allocation-heavy benchmarks pay a page fault per fresh heap page
#: until the first pass through the heap (seen here: 4-5x slower allocating benchmarks).
JVM_ARGS: tuple[str, ...] = ("-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch")


@dataclass(frozen=True)
class Profile:
    name: str
    purpose: str
    forks: int
    warmup_iterations: int
    warmup_time: str
    measurement_iterations: int
    measurement_time: str
    #: -prof gc for heap B/op; our NativeAllocProfiler for native B/op (direct, zlib, other).
    profilers: tuple[str, ...] = ("gc", "hotpath.profiler.NativeAllocProfiler")
    #: Bisection resolution of the peak-live-heap measurement, % of the heap size.
    peak_resolution_pct: float = 2.0
    #: Run one fork per variant per round, alternating, and merge (hotpath.interleave).
    interleave: bool = False
    jvm_args: tuple[str, ...] = field(default=JVM_ARGS)

    def jmh_args(self, forks: int | None = None) -> list[str]:
        """JMH command-line options; they override the benchmarks' annotations."""
        args = [
            "-f", str(self.forks if forks is None else forks),
            "-wi", str(self.warmup_iterations), "-w", self.warmup_time,
            "-i", str(self.measurement_iterations), "-r", self.measurement_time,
            "-jvmArgsAppend", " ".join(self.jvm_args),
            # Fail on error: a benchmark that throws (e.g. a setup that finds the variants
            # disagree) stops the run instead of silently vanishing from the JSON.
            "-foe", "true",
        ]
        for profiler in self.profilers:
            args += ["-prof", profiler]
        return args

    def describe(self) -> str:
        return (
            f"{self.forks} fork(s) x ({self.warmup_iterations} x {self.warmup_time} warmup + "
            f"{self.measurement_iterations} x {self.measurement_time} measurement)"
            + (", variants interleaved fork by fork" if self.interleave else "")
        )


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            name="smoke",
            purpose="every benchmark runs briefly: proves that it runs, numbers mean little",
            forks=1, warmup_iterations=1, warmup_time="100 ms",
            measurement_iterations=2, measurement_time="100 ms", peak_resolution_pct=5.0,
        ),
        Profile(
            name="quick",
            purpose="the default: all five cases in about ten minutes on two cores",
            forks=2, warmup_iterations=2, warmup_time="200 ms",
            measurement_iterations=3, measurement_time="200 ms",
        ),
        Profile(
            name="full",
            purpose="verdicts that hold up: five forks, the write-ups' 3 x 1 s / 5 x 1 s",
            forks=5, warmup_iterations=3, warmup_time="1 s",
            measurement_iterations=5, measurement_time="1 s", interleave=True,
        ),
    )
}


#: The study's reference data set: the full profile, run once on the study's machine with
#: `make bench PROFILE=reference`, committed under data/reference/. No other profile writes there,
#: and `make report PROFILE=reference` renders it without benchmarking.
PROFILES["reference"] = replace(
    PROFILES["full"], name="reference",
    purpose="the committed reference data set (data/reference/): the full profile's settings; "
            "make report renders it without re-running",
)


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown profile {name!r}; known profiles: {', '.join(PROFILES)}"
        ) from None
