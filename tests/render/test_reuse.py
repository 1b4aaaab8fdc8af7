"""A report is kept only while nothing it is made of has changed: any input changed, or any of
its files changed, renders it again; and every file a report's notebook reads is an input."""

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from hotpath.cases import CASES
from hotpath.paths import AA_REFERENCE, AB_REFERENCE, JAR, REFERENCE, REPORTS, ROOT, sidecar_of
from hotpath.render import report, reuse, versions

CASE = "encoder"  # the quickest case to render


@pytest.fixture
def records(tmp_path, monkeypatch):
    monkeypatch.setattr(reuse, "RECORDS", tmp_path / "records")
    return tmp_path / "records"


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """The inputs outside data/ as copies of their own, free to change: notebooks, the package,
    the jar."""
    made = tmp_path / "tree"
    (made / "notebooks").mkdir(parents=True)
    (made / "notebooks" / "a.ipynb").write_text("{}")
    (made / "hotpath").mkdir()
    (made / "hotpath" / "a.py").write_text("A = 1\n")
    (made / "hotpath" / "__pycache__").mkdir()
    (made / "benchmarks.jar").write_bytes(b"PK")
    (made / "data").mkdir()
    (made / "data" / "run.json").write_text("[]")
    monkeypatch.setattr(reuse, "NOTEBOOKS", made / "notebooks")
    monkeypatch.setattr(reuse, "PACKAGE", made / "hotpath")
    monkeypatch.setattr(reuse, "JAR", made / "benchmarks.jar")
    return made


def _digest(tree: Path) -> str:
    return reuse.Inputs.read((tree / "data",)).digest


CHANGES = {
    "a data file's bytes": lambda t, mp: (t / "data" / "run.json").write_text("[ ]"),
    "a data file more": lambda t, mp: (t / "data" / "run.memory.json").write_text("[]"),
    "a notebook": lambda t, mp: (t / "notebooks" / "a.ipynb").write_text('{"cells": []}'),
    "the package's source": lambda t, mp: (t / "hotpath" / "a.py").write_text("A = 2\n"),
    "a file of the package that is not Python": lambda t, mp: (t / "hotpath" / "t.html.j2").write_text("x"),
    "the jar": lambda t, mp: (t / "benchmarks.jar").write_bytes(b"PK2"),
    "the commit a report names": lambda t, mp: mp.setattr(versions, "describe", lambda: "other"),
    "an environment variable": lambda t, mp: mp.setenv("HOTPATH_SOMETHING", "1"),
    "the JVM's options": lambda t, mp: mp.setenv("_JAVA_OPTIONS", "-Xint"),
    "the JDK": lambda t, mp: mp.setattr(reuse, "_java", lambda: ("/other/bin/java", None)),
    "the IPython profile's config": lambda t, mp: mp.setenv("IPYTHONDIR", str(_ipython(t))),
}


def _ipython(tree: Path) -> Path:
    (tree / "ipython" / "profile_default").mkdir(parents=True)
    (tree / "ipython" / "profile_default" / "ipython_kernel_config.py").write_text("c = 1\n")
    return tree / "ipython"


@pytest.mark.parametrize("change", CHANGES)
def test_every_input_changes_the_digest(tree, monkeypatch, change):
    before = _digest(tree)
    assert _digest(tree) == before  # nothing changed: the same digest
    CHANGES[change](tree, monkeypatch)
    assert _digest(tree) != before


