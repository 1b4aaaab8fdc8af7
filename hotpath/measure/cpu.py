"""The CPU samples of a run's forks: ``hotpath.profiler.CpuProfiler`` samples every thread of
each fork and writes one file per fork (its iterations' samples, scores and operations);
``collect`` turns a folder of them into ``<case>.cpu.json`` beside the run's JMH files.

In a run's timed forks the sampler takes a *tail*: iterations it samples after those the fork's
figure counts, which the results leave out (hotpath.tail.counted); in forks of its
own (``make cpu``) it samples every iteration. Each file is tied to its fork in the JMH results by
its counted iterations' scores (the same numbers JMH wrote), and those are found as the verdict
finds them (hotpath.stats.steady): the fork's time per op is theirs, and its samples are the
tail's, or, in forks of their own, those of the counted iterations.
Per row-side the document keeps each fork's counted operations, time per op and samples by
stack, its thread's name at the root of each stack, so that the analysis can tell the
benchmark's thread, the collector's and the compiler's apart (hotpath.analyze.cpu).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ResultsError
from ..jmh import ns_per_op
from ..records import CPU_FORMAT
from ..runs import site_order
from ..stats import steady

PROFILER = "hotpath.profiler.CpuProfiler"
#: The profiler's file format (its first line); the collected file's is CPU_FORMAT.
FORK_HEADER = "# hotpath cpu samples 1"
#: The frame every measured operation passes through: JMH's generated stub loop. The frames
#: below it (the harness's runner) are the same for every row and are dropped.
STUB = "_jmhStub"
#: 10 ms of a thread's CPU between samples (the profiler's default).
INTERVAL_NS = 10_000_000


def profiler_arg(folder: Path, interval_ns: int = INTERVAL_NS, event: str = "", tail: int = 0) -> str:
    """The sampler's -prof option; ``tail``: only a fork's last so many iterations sampled."""
    return (f"{PROFILER}:dir={folder};interval={interval_ns}"
            + (f";event={event}" if event else "") + (f";tail={tail}" if tail else ""))


def read_fork(path: Path) -> dict[str, Any]:
    """One fork's file: its benchmark, params, engine, interval, and per measurement iteration
    its operations, score, unit, sampled window, the benchmark threads' CPU time in it (-1 where
    not known) and samples by stack (each a ';'-joined string, its thread's name first)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != FORK_HEADER:
        raise ResultsError(f"{path}: not a CPU-sample file of {PROFILER} ({FORK_HEADER!r})")
    head: dict[str, Any] = {"benchmark": "", "params": {}, "jvm": "", "engine": "", "interval_ns": 0,
                            "tail": 0}
    frames: dict[str, str] = {}
    stacks: dict[str, str] = {}
    iterations: list[dict[str, Any]] = []
    try:
        for line in lines[1:]:
            cells = line.split("\t")
            kind = cells[0]
            if kind == "frame":
                frames[cells[1]] = cells[2]
            elif kind == "stack":
                stacks[cells[1]] = ";".join(frames[f] for f in cells[2].split(" "))
            elif kind == "samples":
                counts = iterations[-1]["samples"]
                counts[stacks[cells[1]]] = counts.get(stacks[cells[1]], 0) + int(cells[2])
            elif kind == "iteration":
                fields = dict(zip(cells[2::2], cells[3::2]))
                sampled = fields.get("sampled", "1") != "0"
                iterations.append({"ops": int(fields["ops"]), "score": float(fields["score"]),
                                   "unit": fields["unit"], "sampled": sampled,
                                   "window_ns": int(fields["window_ns"]) if sampled else 0,
                                   "cpu_ns": int(fields.get("cpu_ns", -1)), "samples": {}})
            elif kind in ("benchmark", "jvm", "engine"):
                head[kind] = cells[1]
            elif kind in ("interval_ns", "tail"):
                head[kind] = int(cells[1])
            elif kind == "param":
                head["params"][cells[1]] = cells[2]
    except (IndexError, KeyError, ValueError) as e:
        raise ResultsError(f"{path}: a malformed line in CPU samples ({e!r})") from None
    if not head["benchmark"] or not iterations or head["interval_ns"] <= 0:
        raise ResultsError(f"{path}: no benchmark, interval or iterations recorded")
    tail = head["tail"]
    if tail and (len(iterations) <= tail or [it["sampled"] for it in iterations]
                 != [False] * (len(iterations) - tail) + [True] * tail):
        raise ResultsError(f"{path}: its sampled iterations are not the last {tail}")
    return {**head, "iterations": iterations}


def trimmed(stack: str) -> str:
    """A stack from the benchmark's stub up, its thread's name kept at the root: the harness's
    frames below the stub are every row's alike."""
    frames = stack.split(";")
    for i, frame in enumerate(frames):
        if STUB in frame:
            return ";".join([frames[0], *frames[i:]])
    return stack


def _entries_by_row(entries: list[dict]) -> dict[tuple, dict]:
    return {(e["benchmark"], tuple(sorted((e.get("params") or {}).items()))): e for e in entries}


def _fork_of(entry: dict, scores: list[float]) -> int | None:
    """Which of the entry's forks recorded these (counted) iteration scores."""
    for k, raw in enumerate(entry["primaryMetric"].get("rawData") or []):
        if len(raw) == len(scores) and all(float(a) == b for a, b in zip(raw, scores)):
            return k
    return None


def counted(fork: dict, entry: dict, index: int) -> dict[str, Any]:
    """A fork's counted iterations' mean time per op (ns, ``time_ns``), and its sampled ones
    summed: their operations, window, the benchmark threads' CPU time (where every iteration
    knows it) and samples by stack (trimmed). In a tail's fork the sampled iterations follow the
    counted ones, and their own time per op is ``sampled_time_ns``; else they are the counted."""
    first = steady.entry_forks(entry)[index].first if steady.recorded(entry) else 0
    tail = fork.get("tail", 0)
    its = fork["iterations"]
    kept = its[first:len(its) - tail]
    sampled = its[len(its) - tail:] if tail else kept
    samples: dict[str, int] = {}
    for it in sampled:
        for stack, n in it["samples"].items():
            key = trimmed(stack)
            samples[key] = samples.get(key, 0) + n

    def mean_ns(iterations: list[dict]) -> float:
        return sum(ns_per_op(it["score"], it["unit"]) for it in iterations) / len(iterations)

    cpu = [it.get("cpu_ns", -1) for it in sampled]
    return {"fork": index, "first": first, "iterations": len(its) - tail,
            **({"tail": tail, "sampled_time_ns": mean_ns(sampled)} if tail else {}),
            "ops": sum(it["ops"] for it in sampled), "time_ns": mean_ns(kept),
            "window_ns": sum(it["window_ns"] for it in sampled),
            **({"cpu_ns": sum(cpu)} if min(cpu) >= 0 else {}), "samples": samples}


#: Where the samples were taken, as the collected file says: in the run's timed forks (a tail
#: of iterations after the counted ones), or in forks of their own added to a finished run
#: (hotpath.measure.added, its pass registered in hotpath.measure.passes.KINDS).
TIMED = ("in each timed fork, in iterations it ran after those its figure counts (the sampler "
         "never ran in a counted one; their time per op is the fork's)")
OWN_FORKS = ("in forks of their own added to the finished run, recorded from their start as "
             "timed forks are (each fork's time per op its own, not the verdict's forks')")


def collect(folder: Path, results: list[dict], command: str, side: str = "",
            benchmarks: set[str] | None = None, where: str = TIMED) -> dict:
    """Every fork file in ``folder``, tied to its fork of ``results`` (JMH's entries of the same
    run), as one document; with ``side``, each row-side under a build's name; with
    ``benchmarks``, only their files (one plan's forks may hold several cases'); ``where``: the
    forks the samples were taken in."""
    files = sorted(folder.glob("*.cpu")) if folder.is_dir() else []
    by_row = _entries_by_row(results)
    rows: dict[tuple, dict] = {}
    unmatched = []
    for path in files:
        fork = read_fork(path)
        if benchmarks is not None and fork["benchmark"] not in benchmarks:
            continue
        params = fork["params"]
        entry = by_row.get((fork["benchmark"], tuple(sorted(params.items()))))
        tied = fork["iterations"][:len(fork["iterations"]) - fork["tail"]]
        index = _fork_of(entry, [it["score"] for it in tied]) if entry else None
        if entry is None or index is None:
            unmatched.append(path.name)
            continue
        key = (fork["benchmark"], tuple(sorted(params.items())))
        row = rows.setdefault(key, {"benchmark": fork["benchmark"], "params": params,
                                    **({"side": side} if side else {}), "engine": fork["engine"],
                                    "interval_ns": fork["interval_ns"], "jvm": fork["jvm"], "forks": []})
        row["forks"].append(counted(fork, entry, index))
        if fork["tail"]:
            row["tail"] = fork["tail"]
    if not rows and not unmatched:
        raise ResultsError(f"{folder}: the CPU profiler wrote no files")
    if unmatched:
        raise ResultsError(f"{folder}: {len(unmatched)} CPU-sample file(s) match no fork of the run's "
                           f"results ({', '.join(unmatched[:3])}{', ...' if len(unmatched) > 3 else ''})")
    entries = [packed(r) for r in rows.values()]
    engines = sorted({e["engine"] for e in entries})
    return {"format": CPU_FORMAT, "profiler": PROFILER, "command": command,
            "engine": ", ".join(engines),
            "recorded": "CPU samples of every thread (async-profiler "
                        f"{' / '.join(engines)}, every {entries[0]['interval_ns'] / 1e6:g} ms of a "
                        f"thread's CPU) {where}"
                        + ("" if where == TIMED else "; per fork, its counted iterations (the "
                           "steady segment its figure is made of)"),
            "entries": sorted(entries, key=site_order)}


def packed(row: dict) -> dict:
    """A row-side's forks with their frames and stacks named once: ``frames`` lists the frames'
    names, ``stacks`` each stack as its frames' indexes (root first), each fork's ``samples``
    [stack index, count] pairs; forks in the order of the JMH results."""
    names = sorted({s for f in row["forks"] for s in f["samples"]})
    frames = sorted({frame for s in names for frame in s.split(";")})
    at = {frame: i for i, frame in enumerate(frames)}
    index = {s: i for i, s in enumerate(names)}
    forks = [{**f, "samples": sorted([index[s], n] for s, n in f["samples"].items())}
             for f in sorted(row["forks"], key=lambda f: f["fork"])]
    return {**row, "frames": frames, "stacks": [[at[f] for f in s.split(";")] for s in names],
            "forks": forks}
