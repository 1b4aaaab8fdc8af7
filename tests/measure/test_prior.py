"""A row's first fork from the study's committed recorded forks of it: the longest a fork may
run where they slowed down later than a scout could see, else the scout; no figure taken."""

import json

import pytest

from hotpath.stats import steady
from hotpath.cases import get_case
from hotpath.errors import HotpathError
from hotpath.measure import forkplan, interleave, prior
from hotpath.measure.profiles import get_profile

QUICK = get_profile("quick")
MOST = round(QUICK.max_fork_s / QUICK.iteration_s)
ZIP = get_case("zip")
LISTING = """Benchmarks:
hotpath.zip.ZipMarshalBenchmark.marshalZip
  param "payload" = {MAP_1600B, MAP_3K, MAP_132K, LIST_1660K}
  param "variant" = {old, buffered, unbuffered}
"""
DECLARED = interleave.declared_params(LISTING)
BENCH = "hotpath.zip.ZipMarshalBenchmark.marshalZip"
MAP = (BENCH, (("payload", "MAP_1600B"),))


def entry(payload, variant, forks):
    """A JMH entry recorded from its start (100 ms iterations, no warmup)."""
    return {"benchmark": BENCH, "mode": "avgt", "forks": len(forks), "warmupIterations": 0,
            "measurementIterations": len(forks[0]), "measurementTime": "100 ms",
            "params": {"payload": payload, "variant": variant},
            "primaryMetric": {"score": 1.0, "scoreUnit": "us/op", "rawData": forks}}


def slows_down(at, n=60):
    """About 95 µs/op, then 300 from iteration ``at`` on: old zip's MAP_1600B."""
    return [95.0 + (i % 3) * 0.5 if i < at else 300.0 + (i % 3) for i in range(n)]


def flat(n=40, level=18.0):
    return [level + (i % 3) * 0.1 for i in range(n)]


def committed(tmp_path, monkeypatch, entries):
    monkeypatch.setattr(prior, "ROOT", tmp_path)
    (tmp_path / "aa.json").write_text(json.dumps(entries), encoding="utf-8")
    return prior.forks(("aa.json",))


def plan(known, profile=QUICK):
    rows = [r for r in forkplan.plan_rows(ZIP, profile, DECLARED) if r.benchmark == BENCH]
    return forkplan.Plan(ZIP, profile, rows, DECLARED, 420.0, prior=known)


def row(p, payload):
    return next(r for r in p.rows if dict(r.params)["payload"] == payload)


def test_a_slowdown_later_than_a_scout_sees_makes_the_first_fork_the_longest(tmp_path, monkeypatch):
    known = committed(tmp_path, monkeypatch, [entry("MAP_1600B", "old", [slows_down(20)] * 4)])
    assert [f.kind for f in known[MAP]] == [steady.SLOWDOWN] * 4 and known[MAP][0].start_s == 2.0
    p = plan(known)
    assert p.iterations(row(p, "MAP_1600B")) == MOST > QUICK.scout_iterations
    assert "4 of the committed run's 4 forks slowed down from 2.0 s" in p.firsts[row(p, "MAP_1600B")].why
    recorded = {r["params"]: r for r in p.record()["rows"]}
    assert recorded["payload=MAP_1600B"]["first_fork_iterations"] == MOST
    assert "first_fork_iterations" not in recorded["payload=LIST_1660K"]


def test_a_slowdown_the_scout_itself_finds_leaves_the_scout(tmp_path, monkeypatch):
    # from 1.0 s: half of a 2 s scout is steady, so the scout finds it and its row goes on from there
    known = committed(tmp_path, monkeypatch, [entry("MAP_1600B", "old", [slows_down(10)] * 4)])
    assert {f.kind for f in known[MAP]} == {steady.SLOWDOWN}
    p = plan(known)
    assert p.iterations(row(p, "MAP_1600B")) == QUICK.scout_iterations and p.firsts == {}


def test_one_late_slowdown_in_four_forks_leaves_the_scout(tmp_path, monkeypatch):
    known = committed(tmp_path, monkeypatch,
                      [entry("MAP_1600B", "old", [slows_down(20)] + [flat(60, 250.0)] * 3)])
    assert plan(known).firsts == {}


