"""Two builds measured against each other, with known answers: two copies of the project's own
benchmark jar that differ only in the work KnownWorkBenchmark does (a resource packaged in the
jar, rewritten in the copy), the same jar's bytes on both sides, and a copy whose benchmark
throws. The first two are the two steps of one patch series (the identical copy, then the known
change), measured once: its two runs of two builds are held as each pair was, and its split
among the steps names the step that pays.

What is asserted of the forks' time is what the host cannot undo. Its slow stretches run settled
code 1.7-2.1x slower, whole forks at a time: a known change of 16x stays between 4x and 64x
whatever it does to any fork, and identical code stays within 4x either way. Whether identical
code is ever called faster or slower, and whether an interval holds a known ratio, are rates:
held on the committed A/A's recorded forks (tests/analyze/test_aa.py, tests/measure/test_replay.py),
where the host cannot move them, and measured by `make aa`."""

import dataclasses
import json
import math
import shutil
import subprocess
import time
import zipfile
from collections import namedtuple

import pytest

from hotpath.analyze import ab as ab_run
from hotpath.analyze import series as series_run
from hotpath.analyze.stats import ALLOC_NOISE_BYTES
from hotpath.cli import main
from hotpath.errors import HotpathError
from hotpath.measure import ab, builds, forkplan, rounds
from hotpath.measure.hostcheck import HostCheck, Row
from hotpath.measure.profiles import PROFILES
from hotpath.paths import JAR
from hotpath.render import paste

WORK = "hotpath/calibration/work.properties"

needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")
pytestmark = pytest.mark.forks


def _copy(tmp_path, name, rewrite=None, drop=()):
    """A copy of the benchmarks jar with one resource rewritten (or dropped): a second build.
    Its entries are stored, not compressed again: a third of the time of a deflated copy."""
    target = tmp_path / name
    with zipfile.ZipFile(JAR) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as out:
        for info in src.infolist():
            if info.filename in drop:
                continue
            data = src.read(info.filename)
            if rewrite and info.filename == WORK:
                data = rewrite(data)
            info.compress_type = zipfile.ZIP_STORED
            out.writestr(info, data)
    return target


#: The known change: the copy's operation does this many times the steps.
KNOWN = 16
#: How far the host can move a ratio of fork figures, either way: twice its widest step seen
#: (2.1x, whole forks at a time), so that no fork the host slows takes a ratio past it.
HOST_REACH = 4.0


def _known_change(data: bytes) -> bytes:
    steps = int(next(l for l in data.decode().splitlines() if l.startswith("steps=")).split("=")[1])
    return data.decode().replace(f"steps={steps}", f"steps={KNOWN * steps}").encode()


def _record(record_property, row):
    """The row's figures in the test's JUnit XML (pytest --junitxml): what a loop of runs reports."""
    for key in ("ratio", "ci_low", "ci_high", "verdict", "forks_old", "forks_new"):
        record_property(key, row[key])


#: The series' budget, split evenly between its two steps. The known change closes at its first
#: look (3 forks a side); identical code takes whatever it is given. 45 s a step left the known
#: change at 2 forks a side, undecided, in a fresh clone's make test on a loaded host (load 5,
#: 14 s a round of two forks): 60 s a step holds three such rounds beside the memory passes.
SERIES_BUDGET = "120s"

Measured = namedtuple("Measured", "code folder series report same patch wall_s")


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    """One patch series measured for the tests that hold two builds' forks to known answers:
    master (the jar), then a byte-identical copy (step 'same': identical code on both sides of its
    run), then a copy doing KNOWN times the work (step 'patch', the whole patch: its run is the
    series' report)."""
    if not JAR.is_file():
        pytest.skip("needs target/benchmarks.jar (make build)")
    tmp = tmp_path_factory.mktemp("series")
    same = tmp / "same.jar"
    shutil.copyfile(JAR, same)
    patch = _copy(tmp, "patch.jar", rewrite=_known_change)
    t0 = time.monotonic()
    code = main(["series", str(JAR), str(same), str(patch), "--bench", "KnownWork", "--profile", "quick",
                 "--budget", SERIES_BUDGET, "--name", "run", "--baseline-name", "master",
                 "--step-names", "same,patch", "--results-dir", str(tmp / "results"),
                 "--out", str(tmp / "report")])
    wall = time.monotonic() - t0
    return Measured(code, tmp / "results" / "run", series_run.read(tmp / "results" / "run"), tmp / "report",
                    same, patch, wall)


