"""What the timed forks' CPU sampler costs, measured two ways on identical code.

Between forks (--run; data/cpu-sampler/cost/): for each row, ROUNDS rounds of one JMH fork with
the sampler and one without, the order turning every round; each fork 2 x 1 s warmup + 3 x 1 s
measured with the timed forks' other profilers (-prof gc, the page-fault counter, the host-speed
probe) on both sides. Prints per row the median fork of each side, their ratio and a 95% interval
on the ratio of the fork means (Welch t on their logs), and the samples the sampler kept. Whole
forks differ by more than 1% on this host, so this design cannot hold a cost within 1%.

Within forks (--run-within; data/cpu-sampler/within/<interval>/, at each of INTERVALS): each fork is a timed fork of the default
run's kind (recorded from its start in 100 ms iterations) in which the sampler samples only the
first and last iteration of every four (sampled=abba): the two between them are the same code,
the same JIT state and the same host second, unsampled. Per block of four, the cost is the mean
log time of the sampled pair less that of the unsampled pair (the ABBA order cancels a linear
drift); per fork the median of its blocks after WARMUP_ITERATIONS; forks are the replicates
(t interval). The second unsampled iteration of a block against the first tells whether the
sampler's work spills into the iteration after it.

Behind the counted iterations (--run-tail; data/cpu-sampler/tail/): the timed forks' design. For
each row, ROUNDS rounds of two forks of the default run's kind (TAIL_COUNTED iterations of 100 ms
recorded from the start, the first WARMUP_ITERATIONS not counted), one carrying the sampler with
tail=3 (async-profiler loaded and started only for the 3 iterations after the counted ones), the
other without it, the order turning every round. Per round, the cost is the mean log time of the
counted iterations with the sampler less without; rounds are the replicates (t interval). The
tail's own iterations against the fork's last counted ones say what a sampled iteration costs.

With full debug information (--run-debug; data/cpu-sampler/debug/): the tail design's forks, both
sides carrying the sampler's tail, one of them started with -XX:+UnlockDiagnosticVMOptions
-XX:+DebugNonSafepoints (hotpath.measure.profiles.DEBUG_ARGS), the order turning every round. Per
round, the cost is the mean log time of the counted iterations with the flags less without. The
tails' samples say what the flags buy: the share of the benchmark thread's samples whose leaf is
JMH's stub (code inlined into it, named after it), with the flags and without. Run again with
--run-debug-clock (data/cpu-sampler/debug-clock/), the sampler reading the benchmark thread's
CPU clock in every iteration, the cost is also the counted iterations' CPU per op with the flags
less without: a host that takes the vCPU away for whole forks moves their time, not that clock.

    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run          # about 9 min; nothing else running
    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run-within 20   # about 11 min an interval (ms); nothing else running
    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run-tail     # about 7 min; nothing else running
    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run-debug    # about 9 min; nothing else running
    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run-debug-clock 24   # rounds; 45 s a round
    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run-debug-quiet 24   # the same, on a quiet host
    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run-debug-quiet 48 --rows marshalZip-MAP_1600B-old \
        --out data/cpu-sampler/debug-quiet-<day>   # more rounds, another day's folder
    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run-debug-quiet 48 --rows marshalZip-MAP_1600B-old \
        --iterations 80 --out data/cpu-sampler/debug-quiet-<day>-late   # 8 s forks: the 20 before the tail counted
    .venv/bin/python docs/evidence/cpu_sampler_cost.py                # the figures from the committed files
"""

from __future__ import annotations

import json
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hotpath.measure.cpu import read_fork  # noqa: E402
from hotpath.stats import steady  # noqa: E402

