"""A sample's skewness and excess kurtosis: the numbers scipy.stats.skew and scipy.stats.kurtosis
give, bit for bit (tests/stats/test_moments.py holds it), without importing scipy.stats (0.45 s
of CPU in the A/A report's kernel, which reads the forks' shape with them).

The central moments are SciPy's own arithmetic: the mean by NumPy, the deviations raised by
squaring (the third as the square times the deviation, the fourth as the square squared).
"""

from __future__ import annotations

import math

import numpy as np

_EPS = float(np.finfo(np.float64).eps)


def _moments(x: np.ndarray) -> tuple[float, float, float, float]:
    """The mean and the second, third and fourth central moments."""
    mean = x.mean(keepdims=True)
    d = x - mean
    square = d ** 2
    return float(mean[0]), float(square.mean()), float((square * d).mean()), float((square ** 2).mean())


def skew(values: np.ndarray, bias: bool = True) -> float:
    """The sample skewness (``bias=False``: adjusted for the sample's size, from 3 values)."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    mean, m2, m3, _ = _moments(x)
    if m2 <= (_EPS * mean) ** 2:  # no spread to speak of
        return math.nan
    if not bias and n > 2:
        return float(((n - 1.0) * n) ** 0.5 / (n - 2.0) * m3 / m2 ** 1.5)
    return float(m3 / m2 ** 1.5)


def excess_kurtosis(values: np.ndarray, bias: bool = True) -> float:
    """Fisher's kurtosis, 0 for a normal (``bias=False``: adjusted for the sample's size, from 4
    values)."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    mean, m2, _, m4 = _moments(x)
    if m2 <= (_EPS * mean) ** 2:
        return math.nan
    kurtosis = m4 / m2 ** 2.0
    if not bias and n > 3:
        kurtosis = 1.0 / (n - 2) / (n - 3) * ((n ** 2 - 1.0) * m4 / m2 ** 2.0 - 3 * (n - 1) ** 2.0) + 3.0
    return float(kurtosis - 3)