@needs_jar
@pytest.mark.verdicts
def test_the_build_doing_sixteen_times_the_work_is_called_slower_by_more_than_the_host_can_move(
        series, record_property):
    assert series.code == 0
    run = series.series.steps[1]  # master against the patch: the series' report
    row = run.comparison.pairs.iloc[0]
    _record(record_property, row)
    assert (row["baseline"], row["candidate"]) == ("master", "patch")
    # the candidate's side, not the baseline's, holds the work, and the interval is the row's
    assert row["verdict"] == "slower", row.to_dict()
    assert KNOWN / HOST_REACH <= row["ratio"] <= KNOWN * HOST_REACH, row.to_dict()
    assert row["ci_low"] > 1 and row["ci_low"] <= row["ratio"] <= row["ci_high"], row.to_dict()
    manifest = run.manifest
    assert manifest["sides"]["baseline"]["jars"][0]["sha256"] == builds.sha256(JAR)
    assert manifest["sides"]["candidate"]["jars"][0]["sha256"] == builds.sha256(series.patch)
    assert manifest["sides"]["baseline"]["memory"]["status"] == "measured"
    assert set(manifest["round_sides"]) == {"master", "patch"}
    # One fork per side per round, the order turning round by round.
    assert manifest["round_sides"][:4] == ["master", "patch", "patch", "master"]
    report = (series.report / "summary.md").read_text(encoding="utf-8")
    assert report.index("**Result.**") < report.index("## At a glance")
    assert "slower" in report and "sha256" in report
    assert (series.report / "jira.txt").is_file() and list(series.report.glob("*.png"))
    # the memory pass recorded both builds' allocation sites, named by the builds' own names
    sites = json.loads((run.folder / "ab.sites.json").read_text(encoding="utf-8"))
    assert {e["side"] for e in sites["entries"]} == {"master", "patch"}
    assert "## Where the bytes went" in report and "no heap allocation on either side" in report


@needs_jar
@pytest.mark.verdicts
def test_the_same_jar_on_both_sides_stays_within_the_hosts_reach_and_allocates_alike(series, record_property):
    """The same jar's bytes on both sides: the series' first step, a byte-identical copy."""
    run = series.series.steps[0]
    assert run.names == {"baseline": "master", "candidate": "same"}
    sides = run.manifest["sides"]
    assert sides["baseline"]["jars"][0]["sha256"] == sides["candidate"]["jars"][0]["sha256"]
    row = run.comparison.pairs.iloc[0]
    _record(record_property, row)
    # its verdict is a rate, the A/A's (the module's note); what no host can do is move identical
    # code past its reach, or make the two sides allocate differently
    assert 1 / HOST_REACH <= row["ratio"] <= HOST_REACH, row.to_dict()
    # a busy host may leave the budget short of the plan's first look, and the row without an
    # interval: then it must not be called either way
    assert row["forks_old"] >= 1 and row["forks_new"] >= 1, row.to_dict()
    if math.isnan(row["ci_low"]):
        assert row["verdict"] not in ("faster", "slower"), row.to_dict()
    else:
        assert row["ci_low"] <= row["ratio"] <= row["ci_high"], row.to_dict()
    # KnownWork allocates nothing: what -prof gc reads is the harness's fraction of a byte
    # (docs/evidence/the-harness-and-the-jit-in-exact-counts.md), on both sides alike
    assert max(row["old_alloc"], row["new_alloc"]) < ALLOC_NOISE_BYTES, row.to_dict()
    assert run.manifest["differences"] == []


