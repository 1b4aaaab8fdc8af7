"""A run cut into shards, each measured on a machine of its own, joined again by hotpath.merge.

A comparison holds only inside one machine: old and new alternate fork by fork on the same one.
So the unit a run is cut into is a **row group**: one benchmark x params of a case with every
side its rows need (old and each candidate; zip's old LIST_1660K serves two rows), measured by
the study's whole method. A shard is a set of row groups; different shards may run on different
machines, and nothing ever sets a figure of one shard against a figure of another.

A profile without a fork plan (smoke: one JMH run per case) is cut by whole cases.

The cut is deterministic: the same tree, profile and cases give the same shards on every
machine, so a CI matrix job given only "k/N" measures exactly the rows the planning job listed.
It is balanced by each group's expected cost (the plan's estimate of its first look: four forks
per side at a scout's length and a fork's start), longest first onto the least loaded shard
(Graham's LPT rule, within 4/3 of the best balance).
"""

from __future__ import annotations

import json
import os
import platform
import re
from dataclasses import dataclass

from ..errors import HotpathError
from ..jmh import MethodName, Params, params_key, params_text
from . import forkplan
from .profiles import format_duration

Key = tuple[str, str, Params]  # case, benchmark ("" for a whole case), params


@dataclass(frozen=True)
class Unit:
    """A row group (or a whole case) and what its first look is expected to cost."""

    case: str
    benchmark: str
    params: Params
    cost_s: float
    rows: int = 1

    @classmethod
    def of(cls, record: dict) -> Unit:
        """A unit as a shard's record gives it (record())."""
        return cls(record.get("case") or "", record.get("benchmark") or "",
                   params_key(record.get("params") or {}), float(record.get("cost_s") or 0.0))

    @property
    def key(self) -> Key:
        return self.case, self.benchmark, self.params

    @property
    def name(self) -> str:
        if not self.benchmark:
            cell = dict(self.params).get("cell")
            return f"{self.case} on {cell}" if cell else f"{self.case} (the whole case)"
        params = params_text(dict(self.params))
        return f"{self.case}: {MethodName.of(self.benchmark).short}" + (f"({params})" if params else "")


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int
    units: tuple[Unit, ...]
    #: The cases whose first row group this shard holds: it measures what a case measures once
    #: (zip's peak live heap per call).
    firsts: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def cost_s(self) -> float:
        return sum(u.cost_s for u in self.units)

    @property
    def cases(self) -> list[str]:
        return list(dict.fromkeys(u.case for u in self.units))

    def keys(self, case: str) -> set[tuple[str, Params]]:
        """The (benchmark, params) row groups of one case in this shard."""
        return {(u.benchmark, u.params) for u in self.units if u.case == case}

    def whole(self, case: str) -> bool:
        return any(u.case == case and not u.benchmark for u in self.units)

    def cells(self, case: str) -> set[str]:
        """The JDK x GC cells of a case this shard measures (a matrix run's units)."""
        return {dict(u.params).get("cell", "") for u in self.units if u.case == case and not u.benchmark}

    def holds_first(self, case: str) -> bool:
        return case in self.firsts


