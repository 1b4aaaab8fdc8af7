"""The overview page: one row per case with results, linking its report, fetching nothing."""

from hotpath.render import overview
from hotpath.cases import CASES
from hotpath.render.report import external_references


def test_overview_lists_each_case_with_results_and_links_its_report(monkeypatch, tmp_path, data_dir):
    monkeypatch.setattr(overview, "existing_cases", lambda: [CASES["writer"], CASES["encoder"]])
    monkeypatch.setattr(overview, "results_file",
                        lambda profile, case: data_dir / "avgt-variant-gc.json" if case == "writer"
                        else tmp_path / "missing.json")
    # a report that was never rendered here is not linked
    page = overview.write("quick", tmp_path)
    md = (tmp_path / "index.md").read_text()
    assert "| writer |" in md and "| encoder |" not in md
    assert "](writer/report.html)" not in md and "not rendered" in md
    assert 'href="writer/report.html"' not in page.read_text()
    # once it is, the row links it and shows its headline and first chart, embedded
    (tmp_path / "writer").mkdir()
    (tmp_path / "writer" / "report.html").write_text("<html></html>")
    import matplotlib.pyplot as plt
    from hotpath.render import charts
    fig, ax = plt.subplots()
    ax.plot([1, 2])
    charts.save_png(fig, tmp_path / "writer" / "heap-alloc.png")
    (tmp_path / "writer" / "report.json").write_text('{"headline": "x", "charts": ["heap-alloc.png"]}')
    page = overview.write("quick", tmp_path)
    md = (tmp_path / "index.md").read_text()
    assert "[writer/report.html](writer/report.html)" in md
    # the case's Result as one row: its main row, what changed there, its rows decided
    assert ("| [writer](writer/report.html) | copy(size=64), optimized against old | time per op "
            "−82.2% (undecided) | heap 80 → 0 B/op (none left) | 0 of 2 |") in md
    assert "**The machine.** Median fork CV" in md
    assert 'src="data:image/png;base64,' in page.read_text()
    # every row names the file its figures come from
    assert "## Sources" in md and "avgt-variant-gc.json" in md
    # and the write-ups' claims of every listed case, checked, in one table
    assert "## Claims, all cases" in md and "| writer | compressedMapFields(30) throughput |" in md
    html = page.read_text()
    assert '<a href="writer/report.html">' in html
    assert external_references(html) == []


def test_the_overview_links_reports_beyond_the_cases_that_were_rendered(tmp_path):
    for folder, headline in ((tmp_path / "ab" / "master-vs-patch", "patch is 2× slower"),
                             (tmp_path / "aa", "0 false alarms")):
        folder.mkdir(parents=True)
        (folder / "report.json").write_text(f'{{"headline": "{headline}", "charts": []}}')
        (folder / "report.html").write_text("<html></html>")
    (tmp_path / "ab" / "half-written").mkdir()  # no report: not linked
    found = overview.other_reports(tmp_path)
    assert found == [("A/A: identical code as two sides", "aa/report.html", "0 false alarms"),
                     ("two builds: master-vs-patch", "ab/master-vs-patch/report.html", "patch is 2× slower")]
