"""Which part of a patch pays (hotpath.stats.decompose): parts with known answers."""

import math
from itertools import combinations

import numpy as np
import pytest

from hotpath.stats import decompose as D

MECHANISMS = ("trimless", "one-scope", "null-array")


def _cells(effects: dict[str, float], rng, forks: int = 8, cv: float = 0.02, base: float = 1000.0,
           interaction=lambda applied: 0.0, subsets=None):
    """Fork figures of every cell (or ``subsets``): log time = log(base) + the applied
    mechanisms' effects + ``interaction(applied)`` + the forks' noise."""
    names = list(effects)
    keys = subsets or [frozenset(c) for k in range(len(names) + 1) for c in combinations(names, k)]
    return {key: list(base * np.exp(sum(effects[m] for m in key) + interaction(key)
                                    + rng.normal(0, cv, forks)))
            for key in keys}


def test_parts_that_add_up_are_found_alone_taken_back_and_shared_and_the_interaction_holds_zero():
    effects = {"trimless": -0.30, "one-scope": -0.05, "null-array": 0.0}
    d = D.decompose(MECHANISMS, _cells(effects, np.random.default_rng(1)))
    for m, truth in effects.items():
        for found in (d.alone[m], d.taken_back[m], d.shapley[m]):
            assert found.low <= truth <= found.high, (m, found)
    assert d.alone["trimless"].told_from_zero and not d.alone["null-array"].told_from_zero
    assert d.interaction.low <= 0 <= d.interaction.high
    # Shapley's parts add up to the whole change exactly
    assert sum(p.estimate for p in d.shapley.values()) == pytest.approx(d.total.estimate, abs=1e-12)
    assert d.total.speedup()[0] == pytest.approx(math.exp(0.35), rel=0.03)


def test_two_mechanisms_that_remove_the_same_copy_show_an_interaction_and_share_the_saving():
    """Each alone saves 30%; together still 30% (they remove one copy between them)."""
    def overlap(applied):
        return 0.30 if {"trimless", "one-scope"} <= applied else 0.0

    effects = {"trimless": -0.30, "one-scope": -0.30, "null-array": 0.0}
    d = D.decompose(MECHANISMS, _cells(effects, np.random.default_rng(2), interaction=overlap))
    assert d.interaction.low > 0.2 and d.interaction.high < 0.4
    assert d.taken_back["trimless"].low <= 0 <= d.taken_back["trimless"].high  # the other one does it
    assert d.shapley["trimless"].estimate == pytest.approx(d.shapley["one-scope"].estimate, abs=0.03)
    assert d.shapley["trimless"].estimate == pytest.approx(-0.15, abs=0.03)


def test_the_intervals_cover_the_truth_as_often_as_they_claim():
    rng = np.random.default_rng(3)
    effects = {"trimless": -0.2, "one-scope": -0.02, "null-array": 0.01}
    hits = {"alone": 0, "shapley": 0, "interaction": 0}
    runs = 400
    for _ in range(runs):
        d = D.decompose(MECHANISMS, _cells(effects, rng, forks=4, cv=0.05))
        hits["alone"] += d.alone["one-scope"].low <= -0.02 <= d.alone["one-scope"].high
        hits["shapley"] += d.shapley["trimless"].low <= -0.2 <= d.shapley["trimless"].high
        hits["interaction"] += d.interaction.low <= 0 <= d.interaction.high
    # 95% intervals: over 400 runs, below 91% would be 5 standard errors short
    assert all(h / runs >= 0.91 for h in hits.values()), hits


def test_one_at_a_time_and_leave_one_out_without_a_full_factorial():
    """Store's five changes: old, optimized, each alone and each taken back; no Shapley split."""
    names = ("long-offsets", "reused-request", "one-duplicate", "no-lambda", "cached-key")
    effects = dict(zip(names, (-0.10, -0.05, -0.02, -0.01, 0.0)))
    every = frozenset(names)
    subsets = [frozenset(), every] + [frozenset({m}) for m in names] + [every - {m} for m in names]
    d = D.decompose(names, _cells(effects, np.random.default_rng(4), subsets=subsets))
    assert d.shapley is None and set(d.taken_back) == set(names)
    assert d.alone["long-offsets"].low <= -0.10 <= d.alone["long-offsets"].high
    assert d.interaction.low <= 0 <= d.interaction.high


