"""PELT changepoints with an l2 cost (Killick et al., 2012): ``ruptures``' breakpoints, fast.

``ruptures.Pelt(model="l2", jump=1)`` step for step: the same admissible set, the same first
minimum, the same pruning (which pairs the admissible points with the candidates that existed,
as ruptures does). ruptures computes each candidate segment's variance anew, some 800,000 numpy
calls for the committed A/A's forks and most of the time a report of recorded forks took. Here
a candidate's cost is a difference of prefix sums, O(1). Where that cannot tell two choices
apart (ties: a series of few distinct values has many), the choice is made on ruptures' own
totals, each segment costed as ruptures costs it and summed in its order; so the breakpoints
are ruptures' to the last bit (tests/stats/test_pelt.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: How far a prefix-sum total may be from ruptures', relative to the largest a total can be:
#: its rounding error is some 1e-14 of it; nearer choices than this are made on ruptures' totals.
CLOSE = 1e-9


def breakpoints(signal: Sequence[float] | np.ndarray, min_size: int, pen: float) -> list[int]:
    """The ends of the segments PELT finds in ``signal`` (the last one its length), each segment
    at least ``min_size`` long, at ``pen`` per changepoint: ruptures'
    ``Pelt(model="l2", min_size=min_size, jump=1).fit(signal).predict(pen=pen)``."""
    y = np.asarray(signal, dtype=float)
    n = len(y)
    if n < 2 * min_size:
        raise ValueError(f"{n} values cannot hold two segments of {min_size}")
    column = y.reshape(-1, 1)
    centred = y - y.mean()  # the prefix sums' cancellation then stays near the noise's own size
    s1 = np.concatenate(([0.0], np.cumsum(centred))).tolist()
    s2 = np.concatenate(([0.0], np.cumsum(centred * centred))).tolist()
    close = CLOSE * (1.0 + s2[n] + n * pen)
    # the best partition of the first t values: its total by prefix sums, where its last
    # segment starts, and (when a close choice asked for it) its total as ruptures sums it
    quick_totals: dict[int, float] = {0: 0.0}
    start_of: dict[int, int] = {}
    exact_totals: dict[int, float] = {0: 0}

    def candidate(t: int, end: int) -> float:
        """ruptures' total of the best partition of the first t values and the segment t:end."""
        return exact_total(t) + (float(column[t:end].var(axis=0).sum()) * (end - t) + pen)

    def exact_total(end: int) -> float:
        if end not in exact_totals:
            exact_totals[end] = candidate(start_of[end], end)
        return exact_totals[end]

    admissible: list[int] = []
    for end in [*range(min_size, n), n]:
        admissible.append(end - min_size)
        starts, quick = [], []
        for t in admissible:
            if t not in quick_totals:  # no partition of the first t values (0 < t < min_size)
                continue
            d = s1[end] - s1[t]
            starts.append(t)
            quick.append(quick_totals[t] + (max((s2[end] - s2[t]) - d * d / (end - t), 0.0) + pen))
        fastest = min(quick)
        near = [i for i, q in enumerate(quick) if q - fastest <= close]
        best = near[0] if len(near) == 1 else min(near, key=lambda i: candidate(starts[i], end))
        start_of[end], quick_totals[end] = starts[best], quick[best]
        limit = quick[best] + pen
        kept = [q < limit - close or (q <= limit + close
                                      and candidate(starts[i], end) <= exact_total(end) + pen)
                for i, q in enumerate(quick)]
        # ruptures pairs the admissible points with the candidates by position, though the
        # points without a partition made no candidate: kept so, the breakpoints stay its own
        admissible = [t for t, keep in zip(admissible, kept) if keep]
    ends, end = [], n
    while end:
        ends.append(end)
        end = start_of[end]
    return ends[::-1]
