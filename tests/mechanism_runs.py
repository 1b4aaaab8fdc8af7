"""A run of a mechanisms benchmark with known parts, as JMH's entries (for the analysis and the
chart of which change pays): log time = log(1000) + the applied mechanisms' effects."""

import math

import numpy as np

from hotpath.analyze import load

EFFECTS = {"trimless": -0.30, "one-scope": -0.05}
BYTES = {"trimless": -1040.0, "one-scope": 0.0}


def recorded_entry(benchmark: str, variant: str, level: float, heap: float, rng, forks: int = 6) -> dict:
    """A recorded entry of 40 iterations a fork at ``level`` ns/op (each fork moved by the host a
    little, as a whole) and ``heap`` B/op, size=1024."""
    raw = [list(level * np.exp(rng.normal(0, 0.02) + rng.normal(0, 0.005, 40))) for _ in range(forks)]
    return {"benchmark": benchmark, "mode": "avgt",
            "measurementTime": "100 ms", "warmupIterations": 0, "measurementIterations": 40,
            "params": {"variant": variant, "size": "1024"},
            "primaryMetric": {"score": level, "scoreUnit": "ns/op", "rawData": raw},
            "secondaryMetrics": {"gc.alloc.rate.norm": {"score": heap, "scoreUnit": "B/op",
                                                        "rawData": [[heap] * 40] * forks}}}


def _entry(variant: str, applied: frozenset, rng, forks: int = 6, interaction: float = 0.0) -> dict:
    """A recorded entry at log time = log(1000) + the applied effects."""
    level = 1000 * math.exp(sum(EFFECTS[m] for m in applied) + (interaction if len(applied) == 2 else 0))
    return recorded_entry("hotpath.marshaller.MarshallerMechanismsBenchmark.marshalToStream", variant, level,
                          2000 + sum(BYTES[m] for m in applied), rng, forks)


def _frame(variants: dict[str, frozenset], interaction: float = 0.0, seed: int = 1):
    rng = np.random.default_rng(seed)
    frame = load.tidy([_entry(v, a, rng, interaction=interaction) for v, a in variants.items()])
    frame.attrs["sequential"] = {"design": {"cap": 8, "min_forks": 3}, "estimate": "p10", "rows": []}
    return frame


FULL = {"old": frozenset(), "old+trimless": frozenset({"trimless"}), "old+one-scope": frozenset({"one-scope"}),
        "optimized": frozenset(EFFECTS)}
