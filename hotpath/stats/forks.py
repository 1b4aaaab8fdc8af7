"""Fork estimates: the fork, not the iteration, is the unit of replication.

JMH's scoreError pools every iteration of every fork as if they were independent, which
understates fork-to-fork (JIT) variance. A row's estimates, its intervals and its fork CV are
made from its forks' means instead.
"""

from __future__ import annotations

import numpy as np


def fork_means(raw: list[list[float]]) -> np.ndarray:
    """Each fork's mean of its iterations (a fork without iterations has none)."""
    return np.array([np.mean(f) for f in raw if len(f)], dtype=float)
