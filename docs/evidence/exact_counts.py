"""Exact allocation counts beside a busy CPU: the site pass and -prof gc's B/op of a row that
allocates nothing, as make test's loaded stages see them.

Runs (with --run) or reads (default) data/exact-counts/:

- site-pass/<condition>-<n>.sites.json: the site pass of encoder's STR_1K, old and optimized,
  as the quick profile's memory pass runs it (no fork, 1 + 3 warmups of 200 ms), REPEATS times
  alone and REPEATS times beside a thread spinning on the other CPU. Per row-side: the operations
  of each recorded iteration, its code's B/op, which one was kept, and JMH's own allocations
  inside the measured loop (the harness's).
- prof-gc/<profilers>-<n>.json: KnownWorkBenchmark (no allocation: a xorshift chain) with -prof gc
  alone and with the timed forks' other profilers (page faults, host probe), 1 fork of 10 x 100 ms.

    .venv/bin/python docs/evidence/exact_counts.py --run   # about 3 min
    .venv/bin/python docs/evidence/exact_counts.py         # the figures from the committed files
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hotpath.analyze import sites as S  # noqa: E402
from hotpath.cases import CASES  # noqa: E402
from hotpath.measure import memory  # noqa: E402
from hotpath.measure.profiles import FAULT_PROFILER, PROBE_PROFILER, PROFILES  # noqa: E402
from hotpath.paths import JAR  # noqa: E402

OUT = ROOT / "data" / "exact-counts"
REPEATS = 5
ROW = ("hotpath.encoder.EncoderPayloadBenchmark.encode", "payload=STR_1K")
SETTLED = {"old": 6648.0, "optimized": 2200.0}
#: encoder's payload benchmark alone, as tests/measure/test_site_pass.py runs it
PAYLOAD = replace(CASES["encoder"], benchmarks=r"^hotpath\.encoder\.EncoderPayloadBenchmark\.encode$")
PROFILERS = {"gc": ["-prof", "gc"],
             "gc+faults+probe": ["-prof", "gc", "-prof", FAULT_PROFILER, "-prof", PROBE_PROFILER]}


def _busy() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def run() -> None:
    sites_dir, gc_dir = OUT / "site-pass", OUT / "prof-gc"
    sites_dir.mkdir(parents=True, exist_ok=True)
    gc_dir.mkdir(parents=True, exist_ok=True)
    profile = replace(PROFILES["quick"], name="exact-counts")
    for n in range(REPEATS):
        for condition in ("alone", "busy"):
            spinner = _busy() if condition == "busy" else None
            try:
                target = sites_dir / f"{condition}-{n}.sites.json"
                untimed = sites_dir / f"{condition}-{n}.memory.json"
                memory.run_memory_pass(PAYLOAD, profile, JAR, untimed, untimed, [],
                                       ["-p", "payload=STR_1K", "-p", "variant=old,optimized"],
                                       sites_partial=target)
                untimed.unlink(missing_ok=True)
            finally:
                if spinner:
                    spinner.kill()
    for n in range(2):
        for name, args in PROFILERS.items():
            subprocess.run(["java", "-jar", str(JAR), "^hotpath\\.calibration\\.KnownWorkBenchmark\\.work$",
                            "-f", "1", "-wi", "2", "-w", "100ms", "-i", "10", "-r", "100ms", *args,
                            "-rf", "json", "-rff", str(gc_dir / f"{name}-{n}.json")],
                           check=True, stdout=subprocess.DEVNULL)


def report() -> None:
    files = sorted((OUT / "site-pass").glob("*.sites.json"))
    if not files:
        print(f"no files under {OUT}: run with --run")
        return
    print("site pass, encoder STR_1K: per run and side, each recorded iteration's operations and its "
          "code's B/op, the one kept, JMH's allocations in the loop (count, B/op)")
    exact = total = 0
    for path in files:
        document = json.loads(path.read_text(encoding="utf-8"))
        found = S.read_file(path)
        for entry in document["entries"]:
            if entry["benchmark"] != ROW[0] or entry["params"].get("payload") != "STR_1K":
                continue
            side = entry["params"]["variant"]
            iterations = ", ".join(f"{i['ops']:,} ops {i['code_bytes_per_op']:,.3f}"
                                   for i in entry["iterations"])
            harness = S.harness_side(found, *ROW, side)
            kept = S.total(found, *ROW, side)
            exact += kept == SETTLED[side]
            total += 1
            print(f"  {path.name.split('.')[0]:8} {side:9} [{iterations}] kept {entry['recorded_iteration']}: "
                  f"{kept:,.3f} B/op; harness {int(harness['allocations'].sum())} "
                  f"({harness['bytes_per_op'].sum():.3f} B/op)")
    print(f"  kept figure exactly the settled one on {exact} of {total} row-sides")
    print("-prof gc on KnownWork (allocates nothing): gc.alloc.rate (MB/s) and .norm (B/op), "
          "median of the measured iterations")
    for name in PROFILERS:
        for path in sorted((OUT / "prof-gc").glob(f"{name}-*.json")):
            entry = json.loads(path.read_text(encoding="utf-8"))[0]
            raw = {k: [x for fork in v["rawData"] for x in fork] for k, v in entry["secondaryMetrics"].items()}
            print(f"  {name:16} {statistics.median(raw['gc.alloc.rate']):.3f} MB/s "
                  f"{statistics.median(raw['gc.alloc.rate.norm']):.3f} B/op at "
                  f"{statistics.median(x for f in entry['primaryMetric']['rawData'] for x in f):,.0f} ns/op")


if __name__ == "__main__":
    run() if "--run" in sys.argv[1:] else None
    report()
