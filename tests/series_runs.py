"""A patch series with known parts, as each step's run of two builds reads back (for the analysis
and the section of which change pays): every run's baseline at log time log(1000), its step's
build moved by the steps' effects so far (cumulative), heap B/op likewise."""

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from mechanism_runs import recorded_entry

from hotpath.analyze import load
from hotpath.analyze import series as S

BASELINE = "master"
#: Each step's own effect on log time and on heap B/op.
EFFECTS = {"a": (0.0, 0.0), "b": (-0.30, -1040.0), "c": (0.0, 0.0)}


def _entry(build: str, log_change: float, heap: float, rng, forks: int = 6) -> dict:
    return recorded_entry("hotpath.marshaller.MarshallerBenchmark.marshalToStream", build,
                          1000 * math.exp(log_change), heap, rng, forks)


def series(effects: dict[str, tuple[float, float]] = EFFECTS, seed: int = 1) -> S.Series:
    """The series as hotpath.analyze.series reads it: its manifest and each step's run's frame."""
    rng = np.random.default_rng(seed)
    steps, log_change, heap = [], 0.0, 2000.0
    for name, (effect, bytes_change) in effects.items():
        log_change, heap = log_change + effect, heap + bytes_change
        frame = load.tidy([_entry(BASELINE, 0.0, 2000.0, rng), _entry(name, log_change, heap, rng)])
        frame.attrs["sequential"] = {"design": {"cap": 8, "min_forks": 3}, "estimate": "p10", "rows": []}
        steps.append(SimpleNamespace(run=SimpleNamespace(frame=frame)))
    manifest = {"kind": "series", "baseline": {"name": BASELINE},
                "steps": [{"name": n, "folder": f"{k}-{n}"} for k, n in enumerate(effects, 1)]}
    return S.Series(Path("/runs/series/w"), manifest, tuple(steps))
