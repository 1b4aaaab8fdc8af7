"""Sequential fork plan: repeated confidence intervals that survive a look after every round.

A row (benchmark x params, a candidate against old) gains one fork per side per round. From
``min_forks`` per side on it is looked at after every round and closes as soon as its verdict
is decided. Testing after every round at the fixed-sample 95% level and stopping at the first
significant result would call far more than 5% of unchanged rows faster or slower; here every
look uses a wider interval, so that all the looks of a row together keep the 95%.

The rule is a group-sequential design with alpha spending (Lan and DeMets), with the
spending function alpha * (n / cap) of the power family (Kim and DeMets, rho = 1, between
Pocock's and O'Brien-Fleming's): a row spends its 5% evenly over the forks up to its cap,
so a large change is decided at the first look (4 forks) and a small one keeps power near
the cap. Its intervals are repeated confidence intervals (Jennison and Turnbull): the
interval at every look covers the true ratio with 95% simultaneously, so a row closed early
by the time budget still reports a valid interval, and the three-state verdict (faster,
slower, same at +-5%) reads off it as before.

The statistic is Welch's on the logs of the fork means (their difference over its standard
error, hotpath.stats.welch). Its critical values per look cannot come from the normal
recursion of a classic design, because the standard error is estimated from as few as four
forks; they are calibrated instead by simulation of that same statistic under no change
(normal log fork means, a fixed seed: the same design always has the same boundaries). The
tests check the rule by simulation with fork means drawn as measured on this machine.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np

from .forks import fork_means
from .welch import welch, welch_paths

#: Log fork means of one side for ``simulate``: ``draw(rng, (paths, forks))``.
Draw: TypeAlias = Callable[[np.random.Generator, tuple[int, int]], np.ndarray]

#: Changes within +-THRESHOLD of the old score count as "same" (criterion's noise threshold).
THRESHOLD = 0.05
ALPHA = 0.05
#: The first look: with fewer fork means per side the standard error means little.
MIN_FORKS = 4
#: Spending function alpha * t ** RHO (t = forks / cap).
RHO = 1.0
#: A design's cap where a run names none (a run before the sequential plan recorded its design).
DEFAULT_CAP = 24
#: Simulated paths behind the boundaries: their Monte Carlo error moves a row's error rate
#: by well under a tenth of a point.
_PATHS = 100_000
_SEED = 20261124


@dataclass(frozen=True)
class Design:
    """A row's sequential design: looks from ``min_forks`` to ``cap`` forks per side."""

    cap: int
    min_forks: int = MIN_FORKS
    alpha: float = ALPHA
    rho: float = RHO

    def __post_init__(self) -> None:
        if self.cap < self.min_forks:
            raise ValueError(f"a design's cap ({self.cap}) is below its first look "
                             f"({self.min_forks})")

    def boundary(self, forks: int) -> float:
        """The critical value of the look at ``forks`` per side (infinite before the first)."""
        if forks < self.min_forks:
            return math.inf
        values = boundaries(self.min_forks, self.cap, self.alpha, self.rho)
        return float(values[min(forks, self.cap) - self.min_forks])

    def describe(self) -> str:
        return (f"sequential: looks after every round from {self.min_forks} to {self.cap} forks "
                f"per side, alpha {self.alpha:g} spent as alpha * (n / {self.cap})"
                + (f"^{self.rho:g}" if self.rho != 1 else "")
                + " (repeated 95% confidence intervals)")

    def as_dict(self) -> dict[str, Any]:
        return {"min_forks": self.min_forks, "cap": self.cap, "alpha": self.alpha, "rho": self.rho}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Design":
        return cls(cap=int(d["cap"]), min_forks=int(d.get("min_forks", MIN_FORKS)),
                   alpha=float(d.get("alpha", ALPHA)), rho=float(d.get("rho", RHO)))


def spent(t: float, alpha: float = ALPHA, rho: float = RHO) -> float:
    """Alpha spent by information fraction t (forks / cap)."""
    return alpha * float(min(max(t, 0.0), 1.0) ** rho)


