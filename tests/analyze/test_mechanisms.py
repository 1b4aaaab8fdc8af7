"""Which part of the patch pays, from a run's JMH entries (hotpath.analyze.mechanisms)."""

from hotpath.analyze import mechanisms as M

from mechanism_runs import EFFECTS, FULL, _frame


def test_a_runs_mechanism_variants_are_decomposed_in_time_and_bytes():
    [row] = M.decompositions(_frame(FULL))
    assert row.mechanisms == ("trimless", "one-scope") and row.why == ""
    assert row.estimate == "p10"
    trim = row.time.alone["trimless"]
    # p10 of each fork sits a little below its level: the part is a ratio, which that cancels
    assert trim.low <= -0.30 <= trim.high and trim.told_from_zero
    assert row.time.shapley is not None and row.time.interaction.low <= 0 <= row.time.interaction.high
    assert row.bytes.alone["trimless"].estimate == -1040.0 and row.bytes.alone["one-scope"].estimate == 0.0


def test_a_family_is_named_by_its_variants_and_others_are_left_out():
    assert M.mechanisms_in(["old", "old+a", "old+a+b", "optimized-b", "floor"]) == ("a", "b")
    every = ("a", "b")
    assert M.applied("old+a+b", every) == {"a", "b"} and M.applied("optimized-b", every) == {"a"}
    assert M.applied("floor", every) is None and M.applied("upstream", every) is None
    assert M.decompositions(_frame({"old": frozenset(), "optimized": frozenset(EFFECTS)})) == []


def test_a_design_without_a_mechanism_alone_says_why():
    variants = {k: v for k, v in FULL.items() if k != "old+one-scope"}
    variants["old+trimless+one-scope"] = frozenset(EFFECTS)
    [row] = M.decompositions(_frame(variants))
    assert row.time is None and "old+one-scope" in row.why and "time" in row.why


def test_a_throughput_row_is_split_in_time_per_op():
    """Writer's benchmarks count ops/s: its parts are ratios of ns per op, its levels ns."""
    import math

    frame = _frame(FULL)
    score = frame["metric"] == "score"
    frame.loc[score, "raw"] = frame.loc[score, "raw"].map(lambda forks: [[1e9 / v for v in f] for f in forks])
    frame.loc[score, "unit"] = "ops/s"
    [row] = M.decompositions(frame)
    trim = row.time.alone["trimless"]
    assert trim.low <= -0.30 <= trim.high
    assert 900 < math.exp(row.time.base) < 1100  # old's level in ns per op, not seconds
