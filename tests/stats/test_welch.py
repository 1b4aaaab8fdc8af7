"""Welch's statistic on log fork means, written once: the fixed-sample interval, the sequential
rule's repeated one and the simulations' running one all take it."""

import math

import numpy as np
from scipy import stats as sps

from hotpath.stats import sequential
from hotpath.stats.welch import welch, welch_paths, welch_ratio_ci


def test_the_ratio_interval_covers_its_nominal_95_percent():
    # Lognormal fork means with a 5% fork-to-fork CV, 5 forks a side, true ratio 0.9:
    # a percentile bootstrap covered 87-91% here; the Welch interval on logs must cover ~95%.
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(2000):
        old = 100.0 * np.exp(rng.normal(0, 0.05, 5))
        new = 90.0 * np.exp(rng.normal(0, 0.05, 5))
        lo, hi = welch_ratio_ci(old, new)
        hits += lo <= 0.9 <= hi
    assert 0.93 <= hits / 2000 <= 0.97


def test_the_ratio_interval_is_closed_form_and_needs_two_forks():
    lo, hi = welch_ratio_ci(np.array([100.0, 102.0, 98.0]), np.array([50.0, 51.0, 49.0]))
    assert lo < 0.5 < hi and hi - lo < 0.1
    assert all(np.isnan(welch_ratio_ci(np.array([100.0]), np.array([50.0, 51.0]))))
    assert welch_ratio_ci(np.array([2.0, 2.0]), np.array([1.0, 1.0])) == (0.5, 0.5)



def test_the_interval_is_scipys_welch_t_interval_on_the_logs():
    rng = np.random.default_rng(3)
    old, new = 100.0 * np.exp(rng.normal(0, 0.05, 6)), 90.0 * np.exp(rng.normal(0, 0.08, 4))
    w = welch(np.log(old), np.log(new))
    test = sps.ttest_ind(np.log(new), np.log(old), equal_var=False)
    assert math.isclose(w.diff / w.se, test.statistic) and math.isclose(w.df, test.df)
    low, high = test.confidence_interval(0.95)
    assert np.allclose(welch_ratio_ci(old, new), (math.exp(low), math.exp(high)))


def test_one_row_the_sequential_look_and_the_simulated_paths_take_the_same_statistic():
    rng = np.random.default_rng(5)
    old, new = np.exp(rng.normal(0, 0.1, 7)), np.exp(rng.normal(-0.2, 0.1, 7))
    w = welch(np.log(old), np.log(new))
    design = sequential.Design(cap=8)
    iv = sequential.interval(old, new, design)
    c = design.boundary(7)
    assert (iv.ratio, iv.low, iv.high) == (math.exp(w.diff), math.exp(w.diff - c * w.se),
                                           math.exp(w.diff + c * w.se))
    diff, se = welch_paths(np.log(old)[None, :], np.log(new)[None, :])
    assert math.isclose(diff[0, -1], w.diff) and math.isclose(se[0, -1], w.se)


def test_paths_taken_in_blocks_are_the_same_bits_as_all_at_once(monkeypatch):
    from hotpath.stats import welch as module

    rng = np.random.default_rng(7)
    old, new = rng.standard_normal((3 * module.BLOCK + 5, 12)), rng.standard_normal((3 * module.BLOCK + 5, 12))
    blocked = welch_paths(old, new)
    monkeypatch.setattr(module, "BLOCK", len(old))
    whole = welch_paths(old, new)
    assert all(np.array_equal(b, w, equal_nan=True) for b, w in zip(blocked, whole))
    assert blocked[0].shape == (len(old), 12)
