"""The host's speed beside the code's time: how much of a run's noise the host-speed probe explains.

Every timed fork records ``host.probe`` (hotpath.profiler.HostSpeedProfiler): the time of a fixed,
cache-resident piece of work just before and after each iteration, the faster of the two. Only the
host can change it. Here each counted iteration's time is set beside its probe, within forks and
between them, and a fork's figure is made three ways — as the verdicts make it (the 10th
percentile of its counted iterations), from the iterations where the probe ran near its fastest
only, and from every iteration scaled by its probe — to see which of them the forks agree on best.
The iterations the host ran slow, against its full speed over the run (its probe's 10th
percentile, hotpath.records.full_speed), are counted here, once: per row-side (``traces``) for the
steady state's table, per run (``slow_iterations``) for the noise line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..jmh import MethodName, RowKey, higher_is_better
from ..records import PROBE_METRIC, Slow, full_speed, slow_probes
from ..stats import steady

#: An iteration counts as run at the host's full speed when its probe took at most this many times
#: the run's fastest probe (the probe's own spread on a quiet host is about 1%).
NEAR_FASTEST = 1.03

RAW, NEAR, SCALED = "p10", "p10 where the probe ran near its fastest", "p10 of times scaled by the probe"
ESTIMATES = (RAW, NEAR, SCALED)


@dataclass(frozen=True)
class Side:
    """One row's one side: its counted iterations' times and probes, fork by fork."""

    benchmark: str
    params: str
    variant: str
    unit: str
    times: tuple[np.ndarray, ...]
    probes: tuple[np.ndarray, ...]

    @property
    def label(self) -> str:
        return f"{MethodName.of(self.benchmark).method}({self.params}) {self.variant}".replace("()", "")


def sides(frame: pd.DataFrame) -> list[Side]:
    """Every row-side of a results frame whose forks recorded the probe beside each iteration."""
    if frame.empty or PROBE_METRIC not in set(frame["metric"]):
        return []
    out = []
    keys = ["benchmark", "params", "variant"]
    for (benchmark, params, variant), group in frame.groupby(keys, sort=True):
        score = group[group["metric"] == "score"]
        probe = group[group["metric"] == PROBE_METRIC]
        if score.empty or probe.empty:
            continue
        t_forks, p_forks = score.iloc[0]["raw"], probe.iloc[0]["raw"]
        if len(t_forks) != len(p_forks):
            continue
        times, probes = [], []
        for t, p in zip(t_forks, p_forks):
            t, p = np.asarray(t, dtype=float), np.asarray(p, dtype=float)
            if len(t) != len(p):
                continue
            ok = np.isfinite(t) & np.isfinite(p) & (t > 0) & (p > 0)
            if ok.sum():
                times.append(t[ok])
                probes.append(p[ok])
        if times:
            unit = str(score.iloc[0]["unit"])
            if higher_is_better(unit):  # throughput: the time per op is what the host slows
                times = [1.0 / t for t in times]
            out.append(Side(benchmark, params, variant, unit, tuple(times), tuple(probes)))
    return out


def fastest_probe(found: list[Side]) -> float:
    """The run's fastest probe: the host at its full speed, as near as the run saw it."""
    return min(float(p.min()) for s in found for p in s.probes)


def fork_figure(times: np.ndarray, probes: np.ndarray, how: str, fastest: float) -> float:
    """One fork's time per op by one of ESTIMATES (NaN where no iteration qualifies)."""
    if how == NEAR:
        times = times[probes <= NEAR_FASTEST * fastest]
    elif how == SCALED:
        times = times * fastest / probes
    return steady.figure(list(times), "p10") if len(times) else math.nan


def fork_cv(figures: list[float]) -> float:
    """The forks' spread as the verdicts see it: the standard deviation of their logs."""
    x = np.asarray([f for f in figures if math.isfinite(f) and f > 0])
    return float(np.std(np.log(x), ddof=1)) if len(x) > 2 else math.nan


def _r(x: np.ndarray, y: np.ndarray) -> float:
    if len(x) < 3 or np.std(x) == 0 or np.std(y) == 0:
        return math.nan
    return float(np.corrcoef(x, y)[0, 1])


