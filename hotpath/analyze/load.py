"""Stage 1: read JMH JSON (any mode, any JMH version, any project) into one tidy DataFrame.

One row per benchmark x params x variant x metric. The primary metric is called ``score``;
secondary metrics keep JMH's names without the ``·`` prefix of JMH <= 1.36. Raw per-fork,
per-iteration values stay in the ``raw`` column so later stages can do fork-aware statistics.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from ..errors import ResultsError
from .. import runs
from ..stats import steady
from ..stats.welch import t_quantile
from ..jmh import VARIANT, MethodName, number, numbers, params_text, parse_json, seconds
from ..runtimes import runtime_of

#: Metrics of the memory pass (hotpath.profiler.NativeAllocProfiler): joined onto the timing rows.
MEMORY_PASS_METRICS = "native.alloc"

COLUMNS = [
    "benchmark", "class", "method", "mode", "params", "variant", "metric", "unit",
    "score", "error", "ci_low", "ci_high", "raw", "histogram", "forks_measured",
    "iterations", "threads", "measurement_time_s", "batch_size", "jdk", "vm", "jvm_args",
    "runtime", "jmh_version", "param_values", "source", "steady", "series",
]


T = TypeVar("T")


@dataclass(frozen=True)
class Run:
    """One results file: its tidy frame and, if present, its provenance sidecar."""

    source: Path
    frame: pd.DataFrame
    provenance: dict[str, Any] | None
    #: within a render, what the run's path and every byte of its files hash to (READ_ONCE):
    #: what is worked out of it is kept under that name too (``worked_out``); "" outside one
    digest: str = ""


def _raw(metric: dict[str, Any]) -> tuple[list[list[float]], list | None]:
    """Per-fork, per-iteration values; sample mode's histograms become weighted means."""
    if "rawData" in metric:
        return [numbers(fork) for fork in metric["rawData"]], None
    hist = metric.get("rawDataHistogram")
    if hist:
        raw = []
        for fork in hist:
            means = []
            for iteration in fork:
                total = sum(number(c) for _, c in iteration)
                weighted = sum(number(v) * number(c) for v, c in iteration)
                means.append(weighted / total if total else math.nan)
            raw.append(means)
        return raw, hist
    return [], None


def _row(entry: dict[str, Any], name: str, metric: dict[str, Any], source: str,
         forks: list[steady.Fork] | None = None, aligned: list[list[float]] | None = None) -> dict:
    full = entry["benchmark"]
    method_name = MethodName.of(full)
    params = {k: str(v) for k, v in (entry.get("params") or {}).items()}
    variant = params.pop(VARIANT, "")
    ci = metric.get("scoreConfidence") or [math.nan, math.nan]
    raw, hist = _raw(metric)
    series = None
    if forks is not None and aligned is not None:
        # A recorded fork counts from its steady segment, for every metric alike: the score,
        # its error and interval are made again over those iterations as JMH makes them.
        series = raw
        raw = [fork[f.first:] for fork, f in zip(aligned, forks)]
        score, error = jmh_score([v for fork in raw for v in fork])
        metric = {**metric, "score": score, "scoreError": error}
        ci = [score - error, score + error]
    return {
        "benchmark": full,
        "class": method_name.class_name,
        "method": method_name.method,
        "mode": entry["mode"],
        "params": params_text(params),
        "variant": variant,
        "metric": name,
        "unit": metric.get("scoreUnit", ""),
        "score": number(metric.get("score")),
        "error": number(metric.get("scoreError")),
        "ci_low": number(ci[0]),
        "ci_high": number(ci[1]),
        "raw": raw,
        "histogram": hist,
        "forks_measured": len(raw),
        "iterations": sum(len(f) for f in raw),
        "threads": entry.get("threads", 1),
        "measurement_time_s": seconds(entry.get("measurementTime")),
        "batch_size": entry.get("measurementBatchSize", 1),
        "jdk": entry.get("jdkVersion", ""),
        "vm": f"{entry.get('vmName', '')} {entry.get('vmVersion', '')}".strip(),
        "jvm_args": " ".join(entry.get("jvmArgs") or []),
        # JDK x collector, from what JMH recorded of the fork: rows of two runtimes never pair.
        "runtime": runtime_of(entry.get("jdkVersion", ""), " ".join(entry.get("jvmArgs") or [])),
        "jmh_version": entry.get("jmhVersion", "unknown (< 1.19)"),
        "param_values": params,
        "source": source,
        # a recorded entry's primary metric: each fork's class and start, and its whole series
        "steady": ([{"kind": f.kind, "start_s": f.start_s, "iterations": f.iterations,
                     "first": f.first, "reason": f.reason, "slowed_s": f.slowed_s} for f in forks]
                   if forks is not None and name == "score" else None),
        "series": series if name == "score" else None,
    }


