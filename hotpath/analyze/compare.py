"""Stage 2: pair each candidate variant with the baseline and compute the deltas.

Pairing key: (benchmark, every param except ``variant``). The baseline is the ``old`` variant
unless told otherwise; every other variant is a candidate. Rows that cannot be paired are
returned with the reason, never dropped silently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..stats import rowfigures, sequential, steady
from ..stats.rowfigures import SideForks
from . import stats
from .load import Run, worked_out
from ..jmh import (VARIANT, MethodName, RowKey, higher_is_better, params_of, params_text, per_op, per_time,
                   seconds_per_op)

#: Variants beyond the write-ups, each reported in a table of its own: the least the operation
#: must allocate (issue "floor"), and the released upstream code beside our old model.
FLOOR, UPSTREAM = "floor", "upstream"
BEYOND = (FLOOR, UPSTREAM)
ALLOC = "gc.alloc.rate.norm"
NATIVE = "native.alloc.norm"
#: Column stem -> metric: native bytes per op in total and by origin (hotpath.profiler).
NATIVE_PARTS = {"native": NATIVE, "direct": NATIVE + ".direct", "zlib": NATIVE + ".zlib"}


@dataclass(frozen=True)
class Comparison:
    pairs: pd.DataFrame
    unpaired: pd.DataFrame
    baseline: str


def time_per_op(row: pd.Series | Mapping[str, Any]) -> tuple[float, float, float]:
    """(ratio, CI low, CI high) of time per op new/old; throughput ratios are inverted."""
    ratio, lo, hi = row["ratio"], row["ci_low"], row["ci_high"]
    if row["higher_is_better"]:
        return (1 / ratio if ratio else math.nan,
                1 / hi if hi else math.nan, 1 / lo if lo else math.nan)
    return ratio, lo, hi


def _ops_per_iteration(primary: dict) -> list[float]:
    """Operations per measured iteration, derived from the primary metric where the mode allows."""
    unit, mode, t = primary["unit"], primary["mode"], primary["measurement_time_s"]
    values = [v for fork in primary["raw"] for v in fork]
    if mode == "ss":
        return [float(primary["batch_size"])] * len(values)
    if not (per_op(unit) or per_time(unit)) or math.isnan(t) or mode == "sample":
        return []
    return [t / s if (s := seconds_per_op(v, unit)) else math.nan for v in values]


def _by_metric(rows: list[dict]) -> dict[str, dict]:
    """One variant's rows by metric, the first of each."""
    by_metric: dict[str, dict] = {}
    for r in rows:
        by_metric.setdefault(r["metric"], r)
    return by_metric


def gc_normalized(group: pd.DataFrame) -> dict[str, float]:
    """GC count per 10^6 ops and GC time as % of measured time. JMH's gc.count and gc.time are
    sums over the whole run; raw sums only compare between runs of the same shape, so normalize
    them by what was measured."""
    return _gc_normalized(_by_metric(group.to_dict("records")))


def _gc_normalized(by_metric: dict[str, dict]) -> dict[str, float]:
    primary = by_metric["score"]
    out = {"gc_count_per_mop": math.nan, "gc_time_pct": math.nan}
    if "gc.count" not in by_metric:
        return out
    count = sum(v for fork in by_metric["gc.count"]["raw"] for v in fork)
    gc_ms = sum(v for fork in by_metric["gc.time"]["raw"] for v in fork) if "gc.time" in by_metric else 0.0
    ops = _ops_per_iteration(primary)
    if ops and not any(math.isnan(o) for o in ops):
        out["gc_count_per_mop"] = count / sum(ops) * 1e6
    measured_ms = primary["iterations"] * primary["measurement_time_s"] * 1e3
    if primary["mode"] in ("thrpt", "avgt") and measured_ms:
        out["gc_time_pct"] = gc_ms / measured_ms * 100
    return out


class Bytes(NamedTuple):
    """Bytes per op of one .norm metric and their spread over the counted iterations."""

    per_op: float
    spread: float

    def verdict(self, new: Bytes) -> str:
        """What the change from these bytes to ``new`` is, beyond both sides' spread."""
        return stats.alloc_verdict(self.per_op, new.per_op, max(self.spread, new.spread))


