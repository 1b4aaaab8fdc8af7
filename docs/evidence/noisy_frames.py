"""Do a row's frames decide where its time does not? On runs whose timed forks carried the CPU
sampler (a tail after the counted iterations): per row, the frames the attribution tested and
called changed (Welch over forks, Benjamini-Hochberg at 5%), beside the row's time verdict. A
frame's share of a fork's samples hardly moves when the host slows the whole fork, so on a noisy
day frames might be called changed in rows whose time is left undecided.

Prints per run and case the median fork CV, then each row: its verdict, forks a side, frames
tested and called; and per run the count: rows undecided by their time, how many of those had
two forks a side or more (a frame can be tested), and on how many frames were called changed;
and the rows decided by their time, and on how many of those frames were called changed.

    .venv/bin/python docs/evidence/noisy_frames.py [results folder ...]

Without folders: the committed runs under data/noisy-days/ (quiet/: a default run on a quiet
day; waves/: the same made noisy on purpose by docs/evidence/host_waves.sh beside it).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import hotpath as hp  # noqa: E402
from hotpath.analyze import cpu as C  # noqa: E402

UNDECIDED = "undecided"
RUNS = ROOT / "data" / "noisy-days"


def count(folder: Path) -> None:
    rows = undecided = testable = called_where_undecided = decided = called_where_decided = 0
    print(f"{folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}:")
    for results in sorted(folder.glob("*.json")):
        if results.name.count(".") > 1:  # <case>.json only, not its passes
            continue
        profiles = C.read(results)
        if not profiles.measured:
            print(f"  {results.stem}: no CPU samples")
            continue
        pairs = hp.pair(hp.read_results(results).frame).pairs
        called = C.frames_called(profiles, pairs)
        cv = [v for v in pairs["fork_cv"] if v == v]
        print(f"  {results.stem}: median fork CV {statistics.median(cv):.1%}" if cv else f"  {results.stem}")
        for r in called.itertuples():
            print(f"    {r.benchmark.rsplit('.', 1)[-1]}({r.params}), {r.candidate}: {r.verdict}; "
                  f"{r.forks} fork(s) a side; {r.called} of {r.tested} frames called changed")
        rows += len(called)
        open_ = called[called["verdict"] == UNDECIDED]
        undecided += len(open_)
        testable += int((open_["forks"] >= 2).sum())
        called_where_undecided += int((open_["called"] > 0).sum())
        closed = called[called["verdict"] != UNDECIDED]
        decided += len(closed)
        called_where_decided += int((closed["called"] > 0).sum())
    print(f"  all: {rows} rows sampled, {undecided} undecided by their time, {testable} of them with "
          f"two forks a side or more; on {called_where_undecided}, frames were called changed; "
          f"{decided} decided by their time, on {called_where_decided} of them frames called changed")


if __name__ == "__main__":
    for path in ([Path(a) for a in sys.argv[1:]] or sorted(p for p in RUNS.iterdir() if p.is_dir())):
        count(path.resolve())
