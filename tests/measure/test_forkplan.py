"""The sequential fork plan's mechanics: which rows a profile measures, how a variant's sides
become JMH runs, and how rounds stop (decided, cap, budget), with JMH replaced by a fake that
writes JMH-shaped JSON from chosen fork means."""

import dataclasses
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from hotpath.measure import forkplan, interleave, rounds
from hotpath.stats import rowfigures, sequential, steady
from hotpath.cases import get_case
from hotpath.errors import HotpathError
from hotpath.measure.profiles import get_profile, parse_budget

LISTING = """Benchmarks:
hotpath.encoder.EncoderPayloadBenchmark.encode
  param "payload" = {STR_64, STR_1K, BYTES_8K, OBJ_MAP}
  param "variant" = {old, optimized, floor, upstream}
hotpath.encoder.EncoderPayloadSizeBenchmark.encode
  param "size" = {64, 1024}
  param "variant" = {old, optimized, floor, upstream}
"""
DECLARED = interleave.declared_params(LISTING)
ENCODER = get_case("encoder")


def test_the_listing_gives_each_benchmarks_params():
    assert DECLARED["hotpath.encoder.EncoderPayloadSizeBenchmark.encode"] == {
        "size": ["64", "1024"], "variant": ["old", "optimized", "floor", "upstream"]}


def test_full_measures_every_row_and_caps_floor_and_upstream_lower():
    rows = forkplan.plan_rows(ENCODER, get_profile("full"), DECLARED)
    assert len(rows) == (4 + 2) * 3
    caps = {r.candidate: r.cap for r in rows}
    assert caps == {"optimized": 24, "floor": 8, "upstream": 8}


def test_quick_measures_the_writeups_rows_old_against_its_variant():
    rows = forkplan.plan_rows(ENCODER, get_profile("quick"), DECLARED)
    assert [(r.params_text, r.candidate) for r in rows] == [
        ("payload=STR_64", "optimized"), ("payload=STR_1K", "optimized"),
        ("payload=BYTES_8K", "optimized"), ("payload=OBJ_MAP", "optimized")]


def test_mechanisms_measures_only_the_benchmarks_whose_variants_are_the_patchs_mechanisms():
    mechanisms = "hotpath.encoder.EncoderMechanismsBenchmark.encode"
    declared = {**DECLARED, mechanisms: {"payload": ["STR_64"], "variant": [
        "old", "old+direct-bytes", "old+exact-size", "old+direct-bytes+exact-size", "optimized"]}}
    rows = forkplan.plan_rows(ENCODER, get_profile("mechanisms"), declared)
    assert {r.benchmark for r in rows} == {mechanisms}
    assert [r.candidate for r in rows] == ["old+direct-bytes", "old+exact-size", "old+direct-bytes+exact-size",
                                           "optimized"]
    assert {r.cap for r in rows} == {12}
    assert forkplan.plan_rows(ENCODER, get_profile("mechanisms"), DECLARED) == []
    assert "patch's mechanisms only" in get_profile("mechanisms").describe()


def test_a_quick_run_names_the_mechanisms_it_left_out_by_the_command_not_variant_by_variant():
    from types import SimpleNamespace

    from hotpath.measure import bench

    declared = {**DECLARED, "hotpath.encoder.EncoderMechanismsBenchmark.encode": {
        "payload": ["STR_64"], "variant": ["old", "old+direct-bytes", "optimized-direct-bytes", "optimized"]}}
    quick = get_profile("quick")
    plan = SimpleNamespace(rows=forkplan.plan_rows(ENCODER, quick, declared), declared=declared)
    left = bench.left_out(ENCODER, quick, plan)
    assert left["mechanisms"] == "make mechanisms CASE=encoder"
    assert left["variants"] == ["floor", "upstream"] and "EncoderMechanismsBenchmark" in left["benchmarks"]
    assert "mechanisms" not in bench.left_out(ENCODER, quick, SimpleNamespace(
        rows=forkplan.plan_rows(ENCODER, quick, DECLARED), declared=DECLARED))