OUT = ROOT / "data" / "cpu-sampler" / "cost"
WITHIN = ROOT / "data" / "cpu-sampler" / "within"
TAIL = ROOT / "data" / "cpu-sampler" / "tail"
JAR = ROOT / "target" / "benchmarks.jar"
ROUNDS = 12
#: A call of 90 ns (the most calls per sample), one that copies, and one of 270 µs that spends
#: half its time in the kernel (the deepest stacks).
ROWS = {
    "encode-STR_64-old": ["^hotpath\\.encoder\\.EncoderPayloadBenchmark\\.encode$", "-p", "payload=STR_64",
                          "-p", "variant=old"],
    "copyAndWrite-64-old": ["^hotpath\\.marshaller\\.MarshallerCopyWriteBenchmark\\.copyAndWrite$",
                            "-p", "size=64", "-p", "variant=old"],
    "marshalZip-MAP_1600B-old": ["^hotpath\\.zip\\.ZipMarshalBenchmark\\.marshalZip$", "-p",
                                 "payload=MAP_1600B", "-p", "variant=old"],
}
#: The within-forks design's rows: the three above and one of each other case, the write-ups'
#: own rows where a case has one of a kind (a thread that waits on a stream; a small append).
WITHIN_ROWS = {
    **ROWS,
    "compressedMapFields-98-old": ["^hotpath\\.writer\\.WriterCompressedMapBenchmark\\.compressedMapFields$",
                                   "-p", "entries=98", "-p", "variant=old"],
    "putMessagePositionInfo-120-old": ["^hotpath\\.store\\.StoreConsumeQueueBenchmark\\.putMessagePositionInfo$",
                                       "-p", "topicLength=120", "-p", "variant=old"],
}
WITHIN_FORKS = 16
#: 6 s forks of 100 ms iterations, the first 2 s not counted (the slowest row settles in 1.5 s):
#: 10 blocks of four a fork.
WITHIN_ITERATIONS = 60
WARMUP_ITERATIONS = 20
JVM = "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch"
PROFILERS = ["-prof", "gc", "-prof", "hotpath.profiler.PageFaultProfiler",
             "-prof", "hotpath.profiler.HostSpeedProfiler"]
SAMPLER = "hotpath.profiler.CpuProfiler"
INTERVAL_NS = 10_000_000
#: The within-forks design's intervals (ms of a thread's CPU between samples).
INTERVALS = (10, 20)
#: The tail design's forks: 4 s counted from 2 s on, then the sampler's 3 iterations at the
#: default run's 5 ms (hotpath.measure.profiles.TIMED_CPU).
TAIL_COUNTED = 40
TAIL_ITERATIONS = 3
TAIL_INTERVAL_NS = 5_000_000
DEBUG = ROOT / "data" / "cpu-sampler" / "debug"
DEBUG_ARGS = "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"
#: The same design again, its sampler reading the thread's CPU clock in every iteration: what the
#: flags cost by the clock the host's stolen seconds do not move.
DEBUG_CLOCK = ROOT / "data" / "cpu-sampler" / "debug-clock"
#: The same design again on a host make host-check read quiet (fork CV 0.6%): the noisy days'
#: rounds stood too far apart to hold the flags' cost within 1%.
DEBUG_QUIET = ROOT / "data" / "cpu-sampler" / "debug-quiet"
#: The tail design's rows, the pull of 32 whose optimized side the tail put on JMH's stub, and
#: zip's buffered stream, which runs the one zip method C2 compiles otherwise with the flags (the
#: stream's write) in forks that settle, where old marshalZip's do not.
DEBUG_ROWS = {
    **ROWS,
    "pull32-optimized": ["^hotpath\\.store\\.StorePullPathBenchmark\\.pull32$", "-p", "variant=optimized"],
    "marshalZip-MAP_1600B-buffered": ["^hotpath\\.zip\\.ZipMarshalBenchmark\\.marshalZip$", "-p",
                                      "payload=MAP_1600B", "-p", "variant=buffered"],
}


def run() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, selection in ROWS.items():
        for r in range(ROUNDS):
            sides = ("with", "without") if r % 2 == 0 else ("without", "with")
            for side in sides:
                target = OUT / f"{name}.{side}.{r:02d}.json"
                with tempfile.TemporaryDirectory() as folder:
                    sampler = ["-prof", f"{SAMPLER}:dir={folder};interval={INTERVAL_NS}"] if side == "with" else []
                    cmd = ["java", "-jar", str(JAR), *selection, "-f", "1", "-wi", "2", "-w", "1s",
                           "-i", "3", "-r", "1s", "-jvmArgsAppend", JVM, *PROFILERS, *sampler,
                           "-rf", "json", "-rff", str(target)]
                    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                    if side == "with":
                        (file,) = Path(folder).glob("*.cpu")
                        shutil.copy(file, target.with_suffix(".cpu"))


def fork_mean(path: Path) -> float:
    entry = json.loads(path.read_text())[0]
    return statistics.fmean(entry["primaryMetric"]["rawData"][0])


