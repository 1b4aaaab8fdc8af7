import pytest

from hotpath.cli import main


@pytest.fixture(scope="session")
def reference_reports(tmp_path_factory):
    """Every report of the committed reference, rendered once for the tests that read them."""
    out = tmp_path_factory.mktemp("reference-reports")
    assert main(["report", "--profile", "reference", "--out", str(out)]) == 0
    return out
