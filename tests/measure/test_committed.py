"""Nothing committed is written over silently: make bench PROFILE=reference, make aa, make matrix
(and make demos, make merge PROFILE=matrix, make mechanisms OUT=data/reference/mechanisms) refuse in one line before anything starts, unless
OUT= says where else to write or REPLACE= names the committed run; told, each proceeds. And a
run that meets JMH's machine-wide lock says so in its one line. No JMH runs here: what would
measure is replaced by a stand-in that records where it was told to write."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from hotpath import cli
from hotpath.cases import Case
from hotpath.errors import HotpathError
from hotpath.measure import aa, bench, hostcheck, jar, memory, rounds, study
from hotpath.measure import matrix as measure_matrix
from hotpath.paths import AA_REFERENCE, MATRIX, MECHANISMS_REFERENCE, REFERENCE, RESULTS, ROOT, committed
from hotpath.render import report as render_report

REFUSED = "this run would write over committed data in "


@pytest.fixture
def measured(monkeypatch):
    """Every measuring function replaced by one that records its destination: a refused run
    records nothing."""
    calls: list[tuple[str, object]] = []

    def run_together(cases, profile, budget_s, jar=None, shard=None, folder=None, host_check=None):
        calls.append(("bench", folder))
        return []

    def run(case, profile, jar=None, out=None, *rest, **kw):
        calls.append(("bench", out))
        return out

    monkeypatch.setattr(bench, "run_together", run_together)
    monkeypatch.setattr(bench, "run", run)
    monkeypatch.setattr(hostcheck, "refuse_if_contended", lambda profile: None)
    monkeypatch.setattr(aa, "run", lambda budget_s=None, case_ids=None, out=None:
                        calls.append(("aa", out)) or Path(out or aa.OUT))
    monkeypatch.setattr(measure_matrix, "run", lambda case, profile, cells, budget_text="", shard=None,
                        folder=None: calls.append(("matrix", folder)) or ([], {}))
    # the reports are not what is tested: each render records what it was given
    monkeypatch.setattr(render_report, "render_aa", lambda folder, out=None: calls.append(("render aa", folder)) or folder)
    monkeypatch.setattr(render_report, "render_matrix", lambda case_id, profile, out_dir=None, folder=None:
                        calls.append(("render matrix", (out_dir, folder))) or out_dir)
    monkeypatch.setattr(cli, "_wrote", lambda done: None)
    return calls


def _refused(capsys, argv: list[str]) -> str:
    t0 = time.monotonic()
    assert cli.main(argv) == 2
    assert time.monotonic() - t0 < 10
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# -- what is committed ----------------------------------------------------------------------------

def test_committed_data_is_data_but_its_local_runs(tmp_path):
    for path in (REFERENCE, AA_REFERENCE, MATRIX / "jdk17-g1", ROOT / "data" / "aa-runs" / "new-day"):
        assert committed(path), path
    for path in (RESULTS / "quick", RESULTS / "reference", tmp_path, ROOT / "target"):
        assert not committed(path), path


# -- refused, before anything starts --------------------------------------------------------------

@pytest.mark.parametrize("argv, folder, name", [
    (["bench", "--case", "encoder", "--profile", "reference"], "data/reference/ (the reference run)", "reference"),
    (["aa"], "data/reference/aa/ (the A/A run)", "aa"),
    (["matrix", "--case", "store"], "data/matrix/ (the JDK x GC matrix)", "matrix"),
    (["merge", "--profile", "matrix", "shard-folder"], "data/matrix/ (the JDK x GC matrix)", "matrix"),
    (["bench", "--profile", "mechanisms", "--out", "data/reference/mechanisms"],
     "data/reference/mechanisms/ (the run of the patches' mechanisms)", "mechanisms"),
])
def test_a_run_over_committed_data_refuses_in_one_line(capsys, measured, argv, folder, name):
    line = _refused(capsys, argv)
    assert line == (f"hotpath: {REFUSED}{folder}: OUT=<folder> writes it elsewhere "
                    f"(data/results/... or outside data/), REPLACE={name} replaces it")
    assert measured == []


def test_the_wrong_name_or_an_unknown_one_is_refused(capsys, measured):
    assert "REPLACE=aa replaces it" in _refused(capsys, ["aa", "--replace", "reference"])
    assert _refused(capsys, ["aa", "--replace", "everything"]) == (
        "hotpath: REPLACE=everything: not a committed run; known: reference, aa, matrix, demos, mechanisms")
    assert measured == []


def test_out_into_committed_data_is_refused_too(capsys, measured):
    line = _refused(capsys, ["bench", "--case", "encoder", "--out", "data/aa-runs/somewhere"])
    assert line.startswith(f"hotpath: {REFUSED}data/aa-runs/somewhere/: ")
    assert measured == []


def test_out_and_replace_together_are_refused(capsys, measured, tmp_path):
    line = _refused(capsys, ["matrix", "--case", "store", "--out", str(tmp_path), "--replace", "matrix"])
    assert line.endswith(": give one of them")
    assert measured == []


# -- told, each proceeds --------------------------------------------------------------------------

def test_the_reference_run_proceeds_when_told_to_replace_it_or_where_to_write(measured, tmp_path):
    assert cli.main(["bench", "--case", "encoder", "--profile", "reference", "--replace", "reference"]) == 0
    assert cli.main(["bench", "--case", "encoder", "--profile", "reference", "--out", str(tmp_path)]) == 0
    # the default folder (data/reference/), then the one given
    assert [folder for _, folder in measured] == [None, tmp_path]


def test_the_mechanisms_run_is_local_unless_told_to_replace_the_committed_one(measured):
    assert cli.main(["bench", "--profile", "mechanisms"]) == 0
    assert cli.main(["bench", "--profile", "mechanisms", "--replace", "mechanisms"]) == 0
    # data/results/mechanisms/ (the profile's own), then the committed run's folder
    assert [folder for _, folder in measured] == [None, MECHANISMS_REFERENCE]


def test_the_aa_run_proceeds_when_told(measured, tmp_path):
    assert cli.main(["aa", "--replace", "aa"]) == 0
    assert cli.main(["aa", "--results", str(tmp_path)]) == 0
    assert measured == [("aa", None), ("render aa", aa.OUT), ("aa", tmp_path), ("render aa", tmp_path)]


def test_the_matrix_proceeds_when_told_and_renders_the_cells_it_wrote(measured, tmp_path):
    assert cli.main(["matrix", "--case", "store", "--replace", "matrix"]) == 0
    assert cli.main(["matrix", "--case", "store", "--out", str(tmp_path)]) == 0
    reports = ROOT / "reports" / "reference" / "store" / "matrix"
    assert measured == [("matrix", None), ("render matrix", (reports, None)),
                        ("matrix", tmp_path), ("render matrix", (reports, tmp_path))]


def test_a_profile_that_writes_under_data_results_is_not_asked(measured):
    assert cli.main(["bench", "--case", "encoder", "--profile", "smoke"]) == 0
    assert measured == [("bench", None)]


def test_two_builds_into_the_committed_demos_refuse_unless_told(tmp_path):
    builds = study.TwoBuilds.__new__(study.TwoBuilds)
    object.__setattr__(builds, "name", "ignite-encoder")
    with pytest.raises(HotpathError, match=r"data/reference/ab/ignite-encoder/ \(the runs of two "
                                           r"builds on released code\): .*REPLACE=demos replaces it"):
        builds.measure(results_dir=str(ROOT / "data" / "reference" / "ab"))


# -- the make targets say it before anything else -------------------------------------------------

@pytest.mark.parametrize("target", [["bench", "PROFILE=reference"], ["aa"], ["matrix", "CASE=store"],
                                    ["demos"]])
def test_make_refuses_before_anything_starts(target):
    """The benchmark jar is taken as it is (-o): nothing is built, nothing measured."""
    t0 = time.monotonic()
    done = subprocess.run(["make", "--no-print-directory", "-o", "target/benchmarks.jar", "-o",
                           "target/benchmarks.stamp", *target], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    refused = [l for l in done.stderr.splitlines() if l.startswith(f"hotpath: {REFUSED}")]
    assert len(refused) == 1, done.stderr
    assert "OUT=<folder>" in refused[0] and "REPLACE=" in refused[0]
    assert time.monotonic() - t0 < 60


# -- JMH's machine-wide lock ----------------------------------------------------------------------

CASE = Case(id="calibration", writeup="-", system="-", title="-", question="-", benchmarks="-")


def test_a_run_that_meets_jmhs_lock_says_so_in_its_line(tmp_path, monkeypatch):
    """Where JMH's output went to the console, the lock itself is asked: held by another
    process (a POSIX lock, as JMH's FileChannel.tryLock takes it), the line says so."""
    lock = tmp_path / "jmh.lock"
    monkeypatch.setattr(rounds, "LOCK_FILE", lock)
    failing = ["sh", "-c", "exit 1"]
    holder = subprocess.Popen([sys.executable, "-c", f"import fcntl, time; f = open({str(lock)!r}, 'a'); "
                               "fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(HotpathError) as e:
            jar.run_jmh(failing, CASE, tmp_path / "calibration.json")
    finally:
        holder.kill()
        holder.wait()
    assert "another JMH run holds JMH's machine-wide lock" in str(e.value)
    assert "left as it was" in str(e.value)
    # the lock let go: a failure of another kind says nothing of it
    with pytest.raises(HotpathError) as e:
        jar.run_jmh(failing, CASE, tmp_path / "calibration.json")
    assert "machine-wide lock" not in str(e.value)


def test_a_logged_run_that_meets_jmhs_lock_says_so(tmp_path):
    """Where JMH's output went to the run's log, the log says it."""
    log = tmp_path / "run.log"
    said = ["sh", "-c", f"echo 'ERROR: {rounds.LOCKED}. Unable to acquire the JMH lock'; exit 1"]
    with pytest.raises(HotpathError) as e:
        jar.run_jmh(said, CASE, tmp_path / "calibration.json", log=log)
    assert "another JMH run holds JMH's machine-wide lock" in str(e.value)


# -- each profile's reports in a folder of its own ------------------------------------------------

def test_each_profile_renders_into_a_folder_of_its_own(monkeypatch):
    """make report PROFILE=reference no longer replaces the default run's reports/<case>/."""
    from hotpath.paths import REPORTS, reports_folder
    from hotpath.render import overview, study as render_study

    assert reports_folder("quick") == REPORTS
    assert reports_folder("reference") == REPORTS / "reference"
    assert reports_folder("full") == REPORTS / "full"
    # the committed matrix is rendered with the committed reference, by make matrix too
    assert reports_folder("matrix") == REPORTS / "reference"
    folders = []
    monkeypatch.setattr(render_study, "render", lambda profile, cases, folder, *a, **k: folders.append(folder) or [])
    monkeypatch.setattr(overview, "write", lambda profile, folder, made=None: folders.append(folder) or folder)
    monkeypatch.setattr(cli, "_wrote", lambda done: None)
    for profile in ("quick", "reference"):
        assert cli.main(["report", "--case", "encoder", "--profile", profile]) == 0
        assert cli.main(["overview", "--profile", profile]) == 0
    assert folders == [REPORTS, REPORTS, REPORTS / "reference", REPORTS / "reference"]


def _holding(lock: Path) -> subprocess.Popen:
    """Another process holding JMH's lock, as a JMH run would."""
    holder = subprocess.Popen([sys.executable, "-c", f"import fcntl, time; f = open({str(lock)!r}, 'a'); "
                               "fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)"],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def _free(lock: Path) -> bool:
    """Whether another process could take the lock now (a POSIX lock: this process's own do
    not conflict with each other)."""
    return subprocess.run([sys.executable, "-c", f"import fcntl; f = open({str(lock)!r}, 'a'); "
                           "fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)"], capture_output=True).returncode == 0


def test_memory_passes_side_by_side_hold_jmhs_lock_for_themselves(tmp_path, monkeypatch):
    """Their JMH runs pass JMH's lock (memory.PAST_LOCK): hotpath holds it meanwhile, so another
    command's JMH does not start beside them, and lets it go after."""
    lock = tmp_path / "jmh.lock"
    monkeypatch.setattr(rounds, "LOCK_FILE", lock)
    with memory.holding_jmh_lock("the memory passes"):
        assert not _free(lock)
    assert _free(lock)


def test_memory_passes_side_by_side_do_not_start_where_another_run_holds_jmhs_lock(tmp_path, monkeypatch):
    lock = tmp_path / "jmh.lock"
    monkeypatch.setattr(rounds, "LOCK_FILE", lock)
    started = []
    monkeypatch.setattr(bench, "measure_untimed", lambda run, log=None: started.append(run))
    runs = [SimpleNamespace(case=CASE, profile=SimpleNamespace(name="tiny"), plan=None, expected=["a"])]
    holder = _holding(lock)
    try:
        with pytest.raises(HotpathError, match="the memory passes did not start: another JMH run holds"):
            bench.measure_untimed_together(runs)
    finally:
        holder.kill()
        holder.wait()
    assert not started
    bench.measure_untimed_together(runs)
    assert started == runs


def test_memory_passes_side_by_side_run_two_at_a_time_the_longest_first(monkeypatch, tmp_path):
    """The cases with the most sides start first, two at once (both wait at a barrier only two
    can pass together), and the first failure is raised."""
    monkeypatch.setattr(rounds, "LOCK_FILE", tmp_path / "jmh.lock")
    barrier = threading.Barrier(2, timeout=30)
    started, logs = [], []

    def measure(run, log=None):
        started.append(run.case.id)
        logs.append(log)
        if len(started) <= 2:
            barrier.wait()  # broken, and raising, unless the first two run at once
        if run.case.id == "c":
            raise HotpathError("c failed")

    monkeypatch.setattr(bench, "measure_untimed", measure)
    runs = [SimpleNamespace(case=SimpleNamespace(id=c), profile=SimpleNamespace(name="tiny"), plan=None,
                            expected=["x"] * n) for c, n in (("a", 1), ("b", 5), ("c", 3), ("d", 4))]
    with pytest.raises(HotpathError, match="c failed"):
        bench.measure_untimed_together(runs)
    assert started[:2] in (["b", "d"], ["d", "b"])
    assert "c" in started
    assert {log.name for log in logs} <= {f"tiny-{c}-memory.log" for c in "abcd"}
