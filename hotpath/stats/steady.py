"""Steady state of one JMH fork: whether its per-iteration series settles, when, and at what.

A fork's iterations are not all alike: the JIT warms up, and some paths never settle (writer's
old path runs in waves of 10-24k ops/s as direct buffers wait for the Cleaner). A window fixed in
advance (JMH's warmup count) can then measure the warmup, or the top of a wave. Here each fork
is classified as Barrett et al. classify whole process executions ("Virtual Machine Warmup
Blows Hot and Cold", OOPSLA 2017; Traini et al., EMSE 2023, did the same for JMH suites):

- changepoints by PELT (``ruptures``' breakpoints, computed by :mod:`.pelt`) with an l2 cost
  on the log of the values, so that a step is a ratio wherever the level lies, and a penalty
  scaled by the fork's own noise, estimated robustly from the first differences;
- the trailing segments whose means lie within :data:`EQUIVALENT` of the last one are merged
  into the steady segment (Barrett et al.'s "equivalent" segments: PELT alone puts 4-11
  changepoints into a 60-iteration fork where the eye sees one or two, since steps of 1-3%
  are real changes to it, and none that matters);
- "flat" when the steady segment is the whole fork, "warmup" when no earlier segment was better
  than it, "slowdown" when one was, "no steady state" when the steady segment is too short to
  trust or the fork had been at that level before and left it: waves, and also a single
  excursion, since within one recording of a few seconds a wave of long period and one
  excursion cannot be told apart. PELT and merging alone took a wave's crest, the last 1.5 s
  of a writer fork, for a steady state.

Iterations far off their neighbours, up to three in a row (a GC pause, a descheduled thread),
are no change of level: they are replaced by their neighbours' median before PELT, but stay in
the steady means.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Sequence, TypeAlias

import numpy as np

from . import pelt
from ..jmh import higher_is_better, number, numbers, per_op, per_time, seconds, seconds_per_op

FLAT, WARMUP, SLOWDOWN, NO_STEADY_STATE = "flat", "warmup", "slowdown", "no steady state"
#: A fork whose code settled on a host that did not: its levels wander above one floor, the
#: code's own (see :data:`HOST_FLOOR`).
HOST_NOISE = "settled, host noisy"
KINDS = (FLAT, WARMUP, SLOWDOWN, HOST_NOISE, NO_STEADY_STATE)

#: PELT's shortest segment, in iterations (5 x 100 ms = 0.5 s). Five values make a mean that a
#: single outlier moves by a fifth of its excursion, and 0.5 s is the resolution at which the
#: start of a steady state is reported: finer than the 1 s iterations of the study's profiles.
MIN_SEGMENT = 5
#: Fewer iterations than two shortest segments cannot hold a change: classify() refuses them.
MIN_ITERATIONS = 2 * MIN_SEGMENT
#: PELT's penalty per changepoint, in units of sigma^2 ln n (sigma: the noise of one log value).
#: BIC's is 2 sigma^2 ln n for a change of mean; 3 asks for a little more, as 100 ms iterations
#: are correlated (a GC cycle spans several), which makes the white-noise penalty too cheap.
PENALTY = 3.0
#: A floor for sigma (0.5% of a value): a constant or coarsely quantized series has no first
#: differences to speak of (sigma = 0, a penalty of 0, a changepoint everywhere); 0.5% is below
#: any step that EQUIVALENT lets count, so the floor hides nothing that would be reported.
MIN_NOISE = 0.005
#: A spike: an iteration more than SPIKE_SIGMAS sigma from the median of its window, the
#: iteration and SPIKE_REACH on either side (a Hampel filter). Up to SPIKE_REACH iterations in
#: a row (0.3 s) are taken as one spike (a median of seven outlasts three outliers); anything
#: longer is a level, left to PELT. Three sigma is the Hampel filter's usual threshold: an
#: ordinary value lies that far out about once in 370, and replacing it by its window's median
#: moves its segment's level by a fraction of sigma, while a 100 ms iteration slowed by
#: another process on the machine (15-30% at a noise of 3-5%) would otherwise make a segment
#: of its own. At five sigma, recorded forks came out "slowdown" and "no steady state" on two
#: or three such iterations in a row that the eye reads as noise.
SPIKE_SIGMAS = 3.0
SPIKE_REACH = 3
#: Segments whose means differ by at most 5% are one level: the study's own threshold for
#: "same" (the value of hotpath.stats.sequential.THRESHOLD), and Barrett et al.'s merging of
#: equivalent segments. Also the margin by which an earlier segment must beat the steady one to
#: make a slowdown.
EQUIVALENT = 0.05
#: The steady segment must cover at least half of the fork: the level the fork spends most of
#: its recording at. Barrett et al. asked for a quarter (no changepoint in the last 500 of
#: 2000 iterations), but a quarter of a 60-iteration recording is 15 values, three shortest
#: segments: of 300 random walks of 3% steps, 18% ended that calm by chance, 7% at a half.
#: A steady state found later than half-way is "no steady state", with that reason: the
#: recording was too short to tell.
MIN_STEADY_SHARE = 0.5
#: The fork's first iterations never count, whatever class it gets: the first 100 ms hold class
#: loading and the first compilations (old zip LIST_1660K allocated 43.9 MB in its first
#: iteration against 11.55 MB/op in every later one, and a fork classed flat from 0.0 s took it
#: into its heap figure). Three iterations are what :func:`despiked` leaves alone as warmup.
UNCOUNTED = 3
#: Interference from other tenants only ever slows an iteration down, for seconds at a time;
#: code that keeps changing (writer's old path in waves, old zip's slowdown) moves its fastest
#: iterations too. A fork without a steady state whose fastest iteration in every window of
#: HOST_WINDOW_S (after its first 0.5 s, at least HOST_WINDOWS of them) stays within HOST_FLOOR
#: of the fastest of all has settled code on a wandering host. On the 2026-11-26 A/A's forks
#: without a steady state, about half of encoder's, store's and marshaller's (which settle by
#: 0.5 s on a quiet machine) come out so, and 5 of old writer's 66; old zip MAP_3K's and the
#: recorded writer-old forks do not.
HOST_FLOOR = 0.15
HOST_WINDOW_S = 0.5
HOST_WINDOWS = 3
#: A slowdown the code makes, not the host: a level this many times slower than every level
#: before it in the fork, to the fork's end. The host slows settled code by 10-40% for seconds;
#: on the 2026-11-26 A/A's forks the most any other path stayed slower was 1.57x, old zip
#: MAP_1600B's and MAP_3K's 1.95-5.2x; in a fresh clone's run with old at 2.3x the reference's
#: time, the host's reached 1.52x, zip's 1.68-3.3x.
SLOWED_REACH = 1.6

#: Per-iteration figures: a list of floats or an array of them.
Values: TypeAlias = "Sequence[float] | np.ndarray"


@dataclass(frozen=True)
class Segment:
    """Iterations first..last (inclusive) and their level: the mean of their values with
    spikes replaced (see :func:`despiked`), since a spike is no level; a fork's figures
    (:func:`summarize`) keep every value."""

    first: int
    last: int
    mean: float

    @property
    def iterations(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Steadiness:
    """One fork's class and where its steady segment starts.

    ``start`` is the index of the first steady iteration, ``start_s`` the seconds from the
    first recorded iteration's start to its start (iterations taken as back to back, which
    JMH's iterations are to within milliseconds); both None when there is no steady state.
    ``segments`` are the merged segments in order: the last is the steady one when there is a
    steady state, and with "no steady state" the last is the calm stretch that did not count.
    """

    kind: str
    start: int | None
    start_s: float | None
    segments: tuple[Segment, ...]
    #: Why "no steady state" (or "" otherwise), in words for a report.
    reason: str = ""

    def steady(self, series: Values) -> list[float]:
        """The steady segment's values of ``series`` (the classified one, or one aligned with
        it, such as a secondary metric's); [] when there is no steady state."""
        if self.start is None:
            return []
        return [float(v) for v in series[self.start:]]


