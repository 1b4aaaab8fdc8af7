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
#: An iteration whose probe took this many times the run's fastest or more ran on a slow host: ten
#: times the probe's own spread on a quiet one (its 90th percentile 1.01x its fastest); on a day
#: the host check read contended, it ran 1.1-1.34x slow for seconds in a third of the A/A's forks.
SLOW_PROBE = 1.1


@dataclass(frozen=True)
class Slow:
    """How many of some iterations the probe beside them ran SLOW_PROBE times the fastest or
    slower, and how slow at their median (in multiples of the fastest; NaN where none did)."""

    iterations: int
    slow: int
    slow_median: float


def slow_probes(probes: Iterable[float], fastest: float) -> Slow:
    """The slow iterations among ``probes`` (µs), against the ``fastest`` probe of their run (a
    time no iteration is slow against unless it is positive)."""
    probes = [float(p) for p in probes]
    slow = [p / fastest for p in probes if p >= SLOW_PROBE * fastest] if fastest > 0 else []
    return Slow(len(probes), len(slow), statistics.median(slow) if slow else math.nan)
