"""Units as JMH writes them: seconds per time unit, for scores (ns/op, ops/s) and settings."""

from __future__ import annotations

import re

#: Seconds per unit; JMH writes "us" for microseconds, a reader may write "µs".
SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "m": 60.0,
           "h": 3600.0}


def per_op(unit: str) -> str | None:
    """The time unit of a time-per-op score unit ('ns/op' -> 'ns'), else None."""
    m = re.fullmatch(r"(\w+)/op", unit)
    return m.group(1) if m and m.group(1) in SECONDS else None


def per_time(unit: str) -> str | None:
    """The time unit of a throughput unit ('ops/s' -> 's'), else None."""
    m = re.fullmatch(r"ops/(\w+)", unit)
    return m.group(1) if m and m.group(1) in SECONDS else None
