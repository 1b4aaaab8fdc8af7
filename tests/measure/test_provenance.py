"""The provenance sidecar calls a tree dirty for source changes, not for the results a run writes."""

import subprocess

from hotpath.measure import jar


def _repo(path):
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "Model.java").write_text("class Model {}\n")
    subprocess.run(["git", "-C", str(path), "add", "."], check=True)
    subprocess.run(["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-qm", "model"], check=True)


def test_results_written_by_a_run_leave_the_tree_clean_and_source_changes_do_not(tmp_path, monkeypatch):
    _repo(tmp_path)
    monkeypatch.setattr(jar, "ROOT", tmp_path)
    (tmp_path / "data" / "reference" / "rounds").mkdir(parents=True)
    (tmp_path / "data" / "reference" / "writer.json").write_text("[]")
    env = jar.environment()
    assert env["git_dirty"] is False and env["git_dirty_paths"] == []

    (tmp_path / "Model.java").write_text("class Model { int changed; }\n")
    (tmp_path / "New.java").write_text("class New {}\n")
    env = jar.environment()
    assert env["git_dirty"] is True
    assert sorted(env["git_dirty_paths"]) == ["Model.java", "New.java"]
