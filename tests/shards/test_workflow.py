"""The sharded workflow (.github/workflows/shards.yml), run here as its jobs would run it on
three runners: its own commands, one shard after the other, each into a folder of its own.

Run by `make test-shards` after the smoke pass, whose unsharded results of the same cases are
what the merged shards must hold, row for row."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "shards.yml"
HOTPATH = [sys.executable, "-m", "hotpath"]
CASES = "encoder,store"


def hotpath(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([*HOTPATH, *args], cwd=ROOT, capture_output=True, text=True)
    if check and done.returncode:
        pytest.fail(f"hotpath {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done


def rows(path: Path) -> set[tuple]:
    return {(e["benchmark"], e["mode"], tuple(sorted((k, str(v)) for k, v in e["params"].items())))
            for e in json.loads(path.read_text(encoding="utf-8"))}


def test_the_workflow_is_valid_by_githubs_schema():
    # check-jsonschema's vendored schema of GitHub workflows (offline). actionlint would check
    # more, but its PyPI package has no wheel: its sdist downloads the binary from GitHub when it
    # is built, which a locked, registry-only install cannot do.
    checker = Path(sys.executable).with_name("check-jsonschema")
    done = subprocess.run([str(checker), "--builtin-schema", "vendor.github-workflows",
                           str(WORKFLOW)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_input_need_and_matrix_field_the_workflow_names_exists():
    text = WORKFLOW.read_text(encoding="utf-8")
    workflow = yaml.safe_load(text)
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    inputs = set(on["workflow_dispatch"]["inputs"])
    used = set(re.findall(r"inputs\.([A-Za-z0-9_-]+)", text))
    assert used and used <= inputs, used - inputs
    jobs = workflow["jobs"]
    for name, job in jobs.items():
        needs = job.get("needs") or []
        for need in [needs] if isinstance(needs, str) else needs:
            assert need in jobs, f"job {name} needs {need}, which is no job"
    # the shard job reads matrix.<field>: each is in every entry the planning command prints
    cut = json.loads(hotpath("shards", "--profile", "smoke", "--case", CASES, "--shards", "2").stdout)
    fields = set(re.findall(r"matrix\.([a-z_]+)", yaml.safe_dump(jobs["shard"]["steps"])))
    assert fields and all(fields <= set(entry) for entry in cut["include"]), fields
    # each command's output is read through needs.plan.outputs.matrix
    assert jobs["plan"]["outputs"]["matrix"] == "${{ steps.cut.outputs.matrix }}"


def test_every_step_the_workflow_runs_is_a_make_command():
    # nothing in the workflow is logic the project lacks: its run steps call make
    jobs = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    for name, job in jobs.items():
        for step in job["steps"]:
            for line in (step.get("run") or "").splitlines():
                line = line.strip()
                assert not line or line.startswith("make ") or line.startswith('echo "matrix='), \
                    f"job {name}: {line!r} is not a make command"


def make(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True,
                          text=True)
    if done.returncode:
        pytest.fail(f"make {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done


@pytest.fixture(scope="module")
def sharded(tmp_path_factory):
    """The smoke run of two cases cut into two shards by the workflow's own make commands, each
    measured into its own folder and copied away as an artifact would be, then merged."""
    base = tmp_path_factory.mktemp("shards")
    make("shards", "PROFILE=smoke", f"CASE={CASES}", "SHARDS=2", f"JSON={base / 'matrix.json'}")
    cut = json.loads((base / "matrix.json").read_text(encoding="utf-8"))
    folders = []
    for entry in cut["include"]:
        make("bench", "PROFILE=smoke", f"CASE={CASES}", f"SHARD={entry['shard']}")
        k, n = entry["shard"].split("/")
        artifact = base / "artifacts" / f"{k}-of-{n}"
        shutil.copytree(ROOT / "data" / "results" / "smoke" / "shards" / f"{k}-of-{n}", artifact)
        folders.append(artifact)
    merged = base / "merged"
    make("merge", "PROFILE=smoke", f"OUT={merged}", f"FROM={' '.join(map(str, folders))}")
    return cut, folders, merged


def test_the_cut_printed_and_written_are_one(sharded, tmp_path):
    cut, _, _ = sharded
    printed = hotpath("shards", "--profile", "smoke", "--case", CASES, "--shards", "2")
    assert json.loads(printed.stdout) == cut
    assert "shard 1/2" in printed.stderr


def test_the_cut_gives_each_shard_a_case(sharded):
    cut, _, _ = sharded
    assert sorted(e["cases"] for e in cut["include"]) == ["encoder", "store"]


def test_the_merged_shards_hold_exactly_the_unsharded_runs_rows(sharded):
    _, _, merged = sharded
    for case in CASES.split(","):
        unsharded = ROOT / "data" / "results" / "smoke" / f"{case}.json"
        if not unsharded.is_file():
            pytest.fail(f"{unsharded} is missing: run the smoke pass first (make test-smoke)")
        assert rows(merged / f"{case}.json") == rows(unsharded)
        sidecar = json.loads((merged / f"{case}.provenance.json").read_text(encoding="utf-8"))
        assert sidecar["shard_count"] == 2 and len(sidecar["shards"]) == 1
        assert sidecar["shards"][0]["machine"]


def test_the_merged_run_renders(sharded, tmp_path):
    _, _, merged = sharded
    hotpath("report", "--case", "encoder", "--profile", "smoke", "--results",
            str(merged / "encoder.json"), "--out", str(tmp_path))
    assert (tmp_path / "encoder" / "report.html").is_file()


def test_a_missing_shard_is_one_clear_line(sharded, tmp_path):
    _, folders, _ = sharded
    done = hotpath("merge", "--profile", "smoke", "--out", str(tmp_path / "m"), str(folders[0]),
                   check=False)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "is missing" in done.stderr
    assert not (tmp_path / "m").exists()


def edited_copy(folder: Path, to: Path, edit) -> Path:
    """A shard's folder copied with ``edit`` applied to each of its sidecars."""
    shutil.copytree(folder, to)
    for sidecar in to.glob("*.provenance.json"):
        record = json.loads(sidecar.read_text(encoding="utf-8"))
        edit(record)
        sidecar.write_text(json.dumps(record), encoding="utf-8")
    return to


