"""The forks' shape the A/A report prints is SciPy's skewness and kurtosis, bit for bit."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from hotpath.stats import moments


def _same(ours, theirs):
    return ours == float(theirs) or (math.isnan(ours) and math.isnan(theirs))


@pytest.mark.parametrize("bias", [True, False])
def test_skewness_and_kurtosis_are_scipys(bias):
    rng = np.random.default_rng(5)
    draws = [rng.normal(0, 1, n) for n in range(1, 60)]
    draws += [rng.lognormal(3, 0.4, n) for n in (5, 8, 13, 100, 1052)]
    draws += [np.round(rng.normal(100, 1, 40)), np.full(9, 2.5), np.array([1.0, 1.0 + 1e-15, 1.0])]
    for x in draws:
        assert _same(moments.skew(x, bias=bias), sps.skew(x, bias=bias)), x
        assert _same(moments.excess_kurtosis(x, bias=bias), sps.kurtosis(x, bias=bias)), x


def test_no_spread_has_no_shape():
    assert math.isnan(moments.skew(np.full(10, 3.0))) and math.isnan(moments.excess_kurtosis(np.full(10, 3.0)))
