"""PELT changepoints with an l2 cost (Killick et al., 2012): ``ruptures``' breakpoints, fast.

``ruptures.Pelt(model="l2", jump=1)`` step for step: the same admissible set, the same first
minimum, the same pruning (which pairs the admissible points with the candidates that existed,
as ruptures does). ruptures computes each candidate segment's variance anew, some 800,000 numpy
calls for the committed A/A's forks and most of the time a report of recorded forks took. Here
a candidate's cost is a difference of prefix sums, O(1); where that cost cannot tell two
choices apart (ties: a series of few distinct values has many), the candidates concerned are
costed as ruptures costs them, and so is every segment kept. The totals compared are then
ruptures' own to the last bit, and so are the breakpoints (tests/stats/test_pelt.py)."""

from __future__ import annotations

import numpy as np

#: How far a prefix-sum cost may be from ruptures', relative to the signal's whole sum of squares:
#: its rounding error is some 1e-14 of it; nearer choices than this are costed as ruptures does.
CLOSE = 1e-9


def breakpoints(signal, min_size: int, pen: float) -> list[int]:
    """The ends of the segments PELT finds in ``signal`` (the last one its length), each segment
    at least ``min_size`` long, at ``pen`` per changepoint: ruptures'
    ``Pelt(model="l2", min_size=min_size, jump=1).fit(signal).predict(pen=pen)``."""
    y = np.asarray(signal, dtype=float)
    n = len(y)
    if n < 2 * min_size:
        raise ValueError(f"{n} values cannot hold two segments of {min_size}")
    column = y.reshape(-1, 1)

    def exact(t: int, end: int) -> float:
        return column[t:end].var(axis=0).sum() * (end - t)  # ruptures' CostL2.error

    centred = y - y.mean()  # the prefix sums' cancellation then stays near the noise's own size
    s1 = np.concatenate(([0.0], np.cumsum(centred))).tolist()
    s2 = np.concatenate(([0.0], np.cumsum(centred * centred))).tolist()
    close = CLOSE * (1.0 + s2[n])
    # the best partition of the first t values: its cost (penalties included), and its ends
    totals: dict[int, float] = {0: 0}
    ends: dict[int, tuple[int, ...]] = {0: ()}
    admissible: list[int] = []
    for end in [*range(min_size, n), n]:
        admissible.append(end - min_size)
        starts, quick = [], []
        for t in admissible:
            if t not in totals:  # no partition of the first t values (0 < t < min_size)
                continue
            d = s1[end] - s1[t]
            starts.append(t)
            quick.append(totals[t] + (max((s2[end] - s2[t]) - d * d / (end - t), 0.0) + pen))
        exact_totals: dict[int, float] = {}

        def total(i: int) -> float:
            if i not in exact_totals:
                exact_totals[i] = totals[starts[i]] + (exact(starts[i], end) + pen)
            return exact_totals[i]

        fastest = min(quick)
        near = [i for i, q in enumerate(quick) if q - fastest <= close]
        best = min(near, key=total)  # the first of equals, as ruptures' min()
        totals[end], ends[end] = total(best), (*ends[starts[best]], end)
        limit = totals[end] + pen
        kept = [q < limit - close or (q <= limit + close and total(i) <= limit)
                for i, q in enumerate(quick)]
        # ruptures pairs the admissible points with the candidates by position, though the
        # points without a partition made no candidate: kept so, the breakpoints stay its own
        admissible = [t for t, keep in zip(admissible, kept) if keep]
    return list(ends[n])