def classify(series: Values, iteration_s: float,
             higher_is_better: bool = False) -> Steadiness:
    """Classify one fork's per-iteration scores (time per op, or ops per time unit with
    ``higher_is_better``) as flat, warmup, slowdown, settled on a noisy host or no steady state.

    Raises ValueError for fewer than :data:`MIN_ITERATIONS` values or a value that is not a
    positive finite number (a score of zero or NaN has no log, and no class to give)."""
    # the same fork is classified again and again (the A/A's thousand forks by every estimate,
    # a replay's draws): PELT is most of the time a report or a replay takes
    return _classify(tuple(float(v) for v in series), float(iteration_s), bool(higher_is_better))


@functools.lru_cache(maxsize=16384)
def _classify(series: tuple[float, ...], iteration_s: float, higher_is_better: bool) -> Steadiness:
    x = np.asarray(series, dtype=float)
    if len(x) < MIN_ITERATIONS:
        raise ValueError(f"{len(x)} iterations: a steady state needs at least {MIN_ITERATIONS} "
                         f"(two segments of {MIN_SEGMENT})")
    if not np.all(np.isfinite(x)) or np.any(x <= 0):
        raise ValueError("a steady state needs positive finite scores")
    y = np.log(x)
    sigma = noise(y)
    level = despiked(y, sigma)
    ends = pelt.breakpoints(level, MIN_SEGMENT, PENALTY * sigma ** 2 * math.log(len(y)))
    level = np.exp(level)
    raw = [Segment(a, b - 1, float(level[a:b].mean())) for a, b in zip([0, *ends[:-1]], ends)]

    cut = _steady_from(raw)
    steady, earlier = _merge(raw[cut:]), _merge_adjacent(raw[:cut])
    segments = (*earlier, steady)
    if not earlier:
        return Steadiness(FLAT, 0, 0.0, segments)
    if steady.iterations < MIN_STEADY_SHARE * len(x):
        return _unsettled(x, iteration_s, higher_is_better, segments,
                          f"the last level held {steady.iterations * iteration_s:.1f} s, "
                          f"less than {MIN_STEADY_SHARE:.0%} of the fork")
    returned = [s for s in earlier if _equivalent(s.mean, steady.mean)]
    if returned:
        s = returned[0]
        return _unsettled(x, iteration_s, higher_is_better, segments,
                          f"the fork was at its last level at {s.first * iteration_s:.1f}-"
                          f"{(s.last + 1) * iteration_s:.1f} s, left it and came back")
    better = [s for s in earlier if _better(s.mean, steady.mean, higher_is_better)]
    kind = SLOWDOWN if better else WARMUP
    return Steadiness(kind, steady.first, round(steady.first * iteration_s, 6), segments)


