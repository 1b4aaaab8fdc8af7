"""The JMH runner on a real (calibration) benchmark: results, sidecar, failures, interleaving."""

import json
import re
import subprocess
import sys
from dataclasses import replace

import pytest

from hotpath.measure import bench, jar, memory, rounds
from hotpath.analyze import load
from hotpath.cases import CASES, Case
from hotpath.errors import HotpathError
from hotpath.paths import JAR
from hotpath.measure.profiles import PROFILES

pytestmark = [pytest.mark.forks,
              pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")]

CALIBRATION = Case(id="calibration", writeup="-", system="-", title="known copy", question="-",
                   benchmarks=r"^hotpath\.calibration\.KnownCopyBenchmark\.")
TINY = replace(PROFILES["smoke"], measurement_iterations=1, forks=1,
               memory=replace(PROFILES["smoke"].memory, forks=1),
               profilers=("gc",), name="tiny")


def test_a_run_writes_jmh_json_and_a_sidecar_with_commit_and_command(tmp_path):
    out = bench.run(CALIBRATION, TINY, out=tmp_path / "calibration.json", extra_args=["-p", "size=64"])
    run = load.read_results(out)
    assert set(run.frame["variant"]) == {"old", "optimized"}
    assert run.provenance["command"].startswith("java -jar target/benchmarks.jar")
    assert run.provenance["git_commit"]
    assert run.provenance["sha256"]
    # native bytes come from a memory pass of their own, joined onto the timed rows
    assert "NativeAllocProfiler" not in run.provenance["command"]
    assert "-prof hotpath.profiler.NativeAllocProfiler" in run.provenance["memory_command"]
    assert (tmp_path / "calibration.memory.json").is_file()
    native = run.frame[run.frame["metric"] == "native.alloc.norm"]
    assert set(native["variant"]) == {"old", "optimized"}
    assert run.provenance["machine_load"]["others_cores"] >= 0


def test_a_failing_run_leaves_the_previous_result_as_it_was(tmp_path):
    out = tmp_path / "calibration.json"
    out.write_text("previous good result")
    with pytest.raises(HotpathError, match="left as it was"):
        bench.run(CALIBRATION, TINY, out=out, extra_args=["-p", "variant=nope"])
    assert out.read_text() == "previous good result"
    assert not list(tmp_path.glob("*.partial"))


def test_sequential_rounds_merge_into_one_file_with_every_fork(tmp_path):
    profile = replace(TINY, forks=4, interleave=True, budget="")
    out = bench.run(CALIBRATION, profile, out=tmp_path / "calibration.json")
    frame = load.read_results(out).frame
    primary = frame[frame["metric"] == "score"]
    assert set(primary["forks_measured"]) == {4}  # the first look is the cap here
    rounds = sorted(p.name for p in (tmp_path / "rounds" / "calibration").iterdir())
    # one JMH run per round and variant: both sizes are one product of params
    assert [r.split("-")[1:3] for r in rounds] == [[f"{n:02d}", v] for n in range(1, 5)
                                                   for v in ("old", "optimized")]
    sidecar = json.loads((tmp_path / "calibration.provenance.json").read_text())
    assert len(sidecar["interleaved_rounds"]) == 8
    rows = sidecar["sequential"]["rows"]
    assert {r["params"] for r in rows} == {"size=64", "size=4096"}
    assert all(r["forks"] == 4 and r["stopped"] in ("decided", "cap") for r in rows)


def test_a_sequential_run_that_fails_leaves_the_earlier_rounds_and_says_why(tmp_path):
    # A budget the memory pass spends leaves no timed fork: a clear error, and the earlier
    # run's result and round files stay as they were (a failed store cell once replaced them).
    out = tmp_path / "calibration.json"
    out.write_text("previous good result")
    rounds = tmp_path / "rounds" / "calibration"
    rounds.mkdir(parents=True)
    (rounds / "round-01-old-0001.json").write_text("earlier round")
    profile = replace(TINY, forks=4, interleave=True, budget="")
    with pytest.raises(HotpathError, match="budget was spent before the first timed fork"):
        bench.run(CALIBRATION, profile, out=out, budget_s=0.001)
    assert out.read_text() == "previous good result"
    assert [p.name for p in rounds.iterdir()] == ["round-01-old-0001.json"]
    assert not list(tmp_path.rglob("*.partial"))


def test_a_run_without_forks_gives_its_jvm_the_forks_arguments(tmp_path):
    profile = replace(TINY, forks=0, memory=replace(TINY.memory, forks=0))
    out = bench.run(CALIBRATION, profile, out=tmp_path / "calibration.json", extra_args=["-p", "size=64"])
    run = load.read_results(out)
    assert run.provenance["command"].startswith(f"java {' '.join(profile.jvm_args)} ")
    assert "--add-opens=java.base/java.nio=ALL-UNNAMED" in run.provenance["memory_command"]
    native = run.frame[run.frame["metric"] == "native.alloc.norm"]
    assert set(native["variant"]) == {"old", "optimized"}


def test_a_run_of_the_writeups_rows_measures_the_peaks_of_its_own_sides_only(tmp_path):
    # Every peak call is a bisection of a dozen JVMs: quick's zip run measured 30 calls in 30 s
    # of its budget where its rows have 12.
    zip_case = CASES["zip"]
    sides = [("hotpath.zip.ZipMarshalBenchmark.marshalZip", (("payload", "MAP_1600B"),), v)
             for v in ("old", "buffered")]
    out = tmp_path / "peaks.json"
    command = bench.measure_peaks(zip_case, replace(PROFILES["quick"], peak_resolution_pct=20.0),
                                  JAR, out, out, sides)
    measured = {(e["params"]["payload"], e["params"]["variant"])
                for e in json.loads(out.read_text(encoding="utf-8"))}
    assert measured == {("MAP_1600B", "old"), ("MAP_1600B", "buffered")}
    assert "--only" in command


def test_the_peak_filter_matches_a_sides_params_in_any_order_and_nothing_near_them():
    pattern = re.compile(bench.peak_filter([("b", (("payload", "MAP_3K"),), "old")]))
    assert pattern.search("{payload=MAP_3K, variant=old}")
    assert pattern.search("{variant=old, payload=MAP_3K}")
    assert not pattern.search("{payload=MAP_3K, variant=floor}")
    assert not pattern.search("{payload=MAP_3K0, variant=old}")
    assert not pattern.search("{payload=MAP_132K, variant=old}")



def test_a_run_together_writes_each_case_as_a_run_of_its_own_would(tmp_path):
    """bench.run_together end to end on the calibration case (the plan of several cases is held
    to its rules in test_forkplan): results, rounds and the plan record as bench.run writes them."""
    profile = replace(TINY, forks=3, min_forks=3, interleave=True, budget="", memory=replace(TINY.memory, profilers=()))
    host = {"said": "the host check before the run", "quiet": True}
    [path] = bench.run_together([CALIBRATION], profile, budget_s=600.0, folder=tmp_path, host_check=host)
    run = load.read_results(path)
    assert run.provenance["host_check"] == host
    rows = run.provenance["sequential"]["rows"]
    assert {r["params"] for r in rows} == {"size=64", "size=4096"}
    assert all(r["forks"] >= 3 for r in rows)
    assert run.provenance["sequential"]["estimate"] == profile.estimate
    assert len(run.provenance["interleaved_rounds"]) == len(list((tmp_path / "rounds" / "calibration").iterdir()))
    assert not list(tmp_path.rglob("*.partial"))


def test_a_memory_pass_beside_another_runs_past_jmhs_lock_into_a_log_of_its_own(tmp_path, monkeypatch):
    """A joint run's memory passes run two at a time (bench.measure_untimed_together), hotpath
    holding JMH's lock for them: each JMH passes the lock and counts, its output in its case's
    log; a pass alone is still refused there, and says why. The lock here is a folder's of its
    own (java.io.tmpdir), held by another process, so no other test's JMH is stopped."""
    lock = tmp_path / "jmh.lock"
    monkeypatch.setattr(rounds, "LOCK_FILE", lock)
    profile = replace(TINY, memory=replace(TINY.memory, forks=0), jvm_args=(*TINY.jvm_args, f"-Djava.io.tmpdir={tmp_path}"))
    expected = jar.listed_benchmarks(CALIBRATION.benchmarks)
    log = tmp_path / "memory.log"
    holder = subprocess.Popen([sys.executable, "-c", f"import fcntl, time; f = open({str(lock)!r}, 'a'); "
                               "fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(120)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(HotpathError, match="another JMH run holds JMH's machine-wide lock"):
            memory.run_memory_pass(CALIBRATION, profile, JAR, tmp_path / "alone.json", tmp_path / "final.json",
                                  expected, ["-p", "size=64"])
        command = memory.run_memory_pass(CALIBRATION, profile, JAR, tmp_path / "beside.json",
                                        tmp_path / "final.json", expected, ["-p", "size=64"], log=log)
    finally:
        holder.kill()
        holder.wait()
    assert command.startswith(f"java {memory.PAST_LOCK} ")
    assert "# Run complete" in log.read_text(encoding="utf-8")
    native = [e for e in json.loads((tmp_path / "beside.json").read_text(encoding="utf-8"))
              if "native.alloc.norm" in e["secondaryMetrics"]]
    assert {e["params"]["variant"] for e in native} == {"old", "optimized"}