def samples(path: Path) -> int:
    """The samples of the benchmark's thread a fork's sampler kept over its measured iterations."""
    lines = path.read_text().splitlines()
    worker = {c[1] for c in (line.split("\t") for line in lines)
              if c[0] == "frame" and "jmh-worker" in c[2]}
    stacks = {c[1] for c in (line.split("\t") for line in lines)
              if c[0] == "stack" and c[2].split(" ")[0] in worker}
    return sum(int(c[2]) for c in (line.split("\t") for line in lines)
               if c[0] == "samples" and c[1] in stacks)


def report() -> None:
    for name in ROWS:
        sides = {s: [fork_mean(p) for p in sorted(OUT.glob(f"{name}.{s}.*.json"))] for s in ("with", "without")}
        if not all(sides.values()):
            print(f"{name}: no files under {OUT}: run with --run")
            continue
        logs = {s: [math.log(v) for v in vs] for s, vs in sides.items()}
        a, b = logs["with"], logs["without"]
        diff = statistics.fmean(a) - statistics.fmean(b)
        va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
        df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
        half = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
        kept = [samples(p) for p in sorted(OUT.glob(f"{name}.with.*.cpu"))]
        print(f"{name}: {len(a)} forks each; with the sampler {statistics.median(sides['with']):.4g}, "
              f"without {statistics.median(sides['without']):.4g} (medians of fork means, the row's unit); "
              f"ratio {math.exp(diff):.4f} (95% CI {math.exp(diff - half):.4f}–{math.exp(diff + half):.4f}); "
              f"{statistics.median(kept) if kept else 0:.0f} samples of the benchmark's thread a fork "
              f"(median) over 3 s measured")


def run_within(interval_ms: int) -> None:
    out = WITHIN / f"{interval_ms}ms"
    out.mkdir(parents=True, exist_ok=True)
    for name, selection in WITHIN_ROWS.items():
        for r in range(WITHIN_FORKS):
            target = out / f"{name}.{r:02d}.json"
            with tempfile.TemporaryDirectory() as folder:
                cmd = ["java", "-jar", str(JAR), *selection, "-f", "1", "-wi", "0",
                       "-i", str(WITHIN_ITERATIONS), "-r", "100ms", "-jvmArgsAppend", JVM, *PROFILERS,
                       "-prof", f"{SAMPLER}:dir={folder};interval={interval_ms * 1_000_000};sampled=abba",
                       "-rf", "json", "-rff", str(target)]
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                (file,) = Path(folder).glob("*.cpu")
                shutil.copy(file, target.with_suffix(".cpu"))


def run_tail() -> None:
    TAIL.mkdir(parents=True, exist_ok=True)
    for name, selection in ROWS.items():
        for r in range(ROUNDS):
            for side in (("with", "without") if r % 2 == 0 else ("without", "with")):
                target = TAIL / f"{name}.{side}.{r:02d}.json"
                with tempfile.TemporaryDirectory() as folder:
                    sampler = (["-prof", f"{SAMPLER}:dir={folder};interval={TAIL_INTERVAL_NS};"
                                         f"tail={TAIL_ITERATIONS}"] if side == "with" else [])
                    iterations = TAIL_COUNTED + (TAIL_ITERATIONS if side == "with" else 0)
                    cmd = ["java", "-jar", str(JAR), *selection, "-f", "1", "-wi", "0",
                           "-i", str(iterations), "-r", "100ms", "-jvmArgsAppend", JVM, *PROFILERS,
                           *sampler, "-rf", "json", "-rff", str(target)]
                    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                    if side == "with":
                        (file,) = Path(folder).glob("*.cpu")
                        shutil.copy(file, target.with_suffix(".cpu"))


def report_tail() -> None:
    print(f"behind the counted iterations (tail={TAIL_ITERATIONS}, every {TAIL_INTERVAL_NS // 1_000_000} ms):")
    for name in ROWS:
        pairs, tails = [], []
        for r in range(ROUNDS):
            with_, without = (TAIL / f"{name}.{s}.{r:02d}.json" for s in ("with", "without"))
            if not (with_.is_file() and without.is_file()):
                continue
            logs = iteration_logs(with_)
            counted = logs[WARMUP_ITERATIONS:TAIL_COUNTED]
            pairs.append(statistics.fmean(counted)
                         - statistics.fmean(iteration_logs(without)[WARMUP_ITERATIONS:TAIL_COUNTED]))
            tails.append(statistics.fmean(logs[TAIL_COUNTED:])
                         - statistics.fmean(counted[-TAIL_ITERATIONS:]))
        if len(pairs) < 2:
            print(f"{name}: no files under {TAIL}: run with --run-tail")
            continue
        kept = [samples(p) for p in sorted(TAIL.glob(f"{name}.with.*.cpu"))]
        print(f"{name}: {len(pairs)} rounds; counted iterations with the sampler's tail / without "
              f"{ratio(pairs)}; the tail / the fork's last {TAIL_ITERATIONS} counted {ratio(tails)}; "
              f"{statistics.median(kept) if kept else 0:.0f} samples of the benchmark's thread a tail (median)")