def tidy(entries: list[dict[str, Any]], source: str = "") -> pd.DataFrame:
    """JMH's nested records -> one row per benchmark x params x variant x metric."""
    rows = []
    for entry in entries:
        forks = steady.entry_forks(entry) if steady.recorded(entry) else None
        primary = entry["primaryMetric"]
        rows.append(_row(entry, "score", primary, source, forks,
                         _raw(primary)[0] if forks is not None else None))
        secondaries = {name.lstrip("\u00b7"): metric
                       for name, metric in (entry.get("secondaryMetrics") or {}).items()}
        for name, metric in secondaries.items():
            # JMH <= 1.36 prefixes profiler metrics with a middle dot.
            aligned = steady.aligned(secondaries, name, forks) if forks is not None else None
            rows.append(_row(entry, name, metric, source, forks, aligned))
    return pd.DataFrame(rows, columns=COLUMNS)


def jmh_score(values: list[float]) -> tuple[float, float]:
    """A mean and its error as JMH gives them: the 99.9% t-interval's half-width."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = float(np.mean(values))
    if n < 2:
        return mean, math.nan
    return mean, float(t_quantile(0.9995, n - 1) * np.std(values, ddof=1) / math.sqrt(n))


def read_provenance(results: Path) -> dict[str, Any] | None:
    """The sidecar beside a results file, checked against the file's own hash."""
    return provenance_of(runs.load(*runs.of_results(Path(results))))


def provenance_of(run: runs.Run) -> dict[str, Any] | None:
    """A case's run's provenance, checked against its results' own hash."""
    provenance = run.provenance
    if provenance is not None and provenance.get("sha256") not in (None, run.sha256()):
        raise ResultsError(
            f"{run.path(run.layout.provenance)}: the sidecar describes another run (its sha256 "
            f"does not match {run.path(run.layout.results())})"
        )
    return provenance


class Record(dict):
    """A read-only record carried on a frame's attrs. pandas deep-copies attrs at every
    operation on the frame, and the sequential plan's record (every row's forks) is large
    enough that copying it took most of the time of pairing a run."""

    def __deepcopy__(self, memo) -> "Record":
        return self


#: The environment variable naming a folder where the runs read are kept as read, for the
#: processes of one render (hotpath.render.report sets it for its workers and their kernels): a
#: render's reports read the same files (a case's report and its overview row, a matrix's cells),
#: 123 reads of 41 files in the reference's, and each is parsed once, not at every read; what is
#: worked out of a run (``worked_out``: its pairs, its mechanisms' parts) is kept beside it.
READ_ONCE = "HOTPATH_RUNS_READ"


def read_results(path: str | Path) -> Run:
    """Read a JMH results file (and its sidecar, if any) into a Run; a memory pass beside it
    contributes its native-bytes metrics."""
    path = Path(path)
    run = runs.load(*runs.of_results(path))
    kept = _kept(path, run)
    return _once(kept, lambda: _read(path, run, kept.stem if kept else ""))


def _read(path: Path, run: runs.Run, digest: str) -> Run:
    read = read_side(run)
    provenance = provenance_of(run)
    # The sequential plan's designs and stop reasons travel with the frame to the comparison.
    if provenance and provenance.get("sequential"):
        read.frame.attrs["sequential"] = Record(provenance["sequential"])
    return Run(source=path, frame=read.frame, provenance=provenance, digest=digest)


def worked_out(run: Run, what: str, work: Callable[[], T]) -> T:
    """What ``work`` makes of ``run`` (named ``what``), made once for all the processes of a
    render and kept beside the run as read (READ_ONCE): a case's report, its overview row and its
    matrix's report pair the same runs. Outside a render, made at each call."""
    folder = os.environ.get(READ_ONCE)
    in_render = bool(run.digest and folder and Path(folder).is_dir())
    return _once(Path(str(folder)) / f"{run.digest}.{what}.pickle" if in_render else None, work)


