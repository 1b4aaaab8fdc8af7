"""Differences of per-fork quantities and the share of one difference that another explains,
with forks as the replicates, and false discoveries controlled across many such differences.

A frame's time per op in a fork (its share of the fork's samples times the fork's time per op)
is a quantity per fork, as the fork's time is. Across forks a frame's time can be 0 on one side
(a frame the change removed), so its change is taken on the linear scale, not on logs:
``difference`` is Welch's interval of new - old. The share of a row's change that a frame (or a
group of frames) explains, ΔX / ΔT, has an uncertain denominator: ``share`` is Fieller's
interval, the set of shares s for which ΔX - s·ΔT = 0 is not rejected by Welch's test on the
per-fork values x - s·t (each fork's x and t are measured together, so their covariance
enters). Where ΔT itself is not told apart from 0 at the same level the set is unbounded and no
interval is given. ``benjamini_hochberg`` decides which of a row's frames changed, at a false
discovery rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .welch import CONFIDENCE, t_quantile, t_two_sided_p


@dataclass(frozen=True)
class Difference:
    """new - old of the sides' means, its Welch interval and two-sided p-value (NaN where
    neither side varies, or a side has fewer than two forks)."""

    old: float
    new: float
    low: float
    high: float
    p: float

    @property
    def delta(self) -> float:
        return self.new - self.old


def _side(x: np.ndarray) -> tuple[float, float, int]:
    return float(x.mean()), float(x.var(ddof=1)) / len(x), len(x)


def _df(parts: list[tuple[float, int]]) -> float:
    """Welch-Satterthwaite: ``parts`` are each side's variance of its mean and its count."""
    total = sum(v for v, _ in parts)
    denominator = sum(v * v / (n - 1) for v, n in parts if v)
    return total * total / denominator if denominator else math.nan


def difference(old, new, confidence: float = CONFIDENCE) -> Difference:
    """Welch's interval of mean(new) - mean(old), each a side's per-fork values."""
    old, new = np.asarray(old, float), np.asarray(new, float)
    if len(old) < 2 or len(new) < 2:
        mo = float(old.mean()) if len(old) else math.nan
        mn = float(new.mean()) if len(new) else math.nan
        return Difference(mo, mn, math.nan, math.nan, math.nan)
    mo, vo, no = _side(old)
    mn, vn, nn = _side(new)
    d, se = mn - mo, math.sqrt(vo + vn)
    if se == 0:
        return Difference(mo, mn, d, d, 0.0 if d else 1.0)
    df = _df([(vo, no), (vn, nn)])
    t = t_quantile(0.5 + confidence / 2, df)
    p = t_two_sided_p(d / se, df)
    return Difference(mo, mn, d - t * se, d + t * se, p)


@dataclass(frozen=True)
class Share:
    """ΔX / ΔT and its Fieller interval (NaN where it is unbounded: ΔT not told from 0)."""

    share: float
    low: float
    high: float


def share(x_old, t_old, x_new, t_new, confidence: float = CONFIDENCE) -> Share:
    """The share of the change of t (a row's time per op) that the change of x (a frame's)
    explains: per-fork pairs (x, t) on each side, x measured in the fork that measured t."""
    x_old, t_old = np.asarray(x_old, float), np.asarray(t_old, float)
    x_new, t_new = np.asarray(x_new, float), np.asarray(t_new, float)
    dx, dt = x_new.mean() - x_old.mean(), t_new.mean() - t_old.mean()
    if len(t_old) < 2 or len(t_new) < 2 or dt == 0:
        return Share(float(dx / dt) if dt else math.nan, math.nan, math.nan)
    s = float(dx / dt)
    # each side's variances and covariance of the means of x and t
    a = b = c = 0.0
    parts = []
    for x, t in ((x_old, t_old), (x_new, t_new)):
        n = len(x)
        cov = np.cov(x, t, ddof=1)
        a += cov[0, 0] / n
        b += cov[0, 1] / n
        c += cov[1, 1] / n
        parts.append((float(np.var(x - s * t, ddof=1)) / n, n))
    df = _df(parts)
    if not math.isfinite(df):
        return Share(s, s, s)
    q = t_quantile(0.5 + confidence / 2, df) ** 2
    # (dx - s dt)^2 <= q (a - 2 s b + s^2 c): a quadratic in s, bounded where dt^2 > q c
    qa, qb, qc = dt * dt - q * c, dx * dt - q * b, dx * dx - q * a
    disc = qb * qb - qa * qc
    if qa <= 0 or disc < 0:
        return Share(s, math.nan, math.nan)
    root = math.sqrt(disc)
    return Share(s, float((qb - root) / qa), float((qb + root) / qa))


def benjamini_hochberg(p_values, rate: float = 0.05) -> np.ndarray:
    """Which hypotheses are rejected with the false discovery rate held at ``rate``
    (Benjamini and Hochberg, 1995); NaN p-values are never rejected."""
    p = np.asarray(p_values, float)
    rejected = np.zeros(len(p), dtype=bool)
    tested = np.flatnonzero(np.isfinite(p))
    m = len(tested)
    if not m:
        return rejected
    order = tested[np.argsort(p[tested], kind="stable")]
    below = p[order] <= rate * np.arange(1, m + 1) / m
    if below.any():
        last = int(np.flatnonzero(below)[-1])
        rejected[order[:last + 1]] = True
    return rejected