@functools.lru_cache(maxsize=None)
def boundaries(min_forks: int, cap: int, alpha: float = ALPHA, rho: float = RHO) -> np.ndarray:
    """Critical values of |difference / standard error| for the looks min_forks..cap: the
    shipped table's where it holds the design (the same floats), else simulated."""
    known = _table().get(_design_key(min_forks, cap, alpha, rho))
    return np.array(known, dtype=float) if known is not None else simulated_boundaries(min_forks, cap, alpha, rho)


#: The boundaries of every design the profiles make (``profiles.designs``), simulated once and
#: shipped: a render's kernels each simulated them again, 0.1-0.3 s a design, 4-6 s of CPU in
#: all. ``profiles.write_boundaries()`` writes it; a test holds it to the simulation and to the
#: profiles' designs.
TABLE = Path(__file__).with_name("boundaries.json")


def _design_key(min_forks: int, cap: int, alpha: float, rho: float) -> str:
    return f"{min_forks} {cap} {alpha!r} {rho!r}"


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, list[float]]:
    """The shipped boundaries by design; none where the table is missing, unreadable or made
    with other paths or another seed than the simulation's."""
    try:
        table = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(table, dict) or (table.get("paths"), table.get("seed")) != (_PATHS, _SEED):
        return {}
    designs = table.get("designs")
    return designs if isinstance(designs, dict) else {}


def write_table(designs: Iterable[tuple[int, int]]) -> Path:
    """The table of ``designs`` (first look, cap) at the default alpha and rho, simulated."""
    found = {_design_key(first, cap, ALPHA, RHO): [float(v) for v in simulated_boundaries(first, cap)]
             for first, cap in sorted(set(designs))}
    TABLE.write_text(json.dumps({"paths": _PATHS, "seed": _SEED, "designs": found}, indent=1) + "\n",
                     encoding="utf-8")
    return TABLE


def simulated_boundaries(min_forks: int, cap: int, alpha: float = ALPHA, rho: float = RHO) -> np.ndarray:
    """Critical values of |difference / standard error| for the looks min_forks..cap.

    At each look the boundary is the value that the paths not yet stopped exceed with the
    probability the spending function releases at that look."""
    rng = np.random.default_rng(_SEED + 1000 * min_forks + cap)
    diff, se = welch_paths(rng.standard_normal((_PATHS, cap)), rng.standard_normal((_PATHS, cap)))
    with np.errstate(divide="ignore", invalid="ignore"):
        # a look's statistics in a row of their own: each look reads one contiguous row
        looks = np.ascontiguousarray(np.abs(diff / se)[:, min_forks - 1:].T)
    alive = np.ones(_PATHS, dtype=bool)
    out = []
    before = 0.0
    for stat, forks in zip(looks, range(min_forks, cap + 1)):
        now = spent(forks / cap, alpha, rho)
        crossing = int(round((now - before) * _PATHS))
        before = now
        values = stat[alive]
        # the crossing-th largest: where a full sort (NaN last) would put it, found without one
        at = len(values) - crossing
        c = float(np.partition(values, at)[at]) if 0 < crossing <= len(values) else math.inf
        out.append(c)
        alive &= ~(stat >= c)
    return np.array(out)


@dataclass
class Interval:
    """A ratio new/old (of geometric means of fork means) and its interval at a look."""

    ratio: float
    low: float
    high: float
    forks: int  # the look: fork means on the side with fewer


def interval(old_means: Sequence[float] | np.ndarray, new_means: Sequence[float] | np.ndarray,
             design: Design) -> Interval:
    """The repeated confidence interval of new/old at the look the fork counts reach."""
    o = np.log(np.asarray(old_means, dtype=float))
    n = np.log(np.asarray(new_means, dtype=float))
    forks = int(min(len(o), len(n)))
    if not forks or not np.isfinite(o).all() or not np.isfinite(n).all():
        return Interval(math.nan, math.nan, math.nan, forks)
    if forks < 2:
        return Interval(math.exp(float(n.mean() - o.mean())), math.nan, math.nan, forks)
    w = welch(o, n)
    c = design.boundary(forks)
    if not math.isfinite(c):
        return Interval(math.exp(w.diff), math.nan, math.nan, forks)
    return Interval(math.exp(w.diff), math.exp(w.diff - c * w.se), math.exp(w.diff + c * w.se),
                    forks)


