"""No report prints nan, NaN or None: a cell of a row the run did not measure reads "—", and the
note under its table says why, once."""

import pandas as pd

from hotpath.analyze import compare, load
from hotpath.render import markup
from hotpath.render.document import Document
from reading import UNWANTED, md_tables, rendered, visible


def test_every_format_writes_a_missing_cell_as_a_dash():
    table = pd.DataFrame([{"a": "1", "b": "2"}, {"a": "3"}, {"a": None, "b": float("nan")}])
    assert markup.unmeasured(table) and not markup.unmeasured(table.fillna("x"))
    for text in (markup.to_markdown(table), markup.to_jira(table), markup.html_table(table)):
        assert text.count("—") == 3 and not UNWANTED.search(text)


def test_a_table_with_a_missing_cell_says_why_once(data_dir, tmp_path):
    run = load.read_results(data_dir / "avgt-variant-gc.json")
    doc = Document("", run, tmp_path, heading="h", comparison=compare.pair(run.frame))
    doc.table("complete", pd.DataFrame([{"a": "1"}]))
    doc.table("missing", pd.DataFrame([{"a": "1", "b": "2"}, {"a": "3"}]), note="A note.")
    text = "\n".join(doc.md)
    assert text.count("— not measured in this run.") == 1
    assert text.index("## missing") < text.index("A note.") < text.index("— not measured")


def test_a_row_a_profile_did_not_measure_reads_a_dash_with_the_reason_under_its_table(quick_like_zip):
    summary = (quick_like_zip / "summary.md").read_text(encoding="utf-8")
    per_call = next(rows for h, _, rows in md_tables(summary) if h == "marshalZip: time per call")
    row = next(r for r in per_call if r["payload"] == "MAP_3K")
    unbuffered = [k for k in row if k.startswith("unbuffered")]
    assert unbuffered and all(row[k] == "—" for k in unbuffered)
    section = summary.split("## marshalZip: time per call", 1)[1].split("\n## ", 1)[0]
    assert section.count("— not measured by this profile.") == 1
    for name in ("jira.txt", "report.html"):
        assert "— not measured by this profile." in (quick_like_zip / name).read_text(encoding="utf-8")


def test_no_report_prints_nan_or_none(reference_reports, recorded_reports, quick_like_zip):
    files = [*rendered(reference_reports), *rendered(recorded_reports.reports),
             *rendered(quick_like_zip)]
    assert len(files) > 40
    found = [(p, m.group(), visible(p)[max(0, m.start() - 60):m.end() + 20])
             for p in files for m in UNWANTED.finditer(visible(p))]
    assert found == []
