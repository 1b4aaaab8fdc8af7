"""A fork design tried on forks already recorded, before a long run is spent on it.

A two-sided run's folder (the A/A's data/aa-runs/2026-11-26/, or any `make report BASELINE=...
CANDIDATE=...` run) holds every fork of every row, recorded from its start. A replay runs the
sequential plan of a profile over the same rows exactly as a real run does (hotpath.measure.
rounds.run: its rounds, looks, fork lengths, budget and closing rules), but each fork it asks
for is drawn at random from that side's recorded forks and cut to the iterations asked, and the
budget is spent on a clock that each drawn fork moves by what it would have cost (the run's own
fork start, ``overhead_s``, and its iterations). So a design change (a cap, a first look, fork
lengths, closing rows out of reach) is seen in seconds against the run's own forks.

What a replay cannot show: forks longer than any recorded (drawn whole, shorter than asked),
the machine drifting over a run (draws are independent), and more spread than the recorded forks
hold (a side of four forks is resampled from four). Its counts are an upper bound on what a run
would decide, for comparing designs, not a forecast: the 2026-11-26 A/A decided 9 rows *same*
where its own design replayed decides about 21.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from .. import runs
from ..stats import steady
from ..errors import HotpathError, ResultsError
from ..jmh import RowKey, higher_is_better, number, params_of
from . import forkplan, rounds
from .profiles import Profile, format_duration


@dataclass(frozen=True)
class Recorded:
    """The recorded forks of one side: per-iteration scores, and what JMH said of them."""

    unit: str
    mode: str
    params: dict[str, str]
    forks: tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class Run:
    """A two-sided run's rows, its sides' recorded forks and what a fork cost it to start."""

    baseline: str
    rows: tuple[forkplan.Row, ...]
    sides: dict[RowKey, Recorded]
    overhead_s: float
    iteration_s: float


@dataclass(frozen=True)
class Outcome:
    """One replay: its verdicts and stop reasons (counts over rows), forks run (both sides) and
    the budget it spent."""

    verdicts: Counter
    stopped: Counter
    forks_run: int
    spent_s: float

    @property
    def false_alarms(self) -> int:
        return self.verdicts.get("faster", 0) + self.verdicts.get("slower", 0)


def load(folder: Path) -> Run:
    """A two-sided run's folder: its manifest (ab.json) and its two sides' results."""
    folder = Path(folder)
    try:
        found = runs.load(folder, runs.BUILDS)
        manifest = found.provenance
        if manifest is None:
            raise ResultsError(f"no {runs.BUILDS.provenance}")
        record = manifest["sequential"]
        names = {role: manifest["sides"][role]["name"] for role in runs.ROLES}
        sides: dict[RowKey, Recorded] = {}
        for role, name in names.items():
            for entry in json.loads(found.results[role]):
                params = {k: str(v) for k, v in (entry.get("params") or {}).items()}
                key = RowKey.of_entry(entry, None, name)
                forks = tuple(tuple(number(v) for v in f) for f in entry["primaryMetric"]["rawData"] if f)
                if int(entry.get("warmupIterations") or 0) != 0:
                    raise HotpathError(f"{folder}: {entry['benchmark']} ran unrecorded warmup: "
                                       f"a replay needs forks recorded from their start")
                old = sides.get(key)
                sides[key] = Recorded(entry["primaryMetric"].get("scoreUnit", ""), entry.get("mode", ""),
                                      params, (old.forks if old else ()) + forks)
        rows = []
        for r in record["rows"]:
            given = params_of(r["params"])
            side = sides.get(RowKey.of(r["benchmark"], given, names["baseline"]))
            order = list(side.params) if side else list(given)
            rows.append(forkplan.Row(r["benchmark"], tuple((k, given[k]) for k in order),
                                     r["candidate"], int(r["cap"])))
        recorded = record.get("recorded") or {}
        return Run(names["baseline"], tuple(rows), sides,
                   float(recorded.get("overhead_s", forkplan.FORK_OVERHEAD_S)),
                   float(recorded.get("iteration_s", 0.1)))
    except (OSError, ValueError, KeyError, TypeError, ResultsError) as e:
        raise HotpathError(f"{folder}: not a two-sided run's folder with its plan record and "
                           f"results ({type(e).__name__}: {e})") from e


def replay(run: Run, profile: Profile, budget_s: float, seed: int = 0,
           same_code: bool = False) -> Outcome:
    """The profile's plan over the run's rows (caps as the profile sets them), each fork drawn
    from its side's recorded forks; with ``same_code`` (an A/A run) from both sides' forks of
    its row, since either side's fork could have been the other's: drawn from its own side's
    few, a side would carry its sample's chance difference into every draw, and the replay
    would call rows of identical code faster or slower."""
    if not profile.recorded:
        raise HotpathError(f"profile {profile.name!r} runs unrecorded forks: a replay draws "
                           f"recorded ones")
    rng = random.Random(seed)
    now = [0.0]
    rows = [dataclasses.replace(r, cap=profile.forks) for r in run.rows]
    declared = forkplan.declared_of(rows)
    plan = forkplan.Plan(forkplan.Subject("replay", run.baseline), profile, rows, declared,
                         budget_s, label=None, tolerate_failures=True)

    def command(side, benchmarks, params, target, iterations):
        return [side, benchmarks, params, target, iterations]

    def jmh(cmd) -> str:
        side, benchmarks, params, target, iterations = cmd
        entries = []
        for benchmark in benchmarks:
            names = list(declared[benchmark])
            for combo in itertools.product(*(params[n] for n in names)):
                key = RowKey.of(benchmark, zip(names, combo), side)
                recorded = run.sides.get(key)
                if recorded is None or not recorded.forks:
                    continue
                if same_code:
                    recorded = dataclasses.replace(recorded, forks=tuple(
                        f for name in dict.fromkeys([run.baseline, *(r.candidate for r in rows)])
                        for f in (run.sides.get(key._replace(variant=name)) or recorded).forks))
                n = iterations or profile.scout_iterations
                long_enough = [f for f in recorded.forks if len(f) >= n] or [max(recorded.forks, key=len)]
                fork = list(rng.choice(long_enough)[:n])
                now[0] += run.overhead_s + len(fork) * run.iteration_s
                entries.append({"benchmark": benchmark, "mode": recorded.mode, "params": recorded.params,
                                "warmupIterations": 0, "measurementIterations": len(fork),
                                "measurementTime": f"{round(run.iteration_s * 1000)} ms",
                                "primaryMetric": {"scoreUnit": recorded.unit, "rawData": [fork]},
                                "secondaryMetrics": {}})
        Path(target).write_text(json.dumps(entries), encoding="utf-8")
        return ""

    with tempfile.TemporaryDirectory(prefix="hotpath-replay-") as staging:
        rounds.run(plan, command, Path(staging), jmh, log=lambda _: None, clock=lambda: now[0])
    states = plan.states.values()
    return Outcome(Counter(s.verdict for s in states), Counter(s.stopped for s in states),
                   plan.forks_run, plan.spent_s)


def bound(run: Run, profile: Profile, budget_s: float, ratio: float = 1.0) -> int:
    """The most rows the profile's design could decide in the budget, at the rows' recorded
    fork CVs (both sides pooled) and fork costs, were every row's true ratio ``ratio`` (1: an
    A/A) and fork CV known in advance: the forks per side each would need at the design's last
    boundary (sequential.forks_to_decide, beyond the cap if need be), the cheapest rows first.
    A plan has to learn them, and spends on rows it gives up: no plan of that design beats it."""
    design = forkplan.sequential.Design(cap=profile.forks, min_forks=profile.min_forks)
    costs = []
    for row in run.rows:
        sides = [s for name in (run.baseline, row.candidate)
                 if (s := run.sides.get(row.side(name))) is not None]
        if len(sides) < 2 or any(len(s.forks) < 2 for s in sides):
            continue
        # each fork's figure as the plan takes it: its steady segment by the profile's estimate
        means = [[[steady.summarize(f, run.iteration_s, higher_is_better(s.unit),
                                    estimate=profile.estimate).value]
                  for f in s.forks] for s in sides]
        cv = forkplan.sequential.pooled_fork_cv(*means)
        forks = forkplan.sequential.forks_to_decide(ratio, cv, design, most=10_000)
        per_fork = run.overhead_s + run.iteration_s * sum(len(f) for s in sides for f in s.forks) \
            / sum(len(s.forks) for s in sides)
        costs.append(2 * forks * per_fork)
    spent, decided = 0.0, 0
    for cost in sorted(costs):
        if spent + cost > budget_s:
            break
        spent, decided = spent + cost, decided + 1
    return decided


def lines(folder: Path, profile: Profile, budget: str | None, seeds: int, same_code: bool,
          settings: Sequence[str] = ()) -> Iterator[str]:
    """The run in ``folder`` replayed ``seeds`` times under the profile (changed by
    ``settings``): a line for the run, then each seed's verdict counts, forks and time spent;
    for same code, the most rows the design could call same."""
    run = load(folder)
    budget_s = profile.budget_s(budget)
    if math.isinf(budget_s):
        raise HotpathError(f"profile {profile.name!r} has no budget: give one with --budget")
    yield (f"hotpath: {folder}: {len(run.rows)} rows, profile {profile.name}"
           + (f" with {', '.join(settings)}" if settings else "")
           + f", budget {format_duration(budget_s)}, forks drawn from "
           + ("both sides' recorded forks (same code)" if same_code else "each side's own"))
    yield "seed  same  faster  slower  undecided  forks  spent"
    for seed in range(seeds):
        o = replay(run, profile, budget_s, seed=seed, same_code=same_code)
        v = o.verdicts
        yield (f"{seed:4d}  {v.get('same', 0):4d}  {v.get('faster', 0):6d}  "
               f"{v.get('slower', 0):6d}  {v.get('undecided', 0):9d}  {o.forks_run:5d}  "
               f"{format_duration(o.spent_s)}")
    if same_code:
        yield (f"the most rows this design could call same in "
               f"{format_duration(budget_s)}, at these forks' CVs and costs known in "
               f"advance, beyond its cap if need be: {bound(run, profile, budget_s)} of "
               f"{len(run.rows)}")
