"""What the timed forks' CPU sampler costs: identical code with and without it, forks alternating.

Runs (with --run) or reads (default) data/cpu-sampler/cost/: for each row, ROUNDS rounds of one
JMH fork with the sampler and one without, the order turning every round; each fork 2 x 1 s
warmup + 3 x 1 s measured with the timed forks' other profilers (-prof gc, the page-fault
counter, the host-speed probe) on both sides. Prints per row the median fork of each side, their
ratio and a 95% interval on the ratio of the fork means (Welch t on their logs), and the samples
the sampler kept.

    .venv/bin/python docs/evidence/cpu_sampler_cost.py --run   # about 9 min; nothing else running
    .venv/bin/python docs/evidence/cpu_sampler_cost.py         # the figures from the committed files
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
OUT = ROOT / "data" / "cpu-sampler" / "cost"
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
JVM = "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch"
PROFILERS = ["-prof", "gc", "-prof", "hotpath.profiler.PageFaultProfiler",
             "-prof", "hotpath.profiler.HostSpeedProfiler"]
SAMPLER = "hotpath.profiler.CpuProfiler"
INTERVAL_NS = 10_000_000


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


if __name__ == "__main__":
    if "--run" in sys.argv:
        run()
    report()
