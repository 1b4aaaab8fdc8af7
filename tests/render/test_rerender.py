"""Rendering the same JSON twice gives the same bytes: every file of a case report (the
executed notebook, report.html, summary.md, jira.txt, report.json, the PNGs) and the overview."""

import json

from hotpath.render import overview, report, versions
from hotpath.paths import REFERENCE

CASE = "encoder"  # the quickest case to render


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_rendering_a_case_twice_gives_the_same_bytes(reference_reports):
    # the session's render of the reference (`hotpath report --overview`), and the case rendered
    # again over it: the command line and render_case give one report, byte for byte
    out = reference_reports / CASE
    first = _files(reference_reports)
    report.render_case(CASE, REFERENCE / f"{CASE}.json", out)
    overview.write("reference", reference_reports)
    second = _files(reference_reports)

    expected = {f"{CASE}/{name}" for name in (*report.EXPECTED, "report.json", f"{CASE}.ipynb")}
    assert expected <= set(first) and any(n.endswith(".png") for n in first)
    assert {"index.html", "index.md"} <= set(first)
    assert sorted(second) == sorted(first)
    changed = [name for name in first if first[name] != second[name]]
    assert changed == []

    # What used to differ: papermill's random id for the cell it injects, its clock times, and
    # the staging folder (named after the process) in the injected parameters.
    text = second[f"{CASE}/{CASE}.ipynb"].decode("utf-8")
    assert ".staging-" not in text and json.dumps(str(out))[1:-1] in text
    nb = json.loads(text)
    injected = [c for c in nb["cells"] if report.INJECTED in c["metadata"].get("tags", [])]
    assert [c["id"] for c in injected] == [report.INJECTED]
    for meta in (nb["metadata"]["papermill"], *(c["metadata"].get("papermill", {}) for c in nb["cells"])):
        assert not {"start_time", "end_time", "duration"} & set(meta)
    assert not any("execution" in c["metadata"] for c in nb["cells"])

    # and the three texts name the software that drew them
    line = versions.describe()
    for name in report.EXPECTED:
        assert line in second[f"{CASE}/{name}"].decode("utf-8"), name
