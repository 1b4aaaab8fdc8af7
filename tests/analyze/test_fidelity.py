"""The old model against the released code: one rule for bytes (2% or 16 B), one for time (20%),
decided here for the fidelity table and the allocation sites' pairing alike."""

import math

import pandas as pd

from hotpath.analyze import fidelity


def test_bytes_are_the_same_within_16_b_or_2_percent_of_the_larger():
    assert fidelity.same_bytes(1000.0, 1015.0) and fidelity.same_bytes(10000.0, 10150.0)
    assert not fidelity.same_bytes(100.0, 117.0) and not fidelity.same_bytes(10000.0, 10250.0)
    assert fidelity.same_bytes(0.0, 16.0) and not fidelity.same_bytes(0.0, 80.0)
    # either way round
    assert fidelity.same_bytes(10200.0, 10000.0) == fidelity.same_bytes(10000.0, 10200.0) is True
    assert fidelity.same_bytes(math.nan, 10.0) is None


def test_time_is_the_same_only_where_the_whole_interval_lies_within_20_percent():
    assert fidelity.same_time(0.85, 1.1) == "yes"
    assert fidelity.same_time(1.25, 1.4) == "no" and fidelity.same_time(0.5, 0.7) == "no"
    assert fidelity.same_time(0.9, 1.3) == "undecided"
    assert fidelity.same_time(math.nan, math.nan) is None


def test_every_row_of_the_release_gets_its_verdicts():
    row = {"benchmark": "x.B.run", "params": "", "baseline": "old", "higher_is_better": False,
           "ratio": 1.05, "ci_low": 0.95, "ci_high": 1.15, "old_alloc": 80.0, "new_alloc": 0.0}
    pairs = pd.DataFrame([{**row, "candidate": "upstream"}, {**row, "candidate": "optimized"}])
    [(r, f)] = fidelity.verdicts(pairs)
    assert r["candidate"] == "upstream"
    assert (f.heap, f.native, f.time) == (False, None, "yes")
    assert (f.ratio, f.low, f.high) == (1.05, 0.95, 1.15)
