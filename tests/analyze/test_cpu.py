"""Where the time went, on CPU samples made to a known answer: frames' times per op add up to
the row's, the frame that changed is decided and the others are not, the collector's and the
compiler's threads stay apart, and a mechanism's share of the change comes with its interval."""

import numpy as np
import pandas as pd
import pytest

from hotpath.analyze import cpu
from hotpath.errors import ResultsError

from cpu_samples import BENCH, STUB, WORKER, write_profiles


@pytest.fixture
def profiles(tmp_path):
    return cpu.read_file(write_profiles(tmp_path / "x.cpu.json"))


def test_threads_are_told_apart_by_their_names():
    assert cpu.thread_of(f"{WORKER};{STUB}") == cpu.BENCHMARK
    assert cpu.thread_of("[GC Thread#3];x") == cpu.GC
    assert cpu.thread_of("[G1 Conc#0];x") == cpu.GC
    assert cpu.thread_of("[C2 CompilerThread1];x") == cpu.JIT
    assert cpu.thread_of("[VM Thread];VMThread::run;VM_G1CollectForAllocation::doit") == cpu.GC
    assert cpu.thread_of("[VM Thread];VMThread::run;SafepointSynchronize::begin") == cpu.OTHER


def test_frames_are_named_as_the_sites_are():
    assert cpu.frame_name("java/util/Arrays.copyOf") == "Arrays.copyOf"
    assert cpu.frame_name("clear_page_erms_[k]") == "clear_page_erms [kernel]"
    assert cpu.frame_name("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13") == "libz.so.1.2.13"
    assert cpu.frame_name("hotpath/x/OldCodec.encode", ("old", "optimized")) == "Codec.encode"


def test_the_frames_self_times_add_up_to_the_rows_time(profiles):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    for s in (a.old, a.new):
        np.testing.assert_allclose(s.self_ns.sum(axis=0).to_numpy(), s.time_ns)
    assert a.time.delta == pytest.approx(a.new.time_ns.mean() - a.old.time_ns.mean())


def test_the_copy_that_went_is_decided_and_the_frame_that_stayed_is_not(profiles):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    decided = set(a.decided("self")["frame"])
    assert "Arrays.copyOf" in decided
    assert "Checksum.update" not in decided
    copy = a.frames[(a.frames["how"] == "self") & (a.frames["frame"] == "Arrays.copyOf")].iloc[0]
    assert copy["old_ns"] == pytest.approx(90, rel=0.06)
    assert copy["new_ns"] == 0
    assert copy["low_ns"] < copy["delta_ns"] < copy["high_ns"] < 0
    # 90 of the 90 ns saved: the copy explains the change, within its interval
    assert copy["share_low"] < copy["share"] < copy["share_high"]
    assert 0.75 < copy["share"] < 1.1


def test_a_frame_and_its_callees_count_once_as_total(profiles):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    total = a.frames[(a.frames["how"] == "total") & (a.frames["frame"] == "Codec.encode")].iloc[0]
    # every sample of the worker passes through encode: its total is the row's time
    assert total["old_ns"] == pytest.approx(a.old.time_ns.mean())
    assert total["new_ns"] == pytest.approx(a.new.time_ns.mean())


def test_the_collector_and_the_compiler_are_apart_from_the_code(profiles):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    # GC Thread 30 + the VM thread's collection 3 samples a fork, 10 ms each, over its ops
    ops = np.array([f["ops"] for f in profiles.entry(BENCH, "payload=STR_1K", "old")["forks"]])
    assert a.gc.old == pytest.approx(np.mean(33 * 1e7 / ops))
    assert a.jit.old == pytest.approx(np.mean(5 * 1e7 / ops))
    assert not any("G1" in f or "C2" in f for f in a.frames["frame"])


