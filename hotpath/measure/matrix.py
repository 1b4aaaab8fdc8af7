"""The JDK x GC matrix of a case, measured: the write-up's change benchmarked on every runtime
cell, each cell into its own results file (rows of two runtimes are never in one comparison).
hotpath.analyze.matrix reads the cells back; hotpath.render.matrix says what they found."""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path

from . import bench, forkplan
from ..cases import Case
from ..paths import matrix_file
from .profiles import Profile
from .runtimes import Cell, available


def run(case: Case, profile: Profile, cells: list[Cell],
        budget_text: str = "") -> tuple[list[Path], dict[str, str]]:
    """Benchmark the case on each cell whose JDK is installed; the others are skipped with
    the reason. Each cell's file is replaced only by a complete run (hotpath.measure.bench). The matrix
    asks about the write-up's change: old and the write-up's variant only."""
    profile = dataclasses.replace(profile, variants=("old", case.candidate))
    found, skipped = available(cells)
    for cell_id, why in skipped.items():
        print(f"hotpath: {case.id}: skipping cell {cell_id}: {why}", flush=True)
    written = []
    # The profile's budget is the case's: each cell gets an even share of what is left.
    budget = forkplan.parse_budget(budget_text or profile.budget) or math.inf
    started = time.monotonic()
    for i, cell in enumerate(found, 1):
        share = (budget - (time.monotonic() - started)) / (len(found) - i + 1)
        print(f"hotpath: {case.id}: cell {i} of {len(found)}: {cell.id} ({cell.describe()}), "
              f"budget {forkplan.format_duration(share)}", flush=True)
        written.append(bench.run(case, profile, out=matrix_file(profile.name, case.id, cell.id),
                                 cell=cell, budget_s=max(0.0, share)))
    return written, skipped
