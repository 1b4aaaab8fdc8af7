"""Which part of the patch pays, from a run's JMH entries (hotpath.analyze.mechanisms)."""

import math

import numpy as np

from hotpath.analyze import load, mechanisms as M

EFFECTS = {"trimless": -0.30, "one-scope": -0.05}
BYTES = {"trimless": -1040.0, "one-scope": 0.0}


def _entry(variant: str, applied: frozenset, rng, forks: int = 6, interaction: float = 0.0) -> dict:
    """A recorded entry of 40 iterations a fork at log time = log(1000) + the applied effects."""
    level = 1000 * math.exp(sum(EFFECTS[m] for m in applied) + (interaction if len(applied) == 2 else 0))
    raw = [list(level * np.exp(rng.normal(0, 0.02) + rng.normal(0, 0.005, 40))) for _ in range(forks)]
    heap = 2000 + sum(BYTES[m] for m in applied)
    return {"benchmark": "hotpath.marshaller.MarshallerMechanismsBenchmark.marshalToStream", "mode": "avgt",
            "measurementTime": "100 ms", "warmupIterations": 0, "measurementIterations": 40,
            "params": {"variant": variant, "size": "1024"},
            "primaryMetric": {"score": level, "scoreUnit": "ns/op", "rawData": raw},
            "secondaryMetrics": {"gc.alloc.rate.norm": {"score": heap, "scoreUnit": "B/op",
                                                        "rawData": [[heap] * 40] * forks}}}


def _frame(variants: dict[str, frozenset], interaction: float = 0.0, seed: int = 1):
    rng = np.random.default_rng(seed)
    frame = load.tidy([_entry(v, a, rng, interaction=interaction) for v, a in variants.items()])
    frame.attrs["sequential"] = {"design": {"cap": 8, "min_forks": 3}, "estimate": "p10", "rows": []}
    return frame


FULL = {"old": frozenset(), "old+trimless": frozenset({"trimless"}), "old+one-scope": frozenset({"one-scope"}),
        "optimized": frozenset(EFFECTS)}


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
