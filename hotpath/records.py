"""What hotpath records beside JMH's own figures, named once for every stage: measure writes it,
analyze and render read it.

- the allocation-site pass's collected file (``<case>.sites.json``): its format, and which of
  its stacks are JMH's harness rather than the code;
- the timed forks' CPU samples' collected file (``<case>.cpu.json``): its format;
- the host-speed probe (hotpath.profiler.HostSpeedProfiler): the secondary metric it records
  around every iteration, and when an iteration ran on a slow host.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Iterable

#: The collected sites file's format (its ``format`` field; hotpath.measure.sites writes it).
SITES_FORMAT = "hotpath allocation sites 1"
#: The collected CPU samples' format (hotpath.measure.cpu writes it, hotpath.analyze.cpu reads it).
CPU_FORMAT = "hotpath cpu samples 1"


def cpu_stacks(entry: dict) -> list[str]:
    """A collected row-side's stacks (its ``frames`` named once, each stack their indexes, root
    first) as ';'-joined frame names, in the order its forks' samples index them."""
    frames = entry["frames"]
    return [";".join(frames[i] for i in stack) for stack in entry["stacks"]]


#: JMH's own frames: a stack through one of them is the harness's allocation, not the code's.
JMH_FRAMES = "org/openjdk/jmh/"


def is_harness(stack: str) -> bool:
    """Whether a stack (from the benchmark stub's callee up, its type last) is JMH's own
    allocation inside the measured loop: in the stub itself, with no frame before its type, or
    through a JMH frame (the Blackhole), whoever called it."""
    calls = stack.split(";")[:-1]
    return not calls or any(f.startswith(JMH_FRAMES) for f in calls)


#: The host's speed around each iteration (µs): a fixed, cache-resident piece of work timed
#: before and after every iteration, outside its timed loop; what only the host can slow down.
PROBE_METRIC = "host.probe"
#: The host's full speed over some iterations: their probe's 10th percentile, the speed the host
#: held for a tenth of them, as a fork's figure is its 10th percentile. Not the fastest probe: on
#: the Intel Xeon of 2026-11-30 23:10 the probe ran up to 16% faster than its usual best in 3.5% of
#: the iterations, a burst the host did not hold, and against that minimum its usual speed read
#: slow beside 96% of them (docs/evidence/is-a-run-fit-to-be-the-reference.md). On every AMD EPYC
#: run committed the 10th percentile lies within 0.2% of the minimum.
FULL_SPEED_QUANTILE = 0.1
#: An iteration whose probe took this many times the full speed or more ran on a slow host: ten
#: times the probe's own spread on a quiet one (its 90th percentile 1.01x its full speed); on a day
#: the host check read contended, it ran 1.1-1.34x slow for seconds in a third of the A/A's forks.
SLOW_PROBE = 1.1


@dataclass(frozen=True)
class Slow:
    """How many of some iterations the probe beside them ran SLOW_PROBE times the full speed or
    slower, and how slow at their median (in multiples of the full speed; NaN where none did)."""

    iterations: int
    slow: int
    slow_median: float


def full_speed(probes: Iterable[float]) -> float:
    """The host's full speed over ``probes`` (µs): their FULL_SPEED_QUANTILE (NaN where none)."""
    values = [float(p) for p in probes]
    if len(values) < 2:
        return values[0] if values else math.nan
    return statistics.quantiles(values, n=round(1 / FULL_SPEED_QUANTILE), method="inclusive")[0]


def slow_probes(probes: Iterable[float], full: float) -> Slow:
    """The slow iterations among ``probes`` (µs), against the host's ``full`` speed over their run
    (``full_speed``; a time no iteration is slow against unless it is positive)."""
    probes = [float(p) for p in probes]
    slow = [p / full for p in probes if p >= SLOW_PROBE * full] if full > 0 else []
    return Slow(len(probes), len(slow), statistics.median(slow) if slow else math.nan)
