"""Which part of the patch pays, from a run: the rows of a benchmark whose variants are named by
the mechanisms they apply to old (``old``, ``old+trimless``, ``old+trimless+one-scope``,
``optimized-one-scope``, ``optimized``) decomposed in time per op and heap B/op
(hotpath.stats.decompose), each variant's forks taken as the verdicts take them
(hotpath.stats.rowfigures.family_figures: one estimate for the whole family)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from . import cpu
from .compare import ALLOC, SequentialRun, SideFigures
from .load import read_results, worked_out
from ..jmh import MECHANISM_TAKEN_BACK, MECHANISMS_APPLIED, higher_is_better, ns_per_op
from ..paths import MECHANISMS_REFERENCE, REFERENCE, committed, results_file
from ..cases import params_key
from ..errors import ResultsError
from ..stats import decompose, rowfigures, shares, steady

OLD, OPTIMIZED = "old", "optimized"
#: What a split's parts are (Found.kind): a patch's mechanisms, or a patch series' steps.
MECHANISMS, STEPS = "mechanisms", "steps"
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
    #: the time decomposed as ns per op, not their logs: parts in ns, which add as the frames'
    #: nanoseconds do (what a frame's share of the saving is held to)
    time_ns: decompose.Decomposition | None = None


@dataclass(frozen=True)
class Found:
    """A report's rows split among their mechanisms, and the results file they come from (the
    report's own run, or the case's run of ``make mechanisms``); none found: ``source`` None.
    A patch series' rows (hotpath.analyze.series) are split among its steps the same way."""

    rows: tuple[RowParts, ...] = ()
    source: Path | None = None
    #: what the parts are: the patch's MECHANISMS, each a variant of one run, or a series' STEPS,
    #: each the patch up to one more commit, measured in a run of its own against the baseline
    kind: str = MECHANISMS
    #: the levels the parts lead from and to: old and optimized, or a series' baseline and last step
    levels: tuple[str, str] = (OLD, OPTIMIZED)


def found_for(run_source: Path, frame: pd.DataFrame, case_id: str | None) -> Found:
    """For the reference, the committed ``make mechanisms`` run's (data/reference/mechanisms/
    <case>.json); else the report's own run's mechanism rows, and where it has none, for a
    local run the local one (data/results/mechanisms/<case>.json), if made; for another committed
    run (a matrix cell's runtime, say) none, for neither is that run's."""
    source = Path(run_source).resolve()
    if case_id is not None and source.parent == REFERENCE.resolve():
        # A run of every row gives a combination a scout's fork a side if any (full and reference
        # now leave them out); make mechanisms' committed run, made for the split, gives each 6 to 12.
        other = MECHANISMS_REFERENCE / f"{case_id}.json"
        return found_in(other) if other.is_file() else Found()
    own = decompositions(frame)
    if own or case_id is None:
        return Found(tuple(own), run_source if own else None)
    if not committed(source):
        other = results_file(MECHANISMS_PROFILE, case_id)
    else:
        return Found()
    return found_in(other) if other.is_file() else Found()


def found_in(results: Path) -> Found:
    """A results file's rows split among their mechanisms (a run of make mechanisms, or the
    reference's own rows), worked out once in a render (hotpath.analyze.load.worked_out)."""
    run = read_results(results)
    return worked_out(run, "mechanisms", lambda: Found(tuple(decompositions(run.frame)), results))


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
    time = time_ns = heap = None
    try:
        unit = next(iter(sides.values())).unit
        figures, how, how_why = rowfigures.family_figures(
            estimate, {key: side.weighed(higher_is_better(unit)) for key, side in sides.items()}, frozenset())
        # ns per op, whatever the mode (writer's benchmarks count ops/s): a part is a ratio of times
        ns = {k: [ns_per_op(v, unit) for v in f] for k, f in figures.items()}
        time, time_ns = decompose.decompose(every, ns), decompose.decompose(every, ns, log=False)
    except ValueError as e:
        whys.append(f"time: {e}")
    try:
        heap = decompose.decompose(every, {key: bytes_per_fork(records) for key, records in cells.items()},
                                   log=False)
    except (ValueError, KeyError) as e:
        whys.append(f"heap B/op: {e.args[0] if e.args else e}")
    return RowParts(benchmark, params, every, time, heap, how, how_why, "; ".join(whys), time_ns)