def _logs(s: Side, fastest: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A row-side's log times and log probes, each fork about its own mean (within forks), and its
    forks' log figures (10th percentile) and log median probes, about the row-side's (between)."""
    within_t = np.concatenate([np.log(t) - np.log(t).mean() for t in s.times])
    within_p = np.concatenate([np.log(p) - np.log(p).mean() for p in s.probes])
    fork_t = np.log([fork_figure(t, p, RAW, fastest) for t, p in zip(s.times, s.probes)])
    fork_p = np.log([float(np.median(p)) for p in s.probes])
    return within_t, within_p, fork_t - fork_t.mean(), fork_p - fork_p.mean()


def per_side(found: list[Side], fastest: float | None = None) -> pd.DataFrame:
    """A row per row-side: how its time moves with the probe within forks and between them, and
    its forks' spread by each estimate."""
    if not found:
        return pd.DataFrame()
    fastest = fastest_probe(found) if fastest is None else fastest
    rows = []
    for s in found:
        within_t, within_p, fork_t, fork_p = _logs(s, fastest)
        row = {
            "row": s.label, "forks": len(s.times),
            "probe_p90": float(np.quantile(np.concatenate(s.probes), 0.9) / fastest),
            "within_r": _r(within_p, within_t),
            "between_r": _r(fork_p, fork_t),
        }
        for how in ESTIMATES:
            row[how] = fork_cv([fork_figure(t, p, how, fastest) for t, p in zip(s.times, s.probes)])
        rows.append(row)
    return pd.DataFrame(rows)


def pooled(found: list[Side], fastest: float | None = None) -> dict[str, float]:
    """The run's figures: the within-fork correlation of log time with log probe over every counted
    iteration (each fork about its own mean), the between-fork one (each row-side about its own),
    and the median and 90th percentile of the row-sides' fork CVs by each estimate."""
    fastest = fastest_probe(found) if fastest is None else fastest
    table = per_side(found, fastest)
    logs = [_logs(s, fastest) for s in found]
    between = [(t, p) for _, _, t, p in logs if len(t) > 1]
    all_p = np.concatenate([p for s in found for p in s.probes])
    slow = slow_iterations(tuple(all_p))
    out = {
        "row_sides": len(found), "forks": int(sum(len(s.times) for s in found)),
        "iterations": len(all_p), "fastest_probe_us": fastest,
        "slow_share": slow.slow / slow.iterations,
        "probe_p50": float(np.median(all_p) / fastest), "probe_p90": float(np.quantile(all_p, 0.9) / fastest),
        "within_r": _r(np.concatenate([p for _, p, _, _ in logs]), np.concatenate([t for t, _, _, _ in logs])),
        "between_r": (_r(np.concatenate([p for _, p in between]), np.concatenate([t for t, _ in between]))
                      if between else math.nan),
    }
    for how in ESTIMATES:
        cv = table[how].dropna()
        out[f"{how}: median fork CV"] = float(cv.median()) if len(cv) else math.nan
        out[f"{how}: p90 fork CV"] = float(cv.quantile(0.9)) if len(cv) else math.nan
    return out


def traces(frame: pd.DataFrame) -> dict[RowKey, Slow]:
    """Each row-side's trace of the host's speed, keyed by the side: how many of its counted
    iterations the probe ran SLOW_PROBE x the run's full speed or slower."""
    found = sides(frame)
    if not found:
        return {}
    full = full_speed(np.concatenate([p for s in found for p in s.probes]))
    return {RowKey.of(s.benchmark, s.params, s.variant): slow_probes(np.concatenate(s.probes), full)
            for s in found}


def probes(frame: pd.DataFrame) -> tuple[float, ...]:
    """The host-speed probe around each counted iteration of every fork of a run (µs)."""
    rows = frame[frame["metric"] == PROBE_METRIC] if "metric" in frame else frame.iloc[0:0]
    return tuple(float(v) for raw in rows["raw"] for fork in raw for v in fork
                 if isinstance(v, (int, float)) and math.isfinite(v) and v > 0)


def slow_iterations(values: tuple[float, ...]) -> Slow:
    """How many of a run's probes (``probes``; of several runs together, the overview's) ran slow
    against the host's full speed over them."""
    return slow_probes(values, full_speed(values)) if values else Slow(0, 0, math.nan)
