"""`make new-case`: a new case runs green from the start, in a copy of the tree; a bad or taken
name writes nothing."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hotpath import scaffold
from hotpath.errors import HotpathError
from hotpath.paths import ROOT


def copy_of_tree(target: Path) -> Path:
    """The tracked and new files of this checkout, as they are (a clone would miss edits)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file() and not rel.startswith(("data/reference/rounds/", "data/results/")):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / rel)
    return target


@pytest.mark.parametrize("name, message", [
    ("Writer", "lower-case"), ("x", "2 to 20"), ("9lives", "starting with a letter"),
    ("new", "Java keyword"), ("writer", "exists already"),
])
def test_a_bad_or_taken_name_is_refused_and_writes_nothing(tmp_path, name, message):
    tree = copy_of_tree(tmp_path / "tree")
    before = sorted(p for p in tree.rglob("*"))
    with pytest.raises(HotpathError, match=message):
        scaffold.create(tree, name)
    assert sorted(p for p in tree.rglob("*")) == before


@pytest.mark.forks
def test_a_new_case_builds_tests_benchmarks_and_reports_green(tmp_path):
    tree = copy_of_tree(tmp_path / "tree")
    env = {**os.environ, "PYTHONPATH": str(tree), "HOTPATH_ROOT": str(tree)}
    made = subprocess.run([sys.executable, "-m", "hotpath", "new-case", "demo"], cwd=tree, env=env,
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    for part in ("java-src/main/java/hotpath/demo/DemoVariant.java", "notebooks/demo.ipynb",
                 "notebooks/java/demo.ipynb", "data/claims/demo.csv", "data/floors/demo.csv"):
        assert part in made.stdout, part
    # the parts test of the new tree sees a complete case
    parts = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "tests/test_cases.py"], cwd=tree, env=env, capture_output=True, text=True)
    assert parts.returncode == 0, parts.stdout[-2000:]
    # its JUnit test, and the jar that `make report` then finds newer than every source: the
    # tree is compiled once, not twice
    junit = subprocess.run(["mvn", "-q", "-B", "-o", "-Dstyle.color=never", "package",
                            "-Dtest=DemoEquivalenceTest", "-Dsurefire.failIfNoSpecifiedTests=false"],
                           cwd=tree, capture_output=True, text=True)
    assert junit.returncode == 0, junit.stdout[-3000:]
    assert list((tree / "target" / "surefire-reports").glob("*DemoEquivalenceTest*"))
    venv = Path(sys.executable).parent.parent
    # -o: this venv is set up; were pyproject.toml newer, make would set it up anew, from the copy
    report = subprocess.run(["make", "-s", "-o", f"{venv}/.installed", "report", "CASE=demo",
                             "PROFILE=smoke", f"VENV={venv}"],
                            cwd=tree, env=env, capture_output=True, text=True)
    assert report.returncode == 0, (report.stdout + report.stderr)[-3000:]
    # a profile other than the default renders into a folder of its own (paths.reports_folder)
    summary = (tree / "reports" / "smoke" / "demo" / "summary.md").read_text(encoding="utf-8")
    assert "**Result.** At copy(size=64), optimized" in summary
