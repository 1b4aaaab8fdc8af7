"""A row's fork figures as its verdict takes them: which estimate the row rests on (the one
asked for, or the mean where the sides' GC time or page faults differ) and which forks count
(not those that ended before a slowdown their side showed). The sequential plan's looks
(hotpath.measure.forkplan) and the report's verdicts (hotpath.analyze.compare) both take a row's
figures here."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence, TypeVar

import numpy as np

from .steady import EQUIVALENT, FAULT_COST_S, MEAN, NOT_RECORDED, Fork, Values, before_slowdown

K = TypeVar("K")

#: A low quantile can step over the iterations that hold a collection: where the sides' shares
#: of time in GC pauses differ by more than this (half the study's +-5% band, so that what a
#: quantile hides could not carry a ratio across it), GC is part of what changed and the row's
#: verdict rests on the mean.
GC_GAP = EQUIVALENT / 2

def row_estimate(estimate: str, old_gc: Values, new_gc: Values,
                 old_faults: Values = (), new_faults: Values = ()) -> tuple[str, str]:
    """The estimate a row's verdict rests on, and why it is not the one asked for: the mean where
    the sides' GC time shares (one per fork, NaN where unknown) differ by more than GC_GAP, or
    their shares of time in page faults (at FAULT_COST_S a fault) do."""
    if estimate == MEAN:
        return MEAN, ""
    gap = _gap(old_gc, new_gc)
    if gap > GC_GAP:
        return MEAN, (f"the mean: the sides' GC time differs by {gap * 100:.1f} points of their "
                      f"time, which a low quantile could step over")
    gap = _gap(old_faults, new_faults)
    if gap > GC_GAP:
        return MEAN, (f"the mean: the sides' page faults differ by {gap * 100:.1f} points of their "
                      f"time (at {FAULT_COST_S * 1e6:g} µs a fault), which a low quantile could step over")
    return estimate, ""


def _gap(old: Values, new: Values) -> float:
    """How far apart two sides' mean shares of time are; 0 where a side has none known."""
    shares = [np.asarray([v for v in side if math.isfinite(v)], dtype=float) for side in (old, new)]
    if any(not len(s) for s in shares):
        return 0.0
    return abs(float(shares[0].mean()) - float(shares[1].mean()))


@dataclass(frozen=True)
class SideForks:
    """One side of a row as its verdict weighs it, fork by fork: each fork's GC and page-fault
    shares of time, whether it ended before a slowdown the side showed (before_slowdown), and
    ``by``, its figures by an estimate (one per fork, in the same order)."""

    gc_shares: Sequence[float]
    fault_shares: Sequence[float]
    early: Sequence[bool]
    by: Callable[[str], list[float]]
    #: False for forks not recorded from their start: a few long iterations each, by their mean.
    recorded: bool = True

    @classmethod
    def of(cls, forks: Sequence[Fork], values: Sequence[float], estimate: str) -> "SideForks":
        """A side from its forks as summarized (``values``: their figures by ``estimate``)."""
        return cls([f.gc_share for f in forks], [f.fault_share for f in forks], before_slowdown(forks),
                   lambda how: list(values) if how == estimate else [f.mean for f in forks],
                   all(f.kind != NOT_RECORDED for f in forks))


def verdict_figures(estimate: str, old: SideForks, new: SideForks) -> tuple[list[float], list[float], str, str]:
    """Each side's fork figures as a row's verdict takes them, the estimate they rest on and why
    it is not the one asked for (row_estimate: the mean where the sides' GC time or page faults
    differ; unrecorded forks by their mean), without the forks that ended before a slowdown their
    side showed. The sequential plan and the analysis both take a row's figures here."""
    if not old.recorded or not new.recorded:
        estimate = MEAN
    how, why = row_estimate(estimate, old.gc_shares, new.gc_shares, old.fault_shares, new.fault_shares)
    figures = [[v for v, early in zip(side.by(how), side.early) if not early] for side in (old, new)]
    return figures[0], figures[1], how, why


def family_figures(estimate: str, sides: Mapping[K, SideForks], baseline: K
                   ) -> tuple[dict[K, list[float]], str, str]:
    """Several sides measured against one baseline (a patch's mechanisms, each a variant of its
    own) as their verdicts take them, all on one estimate: the mean for every side where any
    side's verdict against the baseline would rest on it (verdict_figures), so that the parts of
    one change are differences of one kind of figure."""
    how, why = estimate, ""
    for key, side in sides.items():
        if key != baseline:
            _, _, how, why = verdict_figures(estimate, sides[baseline], side)
            if how != estimate:
                break
    return ({key: [v for v, early in zip(side.by(how), side.early) if not early] for key, side in sides.items()},
            how, why)
