"""The JDK x GC matrix of a case, measured: the write-up's change benchmarked on every runtime
cell, each cell into its own results file (rows of two runtimes are never in one comparison).
hotpath.analyze.matrix reads the cells back; hotpath.render.matrix says what they found."""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path

from . import bench, shards
from ..cases import Case
from ..paths import matrix_file, shard_folder
from .profiles import Profile, format_duration
from ..runtimes import Cell, available


def profile_of(case: Case, profile: Profile) -> Profile:
    """The matrix asks about the write-up's change: old and the write-up's variant only."""
    return dataclasses.replace(profile, variants=("old", case.candidate))


def folder_of(profile: str) -> Path:
    """Where a profile's matrix lies: data/matrix/ (committed) for "matrix", else under the
    profile's results."""
    return matrix_file(profile, "-", "-").parent.parent


def run(case: Case, profile: Profile, cells: list[Cell],
        budget_text: str = "", shard: "shards.Shard | None" = None,
        folder: Path | None = None) -> tuple[list[Path], dict[str, str]]:
    """Benchmark the case on each cell whose JDK is installed; the others are skipped with
    the reason. Each cell's file is replaced only by a complete run (hotpath.measure.bench). The matrix
    asks about the write-up's change: old and the write-up's variant only. With a ``shard``, only
    its cells of the case, into the shard's folder, in their share of the case's budget.
    ``folder``: where the cells go instead of the profile's matrix (<folder>/<cell>/<case>.json)."""
    profile = profile_of(case, profile)
    found, skipped = available(cells)
    budget = profile.budget_s(budget_text)
    if shard is not None:
        mine = shard.cells(case.id)
        if not budget_text and math.isfinite(budget):
            budget *= len([c for c in found if c.id in mine]) / max(1, len(found))
        found = [c for c in found if c.id in mine]
    for cell_id, why in skipped.items():
        print(f"hotpath: {case.id}: skipping cell {cell_id}: {why}", flush=True)
    written = []
    # The profile's budget is the case's: each cell gets an even share of what is left.
    started = time.monotonic()
    for i, cell in enumerate(found, 1):
        share = (budget - (time.monotonic() - started)) / (len(found) - i + 1)
        print(f"hotpath: {case.id}: cell {i} of {len(found)}: {cell.id} ({cell.describe()}), "
              f"budget {format_duration(share)}", flush=True)
        out = (shard_folder(profile.name, shard.index, shard.count) / cell.id / f"{case.id}.json"
               if shard is not None else matrix_file(profile.name, case.id, cell.id, folder))
        written.append(bench.run(case, profile, out=out, cell=cell, budget_s=max(0.0, share),
                                 shard=shard))
    return written, skipped