def test_a_writeup_row_the_jar_does_not_hold_is_a_clear_error():
    with pytest.raises(HotpathError, match="not in the benchmarks jar"):
        forkplan.plan_rows(ENCODER, get_profile("quick"), {})


def test_a_products_values_share_one_run_and_other_combinations_run_apart():
    listing = """Benchmarks:
a.B.m
  param "x" = {1, 2}
  param "y" = {p, q}
  param "variant" = {old, new}
a.C.m
  param "x" = {1, 2}
  param "variant" = {old, new}
a.D.m
  param "variant" = {old, new}
"""
    declared = interleave.declared_params(listing)
    product = [("a.B.m", (("x", "1"), ("y", "p")), "old"), ("a.B.m", (("x", "1"), ("y", "q")), "old"),
               ("a.C.m", (("x", "1"),), "old"), ("a.D.m", (), "old")]
    runs = forkplan.invocations(product, declared)
    assert runs == [(["a.B.m", "a.C.m", "a.D.m"], {"x": ["1"], "y": ["p", "q"]})]
    # x=1,y=p and x=2,y=q is no product: two runs, and C (x=2) cannot share x=1's
    diagonal = [("a.B.m", (("x", "1"), ("y", "p")), "old"), ("a.B.m", (("x", "2"), ("y", "q")), "old"),
                ("a.C.m", (("x", "2"),), "old")]
    runs = forkplan.invocations(diagonal, declared)
    wanted = {(b, tuple(sorted((k, tuple(v)) for k, v in p.items()))) for bs, p in runs for b in bs}
    ran = set()
    for benchmarks, params in runs:
        for b in benchmarks:
            names = [n for n in declared[b] if n != "variant"]
            ran |= {(b, combo) for combo in itertools.product(*(params[n] for n in names))}
    assert ran == {("a.B.m", ("1", "p")), ("a.B.m", ("2", "q")), ("a.C.m", ("2",))}
    assert len(runs) == 2 and wanted


@pytest.mark.parametrize("text,seconds", [("45m", 2700), ("1h30m", 5400), ("90s", 90), ("600", 600),
                                          ("6m30s", 390), ("", None)])
def test_budgets_read_as_people_write_them(text, seconds):
    assert parse_budget(text) == seconds


def test_an_unreadable_budget_is_a_clear_error():
    with pytest.raises(HotpathError, match="cannot read the budget"):
        parse_budget("soon")


class FakeJmh:
    """Writes one fork per side as JMH would, its mean drawn from ``means[(params, variant)]``."""

    def __init__(self, means, seed=1):
        self.means, self.rng, self.runs = means, np.random.default_rng(seed), 0

    def command(self, variant, benchmarks, params, target, iterations=None):
        return [variant, json.dumps(benchmarks), json.dumps(params), str(target), str(iterations)]

    def __call__(self, cmd):
        variant, benchmarks, params, target = cmd[0], json.loads(cmd[1]), json.loads(cmd[2]), cmd[3]
        self.runs += 1
        entries = []
        for b in benchmarks:
            names = [n for n in DECLARED[b] if n != "variant"]
            for combo in itertools.product(*(params[n] for n in names)):
                entries.append(self.entry(b, dict(zip(names, combo)), variant, cmd))
        with open(target, "w", encoding="utf-8") as f:
            json.dump(entries, f)

    def entry(self, benchmark, p, variant, cmd):
        """One side's result of a run: a fork of two iterations at its drawn mean."""
        mean = self.means[(tuple(p.items()), variant)] * math.exp(self.rng.normal(0, 0.02))
        return {"benchmark": benchmark, "mode": "avgt", "forks": 1,
                "params": {**p, "variant": variant},
                "primaryMetric": {"score": mean, "scoreUnit": "ns/op", "rawData": [[mean, mean]]}}


#: Every row's two sides alike: no row is decided, so a plan runs until its budget or cap.
UNCHANGED = {((("payload", p),), v): 100.0 for p in ("STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP")
             for v in ("old", "optimized")}


