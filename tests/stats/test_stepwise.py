"""A patch series split among its steps (hotpath.stats.decompose.stepwise): each step a run of two
builds of its own, the baseline against the patch up to that step; parts with known answers."""

import math

import numpy as np
import pytest

from hotpath.stats import decompose as D


def _run(rng, effect: float, forks: int = 6, cv: float = 0.02, level: float = 1000.0):
    """One step's run: the baseline's forks, then the build's at ``effect`` on log time."""
    return (list(level * np.exp(rng.normal(0, cv, forks))),
            list(level * np.exp(effect + rng.normal(0, cv, forks))))


def test_each_step_is_its_runs_change_less_the_step_befores_and_the_steps_add_up_to_the_last_run():
    rng = np.random.default_rng(1)
    # cumulative: a changes nothing, b takes 30% off, c nothing more
    runs = [_run(rng, 0.0), _run(rng, -0.30), _run(rng, -0.30)]
    d = D.stepwise(("a", "b", "c"), runs)
    changes = [np.log(build).mean() - np.log(base).mean() for base, build in runs]
    assert d.alone["a"].estimate == pytest.approx(changes[0], abs=1e-12)
    assert d.alone["b"].estimate == pytest.approx(changes[1] - changes[0], abs=1e-12)
    assert d.total.estimate == pytest.approx(changes[2], abs=1e-12)
    assert sum(p.estimate for p in d.alone.values()) == pytest.approx(d.total.estimate, abs=1e-12)
    assert d.alone["b"].told_from_zero and d.alone["b"].low <= -0.30 <= d.alone["b"].high
    assert not d.alone["a"].told_from_zero and not d.alone["c"].told_from_zero
    # no interaction: an exact 0, without an interval to print
    assert (d.interaction.estimate, d.interaction.low, d.interaction.high) == (0.0, 0.0, 0.0)
    assert math.isinf(d.interaction.df) and d.shapley is None and d.taken_back == {}
    # the waterfall starts at the last run's baseline and ends at its build
    assert d.base == pytest.approx(np.log(runs[2][0]).mean())


def test_a_later_steps_part_carries_both_runs_variances():
    rng = np.random.default_rng(8)
    runs = [_run(rng, 0.0, cv=0.05), _run(rng, -0.1, cv=0.01)]
    d = D.stepwise(("a", "b"), runs)
    var = [float(np.var(np.log(x), ddof=1) / len(x)) for run in runs for x in run]
    half = d.alone["b"].high - d.alone["b"].estimate
    assert half == pytest.approx(D.t_quantile(0.975, d.alone["b"].df) * math.sqrt(sum(var)), rel=1e-9)
    assert half > d.alone["a"].high - d.alone["a"].estimate  # b's interval is wider than its own run's


def test_bytes_are_split_as_bytes_and_exact_counts_give_exact_parts():
    runs = [([872.0] * 3, [872.0] * 3), ([872.0] * 3, [240.0] * 3)]
    d = D.stepwise(("same", "trimless"), runs, log=False)
    assert (d.alone["same"].estimate, d.alone["trimless"].estimate) == (0.0, -632.0)
    assert (d.alone["trimless"].low, d.alone["trimless"].high) == (-632.0, -632.0)


def test_a_run_short_of_forks_names_its_step_and_side():
    with pytest.raises(ValueError, match="b's run, the baseline: 1 fork\\(s\\); a part needs 2 or more a side"):
        D.stepwise(("a", "b"), [([1.0, 1.1], [1.0, 1.1]), ([1.0], [1.0, 1.1])])
    with pytest.raises(ValueError, match="1 step name\\(s\\) for 2 run\\(s\\)"):
        D.stepwise(("a",), [([1.0, 1.1], [1.0, 1.1])] * 2)
