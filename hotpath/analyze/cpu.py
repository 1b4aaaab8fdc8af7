"""Where the time went: a run's CPU samples (``<case>.cpu.json``, taken in its timed forks)
as time per op by frame, old against new, with intervals.

A fork's samples of the benchmark's thread, over the iterations its figure counts, divide its
time per op among frames: a frame's time per op in that fork is its share of the thread's samples
times the fork's time per op. A share hardly moves when the host slows a whole fork (that
slowdown is in the fork's time, spread over every frame alike), so frames can decide where a
row's time cannot. Forks are the replicates: a frame's change, new - old, is Welch's interval
over the sides' forks (hotpath.stats.shares), and the frames called changed are those the
Benjamini-Hochberg procedure keeps at a 5% false discovery rate across the row's frames. The
share of the row's change a frame explains is ΔX/ΔT with Fieller's interval.

A frame is counted two ways: *self* (the samples it was running: they add up to the row's time)
and *total* (the samples it was on the stack: itself and its callees, each sample once however
often the frame recurs). Frames are named as the allocation sites are (``ByteArrayList.ensure``),
a variant's own model class named as the other's (``OldMemcacheEncoder`` and
``OptimizedMemcacheEncoder`` are one place); kernel frames keep their names (``clear_page_erms``).

The collector's threads and the compiler's are set apart: their CPU per op (their samples times
the interval over the counted operations) is what the write-ups' allocation cuts save and a check
that the code had settled. *Coverage* says how much of a row's time per op the benchmark thread's
samples account for (samples × interval over operations, against the time): below 1 the thread
was off the CPU for the rest (a GC pause stops it, the host takes its vCPU), which the
attribution spreads over the frames by their shares.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import ResultsError
from ..numbertext import three_figures
from ..jmh import ns_per_op, params_text, side_of
from ..paths import cpu_of
from ..records import CPU_FORMAT, cpu_stacks
from ..stats import shares
from .sites import common_name, short

#: Which thread a stack's root names. The benchmark's thread is JMH's worker.
BENCHMARK, GC, JIT, OTHER = "benchmark", "gc", "jit", "other"
_GC_THREADS = re.compile(r"^\[(GC Thread|G1 |Z[A-Z]|X[A-Z]|Parallel|Shenandoah|Conc|CMS)")
_JIT_THREADS = re.compile(r"^\[(C1 |C2 |JVMCI|Sweeper)")
#: The VM thread runs the collector's safepoint operations among others.
_GC_FRAMES = re.compile(r"VM_G1|VM_GC|VM_Gen|VM_Parallel|VM_CollectFor|CollectedHeap::|G1CollectedHeap")
#: A frame's time is tested where both sides together sampled it this often. Below it, a fork
#: holds 0, 1 or 2 of its samples: their spread is the sampler's counting, not the forks', Welch's
#: t does not hold on such counts, and one fork's burst of a rare frame would be called a change.
MIN_SAMPLES = 10
#: The false discovery rate across a row's frames.
FDR = 0.05
#: Coverage this far from 1 is said, with why (the check asks for the frames' sum within 10%).
COVERAGE_TOLERANCE = 0.10
#: A fork's tail (the sampled iterations after its counted ones) that ran further from its counted
#: time per op than this many of the row's fork spreads (the forks' standard deviation of log time,
#: pooled within sides), and than TAIL_FLOOR, is set aside: its samples were taken on a machine
#: running otherwise than when the fork's figure was counted, which that figure then divides.
TAIL_SPREADS = 3.0
#: The tail runs the sampler (1.6-2.9% slower, docs/evidence/what-the-cpu-sampler-costs.md) over 3
#: iterations, not a fork's 20 or more: closer than this is never set aside.
TAIL_FLOOR = 0.10

FRAME_COLUMNS = ["frame", "how", "old_ns", "new_ns", "delta_ns", "low_ns", "high_ns", "p",
                 "decided", "share", "share_low", "share_high", "samples"]


def thread_of(stack: str) -> str:
    """The kind of thread a stack ran on, by its root (the thread's name)."""
    root, _, rest = stack.partition(";")
    if "jmh-worker" in root:
        return BENCHMARK
    if _GC_THREADS.match(root) or (root.startswith("[VM Thread") and _GC_FRAMES.search(rest)):
        return GC
    if _JIT_THREADS.match(root):
        return JIT
    return OTHER


def frame_name(frame: str, variants: tuple[str, ...] = ()) -> str:
    """A frame as a report names it: a Java method short (``Arrays.copyOf``), a kernel frame
    marked, a native one as it is; each variant's own class named as one."""
    return _frame_name(frame, tuple(variants))


@functools.lru_cache(maxsize=1 << 16)
def _frame_name(frame: str, variants: tuple[str, ...]) -> str:
    # a row's stacks name the same few hundred frames tens of thousands of times
    kernel = frame.endswith("_[k]")
    frame = re.sub(r"_\[[a-z0-9]\]$", "", frame)
    if "/" in frame and "::" not in frame and not frame.startswith(("[", "/")) and "." in frame:
        frame = short(frame)
    elif frame.startswith("/") and "/" in frame[1:]:
        frame = frame.rsplit("/", 1)[-1]  # a library without symbols: its file's name
    if kernel:
        frame += " [kernel]"
    # each variant's own model class, and an enum constant's body (Variant$1, Variant$2), as one
    return re.sub(r"\$\d+(?=\.|$)", "$…", common_name(frame, variants)) if variants else frame


@dataclass(frozen=True)
class Profiles:
    """A run's CPU samples: per row-side, its forks and its stacks (raw, as recorded)."""

    source: Path | None
    #: one row per row-side: benchmark, params (text), variant, engine, interval_ns, and the
    #: entry as recorded (stacks, forks)
    sides: pd.DataFrame
    engine: str = ""
    recorded: str = ""

    @property
    def measured(self) -> bool:
        return not self.sides.empty

    def entry(self, benchmark: str, params: str, variant: str) -> dict | None:
        return self._entries.get((benchmark, params, variant))

    @functools.cached_property
    def _entries(self) -> dict[tuple[str, str, str], dict]:
        # a report asks for its row-sides hundreds of times: one index, not a filter each time
        found: dict[tuple[str, str, str], dict] = {}
        for key, entry in zip(zip(self.sides["benchmark"], self.sides["params"], self.sides["variant"]),
                              self.sides["entry"]):
            found.setdefault(key, entry)
        return found

    def own_forks(self, benchmark: str, params: str, variant: str) -> bool:
        """Whether a row-side was sampled in forks of its own (make cpu), not in its timed forks'
        tails: its time per op is then those forks', not the verdict's."""
        return "tail" not in (self.entry(benchmark, params, variant) or {})


EMPTY = Profiles(None, pd.DataFrame(columns=["benchmark", "params", "variant", "engine",
                                             "interval_ns", "entry"]))


def read(results: str | Path) -> Profiles:
    """The CPU samples beside a results file; EMPTY where none were taken."""
    path = cpu_of(Path(results))
    return read_file(path) if path.is_file() else EMPTY


def read_file(path: Path) -> Profiles:
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ResultsError(f"{path}: truncated or corrupt JSON ({e.msg})") from None
    if not isinstance(document, dict) or document.get("format") != CPU_FORMAT:
        raise ResultsError(f"{path}: not a file of CPU samples ({CPU_FORMAT!r})")
    rows = []
    for entry in document["entries"]:
        params, variant = side_of(entry)
        if not entry.get("forks"):
            raise ResultsError(f"{path}: {entry['benchmark']} has no forks")
        rows.append({"benchmark": entry["benchmark"], "params": params_text(params), "variant": variant,
                     "engine": entry.get("engine", ""), "interval_ns": int(entry["interval_ns"]),
                     "entry": entry})
    return Profiles(Path(path), pd.DataFrame(rows, columns=EMPTY.sides.columns),
                    document.get("engine", ""), document.get("recorded", ""))


@dataclass(frozen=True)
class Side:
    """One row-side's forks: each fork's time per op (ns), the benchmark thread's samples, the
    collector's and the compiler's CPU per op, the coverage, and each frame's time per op.

    The coverage is the share of the row's time the benchmark's thread was on the CPU, which is
    all its frames can account for: by the thread's own CPU clock where the profiler read it
    (``clocked``), else by its samples, which miss up to one interval of every iteration (each
    iteration starts the sampler's count afresh)."""

    time_ns: np.ndarray
    samples: np.ndarray
    gc_ns: np.ndarray
    jit_ns: np.ndarray
    coverage: np.ndarray
    #: frames x forks, ns/op: self and total
    self_ns: pd.DataFrame
    total_ns: pd.DataFrame
    #: frames x forks: the benchmark thread's samples (self and total)
    self_samples: pd.DataFrame = field(default_factory=pd.DataFrame)
    total_samples: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: the benchmark thread's stacks (frame names, root excluded) x forks: samples
    stacks: pd.DataFrame = field(default_factory=pd.DataFrame)
    clocked: bool = False

    @property
    def forks(self) -> int:
        return len(self.time_ns)


#: What a fork's frames divide: its time per op (the row's figure), or the benchmark thread's
#: CPU per op by its own clock, which the host's stolen seconds do not move (a known-answer
#: fork slowed 1.7x by the host kept its CPU per op within 1%: docs/evidence/do-the-frames-add-up.md).
TIME, CPU = "time", "cpu"


def _counted(entry: dict, names: list[str], variants: tuple[str, ...]) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """A row-side's samples per fork: the benchmark thread's, GC's and the JIT's, and the
    benchmark thread's by leaf frame (self), by every frame on the stack (total) and by stack.
    Each stack's samples per fork are summed first, then each stack is named and counted once:
    the counts are whole numbers, so this order of summing gives the same floats as any."""
    k = len(entry["forks"])
    by_stack: dict[int, np.ndarray] = {}
    for j, fork in enumerate(entry["forks"]):
        for index, n in fork["samples"]:
            if index not in by_stack:
                by_stack[index] = np.zeros(k)
            by_stack[index][j] += n
    samples, gc, jit = np.zeros(k), np.zeros(k), np.zeros(k)
    self_counts: dict[str, np.ndarray] = {}
    total_counts: dict[str, np.ndarray] = {}
    stack_counts: dict[str, np.ndarray] = {}
    for index, counts in by_stack.items():
        kind = thread_of(names[index])
        if kind == GC:
            gc += counts
        elif kind == JIT:
            jit += counts
        if kind != BENCHMARK:
            continue
        samples += counts
        chain = [frame_name(f, variants) for f in names[index].split(";")[1:]] or ["(the thread alone)"]
        for to, name in ((self_counts, chain[-1]), (stack_counts, ";".join(chain)),
                         *((total_counts, name) for name in set(chain))):
            if name in to:
                to[name] += counts
            else:
                to[name] = counts.copy()
    return samples, gc, jit, self_counts, total_counts, stack_counts


def side(entry: dict, variants: tuple[str, ...] = (), basis: str = TIME) -> Side:
    """A row-side's forks as time per op by frame (``variants``: the row's two, named as one);
    with ``basis`` CPU, as the benchmark thread's CPU per op, where every fork read its clock."""
    interval = float(entry["interval_ns"])
    names = cpu_stacks(entry)
    k = len(entry["forks"])
    time_ns = np.array([float(f["time_ns"]) for f in entry["forks"]])
    ops = np.array([float(f["ops"]) for f in entry["forks"]])
    samples, gc, jit, self_counts, total_counts, stack_counts = _counted(entry, names, variants)
    if (samples == 0).any() or (ops <= 0).any():
        raise ResultsError(f"{entry['benchmark']}: a fork without samples of the benchmark's thread "
                           "or without operations: its time cannot be divided among frames")
    per_op = interval / ops

    def frame(counts: dict[str, np.ndarray]) -> pd.DataFrame:
        if not counts:
            return pd.DataFrame.from_dict(counts, orient="index", columns=range(k))
        named = sorted(counts)  # (one array, not a row per frame: a frame each way, 1,200 in a render)
        return pd.DataFrame(np.array([counts[n] for n in named]), index=named, columns=range(k))

    clocked = all(f.get("cpu_ns", -1) > 0 for f in entry["forks"])
    on_cpu = (np.array([f["cpu_ns"] for f in entry["forks"]], dtype=float) / ops if clocked
              else samples * per_op)
    # what the thread's CPU is set against: the sampled iterations' own time (a tail's, after
    # the counted ones), which the frames' shares then divide as the fork's counted time
    sampled_ns = np.array([float(f.get("sampled_time_ns", f["time_ns"])) for f in entry["forks"]])
    if basis == CPU:
        if not clocked:
            raise ResultsError(f"{entry['benchmark']}: a fork without the thread's CPU clock: "
                               "its CPU per op is not known")
        time_ns = on_cpu.copy()
        sampled_ns = on_cpu.copy()
    self_samples, total_samples = frame(self_counts), frame(total_counts)
    scale = time_ns / samples
    return Side(time_ns, samples, gc * per_op, jit * per_op, on_cpu / sampled_ns,
                self_samples * scale, total_samples * scale, self_samples, total_samples,
                frame(stack_counts), clocked)


@dataclass(frozen=True)
class Attribution:
    """A row's time, old against new, by frame."""

    old: Side
    new: Side
    #: the row's time per op, new - old (its fork means, as the frames are summed)
    time: shares.Difference
    gc: shares.Difference
    jit: shares.Difference
    #: per frame and way of counting (FRAME_COLUMNS), the biggest change first
    frames: pd.DataFrame
    engine: str = ""
    interval_ns: int = 0
    #: per side, old and new, the forks whose tail parted from their counted time (tails_apart):
    #: their indexes in the side's recorded forks, left out of everything above
    set_aside: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    #: how far (a ratio's log) a tail could part from its fork's counted time and be kept
    tail_tolerance: float = math.nan

    def decided(self, how: str = "self") -> pd.DataFrame:
        f = self.frames
        return f[(f["how"] == how) & f["decided"]]

    def parts_from(self, old_ns: float, new_ns: float) -> bool:
        """Whether the frames' row time parts from the verdict's figures (``verdict_ns``) by more
        than VERDICT_GAP on either side: a low quantile of each fork's iterations, against the
        mean of them the frames sum to."""
        return all(math.isfinite(x) and x > 0 for x in (old_ns, new_ns)) and (
            abs(self.time.old / old_ns - 1) > VERDICT_GAP or abs(self.time.new / new_ns - 1) > VERDICT_GAP)


#: The frames' row time and the verdict's are said apart where they differ by more than this.
VERDICT_GAP = 0.05


def verdict_ns(pair: pd.Series) -> tuple[float, float]:
    """A row's verdict figures, old and new, as ns per op (a throughput's reciprocal); NaN where
    the unit is neither."""
    try:
        old, new = (ns_per_op(float(pair.get(k, math.nan)), str(pair.get("unit", "")))
                    for k in ("old_score", "new_score"))
    except ResultsError:
        return math.nan, math.nan
    return old, new


@dataclass(frozen=True)
class Frame:
    """A frame of a row, counted one way: its time per op old against new with the change's
    interval (``p`` NaN where too few samples to test it), whether the change is decided, and
    the share of the row's change it explains."""

    name: str
    change: shares.Difference
    share: shares.Share
    decided: bool
    samples: int


def frames_of(a: Attribution, how: str = "self") -> tuple[Frame, ...]:
    """A row's frames counted ``how``, as its attribution orders them: the decided first, the
    biggest change first."""
    f = a.frames[a.frames["how"] == how]
    return tuple(Frame(str(r.frame), shares.Difference(*map(float, (r.old_ns, r.new_ns, r.low_ns, r.high_ns, r.p))),
                       shares.Share(*map(float, (r.share, r.share_low, r.share_high))), bool(r.decided),
                       int(r.samples))
                 for r in f.itertuples(index=False))


def _frame_rows(how: str, old: Side, new: Side) -> list[dict]:
    a, b = (old.self_ns, new.self_ns) if how == "self" else (old.total_ns, new.total_ns)
    ca, cb = ((old.self_samples, new.self_samples) if how == "self"
              else (old.total_samples, new.total_samples))
    rows = []
    names = sorted(set(a.index) | set(b.index))
    # every frame's forks at once: a frame one side never ran in is 0 in each of its forks
    xs_old, xs_new = (f.reindex(names, fill_value=0.0).to_numpy(float) for f in (a, b))
    seen_all = sum(c.reindex(names, fill_value=0).sum(axis=1).to_numpy() for c in (ca, cb))
    changes = shares.differences(xs_old, xs_new)
    explained = shares.shares_of(xs_old, old.time_ns, xs_new, new.time_ns)
    for name, d, s, seen in zip(names, changes, explained, seen_all):
        seen = int(seen)
        rows.append({"frame": name, "how": how, "old_ns": d.old, "new_ns": d.new,
                     "delta_ns": d.delta, "low_ns": d.low, "high_ns": d.high,
                     "p": d.p if seen >= MIN_SAMPLES else math.nan, "decided": False,
                     "share": s.share, "share_low": s.low, "share_high": s.high, "samples": seen})
    return rows


def tails_apart(entries: list[dict]) -> tuple[list[tuple[int, ...]], float]:
    """Per side's entry, the forks whose tail (their sampled iterations, after the counted ones)
    ran further from their counted time per op than the row's forks run from each other: more
    than TAIL_SPREADS of their spread (pooled within sides, as log time) and than TAIL_FLOOR.
    Forks sampled in their counted iterations (no tail) are never apart, nor any where the forks
    are too few to tell their spread (two degrees of freedom) or a side would keep fewer than two:
    there the row's forks are what there is. Returns them with the tolerance (a log ratio)."""
    logs = [np.log([float(f["time_ns"]) for f in e["forks"]]) for e in entries]
    df = sum(len(x) - 1 for x in logs)
    spread = math.sqrt(sum(float(((x - x.mean()) ** 2).sum()) for x in logs) / df) if df > 0 else 0.0
    tolerance = max(TAIL_SPREADS * spread, math.log1p(TAIL_FLOOR))
    apart = []
    for e in entries:
        gone = tuple(k for k, f in enumerate(e["forks"]) if "sampled_time_ns" in f and
                     abs(math.log(float(f["sampled_time_ns"]) / float(f["time_ns"]))) > tolerance)
        apart.append(gone if df >= 2 and len(e["forks"]) - len(gone) >= 2 else ())
    return apart, tolerance


def attribute(profiles: Profiles, benchmark: str, params: str, old: str, new: str,
              rate: float = FDR, basis: str = TIME) -> Attribution:
    """A row's frames, ``old`` against ``new``: each frame's time per op on each side, its
    change with a 95% interval, whether the change is decided (Benjamini-Hochberg at ``rate``
    across the row's frames counted that way), and the share of the row's change it explains;
    ``basis``: what the frames divide (TIME or CPU)."""
    found = [profiles.entry(benchmark, params, v) for v in (old, new)]
    missing = [v for v, e in zip((old, new), found) if e is None]
    sampled = [e for e in found if e is not None]
    if missing:
        raise ResultsError(f"{benchmark}({params}): no CPU samples of {', '.join(missing)}")
    variants = (old, new)
    apart, tolerance = tails_apart(sampled)
    entries = [{**e, "forks": [f for k, f in enumerate(e["forks"]) if k not in gone]}
               for e, gone in zip(sampled, apart)]
    a, b = (side(e, variants, basis) for e in entries)
    tables = []
    for how in ("self", "total"):
        t = pd.DataFrame(_frame_rows(how, a, b), columns=FRAME_COLUMNS)
        t["decided"] = shares.benjamini_hochberg(t["p"].to_numpy(), rate)
        tables.append(t)
    frames = pd.concat(tables, ignore_index=True)
    frames = frames.assign(size=-frames["delta_ns"].abs()).sort_values(
        ["how", "decided", "size", "frame"], ascending=[False, False, True, True], kind="stable")
    return Attribution(a, b, shares.difference(a.time_ns, b.time_ns),
                       shares.difference(a.gc_ns, b.gc_ns), shares.difference(a.jit_ns, b.jit_ns),
                       frames.drop(columns="size").reset_index(drop=True),
                       entries[1].get("engine", ""), int(entries[1]["interval_ns"]),
                       (apart[0], apart[1]), tolerance)


@dataclass(frozen=True)
class SampledRow:
    """A report's row whose two sides were sampled: its frames (self time) old against new, or,
    where its samples could not be divided, why not."""

    #: the row as the report's pairs hold it (benchmark, params, baseline, candidate, ...)
    pair: pd.Series = field(compare=False)
    attribution: Attribution | None
    #: the attribution's frames by self time, the decided first, the biggest change first
    frames: tuple[Frame, ...] = ()
    why_not: str = ""
    #: sampled in forks of their own (make cpu), not in the verdict's forks (Profiles.own_forks)
    own_forks: bool = False


def sampled_rows(pairs: pd.DataFrame, profiles: Profiles) -> tuple[SampledRow, ...]:
    """The report's rows whose two sides the timed forks sampled, in the pairs' order, each
    attributed (a row whose samples cannot be divided, a fork without the benchmark thread's
    samples, says why in the error's words)."""
    out = []
    for _, p in pairs.iterrows():
        key = (p["benchmark"], p["params"])
        if profiles.entry(*key, p["baseline"]) is None or profiles.entry(*key, p["candidate"]) is None:
            continue
        own = profiles.own_forks(*key, p["candidate"])
        try:
            a = attribute(profiles, *key, p["baseline"], p["candidate"])
        except ResultsError as e:
            out.append(SampledRow(p, None, why_not=str(e).split(": ", 1)[-1], own_forks=own))
            continue
        out.append(SampledRow(p, a, frames_of(a), own_forks=own))
    return tuple(out)


#: How a mechanism's frames are counted: *self*, the samples whose running (leaf) frame matches
#: (the copy stubs, Arrays.copyOf, the fault handlers: the work itself), or *total*, every
#: stack through a matching frame (a method and all it calls), each sample once.
SELF, TOTAL = "self", "total"
#: Frames that hold more than this share of both sides' samples are not a mechanism's: both
#: sides spend most of their time under them (a caller, the benchmark itself), so they would
#: "explain" any change at all.
SPECIFIC = 0.5


class UnspecificFrames(ResultsError):
    """A mechanism's frames hold most of both sides' samples: they name a caller of the work."""


@dataclass(frozen=True)
class Mechanism:
    """A mechanism's frames on a row: their time per op old against new, the share of the row's
    change they explain, and the share of each side's samples they hold."""

    pattern: str
    how: str
    change: shares.Difference
    part: shares.Share
    held_old: float
    held_new: float

    @property
    def found(self) -> bool:
        return self.held_old > 0 or self.held_new > 0


def matching(s: Side, pattern: str, how: str = TOTAL) -> np.ndarray:
    """Per fork, the benchmark thread's samples in frames matching ``pattern`` (a regular
    expression on the frames' names): their leaf frame (SELF) or any frame of their stack
    (TOTAL), each sample once."""
    if how not in (SELF, TOTAL):
        raise ValueError(f"frames are counted {SELF!r} or {TOTAL!r}, not {how!r}")
    rx = re.compile(pattern)
    hit = [stack for stack in s.stacks.index
           if (rx.search(stack.rsplit(";", 1)[-1]) if how == SELF
               else any(rx.search(f) for f in stack.split(";")))]
    return s.stacks.loc[hit].sum(axis=0).to_numpy(float) if hit else np.zeros(s.forks)


def mechanism(attribution: Attribution, pattern: str, how: str = TOTAL) -> Mechanism:
    """How the frames matching ``pattern`` (counted ``how``) changed, in ns/op new - old, and
    what share of the row's change they explain: a write-up's mechanism set against the time
    it saved. Frames holding more than SPECIFIC of both sides' samples are refused
    (UnspecificFrames): they name a caller, which would explain any change."""
    a = attribution
    counts = [matching(s, pattern, how) for s in (a.old, a.new)]
    held = [float(c.sum() / s.samples.sum()) for c, s in zip(counts, (a.old, a.new))]
    if min(held) > SPECIFIC:
        raise UnspecificFrames(
            f"the frames matching `{pattern}` ({how}) hold {held[0]:.0%} of the old side's samples "
            f"and {held[1]:.0%} of the new side's: they name code both sides spend most of their "
            f"time in (a caller of the mechanism), not the mechanism's own work")
    x_old, x_new = (c * s.time_ns / s.samples for c, s in zip(counts, (a.old, a.new)))
    return Mechanism(pattern, how, shares.difference(x_old, x_new),
                     shares.share(x_old, a.old.time_ns, x_new, a.new.time_ns), *held)


def coverage_note(s: Side) -> str:
    """Why a side's samples account for less (or more) of its time than COVERAGE_TOLERANCE
    allows; empty where they account for it."""
    c = float(np.mean(s.coverage))
    if abs(c - 1) <= COVERAGE_TOLERANCE:
        return ""
    if not s.clocked:
        return (f"the benchmark thread's samples account for {c:.0%} of its time (its CPU clock "
                "was not read: samples miss up to one interval of every iteration)")
    if c < 1:
        off, gc = (1 - c) * float(np.mean(s.time_ns)), float(np.mean(s.gc_ns))
        why = (f"the collector's threads took {three_figures(gc)} ns/op of CPU meanwhile, against "
               f"{three_figures(off)} ns/op waited: its pauses stop the thread" if gc >= off / 2 else
               f"not for the collector, which took only {three_figures(gc)} ns/op of CPU against "
               f"{three_figures(off)} ns/op waited: the thread slept or blocked (in the code, a lock or the "
               "kernel), or the host took its vCPU")
        return f"the benchmark's thread was on the CPU for {c:.0%} of its time: {why}"
    return (f"the benchmark's threads took {c:.0%} of the row's time in CPU: more than one thread "
            "ran it, or its CPU ran beyond the iteration's timed window")


def leading(profiles: Profiles, benchmark: str, params: str, variant: str,
            count: int = 3) -> list[tuple[str, float]]:
    """A row-side's frames that took most of the benchmark thread's samples (self), each with
    its mean share over the forks: what a machine spends the side's time on. Empty where the
    side was not sampled."""
    entry = profiles.entry(benchmark, params, variant)
    if entry is None:
        return []
    try:
        s = side(entry)
    except ResultsError:
        return []
    shares_ = (s.self_samples / s.samples).mean(axis=1).sort_values(ascending=False, kind="stable")
    return [(str(name), float(v)) for name, v in shares_.head(count).items()]


def frames_called(profiles: Profiles, pairs: pd.DataFrame, how: str = "self") -> pd.DataFrame:
    """Per row of ``pairs`` whose two sides were sampled: its forks (the fewer of its two
    sides'), how many of its frames were tested, how many called changed (decided), and the
    row's time verdict. On identical code (the A/A
    run) every frame called is a false discovery: their share of the tested frames is the
    attribution's false-frame rate. On a noisy run, the rows whose frames decide where their
    time does not (*undecided*) are what the frames' shares add."""
    rows = []
    for _, p in pairs.iterrows():
        if any(profiles.entry(p["benchmark"], p["params"], v) is None
               for v in (p["baseline"], p["candidate"])):
            continue
        try:
            a = attribute(profiles, p["benchmark"], p["params"], p["baseline"], p["candidate"])
        except ResultsError:
            continue
        f = a.frames[(a.frames["how"] == how) & a.frames["p"].notna()]
        rows.append({"benchmark": p["benchmark"], "params": p["params"], "candidate": p["candidate"],
                     "forks": min(a.old.forks, a.new.forks), "tested": len(f),
                     "called": int(f["decided"].sum()), "verdict": p.get("verdict", "")})
    return pd.DataFrame(rows, columns=["benchmark", "params", "candidate", "forks", "tested", "called",
                                       "verdict"])