def decision(low: float, high: float, higher_is_better: bool,
             threshold: float = THRESHOLD) -> str | None:
    """faster / slower when the interval lies beyond +-threshold, same when inside it."""
    if math.isnan(low) or math.isnan(high):
        return None
    if 1 - threshold <= low and high <= 1 + threshold:
        return "same"
    if high < 1 - threshold or low > 1 + threshold:
        improved = (low > 1) if higher_is_better else (high < 1)
        return "faster" if improved else "slower"
    return None


def forks_to_decide(ratio: float, fork_cv: float, design: Design,
                    threshold: float = THRESHOLD, most: int = 1000) -> int:
    """Forks per side a row would need, at its ratio and fork CV, for its interval to clear or
    fit inside the +-threshold band (the design's last boundary; an estimate, not a promise)."""
    if not (ratio > 0) or math.isnan(fork_cv):
        return 0
    distance = abs(abs(math.log(ratio)) - math.log(1 + threshold))
    if distance == 0:
        return most
    c = design.boundary(design.cap)
    sd = math.sqrt(math.log(1 + fork_cv ** 2))  # log-normal: the SD of the logs
    n = math.ceil(2 * (c * sd / distance) ** 2)
    return int(min(max(n, design.min_forks), most))


def pooled_fork_cv(old: list[list[float]], new: list[list[float]]) -> float:
    """The fork CV of a row, both sides pooled (the SD of the log fork means, as a CV)."""
    logs = [np.log(m) for m in (fork_means(old), fork_means(new)) if len(m) >= 2 and (m > 0).all()]
    if not logs:
        return math.nan
    var = sum(((x - x.mean()) ** 2).sum() for x in logs) / sum(len(x) - 1 for x in logs)
    return float(math.sqrt(math.exp(var) - 1))


#: Why a row stopped taking forks.
DECIDED, CAP, BUDGET, FAILED = "decided", "cap", "budget", "failed"
#: Closed at a look because its ratio and fork CV ask for more forks than its cap (a profile's
#: ``drop_out_of_reach``): its forks would narrow an interval, not decide a verdict.
OUT_OF_REACH = "out of reach"


def simulate(design: Design, draw: Draw, true_ratio: float, paths: int = 20_000, seed: int = 1,
             higher_is_better: bool = False, threshold: float = THRESHOLD) -> dict[str, float]:
    """Run the plan on simulated rows: ``draw(rng, shape)`` gives log fork means of one side
    (the new side is shifted by log(true_ratio)). Returns the shares of rows called faster,
    slower and same, the share whose interval at its stop covers the true ratio, and the mean
    forks per side taken."""
    rng = np.random.default_rng(seed)
    old = draw(rng, (paths, design.cap))
    new = draw(rng, (paths, design.cap)) + math.log(true_ratio)
    return run_paths(design, old, new, true_ratio, higher_is_better, threshold)


#: Paths the plan runs on at once (:func:`run_paths`): each path's figures are its own, so the
#: counts over blocks are the whole's, and a block's temporaries stay in the cache; the A/A
#: report's 54 rows of 20,000 paths took 2.0 s of CPU whole, 1.2 s in blocks of 1,024.
PATH_BLOCK = 1024


def run_paths(design: Design, old: np.ndarray, new: np.ndarray, true_ratio: float = 1.0,
              higher_is_better: bool = False, threshold: float = THRESHOLD) -> dict[str, float]:
    """The plan on given rows: log fork means of shape (paths, cap) per side, fork k of both
    sides taken in round k. Shares as :func:`simulate` returns them."""
    paths = old.shape[0]
    c = np.array([design.boundary(k) for k in range(1, design.cap + 1)])
    # the rounds before the first look decide nothing (infinite boundary): not computed
    first = int(np.argmax(np.isfinite(c))) if np.isfinite(c).any() else 0
    c = c[first:]
    counts = np.zeros(5, dtype=np.int64)  # faster, slower, same, covered, forks taken
    for i in range(0, paths, PATH_BLOCK):
        diff, se = (x[:, first:] for x in welch_paths(old[i:i + PATH_BLOCK], new[i:i + PATH_BLOCK]))
        counts += _stops(diff, se, c, first, true_ratio, higher_is_better, threshold)
    faster, slower, same, covered, forks = (float(n) / paths for n in counts)
    return {"faster": faster, "slower": slower, "same": same, "coverage": covered, "mean_forks": forks}