def _plan(budget_s, rows=None, cap=8, recorded=False, min_forks=4, drop_out_of_reach=False):
    # unrecorded forks of a fixed length, unless the test is about recorded ones; the first look
    # at four forks, which the budget tests below count in, and rows beyond their cap kept open,
    # unless the test is about another
    profile = dataclasses.replace(get_profile("quick"), forks=cap, recorded=recorded,
                                  min_forks=min_forks, drop_out_of_reach=drop_out_of_reach)
    rows = rows or forkplan.plan_rows(ENCODER, profile, DECLARED)
    return forkplan.Plan(ENCODER, profile, rows, DECLARED, budget_s)


@pytest.mark.parametrize("first_look", [4, 3])
def test_a_clear_change_is_decided_at_the_first_look_and_stops_taking_forks(tmp_path, first_look):
    means = {((("payload", p),), v): (100.0 if v == "old" else 50.0)
             for p in ("STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP") for v in ("old", "optimized")}
    means[((("payload", "OBJ_MAP"),), "optimized")] = 103.0  # inside the band: decided late or never
    jmh = FakeJmh(means)
    plan = _plan(math.inf, min_forks=first_look)
    done = rounds.run(plan, jmh.command, tmp_path, jmh, log=lambda _: None)
    states = {r.params_text: s for r, s in plan.states.items()}
    for p in ("payload=STR_64", "payload=STR_1K", "payload=BYTES_8K"):
        assert ((states[p].stopped, states[p].verdict, states[p].forks)
                == ("decided", "faster", first_look))
    assert states["payload=OBJ_MAP"].stopped in ("decided", "cap")
    assert len(done) == jmh.runs
    record = plan.record()
    assert record["design"]["cap"] == 8 and len(record["rows"]) == 4


def test_a_spent_budget_closes_the_open_rows_and_says_so(tmp_path):
    jmh = FakeJmh(UNCHANGED)
    plan = _plan(budget_s=0.0)
    rounds.run(plan, jmh.command, tmp_path, jmh, log=lambda _: None)
    assert jmh.runs == 0
    assert {s.stopped for s in plan.states.values()} == {sequential.BUDGET}


def test_a_short_budget_is_spent_on_the_rows_nearest_a_decision(tmp_path):
    plan = _plan(budget_s=math.inf)
    plan.fork_s = 1.0
    near, far = plan.rows[0], plan.rows[1]
    old = [100.0, 101.0, 99.0, 100.0]
    plan.means[(near.benchmark, near.key, "old")] = list(old)
    plan.means[(near.benchmark, near.key, "optimized")] = [50.0, 51.0, 49.0, 58.0]
    plan.means[(far.benchmark, far.key, "old")] = list(old)
    plan.means[(far.benchmark, far.key, "optimized")] = [95.0, 104.0, 99.0, 96.0]
    assert plan.affordable([far, near], left_s=2.5) == [near]


def test_a_row_is_not_given_up_before_its_first_look_while_the_budget_covers_it():
    # Two forks whose ratio sits on the band's edge would "need" hundreds: the row still gets
    # the forks to its first look, since they fit (the store run lost a row that way).
    plan = _plan(budget_s=math.inf)
    plan.fork_s = 1.0
    edge, other = plan.rows[0], plan.rows[1]
    plan.means[(edge.benchmark, edge.key, "old")] = [100.0, 130.0]
    plan.means[(edge.benchmark, edge.key, "optimized")] = [95.0, 122.0]
    plan.means[(other.benchmark, other.key, "old")] = [100.0, 101.0]
    plan.means[(other.benchmark, other.key, "optimized")] = [50.0, 51.0]
    assert set(plan.affordable([edge, other], left_s=8.0)) == {edge, other}


def test_a_row_its_cap_will_not_decide_waits_for_the_rows_that_can_be_decided():
    plan = _plan(budget_s=math.inf)
    plan.fork_s = 1.0
    edge, open_ = plan.rows[0], plan.rows[1]
    old = [100.0, 101.0, 99.0, 100.0, 102.0, 98.0]
    # new/old on the band's edge (0.952): no cap decides it, though two forks reach its cap
    plan.means[(edge.benchmark, edge.key, "old")] = list(old)
    plan.means[(edge.benchmark, edge.key, "optimized")] = [v * 0.952 for v in (101.0, 99.0, 100.0, 98.0, 100.0, 102.0)]
    # 0.90 at a 4% fork CV: a few more forks decide it
    plan.means[(open_.benchmark, open_.key, "old")] = [100.0, 104.0, 96.0, 100.0]
    plan.means[(open_.benchmark, open_.key, "optimized")] = [90.0, 86.0, 94.0, 90.0]
    assert plan.affordable([edge, open_], left_s=6.5) == [open_]