def _unsettled(x: np.ndarray, iteration_s: float, higher_is_better: bool,
               segments: tuple[Segment, ...], reason: str) -> Steadiness:
    """No steady state in the fork's levels: its code's, or the host's (see HOST_FLOOR)."""
    floor = host_floor_spread(x, iteration_s, higher_is_better)
    if floor <= HOST_FLOOR:
        return Steadiness(HOST_NOISE, None, None, segments,
                          f"its levels wandered ({reason}), but its fastest iteration in every "
                          f"{HOST_WINDOW_S:g} s stayed within {floor:.0%} of the fastest: the "
                          f"code settled, the host did not")
    return Steadiness(NO_STEADY_STATE, None, None, segments, reason)


def host_floor_spread(x: Values, iteration_s: float, higher_is_better: bool = False) -> float:
    """How far the fastest iteration of each HOST_WINDOW_S, after the fork's first MIN_SEGMENT
    iterations, rises above the fastest of all (0.1: 10%); infinite for a fork too short to
    hold HOST_WINDOWS such windows (a single trough of a slow wave would pass for a floor), or
    whose halves' fastest iterations differ by more than EQUIVALENT (a floor that drifts is code
    drifting)."""
    t = 1 / np.asarray(x, dtype=float) if higher_is_better else np.asarray(x, dtype=float)
    width = max(1, round(HOST_WINDOW_S / iteration_s))
    t = t[MIN_SEGMENT:]
    windows = len(t) // width
    if windows < HOST_WINDOWS:
        return math.inf
    half = len(t) // 2
    if not _equivalent(t[:half].min(), t[half:].min()):
        return math.inf
    floors = np.array([t[k * width:(k + 1) * width].min() for k in range(windows)])
    return float(floors.max() / floors.min() - 1)


