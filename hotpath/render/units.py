"""Units as a reader writes them: one readable unit per column (ns/µs/ms/s per op, ops/s with SI
prefixes, B/KB/MB). JMH's own units are in hotpath.jmh."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..jmh import SECONDS, per_op, per_time

#: Time units a reader writes, smallest first, in seconds.
READABLE_TIME = (("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0))
#: Throughput prefixes (SI), smallest first.
RATE_PREFIXES = (("", 1.0), ("k", 1e3), ("M", 1e6), ("G", 1e9))
#: Byte units, smallest first: 1 KB = 1024 B, as the reports say once.
BYTE_UNITS = (("B", 1.0), ("KB", 1024.0), ("MB", 1024.0 ** 2), ("GB", 1024.0 ** 3))
KIB_NOTE = "1 KB = 1024 B"


@dataclass(frozen=True)
class Scale:
    """How a column of figures in ``source`` units is shown: divide by ``divisor``, write
    ``unit``. One scale per column, so that every figure in it shares a unit."""
    unit: str
    divisor: float = 1.0

    def __call__(self, value: float) -> float:
        return value / self.divisor


def _smallest(values) -> float:
    """The smallest non-zero magnitude of a column: the unit is chosen so that it reads ≥ 1
    (then no figure in the column needs a leading 0.0…, and none loses digits)."""
    sizes = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    return min(sizes) if sizes else 0.0


def _pick(options, smallest: float, least: float = 1.0) -> tuple[str, float]:
    """The largest of ``options`` (name, size) in which ``smallest`` still reads ≥ ``least``."""
    best = options[0]
    for name, size in options:
        if smallest >= least * size * (1 - 1e-12):
            best = (name, size)
    return best


def score_scale(unit: str, values) -> Scale:
    """A readable unit for JMH scores in ``unit``: ns/µs/ms/s per op (5.94e-07 ms/op reads
    0.594 ns/op), ops/s with an SI prefix (kops/s); other units as they are."""
    values = list(values)
    t = per_op(unit)
    if t:
        seconds = SECONDS[t]
        name, size = _pick(READABLE_TIME, _smallest(values) * seconds)
        return Scale(f"{name}/op", size / seconds)
    t = per_time(unit)
    if t:
        per_second = 1 / SECONDS[t]
        prefix, size = _pick(RATE_PREFIXES, _smallest(values) * per_second)
        return Scale(f"{prefix}ops/s", size / per_second)
    return Scale(unit)


def byte_scale(values, per: str = "", least: float = 10.0) -> Scale:
    """B, KB or MB (1024-based) for a column of byte counts; ``per`` is appended ('/op').
    A table column moves to KB only when its smallest count is 10 KB or more (``least``):
    below that, whole bytes (4,096 → 0) say more than three digits of KB would. A chart's
    axis, which shows no single figure, takes the largest unit its smallest value fills."""
    name, size = _pick(BYTE_UNITS, _smallest(values), least=least)
    return Scale(name + per, size)