def test_coverage_is_the_threads_cpu_clock_against_the_time(profiles):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    assert a.old.clocked
    np.testing.assert_allclose(a.old.coverage, 0.99, rtol=1e-4)
    assert cpu.coverage_note(a.old) == ""
    waited = cpu.Side(*(getattr(a.old, f) for f in ("time_ns", "samples", "gc_ns", "jit_ns")),
                      a.old.coverage * 0.7, a.old.self_ns, a.old.total_ns, clocked=True)
    assert "on the CPU for 69% of its time" in cpu.coverage_note(waited)
    # 31% of 200 ns waited, 62 ns/op, against the collector's 33 samples of 10 ms a fork: less
    # than half of it, so the collector is ruled out
    assert "not for the collector" in cpu.coverage_note(waited)
    collected = cpu.Side(waited.time_ns, waited.samples, waited.gc_ns * 10, waited.jit_ns,
                         waited.coverage, waited.self_ns, waited.total_ns, clocked=True)
    assert "its pauses stop the thread" in cpu.coverage_note(collected)


def test_without_the_clock_the_samples_give_the_coverage_and_the_note_says_so(profiles):
    entry = profiles.entry(BENCH, "payload=STR_1K", "old")
    unclocked = {**entry, "forks": [{k: v for k, v in f.items() if k != "cpu_ns"} for f in entry["forks"]]}
    s = cpu.side(unclocked)
    assert not s.clocked
    np.testing.assert_allclose(s.coverage, 0.97, rtol=1e-4)
    short = cpu.Side(s.time_ns, s.samples, s.gc_ns, s.jit_ns, s.coverage * 0.9, s.self_ns, s.total_ns)
    assert "samples account for 87%" in cpu.coverage_note(short)
    assert "clock was not read" in cpu.coverage_note(short)


def test_a_mechanism_is_its_frames_counted_self_or_total(profiles):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    for how in (cpu.SELF, cpu.TOTAL):
        m = cpu.mechanism(a, r"Arrays\.copyOf", how)
        assert m.change.delta == pytest.approx(-90, rel=0.06)
        assert m.part.low < m.part.share < m.part.high
        # 90 of old's 200 ns/op in the copy, none of the new side's
        assert m.held_old == pytest.approx(0.45, abs=0.03) and m.held_new == 0
    # encode's own code (self) is what is left of it: the copy and the checksum are its callees'
    own = cpu.mechanism(a, r"Codec\.encode", cpu.SELF)
    assert own.held_old == pytest.approx(1 - 0.45 - 25 / 200, abs=0.03)


@pytest.mark.parametrize("how, pattern", [(cpu.SELF, "."), (cpu.TOTAL, "."),
                                          (cpu.TOTAL, r"Codec\.encode"),
                                          (cpu.TOTAL, r"CodecBenchmark")])
def test_frames_that_hold_most_of_both_sides_are_refused_as_a_callers(profiles, how, pattern):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    with pytest.raises(cpu.UnspecificFrames, match="name code both sides spend most of their time in"):
        cpu.mechanism(a, pattern, how)


def test_a_mechanism_in_no_sample_is_not_found(profiles):
    a = cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "optimized")
    m = cpu.mechanism(a, r"Nowhere\.toBeFound", cpu.TOTAL)
    assert not m.found and m.change.delta == 0
    with pytest.raises(ValueError, match="'self' or 'total'"):
        cpu.mechanism(a, "x", "leaf")


def test_a_side_without_samples_is_a_clear_error(profiles):
    with pytest.raises(ResultsError, match="no CPU samples of buffered"):
        cpu.attribute(profiles, BENCH, "payload=STR_1K", "old", "buffered")


def test_a_corrupt_file_is_a_clear_error(tmp_path):
    path = tmp_path / "x.cpu.json"
    path.write_text('{"format": ')
    with pytest.raises(ResultsError, match="corrupt"):
        cpu.read_file(path)
    path.write_text('{"format": "something else"}')
    with pytest.raises(ResultsError, match="not a file of CPU samples"):
        cpu.read_file(path)


def test_no_file_beside_the_results_is_no_profile(tmp_path):
    assert not cpu.read(tmp_path / "x.json").measured


def test_rows_count_their_frames_tested_and_called(profiles):
    pairs = pd.DataFrame([{"benchmark": BENCH, "params": "payload=STR_1K", "baseline": "old",
                           "candidate": "optimized", "verdict": "faster"},
                          {"benchmark": BENCH, "params": "payload=STR_64", "baseline": "old",
                           "candidate": "optimized", "verdict": "same"}])
    t = cpu.frames_called(profiles, pairs)
    # the row not sampled is not counted
    assert list(t["params"]) == ["payload=STR_1K"]
    assert 1 <= t.loc[0, "called"] <= t.loc[0, "tested"]
    assert t.loc[0, "verdict"] == "faster"


