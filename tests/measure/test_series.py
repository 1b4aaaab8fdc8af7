"""A patch series measured (hotpath.measure.series), its input checked before anything runs and
its folder put in place only whole. Its forks, with known answers, are held in test_ab.py, where
one series serves the two builds' tests."""

import json
import shutil
import subprocess

import pytest

from hotpath.cli import main
from hotpath.errors import HotpathError
from hotpath.measure import ab, series
from hotpath.paths import JAR, ROOT

needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")


@pytest.fixture
def copies(tmp_path):
    """Two more builds of the study's jar (byte copies: nothing here runs them)."""
    made = []
    for name in ("a.jar", "b.jar"):
        shutil.copyfile(JAR, tmp_path / name)
        made.append(str(tmp_path / name))
    return made


@needs_jar
@pytest.mark.parametrize("steps, extra, says", [
    ([], [], "a series needs at least one step beside its baseline"),
    (["nosuch.jar"], [], "step nosuch.jar: no such file or folder"),
    (["{jar}"], [], "is the baseline itself"),
    (["{a}", "{b}"], ["--step-names", "one"], "--step-names gives 1 name(s) for 2 step(s)"),
    (["{a}"], ["--step-names", "master", "--baseline-name", "master"], "must differ from each other and from the baseline's"),
])
def test_bad_input_gets_one_clear_line_and_nothing_runs(tmp_path, capsys, copies, steps, extra, says):
    given = [s.format(jar=JAR, a=copies[0], b=copies[1]) for s in steps]
    results = tmp_path / "results"
    assert main(["series", str(JAR), *given, *extra, "--results-dir", str(results)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0], err
    assert not results.exists()


@needs_jar
def test_jars_of_one_name_are_told_apart_by_their_step():
    base = series.builds.parse(str(JAR), "baseline")
    steps = [series.builds.parse(str(JAR), "step")] * 2
    assert series.step_names_of(base, steps, "") == ["benchmarks (step 1)", "benchmarks (step 2)"]


@needs_jar
def test_the_budget_is_split_evenly_and_a_step_that_fails_leaves_the_earlier_series_as_it_was(
        tmp_path, copies, monkeypatch):
    """Each step's run is ab.run's (here one that writes a folder, or fails at the second step)."""
    ran = []

    def run(baseline, step, selection, profile, budget_s, name, out, java, log_to):
        ran.append((baseline.name, step.name, step.role, budget_s, out.name))
        if fail and len(ran) == 2:
            raise HotpathError("nothing ran on b")
        out.mkdir(parents=True)
        (out / "ab.json").write_text("{}")
        return out

    monkeypatch.setattr(ab, "rows_for", lambda *args: None)  # no JMH listing either
    monkeypatch.setattr(ab, "run", run)
    measured = series.Series.of(str(JAR), copies, baseline_name="master", name="w", profile="quick")
    results = tmp_path / "results"
    fail = False
    folder = measured.measure("60s", str(results), log=lambda line: None)
    assert ran == [("master", "a", "candidate", 30.0, "1-a"), ("master", "b", "candidate", 30.0, "2-b")]
    manifest = json.loads((folder / "series.json").read_text())
    assert [(s["name"], s["folder"]) for s in manifest["steps"]] == [("a", "1-a"), ("b", "2-b")]
    assert (manifest["budget_s"], manifest["budget_s_per_step"], manifest["profile"]) == (60.0, 30.0, "quick")
    assert sorted(p.name for p in folder.iterdir()) == ["1-a", "2-b", "series.json"]
    fail, ran[:] = True, []
    with pytest.raises(HotpathError, match="nothing ran on b"):
        measured.measure("60s", str(results), log=lambda line: None)
    assert [p.name for p in results.iterdir()] == ["w"]  # no staging folder left
    assert json.loads((folder / "series.json").read_text()) == manifest


@pytest.mark.parametrize("given, says", [
    (["STEPS=a.jar", "CANDIDATE=b.jar"], "give CANDIDATE= (two builds) or STEPS= (a patch series), not both"),
    (["STEPS=a.jar"], "a patch series needs its baseline beside STEPS="),
])
def test_make_refuses_a_series_it_cannot_run_before_anything_starts(given, says):
    """Refused as the Makefile is read: nothing is built or set up (-n: nor would it be)."""
    args = ["BASELINE=master.jar"] if "CANDIDATE=b.jar" in given else []
    done = subprocess.run(["make", "-n", "--no-print-directory", "report", *args, *given], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and says in done.stderr


def test_make_report_with_steps_runs_hotpath_series_with_each_step_in_order():
    done = subprocess.run(["make", "-n", "--no-print-directory", "-o", "target/benchmarks.jar", "-o",
                           "target/benchmarks.stamp", "-o", ".venv/.installed", "report", "BASELINE=m.jar",
                           "STEPS=a.jar,b.jar,c.jar", "BENCH=Writer", "BUDGET=9m", "STEP_NAMES=x,y,z"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    command = " ".join(done.stdout.replace("\\\n", " ").split())
    assert ("hotpath series 'm.jar' 'a.jar' 'b.jar' 'c.jar' --bench 'Writer' --budget '9m' "
            "--step-names 'x,y,z'") in command
