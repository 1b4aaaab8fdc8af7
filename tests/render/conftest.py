import json
from collections import namedtuple
from pathlib import Path

import pytest

from hotpath.cases import CASES
from hotpath.cli import main
from hotpath.paths import AA_CALIBRATION, REFERENCE, ROOT, memory_of, peaks_of, sidecar_of


#: Where the reference's reports are rendered for the tests. make test's smoke reports take the
#: two builds, the A/A and encoder from here for the browser tests (Makefile: REFERENCE_REPORTS).
REFERENCE_REPORTS = ROOT / "target" / "reference-reports"


@pytest.fixture(scope="session")
def reference_reports():
    """Every report of the committed reference, and its overview, rendered for the tests that
    read them as `hotpath report` renders them: a report whose inputs (data, notebooks, the
    package's source, the jar...) are what its last render read is kept, the others render."""
    assert main(["report", "--profile", "reference", "--overview", "--out", str(REFERENCE_REPORTS)]) == 0
    return REFERENCE_REPORTS


def aa_as_case(case, folder: Path) -> Path:
    """The 2026-11-26 A/A run's rows of one case as that case's run, written into ``folder``:
    old against old under the write-up's variant's name, every fork recorded from its start
    (some never settled), each row stopped where the A/A's sequential plan stopped it."""
    prefix = f"hotpath.{case.id}."

    def side(name: str, variant: str) -> list[dict]:
        entries = json.loads((AA_CALIBRATION / name).read_text(encoding="utf-8"))
        return [{**e, "params": {**e["params"], "variant": variant}} for e in entries
                if e["benchmark"].startswith(prefix)]

    path = folder / f"{case.id}.json"
    path.write_text(json.dumps(side("baseline.json", "old") + side("candidate.json", case.candidate)))
    plan = json.loads((AA_CALIBRATION / "ab.json").read_text(encoding="utf-8"))["sequential"]
    rows = [{**r, "candidate": case.candidate,
             "params": ", ".join(p for p in r["params"].split(", ") if not p.startswith("variant="))}
            for r in plan["rows"] if r["benchmark"].startswith(prefix)]
    sidecar_of(path).write_text(json.dumps({"profile": "aa", "sequential": {**plan, "rows": rows}}))
    return path


#: Rendered reports (with their overview) and the results file of each case they were made from.
Rendered = namedtuple("Rendered", "reports files")


@pytest.fixture(scope="session")
def recorded_reports(tmp_path_factory) -> Rendered:
    """Every case's report, and the overview, of a run whose forks were recorded from their
    start (the 2026-11-26 A/A's, one case at a time: aa_as_case)."""
    from hotpath.render import overview, report

    runs = tmp_path_factory.mktemp("recorded-runs")
    out = tmp_path_factory.mktemp("recorded-reports")
    files = {case.id: aa_as_case(case, runs) for case in CASES.values()}
    done = report.render_all([[(report.render_case, (c, f, out / c))] for c, f in files.items()])
    assert all(isinstance(d, Path) for (d,) in done), done
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(overview, "results_file", lambda profile, case_id: files[case_id])
        overview.write("aa", out)
    return Rendered(out, files)


#: The rows the quick profile leaves out of zip's write-up table: the rejected variant at two
#: payloads.
QUICK_LEAVES_OUT = {("MAP_3K", "unbuffered"), ("MAP_132K", "unbuffered")}


def _without(entries: list[dict]) -> list[dict]:
    return [e for e in entries if not (e["benchmark"].endswith("ZipMarshalBenchmark.marshalZip")
                                       and (e["params"]["payload"], e["params"]["variant"])
                                       in QUICK_LEAVES_OUT)]


@pytest.fixture(scope="session")
def quick_like_zip(tmp_path_factory):
    """zip's report on the reference run less the rows a quick run does not measure (timing,
    memory pass and peaks), under the quick profile's name."""
    from hotpath.render import report

    runs = tmp_path_factory.mktemp("quick-like-run")
    source = REFERENCE / "zip.json"
    path = runs / "zip.json"
    for read, written in ((source, path), (memory_of(source), memory_of(path))):
        written.write_text(json.dumps(_without(json.loads(read.read_text(encoding="utf-8")))))
    peaks = json.loads(peaks_of(source).read_text(encoding="utf-8"))
    peaks_of(path).write_text(json.dumps(_without(peaks)))
    sidecar_of(path).write_text(json.dumps({"profile": "quick"}))
    return report.render_case("zip", path, tmp_path_factory.mktemp("quick-like-reports") / "zip")