def test_a_reports_sampled_rows_carry_their_frames_as_values(profiles):
    pairs = pd.DataFrame([{"benchmark": BENCH, "params": "payload=STR_1K", "baseline": "old",
                           "candidate": "optimized"},
                          {"benchmark": BENCH, "params": "payload=STR_64", "baseline": "old",
                           "candidate": "optimized"}])
    row, = cpu.sampled_rows(pairs, profiles)  # the row not sampled is left out
    assert row.pair["params"] == "payload=STR_1K" and row.why_not == ""
    assert row.own_forks  # entries without a tail: sampled in forks of their own, as make cpu does
    table = row.attribution.frames[row.attribution.frames["how"] == "self"]
    assert [f.name for f in row.frames] == list(table["frame"])
    copy = next(f for f in row.frames if f.name == "Arrays.copyOf")
    assert copy.decided and copy.change.delta < 0 and copy.change.low <= copy.change.delta <= copy.change.high
    assert row.frames[0].decided  # the decided first


def test_a_sampled_row_whose_samples_cannot_be_divided_says_why(profiles):
    entry = profiles.entry(BENCH, "payload=STR_1K", "optimized")
    broken = {**entry, "forks": [{**f, "samples": []} for f in entry["forks"]]}
    sides = profiles.sides.assign(entry=[broken if e is entry else e for e in profiles.sides["entry"]])
    pairs = pd.DataFrame([{"benchmark": BENCH, "params": "payload=STR_1K", "baseline": "old",
                           "candidate": "optimized"}])
    row, = cpu.sampled_rows(pairs, cpu.Profiles(None, sides))
    assert row.attribution is None and row.frames == ()
    assert row.why_not.startswith("a fork without samples of the benchmark's thread")


def test_a_sides_leading_frames_are_its_largest_shares(profiles):
    top = cpu.leading(profiles, BENCH, "payload=STR_1K", "old", 2)
    assert [name for name, _ in top] == ["Arrays.copyOf", "OldCodec.encode"]
    assert top[0][1] == pytest.approx(0.45, abs=0.03)
    assert cpu.leading(profiles, BENCH, "payload=STR_1K", "buffered") == []


def test_on_the_cpu_basis_the_frames_divide_the_threads_cpu_per_op(profiles):
    entry = profiles.entry(BENCH, "payload=STR_1K", "old")
    by_time, by_cpu = cpu.side(entry), cpu.side(entry, basis=cpu.CPU)
    # the test data's thread was on the CPU 99% of each fork's time
    np.testing.assert_allclose(by_cpu.time_ns, 0.99 * by_time.time_ns, rtol=1e-6)
    np.testing.assert_allclose(by_cpu.self_ns.sum(axis=0).to_numpy(), by_cpu.time_ns)
    unclocked = {**entry, "forks": [{k: v for k, v in f.items() if k != "cpu_ns"} for f in entry["forks"]]}
    with pytest.raises(ResultsError, match="CPU clock"):
        cpu.side(unclocked, basis=cpu.CPU)


def test_a_tails_coverage_sets_the_clock_against_the_tails_own_time(profiles):
    # a timed fork's tail ran 2% slower than its counted iterations (the sampler's starts):
    # its CPU is set against the tail's time, and the frames divide the counted time
    entry = profiles.entry(BENCH, "payload=STR_1K", "old")
    tailed = {**entry, "forks": [{**f, "tail": 3, "sampled_time_ns": 1.02 * f["time_ns"],
                                  "cpu_ns": 1.02 * f["cpu_ns"]} for f in entry["forks"]]}
    plain, tail = cpu.side(entry), cpu.side(tailed)
    np.testing.assert_allclose(tail.coverage, plain.coverage, rtol=1e-9)
    np.testing.assert_allclose(tail.time_ns, plain.time_ns)
    np.testing.assert_allclose(tail.self_ns.sum(axis=0).to_numpy(), plain.time_ns)


