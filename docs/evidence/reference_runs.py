"""Whether a run of every case is fit to be the reference: what its write-up rows decided, how far
apart their forks lay, and how often the host-speed probe beside its counted iterations ran slow,
case by case, for each folder given (default: the reference and every dated run beside it).

A run the host slowed for much of its course decides few rows at any budget: a row needs forks in
proportion to its fork CV squared (docs/evidence/is-the-host-quiet-enough.md). The reference A/A's
median fork CV (data/reference/aa/) is the bar such a run is read against.

    .venv/bin/python docs/evidence/reference_runs.py
    .venv/bin/python docs/evidence/reference_runs.py data/reference-runs/2026-11-30-1123
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hotpath.analyze import aa, compare, fitness, hostspeed  # noqa: E402
from hotpath.analyze.load import read_results  # noqa: E402
from hotpath.cases import existing_cases  # noqa: E402
from hotpath.records import PROBE_METRIC, SLOW_PROBE, full_speed, slow_probes  # noqa: E402

FOLDERS = (ROOT / "data" / "reference", *sorted((ROOT / "data" / "reference-runs").glob("*/")))
#: The bar: identical code on both sides, the default run's forks (each fork's 10th percentile).
AA = ROOT / "data" / "reference" / "aa"
#: The probe on the Intel Xeon on a day the host check read quiet (fork CV 0.6%): the timed forks
#: of the debug flags' cost (docs/evidence/what-the-cpu-sampler-costs.md), every 3rd of each fork's
#: iterations on.
INTEL_QUIET = ROOT / "data" / "cpu-sampler" / "debug-quiet"


def case_line(folder: Path, case) -> tuple[str, int, int, list[float], tuple[float, ...]]:
    """One case of a run: its line, its write-up rows decided and in all, their fork CVs and the
    run's probes."""
    run = read_results(folder / f"{case.id}.json")
    pairs = compare.paired(run).pairs
    mine = pairs[pairs["candidate"] == case.candidate]
    cvs = [float(v) for v in mine["fork_cv"] if v == v]
    forks = [min(int(a), int(b)) for a, b in zip(mine["forks_old"], mine["forks_new"])]
    probes = hostspeed.probes(run.frame)
    slow = hostspeed.slow_iterations(probes)
    p = run.provenance or {}
    decided = int((mine["verdict"] != "undecided").sum())
    said = (f"{case.id}: {p.get('cpu_model', '?')}, started {str(p.get('started', '?'))[:16]}, "
            f"commit {str(p.get('git_commit', '?'))[:7]}; write-up rows decided "
            f"{decided} of {len(mine)}, forks per side "
            f"{min(forks)}-{max(forks)} (median {statistics.median(forks):g}), median fork CV "
            f"{statistics.median(cvs):.1%}")
    said += (f"; the probe {SLOW_PROBE:g}x its full speed or slower beside {slow.slow / slow.iterations:.0%} "
             f"of {slow.iterations} counted iterations" if slow.iterations else "; no probe")
    return said, decided, len(mine), cvs, probes


def report(folder: Path) -> None:
    print(f"{folder.relative_to(ROOT)}:")
    cvs: list[float] = []
    probes: tuple[float, ...] = ()
    decided = rows = 0
    for case in existing_cases():
        if not (folder / f"{case.id}.json").is_file():
            continue
        line, case_decided, case_rows, case_cvs, case_probes = case_line(folder, case)
        print(f"  {line}")
        decided, rows = decided + case_decided, rows + case_rows
        cvs += case_cvs
        probes += case_probes
    slow = hostspeed.slow_iterations(probes)
    on_the_bars_rows(folder)
    if probes:
        print(f"  {speeds(probes)}")
    print(f"  all cases: write-up rows decided {decided} of {rows}, median fork CV "
          f"{statistics.median(cvs):.1%}"
          + (f"; the probe slow beside {slow.slow / slow.iterations:.0%} of its {slow.iterations} "
             f"counted iterations" if slow.iterations else ""))


def speeds(probes: tuple[float, ...]) -> str:
    """The probe over a run: its fastest, its full speed and its median, and how many iterations
    ran slow against the full speed (the rule) and against the fastest (the rule before it)."""
    full, fastest = full_speed(probes), min(probes)
    return (f"the probe: fastest {fastest:.1f} µs, full speed (its 10th percentile) {full:.1f} µs, "
            f"median {statistics.median(probes):.1f} µs; slow beside "
            f"{slow_probes(probes, full).slow / len(probes):.1%} of its iterations against its full "
            f"speed, {slow_probes(probes, fastest).slow / len(probes):.1%} against its fastest; "
            f"{sum(p < 0.95 * full for p in probes) / len(probes):.1%} of them over 5% faster than its full speed")


def on_the_bars_rows(folder: Path) -> None:
    """The run's forks and probe on the A/A's own rows against the A/A's (hotpath.analyze.fitness,
    as make bench PROFILE=reference says it at a run's end)."""
    found = fitness.of(folder, AA)
    if found.rows:
        print(f"  {found.said()}")


def bar() -> None:
    run = aa.AA(AA)
    cvs = [float(v) for v in run.table["fork_cv"] if v == v]
    probes = hostspeed.probes(run.run.run.frame)
    slow = hostspeed.slow_iterations(probes)
    quiet = []
    for path in sorted(INTEL_QUIET.glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")):
            for fork in ((entry.get("secondaryMetrics") or {}).get(PROBE_METRIC) or {}).get("rawData") or []:
                kept = [float(v) for v in fork if isinstance(v, (int, float)) and v > 0]
                quiet += kept[len(kept) // 3:]
    if quiet:
        found = slow_probes(quiet, full_speed(quiet))
        print(f"{INTEL_QUIET.relative_to(ROOT)} (the Intel Xeon on a quiet day): the probe slow beside "
              f"{found.slow / found.iterations:.0%} of {found.iterations} iterations, each fork's first third left out")
        print(f"  {speeds(tuple(quiet))}")
    print(f"{AA.relative_to(ROOT)} (the bar): {len(cvs)} rows of identical code, median fork CV "
          f"{statistics.median(cvs):.1%}"
          + (f"; the probe slow beside {slow.slow / slow.iterations:.0%} of its {slow.iterations} "
             f"counted iterations" if slow.iterations else ""))
    if probes:
        print(f"  {speeds(probes)}")


if __name__ == "__main__":
    bar()
    for f in ([ROOT / a for a in sys.argv[1:]] or FOLDERS):
        report(f.resolve())
