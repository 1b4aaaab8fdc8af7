"""hotpath's PELT against ruptures' own: the same breakpoints, on recorded forks as steady
classifies them and on generated series made to tie (few distinct values)."""

import json
import math

import numpy as np
import pytest
import ruptures

from hotpath.paths import AA_CALIBRATION
from hotpath.stats import pelt, steady


def ruptures_breakpoints(signal, min_size, pen):
    return ruptures.Pelt(model="l2", min_size=min_size, jump=1).fit(signal).predict(pen=pen)


def _recorded_levels(limit: int):
    """The first ``limit`` forks of the committed A/A's baseline, as steady gives them to PELT."""
    entries = json.loads((AA_CALIBRATION / "baseline.json").read_text(encoding="utf-8"))
    forks = [fork for e in entries for fork in e["primaryMetric"]["rawData"]
             if len(fork) >= steady.MIN_ITERATIONS]
    for fork in forks[:limit]:
        y = np.log(np.asarray(fork, dtype=float))
        sigma = steady.noise(y)
        yield steady.despiked(y, sigma), steady.PENALTY * sigma ** 2 * math.log(len(y))


def test_recorded_forks_break_where_ruptures_breaks_them():
    checked = 0
    for level, pen in _recorded_levels(200):
        assert pelt.breakpoints(level, steady.MIN_SEGMENT, pen) == \
            ruptures_breakpoints(level, steady.MIN_SEGMENT, pen)
        checked += 1
    assert checked == 200


@pytest.mark.parametrize("kind", ["noise", "steps", "quantized", "two values"])
def test_generated_series_break_where_ruptures_breaks_them(kind):
    # seed 21 gives two-valued series that prefix sums alone break elsewhere
    rng = np.random.default_rng(21)
    for _ in range(40):
        n = int(rng.integers(10, 80))
        x = {"noise": lambda n=n: rng.normal(0, 1, n),
             "steps": lambda n=n: np.repeat(rng.normal(0, 1, 6), n // 6 + 1)[:n] + rng.normal(0, 0.01, n),
             # ties: prefix sums alone cost equal segments a rounding apart, either way
             "quantized": lambda n=n: np.round(rng.normal(5, 0.3, n), 1),
             "two values": lambda n=n: np.where(rng.random(n) < 0.5, 5.0, 5.5)}[kind]()
        pen = float(rng.choice([0.01, 0.1, 1.0, 3.0])) * math.log(n)
        assert pelt.breakpoints(x, 5, pen) == ruptures_breakpoints(x, 5, pen), (kind, n, pen)


def test_too_short_a_series_is_refused():
    with pytest.raises(ValueError, match="cannot hold two segments of 5"):
        pelt.breakpoints(np.ones(9), 5, 1.0)
