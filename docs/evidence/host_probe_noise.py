"""Does the host-speed probe explain the forks' noise? Each counted iteration's time beside its probe.

For every run folder given (a default run's data/results/<profile>/, whose <case>.json files hold
the timed forks, or a run of two builds or an A/A, whose baseline.json and candidate.json do), it
prints how the code's time moves with the probe within forks and between them, the forks' spread
(fork CV: the standard deviation of the log fork figures) by three estimates — each fork's 10th
percentile as the verdicts take it, the same over the iterations whose probe ran within 3% of the
run's fastest, and over every iteration scaled by its probe — and the noisiest row-sides with how
slow the probe ran there.

With --steps it replays host steps on the first run's forks: stretches of 0.7-1.9 s at 1.5-2.1x
slower, about 40% of the time (the steps one fork of unchanged code showed on a contended day),
laid on the code's time, and on the probe as fully (what the probe is built to see: the vCPU itself
runs slower) or by half the step's excess (a probe that sees the steps less than the code feels
them). It prints each estimate's fork CV and how far a fork's figure moved from its own without
steps; the estimate to choose is the one the steps move least.

    .venv/bin/python docs/evidence/host_probe_noise.py                      # the committed runs
    .venv/bin/python docs/evidence/host_probe_noise.py data/results/quick   # another run
    .venv/bin/python docs/evidence/host_probe_noise.py --steps              # steps replayed
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hotpath.analyze import hostspeed, load  # noqa: E402
from hotpath.records import SLOW_PROBE  # noqa: E402

RUNS = sorted((ROOT / "data" / "host-probe" / "runs").glob("*/"))
ITERATION_S = 0.1
SEEDS = 20
NOISIEST = 6
#: A fork the probe calls slow for a stretch: over this share of its iterations at this many times
#: the run's fastest probe.
STRETCH_SHARE, STRETCH_SLOW = 0.2, 1.1


def sides_of(folder: Path) -> list[hostspeed.Side]:
    """Every row-side of a run folder whose forks recorded the probe."""
    files = [p for p in sorted(folder.glob("*.json"))
             if p.name.count(".") == 1 and p.stem not in ("ab", "sites")]
    if not files:
        raise SystemExit(f"{folder}: no results files (<case>.json, or baseline.json and candidate.json)")
    found = []
    for path in files:
        side = path.stem if path.stem in ("baseline", "candidate") else ""
        for s in hostspeed.sides(load.read_results(path).frame):
            found.append(s if not side else hostspeed.Side(s.benchmark, s.params, f"{side} {s.variant}".strip(),
                                                           s.unit, s.times, s.probes))
    if not found:
        raise SystemExit(f"{folder}: no fork recorded host.probe beside its iterations")
    return found


def _test(x: np.ndarray, y: np.ndarray, centred: int) -> tuple[float, int, float, float]:
    """(r, degrees of freedom, two-sided p, slope) of y against x, each already centred about
    ``centred`` means of its own (a fork's or a row-side's), which the degrees of freedom lose."""
    from scipy import stats

    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    r = float(np.corrcoef(x, y)[0, 1])
    df = len(x) - centred - 1
    t = r * math.sqrt(df / (1 - r * r))
    return r, df, float(2 * stats.t.sf(abs(t), df)), float(np.polyfit(x, y, 1)[0])


def explained(found: list[hostspeed.Side], fastest: float) -> list[str]:
    """Both correlations as tested: how many iterations or forks, the p-value, the share of the
    variance they explain (r squared) and the slope, and the most a correction fitted on this
    very run could take off the forks' spread (a standard deviation times sqrt(1 - r^2))."""
    logs = [hostspeed._logs(s, fastest) for s in found]
    within_t = np.concatenate([t for t, _, _, _ in logs])
    within_p = np.concatenate([p for _, p, _, _ in logs])
    forks = sum(len(s.times) for s in found)
    between = [(t, p) for _, _, t, p in logs if len(t) > 1]
    lines = []
    r, df, p, slope = _test(within_p, within_t, forks)
    lines.append(f"within forks, pooled: r = {r:+.3f} over {len(within_t):,} iterations of {forks} forks "
                 f"(p = {p:.1g}), {r * r:.1%} of the variance; slope {slope:+.2f}")
    if between:
        bt = np.concatenate([t for t, _ in between])
        bp = np.concatenate([p for _, p in between])
        r, df, p, slope = _test(bp, bt, len(between))
        lines.append(f"between forks: r = {r:+.3f} over {len(bt)} forks of the {len(between)} row-sides "
                     f"with two or more (p = {p:.1g}), {r * r:.1%} of the variance; slope {slope:+.2f}; "
                     f"a fit on this run would narrow the forks' spread to {math.sqrt(1 - r * r):.3f}x "
                     f"its width at most")
    return lines


