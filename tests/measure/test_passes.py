"""Timing forks carry nothing that hooks allocations; native bytes come from a memory pass."""

import json
from dataclasses import replace

import pytest

from hotpath import machine
from hotpath.measure import bench, memory
from hotpath.analyze import load
from hotpath.cases import CASES
from hotpath.errors import HotpathError
from hotpath.paths import JAR
from hotpath.measure.profiles import PROFILES, Profile, hooks_allocations


@pytest.mark.parametrize("profile", PROFILES.values(), ids=list(PROFILES))
@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
def test_no_timing_command_carries_an_allocation_hooking_profiler(tmp_path, profile, case):
    timed = bench.timing_command(case, profile, JAR, tmp_path / "x.json")
    profilers = [timed[i + 1] for i, a in enumerate(timed) if a == "-prof"]
    assert profilers == ["gc", "hotpath.profiler.PageFaultProfiler",
                         "hotpath.profiler.HostSpeedProfiler"]  # cheap counters alone
    assert not any(hooks_allocations(a) for a in profile.jmh_args(forks=1))
    if not profile.memory.profilers:  # aa: only time is asked about
        return
    untimed = memory.memory_command(case, profile, JAR, tmp_path / "m.json")
    assert "hotpath.profiler.NativeAllocProfiler" in untimed
    assert untimed[untimed.index("-f") + 1] == str(profile.memory.forks)


def test_a_profile_that_would_time_under_a_hook_is_refused():
    with pytest.raises(ValueError, match="timed forks"):
        Profile(name="bad", purpose="", forks=1, warmup_iterations=1, warmup_time="1 s",
                measurement_iterations=1, measurement_time="1 s",
                profilers=("gc", "hotpath.profiler.NativeAllocProfiler"))
    assert hooks_allocations("async:event=alloc") and not hooks_allocations("gc")


def test_the_memory_pass_joins_its_native_metrics_onto_the_timing_rows(tmp_path, data_dir):
    timing = tmp_path / "case.json"
    timing.write_text((data_dir / "avgt-variant-gc.json").read_text())
    entries = json.loads(timing.read_text())
    for e in entries:
        e["secondaryMetrics"] = {"native.alloc.norm": dict(e["primaryMetric"], score=4096.0)}
    (tmp_path / "case.memory.json").write_text(json.dumps(entries[1:]))  # one row missing
    frame = load.read_results(timing).frame
    native = frame[frame["metric"] == "native.alloc.norm"]
    assert len(native) == len(entries) - 1 and set(native["score"]) == {4096.0}
    assert native["source"].str.endswith("case.memory.json").all()
    # heap B/op still comes from the timing file
    alloc = frame[frame["metric"] == "gc.alloc.rate.norm"]
    assert alloc["source"].str.endswith("case.json").all()


def test_a_busy_machine_stops_a_full_run_unless_overridden(monkeypatch):
    busy = {"others_cores": 0.9, "wall_s": 3.0, "load_average_end": 1.5}
    monkeypatch.setattr(machine, "others_now", lambda seconds=3.0: busy)
    monkeypatch.delenv(machine.OVERRIDE, raising=False)
    with pytest.raises(HotpathError, match="machine is busy.*HOTPATH_ALLOW_BUSY=1"):
        bench.refuse_if_busy(PROFILES["reference"])
    monkeypatch.setenv(machine.OVERRIDE, "1")
    bench.refuse_if_busy(PROFILES["reference"])
    assert PROFILES["full"].require_quiet and not PROFILES["quick"].require_quiet


def test_the_cpu_meter_reads_other_processes_share():
    load_ = machine.CpuMeter.start().read()
    assert load_["others_cores"] >= 0 and load_["cores"]
    assert "cores used by other processes" in machine.describe(load_)
    assert "not recorded" in machine.describe(None)


