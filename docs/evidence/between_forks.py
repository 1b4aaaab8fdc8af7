"""What of the 2026-11-27 A/A's fork spread a longer window or the neighbouring forks could remove
(longer-windows-and-neighbouring-forks.md, beside this script, quotes what it prints).

Run from the project root: .venv/bin/python docs/evidence/between_forks.py [rounds folder]
(default: that run's rounds, data/aa-runs/2026-11-27/rounds; data/aa-runs/2026-11-26/rounds is the
committed A/A, for comparison).

1. Each fork's figure by an estimate over its last w iterations (100 ms each), for w = 1-5 s:
   the median over row-sides (with four or more forks that long) of the standard deviation of
   the log figures. A host whose busy stretches are shorter than the window leaves it smaller.
2. The forks in the order they ran (round files by number, rows in file order): how each fork's
   figure (by the estimate the run used, hotpath.stats.steady.entry_forks) departs from its row-side's
   median, how that departure correlates with the next forks' (other rows), and the spread left
   when each fork is corrected by the mean departure of the three forks either side of it that
   belong to other row-sides: the part of the host's slowness that lasts longer than a fork.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from hotpath.stats import steady

ROOT = Path(__file__).resolve().parents[2]
DAY = ROOT / "data" / "aa-runs" / "2026-11-27" / "rounds"


def rounds(folder: Path) -> list[tuple[str, dict]]:
    """Every entry of every round file, with its side, in the order the forks ran."""
    files = sorted(folder.glob("round-*.json"), key=lambda p: int(re.search(r"-(\d+)\.json$", p.name)[1]))
    return [(re.match(r"round-\d+-(.+)-\d+\.json$", f.name)[1], e)
            for f in files for e in json.loads(f.read_text(encoding="utf-8"))]


def row_side(side: str, entry: dict) -> tuple[str, str, str]:
    params = {k: v for k, v in (entry.get("params") or {}).items() if k != "variant"}
    return entry["benchmark"], json.dumps(params, sort_keys=True), side


def median_sd(groups: dict, least: int = 4) -> float:
    return float(np.median([np.std(v, ddof=1) for v in groups.values() if len(v) >= least]))


def windows(entries: list[tuple[str, dict]]) -> None:
    print("each fork by its last w iterations: median fork sd over row-sides")
    for name in ("median", "p10", "min"):
        cells = []
        for w in (10, 20, 30, 40, 50):
            groups = defaultdict(list)
            for side, e in entries:
                higher = e["primaryMetric"]["scoreUnit"].startswith("ops/")
                for fork in e["primaryMetric"]["rawData"]:
                    if len(fork) >= max(w, 30):
                        groups[row_side(side, e)].append(math.log(steady.figure(fork[-w:], name, higher)))
            cells.append(f"{w / 10:.0f} s {median_sd(groups):.1%} ({sum(len(v) >= 4 for v in groups.values())})")
        print(f"  {name:>6}: " + ", ".join(cells))


def neighbours(entries: list[tuple[str, dict]], estimate: str, k: int = 3) -> None:
    seq = [(row_side(side, e), math.log(f.value)) for side, e in entries for f in steady.entry_forks(e, estimate)]
    groups = defaultdict(list)
    for key, v in seq:
        groups[key].append(v)
    centre = {key: float(np.median(v)) for key, v in groups.items()}
    dev = np.array([v - centre[key] for key, v in seq])
    keys = [key for key, _ in seq]
    lags = ", ".join(f"{lag} apart {np.corrcoef(dev[:-lag], dev[lag:])[0, 1]:.2f}" for lag in (1, 3, 10, 30))
    near = np.array([np.mean([dev[j] for j in range(max(0, i - k), min(len(dev), i + k + 1))
                              if keys[j] != keys[i]] or [0.0]) for i in range(len(dev))])
    corrected = defaultdict(list)
    for key, d in zip(keys, dev - near):
        corrected[key].append(d)
    print(f"by the {estimate}: {len(dev)} forks; correlation of a fork's departure with the forks after it: "
          f"{lags}; median fork sd {median_sd(groups):.1%}, corrected by the {2 * k} neighbouring forks "
          f"of other row-sides {median_sd(corrected):.1%}")


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DAY
    entries = rounds(folder)
    windows(entries)
    for estimate in ("mean", "p10"):
        neighbours(entries, estimate)
