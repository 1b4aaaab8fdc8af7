"""The sequential fork plan: forks are spent on the rows whose verdict is still open.

A row is one benchmark x params, a candidate variant against old. Rounds run one fork of
every side an open row needs (old and the candidate), one variant after the other, the order
alternating round by round (hotpath.measure.interleave). From the design's first look on, every open
row is tested after every round (hotpath.stats.sequential) and closes when its verdict is decided,
when it reaches its cap, or (where the profile says so) when its ratio and fork CV put a decision
beyond its cap. The first round takes every row, whatever the budget; later rounds take the rows
the budget left can bring to a decision, and the rows still open when it is spent close as
budget spent. Each round's forks are JMH's own JSON, merged at the end as before.

The sides are named: a case's by its ``variant`` @Param, two builds (hotpath.measure.ab) by the
names their user gave them. The plan keys every fork by the side it ran, so it cannot tell an
A/B of two variants from one of two builds, or from an A/A.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import forklength
from .. import tail
from ..stats import rowfigures, sequential, steady
from ..cases import PART_METRICS, Case, load_claims
from ..errors import HotpathError
from ..jmh import (MECHANISMS_APPLIED, VARIANT, MethodName, Params, RowKey, higher_is_better, names_mechanisms,
                   params_of, params_text)
from .profiles import Profile, format_duration

#: A fork's cost beyond its warmup and measurement (JVM start, pre-touching the heap, JMH's
#: set-up), before a run has timed its own.
FORK_OVERHEAD_S = 1.0


@dataclass(frozen=True)
class Row:
    benchmark: str
    params: Params  # declaration order, without the variant
    candidate: str
    cap: int

    @property
    def params_text(self) -> str:
        return params_text(dict(self.params))

    @property
    def key(self) -> Params:
        """The params as a side's key: sorted, whatever order JMH writes them in."""
        return tuple(sorted(self.params))

    @property
    def group(self) -> tuple[str, Params]:
        """The row's benchmark x params, its row group: what its sides share with other rows'
        (RowKey.group)."""
        return self.benchmark, self.key

    def side(self, variant: str) -> RowKey:
        return RowKey(self.benchmark, self.key, variant)

    @property
    def name(self) -> str:
        return f"{MethodName.of(self.benchmark).short}({self.params_text}) {self.candidate}"


@dataclass(frozen=True)
class Subject:
    """What a plan measures, as far as the plan needs to know: a name for its log lines and the
    side every row is compared with (a Case is one too)."""

    id: str
    baseline: str


@dataclass
class RowState:
    row: Row
    stopped: str = ""
    verdict: str = ""
    forks: int = 0
    #: Why a failed row failed: the first line of what its benchmark threw, and on which side.
    error: str = ""
    failed_on: str = ""


def writeup_variants(case: Case) -> list[str]:
    """The write-up's own variants: its candidate and any other its claims name."""
    claims = load_claims(case.id)
    named = [c["variant"] for _, c in claims.iterrows() if c["variant"] and c["variant"] != case.baseline
             and c["metric"] not in PART_METRICS]
    return list(dict.fromkeys([case.candidate, *named]))


#: The rows of the benchmarks whose variants are a patch's mechanisms, each applied to old alone or
#: with others (``old+trimless``...): which part of the patch pays (hotpath.analyze.mechanisms).
MECHANISMS = "mechanisms"