def test_rows_that_settled_or_are_not_committed_keep_the_scout(tmp_path, monkeypatch):
    known = committed(tmp_path, monkeypatch, [entry("MAP_1600B", "old", [flat(level=250.0)] * 4),
                                              entry("MAP_1600B", "buffered", [flat()] * 4)])
    p = plan(known)
    for payload in ("MAP_1600B", "LIST_1660K"):
        assert p.iterations(row(p, payload)) == QUICK.scout_iterations
    assert p.firsts == {}


def test_the_first_round_is_costed_at_the_first_forks_it_will_run(tmp_path, monkeypatch):
    known = committed(tmp_path, monkeypatch, [entry("MAP_1600B", "old", [slows_down(20)] * 4)])
    # MAP_1600B's sides: old, once for its two rows, longer; buffered and unbuffered scouts,
    # since the committed forks that slowed down were old's
    extra = 1 * (QUICK.max_fork_s - QUICK.scout_s)
    p = plan(known)
    assert p.first_round_s() == pytest.approx(plan({}).first_round_s() + extra)
    assert p.iterations(row(p, "MAP_1600B"), "old") == MOST
    assert p.iterations(row(p, "MAP_1600B"), "buffered") == QUICK.scout_iterations


def test_the_committed_forks_set_the_first_fork_only(tmp_path, monkeypatch):
    p = plan(committed(tmp_path, monkeypatch, [entry("MAP_1600B", "old", [slows_down(20)] * 4)]))
    assert p.means == {} and p.forks == {}
    # after a round the row's own forks choose: these settled at once
    own = [steady.Fork(18.0, steady.FLAT, 0.0, 40, 0, 0.01)]
    for side in ("old", "buffered"):
        p.forks[(*MAP, side)] = own
    p.choose_lengths()
    assert p.iterations(row(p, "MAP_1600B")) < MOST


def test_only_the_side_that_slowed_down_runs_the_longest_forks(tmp_path, monkeypatch):
    """Old slowed down, buffered settled: old's next forks are as long as a fork may run, and
    buffered's as its own steady state asks (the issue: "that side's later forks")."""
    p = plan({})
    old = steady.Fork(200.0, steady.NO_STEADY_STATE, None, 40, 24, 0.05, slowed_s=2.0, iteration_s=0.1)
    settled = steady.Fork(18.0, steady.WARMUP, 0.5, 20, 5, 0.01, iteration_s=0.1)
    p.forks[(*MAP, "old")] = [old]
    p.forks[(*MAP, "buffered")] = [settled]
    p.choose_lengths()
    r = row(p, "MAP_1600B")
    assert p.iterations(r, "old") == MOST and p.iterations(r) == MOST
    assert p.iterations(r, "buffered") < MOST
    assert p.fork_cost_s(r) < p.fork_cost_s(r, "old")
    assert p.record()["rows"][[x["candidate"] for x in p.record()["rows"]].index("buffered")][
        "side_fork_iterations"]["buffered"] == p.iterations(r, "buffered")


def test_no_committed_file_means_scouts_and_a_corrupt_one_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(prior, "ROOT", tmp_path)
    assert prior.forks(("missing.json",)) == {}
    (tmp_path / "aa.json").write_text('[{"benchmark": ', encoding="utf-8")
    with pytest.raises(HotpathError, match="aa.json.*cannot be read"):
        prior.forks(("aa.json",))


def test_only_quick_takes_first_forks_from_the_committed_a_a():
    assert QUICK.prior_runs
    for name in ("full", "matrix", "aa", "ab", "smoke"):
        assert get_profile(name).prior_runs == ()


def test_quicks_zip_map_1600b_starts_with_its_longest_fork_from_the_committed_a_a():
    # real forks: data/aa-runs/2026-11-26/, old zip's MAP_1600B slowing down at 1.9-2.0 s in 3 of 8
    known = prior.forks(QUICK.prior_runs)
    assert sum(f.kind == steady.SLOWDOWN for f in known[MAP]) == 3 and len(known[MAP]) == 8
    p = plan(known)
    assert p.iterations(row(p, "MAP_1600B")) == MOST
    assert p.iterations(row(p, "LIST_1660K")) == QUICK.scout_iterations