def noise(y: np.ndarray) -> float:
    """The noise (sigma) of one log value, robustly: the median absolute deviation of the first
    differences over 0.6745 sqrt 2 (a difference of two independent values has sqrt 2 their
    sigma; a level's slow drift cancels in a difference, and steps and spikes are a few of the
    differences, which barely move their median), floored at MIN_NOISE."""
    d = np.diff(y)
    mad = float(np.median(np.abs(d - np.median(d)))) if len(d) else 0.0
    return max(mad / (0.6745 * math.sqrt(2)), MIN_NOISE)


def despiked(y: np.ndarray, sigma: float) -> np.ndarray:
    """``y`` with each spike (see SPIKE_SIGMAS) replaced by the median of its window.

    The window is the iteration and SPIKE_REACH on either side, shifted inwards at the end so
    that it always holds an odd number of values (at a step, the median of an even number
    would be the midpoint, and both sides of the step would look like spikes). The fork's
    first SPIKE_REACH iterations are left alone: slow first iterations are the warmup this
    module is there to find, not noise."""
    width = 2 * SPIKE_REACH + 1
    medians = np.median(np.lib.stride_tricks.sliding_window_view(y, width), axis=1)
    at = np.arange(SPIKE_REACH, len(y))
    centre = medians[np.minimum(at - SPIKE_REACH, len(y) - width)]
    spikes = np.abs(y[at] - centre) > SPIKE_SIGMAS * sigma
    out = np.array(y, dtype=float)
    out[at[spikes]] = centre[spikes]
    return out


def _equivalent(a: float, b: float) -> bool:
    return abs(a / b - 1) <= EQUIVALENT


def _better(earlier: float, steady: float, higher_is_better: bool) -> bool:
    """Whether an earlier level beat the steady one by more than EQUIVALENT."""
    return earlier > steady * (1 + EQUIVALENT) if higher_is_better \
        else earlier < steady * (1 - EQUIVALENT)


def _steady_from(raw: list[Segment]) -> int:
    """Index of the first of the trailing segments equivalent to the last one."""
    i = len(raw) - 1
    while i > 0 and _equivalent(raw[i - 1].mean, raw[-1].mean):
        i -= 1
    return i


def _merge(segments: Sequence[Segment]) -> Segment:
    """Adjacent segments as one, its mean weighted by their lengths."""
    total = sum(s.iterations for s in segments)
    mean = sum(s.mean * s.iterations for s in segments) / total
    return Segment(segments[0].first, segments[-1].last, mean)


def _merge_adjacent(segments: Sequence[Segment]) -> list[Segment]:
    """Runs of neighbours equivalent to the run's mean so far, each as one segment."""
    out: list[Segment] = []
    for s in segments:
        if out and _equivalent(s.mean, out[-1].mean):
            out[-1] = _merge([out[-1], s])
        else:
            out.append(s)
    return out


# -- a JMH result's forks ---------------------------------------------------------------------

#: The secondaries read by default: heap B/op, and collections and their milliseconds per
#: iteration (-prof gc).
def _matchable(secondaries: dict[str, Any], forks: int) -> dict[str, list[Any] | None]:
    """Each secondary's rawData, where it can be matched fork by fork: one list per fork of the
    primary (None otherwise)."""
    by_name = {name: (metric or {}).get("rawData") for name, metric in secondaries.items()}
    return {name: raw if raw and len(raw) == forks else None for name, raw in by_name.items()}