def _once(kept: Path | None, make: Callable[[], T]) -> T:
    """``make()`` once for a render's processes: read from ``kept`` where one of them made it
    first, else made and kept there; ``kept`` None (outside a render): made at each call."""
    if kept is None:
        return make()
    if kept.is_file():
        found: T = pickle.loads(kept.read_bytes())
        return found
    made = make()
    _keep(kept, made)
    return made


def _kept(path: Path, run: runs.Run) -> Path | None:
    """Where the render's folder keeps this run as read (by its path and every byte of its
    files), or None outside a render."""
    folder = os.environ.get(READ_ONCE)
    if not folder or not Path(folder).is_dir():
        return None
    digest = hashlib.sha256(str(path).encode())
    for name, data in sorted({**run.results, **run.passes}.items()):
        digest.update(f"\0{name}\0{len(data)}\0".encode())
        digest.update(data)
    digest.update(json.dumps(run.provenance, sort_keys=True).encode())
    return Path(folder) / f"{digest.hexdigest()}.pickle"


def _keep(kept: Path, value: Any) -> None:
    """A run, or what was worked out of it, written whole or not at all (another process may be
    reading it as well)."""
    with tempfile.NamedTemporaryFile(dir=kept.parent, delete=False) as out:
        out.write(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(out.name, kept)


def read_side(run: runs.Run, side: str | None = None) -> Run:
    """One side of a run (hotpath.runs): its results' tidy frame, the memory pass's rows joined
    on; its provenance is the run's, read apart."""
    source = run.path(run.layout.results(side))
    return Run(source=source, frame=join_memory_pass(tidy(run.entries(side), str(source)), run, side),
               provenance=None)


def join_memory_pass(frame: pd.DataFrame, run: runs.Run, side: str | None = None) -> pd.DataFrame:
    """Native bytes per op come from forks of their own (the profiler that hooks every malloc
    would slow the timed forks): its rows join the timing rows by benchmark, mode, params and
    variant. A timing file that carries them itself (runs before the split) keeps its own."""
    memory = run.passed("memory", side)
    if memory is None:
        return frame
    path = run.path(run.layout.file("memory", side))
    extra = tidy(parse_json(memory, path), str(path))
    extra = extra[extra["metric"].str.startswith(MEMORY_PASS_METRICS)]
    keys = ["benchmark", "mode", "params", "variant"]
    own = frame[frame["metric"].str.startswith(MEMORY_PASS_METRICS)]
    timed = frame[frame["metric"] == "score"][keys].drop_duplicates()
    extra = extra.merge(timed, on=keys)  # only rows the timing pass has
    if not own.empty:
        extra = extra.merge(own[keys + ["metric"]], on=keys + ["metric"], how="left",
                            indicator=True)
        extra = extra[extra["_merge"] == "left_only"].drop(columns="_merge")
    return pd.concat([frame, extra[COLUMNS]], ignore_index=True)


PEAK_COLUMNS = ["benchmark", "params", "variant", "peak_bytes", "baseline_bytes",
                "resolution_bytes", "facts", "method"]


def read_peaks(results: str | Path) -> pd.DataFrame:
    """Peak live heap per call measured beside a results file (empty if none was measured)."""
    run = runs.load(*runs.of_results(Path(results)))
    data = run.passed("peaks")
    if data is None:
        return pd.DataFrame(columns=PEAK_COLUMNS)
    try:
        entries = json.loads(data)
    except json.JSONDecodeError as e:
        raise ResultsError(f"{run.path(run.layout.file('peaks'))}: truncated or corrupt JSON "
                           f"({e.msg})") from None
    rows = []
    for entry in entries:
        params = dict(entry["params"])
        variant = params.pop(VARIANT, "")
        rows.append({"benchmark": entry["benchmark"],
                     "params": params_text(dict(sorted(params.items()))),
                     "variant": variant, "peak_bytes": entry["peakBytes"],
                     "baseline_bytes": entry["baselineBytes"],
                     "resolution_bytes": entry["resolutionBytes"], "facts": entry.get("facts", {}),
                     "method": entry["method"]})
    return pd.DataFrame(rows, columns=PEAK_COLUMNS)
