"""Each kind of run cut into shards (hotpath.measure.shards), and the budget a shard spends.

A profile's cases, the JDK x GC matrix and two builds are each cut by what they run: the row
groups of their fork plans, or whole cases where a profile has no plan. The cut depends on the
tree, the jar and the arguments only, so every machine of a CI matrix finds the same one."""

from __future__ import annotations

from . import ab, bench, jar, shards
from .. import runtimes
from . import matrix as measure_matrix
from ..cases import get_case
from .builds import Side
from .profiles import Profile, parse_budget


def of_cases(profile: Profile, case_ids: list[str], count: int) -> list[shards.Shard]:
    """The run of these cases under the profile, in ``count`` shards."""
    units = []
    for case_id in case_ids:
        case = get_case(case_id)
        if profile.interleave:
            units += shards.units_of_plan(bench.plan_for(case, profile, bench.JAR))
        else:
            # one JMH run per case: cut by whole cases, costed by their benchmarks
            methods = len(jar.listed_benchmarks(case.benchmarks))
            units.append(shards.whole_case(case_id, methods * profile.fork_estimate_s))
    return shards.split(units, count)


def of_matrix(profile: Profile, case_ids: list[str], cells: list[runtimes.Cell],
              count: int) -> list[shards.Shard]:
    """A matrix run cut by (case, cell): each cell of a case is a run of its own."""
    found, _ = runtimes.available(cells)
    units = []
    for case_id in case_ids:
        case = get_case(case_id)
        plan = bench.plan_for(case, measure_matrix.profile_of(case, profile), bench.JAR)
        cost = sum(u.cost_s for u in shards.units_of_plan(plan))
        units += [shards.cell_of_case(case_id, cell.id, cost) for cell in found]
    return shards.split(units, count)


def of_builds(profile: Profile, baseline: Side, candidate: Side, selection: ab.Selection,
              name: str, count: int) -> list[shards.Shard]:
    """Two builds' rows under the selection in ``count`` shards (the same cut wherever the same
    jars, selection and name are given)."""
    _, found = ab.rows_for(baseline, candidate, selection, profile)
    return shards.split(shards.units_of_plan(ab.plan_of(name, baseline, found, profile)), count)


def budget_of(given: str | None, profile: Profile, shard: shards.Shard | None = None,
              cut: list[shards.Shard] | None = None) -> float | None:
    """The seconds a run may spend: the one given, else the profile's; a shard's share of the
    profile's, so that the shards together spend what one machine would."""
    if given:
        return parse_budget(given)
    budget = parse_budget(profile.budget)
    if budget is not None and shard is not None:
        budget *= shards.share(shard, cut or [shard])
    return budget