def test_a_pass_runs_each_variants_sides_in_the_fewest_jmh_runs_that_hold_them(tmp_path):
    from hotpath.measure import passes

    declared = {"a.B.x": {"size": ["64", "1024"], "variant": ["old", "new"]},
                "a.B.y": {"size": ["64", "1024"], "variant": ["old", "new"]}}
    sides = [("a.B.x", (("size", "64"),), "old"), ("a.B.x", (("size", "64"),), "new"),
             ("a.B.y", (("size", "64"),), "old"), ("a.B.y", (("size", "1024"),), "old")]
    ran = []
    commands = passes.run(passes.CaseJar(JAR), sides, declared, ["java", "-Xmx1g"], ["-f", "1"],
                          lambda i: tmp_path / f"{i}.json", ran.append)
    assert ran == commands
    assert [c[:4] for c in commands] == [["java", "-Xmx1g", "-jar", "target/benchmarks.jar"]] * 3
    # old: y's two sizes are one product of values, x's one size another; new: x alone
    assert [(c[4], c[c.index("-p") + 1:]) for c in commands] == [
        (r"^(a\.B\.x)$", ["variant=old", "-p", "size=64", "-rf", "json", "-rff", f"{tmp_path}/0.json"]),
        (r"^(a\.B\.y)$", ["variant=old", "-p", "size=64,1024", "-rf", "json", "-rff", f"{tmp_path}/1.json"]),
        (r"^(a\.B\.x)$", ["variant=new", "-p", "size=64", "-rf", "json", "-rff", f"{tmp_path}/2.json"])]


@pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")
def test_a_build_is_its_own_side_and_starts_with_the_profilers_after_its_entries(tmp_path):
    from hotpath.measure import builds, passes

    side = builds.Side(role="baseline", name="master", given=str(JAR), entries=(JAR,), kind="jar")
    declared = {"a.B.x": {"variant": ["old", "new"]}}
    commands = passes.run(side, [("a.B.x", (("variant", "old"),), "master")], declared,
                          ["java", "-Xmx1g"], ["-f", "1"], lambda i: tmp_path / "x.json", lambda cmd: None)
    [cmd] = commands
    assert cmd[:3] == ["java", "-Xmx1g", "-cp"] and cmd[3].endswith("hotpath-profiler.jar")
    assert cmd[4:] == [builds.JMH_MAIN, r"^(a\.B\.x)$", "-f", "1", "-p", "variant=old",
                       "-rf", "json", "-rff", f"{tmp_path}/x.json"]


@pytest.mark.parametrize("name", ["quick", "full", "ab", "aa", "matrix"])
def test_a_timed_fork_samples_cpu_only_in_a_tail_after_its_counted_iterations(name, tmp_path):
    profile = PROFILES[name]
    plain = profile.jmh_args(forks=1, iterations=20)
    sampled = profile.jmh_args(forks=1, iterations=20, cpu_dir=tmp_path / "cpu")
    assert plain[plain.index("-i") + 1] == "20"
    # the plan's 20 counted iterations, then the sampler's tail, which the results leave out
    assert sampled[sampled.index("-i") + 1] == str(20 + profile.cpu.iterations) and profile.cpu.iterations > 0
    sampler = [sampled[i + 1] for i, a in enumerate(sampled) if a == "-prof" and "CpuProfiler" in sampled[i + 1]]
    assert sampler == [f"hotpath.profiler.CpuProfiler:dir={tmp_path / 'cpu'};"
                       f"interval={profile.cpu.interval_ns};tail={profile.cpu.iterations}"]
    assert not any("CpuProfiler" in a for a in plain)


@pytest.mark.parametrize("name", ["quick", "full", "ab", "aa", "matrix"])
def test_every_fork_that_samples_cpu_keeps_inlined_frames_and_no_other_fork_changes(name, tmp_path):
    from hotpath.measure.profiles import DEBUG_ARGS

    profile = PROFILES[name]

    def jvm(args):
        return args[args.index("-jvmArgsAppend") + 1].split()

    debug = list(DEBUG_ARGS)
    sampled = jvm(profile.jmh_args(forks=1, iterations=20, cpu_dir=tmp_path / "cpu"))
    assert sampled == [*profile.jvm_args, *debug]
    assert jvm(profile.cpu_args("java", tmp_path / "cpu", 3, 20, 5_000_000)) == [*profile.jvm_args, *debug]
    # forks that take no samples run as they always have
    assert jvm(profile.jmh_args(forks=1, iterations=20)) == list(profile.jvm_args)
    assert not set(debug) & set(jvm(profile.memory_args()))


@pytest.mark.parametrize("profile", [PROFILES["smoke"], replace(PROFILES["full"], recorded=False)],
                         ids=["smoke", "full-unrecorded"])
def test_a_profile_without_recorded_forks_or_a_tail_takes_no_cpu_samples(profile, tmp_path):
    assert not profile.samples_cpu
    assert not any("CpuProfiler" in a for a in profile.jmh_args(forks=1, cpu_dir=tmp_path))
