"""The allocation-site pass: every heap allocation of one iteration per row-side, with its stack.

It rides in the memory pass's forks (never a timed one): ``hotpath.profiler.AllocSiteProfiler``
records the last of the fork's warmup iterations, after the JIT's warmup and before the memory
pass's measured iterations, and writes one file per fork. ``collect`` turns a folder of those
files into ``<case>.sites.json`` beside the run's JMH files: per row-side its operations and the
stacks that passed through the benchmark's own code (JMH's generated stub), from the benchmark
method up, with their allocations and bytes. The harness's own allocations between operations
are summed apart, so nothing recorded is silently dropped.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import ResultsError

PROFILER = "hotpath.profiler.AllocSiteProfiler"
#: The profiler's file format (its first line) and the collected file's.
FORK_HEADER = "# hotpath allocation sites 1"
FORMAT = "hotpath allocation sites 1"
#: The frame every measured operation passes through: JMH's generated stub loop.
STUB = "_jmhStub"
#: The site pass's JVMs allocate without TLABs: heap sampling takes effect at a thread's next
#: TLAB, so with them a benchmark that allocates little (writer's floor, 64 B a call) was never
#: sampled at all, and a busy one lost the rest of its current TLAB (9-20% of an iteration on
#: KnownAllocationSitesBenchmark). Without them every allocation takes the sampled slow path;
#: what is allocated, and what escape analysis removes, is the same.
JVM_ARGS = ("-XX:-UseTLAB",)
#: The warmup iterations the pass adds to the memory pass: one that starts the recording (heap
#: sampling takes effect from each thread's next TLAB) and the one recorded.
EXTRA_WARMUPS = 2


def profiler_arg(folder: Path) -> str:
    return f"{PROFILER}:dir={folder}"


def read_fork(path: Path) -> dict:
    """One fork's file: its benchmark, params, operations and stacks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != FORK_HEADER:
        raise ResultsError(f"{path}: not an allocation-site file of {PROFILER}")
    entry: dict = {"benchmark": "", "params": {}, "ops": 0, "jvm": "", "stacks": [],
                   "outside": [0, 0]}
    body = False
    for line in lines[1:]:
        cells = line.split("\t")
        if body:
            count, size, frames = int(cells[0]), int(cells[1]), cells[2]
            at = frames.find(STUB)
            if at < 0:
                entry["outside"][0] += count
                entry["outside"][1] += size
                continue
            # from the benchmark method up: the frames below are the harness's, the same for all
            entry["stacks"].append([count, size, frames[frames.index(";", at) + 1:]])
        elif cells[0] == "benchmark":
            entry["benchmark"] = cells[1]
        elif cells[0] == "param":
            entry["params"][cells[1]] = cells[2]
        elif cells[0] == "ops":
            entry["ops"] = int(cells[1])
        elif cells[0] == "jvm":
            entry["jvm"] = cells[1]
        elif cells[0] == "stacks":
            body = True
    if not entry["benchmark"] or entry["ops"] <= 0:
        raise ResultsError(f"{path}: no benchmark or no operations recorded")
    merged: dict[str, list[int]] = {}
    for count, size, frames in entry["stacks"]:
        m = merged.setdefault(frames, [0, 0])
        m[0] += count
        m[1] += size
    entry["stacks"] = [[c, b, f] for f, (c, b) in sorted(merged.items())]
    return entry


def _order(entry: dict) -> tuple:
    return entry["benchmark"], sorted(entry["params"].items()), entry.get("side", "")


def collect(folder: Path, command: str, side: str = "") -> dict:
    """Every fork file in ``folder`` as one document, in a stable order; with ``side``, each
    row-side under a build's name (two builds: the report pairs them so)."""
    files = sorted(folder.glob("*.sites")) if folder.is_dir() else []
    if not files:
        raise ResultsError(f"{folder}: the allocation-site pass wrote no files")
    entries = [{**read_fork(f), **({"side": side} if side else {})} for f in files]
    return {"format": FORMAT, "profiler": PROFILER, "command": command,
            "recorded": "every heap allocation (async-profiler alloc, interval 1) of the last "
                        "warmup iteration of each memory-pass fork, after the JIT's warmup",
            "entries": sorted(entries, key=_order)}


def joined(documents: list[dict], **extra: str) -> dict:
    """Several passes' documents as one (a run's shards, or two builds' sides): their row-sides
    together, every pass's command kept."""
    return {**documents[0], "command": " ;; ".join(d.get("command", "") for d in documents),
            "entries": sorted((e for d in documents for e in d["entries"]), key=_order), **extra}


def text(document: dict) -> str:
    return json.dumps(document, indent=1) + "\n"


def write(folder: Path, command: str, target: Path) -> None:
    target.write_text(text(collect(folder, command)), encoding="utf-8")
