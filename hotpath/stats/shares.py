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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

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


#: Per-fork values: one side's (a sequence) or many frames' (rows of an array).
Values: TypeAlias = "Sequence[float] | np.ndarray"


def _rows(x: Values) -> np.ndarray:
    """Per-fork values as rows of a 2-D array: one row for a side's values, many for many frames'."""
    rows = np.asarray(x, float)
    return rows.reshape(1, -1) if rows.ndim == 1 else rows


def _df(v_old: np.ndarray, n_old: int, v_new: np.ndarray, n_new: int) -> np.ndarray:
    """Welch-Satterthwaite from each side's variance of its mean and its count (arrays alike)."""
    denominator = v_old * v_old / (n_old - 1) + v_new * v_new / (n_new - 1)
    return np.where(denominator > 0, (v_old + v_new) ** 2 / np.where(denominator > 0, denominator, 1), np.nan)


def differences(old: Values, new: Values, confidence: float = CONFIDENCE) -> list[Difference]:
    """``difference`` of each row of ``old`` against the same row of ``new`` (many frames' forks
    at once: a report has thousands, and one numpy call each was most of its render)."""
    olds, news = _rows(old), _rows(new)
    (m, no), nn = olds.shape, news.shape[1]
    with np.errstate(all="ignore"):
        mo = olds.mean(axis=1) if no else np.full(m, np.nan)
        mn = news.mean(axis=1) if nn else np.full(m, np.nan)
        if no < 2 or nn < 2:
            return [Difference(float(a), float(b), math.nan, math.nan, math.nan) for a, b in zip(mo, mn)]
        vo, vn = olds.var(axis=1, ddof=1) / no, news.var(axis=1, ddof=1) / nn
        d, se = mn - mo, np.sqrt(vo + vn)
        df = _df(vo, no, vn, nn)
        t = t_quantile(0.5 + confidence / 2, df)
        p = t_two_sided_p(d / se, df)
    return [Difference(*map(float, (a, b, e, e, 0.0 if e else 1.0))) if s == 0 else
            Difference(float(a), float(b), float(e - q * s), float(e + q * s), float(pv))
            for a, b, e, s, q, pv in zip(mo, mn, d, se, t, p)]


def difference(old: Values, new: Values, confidence: float = CONFIDENCE) -> Difference:
    """Welch's interval of mean(new) - mean(old), each a side's per-fork values."""
    return differences(old, new, confidence)[0]


@dataclass(frozen=True)
class Share:
    """ΔX / ΔT and its Fieller interval (NaN where it is unbounded: ΔT not told from 0)."""

    share: float
    low: float
    high: float


def shares_of(x_old: Values, t_old: Values, x_new: Values, t_new: Values,
              confidence: float = CONFIDENCE) -> list[Share]:
    """``share`` of each row of ``x_old`` and ``x_new`` (many frames' per-fork values) in the
    one change of t."""
    xo, xn = _rows(x_old), _rows(x_new)
    to, tn = np.asarray(t_old, float), np.asarray(t_new, float)
    no, nn = len(to), len(tn)
    with np.errstate(all="ignore"):
        dx, dt = xn.mean(axis=1) - xo.mean(axis=1), tn.mean() - to.mean()
        if no < 2 or nn < 2 or dt == 0:
            return [Share(float(d / dt) if dt else math.nan, math.nan, math.nan) for d in dx]
        s = dx / dt
        # each side's variances and covariance of the means of x and t
        a = b = c = 0.0
        parts = []
        for x, t, n in ((xo, to, no), (xn, tn, nn)):
            xc, tc = x - x.mean(axis=1, keepdims=True), t - t.mean()
            a = a + (xc * xc).sum(axis=1) / (n - 1) / n
            b = b + (xc * tc).sum(axis=1) / (n - 1) / n
            c = c + float((tc * tc).sum()) / (n - 1) / n
            parts.append((x - s[:, None] * t).var(axis=1, ddof=1) / n)
        df = _df(parts[0], no, parts[1], nn)
        q = t_quantile(0.5 + confidence / 2, df) ** 2
        low, high = fieller(dx, dt, a, c, b, q)
    return [Share(float(v), float(v), float(v)) if not math.isfinite(f) else
            Share(float(v), float(lo), float(hi))
            for v, f, lo, hi in zip(s, df, low, high)]


def fieller(a: Any, b: Any, va: Any, vb: Any, cab: Any, q: Any) -> tuple[np.ndarray, np.ndarray]:
    """Fieller's interval of a / b: the r whose (a - r b)^2 <= q (va - 2 r cab + r^2 vb), where
    va, vb and cab are the variances and covariance of a and b and q the squared quantile; a
    quadratic in r, bounded where b^2 > q vb. Its (low, high), NaN where unbounded; elementwise
    over arrays."""
    with np.errstate(all="ignore"):
        qa, qb, qc = b * b - q * vb, a * b - q * cab, a * a - q * va
        disc = qb * qb - qa * qc
        root = np.sqrt(disc)
        bounded = (qa > 0) & (disc >= 0)
        return np.where(bounded, (qb - root) / qa, np.nan), np.where(bounded, (qb + root) / qa, np.nan)


def share(x_old: Values, t_old: Values, x_new: Values, t_new: Values,
          confidence: float = CONFIDENCE) -> Share:
    """The share of the change of t (a row's time per op) that the change of x (a frame's)
    explains: per-fork pairs (x, t) on each side, x measured in the fork that measured t."""
    return shares_of(x_old, t_old, x_new, t_new, confidence)[0]


def benjamini_hochberg(p_values: Values, rate: float = 0.05) -> np.ndarray:
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
