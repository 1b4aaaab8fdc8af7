"""How often the attribution calls a frame changed on identical code: the forks of one row with
the sampler (data/cpu-sampler/cost/, made by cpu_sampler_cost.py --run, every measured iteration
sampled; and data/cpu-sampler/tail/, by --run-tail, the timed forks' kind: a tail of 3 sampled
iterations after the counted ones) split into two sides of the same code, every frame tested as
a report tests it (Welch over forks, Benjamini-Hochberg at 5% across the row's frames).

Each row's 12 forks are split SPLITS times at random (seeded) into two halves of 6; per split the
frames tested (by self time, as a report's table decides them) and the frames called changed
are counted. Prints per row the share of tested frames called changed (over all splits) and the
share of splits that called any: what Benjamini-Hochberg's 5% bounds where nothing changed.

Then a whole A/A run with the timed forks' tail (data/cpu-sampler/aa/, made by `hotpath aa
--budget 30m --results data/cpu-sampler/aa`): the write-ups' rows, old against old as two sides
the plan does not know are the same, every row's frames tested as its report tests them
(hotpath.AA.false_frames). Prints the frames tested and called, over all rows.

    .venv/bin/python docs/evidence/false_frames.py
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hotpath.analyze import cpu as C  # noqa: E402
from hotpath.jmh import parse_json  # noqa: E402
from hotpath.analyze.aa import AA  # noqa: E402
from hotpath import tail  # noqa: E402
from hotpath.measure import cpu  # noqa: E402

COST = ROOT / "data" / "cpu-sampler" / "cost"
TAIL = ROOT / "data" / "cpu-sampler" / "tail"
AA_RUN = ROOT / "data" / "cpu-sampler" / "aa"
REFERENCE_AA = ROOT / "data" / "reference" / "aa"
SPLITS = 200
SEED = 20261128


def forks(folder: Path, row: str) -> list[dict]:
    """The row's forks with the sampler, each as the collected file keeps a fork (a tail's
    fork's results without its tail, as a run's are)."""
    out = []
    for path in sorted(folder.glob(f"{row}.with.*.cpu")):
        results = path.with_suffix(".json")
        entry = tail.counted(parse_json(results.read_bytes(), results)[0], results)
        out.append(cpu.counted(cpu.read_fork(path), entry, 0))
    return out


def side(name: str, chosen: list[dict], interval: int) -> dict:
    """One side of identical code: some of the row's forks, as the collected file keeps them."""
    return cpu.packed({"benchmark": "row", "params": {"variant": name}, "engine": "cpu",
                       "interval_ns": interval, "forks": chosen})


def main() -> None:
    calling = every = 0
    for folder in (COST, TAIL):
        print(f"{folder.relative_to(ROOT)}:")
        called, made = splits(folder)
        calling, every = calling + called, every + made
    print(f"every row's splits: {calling} of {every} called any frame ({calling / every:.1%})")
    if (AA_RUN / "ab.json").is_file():
        whole_run(AA_RUN)
    for folder in (AA_RUN, REFERENCE_AA):
        if (folder / "ab.cpu.json").is_file():
            tails(folder)


def tails(folder: Path) -> None:
    """How many of an A/A run's forks a report sets aside, their tail apart from their counted
    time (hotpath.analyze.cpu.tails_apart), and how many ran more than 10% apart at all."""
    profiles = C.read_file(folder / "ab.cpu.json")
    forks = aside = beyond = rows = 0
    for _, g in profiles.sides.groupby(["benchmark", "params"]):
        entries = list(g["entry"])
        apart, _ = C.tails_apart(entries)
        forks += sum(len(e["forks"]) for e in entries)
        aside += sum(len(k) for k in apart)
        rows += any(apart)
        beyond += sum(abs(math.log(f["sampled_time_ns"] / f["time_ns"])) > math.log(1.1)
                      for e in entries for f in e["forks"] if "sampled_time_ns" in f)
    print(f"{folder.relative_to(ROOT)}: {aside} of {forks} forks set aside (in {rows} rows), their tail "
          f"further from their counted time than their row's forks run apart; {beyond} ran more than "
          f"10% from it")


def whole_run(folder: Path) -> None:
    run = AA(folder)
    frames = run.false_frames()
    counts = run.counts().iloc[-1]
    tested, called = int(frames["tested"].sum()), int(frames["called"].sum())
    testable = frames[frames["forks"] >= 2]
    print(f"{folder.relative_to(ROOT)}: {len(frames)} rows sampled ({len(testable)} with two forks a side "
          f"or more, {int(testable['forks'].median()) if len(testable) else 0} a side at the median); "
          f"{called} of {tested} frames tested called changed ({called / tested if tested else 0:.2%}), "
          f"in {int((frames['called'] > 0).sum())} rows; the rows' time verdicts: "
          + ", ".join(f"{int(counts[k])} {k}" for k in ("same", "faster", "slower", "undecided")
                      if k in counts.index))


def splits(folder: Path) -> tuple[int, int]:
    """Per row, its splits; returns the splits that called any frame and the splits made."""
    rng = random.Random(SEED)
    calling = made = 0
    for path in sorted({p.name.split(".with.")[0] for p in folder.glob("*.with.*.cpu")}):
        every = forks(folder, path)
        interval = cpu.read_fork(next(folder.glob(f"{path}.with.*.cpu")))["interval_ns"]
        tested = called = any_called = 0
        for _ in range(SPLITS):
            order = list(range(len(every)))
            rng.shuffle(order)
            half = len(order) // 2
            a = [every[i] for i in sorted(order[:half])]
            b = [every[i] for i in sorted(order[half:2 * half])]
            document = {"format": C.CPU_FORMAT, "entries": [side("a", a, interval), side("b", b, interval)]}
            scratch = COST.parent / ".false-frames.cpu.json"
            scratch.write_text(json.dumps(document))
            try:
                found = C.attribute(C.read_file(scratch), "row", "", "a", "b")
            finally:
                scratch.unlink(missing_ok=True)
            f = found.frames
            # a report decides a row's frames by self time (the table's; frames_called's too)
            mine = f[(f["how"] == "self") & f["p"].notna()]
            tested += len(mine)
            called += int(mine["decided"].sum())
            any_called += bool(mine["decided"].any())
        print(f"{path}: {len(every)} forks, {SPLITS} splits into two sides of {len(every) // 2}: "
              f"{called} of {tested} frames tested called changed ({called / tested:.2%}); "
              f"{any_called} of {SPLITS} splits called any ({any_called / SPLITS:.1%})")
        calling, made = calling + any_called, made + SPLITS
    return calling, made


if __name__ == "__main__":
    main()