def test_the_cases_own_candidate_comes_before_the_other_variants_its_claims_name():
    plan = _plan(budget_s=math.inf)
    plan.fork_s = 1.0
    mine = plan.rows[0]
    other = dataclasses.replace(plan.rows[1], candidate="other")
    for row in (mine, other):  # two forks each: both before their first look, alike
        plan.means[(row.benchmark, row.key, "old")] = [100.0, 101.0]
        plan.means[(row.benchmark, row.key, row.candidate)] = [50.0, 51.0]
    assert plan.affordable([other, mine], left_s=4.5) == [mine]


class Clock:
    """A fake time.monotonic that FakeJmh moves by a second per fork."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _timed(jmh, clock, fork_s=1.0):
    def run(cmd):
        jmh(cmd)
        clock.now += fork_s * len(json.loads(Path(cmd[3]).read_text(encoding="utf-8")))
    return run


def test_every_row_gets_a_first_fork_even_when_the_budget_brings_none_to_a_look(tmp_path, monkeypatch):
    # The store cell's run lost two rows that way: left out of the first round, they had no
    # fork at all, and the whole cell failed.
    clock = Clock()
    monkeypatch.setattr(rounds.time, "monotonic", clock)
    means = {((("payload", p),), v): (100.0 if v == "old" else 50.0)
             for p in ("STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP") for v in ("old", "optimized")}
    jmh = FakeJmh(means)
    plan = _plan(budget_s=10.0)
    plan.fork_s = 1.0
    logged = []
    rounds.run(plan, jmh.command, tmp_path, _timed(jmh, clock), log=logged.append)
    for row in plan.rows:
        for variant in ("old", row.candidate):
            assert plan.means.get((row.benchmark, row.key, variant)), (row, variant)
    assert {s.stopped for s in plan.states.values()} == {sequential.BUDGET}
    assert not any("overruns" in line for line in logged)


def test_a_budget_shorter_than_the_first_round_says_it_overruns(tmp_path, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rounds.time, "monotonic", clock)
    jmh = FakeJmh(UNCHANGED)
    plan = _plan(budget_s=3.0)
    plan.fork_s = 1.0
    logged = []
    rounds.run(plan, jmh.command, tmp_path, _timed(jmh, clock), log=logged.append)
    assert any("overruns" in line for line in logged)
    assert all(plan.means.get((r.benchmark, r.key, "old")) for r in plan.rows)


def test_a_round_whose_forks_run_slower_than_expected_stops_at_the_budgets_end(tmp_path, monkeypatch):
    # A noisy host slows settled code 1.7-2.1x for whole forks: the round chosen to fit the
    # budget then runs past it. It stops at the first JMH run that would start after the
    # deadline, or would end more than a fork past it: the budget is overrun by a fork at most.
    clock = Clock()
    monkeypatch.setattr(rounds.time, "monotonic", clock)
    jmh = FakeJmh(UNCHANGED)
    plan = _plan(budget_s=20.0)
    plan.fork_s = 1.0

    def run(cmd):  # round 1's forks take the second they were expected to, later ones 7
        slow = clock.now > 7.5
        jmh(cmd)
        clock.now += (7.0 if slow else 1.0) * len(json.loads(Path(cmd[3]).read_text(encoding="utf-8")))
    logged = []
    rounds.run(plan, jmh.command, tmp_path, run, log=logged.append)
    assert [line for line in logged if "stopped at the budget's end" in line] == [
        "hotpath: encoder: round 2 stopped at the budget's end, 1 of its 2 JMH runs not started"]
    assert 0 < clock.now - 20.0 <= 7.0  # one fork as it ran
    assert {s.stopped for s in plan.states.values()} == {sequential.BUDGET}


def test_a_jmh_run_that_would_end_more_than_a_fork_past_the_budget_does_not_start(tmp_path, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rounds.time, "monotonic", clock)
    jmh = FakeJmh(UNCHANGED)
    plan = _plan(budget_s=10.0)
    plan.fork_s = 1.0
    monkeypatch.setattr(plan, "affordable", lambda rows, left_s: rows)  # a round past the budget
    logged = []
    rounds.run(plan, jmh.command, tmp_path, _timed(jmh, clock), log=logged.append)
    # round 1 (every row's first fork a side, 8 s) runs whole; round 2's first JMH run holds four
    # forks, which would end 2 s past the budget with 2 s of it left
    assert jmh.runs == 2 and clock.now == 8.0
    assert [line for line in logged if "stopped" in line] == [
        "hotpath: encoder: round 2 stopped at the budget's end, 2 of its 2 JMH runs not started"]


def test_a_row_left_out_of_a_round_stays_open_and_is_taken_up_later(tmp_path, monkeypatch):
    means = {((("payload", p),), v): (100.0 if v == "old" else 50.0)
             for p in ("STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP") for v in ("old", "optimized")}
    jmh = FakeJmh(means)
    plan = _plan(budget_s=math.inf)
    calls = []

    def affordable(rows, left_s):  # the budget has room for one row in round 2 only
        calls.append(len(rows))
        return rows[:1] if len(calls) == 1 else rows
    monkeypatch.setattr(plan, "affordable", affordable)
    rounds.run(plan, jmh.command, tmp_path, jmh, log=lambda _: None)
    assert {(s.stopped, s.verdict) for s in plan.states.values()} == {("decided", "faster")}


class RecordedJmh(FakeJmh):
    """Forks recorded from their start, as JMH writes them with -wi 0 -i N -r 100ms: each
    side's series from ``shapes[(params, variant)](iterations, rng)``."""

    def __init__(self, shapes, seed=1):
        super().__init__({}, seed)
        self.shapes, self.lengths = shapes, []

    def entry(self, benchmark, p, variant, cmd):
        iterations = int(cmd[4])
        series = self.shapes[(tuple(p.items()), variant)](iterations, self.rng)
        self.lengths.append((p["payload"], variant, iterations))
        return {"benchmark": benchmark, "mode": "avgt", "forks": 1, "warmupIterations": 0,
                "measurementIterations": iterations, "measurementTime": "100 ms",
                "params": {**p, "variant": variant},
                "primaryMetric": {"score": float(np.mean(series)), "scoreUnit": "us/op",
                                  "rawData": [list(series)]}}


