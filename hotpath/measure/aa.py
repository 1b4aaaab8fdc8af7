"""The A/A run: identical code measured as two sides, to count how often the sequential plan calls
it faster or slower (its false alarms) on real forks.

Every row the reference sets the write-up's variant against old becomes a row of old against
old: the benchmarks jar on both sides, under two names, run by the two-builds machinery
(hotpath.measure.ab) exactly as an A/B is. Nothing in the plan knows the sides are the same.
"""

from __future__ import annotations

import json

from ..cases import existing_cases
from ..errors import HotpathError
from ..jmh import VARIANT, params_of
from ..paths import AA_REFERENCE, JAR, calibration_run, sidecar_of
from . import ab, builds
from .profiles import PROFILES

#: The two sides' names: the same jar, the same variant.
SIDES = ("old-a", "old-b")
OUT = AA_REFERENCE


def reference_rows(case_ids: list[str] | None = None) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """The rows the reference the A/A was set on (hotpath.paths.calibration_run) sets each
    case's write-up variant against old (its sidecar's plan record), as old's rows: (benchmark,
    params with variant=old, in declaration order)."""
    rows = []
    for case in existing_cases():
        if case_ids and case.id not in case_ids:
            continue
        sidecar = sidecar_of(calibration_run() / f"{case.id}.json")
        try:
            record = json.loads(sidecar.read_text(encoding="utf-8"))["sequential"]["rows"]
        except (OSError, KeyError, TypeError, json.JSONDecodeError):
            raise HotpathError(f"{sidecar}: no plan record of the reference run to take its rows from") from None
        side = builds.parse(str(JAR), "baseline")
        declared = builds.listing(side, case.benchmarks)
        for r in record:
            if r["candidate"] != case.candidate:
                continue
            given = params_of(r["params"])
            given[VARIANT] = case.baseline
            order = declared.get(r["benchmark"])
            if order is None or set(order) != set(given):
                raise HotpathError(f"the reference's row {r['benchmark']}({r['params']}) is not "
                                   f"declared so by the benchmarks jar")
            rows.append((r["benchmark"], tuple((k, given[k]) for k in order)))
    return rows


def run(budget_s: float | None = None, case_ids: list[str] | None = None, out=None) -> "object":
    """Measure the reference's rows old against old; returns the run's folder."""
    if not JAR.is_file():
        raise HotpathError(f"{JAR} is missing: build it with 'make build' (mvn package)")
    rows = reference_rows(case_ids)
    if not rows:
        raise HotpathError("no reference rows to run")
    first = builds.parse(str(JAR), "baseline", SIDES[0])
    second = builds.parse(str(JAR), "candidate", SIDES[1])
    profile = PROFILES["aa"]
    if budget_s is None:
        budget_s = profile.budget_s()
    return ab.run(first, second, ab.Selection(rows=tuple(rows)), profile, budget_s=budget_s,
                  name="aa", out=out or OUT)