def _bytes_per_op(by_metric: dict[str, dict], metric: str) -> Bytes:
    """(B/op, spread) for a .norm metric. With -prof gc on but no alloc metric, the benchmark
    allocated nothing: that is 0 B/op, the best case, not missing data."""
    row = by_metric.get(metric)
    if row is None:
        profiled = metric == ALLOC and any(m.startswith("gc.") for m in by_metric)
        return Bytes(0.0, 0.0) if profiled else Bytes(math.nan, math.nan)
    values = [v for fork in row["raw"] for v in fork]
    spread = float(np.ptp(values)) if values else 0.0
    return Bytes(float(row["score"]), spread)


def _faults_per_op(by_metric: dict[str, dict]) -> float:
    """Page faults per op over the counted iterations (faults.norm); NaN where not measured."""
    row = by_metric.get("faults.norm")
    return float(row["score"]) if row is not None else math.nan


def _fork_gc_shares(by_metric: dict[str, dict]) -> list[float]:
    """Each fork's share of its counted iterations' time in GC pauses (gc.time, cut to the same
    iterations as the score); NaN where the two cannot be matched."""
    primary, gc = by_metric["score"], by_metric.get("gc.time")
    it_ms = primary["measurement_time_s"] * 1e3
    out = []
    for k, fork in enumerate(primary["raw"]):
        times = gc["raw"][k] if gc is not None and k < len(gc["raw"]) else None
        matched = times is not None and len(times) == len(fork) and it_ms > 0
        out.append(float(sum(times)) / (len(fork) * it_ms) if matched and times is not None else math.nan)
    return out


def _fork_fault_shares(by_metric: dict[str, dict]) -> list[float]:
    """Each fork's share of its counted iterations' time in page faults (hotpath's faults.norm,
    at steady.FAULT_COST_S a fault); NaN where the two cannot be matched."""
    primary, faults = by_metric["score"], by_metric.get("faults.norm")
    out = []
    for k, fork in enumerate(primary["raw"]):
        per_op = faults["raw"][k] if faults is not None and k < len(faults["raw"]) else None
        shares = (steady.fault_shares(per_op, fork, primary["unit"])
                  if per_op is not None and len(per_op) == len(fork) else [])
        shares = [v for v in shares if math.isfinite(v)]
        out.append(float(np.mean(shares)) if shares else math.nan)
    return out


def _forks_of(side: dict) -> list[steady.Fork]:
    """A side's recorded forks as hotpath.stats.steady found them (their classes, starts and lengths:
    no figures); [] for unrecorded forks."""
    return [steady.Fork(math.nan, f["kind"], f["start_s"], f["iterations"], f["first"], math.nan,
                        iteration_s=side["measurement_time_s"], slowed_s=f.get("slowed_s"))
            for f in side.get("steady") or []]


def _early(primary: dict) -> list[bool]:
    """The forks that ended before a slowdown another fork of the side showed (recorded forks
    only: hotpath.stats.steady.before_slowdown)."""
    forks = _forks_of(primary)
    return steady.before_slowdown(forks) if len(forks) == len(primary["raw"]) \
        else [False] * len(primary["raw"])