def _per_iteration(by_name: dict[str, list[Any] | None], name: str, fork: int,
                   iterations: int) -> list[float] | None:
    """A secondary's values of one fork, one per primary iteration; None if they cannot be
    matched. JMH's GC profiler writes gc.time only for iterations whose collection count or
    time changed (and not at all in a run without a collection), so its rawData is shorter
    than the fork: when it holds as many values as iterations with gc.count > 0, they are those
    iterations' and the others' are 0 ms."""
    values = _raw(by_name, name, fork)
    if values is not None and len(values) == iterations:
        return values
    counts = _raw(by_name, "gc.count", fork)
    if name == "gc.time" and counts is not None and len(counts) == iterations:
        if values is None and "gc.time" not in by_name:
            values = []
        if values is not None and sum(1 for c in counts if c) == len(values):
            times = iter(values)
            return [next(times) if c else 0.0 for c in counts]
    return None


def _raw(by_name: dict[str, list[Any] | None], name: str, fork: int) -> list[float] | None:
    raw = by_name.get(name)
    return numbers(raw[fork]) if raw is not None else None


def _mean(values: Values) -> float:
    return float(np.mean(values)) if len(values) else math.nan


# -- a fork's figure ---------------------------------------------------------------------------

#: The kind of a fork whose warmup was not recorded (JMH's own warmup iterations, as in the
#: reference run): all its measurement iterations count, as they always did.
NOT_RECORDED = "not recorded"


#: How a fork's counted iterations make its figure (a profile's ``estimate``). The host's
#: interference only ever slows an iteration down, for seconds at a time, in old and new alike:
#: a low quantile of a fork's iterations measures its code with the least of that delay (Chen and
#: Revels, "Robust benchmarking in noisy environments", HPEC 2016, model a timing as a baseline
#: plus positive delays). On the 2026-11-26 A/A's 108 row-sides the median fork CV was 6.6% by the
#: mean, 5.9% by the median, 3.4% by the 25th percentile, 2.5% by the 10th and 1.9% by the
#: minimum (docs/method.md, "The fork's estimate"); the 10th percentile is adopted: the minimum
#: of a fork rests on one iteration. The quantile is of time per op: for throughput, the
#: complementary one.
MEAN = "mean"
QUANTILES = {"median": 0.5, "p25": 0.25, "p10": 0.10, "min": 0.0}
ESTIMATES = (MEAN, *QUANTILES)
#: What a page fault costs at the least: a trap, a zeroed 4 KiB page, a page-table entry. It
#: turns hotpath's faults.norm into a share of time, as gc.time is one. KnownPageFaultBenchmark
#: measured about 2.2 µs a fault on the study's machine (docs/method.md, "The fork's estimate");
#: the rule takes a quarter of that, so that faults turn a row to the mean only where they surely
#: cost time.
FAULT_COST_S = 0.5e-6


def figure(values: Values, estimate: str = MEAN, higher_is_better: bool = False) -> float:
    """One fork's figure from its counted iterations' scores, by ``estimate``."""
    x = np.asarray(values, dtype=float)
    if not len(x):
        return math.nan
    if estimate == MEAN:
        return float(x.mean())
    if estimate not in QUANTILES:
        raise ValueError(f"unknown fork estimate {estimate!r}; known: {', '.join(ESTIMATES)}")
    q = QUANTILES[estimate]
    return float(np.quantile(x, 1 - q if higher_is_better else q))


def describe_estimate(estimate: str) -> str:
    """The estimate as a report names it."""
    if estimate == MEAN:
        return "each fork's mean over its counted iterations"
    if estimate == "min":
        return "each fork's fastest counted iteration"
    if estimate == "median":
        return "each fork's median counted iteration"
    return f"each fork's {estimate[1:]}th percentile of time per op over its counted iterations"


def fault_shares(faults_per_op: Values, scores: Values, unit: str) -> list[float]:
    """Each iteration's share of its time in page faults, at FAULT_COST_S a fault, from its
    faults per op (faults.norm) and its score; NaN where the unit is neither time per op nor ops
    per time."""
    timed = per_op(unit) or per_time(unit)
    out = []
    for f, v in zip(faults_per_op, scores):
        f, v = number(f), number(v)
        out.append(f * FAULT_COST_S / seconds_per_op(v, unit) if timed and v > 0 else math.nan)
    return out


