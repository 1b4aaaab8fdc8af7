"""A design replayed on recorded forks: known answers on a made-up run, the A/A profile on the
2026-11-26 A/A's forks, and what a replay refuses."""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from hotpath.errors import HotpathError, UnknownNameError
from hotpath.measure import replay
from hotpath.measure.profiles import get_profile, with_settings
from hotpath.paths import AA_CALIBRATION

BENCH = "hotpath.x.XBenchmark.run"
SIDES = ("a", "b")


def _entry(case: str, forks: list[list[float]], warmup: int = 0) -> dict:
    return {"benchmark": BENCH, "mode": "avgt", "params": {"case": case},
            "warmupIterations": warmup, "measurementIterations": len(forks[0]),
            "measurementTime": "100 ms",
            "primaryMetric": {"scoreUnit": "ns/op", "rawData": forks}, "secondaryMetrics": {}}


def _run(folder: Path, levels: dict[str, tuple[float, float]], warmup: int = 0) -> Path:
    """A two-sided run's folder: per row (param ``case``) the two sides' fork levels, eight
    forks of 30 flat iterations each, the forks 1% apart."""
    rng = np.random.default_rng(5)
    results = {role: [] for role in ("baseline", "candidate")}
    for case, pair in levels.items():
        for role, level in zip(results, pair):
            forks = [list(level * rng.lognormal(0, 0.01) * rng.lognormal(0, 0.005, 30)) for _ in range(8)]
            results[role].append(_entry(case, forks, warmup))
    for role, entries in results.items():
        (folder / f"{role}.json").write_text(json.dumps(entries))
    (folder / "ab.json").write_text(json.dumps({
        "sides": {"baseline": {"name": SIDES[0]}, "candidate": {"name": SIDES[1]}},
        "sequential": {"recorded": {"iteration_s": 0.1, "overhead_s": 1.0},
                       "rows": [{"benchmark": BENCH, "params": f"case={c}", "candidate": SIDES[1],
                                 "cap": 8} for c in levels]}}))
    return folder


AA = dataclasses.replace(get_profile("aa"), forks=8)


def test_a_replay_decides_what_its_forks_show(tmp_path):
    run = replay.load(_run(tmp_path, {"flat": (100.0, 100.0), "halved": (100.0, 50.0)}))
    outcome = replay.replay(run, AA, budget_s=600, seed=1)
    assert outcome.verdicts == {"same": 1, "faster": 1}
    # both rows decide at their first look, four forks per side; the clock moves by each fork's
    # start (1 s) and iterations: the scouts drawn whole (3 s, shorter than the 4 s asked), the
    # later forks cut to what the plan chose (at least 1 s)
    assert outcome.forks_run == 16
    assert 4 * (1 + 3) + 12 * (1 + 1) <= outcome.spent_s < 16 * (1 + 3)


def test_a_short_budget_leaves_rows_undecided(tmp_path):
    run = replay.load(_run(tmp_path, {"flat": (100.0, 100.0), "halved": (100.0, 50.0)}))
    outcome = replay.replay(run, AA, budget_s=30, seed=1)
    assert outcome.stopped["budget"] == 2 and outcome.verdicts == {"undecided": 2}


def test_same_code_draws_either_sides_forks(tmp_path):
    # the sides differ by 10%: drawn apart, a replay finds the difference; drawn as the same
    # code, it finds none
    run = replay.load(_run(tmp_path, {"apart": (100.0, 110.0)}))
    assert replay.replay(run, AA, budget_s=600).verdicts == {"slower": 1}
    assert replay.replay(run, AA, budget_s=600, same_code=True).verdicts != {"slower": 1}


def test_the_aa_profile_spends_its_budget_on_the_committed_forks():
    # Closing rows out of reach (quick's rule) left a third of the A/A's 90 minutes unspent.
    run = replay.load(AA_CALIBRATION)
    profile = get_profile("aa")
    outcome = replay.replay(run, profile, budget_s=5400, seed=0, same_code=True)
    assert outcome.spent_s >= 0.95 * 5400
    assert outcome.false_alarms <= 3
    closing = replay.replay(run, with_settings(profile, ["drop_out_of_reach=true"]), budget_s=5400,
                            seed=0, same_code=True)
    assert closing.spent_s < 0.8 * 5400
    assert closing.verdicts["same"] < outcome.verdicts["same"]


def test_a_replay_refuses_unrecorded_forks_and_other_folders(tmp_path):
    with pytest.raises(HotpathError, match="unrecorded warmup"):
        replay.load(_run(tmp_path, {"flat": (100.0, 100.0)}, warmup=3))
    with pytest.raises(HotpathError, match="not a two-sided run's folder"):
        replay.load(tmp_path / "missing")
    with pytest.raises(HotpathError, match="unrecorded forks"):
        replay.replay(replay.load(_run(tmp_path, {"flat": (100.0, 100.0)})),
                      with_settings(get_profile("full"), ["recorded=false"]), budget_s=60)


def test_profile_settings_take_the_fields_types():
    p = with_settings(get_profile("aa"), ["forks=48", "drop_out_of_reach=true", "max_steady_s=1.5",
                                          "budget=2h", "max_steady_s=none"])
    assert (p.forks, p.drop_out_of_reach, p.max_steady_s, p.budget) == (48, True, None, "2h")
    for bad in ("forks=many", "nosuch=1", "forks", "drop_out_of_reach=maybe"):
        with pytest.raises(UnknownNameError):
            with_settings(get_profile("aa"), [bad])


def test_the_bound_counts_the_cheapest_rows_the_budget_holds(tmp_path):
    # two rows of identical, tight forks (1% apart): each needs the first look, four forks per
    # side of 1 s start + 3 s recorded, 32 s a row
    run = replay.load(_run(tmp_path, {"one": (100.0, 100.0), "two": (50.0, 50.0)}))
    assert replay.bound(run, AA, budget_s=64) == 2
    assert replay.bound(run, AA, budget_s=63) == 1
    assert replay.bound(run, AA, budget_s=31) == 0


def test_a_passs_own_settings_are_set_by_its_name_and_theirs():
    p = with_settings(get_profile("quick"), ["memory.forks=2", "cpu.interval_ns=10000000", "memory.sites=false"])
    assert (p.memory.forks, p.cpu.interval_ns, p.memory.sites) == (2, 10_000_000, False)
    assert p.cpu.iterations == get_profile("quick").cpu.iterations
    for bad in ("memory.nope=1", "forks.x=1", "memory=1"):
        with pytest.raises(UnknownNameError):
            with_settings(get_profile("quick"), [bad])
