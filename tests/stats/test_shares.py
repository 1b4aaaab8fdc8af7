"""A frame's change and the share of a row's change it explains, with forks as replicates: the
intervals cover what they claim in simulation, and the false discovery rate holds."""

import math

import numpy as np
import pytest

from hotpath.stats import shares


def test_a_difference_is_new_minus_old_with_welchs_interval():
    d = shares.difference([10.0, 11.0, 12.0], [5.0, 5.5, 6.0])
    assert d.delta == pytest.approx(-5.5)
    assert d.low < -5.5 < d.high
    assert d.p < 0.01


def test_a_frame_absent_from_one_side_still_gets_an_interval():
    d = shares.difference([0.0, 0.0, 0.0, 0.0], [3.0, 3.4, 2.8, 3.1])
    assert d.old == 0 and d.delta == pytest.approx(3.075)
    assert 0 < d.low < d.delta < d.high
    assert d.p < 0.001


def test_too_few_forks_give_no_interval():
    d = shares.difference([1.0], [2.0, 3.0])
    assert math.isnan(d.low) and math.isnan(d.p)


def test_no_change_at_all_is_not_a_discovery():
    d = shares.difference([2.0, 2.0], [2.0, 2.0])
    assert d.p == 1.0


def test_the_difference_interval_covers_its_truth_95_percent_of_the_time():
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(4000):
        d = shares.difference(rng.normal(10, 1, 4), rng.normal(12, 2, 5))
        covered += d.low <= 2.0 <= d.high
    assert 0.935 <= covered / 4000 <= 0.965


def _forks(rng, n, row_ns, frame_ns, cv):
    """n forks of a row whose frame takes frame_ns of its row_ns; the whole fork slowed by a
    host factor (the frame's share does not move with it), the frame's own share sampled."""
    host = rng.lognormal(0, cv, n)
    share = rng.normal(frame_ns / row_ns, 0.01, n)
    return share * row_ns * host, row_ns * host


def test_a_share_is_the_frames_change_over_the_rows_and_its_fieller_interval_covers():
    rng = np.random.default_rng(11)
    covered = bounded = 0
    for _ in range(2000):
        x_old, t_old = _forks(rng, 5, 200.0, 80.0, 0.05)
        x_new, t_new = _forks(rng, 5, 100.0, 10.0, 0.05)
        s = shares.share(x_old, t_old, x_new, t_new)
        if math.isfinite(s.low):
            bounded += 1
            covered += s.low <= 0.7 <= s.high
    # the true share: (10 - 80) / (100 - 200)
    assert bounded > 1900
    assert 0.93 <= covered / bounded <= 0.975


def test_a_share_of_a_change_not_told_from_zero_has_no_interval():
    s = shares.share([1.0, 1.2, 0.8], [100.0, 120.0, 80.0], [1.0, 1.1, 0.9], [101.0, 79.0, 119.0])
    assert math.isnan(s.low) and math.isnan(s.high)


def test_benjamini_hochberg_rejects_the_step_up_set():
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216, math.nan]
    rejected = shares.benjamini_hochberg(p, 0.05)
    # 10 tested: the largest k with p_(k) <= k/10 * 0.05 is k = 2
    assert rejected.tolist() == [True, True] + [False] * 9


def test_benjamini_hochberg_holds_the_false_discovery_rate_on_null_frames():
    rng = np.random.default_rng(3)
    false = 0
    runs = 400
    for _ in range(runs):
        p = [shares.difference(rng.normal(5, 1, 4), rng.normal(5, 1, 4)).p for _ in range(30)]
        false += shares.benjamini_hochberg(p).any()
    # all null: the family-wise rate equals the FDR, at most 5% (plus simulation error)
    assert false / runs <= 0.08