def _flat(level):
    return lambda n, rng: level * np.exp(rng.normal(0, 0.01, n))


def _warming(level, until_s, slower=1.6):
    def series(n, rng):
        t = np.arange(n) * 0.1
        return np.where(t < until_s, level * slower, level) * np.exp(rng.normal(0, 0.01, n))
    return series


def _waves(level):
    return lambda n, rng: level * (1 + 0.3 * np.sin(np.arange(n) / 2.5)) * np.exp(rng.normal(0, 0.01, n))


def test_recorded_forks_count_from_their_steady_segment_and_each_row_gets_its_own_length(tmp_path):
    shapes = {((("payload", "STR_64"),), "old"): _warming(100.0, 1.0),
              ((("payload", "STR_64"),), "optimized"): _warming(50.0, 1.0),
              ((("payload", "STR_1K"),), "old"): _flat(100.0),
              ((("payload", "STR_1K"),), "optimized"): _flat(80.0),
              ((("payload", "BYTES_8K"),), "old"): _waves(100.0),
              ((("payload", "BYTES_8K"),), "optimized"): _flat(100.0),
              ((("payload", "OBJ_MAP"),), "old"): _flat(100.0),
              ((("payload", "OBJ_MAP"),), "optimized"): _flat(100.0)}
    jmh = RecordedJmh(shapes)
    plan = _plan(math.inf, recorded=True)
    rounds.run(plan, jmh.command, tmp_path, jmh, log=lambda _: None)
    scout = plan.profile.scout_iterations
    by_row: dict[str, list[int]] = {}
    for payload, _, n in jmh.lengths:
        by_row.setdefault(payload, []).append(n)
    # every row's first fork per side is a scout
    assert all(lengths[:2] == [scout, scout] for lengths in by_row.values())
    # a flat row runs short forks after it; one that settles at 1 s runs longer ones; one
    # that never settles keeps the scout's length
    assert max(by_row["STR_1K"][2:]) < scout
    assert min(by_row["STR_64"][2:]) > max(by_row["STR_1K"][2:])
    assert min(by_row["BYTES_8K"][2:]) >= scout
    # a warming fork's figure is its steady level, not diluted by its warmup
    warming = plan.forks[(plan.rows[0].benchmark, (("payload", "STR_64"),), "old")]
    assert all(f.kind == "warmup" and abs(f.start_s - 1.0) <= 0.2 for f in warming)
    assert all(abs(f.value - 100.0) < 2.0 for f in warming)
    states = {r.params_text: s for r, s in plan.states.items()}
    assert states["payload=STR_64"].verdict == "faster" and states["payload=STR_1K"].verdict == "faster"
    record = {r["params"]: r for r in plan.record()["rows"]}
    assert record["payload=STR_1K"]["fork_iterations"] == by_row["STR_1K"][-1]
    assert "steady" in record["payload=STR_64"]["fork_length_why"]