def test_what_no_render_reads_leaves_the_digest_alone(tree, monkeypatch):
    before = _digest(tree)
    (tree / "hotpath" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    monkeypatch.setenv("MAKELEVEL", "3")
    monkeypatch.setenv("OLDPWD", "/")
    monkeypatch.setenv("SSH_CONNECTION", "10.0.0.1 50000 10.0.0.2 22")
    # make's command-line variables, in its recipes' environment: `make report PROFILE=reference`
    monkeypatch.setenv("MAKEFLAGS", r"s -- NAME=a\ b=c PROFILE=reference")
    monkeypatch.setenv("PROFILE", "reference")
    monkeypatch.setenv("NAME", "a b=c")
    assert _digest(tree) == before


def test_a_job_is_keyed_by_its_arguments_and_folder(tmp_path):
    inputs = reuse.Inputs("digest")
    results = REFERENCE / f"{CASE}.json"
    out, key = inputs.key(report.render_case, (CASE, results, tmp_path / CASE, {}))
    assert out == (tmp_path / CASE).resolve()
    assert inputs.key(report.render_case, (CASE, results, tmp_path / CASE, {}))[1] == key
    others = [inputs.key(report.render_case, (CASE, results, tmp_path / "elsewhere", {})),
              inputs.key(report.render_case, (CASE, results, tmp_path / CASE, {"x": 1})),
              inputs.key(report.render_case, (CASE, REFERENCE / "zip.json", tmp_path / CASE, {})),
              reuse.Inputs("another digest").key(report.render_case, (CASE, results, tmp_path / CASE, {}))]
    assert len({key, *(k for _, k in others)}) == 5


def test_a_job_naming_a_file_outside_data_is_not_reused(tmp_path):
    inputs = reuse.Inputs("digest")
    outside = tmp_path / f"{CASE}.json"
    assert inputs.key(report.render_case, (CASE, outside, tmp_path / CASE, {})) is None
    assert inputs.key(report.render_case, (CASE, REFERENCE / f"{CASE}.json", tmp_path / CASE,
                                           {"results": str(outside)})) is None
    # nor a job without a folder of its own, nor one that records no key
    assert inputs.key(report.render_case, (CASE, REFERENCE / f"{CASE}.json")) is None
    assert inputs.key(report.execute, (ROOT / "notebooks" / "a.ipynb", tmp_path, {})) is None


def test_a_folder_is_kept_only_while_it_holds_the_files_recorded(tmp_path, records):
    out = tmp_path / "report"
    (out / "flames" / "x").mkdir(parents=True)
    (out / "report.html").write_text("report")
    (out / "sites").mkdir()
    (out / "sites" / "a.added.html").write_text("graph")
    published = reuse.files(out, report.KEPT)
    assert set(published) == {"report.html", "sites/a.added.html"}
    reuse.keep(out, "k", published)

    def kept() -> bool:
        return reuse.fresh(out, "k", reuse.files(out, report.KEPT))

    assert kept() and not reuse.fresh(out, "other key", reuse.files(out, report.KEPT))
    (out / "flames" / "x" / "forward.html").write_text("another command's")  # not this job's
    assert kept()
    for change, undo in (
            (lambda: (out / "report.html").write_text("edited"), lambda: (out / "report.html").write_text("report")),
            (lambda: (out / "sites" / "a.added.html").unlink(), lambda: (out / "sites" / "a.added.html").write_text("graph")),
            (lambda: (out / "stray.png").write_bytes(b""), lambda: (out / "stray.png").unlink())):
        change()
        assert not kept()
        undo()
        assert kept()
    shutil.rmtree(out)
    assert not kept()


def _render(data: Path, out_dir: Path | None = None, key: str | None = None) -> Path:
    """A render as publish_notebook records one."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.html").write_text("report")
    reuse.keep(out_dir.resolve(), key, reuse.files(out_dir))
    return out_dir


def _render_changing_an_input(data: Path, out_dir: Path | None = None, key: str | None = None) -> Path:
    (data / "run.json").write_text("[1]")
    return _render(data, out_dir, key)


@pytest.mark.parametrize("render", [_render, _render_changing_an_input])
def test_a_render_while_an_input_changed_is_not_recorded(tree, records, render):
    out = tree / "reports" / "x"
    job = [[(render, (tree / "data", out))]]
    (done,), = report.render_all(job, inputs=reuse.Inputs.read((tree / "data",)))
    assert done == out and not isinstance(done, reuse.Kept)
    recorded = render is _render
    assert reuse.record_of(out.resolve()).exists() is recorded
    (again,), = report.render_all(job, inputs=reuse.Inputs.read((tree / "data",)))
    assert isinstance(again, reuse.Kept) is recorded


def test_a_changed_input_renders_the_report_again(tmp_path, records):
    """The same inputs keep the report; a changed results sidecar renders it again, and the
    report says what changed."""
    data = tmp_path / "data"
    data.mkdir()
    # the timed results and their sidecar only: what is kept or rendered again is the same
    # with the sampled passes' files beside them, at half the render's time
    for source in (REFERENCE / f"{CASE}.json", sidecar_of(REFERENCE / f"{CASE}.json")):
        shutil.copy(source, data / source.name)
    out = tmp_path / "reports" / CASE
    job = [[(report.render_case, (CASE, data / f"{CASE}.json", out, {}))]]

    def render() -> Path:
        # this run's data alone: make test's smoke pass writes data/results/ meanwhile, and a
        # render whose inputs changed while it ran is rightly not recorded
        (done,), = report.render_all(job, inputs=reuse.Inputs.read((data,)))
        assert isinstance(done, Path), done
        return done

    first = render()
    assert not isinstance(first, reuse.Kept)
    made = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    again = render()
    assert isinstance(again, reuse.Kept) and again == first
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == made

    provenance = json.loads(sidecar_of(data / f"{CASE}.json").read_text(encoding="utf-8"))
    provenance["started"] = "2001-02-03T04:05:06Z"
    sidecar_of(data / f"{CASE}.json").write_text(json.dumps(provenance), encoding="utf-8")
    third = render()
    assert not isinstance(third, reuse.Kept)
    assert "2001-02-03" in (out / "summary.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("changed_meanwhile", [False, True])
def test_a_failed_render_leaves_the_earlier_folder_and_its_record(tmp_path, records, monkeypatch,
                                                                  changed_meanwhile):
    # Changed meanwhile: another command wrote under data/ while it rendered (make test's smoke
    # pass does, beside the render tests). The failed render published nothing, so the record of
    # what the folder holds stays true.
    if changed_meanwhile:
        monkeypatch.setattr(reuse.Inputs, "unchanged", lambda self: False)
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(REFERENCE / f"{CASE}.json", data / f"{CASE}.json")
    out = tmp_path / "reports" / CASE
    out.mkdir(parents=True)
    (out / "report.html").write_text("good earlier report")
    reuse.keep(out.resolve(), "earlier", reuse.files(out))
    (data / f"{CASE}.json").write_text("[")  # corrupt: the render stops before the notebook
    job = [[(report.render_case, (CASE, data / f"{CASE}.json", out, {}))]]
    (done,), = report.render_all(job, inputs=reuse.Inputs.read((reuse.DATA, data)))
    assert isinstance(done, Exception)
    assert (out / "report.html").read_text() == "good earlier report"
    assert json.loads(reuse.record_of(out.resolve()).read_text())["key"] == "earlier"


# Every report of the committed reference: its notebook and parameters.
READS = {
    **{c: (c, {"case": c, "results": str(REFERENCE / f"{c}.json")})
       for c in ("writer", "encoder", "marshaller", "store", "zip")},
    "matrix": ("matrix", {"case": "store", "profile": "matrix"}),
    "ab": ("ab", {"folder": str(sorted(AB_REFERENCE.glob("*/"))[0])}),  # the runs share it
    "aa": ("aa", {"folder": str(AA_REFERENCE)}),
}


@pytest.mark.parametrize("job", READS)
def test_every_file_a_report_reads_is_an_input(tmp_path, job):
    """The notebook's cells run here under an audit hook: every file opened or folder listed
    is under data/ (hashed whole), in the report's own folder or a temporary one, or Python's
    own (by version); the programs started are git (the commit line, read as such) and the
    JDK on the jar (both hashed)."""
    notebook, parameters = READS[job]
    out = tmp_path / "out"
    seen: set[tuple[str, str]] = set()
    active = [False]

    def hook(event, args):
        if not active[0]:
            return
        if event == "subprocess.Popen":
            seen.add(("run", " ".join(map(os.fsdecode, args[1]))))
            return
        # a folder listed by its descriptor was named when it was opened
        named = "." if args and args[0] is None else args[0] if args else None
        if not isinstance(named, (str, bytes, os.PathLike)):
            return
        if event == "open":
            seen.add(("read", os.fsdecode(named)))
        elif event in ("os.listdir", "os.scandir", "glob.glob"):
            seen.add(("list", os.fsdecode(named)))

    sys.addaudithook(hook)
    cells = json.loads((ROOT / "notebooks" / f"{notebook}.ipynb").read_text(encoding="utf-8"))["cells"]
    scope: dict = {}
    cwd = os.getcwd()
    os.chdir(ROOT)  # as the kernel runs
    active[0] = True
    try:
        for cell in cells:
            if cell["cell_type"] == "code":
                exec("".join(cell["source"]), scope)
                if "parameters" in cell["metadata"].get("tags", []):
                    scope.update(parameters, output_dir=str(out))
    finally:
        active[0] = False
        os.chdir(cwd)

    # (a case report's links to `make profile`'s flame graphs: their names are an input)
    allowed = [reuse.DATA, out, Path(tempfile.gettempdir()), Path(sys.prefix), Path(sys.base_prefix),
               Path(sys.exec_prefix), reuse.PACKAGE, *(REPORTS / c / "flames" for c in CASES)]
    outside = sorted((kind, path) for kind, path in seen if kind != "run" and not any(
        Path(ROOT, path).resolve().is_relative_to(a.resolve()) for a in allowed))
    assert outside == []
    ran = {what for kind, what in seen if kind == "run"}
    # git, on this tree; the JDK, on the jar (its options are the package's, hashed with it)
    assert all(what.startswith(f"git -C {ROOT} ") or (what.startswith("java ") and f" -cp {JAR} " in what)
               for what in ran), ran