def parse(text: str) -> tuple[int, int]:
    """'2/3' -> (2, 3)."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m:
        raise HotpathError(f"cannot read the shard {text!r}: give it as k/N, such as 2/3")
    k, n = int(m[1]), int(m[2])
    if n < 1 or not 1 <= k <= n:
        raise HotpathError(f"the shard {text!r} does not exist: k/N needs 1 <= k <= N")
    return k, n


def units_of_plan(plan: forkplan.Plan) -> list[Unit]:
    """A case's row groups, each costed as its sides' first look."""
    sides: dict[tuple[str, Params], set[str]] = {}
    rows: dict[tuple[str, Params], int] = {}
    for row in plan.rows:
        group = row.group
        sides.setdefault(group, set()).update((plan.case.baseline, row.candidate))
        rows[group] = rows.get(group, 0) + 1
    per_fork = (plan.overhead_s + plan.profile.scout_s if plan.profile.recorded else plan.fork_s)
    return [Unit(plan.case.id, benchmark, params,
                 round(plan.design.min_forks * len(variants) * per_fork, 1), rows[(benchmark, params)])
            for (benchmark, params), variants in sides.items()]


def whole_case(case: str, cost_s: float) -> Unit:
    return Unit(case, "", (), round(cost_s, 1))


def cell_of_case(case: str, cell: str, cost_s: float) -> Unit:
    """One case on one JDK x GC cell (a matrix run is cut by cells: each is a run of its own)."""
    return Unit(case, "", (("cell", cell),), round(cost_s, 1))


def split(units: list[Unit], count: int) -> list[Shard]:
    """``units`` cut into ``count`` shards of nearly equal cost, the same way every time."""
    if count < 1:
        raise HotpathError(f"a run cannot be cut into {count} shards")
    if count > len(units):
        raise HotpathError(f"the run has {len(units)} row group(s): it cannot be cut into {count} "
                           f"shards (at most {len(units)})")
    loads = [0.0] * count
    chosen: list[list[Unit]] = [[] for _ in range(count)]
    for unit in sorted(units, key=lambda u: (-u.cost_s, u.key)):
        k = min(range(count), key=lambda i: (loads[i], i))
        chosen[k].append(unit)
        loads[k] += unit.cost_s
    order = {u.key: i for i, u in enumerate(units)}
    first: dict[str, Key] = {}
    for u in units:
        first.setdefault(u.case, u.key)
    return [Shard(i + 1, count, tuple(sorted(c, key=lambda u: order[u.key])),
                  tuple(case for case, key in first.items() if any(u.key == key for u in c)))
            for i, c in enumerate(chosen)]


def share(shard: Shard, cut: list[Shard]) -> float:
    """The shard's part of the run's budget: its share of the cut's expected cost, so that the
    shards together spend what one machine would."""
    return shard.cost_s / sum(s.cost_s for s in cut)


def matrix(shards: list[Shard]) -> dict:
    """The JSON a CI matrix takes (``strategy.matrix: ${{ fromJSON(...) }}``): one entry per
    shard, with what it holds."""
    return {"include": [{"shard": s.label, "index": s.index,
                         "cost_s": round(s.cost_s, 1), "rows": sum(u.rows for u in s.units),
                         "cases": ",".join(s.cases)} for s in shards]}


def held(shard: Shard) -> str:
    """What a shard measures, counted as it is cut: '12 rows', '2 cells', '1 case'."""
    counts = {"row": 0, "cell": 0, "case": 0}
    for u in shard.units:
        kind = "row" if u.benchmark else "cell" if dict(u.params).get("cell") else "case"
        counts[kind] += u.rows if kind == "row" else 1
    return ", ".join(f"{n} {kind}{'' if n == 1 else 's'}" for kind, n in counts.items() if n) or "nothing"


def describe(shards: list[Shard]) -> str:
    lines = []
    for s in shards:
        lines.append(f"shard {s.label}: {held(s)}, first looks about "
                     f"{format_duration(s.cost_s)}")
        lines += [f"  {u.name}" for u in s.units]
    return "\n".join(lines)


def record(shard: Shard) -> dict:
    """A shard's block in a results sidecar: which shard, and the row groups it held."""
    return {"index": shard.index, "count": shard.count, "firsts": list(shard.firsts),
            "units": [{"case": u.case, "benchmark": u.benchmark,
                       "params": dict(u.params), "cost_s": u.cost_s} for u in shard.units]}


def machine_name() -> str:
    """The machine a shard ran on: the CI runner's name where there is one, else the host's."""
    return os.environ.get("RUNNER_NAME") or platform.node() or "unknown"


def dumps(shards: list[Shard]) -> str:
    return json.dumps(matrix(shards), separators=(",", ":"))