@pytest.mark.parametrize("drop", [True, False])
def test_a_row_its_cap_will_not_decide_closes_at_its_look_where_the_profile_drops_them(drop):
    plan = _plan(budget_s=math.inf, min_forks=3, drop_out_of_reach=drop)
    edge, open_ = plan.rows[0], plan.rows[1]
    # new/old on the band's edge (0.952) at a 1% fork CV: no cap of 8 decides it
    plan.means[(edge.benchmark, edge.key, "old")] = [100.0, 101.0, 99.0]
    plan.means[(edge.benchmark, edge.key, "optimized")] = [95.2, 96.2, 94.2]
    # 0.85 at a 4% fork CV: a few more forks decide it
    plan.means[(open_.benchmark, open_.key, "old")] = [100.0, 104.0, 96.0]
    plan.means[(open_.benchmark, open_.key, "optimized")] = [85.0, 81.0, 89.0]
    plan.look()
    assert plan.states[edge].stopped == (sequential.OUT_OF_REACH if drop else "")
    assert plan.states[open_].stopped == ""


def test_every_rows_first_look_comes_before_any_rows_later_forks():
    """A row past its first look, however near a decision, waits while a row short of its first
    look does not fit the budget left: no row ends at one or two forks for want of budget while
    another takes more."""
    plan = _plan(budget_s=math.inf)
    plan.fork_s = 1.0
    past, short = plan.rows[0], plan.rows[1]
    plan.means[(past.benchmark, past.key, "old")] = [100.0, 101.0, 99.0, 100.0]
    plan.means[(past.benchmark, past.key, "optimized")] = [90.0, 86.0, 94.0, 90.0]
    plan.means[(short.benchmark, short.key, "old")] = [100.0]
    plan.means[(short.benchmark, short.key, "optimized")] = [50.0]
    # the short row needs three more forks per side (6 s): while the budget cannot hold them,
    # the fork it has goes to the short row all the same, never to the other
    assert plan.affordable([past, short], left_s=4.0) == [short]
    assert plan.affordable([past, short], left_s=6.5) == [short]
    assert set(plan.affordable([past, short], left_s=50.0)) == {past, short}


def test_rows_short_of_their_first_look_go_in_the_order_of_the_forks_they_are_expected_to_need():
    plan = _plan(budget_s=math.inf)
    plan.fork_s = 1.0
    a, b = plan.rows[0], plan.rows[1]
    plan.expected = {a: 14, b: 3}
    for row in (a, b):
        plan.means[(row.benchmark, row.key, "old")] = [100.0]
        plan.means[(row.benchmark, row.key, "optimized")] = [80.0]
    assert plan.affordable([a, b], left_s=6.5) == [b]


