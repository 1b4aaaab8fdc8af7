"""A row's verdicts as the reports give them: time (faster, slower, same or undecided, with
its interval and a Mann-Whitney U test on the fork means), heap B/op, and a score's precision.

The statistics they stand on sit below every stage (hotpath.stats): fork means, Welch's interval
and the sequential rule's, whose decision the fork plan closed the row by.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..stats import ranks, sequential
from ..stats.forks import fork_means
#: THRESHOLD: changes within +-5% count as "same" (criterion's noise threshold); MIN_FORKS:
#: Mann-Whitney U cannot reach p < 0.05 with fewer than 4 values per side.
from ..stats.sequential import ALPHA, MIN_FORKS, THRESHOLD
from ..stats.welch import CONFIDENCE, t_quantile, welch_ratio_ci

#: Fork means varying more than this (coefficient of variation) earn a warning.
HIGH_FORK_CV = 0.10
#: The precision a decisive run aims at: each score's 95% CI half-width within 3% of it.
PRECISION_GOAL = 0.03
#: B/op below this is alignment noise, not a change (objects are 8-byte aligned).
ALLOC_NOISE_BYTES = 8.0


@dataclass
class TimeVerdict:
    verdict: str  # "faster", "slower", "same", "undecided"
    ratio: float  # new / old score
    ci_low: float
    ci_high: float
    p_value: float
    warnings: list[str] = field(default_factory=list)


def mann_whitney_p(old: np.ndarray, new: np.ndarray) -> float:
    if len(old) < 2 or len(new) < 2:
        return math.nan
    if np.all(old == old[0]) and np.all(new == new[0]) and old[0] == new[0]:
        return 1.0
    return ranks.two_sided_p(old, new)


def time_verdict(old: list[list[float]], new: list[list[float]], higher_is_better: bool,
                 threshold: float = THRESHOLD,
                 design: sequential.Design | None = None) -> TimeVerdict:
    """faster/slower only if the CI lies beyond +-threshold (and, for a fixed number of forks,
    the test is significant); same if the whole CI lies inside it; otherwise undecided.

    The ratio is of the geometric means of the fork means, the estimator whose interval is
    given. A run of the sequential fork plan names its row's ``design``: the interval is then
    the repeated confidence interval at the look the row stopped at; without one, a Welch
    t-interval for a fixed number of forks."""
    old_means, new_means = fork_means(old), fork_means(new)
    warnings: list[str] = []
    if not len(old_means) or not len(new_means):
        return TimeVerdict("undecided", math.nan, math.nan, math.nan, math.nan,
                           ["no raw data to test"])
    ratio = geometric_ratio(old_means, new_means)
    p = mann_whitney_p(old_means, new_means)
    forks = min(len(old_means), len(new_means))
    for name, means in (("old", old_means), ("new", new_means)):
        cv = _cv(means)
        if cv > HIGH_FORK_CV:  # NaN (too few forks) never is
            warnings.append(f"high fork-to-fork variance in {name} (CV {cv:.0%})")
    if design is not None:
        iv = sequential.interval(old_means, new_means, design)
        lo, hi = iv.low, iv.high
    else:
        lo, hi = welch_ratio_ci(old_means, new_means)
    first_look = design.min_forks if design is not None else MIN_FORKS
    if forks < first_look:
        warnings.append(f"too few forks for a test ({forks} per side, {first_look} needed)")
        return TimeVerdict("undecided", ratio, lo, hi, p, warnings)
    verdict = sequential.decision(lo, hi, higher_is_better, threshold)
    if design is None and verdict in ("faster", "slower") and not p < ALPHA:
        verdict = None  # a fixed number of forks calls a change only where the test agrees
    return TimeVerdict(verdict or "undecided", ratio, lo, hi, p, warnings)


def geometric_ratio(old_means, new_means) -> float:
    """new/old as the ratio of the geometric means of the fork means: the centre of the
    interval on their logs."""
    o, n = np.asarray(old_means, float), np.asarray(new_means, float)
    if not len(o) or not len(n) or (o <= 0).any() or (n <= 0).any():
        return float(n.mean() / o.mean()) if len(o) and len(n) and o.mean() else math.nan
    return float(math.exp(np.log(n).mean() - np.log(o).mean()))


def alloc_verdict(old: float, new: float, spread: float) -> str:
    """B/op is near-deterministic: a change is real when it beats the run's spread and 8 B.
    One the spread hides is "same" only within the time verdicts' +-5%; beyond it, "unclear":
    iterations that differ by more than the change (a smoke run's first ones, class loading
    and all) cannot call a halved heap the same."""
    if math.isnan(old) or math.isnan(new):
        return "not measured"
    if abs(new - old) <= ALLOC_NOISE_BYTES:
        return "same"
    if abs(new - old) <= spread:
        return "same" if abs(new - old) <= THRESHOLD * max(old, new) else "unclear"
    if new < 0.5:
        return "→ 0 B/op"
    return "less" if new < old else "more"


def geomean(ratios) -> float:
    values = np.asarray([r for r in ratios if r and r > 0 and math.isfinite(r)], dtype=float)
    return float(np.exp(np.log(values).mean())) if len(values) else math.nan


def score_halfwidth(raw: list[list[float]], confidence: float = CONFIDENCE) -> float:
    """A score's CI half-width as a share of it: the t-interval over its fork means (the fork,
    not the iteration, is the unit of replication)."""
    means = fork_means(raw)
    if len(means) < 2 or not means.mean():
        return math.nan
    t = float(t_quantile(0.5 + confidence / 2, len(means) - 1))
    return float(t * means.std(ddof=1) / math.sqrt(len(means)) / abs(means.mean()))


def fork_cv(raw: list[list[float]]) -> float:
    return _cv(fork_means(raw))


def _cv(means: np.ndarray) -> float:
    """Coefficient of variation of fork means; NaN with fewer than two or a zero mean."""
    if len(means) < 2 or not means.mean():
        return math.nan
    return float(means.std(ddof=1) / abs(means.mean()))


def forks_for(cv: float, goal: float = PRECISION_GOAL, confidence: float = CONFIDENCE,
              most: int = 1000) -> int:
    """Forks a score needs for its expected CI half-width to reach the goal at this fork CV."""
    if math.isnan(cv):
        return 0
    for n in range(2, most + 1):
        if t_quantile(0.5 + confidence / 2, n - 1) * cv / math.sqrt(n) <= goal:
            return n
    return most
