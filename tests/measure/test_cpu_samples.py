"""The timed forks' CPU samples collected: each profiler file tied to its fork by its scores,
only the iterations the fork's figure counts kept, stacks trimmed below JMH's stub, and a file
that matches no fork refused."""

import json

import pytest

from hotpath.errors import ResultsError
from hotpath.measure import cpu
from hotpath.records import CPU_FORMAT, cpu_stacks
from hotpath.stats import steady

BENCH = "hotpath.x.CodecBenchmark.encode"
WORKER = "[hotpath.x.CodecBenchmark.encode-jmh-worker-1]"
RUNNER = "java/lang/Thread.run;org/openjdk/jmh/runner/BenchmarkHandler$BenchmarkTask.call"
STUB = "hotpath/x/jmh_generated/CodecBenchmark_encode_jmhTest.encode_avgt_jmhStub"


def _fork_file(path, scores, variant="old", unit="us/op", clock=True, tail=0):
    """A profiler's file: a frame table, two stacks, one iteration per score (with ``clock``,
    the worker's CPU time, 95 ms + i ns in iteration i; without, as the first files were);
    with ``tail``, only the last so many iterations sampled, as the timed forks' sampler writes."""
    lines = [cpu.FORK_HEADER, f"benchmark\t{BENCH}", "param\tpayload\tSTR_1K",
             f"param\tvariant\t{variant}", "jvm\t17.0.12", "engine\tcpu", "interval_ns\t10000000",
             *([f"tail\t{tail}"] if tail else [])]
    frames = [WORKER, *RUNNER.split(";"), STUB, "hotpath/x/OldCodec.encode", "[GC Thread#0]",
              "G1ParTask::work"]
    named = False
    for i, score in enumerate(scores):
        if i < len(scores) - tail if tail else False:
            lines.append(f"iteration\t{i + 1}\tops\t1000\tscore\t{score!r}\tunit\t{unit}\tsampled\t0")
            continue
        lines.append(f"iteration\t{i + 1}\tops\t1000\tscore\t{score!r}\tunit\t{unit}\twindow_ns\t100000000"
                     + (f"\tcpu_ns\t{95_000_000 + i}" if clock else ""))
        if not named:
            lines += [f"frame\t{j}\t{name}" for j, name in enumerate(frames)]
            lines += ["stack\t0\t0 1 2 3 4", "stack\t1\t5 6"]
            named = True
        lines += [f"samples\t0\t{10 + i}", "samples\t1\t1"]
    path.write_text("\n".join(lines) + "\n")


def _entry(forks, warmup=0, variant="old"):
    return {"benchmark": BENCH, "mode": "avgt", "warmupIterations": warmup,
            "measurementIterations": len(forks[0]), "measurementTime": "100 ms",
            "params": {"payload": "STR_1K", "variant": variant},
            "primaryMetric": {"score": 1.0, "scoreUnit": "us/op", "rawData": forks},
            "secondaryMetrics": {}}


def test_a_fork_file_reads_back_its_iterations_and_stacks(tmp_path):
    _fork_file(tmp_path / "a.cpu", [1.25, 1.5])
    fork = cpu.read_fork(tmp_path / "a.cpu")
    assert fork["engine"] == "cpu" and fork["interval_ns"] == 10_000_000
    assert fork["params"] == {"payload": "STR_1K", "variant": "old"}
    assert [it["score"] for it in fork["iterations"]] == [1.25, 1.5]
    assert fork["iterations"][1]["samples"] == {f"{WORKER};{RUNNER};{STUB};hotpath/x/OldCodec.encode": 11,
                                                "[GC Thread#0];G1ParTask::work": 1}


def test_a_file_of_another_kind_or_cut_short_is_refused(tmp_path):
    (tmp_path / "x.cpu").write_text("# hotpath allocation sites 2\n")
    with pytest.raises(ResultsError, match="not a CPU-sample file"):
        cpu.read_fork(tmp_path / "x.cpu")
    (tmp_path / "y.cpu").write_text(f"{cpu.FORK_HEADER}\nbenchmark\t{BENCH}\nsamples\t0\t3\n")
    with pytest.raises(ResultsError, match="malformed"):
        cpu.read_fork(tmp_path / "y.cpu")


def test_stacks_are_kept_from_the_stub_up_under_their_thread():
    assert cpu.trimmed(f"{WORKER};{RUNNER};{STUB};hotpath/x/OldCodec.encode") == \
        f"{WORKER};{STUB};hotpath/x/OldCodec.encode"
    assert cpu.trimmed("[GC Thread#0];G1ParTask::work") == "[GC Thread#0];G1ParTask::work"