def plan_rows(case: Case, profile: Profile, declared: dict[str, dict[str, list[str]]]) -> list[Row]:
    """The rows a profile measures: every benchmark x params x candidate but the mechanisms'
    combinations (unless the profile names them), those of the benchmarks that measure a patch's
    mechanisms, every combination (``rows="mechanisms"``), or (``rows=
    "writeups"``) those the write-up's table names, with the case's headline row."""
    own = writeup_variants(case)

    def cap(candidate: str) -> int:
        return profile.forks if candidate in own else min(profile.beyond_cap, profile.forks)

    rows: list[Row] = []
    if profile.rows in ("all", MECHANISMS):
        for benchmark, params in declared.items():
            variants = params.get(VARIANT, [])
            if case.baseline not in variants:
                continue
            if profile.rows == MECHANISMS and not any(v.startswith(MECHANISMS_APPLIED) for v in variants):
                continue
            names = [p for p in params if p != VARIANT]
            # Outside a mechanisms run a combination gets the forks of a row of its own, which a
            # decomposition cannot use (it sums over every combination, make mechanisms' even forks):
            # the 2026-11-30 full run gave its 84 sides a scout's fork each, 12 minutes of its budget.
            measured = [v for v in variants if v != case.baseline
                      and (v in profile.variants if profile.variants
                           else profile.rows == MECHANISMS or not names_mechanisms(v))]
            for combo in itertools.product(*(params[p] for p in names)):
                for v in measured:
                    rows.append(Row(benchmark, tuple(zip(names, combo)), v, cap(v)))
        return rows
    # A mechanism claim (counted at allocation sites) is checked where its row is measured, a part
    # claim on the run of the mechanisms (make mechanisms): neither asks for a timed row here.
    wanted = [(c["benchmark"], c["params"], c["variant"])
              for _, c in load_claims(case.id).iterrows()
              if c["benchmark"] and not str(c["metric"]).startswith("sites.") and c["metric"] not in PART_METRICS]
    wanted.append((case.headline[0], case.headline[1], case.candidate))
    for benchmark, text, variant in wanted:
        if variant == case.baseline:
            variant = case.candidate
        takes = declared.get(benchmark)
        if takes is None:
            raise HotpathError(f"case {case.id}: the write-up's row {benchmark} is not in the "
                               f"benchmarks jar")
        given = params_of(text)
        names = [p for p in takes if p != VARIANT]
        if set(given) != set(names) or any(given[p] not in takes[p] for p in names):
            raise HotpathError(f"case {case.id}: the write-up's row {benchmark}({text}) names "
                               f"params the benchmark does not declare ({', '.join(names)})")
        row = Row(benchmark, tuple((p, given[p]) for p in names), variant, cap(variant))
        if row not in rows:
            rows.append(row)
    return rows


def sides_of(rows: list[Row], baseline: str) -> list[RowKey]:
    out: list[RowKey] = []
    for r in rows:
        for v in (baseline, r.candidate):
            side = r.side(v)
            if side not in out:
                out.append(side)
    return out


def declared_of(rows: list[Row], order: dict[str, dict[str, list[str]]] | None = None
                ) -> dict[str, dict[str, list[str]]]:
    """The params the rows set, per benchmark: each name's values in the rows' order (names in
    ``order``'s, a listing's, where given): what their JMH runs may ask for and no more."""
    declared: dict[str, dict[str, list[str]]] = {}
    for r in rows:
        values = declared.setdefault(r.benchmark, {k: [] for k in (order or {}).get(r.benchmark, {})})
        for k, v in r.params:
            if v not in values.setdefault(k, []):
                values[k].append(v)
    return declared


def invocations(sides: list[RowKey], declared: dict[str, dict[str, list[str]]],
                label: str | None = VARIANT) -> list[tuple[list[str], dict[str, list[str]]]]:
    """One variant's sides as few JMH runs as can hold them exactly: (benchmarks, params to
    set with -p). JMH runs the product of the values given, so a benchmark whose wanted
    combinations are not a product runs once per combination, and two benchmarks share a run
    only where the params they both declare want the same values."""
    by_benchmark: dict[str, list[tuple[tuple[str, str], ...]]] = {}
    for benchmark, params, _ in sides:
        by_benchmark.setdefault(benchmark, []).append(params)
    specs: list[tuple[str, dict[str, list[str]]]] = []
    for benchmark, combos in by_benchmark.items():
        names = [p for p in declared.get(benchmark, {}) if p != label]
        values = {n: list(dict.fromkeys(dict(c)[n] for c in combos)) for n in names}
        if math.prod(len(v) for v in values.values()) == len(set(combos)):
            specs.append((benchmark, values))
        else:
            specs += [(benchmark, {n: [dict(c)[n]] for n in names}) for c in dict.fromkeys(combos)]
    groups: list[tuple[list[str], dict[str, list[str]]]] = []
    for benchmark, values in specs:
        for benchmarks, merged in groups:
            if benchmark not in benchmarks and all(merged.get(n, v) == v for n, v in values.items()):
                benchmarks.append(benchmark)
                merged.update(values)
                break
        else:
            groups.append(([benchmark], dict(values)))
    return groups


