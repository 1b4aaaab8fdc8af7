"""Interleaved forks: old and optimized alternate round by round, merged into one JMH JSON.

Running all old forks and then all optimized forks lets machine drift (thermal state, other
load) masquerade as a difference. The interleaved plan runs one fork of each variant per
round, in alternating order, and merges the rounds. The round files are kept as JMH wrote
them; the merged file is derived from them by :func:`merge` (raw values concatenated fork by
fork, score, error and confidence recomputed as JMH does) and says so in its sidecar.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


from .. import tail



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


def merge(round_files: list[Path]) -> list[dict[str, Any]]:
    """JMH entries of the same benchmark, mode and params, fork lists concatenated, each fork
    without the iterations a CPU sampler took after its counted ones (:func:`counted`)."""
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for path in round_files:
        for entry in tail.read_round(Path(path)):
            groups.setdefault(_key(entry), []).append(entry)
    merged = []
    for entries in groups.values():
        out = dict(entries[0])
        out["forks"] = sum(e.get("forks", 1) for e in entries)
        out["primaryMetric"] = tail.merged_metric([e["primaryMetric"] for e in entries], summed=False)
        names = {n for e in entries for n in (e.get("secondaryMetrics") or {})}
        out["secondaryMetrics"] = {
            n: tail.merged_metric([e["secondaryMetrics"][n] for e in entries if n in (e.get("secondaryMetrics") or {})],
                           summed=n.lstrip("·") in tail.SUMMED)
            for n in sorted(names)}
        merged.append(out)
    return merged
