"""JMH's JSON as JMH writes it (`-rf json`), shared by every stage: a file read with one-line
errors, its numbers ("NaN", "+INF"), its time strings ("200 ms"), its units and its params, a
benchmark's name in its parts, and the key a row-side is matched by from plan to report.
The fork plan reads its round files with it; the analysis builds its tidy frame on it."""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from .errors import ResultsError

#: The JMH @Param that names the implementation under test.
VARIANT = "variant"
#: How a variant names the patch's mechanisms it applies to old (``old+trimless+one-scope``), or the
#: one it takes back from optimized (``optimized-one-scope``): java-src's hotpath.mechanism.Mechanisms.
MECHANISMS_APPLIED, MECHANISM_TAKEN_BACK = "old+", "optimized-"


def names_mechanisms(variant: str) -> bool:
    """Whether a variant is one of a patch's mechanisms applied to old, or one taken back."""
    return variant.startswith((MECHANISMS_APPLIED, MECHANISM_TAKEN_BACK))
#: Seconds per unit; JMH writes "us" for microseconds, a reader may write "µs".
SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "m": 60.0,
           "h": 3600.0}


@functools.lru_cache(maxsize=64)  # a run has a few units and reads them per score
def per_op(unit: str) -> str | None:
    """The time unit of a time-per-op score unit ('ns/op' -> 'ns'), else None."""
    m = re.fullmatch(r"(\w+)/op", unit)
    return m.group(1) if m and m.group(1) in SECONDS else None


@functools.lru_cache(maxsize=64)
def per_time(unit: str) -> str | None:
    """The time unit of a throughput unit ('ops/s' -> 's'), else None."""
    m = re.fullmatch(r"ops/(\w+)", unit)
    return m.group(1) if m and m.group(1) in SECONDS else None


def higher_is_better(unit: str) -> bool:
    """Throughput units (ops/s) improve upwards; time-per-op units downwards."""
    return unit.startswith("ops/")


def seconds_per_op(score: float, unit: str) -> float:
    """A score in seconds per operation: a time per op, or the inverse of a throughput (a
    throughput of 0: math.inf)."""
    time_unit = per_op(unit)
    if time_unit:
        return score * SECONDS[time_unit]
    time_unit = per_time(unit)
    if time_unit:
        return SECONDS[time_unit] / score if score else math.inf
    raise ResultsError(f"a score in {unit!r} is not a time per op or a throughput")


def ns_per_op(score: float, unit: str) -> float:
    """A score in nanoseconds per operation (:func:`seconds_per_op`)."""
    return seconds_per_op(score, unit) / 1e-9


_REQUIRED = ("benchmark", "mode", "primaryMetric")
_NON_FINITE = {"NaN": math.nan, "+INF": math.inf, "-INF": -math.inf, "Infinity": math.inf,
               "-Infinity": -math.inf}


def params_text(values: dict[str, str], without: str = "") -> str:
    """The one way a row's params read: 'entries=30, bufferSize=16', in declaration order."""
    return ", ".join(f"{k}={v}" for k, v in values.items() if k != without)


def side_of(entry: Mapping[str, Any]) -> tuple[dict[str, str], str]:
    """A pass's entry (allocation sites, CPU samples) as its row reads it: its params without the
    side, and the side. The side is its ``variant`` @Param; in a run of two builds it is the build
    (the entry's ``side``), and a ``variant`` @Param is one more param, last (as
    compare.relabel puts it)."""
    params = dict(entry["params"])
    variant = params.pop(VARIANT, "")
    if "side" in entry:
        return {**params, **({VARIANT: variant} if variant else {})}, str(entry["side"])
    return params, variant


def params_of(text: str) -> dict[str, str]:
    """'entries=30, bufferSize=16' as {'entries': '30', 'bufferSize': '16'}: params_text read
    back (a plan record's rows are written so; a claim's may leave out the spaces)."""
    return dict(kv.split("=", 1) for kv in (p.strip() for p in text.split(",")) if "=" in kv)


class MethodName(NamedTuple):
    """A Java method's qualified name in its parts, as JMH names a benchmark
    ('hotpath.encoder.EncoderBenchmark.encode') and the site profiler a frame."""

    package: str
    #: The class's simple name ('' where the name has no dot).
    class_name: str
    method: str

    @classmethod
    def of(cls, name: str) -> MethodName:
        rest, _, method = name.rpartition(".")
        package, _, class_name = rest.rpartition(".")
        return cls(package, class_name, method)

    @property
    def short(self) -> str:
        """'EncoderBenchmark.encode': the class and the method, as log lines name a benchmark."""
        return f"{self.class_name}.{self.method}" if self.class_name else self.method

    @property
    def stem(self) -> str:
        """The class without the 'Benchmark' its name ends in ('Encoder'), as tables name it."""
        return self.class_name.removesuffix("Benchmark")


#: A row's params as a key: (name, value) pairs, sorted.
Params = tuple[tuple[str, str], ...]