def test_a_shard_of_another_commit_is_refused(sharded, tmp_path):
    _, folders, _ = sharded
    other = edited_copy(folders[1], tmp_path / "other", lambda r: r.update(git_commit="0" * 40))
    done = hotpath("merge", "--profile", "smoke", "--out", str(tmp_path / "m"), str(folders[0]),
                   str(other), check=False)
    assert done.returncode == 2 and "not one run" in done.stderr


def test_a_shard_given_twice_is_refused(sharded, tmp_path):
    _, folders, _ = sharded
    again = tmp_path / "again"
    shutil.copytree(folders[0], again)
    done = hotpath("merge", "--profile", "smoke", "--out", str(tmp_path / "m"), str(folders[0]),
                   str(again), *map(str, folders[1:]), check=False)
    assert done.returncode == 2 and "given twice" in done.stderr


def test_a_row_in_two_shards_is_refused(sharded, tmp_path):
    # shard 1's folder passed off as shard 2 of the cut: every shard is there once, but shard 1's
    # rows are then in two of them
    _, folders, _ = sharded
    posing = edited_copy(folders[0], tmp_path / "posing", lambda r: r["shard"].update(index=2))
    done = hotpath("merge", "--profile", "smoke", "--out", str(tmp_path / "m"), str(folders[0]),
                   str(posing), check=False)
    assert done.returncode == 2 and "a row measured twice" in done.stderr
    assert done.stderr.strip().count("\n") == 0
    assert not (tmp_path / "m").exists()
