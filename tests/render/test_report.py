"""Report publishing: parameters are checked, output renders offline, failures lose nothing."""


import pytest

from hotpath.render import report
from hotpath.errors import HotpathError, ResultsError
from hotpath.paths import ROOT

NOTEBOOK = ROOT / "notebooks" / "writer.ipynb"


def test_parameters_of_the_wrong_type_are_refused():
    with pytest.raises(HotpathError, match="takes a str"):
        report.check_parameters(NOTEBOOK, {"results": 42})


def test_unknown_parameters_are_refused():
    with pytest.raises(HotpathError, match="no parameter 'colour'"):
        report.check_parameters(NOTEBOOK, {"colour": "red"})


@pytest.mark.parametrize("text, type_name, value", [
    ("3", "int", 3), ("0.5", "float", 0.5), ("true", "bool", True), ("no", "bool", False),
])
def test_command_line_strings_are_coerced_to_the_declared_type(text, type_name, value):
    assert report.coerce("x", text, type_name) == value


def test_uncoercible_values_give_a_clear_error():
    with pytest.raises(HotpathError, match="takes a int, not 'many'"):
        report.coerce("forks", "many", "int")


def test_external_scripts_and_styles_are_detected():
    html = ('<script src="https://cdn.example/require.js"></script>'
            '<link rel="stylesheet" href="//cdn.example/a.css"><img src="data:image/png;base64,AA">')
    found = report.external_references(html)
    assert len(found) == 2


def test_publish_replaces_the_report_and_keeps_flame_graphs(tmp_path):
    out = tmp_path / "writer"
    (out / "flames").mkdir(parents=True)
    (out / "flames" / "old.html").write_text("flame")
    (out / "report.html").write_text("old report")
    staging = tmp_path / ".writer.staging"
    staging.mkdir()
    (staging / "report.html").write_text("new report")
    report.publish(staging, out)
    assert (out / "report.html").read_text() == "new report"
    assert (out / "flames" / "old.html").read_text() == "flame"
    assert not staging.exists()


def test_a_corrupt_results_file_leaves_the_earlier_report_untouched(tmp_path, data_dir):
    out = tmp_path / "writer"
    out.mkdir()
    (out / "report.html").write_text("good earlier report")
    bad = tmp_path / "writer.json"
    bad.write_text((data_dir / "avgt-params-gc.json").read_text()[:500])
    with pytest.raises(ResultsError, match="truncated"):
        report.render_case("writer", bad, out)
    assert (out / "report.html").read_text() == "good earlier report"
    assert not any(p.name.startswith(".writer.staging") for p in tmp_path.iterdir())


def test_an_unknown_case_is_refused():
    with pytest.raises(HotpathError, match="unknown case 'nope'"):
        report.render_case("nope", ROOT / "x.json")


def test_a_figure_leaves_no_value_for_a_notebook_cell_to_print(tmp_path, data_dir):
    import matplotlib.pyplot as plt

    from hotpath.render.document import Document
    from hotpath.analyze.load import read_results

    doc = Document("", read_results(data_dir / "avgt-variant-gc.json"), tmp_path, heading="h")
    fig, _ = plt.subplots()
    # A cell ending in doc.figure(...) printed PosixPath('.../.case.staging-N/x.png') in reports.
    assert doc.figure("x", fig, "a caption") is None
    assert (tmp_path / doc.named("x.png")).is_file() and doc.charts == [doc.named("x.png")]


def test_a_render_hands_out_the_a_a_first_and_the_smallest_run_of_two_builds_last():
    # the reference's groups as study.render makes them: the A/A, a case, its runs of two builds
    ab = ROOT / "data" / "reference" / "ab"
    groups = [[(report.render_ab, (ab / name, None))] for name in
              ("rocketmq-dispatch32-again", "ignite-encoder", "rocketmq-store")]
    groups += [[(report.render_aa, (ROOT / "data" / "reference" / "aa", None))],
               [(report.render_case, ("reference", "writer")), (report.render_matrix, ("reference", "writer"))]]
    cost = [sum(report._seconds(render, args) for render, args in g) for g in groups]
    order = sorted(range(len(groups)), key=lambda i: -cost[i])
    assert order[:2] == [3, 4] and order[-1] == 0  # the 0.3 MB run of two builds goes last
    assert cost[2] > cost[1] > cost[0]  # 1.8 MB, 1.6 MB, 0.3 MB
