"""The Mann-Whitney U p-value a report prints is SciPy's number, bit for bit, by either path."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from hotpath.stats import ranks


def _scipy(old, new):
    return float(sps.mannwhitneyu(old, new, alternative="two-sided").pvalue)


def _sides(rng, n1, n2, tied):
    values = rng.lognormal(4.0, 0.05, n1 + n2) * np.repeat([1.0, rng.uniform(0.9, 1.1)], [n1, n2])
    if tied:  # a few distinct values only: ties everywhere
        values = np.round(values / values.mean() * 20) / 20
    return values[:n1], values[n1:]


@pytest.mark.parametrize("tied", [False, True])
def test_the_p_value_is_scipys_bit_for_bit(tied):
    rng = np.random.default_rng(11 + tied)
    exact = normal = 0
    for n1 in range(2, 31):
        for n2 in (2, 3, 4, 5, 7, 8, 9, 12, 16, 24, 30):
            for _ in range(3):
                old, new = _sides(rng, n1, n2, tied)
                ours, theirs = ranks.two_sided_p(old, new), _scipy(old, new)
                assert ours == theirs or (math.isnan(ours) and math.isnan(theirs)), (old, new, ours, theirs)
                has_ties = len(np.unique(np.concatenate([old, new]))) < n1 + n2
                if min(n1, n2) <= ranks.EXACT_UP_TO and not has_ties:
                    exact += 1
                else:
                    normal += 1
    # both paths were held to it (29 x 11 x 3 = 957 pairs of sides)
    assert normal > 900 if tied else (exact > 500 and normal > 300)


def test_the_edges_are_scipys_too():
    same = np.array([5.0, 5.0, 5.0])
    apart_old, apart_new = np.arange(1.0, 9.0), np.arange(101.0, 109.0)
    cases = [(same, same), (apart_old, apart_new), (apart_new, apart_old),
             (np.array([1.0, 2.0]), np.array([2.0, 3.0])), (np.array([1.0, np.nan]), np.array([2.0, 3.0]))]
    for old, new in cases:
        ours, theirs = ranks.two_sided_p(old, new), _scipy(old, new)
        assert ours == theirs or (math.isnan(ours) and math.isnan(theirs)), (old, new, ours, theirs)
    # eight a side, wholly apart: the exact tail, 2 / C(16, 8)
    assert ranks.two_sided_p(apart_old, apart_new) == 2 / math.comb(16, 8)


def test_sides_too_large_to_count_exactly_ask_scipy():
    rng = np.random.default_rng(3)
    old, new = rng.normal(10, 1, 8), rng.normal(10, 1, 400)
    assert math.comb(408, 8) * 8 * 400 >= ranks.EXACT_COUNTS_BELOW
    assert ranks.two_sided_p(old, new) == _scipy(old, new)