def _forks(path: Path, side: str, label: str | None = VARIANT,
           estimate: str = steady.MEAN) -> dict[RowKey, list[steady.Fork]]:
    """Each benchmark x params' forks in one run of ``side``, each summarized by ``estimate``
    over its steady segment where it was recorded from its start (hotpath.stats.steady). A benchmark
    of several modes (JMH forks each mode apart) counts by its first: one mode's forks decide
    the row."""
    out: dict[RowKey, list[steady.Fork]] = {}
    for entry in tail.read_round(path):
        key = RowKey.of_entry(entry, label, side)
        if key not in out:
            out[key] = steady.entry_forks(entry, estimate)
    return out


@dataclass
class Plan:
    """A sequential run: its rows, their forks so far and why each stopped."""

    case: Case | Subject
    profile: Profile
    rows: list[Row]
    declared: dict[str, dict[str, list[str]]]
    budget_s: float
    #: The @Param that names a side in the JSON (a case's variant); None where the side is the
    #: build itself and every param is the benchmark's own.
    label: str | None = VARIANT
    #: A benchmark that fails closes its rows (as failed) and the others go on; else (the
    #: cases, whose setups abort on a mismatch) the run stops.
    tolerate_failures: bool = False
    design: sequential.Design = field(init=False)
    states: dict[Row, RowState] = field(init=False)
    means: dict[RowKey, list[float]] = field(default_factory=dict)
    #: Every fork of every side as summarized (its figure is its ``means`` entry).
    forks: dict[RowKey, list[steady.Fork]] = field(default_factory=dict)
    #: A recorded profile's fork length per open row, chosen after every round (forklength).
    lengths: dict[Row, forklength.Choice] = field(default_factory=dict)
    #: Committed recorded forks of the same benchmark x params (hotpath.measure.prior): they
    #: set a row's first fork where they saw what a scout cannot, and no figure.
    prior: dict[tuple[str, Params], list[steady.Fork]] = field(default_factory=dict)
    #: The rows whose first fork the prior set, and why.
    firsts: dict[Row, forklength.Choice] = field(init=False, default_factory=dict)
    #: A side's own fork length where its row's is a slowdown's and the side showed none (the
    #: prior's forks are old's, an A/A's; a row's own forks say which side slowed down): only
    #: the side that slows down needs forks long enough to measure its slowed level.
    side_lengths: dict[tuple[Row, str | None], forklength.Choice] = field(default_factory=dict)
    fork_s: float = 0.0
    #: What a fork costs beyond its iterations (JVM start, heap pre-touch, JMH's set-up).
    overhead_s: float = FORK_OVERHEAD_S
    forks_run: int = 0
    spent_s: float = 0.0
    #: Each benchmark's score unit, once measured: throughput rows improve upwards.
    units: dict[str, str] = field(default_factory=dict)
    #: Forks per side each row is expected to need, known before it runs (the reference's ratio
    #: and fork CV, hotpath.measure.prior.expected): the order rows get their forks in until
    #: their own first look says more. A row without one comes after those with one.
    expected: dict[Row, int] = field(default_factory=dict)
    #: The rows whose candidate is their case's own (the variant its headline is about): before
    #: the other variants its claims name. Default: every row of the case's candidate.
    primary: frozenset[Row] | None = None

    def __post_init__(self):
        self.design = sequential.Design(cap=self.profile.forks, min_forks=self.profile.min_forks)
        self.states = {r: RowState(r) for r in self.rows}
        if self.primary is None:
            main = getattr(self.case, "candidate", None)
            self.primary = frozenset(r for r in self.rows if main is None or r.candidate == main)
        p = self.profile
        self.fork_s = (p.warmup_iterations * _seconds(p.warmup_time)
                       + p.measurement_iterations * _seconds(p.measurement_time) + FORK_OVERHEAD_S)
        if p.recorded:
            self.firsts = self._first_lengths()
            self.lengths.update(self.firsts)
            scout = forklength.Choice(p.scout_iterations, "scout: the committed forks that slowed "
                                                          "down were old's")
            self.side_lengths.update({(r, r.candidate): scout for r in self.firsts})

    def _first_lengths(self) -> dict[Row, forklength.Choice]:
        """The rows whose committed forks saw a slowdown a scout would miss (forklength.first)."""
        chosen = {r: forklength.first(self.prior.get(r.group, []), self.profile)
                  for r in self.rows}
        return {r: c for r, c in chosen.items() if c is not None}

    def iterations(self, row: Row, variant: str | None = None) -> int | None:
        """The iterations of the row's next fork (of its side ``variant``, where that has a
        length of its own; None: the profile's unrecorded forks)."""
        if not self.profile.recorded:
            return None
        choice = self.side_lengths.get((row, variant)) or self.lengths.get(row)
        return choice.iterations if choice else self.profile.scout_iterations

    def fork_cost_s(self, row: Row, variant: str | None = None) -> float:
        """What one more fork of the row costs at the current estimates: of its side
        ``variant``, or the mean of its two sides'."""
        if variant is None:
            return sum(self.fork_cost_s(row, v) for v in (self.case.baseline, row.candidate)) / 2
        n = self.iterations(row, variant)
        return self.fork_s if n is None else self.overhead_s + n * self.profile.iteration_s

    def choose_lengths(self) -> None:
        """Each open row's next fork length from its forks so far (recorded profiles)."""
        if not self.profile.recorded:
            return
        for row in self.open_rows():
            old = self.forks.get(row.side(self.case.baseline), [])
            new = self.forks.get(row.side(row.candidate), [])
            self.lengths[row] = forklength.choose(old, new, self.profile, self.overhead_s)
            for variant, own in ((self.case.baseline, old), (row.candidate, new)):
                self.side_lengths.pop((row, variant), None)
                if forklength.any_slowed(old + new) and not forklength.any_slowed(own):
                    self.side_lengths[(row, variant)] = forklength.choose(own, [], self.profile, self.overhead_s)

    def row_design(self, row: Row) -> sequential.Design:
        return sequential.Design(cap=row.cap, min_forks=self.design.min_forks,
                                 alpha=self.design.alpha, rho=self.design.rho)

    def open_rows(self) -> list[Row]:
        return [r for r, s in self.states.items() if not s.stopped]

    def describe(self) -> str:
        sides = sides_of(self.rows, self.case.baseline)
        caps = sorted({r.cap for r in self.rows})
        length = (f"about {self.fork_s:.1f} s a fork" if not self.profile.recorded else
                  f"forks recorded from their start, the first per side a {self.profile.scout_s:g} s "
                  f"scout, later ones as long as each row's forks say (at most "
                  f"{self.profile.max_fork_s:g} s)")
        return (f"{len(self.rows)} rows ({len(sides)} variant x params sides), forks per side "
                f"{self.design.min_forks} to {'/'.join(map(str, caps))}, {length}, the first look "
                f"of every row at most about {format_duration(self.first_look_s())}; "
                f"budget {format_duration(self.budget_s)}")

    def first_round_s(self) -> float:
        """One fork per side of every row, at the current fork estimate (a recorded row's first
        fork: the scout, or what its committed forks asked for)."""
        if not self.profile.recorded:
            return len(sides_of(self.rows, self.case.baseline)) * self.fork_s
        cost: dict[RowKey, float] = {}
        for r in self.rows:
            for side in (r.side(self.case.baseline), r.side(r.candidate)):
                cost[side] = max(cost.get(side, 0.0), self.fork_cost_s(r, side.variant))
        return sum(cost.values())

    def first_look_s(self) -> float:
        """What bringing every row to its first look costs at the current fork estimate (a
        recorded profile's later forks taken as a scout's: the most they are before they are
        chosen)."""
        return self.design.min_forks * self.first_round_s()

    def figures(self, row: Row) -> tuple[list[float], list[float]]:
        """The row's fork figures, old's and the candidate's, as its verdict takes them
        (hotpath.stats.steady): by the profile's estimate, or by the mean where the sides' GC time
        or page faults differ (rowfigures.row_estimate); without the forks of a side that ended
        before a slowdown another of its forks showed (steady.before_slowdown)."""
        sides = [row.side(self.case.baseline), row.side(row.candidate)]
        forks = [self.forks.get(s, []) for s in sides]
        figures = [self.means.get(s, []) for s in sides]
        if any(len(f) != len(v) for f, v in zip(forks, figures)):  # figures given without forks
            return figures[0], figures[1]
        estimate = self.profile.estimate
        old, new, _, _ = rowfigures.verdict_figures(estimate, *(rowfigures.SideForks.of(fs, vs, estimate)
                                                             for fs, vs in zip(forks, figures)))
        return old, new

    def look(self) -> None:
        """Test every open row that has reached the first look; close what is decided or capped."""
        for row in self.open_rows():
            old, new = self.figures(row)
            state = self.states[row]
            state.forks = min(len(old), len(new))
            if state.forks < self.design.min_forks:
                continue
            iv = sequential.interval(old, new, self.row_design(row))
            verdict = sequential.decision(iv.low, iv.high, self.higher_is_better(row))
            if verdict:
                state.stopped, state.verdict = sequential.DECIDED, verdict
            elif state.forks >= row.cap:
                state.stopped, state.verdict = sequential.CAP, "undecided"
            elif self.profile.drop_out_of_reach and self.needed(row, old, new) > row.cap:
                state.stopped, state.verdict = sequential.OUT_OF_REACH, "undecided"

    def needed(self, row: Row, old: list[float], new: list[float]) -> int:
        """The forks per side the row's ratio and fork CV so far ask for a decision."""
        ratio = math.exp(np.log(new).mean() - np.log(old).mean())
        cv = sequential.pooled_fork_cv([[v] for v in old], [[v] for v in new])
        return sequential.forks_to_decide(ratio, cv, self.row_design(row))

    def fail(self, side: RowKey, error: str) -> None:
        """Close every open row that needs this side: its benchmark failed on it."""
        for row in self.open_rows():
            if row.group == side.group and side.variant in (self.case.baseline, row.candidate):
                state = self.states[row]
                state.stopped, state.verdict = sequential.FAILED, "undecided"
                state.error, state.failed_on = error, side.variant

    def higher_is_better(self, row: Row) -> bool:
        return higher_is_better(self.units.get(row.benchmark, ""))

    def close_all(self, reason: str) -> None:
        for row in self.open_rows():
            state = self.states[row]
            state.stopped, state.verdict = reason, state.verdict or "undecided"

    def affordable(self, rows: list[Row], left_s: float) -> list[Row]:
        """The open rows the budget left can still bring to a decision, nearest first.

        Every row's first look comes before any row's later forks: a row dropped before its
        first look has no interval at all, and two or three forks say too little of a row to
        give it up. Rows before their first look go in the order of the forks they are expected
        to need (``expected``, the reference's; else their first look), those the reference
        puts beyond their cap last, and while one of them does not fit, no row past its first
        look takes a fork. Past it, a row's cost is the
        forks per side its ratio and fork CV say a decision takes (at most its cap); spread over
        every row, a short budget would bring none to a decision, spent on the nearest it decides
        some. Rows whose ratio and fork CV say their cap will not decide them come after every
        row that can still be decided: their forks narrow an interval, not a verdict. Among the
        others, a case's own candidate comes before the other variants its claims name."""
        first_look = self.design.min_forks
        if self.profile.even_forks:
            return self._round_robin(rows, left_s)

        def need(row: Row) -> tuple[bool, bool, int]:
            old, new = self.figures(row)
            n = min(len(old), len(new))
            if n < first_look:  # the reference's forks say whether its cap will decide it
                return True, self.expected.get(row, 0) > row.cap, first_look - n
            goal = max(first_look, self.needed(row, old, new))
            return False, goal > row.cap, max(1, min(goal, row.cap) - n)

        needs = {row: need(row) for row in rows}

        def order(row: Row) -> tuple:
            before, beyond_cap, forks = needs[row]
            expected = self.expected.get(row, row.cap + 1) if before else forks
            return (not before, beyond_cap, row not in (self.primary or ()), expected,
                    forks * self.fork_cost_s(row))

        chosen: list[Row] = []
        spent = 0.0
        waiting = False  # a row short of its first look that the budget left cannot take
        for row in sorted(rows, key=order):
            before = needs[row][0]
            cost = needs[row][2] * 2 * self.fork_cost_s(row)
            if spent + cost <= left_s and (before or not waiting):
                chosen.append(row)
                spent += cost
            elif before:
                waiting = True
        if not chosen:  # none can reach a decision: give the nearest one more round if it fits
            nearest = min(rows, key=order)
            if 2 * self.fork_cost_s(nearest) <= left_s:
                chosen = [nearest]
        return chosen

    def _round_robin(self, rows: list[Row], left_s: float) -> list[Row]:
        """Every open row a fork a side in each round, as far as the budget left takes a round of
        them (a decomposition sums over every variant: one that lags leaves its row unsplit); the
        rows with the fewest forks first where it takes only some."""
        chosen: list[Row] = []
        spent = 0.0
        for row in sorted(rows, key=lambda r: (min(len(f) for f in self.figures(r)), rows.index(r))):
            cost = 2 * self.fork_cost_s(row)
            if spent + cost <= left_s:
                chosen.append(row)
                spent += cost
        return chosen

    def record(self, rows: list[Row] | None = None) -> dict:
        """The sidecar's "sequential" block: the design, the budget, and every row's forks and
        why it stopped (of ``rows`` only: a case's share of a joint plan)."""
        wanted = set(self.rows if rows is None else rows)
        forks_run = (self.forks_run if rows is None else
                     sum(len(self.means.get(side, [])) for side in sides_of(list(wanted), self.case.baseline)))
        return {
            "design": self.design.as_dict(),
            "describe": self.design.describe(),
            "estimate": self.profile.estimate,
            "budget_s": round(self.budget_s, 1),
            "spent_s": round(self.spent_s, 1),
            "forks_run": forks_run,
            **({"recorded": {"iteration_s": self.profile.iteration_s,
                             "scout_s": self.profile.scout_s, "margin_s": self.profile.margin_s,
                             "overhead_s": round(self.overhead_s, 2)}}
               if self.profile.recorded else {}),
            "rows": [{"benchmark": r.benchmark, "params": r.params_text, "candidate": r.candidate,
                      "cap": r.cap, "forks": s.forks, "stopped": s.stopped, "verdict": s.verdict,
                      **({"error": s.error, "failed_on": s.failed_on} if s.error else {}),
                      **({"fork_iterations": self.lengths[r].iterations,
                          "fork_length_why": self.lengths[r].why} if r in self.lengths else {}),
                      **({"first_fork_iterations": self.firsts[r].iterations,
                          "first_fork_why": self.firsts[r].why} if r in self.firsts else {}),
                      **({"side_fork_iterations": {v: c.iterations for (row, v), c in self.side_lengths.items() if row == r},
                          "side_fork_why": {v: c.why for (row, v), c in self.side_lengths.items() if row == r}}
                         if any(row == r for row, _ in self.side_lengths) else {})}
                     for r, s in self.states.items() if r in wanted],
        }


def joint(plans: list[Plan], budget_s: float) -> Plan:
    """Several cases' plans as one: their rows in one plan and one budget (bench.run_together),
    each row keeping its cap, its committed forks' first length, its expected forks and whether
    its candidate is its case's own."""
    baselines = {p.case.baseline for p in plans}
    profiles = {p.profile for p in plans}
    if len(baselines) != 1 or len(profiles) != 1:
        raise HotpathError("cases planned together need one baseline and one profile")
    subject = Subject(", ".join(p.case.id for p in plans), baselines.pop())
    return Plan(subject, profiles.pop(), [r for p in plans for r in p.rows],
                {b: v for p in plans for b, v in p.declared.items()}, budget_s,
                prior={k: v for p in plans for k, v in p.prior.items()},
                expected={r: n for p in plans for r, n in p.expected.items()},
                primary=frozenset(r for p in plans for r in p.primary or ()))


def jmh_params(params: dict[str, list[str]]) -> list[str]:
    out: list[str] = []
    for name, values in params.items():
        out += ["-p", f"{name}={','.join(values)}"]
    return out


def _seconds(text: str) -> float:
    from ..jmh import seconds
    value = seconds(text)
    return 0.0 if math.isnan(value) else value
