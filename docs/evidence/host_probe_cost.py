"""What the host-speed probe costs: identical code with and without it, forks alternating.

Runs (with --run) or reads (default) data/host-probe/cost/: for each row, ROUNDS rounds of one
JMH fork with the probe and one without, the order turning every round; each fork 2 x 1 s warmup
+ 3 x 1 s measured, -prof gc in both. Prints per row the median fork of each side, their ratio
and a 95% interval on the ratio of the fork means (Welch t on their logs).

    .venv/bin/python docs/evidence/host_probe_cost.py --run   # about 6 min; nothing else running
    .venv/bin/python docs/evidence/host_probe_cost.py         # the figures from the committed files
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

from scipy import stats

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "host-probe" / "cost"
JAR = ROOT / "target" / "benchmarks.jar"
ROUNDS = 12
ROWS = {
    "encode-STR_64-old": ["^hotpath\\.encoder\\.EncoderPayloadBenchmark\\.encode$", "-p", "payload=STR_64",
                          "-p", "variant=old"],
    "copyAndWrite-64-old": ["^hotpath\\.marshaller\\.MarshallerCopyWriteBenchmark\\.copyAndWrite$",
                            "-p", "size=64", "-p", "variant=old"],
}
JVM = "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch"
PROBE = "hotpath.profiler.HostSpeedProfiler"


def run() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, selection in ROWS.items():
        for r in range(ROUNDS):
            sides = ("with", "without") if r % 2 == 0 else ("without", "with")
            for side in sides:
                target = OUT / f"{name}.{side}.{r:02d}.json"
                cmd = ["java", "-jar", str(JAR), *selection, "-f", "1", "-wi", "2", "-w", "1s",
                       "-i", "3", "-r", "1s", "-jvmArgsAppend", JVM, "-prof", "gc",
                       *(["-prof", PROBE] if side == "with" else []), "-rf", "json", "-rff", str(target)]
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def fork_mean(path: Path) -> float:
    entry = json.loads(path.read_text())[0]
    return statistics.fmean(entry["primaryMetric"]["rawData"][0])


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
        print(f"{name}: {len(a)} forks each; with the probe {statistics.median(sides['with']):.2f} ns/op, "
              f"without {statistics.median(sides['without']):.2f} (medians of fork means); "
              f"ratio {math.exp(diff):.4f} (95% CI {math.exp(diff - half):.4f}–{math.exp(diff + half):.4f})")


if __name__ == "__main__":
    if "--run" in sys.argv:
        run()
    report()