def run_debug(rounds: int = ROUNDS, folder: Path = DEBUG, rows: list[str] | None = None,
              iterations: int = TAIL_COUNTED) -> None:
    """``rounds`` more rounds of each row (of ``rows``, default every one) after those in ``folder``,
    each fork ``iterations`` long before its tail (longer for a row that settles late)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, selection in DEBUG_ROWS.items():
        if rows and name not in rows:
            continue
        done = len(list(folder.glob(f"{name}.with.*.json")))
        for r in range(done, done + rounds):
            for side in (("with", "without") if r % 2 == 0 else ("without", "with")):
                target = folder / f"{name}.{side}.{r:02d}.json"
                jvm = f"{JVM} {DEBUG_ARGS}" if side == "with" else JVM
                with tempfile.TemporaryDirectory() as scratch:
                    cmd = ["java", "-jar", str(JAR), *selection, "-f", "1", "-wi", "0",
                           "-i", str(iterations + TAIL_ITERATIONS), "-r", "100ms", "-jvmArgsAppend", jvm,
                           *PROFILERS, "-prof", f"{SAMPLER}:dir={scratch};interval={TAIL_INTERVAL_NS};"
                                                f"tail={TAIL_ITERATIONS}",
                           "-rf", "json", "-rff", str(target)]
                    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                    (file,) = Path(scratch).glob("*.cpu")
                    shutil.copy(file, target.with_suffix(".cpu"))


def stub_share(path: Path) -> float:
    """The share of the benchmark thread's samples whose leaf frame is JMH's stub."""
    rows = [line.split("\t") for line in path.read_text().splitlines()]
    names = {c[1]: c[2] for c in rows if c[0] == "frame"}
    leaf = {c[1]: names[c[2].split(" ")[-1]] for c in rows
            if c[0] == "stack" and "jmh-worker" in names[c[2].split(" ")[0]]}
    counts = [(leaf[c[1]], int(c[2])) for c in rows if c[0] == "samples" and c[1] in leaf]
    total = sum(n for _, n in counts)
    return sum(n for name, n in counts if "_jmhStub" in name) / total if total else math.nan


def report_debug(folder: Path = DEBUG) -> None:
    print(f"with full debug information ({DEBUG_ARGS}), the sampler's tail on both sides "
          f"({folder.relative_to(ROOT)}):")
    pooled: dict[str, list[float]] = {"time": [], "p10": [], "cpu": []}
    for name in DEBUG_ROWS:
        pairs: dict[str, list[float]] = {"time": [], "p10": [], "cpu": []}
        for r in range(len(list(folder.glob(f"{name}.with.*.json")))):
            with_, without = (folder / f"{name}.{s}.{r:02d}.json" for s in ("with", "without"))
            if not (with_.is_file() and without.is_file()):
                continue
            logs = [counted(iteration_logs(p)) for p in (with_, without)]
            pairs["time"].append(statistics.fmean(logs[0]) - statistics.fmean(logs[1]))
            # the fork's figure as the verdicts take it (quick and full: P10 of time per op)
            p10 = [math.log(steady.figure([math.exp(v) for v in side], "p10")) for side in logs]
            pairs["p10"].append(p10[0] - p10[1])
            cpu = [counted(cpu_logs(p.with_suffix(".cpu"))) for p in (with_, without)]
            if all(cpu):
                pairs["cpu"].append(statistics.fmean(cpu[0]) - statistics.fmean(cpu[1]))
        if len(pairs["time"]) < 2:
            print(f"{name}: no files under {folder}: run with "
                  f"{'--run-debug' if folder == DEBUG else '--run-debug-clock <rounds>' if folder == DEBUG_CLOCK else '--run-debug-quiet <rounds>'}")
            continue
        stub = {s: [stub_share(p) for p in sorted(folder.glob(f"{name}.{s}.*.cpu"))] for s in ("with", "without")}
        times = [math.exp(statistics.fmean(counted(iteration_logs(p))))
                 for p in sorted(folder.glob(f"{name}.*.json"))]
        by_clock = (f"; the thread's CPU per op in them, with / without {ratio(pairs['cpu'])}"
                    if len(pairs["cpu"]) >= 2 else "")
        print(f"{name}: {len(pairs['time'])} rounds; counted iterations with the flags / without "
              f"{ratio(pairs['time'])}, by each fork's 10th percentile {ratio(pairs['p10'])}"
              f"{by_clock}; the rounds' time ratios {math.exp(min(pairs['time'])):.3f}-"
              f"{math.exp(max(pairs['time'])):.3f}; the forks' counted time per op "
              f"{statistics.median(times):,.4g} (median; JMH's unit); the stub's share of the benchmark "
              f"thread's samples in the tails (median fork): {statistics.median(stub['with']):.1%} with, "
              f"{statistics.median(stub['without']):.1%} without")
        for basis in pooled:
            pooled[basis] += pairs[basis]
    for basis, what in (("time", "time per op"), ("p10", "each fork's 10th percentile of time per op"),
                        ("cpu", "the thread's CPU per op")):
        if len(pooled[basis]) >= 2:
            print(f"every row's rounds together ({len(pooled[basis])}), {what} with / without: "
                  f"{ratio(pooled[basis])}")


#: Two modes where the widest gap between a row's forks (both sides' log figures, sorted) is this
#: many times the standard deviation of the forks on either side of it, each side of it 2 forks
#: or more: C2 compiles some rows one of two ways from fork to fork (encode(STR_64) at 141 or
#: 182 ns/op on the Intel host), and a ratio of fork means then weighs how many forks of each side
#: drew each way more than what the flags cost.
MODE_GAP = 6.0


def modes(logs: dict[str, list[float]]) -> tuple[float, float] | None:
    """The gap between a row's two modes (lower and upper edge, as logs), or None for one mode."""
    pooled = sorted(v for side in logs.values() for v in side)
    if len(pooled) < 4:
        return None
    k = max(range(2, len(pooled) - 1), key=lambda i: pooled[i] - pooled[i - 1])
    low, high = pooled[:k], pooled[k:]
    widest = max(statistics.stdev(low), statistics.stdev(high))
    return (pooled[k - 1], pooled[k]) if pooled[k] - pooled[k - 1] > MODE_GAP * widest else None


