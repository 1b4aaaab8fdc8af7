"""Any two JMH runs (or two @Param values) render the same report files as a case."""

import pytest

from hotpath import report
from hotpath.errors import HotpathError


def test_two_files_from_outside_the_cases_render_a_report(tmp_path, data_dir):
    out = report.compare_runs(data_dir / "avgt-params-gc.json", data_dir / "avgt-params-gc-rerun.json",
                              tmp_path / "ab")
    for name in ("report.html", "jira.txt", "summary.md", "speed-ratio.png"):
        assert (out / name).is_file(), name
    jira = (out / "jira.txt").read_text()
    assert "||benchmark||baseline ns/op||new ns/op||" in jira
    assert "byteArray(size=1024)" in jira
    assert report.external_references((out / "report.html").read_text()) == []


def test_two_param_values_within_one_file_render_a_report(tmp_path, data_dir):
    out = report.compare_runs(data_dir / "sample-noprof.json", None, tmp_path / "ab",
                              param="size", baseline_value="64")
    # one size only in this sample-mode file: nothing pairs, and the report says so
    assert "Nothing could be paired" in (out / "summary.md").read_text()


def test_a_comparison_needs_a_candidate_or_a_param(data_dir):
    with pytest.raises(HotpathError, match="give a candidate file"):
        report.compare_runs(data_dir / "avgt-params-gc.json", None)
