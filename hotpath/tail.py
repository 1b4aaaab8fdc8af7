"""A JMH entry as a run counts it: without the iterations its CPU sampler's tail ran.

The sampler rides only behind a timed fork's counted iterations (its starts cost about 1%), and
what it slowed is no fork's figure. A round file keeps them as JMH wrote them, marked; every
reader of a round, whatever its stage, reads it through :func:`read_round`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from scipy import special  # Student's t as scipy.stats.t.ppf has it, without its per-call checks

from .errors import ResultsError
from .jmh import number

#: Profiler metrics that JMH sums over the run instead of averaging.
SUMMED = ("gc.count", "gc.time")
#: What hotpath's CPU sampler says of each iteration of a timed fork (hotpath.profiler.CpuProfiler's
#: tail): 1 for one it sampled after the iterations the fork's figure counts, 0 for those.
TAIL = "cpu.tail"


def merged_metric(parts: list[dict[str, Any]], summed: bool) -> dict[str, Any]:
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
        error = (float(special.stdtrit(len(arr) - 1, 0.9995) * arr.std(ddof=1) / math.sqrt(len(arr)))
                 if len(arr) > 1 else math.nan)
    else:
        score, error = math.nan, math.nan
    merged["score"] = score
    merged["scoreError"] = "NaN" if math.isnan(error) else error
    merged["scoreConfidence"] = ([score - error, score + error] if not math.isnan(error)
                                 else [score, score])
    if len(arr):
        levels = list(parts[0].get("scorePercentiles", {}))
        at = np.percentile(arr, [float(k) for k in levels]) if levels else []
        merged["scorePercentiles"] = {k: float(v) for k, v in zip(levels, at)}
    return merged


def read_round(path: Path, scores: bool = True) -> list[dict[str, Any]]:
    """A round file's entries as the run counts them (:func:`counted`)."""
    return [counted(entry, path, scores) for entry in json.loads(path.read_text(encoding="utf-8"))]


def counted(entry: dict[str, Any], source: Path | str = "", scores: bool = True) -> dict[str, Any]:
    """A JMH entry without the iterations its CPU sampler's tail ran: the sampler rides only
    behind the counted iterations (its starts cost about 1%), and what it slowed is no fork's
    figure. Every metric's values of those iterations go (-prof gc's gc.time, written only for
    iterations with a collection, by gc.count); the scores are made again over the rest as JMH
    makes them; without ``scores``, a metric keeps only its unit and its values (a reader of the
    forks' iterations alone: scores and percentiles over every metric cost the A/A's 550 round
    files a second). An entry without the sampler's mark is returned as it is."""
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
        if not scores:
            return {"scoreUnit": metric.get("scoreUnit", ""), "rawData": out}
        return merged_metric([{**metric, "rawData": out}], summed=name in SUMMED)

    return {**entry,
            "primaryMetric": cut("", entry["primaryMetric"]),
            "secondaryMetrics": {n: cut(n.lstrip("·"), m) for n, m in secondaries.items() if n != mark}}
