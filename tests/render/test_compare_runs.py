"""Any two JMH runs (or two @Param values) render the same report files as a case."""

import pytest

from hotpath.render import report
from hotpath.runs import run_id
from hotpath.errors import HotpathError


def test_two_files_from_outside_the_cases_render_a_report(tmp_path, data_dir):
    out = report.compare_runs(data_dir / "avgt-params-gc.json", data_dir / "avgt-params-gc-rerun.json",
                              tmp_path / "ab")
    for name in ("report.html", "jira.txt", "summary.md"):
        assert (out / name).is_file(), name
    # the attachments carry the report's and the run's names: both files' (hotpath.runs.run_id)
    stem = f"compare-{run_id(data_dir / 'avgt-params-gc.json', data_dir / 'avgt-params-gc-rerun.json')}"
    assert (out / f"{stem}-speed-ratio.png").is_file()
    assert (out / f"{stem}-report.html").read_bytes() == (out / "report.html").read_bytes()
    jira = (out / "jira.txt").read_text()
    assert f"[^{stem}-report.html]" in jira and f"!{stem}-speed-ratio.png|thumbnail!" in jira
    assert "||benchmark||baseline ns/op||candidate ns/op||" in jira
    assert "byteArray(size=1024)" in jira
    page = (out / "report.html").read_text()
    assert report.external_references(page) == []
    # the charts are in the page itself, as pictures, not as "<Figure size ...>" text
    charts = len(list(out.glob("*.png")))
    assert page.count('src="data:image/png;base64,') == charts > 0
    assert "Figure size" not in page
    # and the verdict comes first, in every attachable text
    assert jira.index("*Result.*") < jira.index("||")
    summary = (out / "summary.md").read_text()
    assert summary.index("**Result.**") < summary.index("| benchmark")


def test_two_param_values_within_one_file_render_a_report(tmp_path, data_dir):
    out = report.compare_runs(data_dir / "sample-noprof.json", None, tmp_path / "ab",
                              param="size", baseline_value="64")
    # one size only in this sample-mode file: nothing pairs, and the report says so
    assert "Nothing could be paired" in (out / "summary.md").read_text()


def test_a_comparison_needs_a_candidate_or_a_param(data_dir):
    with pytest.raises(HotpathError, match="give a candidate file"):
        report.compare_runs(data_dir / "avgt-params-gc.json", None)


def test_jmh_samples_run_on_c2_and_c1_compare_across_every_mode(tmp_path, data_dir):
    # JMH's own samples (not hotpath's benchmarks), made by tests/data/external/make-fixtures.sh
    external = data_dir / "external"
    out = report.compare_runs(external / "samples-baseline.json", external / "samples-candidate.json",
                              tmp_path / "ab")
    summary = (out / "summary.md").read_text()
    # Mixed modes and units get mode and unit columns instead of a column per unit.
    assert "| benchmark | mode | unit | baseline | candidate |" in summary
    for mode in ("thrpt", "avgt", "sample", "ss"):
        assert f"| {mode} |" in summary, mode
    assert "| nan" not in summary
    # C1 only is slower at real work; sleeping benchmarks are the same within the threshold.
    # Each row in the unit a reader writes: JMH's 5,740 ns/op reads 5.74 µs/op.
    assert "| bench(arg=101, certainty=8) | avgt | µs/op |" in summary
    row = next(l for l in summary.splitlines() if l.startswith("| bench(arg=101, certainty=8) | avgt | µs/op"))
    assert "slower (p=" in row
    assert "same (±5%)" in next(l for l in summary.splitlines() if l.startswith("| measureAvgTime | avgt | ms/op"))
    # The compact table that opens the report keeps modes apart too.
    assert "| bench(arg=101, certainty=8) | avgt | 3.076 |" in summary
    # Warnings name their rows; the differing JVM flags are said, and so is the unpaired value.
    assert "rows mix JVM flags (all rows)" in summary
    assert "arg=103, certainty=0" in summary and "no 'baseline' row to compare with" in summary
    assert "-XX:TieredStopAtLevel=1" in summary