def params_key(params: str | Mapping[str, Any] | Iterable[tuple[str, Any]]) -> Params:
    """Params as a key, whatever order they come in: JMH's JSON, a plan's record and another
    build's listing may name them in different orders (a side's own 'variant' @Param last, say).
    A text is read as params_text writes it."""
    if isinstance(params, str):
        pairs: Iterable[tuple[str, Any]] = params_of(params).items()
    else:
        pairs = params.items() if isinstance(params, Mapping) else params
    return tuple(sorted((str(k), str(v)) for k, v in pairs))


class RowKey(NamedTuple):
    """A row-side as every stage matches it across files: the benchmark, its params (sorted,
    params_key; without the @Param that names the side) and the variant that is the side (two
    builds: the build's name). Without a variant it stands for the benchmark x params."""

    benchmark: str
    params: Params
    variant: str = ""

    @classmethod
    def of(cls, benchmark: str, params: str | Mapping[str, Any] | Iterable[tuple[str, Any]],
           variant: str = "") -> RowKey:
        return cls(benchmark, params_key(params), variant)

    @classmethod
    def of_entry(cls, entry: dict[str, Any], label: str | None = VARIANT,
                 variant: str | None = None) -> RowKey:
        """A JMH result's side: its params but the one ``label`` names, and as its variant
        ``variant`` where given (the side a run was asked for; two builds: the build, and with
        ``label`` None every param the benchmark's own), else that @Param's value."""
        values = entry.get("params") or {}
        side = variant if variant is not None else str(values.get(label, "")) if label else ""
        return cls.of(entry["benchmark"], {k: v for k, v in values.items() if k != label}, side)

    @property
    def group(self) -> tuple[str, Params]:
        """The benchmark x params, every side of it: what the prior's forks and a shard's row
        groups are keyed by."""
        return self.benchmark, self.params


def number(value: Any) -> float:
    """JMH writes non-finite numbers as strings ("NaN", "+INF", "-INF")."""
    if isinstance(value, str):
        if value in _NON_FINITE:
            return _NON_FINITE[value]
        return float(value)
    if value is None:
        return math.nan
    return float(value)


def numbers(values: Iterable[Any]) -> list[float]:
    """``number`` of each value; JSON's floats, most of a run's values, as they are (a run's
    reports read hundreds of thousands)."""
    return [v if type(v) is float else number(v) for v in values]


def seconds(text: str | None) -> float:
    """JMH time strings such as "1 s", "200 ms", "500 us" -> seconds."""
    if not text:
        return math.nan
    m = re.fullmatch(r"\s*([0-9.]+)\s*(ns|us|µs|ms|s|min|m|h)\s*", text)
    if not m:
        return math.nan
    return float(m.group(1)) * SECONDS[m.group(2)]


def _how_to_make(path: Path) -> str:
    """Only the study's own result files can be made by `make bench`; a file given by path
    (another project's run, a placeholder from the README) cannot."""
    from .paths import RESULTS

    try:
        profile = Path(path).resolve().relative_to(RESULTS.resolve()).parts[0]
    except (ValueError, IndexError):
        return ""
    return f" (run the benchmarks first: make bench CASE={Path(path).stem} PROFILE={profile})"


def looks_like_results(text: str) -> bool:
    """A finished run's file rather than a build: a .json file, or any file that starts as JSON does."""
    path = Path(text)
    if path.suffix == ".json":
        return True
    if not path.is_file():
        return False
    with path.open("rb") as f:
        return f.read(64).lstrip()[:1] in (b"[", b"{")


def read_json(path: Path) -> list[dict[str, Any]]:
    """Parse a JMH results file, turning every way it can be wrong into a one-line error."""
    return parse_json(read_bytes(path), path)


def read_bytes(path: Path) -> bytes:
    """A results file's bytes; a missing one is a one-line error that says how to make it."""
    path = Path(path)
    if not path.is_file():
        raise ResultsError(f"{path}: no such results file" + _how_to_make(path))
    return path.read_bytes()


def parse_json(data: bytes, path: Path) -> list[dict[str, Any]]:
    """JMH's results in a file's bytes (``path`` names it in the errors), every way they can
    be wrong a one-line error."""
    text = data.decode("utf-8", errors="replace")
    if not text.strip():
        raise ResultsError(f"{path}: the results file is empty (an interrupted run?)")
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as e:
        raise ResultsError(
            f"{path}: truncated or corrupt JSON ({e.msg} at line {e.lineno}, column {e.colno})"
        ) from None
    if not isinstance(parsed, list):
        raise ResultsError(f"{path}: not JMH JSON (expected an array of benchmark results)")
    if not parsed:
        raise ResultsError(f"{path}: holds no benchmark results")
    for i, entry in enumerate(parsed):
        if not isinstance(entry, dict) or any(k not in entry for k in _REQUIRED):
            raise ResultsError(
                f"{path}: entry {i} is not a JMH result (needs {', '.join(_REQUIRED)})"
            )
        pm = entry["primaryMetric"]
        if not isinstance(pm, dict) or "score" not in pm or "scoreUnit" not in pm:
            raise ResultsError(f"{path}: entry {i} has no primaryMetric score")
    return parsed
