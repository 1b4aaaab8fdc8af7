"""Is make test ever red by chance? The tests that time real forks, run over and over.

Runs (with --run) or reads (default) data/test-loops/<day>/: the verdict group (pytest's
``verdicts`` marker: the two builds' known answers and the CPU samples' known answer) and the
host probe's tests, RUNS times in a row beside a process spinning on a CPU (--spin) or with
nothing else running, each run's JUnit XML kept. Prints per mode the runs and how many were
green, and per test the figures it recorded (the two builds' ratios and intervals, the inlined
known answer's shares).

    .venv/bin/python docs/evidence/test_loops.py --run 20 --spin   # about 25 min
    .venv/bin/python docs/evidence/test_loops.py --run 10          # about 17 min; nothing else running
    .venv/bin/python docs/evidence/test_loops.py --run 10 --select cpu_pass   # one file's tests again
    .venv/bin/python docs/evidence/test_loops.py --run 10 --name again  # a second loop the same day
    .venv/bin/python docs/evidence/test_loops.py --run 20 --spin --select "straight or stub"  # the inlined known answer, 8 min
    .venv/bin/python docs/evidence/test_loops.py                   # the figures from the committed files
"""

from __future__ import annotations

import argparse
import datetime
import platform
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "test-loops"
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=legacy",
          "-m", "verdicts or not forks", "tests/measure/test_ab.py", "tests/measure/test_cpu_pass.py",
          "tests/measure/test_host_probe.py"]
SPIN = "while True: pass"


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def run(runs: int, spin: bool, select: str = "", name: str = "") -> None:
    day = OUT / datetime.date.today().isoformat()
    day.mkdir(parents=True, exist_ok=True)
    # a -k expression's spaces and words kept, as a file name can hold them
    mode = ("spin" if spin else "alone") + (f"-{'-'.join(select.split())}" if select else "") + (f"-{name}" if name else "")
    if (day / f"{mode}.txt").exists():
        sys.exit(f"{day / mode}.txt: these runs are recorded already; --name gives a loop a name of its own")
    pytest = [*PYTEST, "-k", select] if select else PYTEST
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    (day / f"{mode}.txt").write_text(f"cpu: {cpu_model()}\ncommit: {commit}\ncommand: {' '.join(pytest[1:])}\n"
                                     f"beside: {'a process spinning on a CPU' if spin else 'nothing'}\n")
    spinner = subprocess.Popen([sys.executable, "-c", SPIN]) if spin else None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the spinner goes with the loop
    try:
        for k in range(1, runs + 1):
            xml = day / f"{mode}-{k:02d}.xml"
            done = subprocess.run([*pytest, f"--junitxml={xml}"], cwd=ROOT, capture_output=True, text=True)
            print(f"{mode} {k}/{runs}: {done.stdout.strip().splitlines()[-1]}", flush=True)
    finally:
        if spinner:
            spinner.kill()


def report(folder: Path) -> None:
    for mode in sorted({p.stem for p in folder.glob("*.txt")}, key=lambda m: (not m.startswith("spin"), m)):
        files = sorted(folder.glob(f"{mode}-[0-9]*.xml"))
        if not files:
            continue
        info = (folder / f"{mode}.txt").read_text().strip().replace("\n", "; ")
        green, figures, reds, shares = 0, defaultdict(list), defaultdict(list), defaultdict(list)
        for f in files:
            suite = ET.parse(f).getroot()
            suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
            failed = int(suite.get("failures")) + int(suite.get("errors"))
            green += failed == 0
            for case in suite.iter("testcase"):
                if case.find("failure") is not None or case.find("error") is not None:
                    reds[case.get("name")].append(f.stem)
                props = {p.get("name"): p.get("value") for p in case.iter("property")}
                if "ratio" in props:
                    figures[case.get("name")].append(props)
                for key, value in props.items():
                    if key.startswith("share "):
                        shares[(case.get("name"), key)].append(float(value))
        print(f"{folder.name} {mode}: {green} of {len(files)} runs green ({info})")
        for name, runs in reds.items():
            print(f"  red: {name} in {', '.join(runs)}")
        for name, rows in figures.items():
            ratios = [float(r["ratio"]) for r in rows]
            lows = [float(r["ci_low"]) for r in rows]
            highs = [float(r["ci_high"]) for r in rows]
            verdicts = sorted({r["verdict"] for r in rows})
            print(f"  {name}: ratio {min(ratios):.3f}-{max(ratios):.3f}, interval from "
                  f"{min(lows):.3f} to {max(highs):.3f}, verdicts {', '.join(verdicts)}")
        for (name, key), values in shares.items():
            print(f"  {name}: {key[len('share '):]} {min(values):.1%}-{max(values):.1%} of the side's samples")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=int, metavar="RUNS", help="run the group RUNS times, then report")
    parser.add_argument("--spin", action="store_true", help="beside a process spinning on a CPU")
    parser.add_argument("--select", default="", help="only the tests pytest -k selects (a mode of its own)")
    parser.add_argument("--name", default="", help="a name for the loop, beside others of its mode the same day")
    args = parser.parse_args()
    if args.run:
        run(args.run, args.spin, args.select, args.name)
    for day in sorted(p for p in OUT.glob("*") if p.is_dir()):
        report(day)


if __name__ == "__main__":
    main()
