"""Which part of the patch pays, from a run: the rows of a benchmark whose variants are named by
the mechanisms they apply to old (``old``, ``old+trimless``, ``old+trimless+one-scope``,
``optimized-one-scope``, ``optimized``) decomposed in time per op and heap B/op
(hotpath.stats.decompose), each variant's forks taken as the verdicts take them
(hotpath.stats.rowfigures.family_figures: one estimate for the whole family)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .compare import ALLOC, SequentialRun, SideFigures
from .load import read_results
from ..jmh import MECHANISM_TAKEN_BACK, MECHANISMS_APPLIED, higher_is_better, ns_per_op
from ..paths import results_file
from ..stats import decompose, rowfigures, steady

OLD, OPTIMIZED = "old", "optimized"
#: The profile of ``make mechanisms`` (hotpath.measure.profiles), whose results a case's report
#: of another run takes its parts from.
MECHANISMS_PROFILE = "mechanisms"


def mechanisms_in(variants: list[str]) -> tuple[str, ...]:
    """The mechanisms a family of variants names, in the order they first appear."""
    found: dict[str, None] = {}
    for v in variants:
        if v.startswith(MECHANISMS_APPLIED):
            found.update(dict.fromkeys(v[len(MECHANISMS_APPLIED):].split("+")))
    return tuple(found)


def applied(variant: str, every: tuple[str, ...]) -> frozenset[str] | None:
    """The mechanisms a variant applies to old; None for a variant not of the family (floor,
    upstream...)."""
    if variant == OLD:
        return frozenset()
    if variant == OPTIMIZED:
        return frozenset(every)
    if variant.startswith(MECHANISMS_APPLIED):
        return frozenset(variant[len(MECHANISMS_APPLIED):].split("+"))
    if variant.startswith(MECHANISM_TAKEN_BACK) and variant[len(MECHANISM_TAKEN_BACK):] in every:
        return frozenset(every) - {variant[len(MECHANISM_TAKEN_BACK):]}
    return None


@dataclass(frozen=True)
class RowParts:
    """One row's change split among its mechanisms, in time per op (on logs: parts are ratios)
    and in heap B/op (parts are bytes); a part of the design missing, or too few forks, is said
    in ``why`` and leaves that decomposition None."""

    benchmark: str
    params: str
    mechanisms: tuple[str, ...]
    time: decompose.Decomposition | None
    bytes: decompose.Decomposition | None
    #: the estimate each fork's figure is, and why it is not the run's own
    estimate: str
    estimate_why: str
    why: str = ""


@dataclass(frozen=True)
class Found:
    """A report's rows split among their mechanisms, and the results file they come from (the
    report's own run, or the case's run of ``make mechanisms``); none found: ``source`` None."""

    rows: tuple[RowParts, ...] = ()
    source: Path | None = None


def found_for(run_source: Path, frame: pd.DataFrame, case_id: str | None) -> Found:
    """The report's own run's mechanism rows; where it has none, a case's ``make mechanisms`` run's
    (data/results/mechanisms/<case>.json), if made."""
    own = decompositions(frame)
    if own or case_id is None:
        return Found(tuple(own), run_source if own else None)
    other = results_file(MECHANISMS_PROFILE, case_id)
    if not other.is_file():
        return Found()
    return Found(tuple(decompositions(read_results(other).frame)), other)


def decompositions(frame: pd.DataFrame) -> list[RowParts]:
    """Every row of the run whose variants name mechanisms (``old+...``), decomposed."""
    estimate = SequentialRun.of(frame).estimate or steady.MEAN
    out = []
    for (benchmark, params), rows in frame.groupby(["benchmark", "params"], sort=False):
        variants = list(dict.fromkeys(rows["variant"]))
        every = mechanisms_in(variants)
        if not every:
            continue
        cells = {key: [r for r in rows.to_dict("records") if r["variant"] == v]
                 for v in variants if (key := applied(v, every)) is not None}
        out.append(_row(str(benchmark), str(params), every, cells, estimate))
    return out


def _row(benchmark: str, params: str, every: tuple[str, ...], cells: dict[frozenset[str], list[dict]],
         estimate: str) -> RowParts:
    sides = {key: SideFigures.of(records) for key, records in cells.items()}
    whys, how, how_why = [], estimate, ""
    time = heap = None
    try:
        unit = next(iter(sides.values())).unit
        figures, how, how_why = rowfigures.family_figures(
            estimate, {key: side.weighed(higher_is_better(unit)) for key, side in sides.items()}, frozenset())
        # ns per op, whatever the mode (writer's benchmarks count ops/s): a part is a ratio of times
        time = decompose.decompose(every, {k: [ns_per_op(v, unit) for v in f] for k, f in figures.items()})
    except ValueError as e:
        whys.append(f"time: {e}")
    try:
        heap = decompose.decompose(every, {key: _bytes_per_fork(records) for key, records in cells.items()},
                                   log=False)
    except (ValueError, KeyError) as e:
        whys.append(f"heap B/op: {e.args[0] if e.args else e}")
    return RowParts(benchmark, params, every, time, heap, how, how_why, "; ".join(whys))


def _bytes_per_fork(records: list[dict]) -> list[float]:
    """Each fork's mean heap B/op over its counted iterations (-prof gc's norm)."""
    for r in records:
        if r["metric"] == ALLOC:
            return [float(np.mean(fork)) for fork in r["raw"] if len(fork)]
    raise KeyError(f"no {ALLOC} for {records[0]['variant'] if records else 'a variant'}")