def bytes_per_fork(records: list[dict]) -> list[float]:
    """Each fork's mean heap B/op over its counted iterations (-prof gc's norm)."""
    for r in records:
        if r["metric"] == ALLOC:
            return [float(np.mean(fork)) for fork in r["raw"] if len(fork)]
    raise KeyError(f"no {ALLOC} for {records[0]['variant'] if records else 'a variant'}")


@dataclass(frozen=True)
class FramesHeld:
    """A time-mechanism claim's frames held to its mechanisms measured alone, on one row of the
    run of the mechanisms: the share of the saving (old to optimized, in ns per op) the frames
    explain by the CPU samples, beside the share the mechanisms' part is of it by intervention
    (hotpath.stats.decompose: Shapley's parts where every combination was measured, else each
    alone), each with its interval; ``agree`` where both intervals are bounded: whether they
    overlap. ``moved``: the claim's frames that changed from old to optimized but with none of its
    mechanisms applied alone (work another mechanism moved). ``why``: why not compared."""

    claim: str
    what: str
    mechanisms: tuple[str, ...]
    benchmark: str
    params: str
    frames: shares.Share | None = None
    intervention: shares.Share | None = None
    agree: bool | None = None
    moved: tuple[str, ...] = ()
    why: str = ""


def frames_held(claims: pd.DataFrame, found: Found, profiles: cpu.Profiles) -> tuple[FramesHeld, ...]:
    """Each time-mechanism claim of ``claims`` (a case's data/claims rows) that names its
    mechanisms, held on the row of ``found`` with the claim's params, from that run's samples."""
    out = []
    for _, claim in claims.iterrows():
        kind, _, pattern = str(claim["metric"]).partition(":")
        if not kind.startswith("cpu.") or not claim["mechanisms"]:
            continue
        params = params_key(claim["params"])
        mechanisms = tuple(str(claim["mechanisms"]).split("+"))
        row = next((r for r in found.rows if r.params == params and set(mechanisms) <= set(r.mechanisms)), None)
        if row is None:
            out.append(FramesHeld(claim["id"], claim["claim"], mechanisms, "", params,
                                  why="its mechanisms were not measured alone on this row"))
            continue
        out.append(_held(claim, row, mechanisms, pattern, kind.partition(".")[2], profiles))
    return tuple(out)


def _held(claim: pd.Series, row: RowParts, mechanisms: tuple[str, ...], pattern: str, how: str,
          profiles: cpu.Profiles) -> FramesHeld:
    held = FramesHeld(claim["id"], claim["claim"], mechanisms, row.benchmark, row.params)
    if row.time_ns is None:
        return replace(held, why=f"the row's time not split ({row.why})")
    intervention = row.time_ns.share_of(mechanisms)
    try:
        whole = cpu.attribute(profiles, row.benchmark, row.params, OLD, OPTIMIZED)
        frames = cpu.mechanism(whole, pattern, how)
        alone = [cpu.attribute(profiles, row.benchmark, row.params, OLD, MECHANISMS_APPLIED + m)
                 for m in mechanisms]
    except ResultsError as e:  # no samples of a variant, or frames naming a caller
        return replace(held, intervention=intervention, why=str(e).split(": ", 1)[-1])
    if not frames.found:
        return replace(held, intervention=intervention, why="no sample of either side ran in its frames")
    bounded = all(math.isfinite(s.low) for s in (frames.part, intervention))
    agree = (max(frames.part.low, intervention.low) <= min(frames.part.high, intervention.high)
             if bounded else None)
    return replace(held, frames=frames.part, intervention=intervention, agree=agree,
                   moved=_moved(whole, alone, pattern, how))


def _moved(whole: cpu.Attribution, alone: list[cpu.Attribution], pattern: str, how: str) -> tuple[str, ...]:
    """The frames matching ``pattern`` whose change old to optimized is decided and is decided in
    none of the attributions of a mechanism applied alone."""
    rx = re.compile(pattern)
    by_alone = set().union(*(set(a.decided(how)["frame"]) for a in alone))
    return tuple(f for f in whole.decided(how)["frame"] if rx.search(f) and f not in by_alone)