@dataclass(frozen=True)
class SideFigures:
    """One variant's figures in a row, from its rows of the tidy frame: its score and forks,
    its bytes per op, heap and native, its GC and page faults, and where it ran."""

    score: float
    error: float
    unit: str
    #: Each fork's counted iterations.
    raw: list[list[float]]
    forks: int
    jdk: str
    jvm_args: str
    runtime: str
    alloc: Bytes
    #: Native bytes per op in total and by origin, by the stems of NATIVE_PARTS.
    natives: dict[str, Bytes]
    #: Recorded forks (hotpath.stats.steady): each fork's class and start, and its whole series.
    steady: list[dict]
    series: list
    gc_shares: list[float]
    fault_shares: list[float]
    faults: float
    #: The forks that ended before a slowdown another fork of the side showed.
    early: list[bool]
    gc_count_per_mop: float
    gc_time_pct: float

    @classmethod
    def of(cls, rows: list[dict]) -> SideFigures:
        """A variant's figures from its rows (one per metric) as records of the tidy frame."""
        by_metric = _by_metric(rows)
        primary = by_metric["score"]
        return cls(
            score=primary["score"], error=primary["error"], unit=primary["unit"],
            raw=primary["raw"], forks=primary["forks_measured"], jdk=primary["jdk"],
            jvm_args=primary["jvm_args"], runtime=primary["runtime"],
            alloc=_bytes_per_op(by_metric, ALLOC),
            natives={stem: _bytes_per_op(by_metric, metric) for stem, metric in NATIVE_PARTS.items()},
            steady=primary.get("steady") or [], series=primary.get("series") or [],
            gc_shares=_fork_gc_shares(by_metric), fault_shares=_fork_fault_shares(by_metric),
            faults=_faults_per_op(by_metric), early=_early(primary), **_gc_normalized(by_metric))

    def weighed(self, higher: bool) -> SideForks:
        """The side as its verdict weighs it (hotpath.stats.rowfigures.verdict_figures): its forks
        with iterations, each by the estimate asked for from its counted iterations."""
        kept = [k for k, fork in enumerate(self.raw) if len(fork)]

        def at(values: list) -> list:
            return [values[k] for k in kept] if len(values) == len(self.raw) else values

        return SideForks(at(self.gc_shares), at(self.fault_shares), at(self.early),
                                lambda how: [steady.figure(self.raw[k], how, higher) for k in kept],
                                bool(self.steady))

    @property
    def unsettled(self) -> int:
        """The recorded forks that never settled: each counts by its second half."""
        return sum(f["kind"] == steady.NO_STEADY_STATE for f in self.steady)

    @property
    def gc_share(self) -> float:
        """The forks' mean share of their counted iterations' time in GC pauses."""
        return _mean_finite(self.gc_shares)


def pair(frame: pd.DataFrame, baseline: str = "old",
         threshold: float = stats.THRESHOLD, label: str = VARIANT) -> Comparison:
    """Pair every candidate variant with the baseline on (benchmark, params).

    ``label`` names what tells the variants apart (a @Param), for the reasons given."""
    keys = ["benchmark", "params", "mode"]
    plan = SequentialRun.of(frame)
    pairs, unpaired = [], []
    # Grouped as plain dicts, in the order rows first appear: indexing the frame per group and
    # metric was most of the time it took to pair a run.
    groups: dict[tuple, dict[str, list[dict]]] = {}
    for r in frame.to_dict("records"):
        groups.setdefault(tuple(r[k] for k in keys), {}).setdefault(r["variant"], []).append(r)
    for (benchmark, params, mode), variants in groups.items():
        for v, rows in list(variants.items()):
            # Two results for one key (files concatenated, a benchmark run twice): which one
            # counts is not ours to guess.
            if sum(r["metric"] == "score" for r in rows) > 1:
                unpaired.append({"benchmark": benchmark, "params": params, "mode": mode,
                                 "variant": v, "reason": "more than one result for the same "
                                 "benchmark, params and mode"})
                del variants[v]
        if not variants:
            continue
        if baseline not in variants:
            for v in variants:
                unpaired.append({"benchmark": benchmark, "params": params, "mode": mode,
                                 "variant": v, "reason": f"no {baseline!r} row to compare with"
                                 if v else f"no @Param {label!r} to tell the sides apart"})
            continue
        if len(variants) == 1:
            unpaired.append({"benchmark": benchmark, "params": params, "mode": mode,
                             "variant": baseline, "reason": "no candidate variant beside it"})
            continue
        old = SideFigures.of(variants[baseline])
        for candidate, cgroup in variants.items():
            if candidate == baseline:
                continue
            row = PairedRow(benchmark=benchmark, params=params, mode=mode, baseline=baseline,
                            candidate=candidate, old=old, new=SideFigures.of(cgroup),
                            threshold=threshold, plan=plan.row(benchmark, params, candidate))
            pairs.append(row.record())
    pair_frame = _told_apart(pd.DataFrame(pairs))
    unpaired_frame = pd.DataFrame(unpaired, columns=["benchmark", "params", "mode", "variant",
                                                     "reason"])
    return Comparison(pair_frame, unpaired_frame, baseline)