@needs_jar
@pytest.mark.verdicts
def test_a_patch_series_splits_the_change_among_its_steps_and_names_the_step_that_pays(series, record_property):
    """Identical code, then the known change: the second step pays, by the known ratio within the
    host's reach, and the first is within the reach of nothing at all."""
    found = series_run.found(series.series)
    [row] = found.rows
    assert row.mechanisms == ("same", "patch") and row.why == "", row.why
    record_property("series_wall_s", round(series.wall_s, 1))
    for name, part in row.time.alone.items():
        # as a ratio of time per op (new over old), with its interval
        record_property(f"{name}_part", math.exp(part.estimate))
        record_property(f"{name}_part_low", math.exp(part.low))
        record_property(f"{name}_part_high", math.exp(part.high))
    same, patch = row.time.alone["same"], row.time.alone["patch"]
    assert 1 / HOST_REACH <= math.exp(same.estimate) <= HOST_REACH, same
    assert KNOWN / HOST_REACH <= math.exp(patch.estimate) <= KNOWN * HOST_REACH, patch
    assert math.exp(patch.low) > 1, patch  # slower, told from nothing
    # the parts add up to the whole patch's change, which is its run's verdict's ratio
    assert same.estimate + patch.estimate == pytest.approx(row.time.total.estimate, abs=1e-9)
    assert math.exp(row.time.total.estimate) == pytest.approx(
        series.series.steps[1].comparison.pairs.iloc[0]["ratio"], rel=1e-6)
    # KnownWork allocates nothing: no step is said to change the heap. On the slow side the
    # harness's bytes per iteration are spread over 16 times fewer ops, and a busy host's odd
    # iteration (480 B/op once, two stages of make test at a time) can move a fork's mean past
    # 8 B; the report then says "unclear", as a part whose interval holds 0 is not told from it.
    assert all(abs(row.bytes.alone[m].estimate) < ALLOC_NOISE_BYTES or not row.bytes.alone[m].told_from_zero
               for m in ("same", "patch")), row.bytes
    # the report's line the pastes keep names the step that pays, within the pastes' limits
    for name, limit in (("summary.md", paste.MARKDOWN_BUDGET), ("jira.txt", paste.JIRA_BUDGET)):
        text = (series.report / name).read_text(encoding="utf-8")
        assert "speed-up from master to patch" in text and "the step that moves it most: patch;" in text, name
        assert paste.size(text) <= limit
    assert list(series.report.glob("run-*-which-change-pays.png"))
    manifest = json.loads((series.folder / "series.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in manifest["steps"]] == ["same", "patch"]
    assert manifest["budget_s_per_step"] == 60.0


@needs_jar
def test_the_same_jar_on_both_sides_is_named_apart_by_its_role():
    base, cand = builds.named_apart(builds.parse(str(JAR), "baseline"), builds.parse(str(JAR), "candidate"))
    assert (base.name, cand.name) == ("benchmarks (baseline)", "benchmarks (candidate)")


def _quiet_required(monkeypatch, check):
    """quick as a profile that needs a quiet machine, with the host check replaced by ``check``
    (the busy check passes: the test's own processes are what it would see)."""
    from hotpath.measure import bench, hostcheck

    monkeypatch.delenv("HOTPATH_ALLOW_BUSY", raising=False)
    monkeypatch.setitem(PROFILES, "quick", dataclasses.replace(PROFILES["quick"], require_quiet=True))
    monkeypatch.setattr(bench, "refuse_if_busy", lambda profile: None)
    monkeypatch.setattr(hostcheck, "refuse_if_contended", lambda profile: check())


@needs_jar
def test_a_benchmark_that_throws_on_one_side_is_named_and_the_others_go_on(tmp_path, capsys, monkeypatch):
    # under a profile that needs a quiet machine, the run also keeps the host check it ran
    quiet = HostCheck(Row(88.0, 0.012, 6, "ns/op"), Row(87.0, 0.0095, 8, "ns/op"))
    _quiet_required(monkeypatch, lambda: quiet)
    broken = _copy(tmp_path, "broken.jar", drop=(WORK,))
    code = main(["compare", str(JAR), str(broken), "--bench", "KnownWork|KnownCopy", "-p", "size=4096",
                 "-p", "variant=optimized", "--profile", "quick", "--budget", "20s", "--name", "run",
                 "--results-dir", str(tmp_path / "results"), "--out", str(tmp_path / "report")])
    assert code == 1  # a report, with a row that failed
    run = ab_run.read(tmp_path / "results" / "run")
    failed = ab_run.failed(run.manifest)
    assert list(failed["benchmark"]) == ["hotpath.calibration.KnownWorkBenchmark.work"]
    assert failed["failed on"].iloc[0] == "broken" and "work.properties is missing" in failed["error"].iloc[0]
    assert list(run.comparison.pairs["method"]) == ["copy"]
    assert "failed: hotpath.calibration.KnownWorkBenchmark.work" in capsys.readouterr().err
    summary = (tmp_path / "report" / "summary.md").read_text(encoding="utf-8")
    assert "Rows that failed" in summary
    assert run.manifest["host_check"] == json.loads(json.dumps(quiet.record()))
    # the timed forks' CPU samples, each build's own, name the copy's frames in the report
    time_went = summary.split("## Where the time went")[1].split("\n## ")[0]
    assert "copy(size=4096" in time_went and "arraycopy" in time_went
    assert (tmp_path / "results" / "run" / "ab.cpu.json").is_file()


@needs_jar
def test_a_contended_host_stops_two_builds_before_they_run_and_the_earlier_run_stays(tmp_path, monkeypatch):
    def contended():
        raise HotpathError("the host is contended today")

    _quiet_required(monkeypatch, contended)
    earlier = tmp_path / "results" / "run"
    earlier.mkdir(parents=True)
    (earlier / "ab.json").write_text("{}", encoding="utf-8")
    with pytest.raises(HotpathError, match="contended"):
        ab.run(builds.parse(str(JAR), "baseline"), builds.parse(str(JAR), "candidate"),
               ab.Selection(include="KnownWork"), PROFILES["quick"], out=earlier)
    assert [p.name for p in tmp_path.joinpath("results").iterdir()] == ["run"]
    assert (earlier / "ab.json").read_text(encoding="utf-8") == "{}"


@needs_jar
@pytest.mark.parametrize("sides, says", [
    (["README.md", "{jar}"], "not a jar (it is not a zip archive)"),
    (["nosuch.jar", "{jar}"], "no such file or folder"),
    (["{jar}", "{jar}", "--bench", "NoSuchBenchmark"], "no benchmark matches 'NoSuchBenchmark'"),
    (["data/reference/writer.json", "{jar}"], "one side is a JMH results file and the other a build"),
    (["{jar}", "{jar}", "-p", "size"], "give it as name=v1,v2"),
])
def test_bad_sides_get_one_clear_line_and_nothing_runs(tmp_path, capsys, sides, says):
    args = [s.replace("{jar}", str(JAR)) for s in sides]
    assert main(["compare", *args, "--results-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]
    assert not any(tmp_path.iterdir())


def test_a_jar_without_a_benchmark_list_is_not_a_build(tmp_path):
    plain = tmp_path / "library.jar"
    with zipfile.ZipFile(plain, "w") as z:
        z.writestr("org/example/Thing.class", b"\xca\xfe")
    with pytest.raises(builds.SideError, match="holds no META-INF/BenchmarkList"):
        builds.parse(str(plain), "candidate")


def test_rows_both_builds_declare_are_measured_and_the_rest_named():
    listings = {
        "baseline": {"a.B.x": {"size": ["1", "2"]}, "a.B.old": {}, "a.B.y": {"n": ["1"]}},
        "candidate": {"a.B.x": {"size": ["1", "2", "3"]}, "a.B.new": {}, "a.B.y": {"m": ["1"]}},
    }
    names = {"baseline": "master", "candidate": "patch"}
    found = ab.rows_of(ab.Selection(), listings, names, cap=24)
    assert [(r.benchmark, r.params) for r in found.rows] == [("a.B.x", (("size", "1"),)), ("a.B.x", (("size", "2"),))]
    assert all(r.candidate == "patch" and r.cap == 24 for r in found.rows)
    reasons = {(o["benchmark"], o["params"], o["only_in"]): o["reason"] for o in found.one_sided}
    assert reasons[("a.B.x", "size=3", "patch")] == "master's build does not declare these values"
    assert reasons[("a.B.old", "", "master")] == "the benchmark is only in master's build"
    assert reasons[("a.B.new", "", "patch")] == "the benchmark is only in patch's build"
    assert "other @Params" in reasons[("a.B.y", "n=1", "master")]
    restricted = ab.rows_of(ab.Selection(params={"size": ["2"]}), listings, names, cap=24)
    assert [r.params for r in restricted.rows] == [(("size", "2"),)]


def test_a_plan_keys_forks_by_the_side_that_ran_not_by_the_json(tmp_path):
    """Two builds' JSON looks the same (no variant): the plan must know which side ran."""
    entry = {"benchmark": "a.B.x", "mode": "avgt", "params": {"variant": "old"},
             "primaryMetric": {"score": 1.0, "scoreUnit": "ns/op", "rawData": [[1.0, 1.0]]}}
    path = tmp_path / "round.json"
    path.write_text(json.dumps([entry]))
    def values(forks):
        return {side: [f.value for f in fs] for side, fs in forks.items()}

    assert values(forkplan._forks(path, "patch", None)) == {("a.B.x", (("variant", "old"),), "patch"): [1.0]}
    assert values(forkplan._forks(path, "old")) == {("a.B.x", (), "old"): [1.0]}


def test_failures_are_read_from_jmh_output():
    output = ("# Benchmark: a.B.ok\n# Warmup Iteration   1: 1.0 ns/op\n"
              "# Benchmark: a.B.bad\n# Warmup Iteration   1: <failure>\n\n"
              "java.lang.IllegalStateException: nope\n\tat a.B.setUp(B.java:1)\n")
    assert rounds.failures(output) == {"a.B.bad": "java.lang.IllegalStateException: nope"}


@needs_jar
def test_a_run_that_finds_jmhs_lock_held_says_so(tmp_path):
    """JMH takes a machine-wide lock in its temporary folder and exits where another run holds
    it: the side that gave no result says that, not 'no result'. The lock here is a folder's
    of its own (java.io.tmpdir), so no other test's JMH is stopped."""
    import fcntl

    with open(tmp_path / "jmh.lock", "w") as held:
        fcntl.lockf(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        done = subprocess.run(["java", f"-Djava.io.tmpdir={tmp_path}", "-jar", str(JAR),
                               "KnownCpuFramesBenchmark", "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms"],
                              capture_output=True, text=True, timeout=120)
    output = done.stdout + done.stderr
    assert rounds.LOCKED in output, output[-2000:]
    assert "another JMH run holds JMH's machine-wide lock" in rounds.no_result(output)
    assert rounds.no_result("# Run complete.") == "JMH gave no result (its output is in the run's log)"


def test_a_recorded_command_names_the_site_profilers_folder_sites_under_the_project_root_too():
    from hotpath.paths import ROOT

    staging = ROOT / "data" / "results" / "ab" / ".run.partial" / "baseline.sites.d"
    cmd = ["java", "-cp", str(ROOT / "target" / "benchmarks.jar"), "org.openjdk.jmh.Main",
           "-prof", f"hotpath.sites:dir={staging}"]
    assert ab._recorded(cmd, staging) == ("java -cp target/benchmarks.jar org.openjdk.jmh.Main "
                                          "-prof hotpath.sites:dir=sites")
