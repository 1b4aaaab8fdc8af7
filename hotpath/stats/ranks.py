"""The Mann-Whitney U test's two-sided p-value: the number scipy.stats.mannwhitneyu gives (its
default ``method="auto"``, continuity corrected), bit for bit (tests/stats/test_ranks.py holds it).

A report gives one beside every row's verdict. SciPy's function brought the import of
scipy.stats (0.45 s of CPU in each process of a render, before its first report could start)
and some 0.6 ms of checks a call; its arithmetic is these few lines.

- **Exact** when a side has at most ``EXACT_UP_TO`` values and no value is tied: the share of
  the orderings of the two sides whose U lies at least as far from its middle as the one seen,
  counted in whole numbers.
- Otherwise the **normal approximation**, its variance corrected for ties, with a continuity
  correction of one half.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

#: The exact distribution is counted when either side has at most this many values and no value
#: is tied (SciPy's rule).
EXACT_UP_TO = 8
#: SciPy counts orderings in floats: beyond this many its counts may be rounded, and its own
#: function is asked instead, so the number stays its number.
EXACT_COUNTS_BELOW = 2 ** 53


def two_sided_p(old: np.ndarray, new: np.ndarray) -> float:
    """The two-sided p-value that both sides' values come from one distribution; NaN if a
    value is NaN (SciPy's default)."""
    old, new = np.asarray(old, dtype=float), np.asarray(new, dtype=float)
    n1, n2 = len(old), len(new)
    both = np.concatenate([old, new])
    if np.isnan(both).any():
        return math.nan
    _, where, ties = np.unique(both, return_inverse=True, return_counts=True)
    # a value's rank: the places before its value's, then the middle of the places its ties take
    ranks = (np.cumsum(ties) - ties + (ties + 1) / 2)[where]
    u_old = float(np.sum(ranks[:n1])) - n1 * (n1 + 1) / 2
    u = max(u_old, n1 * n2 - u_old)  # the side further from the middle: one tail, doubled
    if min(n1, n2) <= EXACT_UP_TO and not (ties > 1).any():
        if math.comb(n1 + n2, n1) * n1 * n2 >= EXACT_COUNTS_BELOW:
            from scipy import stats

            return float(stats.mannwhitneyu(old, new, alternative="two-sided").pvalue)
        p = 2 * _at_most(n1, n2, round(n1 * n2 - u))
    else:
        p = 2 * _normal_at_least(u, n1, n2, ties.astype(float))
    return min(max(p, 0.0), 1.0)


def _normal_at_least(u: float, n1: int, n2: int, ties: np.ndarray) -> float:
    """P(U >= u) by the normal approximation, ties and continuity corrected."""
    from scipy import special  # at first use: what imports this module alone starts without SciPy

    n = n1 + n2
    spread = math.sqrt(n1 * n2 / 12 * ((n + 1) - float(np.sum(ties ** 3 - ties)) / (n * (n - 1))))
    with np.errstate(divide="ignore", invalid="ignore"):  # a spread of 0: z is infinite
        z = np.float64(u - n1 * n2 / 2 - 0.5) / np.float64(spread)
    return float(special.ndtr(-z))


def _at_most(n1: int, n2: int, k: int) -> float:
    """P(U <= k) when both sides come from one distribution: the shares of U = 0 .. k, summed
    in that order."""
    return float(np.cumsum(_shares(min(n1, n2), max(n1, n2))[:k + 1])[k])


@lru_cache(maxsize=64)
def _shares(small: int, large: int) -> np.ndarray:
    """For each U = 0 .. small * large, the share of the orderings of the two sides that give
    it: its count over all ``small + large choose small`` of them."""
    from scipy import special

    # counts[j][u]: the orderings of i values of one side and j of the other with U = u,
    # grown one side-one value at a time: the largest of all is either one of the i, above
    # all j (adding j to U), or one of the j
    counts = [[1] for _ in range(large + 1)]
    for _ in range(small):
        grown: list[list[int]] = []
        for j in range(large + 1):
            above = [0] * j + counts[j]
            below = grown[j - 1] if j else []
            grown.append([a + (below[u] if u < len(below) else 0) for u, a in enumerate(above)])
        counts = grown
    total = float(special.binom(small + large, small))  # SciPy's float for it
    return np.array(counts[large], dtype=float) / total