def _told_apart(pairs: pd.DataFrame) -> pd.DataFrame:
    """Rows whose method and params two of the run's classes share are named with their class
    too ('WriterMechanisms.compressedMapFields'): the tables, the paste and the graphs' files name
    a row by its method and params, and a full run holds both WriterCompressedMapBenchmark's
    compressedMapFields(entries=30) and WriterMechanismsBenchmark's."""
    if pairs.empty:
        return pairs
    shared = pairs.groupby(["method", "params"])["class"].transform("nunique") > 1
    if shared.any():
        pairs = pairs.assign(method=[f"{MethodName.of(b).stem}.{m}" if s else m
                                     for b, m, s in zip(pairs["benchmark"], pairs["method"], shared)])
    return pairs


def paired(run: Run) -> Comparison:
    """:func:`pair` of a run's rows, once for a render's processes (load.worked_out)."""
    return worked_out(run, "paired", lambda: pair(run.frame))


class SequentialRun:
    """What a run of the sequential fork plan recorded (its sidecar's "sequential" block, kept
    on the frame's attrs by the loader): each row's design, forks and why it stopped."""

    def __init__(self, block: dict | None):
        self.block = block or {}
        self.design = (sequential.Design.from_dict(self.block["design"])
                       if self.block.get("design") else None)
        self.rows = {RowKey.of(r["benchmark"], r["params"], r["candidate"]): r
                     for r in self.block.get("rows", [])}
        #: How each fork's iterations made its figure in the plan's looks (runs before the
        #: estimate was recorded took the mean).
        self.estimate = self.block.get("estimate", steady.MEAN)

    @classmethod
    def of(cls, frame: pd.DataFrame) -> "SequentialRun":
        return cls(frame.attrs.get("sequential"))

    def row(self, benchmark: str, params: str, candidate: str) -> dict:
        """The row's record with its design; {} for a run with a fixed number of forks."""
        if self.design is None:
            return {}
        r = dict(self.rows.get(RowKey.of(benchmark, params, candidate)) or {})
        cap = int(r.get("cap") or self.design.cap)
        r["design"] = sequential.Design(cap=cap, min_forks=self.design.min_forks,
                                        alpha=self.design.alpha, rho=self.design.rho)
        r["estimate"] = self.estimate
        return r


@dataclass(frozen=True)
class Verdict:
    """What a row's fork figures say of its time: the test (stats.time_verdict) and what it
    rests on."""

    time: stats.TimeVerdict
    #: The estimate each fork's figure is (hotpath.stats.steady), and why not the run's own.
    estimate: str
    estimate_why: str
    #: Each side's score: its fork figures' geometric mean, the point the ratio and its interval
    #: are made from, so that a table's old -> new never says another change than its ratio.
    old_score: float
    new_score: float
    fork_cv: float
    #: The forks per side an undecided row would need (0 for a decided one).
    forks_needed: int

    @classmethod
    def of(cls, old: SideFigures, new: SideFigures, threshold: float, plan: dict) -> Verdict:
        """The sides' verdict under the row's plan (PairedRow.plan: its design, or none for a
        fixed number of forks)."""
        design = plan.get("design")
        better_up = higher_is_better(old.unit)
        old_fig, new_fig, estimate, estimate_why = rowfigures.verdict_figures(
            plan.get("estimate", steady.MEAN), old.weighed(better_up), new.weighed(better_up))
        tv = stats.time_verdict([[v] for v in old_fig], [[v] for v in new_fig], better_up, threshold, design)
        cv = sequential.pooled_fork_cv([[v] for v in old_fig], [[v] for v in new_fig])
        needed = (sequential.forks_to_decide(tv.ratio, cv, design or sequential.Design(cap=sequential.DEFAULT_CAP),
                                             threshold)
                  if tv.verdict == "undecided" else 0)
        return cls(tv, estimate, estimate_why, _geometric_score(old, old_fig),
                   _geometric_score(new, new_fig), cv, needed)