def _stops(diff: np.ndarray, se: np.ndarray, c: np.ndarray, first: int, true_ratio: float,
           higher_is_better: bool, threshold: float) -> np.ndarray:
    """Of some paths (the rounds from ``first`` on, their boundaries ``c``): how many were
    called faster, slower and same at their stop, how many intervals there covered the true
    ratio, and the forks per side they took in all."""
    with np.errstate(invalid="ignore", divide="ignore"):  # se may be 0, a boundary infinite
        low, high = np.exp(diff - c * se), np.exp(diff + c * se)
    inside = (low >= 1 - threshold) & (high <= 1 + threshold)
    beyond = (high < 1 - threshold) | (low > 1 + threshold)
    decided = (inside | beyond) & np.isfinite(c)
    stop = np.where(decided.any(axis=1), decided.argmax(axis=1), len(c) - 1)
    rows = np.arange(len(stop))
    lo, hi = low[rows, stop], high[rows, stop]
    better = (lo > 1) if higher_is_better else (hi < 1)
    called = beyond[rows, stop]
    return np.array([(called & better).sum(), (called & ~better).sum(), inside[rows, stop].sum(),
                     ((lo <= true_ratio) & (true_ratio <= hi)).sum(), (stop + first + 1).sum()])


def lognormal(fork_cv: float) -> Draw:
    """Fork means log-normal with this CV (as drawn by :func:`simulate`)."""
    sd = math.sqrt(math.log(1 + fork_cv ** 2))
    # standard normals scaled: the same numbers as rng.normal(0.0, sd), drawn 30% faster
    return lambda rng, shape: sd * rng.standard_normal(shape)


def positive_delays(fork_cv: float, estimate: str, iterations: int = 20, noise: float = 0.02,
                    busy: float = 0.3, burst: int = 8, slower: tuple[float, float] = (0.10, 0.40)) -> Draw:
    """Forks whose iterations carry the host's interference, summarized by ``estimate``
    (hotpath.stats.steady.figure): each fork's level log-normal with this CV, each iteration's
    noise ``noise``, and busy stretches of ``burst`` iterations (0.8 s of 100 ms ones) covering
    about ``busy`` of the time, every iteration in one ``slower[0]``-``slower[1]`` slower: the
    host measured here, where other tenants slow settled code by 10-40% for seconds at a time
    and never speed it up. Returns log fork figures, as :func:`simulate` takes them."""
    from . import steady

    sd = math.sqrt(math.log(1 + fork_cv ** 2))

    def draw(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
        paths, forks = shape
        level = rng.normal(0.0, sd, shape)[..., None]
        x = np.exp(level + rng.normal(0.0, noise, (paths, forks, iterations)))
        starts = rng.random((paths, forks, iterations + burst)) < busy / burst
        window = np.ones(burst)
        # an iteration is busy when a stretch started within the burst iterations before it
        covered = np.apply_along_axis(lambda a: np.convolve(a, window)[:len(a)], -1,
                                      starts.astype(float))[..., burst:] > 0
        x = x * (1 + covered * rng.uniform(*slower, (paths, forks, iterations)))
        if estimate == steady.MEAN:
            figures: np.ndarray = x.mean(axis=-1)
        else:
            figures = np.quantile(x, steady.QUANTILES[estimate], axis=-1)
        return np.asarray(np.log(figures))
    return draw


def two_level(share_high: float, high: float, fork_cv: float) -> Draw:
    """Fork means at one of two levels (a share of forks lands ``high`` times slower), each
    log-normal with this CV: the JIT's two outcomes seen in EncoderPayloadBenchmark STR_1K."""
    sd = math.sqrt(math.log(1 + fork_cv ** 2))
    return lambda rng, shape: (rng.normal(0.0, sd, shape)
                               + (rng.random(shape) < share_high) * math.log(high))
