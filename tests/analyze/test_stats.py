"""Fork-aware statistics on synthetic data with a known answer."""

import numpy as np
import pytest

from hotpath.analyze import stats


def forks(rng, n_forks, mean, sd=1.0, iterations=5, fork_sd=0.5):
    out = []
    for _ in range(n_forks):
        centre = mean + rng.normal(0, fork_sd)
        out.append(list(rng.normal(centre, sd, iterations)))
    return out


def test_identical_samples_are_the_same():
    rng = np.random.default_rng(1)
    old = forks(rng, 6, 100.0)
    v = stats.time_verdict(old, [list(f) for f in old], higher_is_better=False)
    assert v.verdict == "same"
    assert v.ratio == pytest.approx(1.0)
    assert v.ci_low <= 1.0 <= v.ci_high


def test_shifted_distribution_is_faster_with_the_ratio_inside_the_ci():
    rng = np.random.default_rng(2)
    old = forks(rng, 6, 100.0)
    new = forks(rng, 6, 70.0)  # 30% less time per op
    v = stats.time_verdict(old, new, higher_is_better=False)
    assert v.verdict == "faster"
    assert v.ci_low <= 0.70 <= v.ci_high
    assert v.p_value < 0.05


def test_higher_throughput_is_faster_and_lower_is_slower():
    rng = np.random.default_rng(3)
    old = forks(rng, 5, 1000.0, sd=5)
    assert stats.time_verdict(old, forks(rng, 5, 1500.0, sd=5), True).verdict == "faster"
    assert stats.time_verdict(old, forks(rng, 5, 600.0, sd=5), True).verdict == "slower"


def test_two_forks_are_undecided_with_a_warning():
    rng = np.random.default_rng(4)
    v = stats.time_verdict(forks(rng, 2, 100.0), forks(rng, 2, 50.0), higher_is_better=False)
    assert v.verdict == "undecided"
    assert any("too few forks" in w for w in v.warnings)


def test_high_fork_to_fork_variance_is_warned_about():
    rng = np.random.default_rng(5)
    noisy = forks(rng, 5, 100.0, fork_sd=30.0)
    v = stats.time_verdict(noisy, forks(rng, 5, 100.0), higher_is_better=False)
    assert any("fork-to-fork variance in old" in w for w in v.warnings)


@pytest.mark.parametrize("old, new, spread, verdict", [
    (1000.0, 1004.0, 0.0, "same"),      # within 8 B alignment
    (1000.0, 1040.0, 200.0, "same"),    # within the run's own spread and +-5%
    (1000.0, 1100.0, 200.0, "unclear"),  # within the spread, beyond +-5%: not the same
    (19_692_432.0, 9_551_594.0, 12e6, "unclear"),  # a smoke run's zip LIST_1660K: never "same"
    (1000.0, 240.0, 1.0, "less"),
    (240.0, 1000.0, 1.0, "more"),
    (20000.0, 0.0, 1.0, "→ 0 B/op"),
    (float("nan"), 1.0, 0.0, "not measured"),
])
def test_alloc_verdicts(old, new, spread, verdict):
    assert stats.alloc_verdict(old, new, spread) == verdict


def test_geomean_of_ratios():
    assert stats.geomean([0.5, 2.0]) == pytest.approx(1.0)
    assert stats.geomean([0.25, 1.0]) == pytest.approx(0.5)


def test_score_halfwidth_is_the_t_interval_over_fork_means_and_forks_for_reaches_the_goal():
    import math
    raw = [[100.0, 100.0], [104.0, 104.0], [96.0, 96.0], [100.0, 100.0]]
    # fork means 100, 104, 96, 100: sd 3.266, t(0.975, 3) = 3.182 -> 3.182 * 3.266 / 2 / 100
    assert math.isclose(stats.score_halfwidth(raw), 0.05197, rel_tol=1e-3)
    assert math.isclose(stats.fork_cv(raw), 0.03266, rel_tol=1e-3)
    assert math.isnan(stats.score_halfwidth([[1.0, 2.0]]))
    n = stats.forks_for(0.05)
    assert 10 <= n <= 20
    t = lambda k: __import__("scipy").stats.t.ppf(0.975, k - 1)
    assert t(n) * 0.05 / math.sqrt(n) <= 0.03 < t(n - 1) * 0.05 / math.sqrt(n - 1)
    assert stats.forks_for(0.01) <= 4 and stats.forks_for(math.nan) == 0


def test_precision_summary_counts_the_rows_within_3_and_5_percent():
    import pandas as pd
    from hotpath.analyze import compare
    rows = pd.DataFrame({"halfwidth": [0.01, 0.03, 0.04, 0.2]})
    assert compare.precision_summary(rows).startswith(
        "2 of 4 time rows (50%) within 3% (95% CI half-width over fork means), 3 (75%) within 5%")