def test_scores_are_taken_to_nanoseconds_per_op():
    assert cpu.ns_per_op(1.5, "us/op") == pytest.approx(1500)
    assert cpu.ns_per_op(2.0, "ops/us") == pytest.approx(500)
    with pytest.raises(ResultsError):
        cpu.ns_per_op(1.0, "B/op")


def test_each_file_joins_its_own_fork_and_only_counted_iterations_are_kept(tmp_path):
    # two recorded forks of 20 iterations: the first settles after a slow start
    slow_start = [3.0] * 6 + [1.0 + 0.001 * i for i in range(14)]
    flat = [1.1 + 0.001 * i for i in range(20)]
    entry = _entry([slow_start, flat])
    _fork_file(tmp_path / "f1.cpu", flat)
    _fork_file(tmp_path / "f0.cpu", slow_start)
    document = cpu.collect(tmp_path, [entry], "java -jar benchmarks.jar")
    assert document["format"] == CPU_FORMAT
    (row,) = document["entries"]
    assert [f["fork"] for f in row["forks"]] == [0, 1]
    firsts = [f.first for f in steady.entry_forks(entry)]
    assert [f["first"] for f in row["forks"]] == firsts
    assert firsts[0] >= 6
    f0 = row["forks"][0]
    counted = slow_start[firsts[0]:]
    assert f0["ops"] == 1000 * len(counted)
    assert f0["time_ns"] == pytest.approx(1000 * sum(counted) / len(counted))
    worker = cpu_stacks(row).index(f"{WORKER};{STUB};hotpath/x/OldCodec.encode")
    # samples 10 + i in iteration i: only the counted ones summed
    assert dict(map(tuple, f0["samples"]))[worker] == sum(10 + i for i in range(firsts[0], 20))
    assert f0["cpu_ns"] == sum(95_000_000 + i for i in range(firsts[0], 20))
    json.dumps(document)


def test_a_file_without_the_threads_clock_keeps_no_cpu_time(tmp_path):
    _fork_file(tmp_path / "f.cpu", [1.0, 1.0, 1.0], clock=False)
    fork = cpu.read_fork(tmp_path / "f.cpu")
    assert fork["iterations"][0]["cpu_ns"] == -1
    assert "cpu_ns" not in cpu.counted(fork, _entry([[1.0, 1.0, 1.0]]), 0)


def test_a_file_that_matches_no_fork_is_refused(tmp_path):
    _fork_file(tmp_path / "f.cpu", [1.0, 2.0])
    with pytest.raises(ResultsError, match="match no fork"):
        cpu.collect(tmp_path, [_entry([[1.0, 2.5]])], "cmd")


def test_a_run_that_wrote_no_samples_says_so(tmp_path):
    with pytest.raises(ResultsError, match="wrote no files"):
        cpu.collect(tmp_path, [], "cmd")


def test_a_timed_forks_tail_is_tied_by_its_counted_iterations_and_gives_the_samples(tmp_path):
    # a recorded fork of 20 counted iterations, then 3 sampled ones that its results left out
    counted_scores = [3.0] * 6 + [1.0 + 0.001 * i for i in range(14)]
    tail = [1.02, 1.03, 1.04]
    entry = _entry([counted_scores])
    _fork_file(tmp_path / "f0.cpu", counted_scores + tail, tail=3)
    fork = cpu.read_fork(tmp_path / "f0.cpu")
    assert fork["tail"] == 3
    assert [it["sampled"] for it in fork["iterations"]] == [False] * 20 + [True] * 3
    (row,) = cpu.collect(tmp_path, [entry], "cmd")["entries"]
    (f0,) = row["forks"]
    first = steady.entry_forks(entry)[0].first
    assert row["tail"] == 3 and f0["first"] == first and f0["iterations"] == 20
    # the fork's time is its counted iterations'; its samples, operations and CPU the tail's
    kept = counted_scores[first:]
    assert f0["time_ns"] == pytest.approx(1000 * sum(kept) / len(kept))
    assert f0["sampled_time_ns"] == pytest.approx(1000 * sum(tail) / 3)
    assert f0["ops"] == 3000 and f0["window_ns"] == 300_000_000
    assert f0["cpu_ns"] == sum(95_000_000 + i for i in (20, 21, 22))
    worker = cpu_stacks(row).index(f"{WORKER};{STUB};hotpath/x/OldCodec.encode")
    assert dict(map(tuple, f0["samples"]))[worker] == sum(10 + i for i in (20, 21, 22))


def test_a_tail_that_is_not_the_last_iterations_is_refused(tmp_path):
    _fork_file(tmp_path / "f.cpu", [1.0] * 6, tail=2)
    text = (tmp_path / "f.cpu").read_text().replace("tail\t2", "tail\t3")
    (tmp_path / "f.cpu").write_text(text)
    with pytest.raises(ResultsError, match="not the last 3"):
        cpu.read_fork(tmp_path / "f.cpu")
