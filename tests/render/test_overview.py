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


def test_the_overview_checks_each_claim_as_the_case_report_does(tmp_path):
    """Part claims too, on the mechanisms the reference's report splits its change among (the
    committed run of them): the overview's count of claims reproduced is the report's."""
    from hotpath.analyze import compare
    from hotpath.analyze.load import read_results
    from hotpath.analyze.report import Analysis
    from hotpath.cases import get_case, load_claims
    from hotpath.paths import REFERENCE

    run = read_results(REFERENCE / "marshaller.json")
    report = Analysis(run, compare.pair(run.frame), get_case("marshaller")).claims
    made = overview.case_row("reference", "marshaller", tmp_path)
    assert made is not None
    row, shown = made
    assert list(shown["verdict"]) == list(report["verdict"]) and list(shown["why"]) == list(report["why"])
    # check's rows are the claims file's, in its order
    parts = report[[m.startswith("part.") for m in load_claims("marshaller")["metric"]]]
    assert len(parts) == 3 and (parts["verdict"] != "not comparable").all(), parts[["claim", "verdict", "why"]]
