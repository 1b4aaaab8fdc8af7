"""A report lists the software that drew it, read at render time, beside the run's JDK and JMH."""

import importlib.metadata
import platform
import subprocess

from hotpath.render import versions
from hotpath.render.document import Document
from hotpath.analyze.load import read_results


def _git(path, *args):
    subprocess.run(["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True)


def test_the_line_names_python_every_package_and_hotpaths_commit():
    line = versions.describe()
    assert line.startswith(f"Python {platform.python_version()} (")
    for name in versions.PACKAGES:
        assert f"{name} {importlib.metadata.version(name)}" in line
    assert "hotpath " in line


def test_hotpath_is_named_by_its_commit_and_a_changed_tree_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(versions, "ROOT", tmp_path)
    assert versions.hotpath().endswith("(not a git checkout)")
    _git(tmp_path, "init", "-q")
    (tmp_path / "model.py").write_text("x = 1\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "model")
    commit = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    assert versions.hotpath() == f"hotpath {commit}"
    # results are the report's inputs, named by rows of their own: not a change of the code
    (tmp_path / "data" / "results" / "quick").mkdir(parents=True)
    (tmp_path / "data" / "results" / "quick" / "writer.json").write_text("[]")
    assert versions.hotpath() == f"hotpath {commit}"
    (tmp_path / "model.py").write_text("x = 2\n")
    assert versions.hotpath() == f"hotpath {commit} (uncommitted changes)"


def test_every_report_text_lists_them_in_its_environment(tmp_path, data_dir):
    doc = Document("", read_results(data_dir / "avgt-variant-gc.json"), tmp_path, heading="h")
    doc.environment()
    doc.write()
    line = versions.describe()
    summary = (tmp_path / "summary.md").read_text()
    assert f"| rendered with | {line} |" in summary
    assert summary.index("| JMH |") < summary.index("| rendered with |")
    assert f"|rendered with|{line}|" in (tmp_path / "jira.txt").read_text()