def test_a_row_the_reference_puts_beyond_its_cap_gets_its_first_look_last():
    """Zip's unbuffered rows (other variants than the case's own, 3-4 forks at the reference's
    figures) before writer's primitiveFields (the case's own, 804 forks): the first looks the
    budget holds go to rows they can decide."""
    plan = _plan(budget_s=math.inf)
    plan.fork_s = 1.0
    own, other = plan.rows[0], plan.rows[1]
    plan.primary = frozenset({own})
    plan.expected = {own: 804, other: 3}
    for row in (own, other):
        plan.means[(row.benchmark, row.key, "old")] = [100.0]
        plan.means[(row.benchmark, row.key, "optimized")] = [80.0]
    assert plan.affordable([own, other], left_s=6.5) == [other]
    plan.expected = {own: 3, other: 3}
    assert plan.affordable([own, other], left_s=6.5) == [own]


def test_cases_planned_together_keep_each_rows_own_and_record_each_case_apart():
    encoder = _plan(math.inf)
    other = dataclasses.replace(ENCODER, id="other", candidate="optimized")
    second = forkplan.Plan(other, encoder.profile, [dataclasses.replace(r, benchmark=r.benchmark + "2")
                                                    for r in encoder.rows[:2]],
                           {b + "2": v for b, v in DECLARED.items()}, math.inf)
    second.expected = {second.rows[0]: 3}
    plan = forkplan.joint([encoder, second], budget_s=60.0)
    assert plan.rows == encoder.rows + second.rows and plan.budget_s == 60.0
    assert plan.expected == {second.rows[0]: 3}
    assert plan.primary == encoder.primary | second.primary
    assert [r["benchmark"] for r in plan.record(rows=second.rows)["rows"]] == [r.benchmark for r in second.rows]
    with pytest.raises(HotpathError):
        forkplan.joint([encoder, forkplan.Plan(dataclasses.replace(other, baseline="base"),
                                               encoder.profile, second.rows, {}, 1.0)], 1.0)


def _fork(kind, start_s, iterations, value=100.0, gc_share=float("nan"), slowed_s=None,
          fault_share=float("nan")):
    return steady.Fork(value, kind, start_s, iterations, 3, 0.01, mean=value * 1.1,
                       gc_share=gc_share, iteration_s=0.1, slowed_s=slowed_s, fault_share=fault_share)


def test_a_verdict_never_rests_on_forks_that_ended_before_their_sides_slowdown():
    """Old zip MAP_3K: one fork of 4 s slowed down from 2.3 s; the 2 s forks measured the level
    before it and are left out, as is one that ended 0.2 s after it; the 4 s one that stayed fast
    counts."""
    plan = _plan(budget_s=math.inf, recorded=True)
    row = plan.rows[0]
    old = [_fork("warmup", 0.5, 20, 100.0), _fork("no steady state", None, 40, 300.0, slowed_s=2.3),
           _fork("warmup", 0.5, 40, 110.0), _fork("warmup", 0.5, 25, 105.0)]
    new = [_fork("warmup", 0.5, 20, 40.0), _fork("warmup", 0.5, 20, 41.0)]
    plan.forks[(row.benchmark, row.key, "old")] = old
    plan.forks[(row.benchmark, row.key, "optimized")] = new
    plan.means[(row.benchmark, row.key, "old")] = [f.value for f in old]
    plan.means[(row.benchmark, row.key, "optimized")] = [f.value for f in new]
    assert steady.before_slowdown(old) == [True, False, False, True]
    assert plan.figures(row) == ([300.0, 110.0], [40.0, 41.0])


def test_where_the_sides_gc_time_differs_the_row_rests_on_the_mean():
    plan = _plan(budget_s=math.inf, recorded=True)
    assert plan.profile.estimate == "p10"
    row = plan.rows[0]
    sides = {"old": [_fork("flat", 0.0, 20, 100.0, gc_share=0.06)] * 2,
             "optimized": [_fork("flat", 0.0, 20, 50.0, gc_share=0.01)] * 2}
    for side, forks in sides.items():
        plan.forks[(row.benchmark, row.key, side)] = forks
        plan.means[(row.benchmark, row.key, side)] = [f.value for f in forks]
    assert plan.figures(row) == (pytest.approx([110.0, 110.0]), pytest.approx([55.0, 55.0]))  # the means
    assert rowfigures.row_estimate("p10", [0.06], [0.01])[0] == steady.MEAN
    assert rowfigures.row_estimate("p10", [0.02], [0.01]) == ("p10", "")
    assert rowfigures.row_estimate("p10", [math.nan], [0.01]) == ("p10", "")