@dataclass(frozen=True)
class Fork:
    """What one fork contributes: ``value``, its figure by the estimate asked for over its
    iterations from ``first`` on (its steady segment, never its first UNCOUNTED iterations; for a
    fork without a steady state, its second half, waves and all, and the row says so), ``mean``
    their mean, with the class and start it was found to have, and ``spread``, the standard
    deviation of the log of those iterations (the in-fork noise the fork length is chosen on).
    ``last_level_s`` is where the fork's last level began: its steady start, or for a fork
    without a steady state the calm stretch that was too short to count (a longer fork may
    find it steady). ``gc_share``: the share of those iterations' time in GC pauses (NaN where
    -prof gc gave no gc.time to match); ``fault_share``: in page faults, at FAULT_COST_S a fault
    (NaN where no faults.norm matched)."""

    value: float
    kind: str
    start_s: float | None
    iterations: int
    first: int
    spread: float
    reason: str = ""
    last_level_s: float | None = None
    mean: float = math.nan
    gc_share: float = math.nan
    iteration_s: float = math.nan
    fault_share: float = math.nan
    #: Where the fork got slower than it had been at any time before, its warmup included (see
    #: :func:`slowed_at`); None where it never did.
    slowed_s: float | None = None

    @property
    def window(self) -> int:
        return self.iterations - self.first

    @property
    def settled(self) -> bool:
        return self.kind in (FLAT, WARMUP, SLOWDOWN, HOST_NOISE)

    @property
    def length_s(self) -> float:
        return self.iterations * self.iteration_s


def slowed_at(st: Steadiness, iteration_s: float, higher_is_better: bool = False) -> float | None:
    """Where a fork whose code did not settle on its best level (a slowdown, or no steady state)
    went to a level SLOWED_REACH times slower than it had been at any time before, its warmup
    included, and stayed there to the fork's end (every later segment at least that slow): the
    start of the first such segment. Old zip MAP_3K's forks in the A/A got there at 2.1-2.7 s
    and came back only part of the way; a host's busy stretch lifts a level by less and ends."""
    if st.kind not in (SLOWDOWN, NO_STEADY_STATE):
        return None
    sign = -1.0 if higher_is_better else 1.0
    levels = [sign * math.log(s.mean) for s in st.segments]
    for j in range(1, len(levels)):
        if min(levels[j:]) - min(levels[:j]) > math.log(SLOWED_REACH):
            return round(st.segments[j].first * iteration_s, 6)
    return None


def before_slowdown(forks: Sequence[Fork]) -> list[bool]:
    """Which of one side's forks ended before a slowdown that another fork of the side showed:
    forks that did not slow down themselves and ran less than a shortest segment past the
    earliest such slowdown. Old zip's MAP_3K runs at about 100 us/op until 2-2.5 s, then at
    200-350: a fork of 2 s is a figure of the level before, and a verdict on such forks is a
    verdict on a path the row does not stay on."""
    starts = [f.slowed_s for f in forks if f.slowed_s is not None]
    if not starts:
        return [False] * len(forks)
    at = min(starts)
    return [f.slowed_s is None and f.length_s < at + MIN_SEGMENT * f.iteration_s - 1e-9
            for f in forks]


def recorded(entry: dict[str, Any]) -> bool:
    """A JMH result whose forks were recorded from their start: no warmup iterations (JMH's
    JSON keeps only measurement iterations, so a warmup is only seen when it is measured), and
    enough iterations to show a change (a smoke run's two iterations without warmup show none)."""
    return ("warmupIterations" in entry and int(entry["warmupIterations"] or 0) == 0
            and int(entry.get("measurementIterations") or 0) >= MIN_ITERATIONS)


def window_start(st: Steadiness, iterations: int, slowed: int | None = None) -> int:
    """The first iteration that counts: the steady segment's, or half-way without one (the
    second half of a fork that never settled: its waves are its cost, and its start is not), or
    for one that slowed down later than half-way, its slowdown's (``slowed``, an index: the
    slowed level is the path the row stays on), and never one of the fork's first UNCOUNTED."""
    start = st.start if st.start is not None else iterations // 2
    if st.start is None and slowed is not None and slowed <= iterations - MIN_SEGMENT:
        start = max(start, slowed)
    return max(start, min(UNCOUNTED, iterations - 1))


