"""CPU samples in real timed forks, held to an answer known without them: two sides that differ
by one named method doing a known share of the work (KnownCpuFramesBenchmark). The attribution
must put the row's change on that method and its callees, and on nothing else."""

import subprocess

import numpy as np
import pytest

from hotpath.analyze import cpu as C
from hotpath.measure import cpu
from hotpath.jmh import parse_json
from hotpath.paths import JAR, ROOT
from hotpath.runs import sites_text

pytestmark = [pytest.mark.forks,
              pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")]

BENCH = "hotpath.calibration.KnownCpuFramesBenchmark.frames"
#: The issue's bar: at least this share of the row's change on the named frame and its callees.
KNOWN_SHARE = 0.90


@pytest.fixture(scope="module")
def profiles(tmp_path_factory):
    """Three recorded forks a side (20 iterations of 100 ms from the start, as the timed forks
    run), the sampler at its default interval."""
    folder = tmp_path_factory.mktemp("cpu")
    results = folder / "known.json"
    cmd = ["java", "-jar", str(JAR), f"^{BENCH}$", "-f", "3", "-wi", "0", "-i", "20", "-r", "100ms",
           "-jvmArgsAppend", "-Xms1g -Xmx1g -XX:+UseG1GC -XX:+AlwaysPreTouch",
           "-prof", cpu.profiler_arg(folder / "forks"), "-rf", "json", "-rff", str(results)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    document = cpu.collect(folder / "forks", parse_json(results.read_bytes(), results), "test")
    target = folder / "known.cpu.json"
    target.write_text(sites_text(document))
    return C.read_file(target)


def test_every_fork_of_both_sides_is_tied_to_its_results(profiles):
    assert sorted(profiles.sides["variant"]) == ["old", "optimized"]
    for entry in profiles.sides["entry"]:
        assert [f["fork"] for f in entry["forks"]] == [0, 1, 2]
        assert entry["engine"] in ("cpu", "itimer")
        # only the counted iterations: never the fork's first
        assert all(f["first"] >= 1 and f["ops"] > 0 for f in entry["forks"])


def test_the_known_method_explains_the_rows_change(profiles):
    # by the thread's CPU per op: make test runs these forks beside other work, and a fork the
    # host slowed 1.7x as a whole kept its CPU per op within 1% (its wall time would put the
    # host's seconds on every frame of one side)
    a = C.attribute(profiles, BENCH, "", "old", "optimized", basis=C.CPU)
    assert a.time.high < 0, "optimized leaves extra's work out: it must be faster"
    change, part = C.explained(a, r"KnownCpuFramesBenchmark\.extra$")
    assert KNOWN_SHARE <= part.share <= 2 - KNOWN_SHARE, (part, a.time)
    extra = a.frames[(a.frames["how"] == "total") & (a.frames["frame"] == "KnownCpuFramesBenchmark.extra")]
    assert bool(extra["decided"].iloc[0])
    assert extra["new_ns"].iloc[0] == 0


def test_the_shared_method_is_not_called_changed(profiles):
    a = C.attribute(profiles, BENCH, "", "old", "optimized", basis=C.CPU)
    shared = a.frames[(a.frames["how"] == "total")
                      & (a.frames["frame"] == "KnownCpuFramesBenchmark.shared")].iloc[0]
    # the same work on both sides: its time per op within a fifth of its own
    assert abs(shared["delta_ns"]) < 0.2 * shared["old_ns"], shared.to_dict()


def test_the_benchmark_threads_samples_account_for_its_time(profiles):
    a = C.attribute(profiles, BENCH, "", "old", "optimized")
    for variant, s in (("old", a.old), ("optimized", a.new)):
        # the coverage is the thread's own CPU clock, read around every sampled iteration
        assert s.clocked
        # make test runs this beside other forks: the thread waits for the CPU part of the time
        assert 0.5 < s.coverage.mean() < 1.1, s.coverage
        # the samples count the clock's CPU, less up to one interval an iteration (each starts
        # the count afresh); two intervals of slack for the windows' edges
        forks = profiles.entry(BENCH, "", variant)["forks"]
        cpu_ns = np.array([f["cpu_ns"] for f in forks])
        counted = np.array([f["iterations"] - f["first"] for f in forks])
        assert (s.samples * 1e7 <= cpu_ns * 1.01).all(), (s.samples, cpu_ns)
        assert (s.samples * 1e7 >= cpu_ns - 2 * counted * 1e7).all(), (s.samples, cpu_ns, counted)