def _tailed(profiles, variant, slower=None, by=1.0):
    """A side's entry as a timed fork's: each fork's tail 2% slower than its counted time (the
    sampler's starts), the forks ``slower`` ``by`` times slower still."""
    entry = profiles.entry(BENCH, "payload=STR_1K", variant)
    return {**entry, "tail": 3, "forks": [
        {**f, "tail": 3, "sampled_time_ns": 1.02 * f["time_ns"] * (by if k in (slower or ()) else 1)}
        for k, f in enumerate(entry["forks"])]}


def _with(profiles, old, new):
    sides = profiles.sides.copy()
    sides["entry"] = [old if v == "old" else new for v in sides["variant"]]
    return cpu.Profiles(profiles.source, sides)


def test_a_fork_whose_tail_ran_apart_from_its_counted_time_is_set_aside(profiles):
    kept = cpu.attribute(_with(profiles, _tailed(profiles, "old"), _tailed(profiles, "optimized")),
                         BENCH, "payload=STR_1K", "old", "optimized")
    assert kept.set_aside == ((), ()) and kept.old.forks == 5
    # the forks spread by about 4% (log sd): a tail 1.5x its counted time is past 3 spreads and 10%
    assert np.log1p(cpu.TAIL_FLOOR) <= kept.tail_tolerance < np.log(1.5)
    apart = cpu.attribute(_with(profiles, _tailed(profiles, "old", {1}, 1.5), _tailed(profiles, "optimized")),
                          BENCH, "payload=STR_1K", "old", "optimized")
    assert apart.set_aside == ((1,), ()) and apart.old.forks == 4 and apart.new.forks == 5
    # what the row's time and every frame sum is then the four kept forks'
    assert apart.time.old == pytest.approx(np.delete(kept.old.time_ns, 1).mean())
    # a tail 8% apart is within the floor: kept
    near = cpu.attribute(_with(profiles, _tailed(profiles, "old", {1}, 1.06), _tailed(profiles, "optimized")),
                         BENCH, "payload=STR_1K", "old", "optimized")
    assert near.set_aside == ((), ())


def test_forks_too_few_to_tell_their_spread_are_never_set_aside(profiles):
    # every old tail twice its counted time: setting them aside would leave nothing to attribute
    every = cpu.attribute(_with(profiles, _tailed(profiles, "old", set(range(5)), 2.0),
                                _tailed(profiles, "optimized")), BENCH, "payload=STR_1K", "old", "optimized")
    assert every.set_aside == ((), ()) and every.old.forks == 5
    # nor where a side would keep one fork, or the row's forks give no spread
    entries = [_tailed(profiles, "old", {0, 1, 2, 3}, 2.0), _tailed(profiles, "optimized")]
    assert cpu.tails_apart(entries)[0] == [(), ()]
    one = [{**e, "forks": e["forks"][:1]} for e in (_tailed(profiles, "old", {0}, 2.0), _tailed(profiles, "optimized"))]
    assert cpu.tails_apart(one)[0] == [(), ()]


def test_the_rows_time_line_says_the_forks_set_aside_and_where_the_verdict_parts_from_it(profiles):
    from hotpath.render import cpu as render

    a = cpu.attribute(_with(profiles, _tailed(profiles, "old", {1}, 1.5), _tailed(profiles, "optimized")),
                      BENCH, "payload=STR_1K", "old", "optimized")
    row = pd.Series({"baseline": "old", "candidate": "optimized", "unit": "ns/op",
                     "old_score": a.time.old, "new_score": a.time.new,
                     "estimate": "each fork's mean over its counted iterations"})
    line = render.time_line(row, a)
    assert "set aside, their tail more than 1" in line and "1 of old's 5 forks" in line
    assert "verdict" not in line
    # a verdict 10% off the frames' time says why; one from other forks says so
    off = render.time_line(pd.Series({**row.to_dict(), "old_score": 1.1 * a.time.old}), a)
    assert "the verdict's" in off and "geometric mean of each fork's mean over its counted" in off
    assert "are other forks'" in render.time_line(row, a, own_forks=True)