def show(folder: Path) -> None:
    found = sides_of(folder)
    figures = hostspeed.pooled(found)
    table = hostspeed.per_side(found)
    print(f"{folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder}: "
          f"{figures['row_sides']} row-sides, {figures['forks']} forks, {figures['iterations']} counted iterations")
    print(f"  the probe: fastest {figures['fastest_probe_us']:.1f} µs; median {figures['probe_p50']:.3f}x, "
          f"90th percentile {figures['probe_p90']:.3f}x the fastest; {figures['slow_share']:.1%} of "
          f"iterations at {SLOW_PROBE:g}x its full speed (its 10th percentile) or more")
    print(f"  log time against log probe: within forks r = {figures['within_r']:+.3f}; "
          f"between forks r = {figures['between_r']:+.3f}")
    for line in explained(found, figures["fastest_probe_us"]):
        print(f"    {line}")
    for how in hostspeed.ESTIMATES:
        print(f"  fork CV, {how}: median {figures[f'{how}: median fork CV']:.1%}, "
              f"90th percentile {figures[f'{how}: p90 fork CV']:.1%}")
    fastest = figures["fastest_probe_us"]
    slow_r, moved, forks = [], [], 0
    for s in found:
        for t, p in zip(s.times, s.probes):
            forks += 1
            if np.mean(p >= STRETCH_SLOW * fastest) > STRETCH_SHARE and len(t) > 3:
                slow_r.append(float(np.corrcoef(np.log(t), np.log(p))[0, 1]))
            near = hostspeed.fork_figure(t, p, hostspeed.NEAR, fastest)
            if math.isfinite(near):
                moved.append(near / hostspeed.fork_figure(t, p, hostspeed.RAW, fastest))
    m = np.asarray(moved)
    # the code's time where the probe ran slow, against its fork's median, and where it ran fast
    where = [(t / np.median(t), p >= SLOW_PROBE * fastest) for s in found for t, p in zip(s.times, s.probes)]
    slow_t = np.concatenate([r[k] for r, k in where])
    fast_t = np.concatenate([r[~k] for r, k in where])
    if len(slow_t):
        print(f"  the code's time against its fork's median, where the probe ran {SLOW_PROBE:g}x or slower: "
              f"median {np.median(slow_t):.3f}x, 90th percentile {np.quantile(slow_t, 0.9):.3f}x; where it "
              f"did not: {np.median(fast_t):.3f}x, {np.quantile(fast_t, 0.9):.3f}x")
    print(f"  forks with the probe {STRETCH_SLOW:g}x its fastest or slower in over {STRETCH_SHARE:.0%} of "
          f"their iterations: {len(slow_r)} of {forks}"
          + (f"; log time against log probe within them r = {min(slow_r):+.2f} to {max(slow_r):+.2f} "
             f"(median {np.median(slow_r):+.2f})" if slow_r else ""))
    print(f"  a fork's p10 near the probe's fastest against its p10: {m.min():.3f}x to {m.max():.3f}x "
          f"(1st to 99th percentile {np.quantile(m, 0.01):.3f}x to {np.quantile(m, 0.99):.3f}x)")
    print("  the noisiest row-sides (fork CV by p10), and the probe's 90th percentile there:")
    for _, r in table.sort_values(hostspeed.RAW, ascending=False).head(NOISIEST).iterrows():
        print(f"    {r['row']}: {r[hostspeed.RAW]:.1%} over {r['forks']} forks; the probe "
              f"{r['probe_p90']:.3f}x its fastest; within-fork r {r['within_r']:+.2f}")


def stepped(n: int, rng: np.random.Generator) -> np.ndarray:
    """One fork's host: 1 where it ran at full speed, 1.5-2.1 where a step slowed it."""
    factor = np.ones(n)
    at = -int(rng.integers(0, 20))  # the fork starts anywhere in the host's pattern
    slow = bool(rng.random() < 0.4)
    while at < n:
        length = int(rng.integers(7, 20)) if slow else int(rng.integers(11, 24))
        if slow:
            factor[max(at, 0):max(at + length, 0)] = rng.uniform(1.5, 2.1)
        at += length
        slow = not slow
    return factor


def steps(folder: Path, seen: float) -> None:
    found = sides_of(folder)
    fastest = hostspeed.fastest_probe(found)
    rng = np.random.default_rng(59)
    cv = {how: [] for how in hostspeed.ESTIMATES}
    moved = {how: [] for how in hostspeed.ESTIMATES}
    empty = forks = 0
    for _ in range(SEEDS):
        for s in found:
            figures = {how: [] for how in hostspeed.ESTIMATES}
            for t, p in zip(s.times, s.probes):
                f = stepped(len(t), rng)
                g = 1 + seen * (f - 1)
                forks += 1
                empty += not bool((p * g <= hostspeed.NEAR_FASTEST * fastest).any())
                for how in hostspeed.ESTIMATES:
                    got = hostspeed.fork_figure(t * f, p * g, how, fastest)
                    quiet = hostspeed.fork_figure(t, p, how, fastest)
                    figures[how].append(got)
                    if math.isfinite(got) and math.isfinite(quiet):
                        moved[how].append(got / quiet)
            for how in hostspeed.ESTIMATES:
                cv[how].append(hostspeed.fork_cv(figures[how]))
    print(f"host steps replayed on {folder.name}'s forks, the probe slowed by {seen:.0%} of each step's "
          f"excess ({SEEDS} draws of every fork, {forks} forks; "
          f"{empty} ({empty / forks:.0%}) had no iteration where the probe ran near its fastest):")
    for how in hostspeed.ESTIMATES:
        c = np.asarray([v for v in cv[how] if math.isfinite(v)])
        m = np.asarray(moved[how])
        print(f"  {how}: fork CV median {np.median(c):.1%}, 90th percentile {np.quantile(c, 0.9):.1%}; "
              f"a fork's figure {np.median(m):.3f}x its own without steps at the median, "
              f"{np.quantile(m, 0.9):.3f}x at the 90th percentile, {m.max():.2f}x at most")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    folders = [Path(a).resolve() for a in args] or RUNS
    if not folders:
        raise SystemExit("no runs under data/host-probe/runs/: give a run's folder")
    for f in folders:
        show(f)
    if "--steps" in sys.argv:
        for seen in (1.0, 0.5):
            steps(folders[0], seen)
