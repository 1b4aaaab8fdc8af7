"""The host-speed probe set beside the code's time: a host step it sees, a code slowdown it does not."""

import math

import numpy as np
import pandas as pd
import pytest

from hotpath.analyze import hostspeed
from hotpath.jmh import RowKey
from hotpath.records import PROBE_METRIC, full_speed, slow_probes
from hotpath.render import forks, noise

BENCH = "hotpath.encoder.EncoderPayloadBenchmark.encode"
FAST_PROBE = 91.0


def frame(time_forks, probe_forks, variant="old", unit="ns/op", params="payload=STR_64"):
    base = {"benchmark": BENCH, "params": params, "variant": variant, "unit": unit}
    return pd.DataFrame([{**base, "metric": "score", "raw": [list(f) for f in time_forks]},
                         {**base, "metric": PROBE_METRIC, "unit": "us",
                          "raw": [list(f) for f in probe_forks]}])


def quiet(n=30, level=100.0, seed=1):
    rng = np.random.default_rng(seed)
    return level * (1 + 0.01 * rng.random(n)), FAST_PROBE * (1 + 0.005 * rng.random(n))


def test_a_fork_mostly_in_a_host_step_keeps_its_fast_level_by_the_probe():
    t, p = quiet()
    step = np.where(np.arange(len(t)) >= 2, 1.9, 1.0)  # the host 1.9x slow from 0.2 s to the end
    found = hostspeed.sides(frame([t * step], [p * step]))
    [side] = found
    fastest = hostspeed.fastest_probe(found)
    raw = hostspeed.fork_figure(side.times[0], side.probes[0], hostspeed.RAW, fastest)
    near = hostspeed.fork_figure(side.times[0], side.probes[0], hostspeed.NEAR, fastest)
    assert raw > 1.8 * 100  # the 10th percentile alone sits on the step
    assert near == pytest.approx(100, rel=0.02)
    assert hostspeed.per_side(found)["within_r"].iloc[0] > 0.95


def test_a_code_slowdown_the_probe_does_not_see_stays_in_the_figure():
    t, p = quiet()
    faults = np.where(np.arange(len(t)) >= 2, 1.6, 1.0)  # page faults: the code alone slows
    found = hostspeed.sides(frame([t * faults], [p]))
    fastest = hostspeed.fastest_probe(found)
    [side] = found
    for how in hostspeed.ESTIMATES:
        assert hostspeed.fork_figure(side.times[0], side.probes[0], how, fastest) > 1.55 * 100


def test_steps_across_forks_spread_the_p10_and_not_the_estimate_near_the_fastest_probe():
    times, probes = [], []
    for k in range(6):
        t, p = quiet(seed=k)
        step = np.where(np.arange(len(t)) >= (2 if k % 2 else 40), 2.0, 1.0)
        times.append(t * step)
        probes.append(p * step)
    table = hostspeed.per_side(hostspeed.sides(frame(times, probes)))
    assert table[hostspeed.RAW].iloc[0] > 0.3
    assert table[hostspeed.NEAR].iloc[0] < 0.02


def test_traces_count_the_iterations_the_host_ran_slow():
    t, p = quiet(n=20)
    step = np.where(np.arange(20) >= 15, 1.8, 1.0)
    traces = hostspeed.traces(frame([t * step, t], [p * step, p]))
    trace = traces[RowKey.of(BENCH, "payload=STR_64", "old")]
    assert (trace.iterations, trace.slow) == (40, 5)
    assert trace.slow_median == pytest.approx(1.8, rel=0.02)
    row = pd.Series({"benchmark": BENCH, "params": "payload=STR_64", "baseline": "old", "candidate": "new"})
    assert forks.host(row, traces) == "1.1× slow or more in 5 of 40 iterations (1.8× at their median)"
    assert forks.host(row, hostspeed.traces(frame([t], [p]))) == "full speed"


def test_the_run_and_each_row_side_count_slow_iterations_by_one_rule():
    t, p = quiet(n=20)
    step = np.where(np.arange(20) >= 15, 1.8, 1.0)
    run = frame([t * step, t], [p * step, p])
    probes = hostspeed.probes(run)
    whole = hostspeed.slow_iterations(probes)
    [trace] = hostspeed.traces(run).values()
    assert (whole.iterations, whole.slow, whole.slow_median) == (trace.iterations, trace.slow,
                                                                 trace.slow_median)
    assert whole.slow / whole.iterations == hostspeed.pooled(hostspeed.sides(run))["slow_share"]
    assert noise.host_speed(probes).endswith(f"around 12% of the 40 counted iterations "
                                             f"({whole.slow_median:.1f}× at their median).")
    assert hostspeed.slow_iterations(()).iterations == 0 and noise.host_speed(()) == ""


def test_a_burst_faster_than_the_host_holds_does_not_make_its_usual_speed_slow():
    # as the Intel Xeon of 2026-11-30 23:10 ran: 4% of probes 17% faster than the host's usual
    # speed, which against their minimum would read slow beside every other iteration
    usual = [87.6] * 960
    burst = [72.5] * 40
    assert full_speed(usual + burst) == pytest.approx(87.6)
    assert hostspeed.slow_iterations(tuple(usual + burst)).slow == 0
    assert slow_probes(usual, min(usual + burst)).slow == 960  # what the minimum made of it
    # slowed for a third of its iterations, a run still reads slow there
    slowed = tuple([87.0] * 600 + [115.0] * 300 + [72.5] * 40)
    assert hostspeed.slow_iterations(slowed).slow == 300


def test_the_full_speed_is_the_probes_tenth_percentile():
    assert full_speed(range(1, 102)) == pytest.approx(11.0)
    assert full_speed([90.0]) == 90.0 and math.isnan(full_speed([]))


def test_throughput_is_turned_into_time_per_op_and_runs_without_a_probe_have_no_sides():
    t, p = quiet()
    [side] = hostspeed.sides(frame([1e3 / t], [p], unit="ops/us"))
    assert side.times[0] == pytest.approx(t / 1e3)
    no_probe = frame([t], [p]).iloc[:1]
    assert hostspeed.sides(no_probe) == [] and hostspeed.traces(no_probe) == {}


def test_forks_whose_probe_and_time_disagree_in_length_are_left_out():
    t, p = quiet()
    found = hostspeed.sides(frame([t, t], [p, p[:-1]]))
    assert len(found[0].times) == 1
    assert math.isnan(hostspeed.fork_cv([1.0, 2.0]))  # two forks give no spread worth the name
