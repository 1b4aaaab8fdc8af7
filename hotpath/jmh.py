"""JMH's JSON as JMH writes it (`-rf json`), shared by every stage: a file read with one-line
errors, its numbers ("NaN", "+INF"), its time strings ("200 ms"), its units and its params.
The fork plan reads its round files with it; the analysis builds its tidy frame on it."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from .errors import ResultsError

#: The JMH @Param that names the implementation under test.
VARIANT = "variant"
#: Seconds per unit; JMH writes "us" for microseconds, a reader may write "µs".
SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "m": 60.0,
           "h": 3600.0}


def per_op(unit: str) -> str | None:
    """The time unit of a time-per-op score unit ('ns/op' -> 'ns'), else None."""
    m = re.fullmatch(r"(\w+)/op", unit)
    return m.group(1) if m and m.group(1) in SECONDS else None


def per_time(unit: str) -> str | None:
    """The time unit of a throughput unit ('ops/s' -> 's'), else None."""
    m = re.fullmatch(r"ops/(\w+)", unit)
    return m.group(1) if m and m.group(1) in SECONDS else None


_REQUIRED = ("benchmark", "mode", "primaryMetric")
_NON_FINITE = {"NaN": math.nan, "+INF": math.inf, "-INF": -math.inf, "Infinity": math.inf,
               "-Infinity": -math.inf}


def params_text(values: dict[str, str], without: str = "") -> str:
    """The one way a row's params read: 'entries=30, bufferSize=16', in declaration order."""
    return ", ".join(f"{k}={v}" for k, v in values.items() if k != without)


def params_of(text: str) -> dict[str, str]:
    """'entries=30, bufferSize=16' as {'entries': '30', 'bufferSize': '16'}: params_text read
    back (a plan record's rows are written so)."""
    return dict(kv.split("=", 1) for kv in text.split(", ") if kv)


def number(value: Any) -> float:
    """JMH writes non-finite numbers as strings ("NaN", "+INF", "-INF")."""
    if isinstance(value, str):
        if value in _NON_FINITE:
            return _NON_FINITE[value]
        return float(value)
    if value is None:
        return math.nan
    return float(value)


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