def _geometric_score(side: SideFigures, figures: list[float]) -> float:
    return float(np.exp(np.mean(np.log(figures)))) if figures and min(figures) > 0 else side.score


@dataclass(frozen=True, kw_only=True)
class PairedRow:
    """A candidate's row beside the baseline's, the two sides' figures and the verdicts on
    them: one row of Comparison.pairs (``record``)."""

    benchmark: str
    params: str
    mode: str
    baseline: str
    candidate: str
    old: SideFigures
    new: SideFigures
    threshold: float
    #: The row's record in a sequential plan (SequentialRun.row: its design, why it stopped,
    #: its fork lengths); {} for a fixed number of forks.
    plan: dict = field(default_factory=dict)

    @cached_property
    def verdict(self) -> Verdict:
        return Verdict.of(self.old, self.new, self.threshold, self.plan)

    def warnings(self) -> list[str]:
        """What the reader of the row's verdict should know: the test's own warnings, sides
        that ran apart, and forks that never settled or were left out."""
        old, new = self.old, self.new
        out = list(self.verdict.time.warnings)
        if old.runtime != new.runtime:
            out.append(f"rows mix runtimes ({old.runtime} vs {new.runtime})")
        if old.jdk != new.jdk:
            out.append(f"rows mix JDKs ({old.jdk} vs {new.jdk})")
        if old.jvm_args != new.jvm_args:
            out.append("rows mix JVM flags")
        if old.unit != new.unit:
            out.append(f"units differ ({old.unit} vs {new.unit})")
        sides = ((self.baseline, old), (self.candidate, new))
        out += [f"{side.unsettled} of {len(side.steady)} forks of {name} never settled: each "
                f"counts by its second half" for name, side in sides if side.unsettled]
        out += [f"{sum(side.early)} fork(s) of {name} ended before the slowdown its other forks "
                f"showed: left out of the verdict" for name, side in sides if any(side.early)]
        return out

    def record(self) -> dict:
        """The row as Comparison.pairs holds it, each figure of old beside new's."""
        old, new, v, plan = self.old, self.new, self.verdict, self.plan
        design = plan.get("design")
        name = MethodName.of(self.benchmark)
        return {
            "benchmark": self.benchmark, "class": name.class_name, "method": name.method,
            "params": self.params, "mode": self.mode, "baseline": self.baseline,
            "candidate": self.candidate,
            "unit": old.unit, "higher_is_better": higher_is_better(old.unit),
            "runtime": old.runtime if old.runtime == new.runtime else f"{old.runtime} vs {new.runtime}",
            "old_score": v.old_score, "old_error": old.error,
            "new_score": v.new_score, "new_error": new.error,
            "estimate": steady.describe_estimate(v.estimate), "estimate_why": v.estimate_why,
            "early_old": sum(old.early), "early_new": sum(new.early),
            "ratio": v.time.ratio, "change_pct": (v.time.ratio - 1) * 100,
            "ci_low": v.time.ci_low, "ci_high": v.time.ci_high, "p_value": v.time.p_value,
            "verdict": v.time.verdict, "threshold": self.threshold,
            "forks_old": old.forks, "forks_new": new.forks,
            "old_gc_share": old.gc_share, "new_gc_share": new.gc_share,
            "old_faults": old.faults, "new_faults": new.faults,
            # Why the row stopped taking forks (sequential plan): decided, cap or budget; "" for a
            # fixed number of forks.
            "stopped": plan.get("stopped", ""), "fork_cv": v.fork_cv, "forks_needed": v.forks_needed,
            # The row's cap of forks per side under a sequential plan (NaN for a fixed number), and
            # the forks per side its first look needs (a fixed number's test needs as many).
            "cap": design.cap if design else math.nan,
            "first_look": design.min_forks if design else stats.MIN_FORKS,
            **self._bytes(),
            "old_gc_count_per_mop": old.gc_count_per_mop, "new_gc_count_per_mop": new.gc_count_per_mop,
            "old_gc_time_pct": old.gc_time_pct, "new_gc_time_pct": new.gc_time_pct,
            # Recorded forks (hotpath.stats.steady): each fork's class and start, its whole series, and
            # the fork length the plan chose for the row's later forks.
            "old_steady": old.steady, "new_steady": new.steady,
            "old_series": old.series, "new_series": new.series,
            "unsettled_old": old.unsettled, "unsettled_new": new.unsettled,
            "fork_iterations": plan.get("fork_iterations"),
            "fork_length_why": plan.get("fork_length_why", ""),
            "first_fork_iterations": plan.get("first_fork_iterations"),
            "warnings": self.warnings(),
        }

    def _bytes(self) -> dict:
        """Heap and native bytes per op of each side, the change and its verdict."""
        old, new = self.old.alloc, self.new.alloc
        out = {"old_alloc": old.per_op, "new_alloc": new.per_op,
               "alloc_delta": new.per_op - old.per_op,
               "alloc_ratio": new.per_op / old.per_op if old.per_op else math.nan,
               "alloc_verdict": old.verdict(new)}
        for stem in NATIVE_PARTS:
            old, new = self.old.natives[stem], self.new.natives[stem]
            out |= {f"old_{stem}": old.per_op, f"new_{stem}": new.per_op,
                    f"{stem}_delta": new.per_op - old.per_op, f"{stem}_verdict": old.verdict(new)}
        return out


