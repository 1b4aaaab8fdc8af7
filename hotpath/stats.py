"""Fork-aware statistics: the fork, not the iteration, is the unit of replication.

JMH's scoreError pools every iteration of every fork as if they were independent, which
understates fork-to-fork (JIT) variance. Here: per-fork means, a Mann-Whitney U test on them,
a hierarchical bootstrap CI of the ratio new/old (resample forks, then iterations within each
fork), and a three-state verdict against a stated threshold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

#: Changes within +-THRESHOLD of the old score count as "same" (criterion's noise threshold).
THRESHOLD = 0.05
ALPHA = 0.05
#: Mann-Whitney U cannot reach p < 0.05 with fewer than 4 values per side.
MIN_FORKS = 4
#: Fork means varying more than this (coefficient of variation) earn a warning.
HIGH_FORK_CV = 0.10
BOOTSTRAP_RESAMPLES = 2000
CONFIDENCE = 0.95
#: B/op below this is alignment noise, not a change (objects are 8-byte aligned).
ALLOC_NOISE_BYTES = 8.0


@dataclass
class TimeVerdict:
    verdict: str  # "faster", "slower", "same", "inconclusive"
    ratio: float  # new / old score
    ci_low: float
    ci_high: float
    p_value: float
    warnings: list[str] = field(default_factory=list)


def fork_means(raw: list[list[float]]) -> np.ndarray:
    return np.array([np.mean(f) for f in raw if len(f)], dtype=float)


def bootstrap_ratio_ci(old: list[list[float]], new: list[list[float]],
                       resamples: int = BOOTSTRAP_RESAMPLES, confidence: float = CONFIDENCE,
                       seed: int = 0) -> tuple[float, float]:
    """Percentile CI of mean(new)/mean(old), resampling forks then iterations within forks.

    The seed is fixed so that the same JSON always renders the same table.
    """
    rng = np.random.default_rng(seed)
    old_forks = [np.asarray(f, dtype=float) for f in old if len(f)]
    new_forks = [np.asarray(f, dtype=float) for f in new if len(f)]
    if not old_forks or not new_forks:
        return math.nan, math.nan

    def resample(forks: list[np.ndarray]) -> np.ndarray:
        picks = rng.integers(0, len(forks), size=(resamples, len(forks)))
        means = np.empty((resamples, len(forks)))
        for j, fork in enumerate(forks):
            # Iterations within fork j, resampled for every replicate that may pick it.
            idx = rng.integers(0, len(fork), size=(resamples, len(fork)))
            means[:, j] = fork[idx].mean(axis=1)
        return np.take_along_axis(means, picks, axis=1).mean(axis=1)

    ratios = resample(new_forks) / resample(old_forks)
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(ratios, [tail, 100 - tail])
    return float(lo), float(hi)


def mann_whitney_p(old: np.ndarray, new: np.ndarray) -> float:
    if len(old) < 2 or len(new) < 2:
        return math.nan
    if np.all(old == old[0]) and np.all(new == new[0]) and old[0] == new[0]:
        return 1.0
    return float(sps.mannwhitneyu(old, new, alternative="two-sided").pvalue)


def time_verdict(old: list[list[float]], new: list[list[float]], higher_is_better: bool,
                 threshold: float = THRESHOLD) -> TimeVerdict:
    """faster/slower only if significant and the CI lies beyond +-threshold; same if the
    whole CI lies inside it; otherwise inconclusive."""
    old_means, new_means = fork_means(old), fork_means(new)
    warnings: list[str] = []
    if not len(old_means) or not len(new_means):
        return TimeVerdict("inconclusive", math.nan, math.nan, math.nan, math.nan,
                           ["no raw data to test"])
    ratio = float(new_means.mean() / old_means.mean())
    lo, hi = bootstrap_ratio_ci(old, new)
    p = mann_whitney_p(old_means, new_means)
    forks = min(len(old_means), len(new_means))
    for name, means in (("old", old_means), ("new", new_means)):
        if len(means) > 1 and means.mean():
            cv = float(means.std(ddof=1) / abs(means.mean()))
            if cv > HIGH_FORK_CV:
                warnings.append(f"high fork-to-fork variance in {name} (CV {cv:.0%})")
    if forks < MIN_FORKS:
        warnings.append(f"too few forks for a test ({forks} per side, {MIN_FORKS} needed)")
        return TimeVerdict("inconclusive", ratio, lo, hi, p, warnings)
    if 1 - threshold <= lo and hi <= 1 + threshold:
        verdict = "same"
    elif p < ALPHA and (hi < 1 - threshold or lo > 1 + threshold):
        improved = (lo > 1) if higher_is_better else (hi < 1)
        verdict = "faster" if improved else "slower"
    else:
        verdict = "inconclusive"
    return TimeVerdict(verdict, ratio, lo, hi, p, warnings)


def alloc_verdict(old: float, new: float, spread: float) -> str:
    """B/op is near-deterministic: a change is real when it beats the run's spread and 8 B."""
    if math.isnan(old) or math.isnan(new):
        return "not measured"
    if abs(new - old) <= max(ALLOC_NOISE_BYTES, spread):
        return "same"
    if new < 0.5:
        return "→ 0 B/op"
    return "less" if new < old else "more"


def geomean(ratios) -> float:
    values = np.asarray([r for r in ratios if r and r > 0 and math.isfinite(r)], dtype=float)
    return float(np.exp(np.log(values).mean())) if len(values) else math.nan