def test_bytes_per_op_are_split_as_bytes_and_exact_counts_give_exact_parts():
    cells = {frozenset(): [872.0] * 4, frozenset({"a"}): [600.0] * 4, frozenset({"b"}): [812.0] * 4,
             frozenset({"a", "b"}): [240.0] * 4}
    d = D.decompose(("a", "b"), cells, log=False)
    assert (d.alone["a"].estimate, d.alone["a"].low, d.alone["a"].high) == (-272.0, -272.0, -272.0)
    assert d.interaction.estimate == pytest.approx(-632 + 272 + 60)
    assert sum(p.estimate for p in d.shapley.values()) == pytest.approx(-632.0)


@pytest.mark.parametrize("figures, message", [
    ({frozenset(): [1.0, 1.1]}, "missing: optimized, old\\+a"),
    ({frozenset(): [1.0, 1.1], frozenset({"a"}): [1.0, 1.1], frozenset({"z"}): [1.0, 1.0]}, "not in the design: z"),
    ({frozenset(): [1.0], frozenset({"a"}): [1.0, 1.1]}, "old: 1 fork\\(s\\); a part needs 2 or more a side"),
])
def test_a_design_short_of_cells_or_forks_is_a_clear_error(figures, message):
    with pytest.raises(ValueError, match=message):
        D.decompose(("a",), figures)


def _linear_cells(parts: dict[str, float], rng, forks: int = 6, sd: float = 20.0, base: float = 1000.0,
                  subsets=None):
    """Fork figures in ns per op: old's ``base`` less each applied mechanism's saving, with noise."""
    names = list(parts)
    keys = subsets or [frozenset(c) for k in range(len(names) + 1) for c in combinations(names, k)]
    return {key: list(base + sum(parts[m] for m in key) + rng.normal(0, sd, forks)) for key in keys}


def test_a_mechanisms_share_of_the_whole_change_covers_the_truth_as_often_as_it_claims():
    """Linear parts -300 and -100 ns of a -400 ns change: trimless's share is 75%, and the pair's
    100%; Fieller's interval holds 75% about 95% of the time over the full factorial and over a
    design of each alone and each taken back."""
    rng = np.random.default_rng(5)
    parts = {"trimless": -300.0, "one-scope": -100.0, "null-array": 0.0}
    alone_and_back = [frozenset(), frozenset(parts), *(frozenset({m}) for m in parts),
                      *(frozenset(parts) - {m} for m in parts)]
    runs = 400
    for subsets in (None, alone_and_back):
        hits = 0
        for _ in range(runs):
            d = D.decompose(MECHANISMS, _linear_cells(parts, rng, subsets=subsets), log=False)
            s = d.share_of(["trimless"])
            assert s.low <= s.share <= s.high
            hits += s.low <= 0.75 <= s.high
        assert 0.92 * runs <= hits <= 0.98 * runs, (subsets is None, hits)
    d = D.decompose(MECHANISMS, _linear_cells(parts, np.random.default_rng(6)), log=False)
    both = d.share_of(["trimless", "one-scope"])
    assert both.low <= 1.0 <= both.high and both.high - both.low < 0.2
    # the shares of all the mechanisms add up to the whole: Shapley's parts do
    assert d.share_of(MECHANISMS).share == pytest.approx(1.0, abs=1e-12)


def test_a_share_of_a_change_not_told_from_zero_has_no_bounded_interval():
    parts = {"trimless": -1.0, "one-scope": 0.0, "null-array": 0.0}
    d = D.decompose(MECHANISMS, _linear_cells(parts, np.random.default_rng(7), sd=50.0), log=False)
    assert not d.total.told_from_zero
    s = d.share_of(["trimless"])
    assert math.isnan(s.low) and math.isnan(s.high)
    with pytest.raises(ValueError, match="not a mechanism"):
        d.share_of(["scope"])
