"""Interleaved forks: old and optimized alternate round by round, merged into one JMH JSON.

Running all old forks and then all optimized forks lets machine drift (thermal state, other
load) masquerade as a difference. The interleaved plan runs one fork of each variant per
round, in alternating order, and merges the rounds. The round files are kept as JMH wrote
them; the merged file is derived from them by :func:`merge` (raw values concatenated fork by
fork, score, error and confidence recomputed as JMH does) and says so in its sidecar.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats as sps

from ..errors import ResultsError
from ..jmh import number

#: Profiler metrics that JMH sums over the run instead of averaging.
SUMMED = ("gc.count", "gc.time")
#: What hotpath's CPU sampler says of each iteration of a timed fork (hotpath.profiler.CpuProfiler's
#: tail): 1 for one it sampled after the iterations the fork's figure counts, 0 for those.
TAIL = "cpu.tail"


def declared_params(listing: str) -> dict[str, dict[str, list[str]]]:
    """Each benchmark's @Params and their values, from `java -jar benchmarks.jar -lp`."""
    out: dict[str, dict[str, list[str]]] = {}
    benchmark = ""
    for line in listing.splitlines():
        if line and not line[0].isspace() and "." in line and not line.startswith("Benchmarks"):
            benchmark = line.strip()
            out[benchmark] = {}
        elif benchmark and (m := re.match(r'\s+param "([^"]+)" = \{([^}]*)\}', line)):
            out[benchmark][m.group(1)] = [v.strip() for v in m.group(2).split(",") if v.strip()]
    return out


def variant_values(listing: str) -> list[str]:
    """The `variant` @Param's values from `java -jar benchmarks.jar -lp` output."""
    return list(variant_benchmarks(listing))


def variant_benchmarks(listing: str) -> dict[str, list[str]]:
    """Each `variant` value and the benchmarks that declare it (`-lp` output). A round runs
    only those: `-p variant=floor` would otherwise force floor on a benchmark without one."""
    out: dict[str, list[str]] = {}
    for benchmark, params in declared_params(listing).items():
        for v in params.get("variant", []):
            out.setdefault(v, []).append(benchmark)
    return out


def include_only(benchmarks: list[str]) -> str:
    """A JMH include pattern that matches exactly these benchmark methods."""
    return "^(" + "|".join(re.escape(b) for b in benchmarks) + ")$"


def order_of_round(variants: list[str], r: int) -> list[str]:
    """The variants in round ``r`` (from 0): reversed every other round."""
    return list(variants) if r % 2 == 0 else list(reversed(variants))


def round_order(variants: list[str], rounds: int) -> list[tuple[int, str]]:
    """ABAB... with the order reversed every other round (old, new / new, old / ...)."""
    return [(r, v) for r in range(rounds) for v in order_of_round(variants, r)]


def _key(entry: dict[str, Any]) -> tuple:
    return (entry["benchmark"], entry["mode"], json.dumps(entry.get("params") or {}, sort_keys=True))


def _metric(parts: list[dict[str, Any]], summed: bool) -> dict[str, Any]:
    """One metric merged from several forks' worth of JMH metric objects."""
    merged = dict(parts[0])
    if "rawDataHistogram" in parts[0]:
        merged["rawDataHistogram"] = [f for p in parts for f in p.get("rawDataHistogram", [])]
        values = [v for fork in merged["rawDataHistogram"] for it in fork for v, c in it
                  for _ in range(int(c))]
    else:
        merged["rawData"] = [f for p in parts for f in p.get("rawData", [])]
        values = [number(v) for fork in merged["rawData"] for v in fork]
    arr = np.asarray([v for v in values if not math.isnan(v)], dtype=float)
    if summed:
        score, error = float(arr.sum()), math.nan
    elif len(arr):
        score = float(arr.mean())
        # JMH: the 99.9% Student-t half-width over all iterations of all forks.
        error = (float(sps.t.ppf(0.9995, len(arr) - 1) * arr.std(ddof=1) / math.sqrt(len(arr)))
                 if len(arr) > 1 else math.nan)
    else:
        score, error = math.nan, math.nan
    merged["score"] = score
    merged["scoreError"] = "NaN" if math.isnan(error) else error
    merged["scoreConfidence"] = ([score - error, score + error] if not math.isnan(error)
                                 else [score, score])
    if len(arr):
        merged["scorePercentiles"] = {k: float(np.percentile(arr, float(k)))
                                      for k in parts[0].get("scorePercentiles", {})}
    return merged


