"""The allocation-site pass: every heap allocation of one iteration per row-side, with its stack.

It rides in the memory pass's forks (never a timed one): ``hotpath.profiler.AllocSiteProfiler``
records the last two of the fork's warmup iterations, each once the JIT has gone idle, before
the memory pass's measured iterations, and writes one file per fork. ``read_fork`` keeps the
iteration whose code allocated least per operation (on a loaded host C2 may still be compiling
during the first). ``collect`` turns a folder of those files into ``<case>.sites.json`` beside
the run's JMH files: per row-side its operations and the stacks that passed through the
benchmark's own code (JMH's generated stub), from the benchmark method up, with their
allocations and bytes. The harness's own allocations between operations are summed apart, so
nothing recorded is silently dropped; those inside the loop (``is_harness``) stay among the
stacks, and the analysis sets them apart.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import ResultsError
from ..records import SITES_FORMAT, is_harness
from ..runs import site_order, sites_text

PROFILER = "hotpath.profiler.AllocSiteProfiler"
#: The profiler's file format (its first line); the collected file's is SITES_FORMAT.
FORK_HEADER = "# hotpath allocation sites 2"
#: The frame every measured operation passes through: JMH's generated stub loop.
STUB = "_jmhStub"
#: The site pass's JVMs allocate without TLABs: heap sampling takes effect at a thread's next
#: TLAB, so with them a benchmark that allocates little (writer's floor, 64 B a call) was never
#: sampled at all, and a busy one lost the rest of its current TLAB (9-20% of an iteration on
#: KnownAllocationSitesBenchmark). Without them every allocation takes the sampled slow path;
#: what is allocated, and what escape analysis removes, is the same.
JVM_ARGS = ("-XX:-UseTLAB",)
#: The warmup iterations the pass adds to the memory pass: one that starts the recording (heap
#: sampling takes effect from each thread's next TLAB) and the two recorded, each after the JIT
#: has gone idle; the one whose code allocated least per operation is kept (read_fork).
RECORDED_ITERATIONS = 2
#: Before them, unrecorded warmups for the JIT: beside a loaded CPU a 200 ms iteration ran ~1,800
#: of encoder's old STR_1K calls, too few for C2 (5,000 calls) in the memory pass's one warmup.
SETTLING_WARMUPS = 2
EXTRA_WARMUPS = SETTLING_WARMUPS + 1 + RECORDED_ITERATIONS


def profiler_arg(folder: Path) -> str:
    return f"{PROFILER}:dir={folder}"


def read_fork(path: Path) -> dict:
    """One fork's file: its benchmark, params, and the recorded iteration whose code allocated
    least per operation (operations and stacks) of those that ran C2's code of the benchmark,
    every recorded iteration's figures beside it. Code the JIT has not finished can only
    allocate more: the least is the settled figure. ``settled`` is false where no recorded
    iteration ran C2's code (the least of them all is kept, and the report says so)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != FORK_HEADER:
        raise ResultsError(f"{path}: not an allocation-site file of {PROFILER} ({FORK_HEADER!r})")
    head: dict = {"benchmark": "", "params": {}, "jvm": ""}
    iterations: list[dict] = []
    body = False
    for line in lines[1:]:
        cells = line.split("\t")
        if cells[0] == "iteration":
            fields = dict(zip(cells[2::2], cells[3::2]))
            iterations.append({"ops": int(fields["ops"]), "waited_ms": int(fields.get("waited_ms", 0)),
                               "c2": fields.get("c2", "1") == "1", "stacks": {}, "outside": [0, 0]})
            body = False
        elif cells[0] == "stacks":
            body = True
        elif body:
            count, size, frames = int(cells[0]), int(cells[1]), cells[2]
            it = iterations[-1]
            at = frames.find(STUB)
            if at < 0:
                it["outside"][0] += count
                it["outside"][1] += size
                continue
            # from the benchmark method up: the frames below are the harness's, the same for all
            m = it["stacks"].setdefault(frames[frames.index(";", at) + 1:], [0, 0])
            m[0] += count
            m[1] += size
        elif cells[0] == "benchmark":
            head["benchmark"] = cells[1]
        elif cells[0] == "param":
            head["params"][cells[1]] = cells[2]
        elif cells[0] == "jvm":
            head["jvm"] = cells[1]
    if not head["benchmark"] or not iterations or any(it["ops"] <= 0 for it in iterations):
        raise ResultsError(f"{path}: no benchmark or no operations recorded")
    for it in iterations:
        code = [b for f, (_, b) in it["stacks"].items() if not is_harness(f)]
        it["code_bytes_per_op"] = sum(code) / it["ops"]
    # of the iterations C2's code ran (all of them where none did) the least, of equals the later
    settled = any(it["c2"] for it in iterations)
    chosen = min((i for i, it in enumerate(iterations) if it["c2"] or not settled),
                 key=lambda i: (iterations[i]["code_bytes_per_op"], -i))
    best = iterations[chosen]
    return {**head, "ops": best["ops"],
            "stacks": [[c, b, f] for f, (c, b) in sorted(best["stacks"].items())],
            "outside": best["outside"], "recorded_iteration": chosen + 1, "settled": settled,
            "iterations": [{"ops": it["ops"], "waited_ms": it["waited_ms"], "c2": it["c2"],
                            "code_bytes_per_op": round(it["code_bytes_per_op"], 3)} for it in iterations]}


def collect(folder: Path, command: str, side: str = "") -> dict:
    """Every fork file in ``folder`` as one document, in a stable order; with ``side``, each
    row-side under a build's name (two builds: the report pairs them so)."""
    files = sorted(folder.glob("*.sites")) if folder.is_dir() else []
    if not files:
        raise ResultsError(f"{folder}: the allocation-site pass wrote no files")
    entries = [{**read_fork(f), **({"side": side} if side else {})} for f in files]
    return {"format": SITES_FORMAT, "profiler": PROFILER, "command": command,
            "recorded": "every heap allocation (async-profiler alloc, interval 1) of the last "
                        f"{RECORDED_ITERATIONS} warmup iterations of each memory-pass fork, each "
                        "after the JIT had gone idle; per row-side, of those that ran C2's code of "
                        "the benchmark, the iteration whose code allocated least per operation",
            "entries": sorted(entries, key=site_order)}


def write(folder: Path, command: str, target: Path) -> None:
    target.write_text(sites_text(collect(folder, command)), encoding="utf-8")