def _mean_finite(values: list[float]) -> float:
    finite = [v for v in values if math.isfinite(v)]
    return float(np.mean(finite)) if finite else math.nan


def _with_variant_as_param(frame: pd.DataFrame) -> pd.DataFrame:
    """The 'variant' @Param back among the params, so that a new labelling keeps its rows apart."""
    out = frame.copy()
    out["param_values"] = [{**p, VARIANT: v} if v else dict(p)
                           for p, v in zip(out["param_values"], out["variant"])]
    out["params"] = out["param_values"].map(params_text)
    return out


def relabel(frame: pd.DataFrame, variant: str) -> pd.DataFrame:
    """Treat a whole file as one variant (e.g. JMH run on master vs on a patched branch)."""
    out = _with_variant_as_param(frame)
    out["variant"] = variant
    return out


def by_param(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """Use the values of one @Param as the variants (e.g. impl=array vs impl=list)."""
    out = _with_variant_as_param(frame)
    out["variant"] = out["param_values"].map(lambda p: p.get(name)).fillna("")
    out["params"] = out["param_values"].map(lambda p: params_text(p, without=name))
    return out


def summary(comparison: Comparison) -> dict[str, float]:
    """Suite summary: geometric means of the time and allocation ratios."""
    pairs = comparison.pairs
    if pairs.empty:
        return {"time_geomean": math.nan, "alloc_geomean": math.nan}
    time_ratios = [r if not hib else 1 / r for r, hib in zip(pairs["ratio"],
                                                               pairs["higher_is_better"])]
    # Pairs that fall to 0 B/op have no finite ratio; they are called out in the tables instead.
    # Benchmarks that allocate (next to) nothing have ratios of noise: left out too.
    kept = (pairs["alloc_verdict"] != "→ 0 B/op") & (pairs["old_alloc"] >= stats.ALLOC_NOISE_BYTES)
    alloc = pairs.loc[kept, "alloc_ratio"]
    return {"time_geomean": stats.geomean(time_ratios), "alloc_geomean": stats.geomean(alloc)}


def precision(frame: pd.DataFrame) -> pd.DataFrame:
    """Per time row (benchmark x params x variant): forks, fork-to-fork CV, the score's 95% CI
    half-width as a share of it, and the forks that row would need to reach the goal."""
    rows = []
    for _, r in frame[frame["metric"] == "score"].iterrows():
        cv = stats.fork_cv(r["raw"])
        rows.append({"benchmark": r["benchmark"], "params": r["params"], "variant": r["variant"],
                     "mode": r["mode"], "forks": r["forks_measured"], "fork_cv": cv,
                     "halfwidth": stats.score_halfwidth(r["raw"]), "forks_needed": stats.forks_for(cv)})
    return pd.DataFrame(rows, columns=["benchmark", "params", "variant", "mode", "forks", "fork_cv",
                                       "halfwidth", "forks_needed"])


def precision_summary(rows: pd.DataFrame) -> str:
    """'93 of 164 time rows (57%) within 3% (95% CI half-width), 140 (85%) within 5%; median 2.7%'."""
    h = rows["halfwidth"].dropna()
    if h.empty:
        return "no time row has two forks: no interval"
    within = [(h <= g + 1e-12).sum() for g in (stats.PRECISION_GOAL, 0.05)]
    return (f"{within[0]} of {len(h)} time rows ({within[0] / len(h):.0%}) within "
            f"{stats.PRECISION_GOAL:.0%} (95% CI half-width over fork means), "
            f"{within[1]} ({within[1] / len(h):.0%}) within 5%; median {h.median():.1%}")


def size_of(params: str, name: str) -> float:
    """The numeric value of one @Param in a params string ('size=1024, x=y' -> 1024.0)."""
    try:
        return float(params_of(params)[name])
    except (KeyError, ValueError):
        return math.nan


def alloc_slopes(pairs: pd.DataFrame, param: str) -> pd.DataFrame:
    """Least-squares fit of heap B/op against a size @Param, per variant.

    The slope is the number of bytes allocated per payload byte, i.e. the payload copies a
    variant makes; the intercept is its fixed cost per call.
    """
    rows = pairs.assign(x=pairs["params"].map(lambda p: size_of(p, param))).dropna(subset=["x"])
    out = []
    if rows.empty:
        return pd.DataFrame(columns=["variant", "copies_per_byte", "fixed_bytes", "points"])
    sides = [(rows["baseline"].iloc[0], rows.drop_duplicates("x"), "old_alloc")]
    sides += [(c, rows[rows["candidate"] == c], "new_alloc") for c in rows["candidate"].unique()]
    for variant, sub, column in sides:
        if len(sub) < 2:
            continue
        slope, intercept = np.polyfit(sub["x"].to_numpy(float), sub[column].to_numpy(float), 1)
        out.append({"variant": variant, "copies_per_byte": float(slope),
                    "fixed_bytes": float(intercept), "points": len(sub)})
    return pd.DataFrame(out)


def sort_by_param(pairs: pd.DataFrame, name: str) -> pd.DataFrame:
    """Rows in the numeric order of one @Param (64, 1024, 16384 rather than as strings)."""
    return (pairs.assign(_n=pairs["params"].map(lambda p: size_of(p, name)))
            .sort_values("_n", kind="stable").drop(columns="_n"))


def across_classes(frame: pd.DataFrame, variant: str, baseline: tuple[str, str],
                   candidate: tuple[str, str], threshold: float = stats.THRESHOLD) -> Comparison:
    """One variant in two benchmark classes that ask the same call two ways, paired like two
    variants: ``baseline`` and ``candidate`` are (class name, label). (zip: old with its
    Deflater left to the Cleaner, and old with each Deflater ended.)"""
    parts = []
    methods = frame.loc[frame["class"] == baseline[0], "method"]
    # Both sides under the baseline's name, so that they pair like two variants of one call.
    common = f"{variant} {methods.iloc[0]}" if len(methods) else variant
    for cls, name in (baseline, candidate):
        rows = frame[(frame["class"] == cls) & (frame["variant"] == variant)].copy()
        rows["benchmark"] = rows["method"] = common
        rows["variant"] = name
        parts.append(rows)
    return pair(pd.concat(parts, ignore_index=True), baseline=baseline[1], threshold=threshold)