def welch(a: list[float], b: list[float]) -> str:
    """Two sides' log figures as the ratio of their means with its 95% Welch interval."""
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    diff, se = statistics.fmean(a) - statistics.fmean(b), math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = stats.t.ppf(0.975, df) * se
    return f"{math.exp(diff):.4f} (95% CI {math.exp(diff - half):.4f}–{math.exp(diff + half):.4f})"


def report_modes(folder: Path = DEBUG_QUIET) -> None:
    """The flags' cost within each mode of a row whose forks fall in two, by each fork's 10th
    percentile (the forks of a mode as two samples, the rounds' pairing given up), and whether
    the flags change how many forks fall in each (Fisher's exact test)."""
    for name in DEBUG_ROWS:
        logs = {side: [math.log(steady.figure([math.exp(v) for v in counted(iteration_logs(p))],
                                              "p10"))
                       for p in sorted(folder.glob(f"{name}.{side}.*.json"))] for side in ("with", "without")}
        if min(len(v) for v in logs.values()) < 2:
            continue
        gap = modes(logs)
        if gap is None:
            print(f"{name}: one mode")
            continue
        low = {side: [v for v in values if v <= gap[0]] for side, values in logs.items()}
        high = {side: [v for v in values if v >= gap[1]] for side, values in logs.items()}
        parts = []
        for label, mode in (("below", low), ("above", high)):
            counts = f"{len(mode['with'])} of {len(logs['with'])} forks with, {len(mode['without'])} of {len(logs['without'])} without"
            cost = (f": with / without {welch(mode['with'], mode['without'])}"
                    if min(len(v) for v in mode.values()) >= 2 else "")
            parts.append(f"{label} the gap {counts}{cost}")
        fisher = stats.fisher_exact([[len(low["with"]), len(high["with"])], [len(low["without"]), len(high["without"])]])
        print(f"{name}: two modes, each fork's 10th percentile {math.exp(gap[0]):.4g} or below and "
              f"{math.exp(gap[1]):.4g} or above; {'; '.join(parts)}; the flags and the mode a fork falls "
              f"in: Fisher's exact p = {fisher.pvalue:.2f}")


