"""How much of each row-side's samples a run's CPU attribution puts on JMH's stub frame: the
frame that holds code inlined into it where the sampler cannot name that code (a sampler loaded
after C2 compiled it, without -XX:+DebugNonSafepoints). Reads every ``<case>.cpu.json`` of the
folders given and prints, per row-side, the stub's share of the benchmark thread's self samples
(the median fork's) and what that is of its time per op, for those above 5%, and how many there
are of all.

    .venv/bin/python docs/evidence/stub_shares.py data/results/quick data/noisy-days/quiet
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hotpath.analyze import cpu as C  # noqa: E402
from hotpath.errors import ResultsError  # noqa: E402

#: JMH's generated stub (its frame's name ends so, by the frame names of the report).
STUB = "_jmhStub"
#: Above this share, a row-side's samples on the stub are said.
BAR = 0.05


def shares(folder: Path) -> list[tuple[str, float, float]]:
    """Per row-side of every case's samples in ``folder``: its name, the stub's share and the
    row-side's time per op (ns, the median fork's)."""
    out = []
    for path in sorted(folder.glob("*.cpu.json")):
        profiles = C.read_file(path)
        for _, row in profiles.sides.iterrows():
            try:
                s = C.side(row["entry"])
            except ResultsError:
                continue
            own = s.self_samples
            stub = own[own.index.str.endswith(STUB)].sum(axis=0) / s.samples
            name = f"{row['benchmark'].rsplit('.', 2)[-2]}.{row['benchmark'].rsplit('.', 1)[-1]}"
            out.append((f"{path.name.split('.')[0]} {name}({row['params']}) {row['variant']}",
                        float(statistics.median(stub)), float(statistics.median(s.time_ns))))
    return out


def main(folders: list[str]) -> None:
    for folder in folders:
        found = shares(ROOT / folder)
        above = [(n, v, t) for n, v, t in found if v > BAR]
        print(f"{folder}: {len(above)} of {len(found)} row-sides put more than {BAR:.0%} of their self "
              "samples on JMH's stub (the median fork's share)")
        for name, value, ns in sorted(above, key=lambda x: -x[1]):
            print(f"  {value:6.1%}  {name}: {value * ns:,.3g} of its {ns:,.3g} ns/op")


if __name__ == "__main__":
    main(sys.argv[1:] or ["data/noisy-days/quiet"])