def merge(round_files: list[Path]) -> list[dict[str, Any]]:
    """JMH entries of the same benchmark, mode and params, fork lists concatenated, each fork
    without the iterations a CPU sampler took after its counted ones (:func:`counted`)."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for path in round_files:
        for entry in read_round(Path(path)):
            groups.setdefault(_key(entry), []).append(entry)
    merged = []
    for entries in groups.values():
        out = dict(entries[0])
        out["forks"] = sum(e.get("forks", 1) for e in entries)
        out["primaryMetric"] = _metric([e["primaryMetric"] for e in entries], summed=False)
        names = {n for e in entries for n in (e.get("secondaryMetrics") or {})}
        out["secondaryMetrics"] = {
            n: _metric([e["secondaryMetrics"][n] for e in entries if n in (e.get("secondaryMetrics") or {})],
                       summed=n.lstrip("·") in SUMMED)
            for n in sorted(names)}
        merged.append(out)
    return merged


def read_round(path: Path) -> list[dict[str, Any]]:
    """A round file's entries as the run counts them (:func:`counted`)."""
    return [counted(entry, path) for entry in json.loads(path.read_text(encoding="utf-8"))]


def counted(entry: dict[str, Any], source: Path | str = "") -> dict[str, Any]:
    """A JMH entry without the iterations its CPU sampler's tail ran: the sampler rides only
    behind the counted iterations (its starts cost about 1%), and what it slowed is no fork's
    figure. Every metric's values of those iterations go (-prof gc's gc.time, written only for
    iterations with a collection, by gc.count); the scores are made again over the rest as JMH
    makes them. An entry without the sampler's mark is returned as it is."""
    secondaries = entry.get("secondaryMetrics") or {}
    mark = next((name for name in secondaries if name.lstrip("·") == TAIL), None)
    if mark is None:
        return entry
    forks = entry["primaryMetric"].get("rawData") or []
    marks = secondaries[mark].get("rawData") or []
    keep = [[number(v) == 0 for v in m] for m in marks]
    if len(keep) != len(forks) or any(len(k) != len(f) for k, f in zip(keep, forks)):
        raise ResultsError(f"{source}: {entry['benchmark']}: the CPU sampler's marks ({TAIL}) do "
                           f"not line up with the fork's iterations")
    counts = next((m.get("rawData") for n, m in secondaries.items() if n.lstrip("·") == "gc.count"), None)

    def cut(name: str, metric: dict[str, Any]) -> dict[str, Any]:
        raw = metric.get("rawData")
        if raw is None or len(raw) != len(keep):
            return metric
        out = []
        for j, values in enumerate(raw):
            k = keep[j]
            if len(values) != len(k) and name == "gc.time" and counts and len(counts[j]) == len(k):
                # gc.time's values are those of the iterations that collected, in order
                k = [kk for kk, c in zip(k, counts[j]) if number(c)]
            if len(values) != len(k):
                raise ResultsError(f"{source}: {entry['benchmark']}: {name}'s values do not line "
                                   f"up with the fork's iterations: the sampler's tail cannot be cut")
            out.append([v for v, kk in zip(values, k) if kk])
        return _metric([{**metric, "rawData": out}], summed=name in SUMMED)

    return {**entry,
            "primaryMetric": cut("", entry["primaryMetric"]),
            "secondaryMetrics": {n: cut(n.lstrip("·"), m) for n, m in secondaries.items() if n != mark}}