def test_where_the_sides_page_faults_differ_the_plans_looks_rest_on_the_mean():
    plan = _plan(budget_s=math.inf, recorded=True)
    row = plan.rows[0]
    sides = {"old": [_fork("flat", 0.0, 20, 100.0, gc_share=0.01, fault_share=0.12)] * 2,
             "optimized": [_fork("flat", 0.0, 20, 50.0, gc_share=0.01, fault_share=0.0)] * 2}
    for side, forks in sides.items():
        plan.forks[(row.benchmark, row.key, side)] = forks
        plan.means[(row.benchmark, row.key, side)] = [f.value for f in forks]
    assert plan.figures(row) == (pytest.approx([110.0, 110.0]), pytest.approx([55.0, 55.0]))  # the means


def test_even_forks_give_every_open_row_a_fork_a_round_where_first_looks_would_take_a_few(tmp_path, monkeypatch):
    """Four rows, a budget of 20 forks at a second each: the default plan brings the rows whose
    first look (6 forks a side) fits to it and leaves the last behind; with even
    forks every row takes a fork a round."""
    means = {((("payload", p),), v): (100.0 if v == "old" else 60.0 + i)
             for i, p in enumerate(("STR_64", "STR_1K", "BYTES_8K", "OBJ_MAP")) for v in ("old", "optimized")}
    forks = {}
    for even in (False, True):
        clock = Clock()
        monkeypatch.setattr(rounds.time, "monotonic", clock)
        plan = _plan(budget_s=40.0, min_forks=6, cap=12)
        plan.profile = dataclasses.replace(plan.profile, even_forks=even)
        plan.fork_s = 1.0
        jmh = FakeJmh(means)
        (tmp_path / str(even)).mkdir()
        rounds.run(plan, jmh.command, tmp_path / str(even), _timed(jmh, clock), log=lambda _: None)
        forks[even] = sorted(s.forks for s in plan.states.values())
    assert forks[False][0] <= 2 and forks[False][-1] >= 6, forks
    assert forks[True][-1] - forks[True][0] <= 1 and forks[True][0] >= 3, forks


def test_the_shipped_boundaries_are_every_profile_designs_and_the_simulated_floats():
    # A render's kernels read the table instead of simulating: it must hold what the
    # simulation gives, for every design a profile's rows take.
    from hotpath.measure import profiles
    from hotpath.stats import sequential

    table = sequential._table()
    wanted = {sequential._design_key(first, cap, sequential.ALPHA, sequential.RHO)
              for first, cap in profiles.designs()}
    assert set(table) == wanted, "write it again: profiles.write_boundaries()"
    for first, cap in profiles.designs():
        shipped = sequential.boundaries(first, cap)
        assert np.array_equal(shipped, sequential.simulated_boundaries(first, cap)), (first, cap)
        assert shipped.dtype == np.float64 and len(shipped) == cap - first + 1


def test_a_design_the_table_does_not_hold_is_simulated(tmp_path, monkeypatch):
    from hotpath.stats import sequential

    monkeypatch.setattr(sequential, "TABLE", tmp_path / "missing.json")
    sequential._table.cache_clear()
    try:
        assert sequential._table() == {}
        assert np.array_equal(sequential.boundaries.__wrapped__(4, 8), sequential.simulated_boundaries(4, 8))
        (tmp_path / "missing.json").write_text('{"paths": 1, "seed": 2, "designs": {"4 8 0.05 1.0": [1.0]}}')
        sequential._table.cache_clear()
        assert sequential._table() == {}  # made with other paths: not this simulation's
    finally:
        sequential._table.cache_clear()
