"""Every case's report notebook runs on the committed reference data: no Java, in seconds, so a
broken notebook is found before the smoke pass."""

import pytest

from hotpath.cases import CASES


@pytest.mark.parametrize("case_id", list(CASES))
def test_case_notebook_renders_the_reference_run(reference_reports, case_id):
    out = reference_reports / case_id
    assert (out / f"{case_id}.ipynb").is_file()
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert summary.index("**Result.**") < summary.index("## At a glance")
    assert "## Claims check" in summary and "## Environment" in summary
    assert summary.count("## Environment") == 1
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == len(list(out.glob("*.png")))
    assert "Figure size" not in page
