"""Fidelity: how closely our old model does what the released code does, where a case runs the
release beside its models (the ``upstream`` variant). The model should allocate what the release
allocates, within 2% or 16 B per op, and take its time within 20%. The byte rule is the one the
allocation sites' pairing holds a site's bytes and mean size to (hotpath.analyze.sites.fidelity).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from .compare import UPSTREAM, time_per_op

#: The old model "allocates what the release allocates" within this share (of the larger of the
#: two) or these bytes.
SAME_SHARE, SAME_BYTES = 0.02, 16.0
#: And takes its time within this share, by the whole interval of upstream/model.
SAME_TIME = 0.20


def same_bytes(model: float, release: float) -> bool | None:
    """Whether two byte counts (per op, or a site's mean size) are the same within SAME_SHARE of
    the larger or SAME_BYTES; None where either is not measured."""
    if math.isnan(model) or math.isnan(release):
        return None
    return abs(release - model) <= max(SAME_BYTES, SAME_SHARE * max(model, release))


def same_time(low: float, high: float) -> str | None:
    """'yes' where the interval of upstream/model lies within +-SAME_TIME, 'no' where it lies
    beyond, 'undecided' where it straddles the bound; None without an interval."""
    if math.isnan(low):
        return None
    if 1 - SAME_TIME <= low and high <= 1 + SAME_TIME:
        return "yes"
    if high < 1 - SAME_TIME or low > 1 + SAME_TIME:
        return "no"
    return "undecided"


@dataclass(frozen=True)
class Fidelity:
    """A row of the release against the old model: heap and native B/op the same (None where not
    measured), and time per op upstream/model with its interval and verdict."""

    heap: bool | None
    native: bool | None
    ratio: float
    low: float
    high: float
    time: str | None


def verdicts(pairs: pd.DataFrame) -> list[tuple[pd.Series, Fidelity]]:
    """Every row of the release (old model -> upstream) with its verdicts."""
    out = []
    for _, r in pairs[pairs["candidate"] == UPSTREAM].iterrows():
        ratio, lo, hi = time_per_op(r)
        out.append((r, Fidelity(same_bytes(r["old_alloc"], r["new_alloc"]),
                                same_bytes(r.get("old_native", math.nan), r.get("new_native", math.nan)),
                                ratio, lo, hi, same_time(lo, hi))))
    return out
