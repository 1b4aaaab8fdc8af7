"""How far a run's frames account for its rows' time: per row-side of every <case>.cpu.json in a
folder (default: the committed reference), the share of the row's time the benchmark's thread was
on the CPU (its CPU clock; its samples where the clock was not read), which is all its frames can
account for, and the sampler's own account of that CPU (samples x interval against the clock).

Prints per case the row-sides within 10% (hotpath.analyze.cpu.COVERAGE_TOLERANCE) and their
median, every row-side outside it with the reason the report gives, and the total.

    .venv/bin/python docs/evidence/cpu_coverage.py [folder]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hotpath.analyze import cpu as C  # noqa: E402


def main(folder: Path) -> None:
    within = total = 0
    for path in sorted(folder.glob("*.cpu.json")):
        profiles = C.read_file(path)
        covered, sampled, outside = [], [], []
        for entry in profiles.sides["entry"]:
            s = C.side(entry)
            c = float(np.mean(s.coverage))
            covered.append(c)
            if s.clocked:
                cpu = np.array([f["cpu_ns"] for f in entry["forks"]], dtype=float)
                sampled.append(float(np.mean(s.samples * entry["interval_ns"] / cpu)))
            note = C.coverage_note(s)
            if note:
                params = ", ".join(f"{k}={v}" for k, v in entry["params"].items())
                outside.append(f"  {entry['benchmark'].rsplit('.', 2)[-2]}.{entry['benchmark'].rsplit('.', 1)[-1]}"
                               f"({params}): {note}")
        n_in = len(covered) - len(outside)
        within, total = within + n_in, total + len(covered)
        print(f"{path.name}: {n_in} of {len(covered)} row-sides within "
              f"{C.COVERAGE_TOLERANCE:.0%} (median {statistics.median(covered):.1%} of the time on the CPU"
              + (f"; the samples counted a median {statistics.median(sampled):.1%} of that CPU"
                 if sampled else "; no thread clock in this file") + ")")
        print("\n".join(outside))
    print(f"all: {within} of {total} row-sides within {C.COVERAGE_TOLERANCE:.0%}"
          + (f" ({within / total:.1%})" if total else ""))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data" / "reference")