def cpu_logs(path: Path) -> list[float]:
    """A fork's iterations as log CPU per op of the benchmark's thread (its own clock, which the
    sampler reads at every iteration); empty where a file has no clock for every iteration (the
    sampler before 2026-11-29 read it only in the iterations it sampled)."""
    iterations = read_fork(path)["iterations"]
    if not iterations or min(it["cpu_ns"] for it in iterations) <= 0:
        return []
    return [math.log(it["cpu_ns"] / it["ops"]) for it in iterations]


def counted(logs: list[float]) -> list[float]:
    """A fork's counted iterations: the TAIL_COUNTED - WARMUP_ITERATIONS before its tail (20..40 of
    a fork of TAIL_COUNTED; of a longer one, for a row that settles late, its last ones)."""
    end = len(logs) - TAIL_ITERATIONS
    return logs[end - (TAIL_COUNTED - WARMUP_ITERATIONS):end] if logs else []


def iteration_logs(path: Path) -> list[float]:
    """A fork's iterations as log time per op (a throughput's reciprocal)."""
    entry = json.loads(path.read_text())[0]
    raw = entry["primaryMetric"]["rawData"][0]
    thrpt = entry["primaryMetric"]["scoreUnit"].startswith("ops/")
    return [-math.log(v) if thrpt else math.log(v) for v in raw]


def t_interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def ratio(logs: list[float]) -> str:
    """Log ratios' mean as a ratio with its 95% t interval: '1.0081 (95% CI 0.9967–1.0196)'."""
    c, lo, hi = t_interval(logs)
    return f"{math.exp(c):.4f} (95% CI {math.exp(lo):.4f}–{math.exp(hi):.4f})"


def report_within(interval_ms: int) -> None:
    print(f"within forks, a sample every {interval_ms} ms:")
    folder = WITHIN / f"{interval_ms}ms"
    for name in WITHIN_ROWS:
        files = sorted(folder.glob(f"{name}.*.json"))
        if not files:
            print(f"{name}: no files under {folder}: run with --run-within {interval_ms}")
            continue
        cost, spill = [], []
        for path in files:
            logs = iteration_logs(path)[WARMUP_ITERATIONS:]
            blocks = [logs[i:i + 4] for i in range(0, len(logs) - 3, 4)]
            cost.append(statistics.median((a1 + a4 - b2 - b3) / 2 for a1, b2, b3, a4 in blocks))
            spill.append(statistics.median(b2 - b3 for _, b2, b3, _ in blocks))
        kept = [samples(p) for p in sorted(folder.glob(f"{name}.*.cpu"))]
        print(f"{name}: {len(files)} forks, {len(blocks)} blocks each; sampled / unsampled "
              f"{ratio(cost)}; the iteration after a sampled one / the next {ratio(spill)}; "
              f"{statistics.median(kept) / (WITHIN_ITERATIONS / 2) if kept else 0:.1f} samples of the "
              f"benchmark's thread a sampled 100 ms iteration (median fork)")


if __name__ == "__main__":
    if "--run" in sys.argv:
        run()
    if "--run-within" in sys.argv:
        run_within(int(sys.argv[sys.argv.index("--run-within") + 1]))
    if "--run-tail" in sys.argv:
        run_tail()
    if "--run-debug" in sys.argv:
        run_debug()
    if "--run-debug-clock" in sys.argv:
        run_debug(int(sys.argv[sys.argv.index("--run-debug-clock") + 1]), DEBUG_CLOCK)
    if "--run-debug-quiet" in sys.argv:
        # --out: another day's or CPU kind's rounds in a folder of their own; --rows: some rows only
        run_debug(int(sys.argv[sys.argv.index("--run-debug-quiet") + 1]),
                  Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else DEBUG_QUIET,
                  sys.argv[sys.argv.index("--rows") + 1].split(",") if "--rows" in sys.argv else None,
                  int(sys.argv[sys.argv.index("--iterations") + 1]) if "--iterations" in sys.argv else TAIL_COUNTED)
    report()
    for ms in INTERVALS:
        report_within(ms)
    report_tail()
    report_debug()
    report_debug(DEBUG_CLOCK)
    for folder in sorted(DEBUG_QUIET.parent.glob(DEBUG_QUIET.name + "*")):
        report_debug(folder)
        report_modes(folder)