def summarize(values: Values, iteration_s: float, higher_is_better: bool,
              is_recorded: bool = True, estimate: str = MEAN,
              gc_ms: Values | None = None,
              faults: Values | None = None) -> Fork:
    """One fork's figure from its per-iteration scores (and its iterations' GC milliseconds and
    shares of time in page faults: fault_shares)."""
    x = np.asarray(values, dtype=float)
    if not is_recorded or len(x) < MIN_ITERATIONS:
        kind = NOT_RECORDED if not is_recorded else NO_STEADY_STATE
        reason = "" if not is_recorded else f"{len(x)} iterations, too few to tell"
        # unrecorded forks are a few long iterations: their mean, whatever the estimate
        return Fork(figure(x, MEAN if not is_recorded else estimate, higher_is_better), kind, None,
                    len(x), 0, _log_sd(x),
                    reason, mean=_mean(x), gc_share=_gc_share(gc_ms, 0, iteration_s),
                    iteration_s=iteration_s, fault_share=_counted_mean(faults, 0))
    st = classify(x, iteration_s, higher_is_better)
    slowed_s = slowed_at(st, iteration_s, higher_is_better)
    first = window_start(st, len(x), None if slowed_s is None else round(slowed_s / iteration_s))
    return Fork(figure(x[first:], estimate, higher_is_better), st.kind, st.start_s, len(x), first,
                _log_sd(x[first:]), st.reason, round(st.segments[-1].first * iteration_s, 6),
                mean=_mean(x[first:]), gc_share=_gc_share(gc_ms, first, iteration_s),
                iteration_s=iteration_s, slowed_s=slowed_s, fault_share=_counted_mean(faults, first))


def _gc_share(gc_ms: Values | None, first: int, iteration_s: float) -> float:
    if gc_ms is None or len(gc_ms) <= first or not iteration_s > 0:
        return math.nan
    counted = np.asarray(gc_ms[first:], dtype=float)
    return float(counted.sum() / (len(counted) * iteration_s * 1e3))


def _counted_mean(values: Values | None, first: int) -> float:
    if values is None or len(values) <= first:
        return math.nan
    counted = np.asarray(values[first:], dtype=float)
    counted = counted[np.isfinite(counted)]
    return float(counted.mean()) if len(counted) else math.nan


def entry_forks(entry: dict[str, Any], estimate: str = MEAN) -> list[Fork]:
    """Each fork of one JMH JSON entry, summarized on its primary metric by ``estimate``, with
    its GC time share where -prof gc's gc.time can be matched to its iterations, and its share
    in page faults where hotpath's faults.norm can."""
    primary = entry["primaryMetric"]
    higher = higher_is_better(str(primary.get("scoreUnit", "")))
    iteration_s = seconds(entry.get("measurementTime"))
    forks = [fork for fork in primary.get("rawData") or [] if fork]
    by_name = _matchable({name.lstrip("·"): metric
                          for name, metric in (entry.get("secondaryMetrics") or {}).items()},
                         len(forks))
    unit = str(primary.get("scoreUnit", ""))
    out = []
    for k, fork in enumerate(forks):
        faults = _per_iteration(by_name, "faults.norm", k, len(fork))
        out.append(summarize(numbers(fork), iteration_s, higher, recorded(entry), estimate,
                             _per_iteration(by_name, "gc.time", k, len(fork)),
                             None if faults is None else fault_shares(faults, fork, unit)))
    return out


def aligned(secondaries: dict[str, Any], name: str, forks: list[Fork]) -> list[list[float]] | None:
    """A secondary metric's values per fork, one per primary iteration (so that the primary's
    windows cut them); None where they cannot be matched, and the metric is then left whole."""
    by_name = _matchable(secondaries, len(forks))
    out = []
    for k, fork in enumerate(forks):
        values = _per_iteration(by_name, name, k, fork.iterations)
        if values is None:
            return None
        out.append(values)
    return out


def _log_sd(x: Values) -> float:
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x) & (x > 0)]
    return float(np.std(np.log(x), ddof=1)) if len(x) > 1 else math.nan
