"""A report's analysis: its figures made before render lays any out, each once, and a report made
without a comparison says it has no pairs rather than showing none."""

import pytest

from hotpath.analyze import compare
from hotpath.analyze.load import read_results
from hotpath.analyze.report import Analysis
from hotpath.cases import get_case
from hotpath.paths import REFERENCE


@pytest.fixture(scope="module")
def encoder():
    run = read_results(REFERENCE / "encoder.json")
    return Analysis(run, compare.pair(run.frame), get_case("encoder"))


def test_each_sampled_row_is_a_row_of_the_report_with_its_frames(encoder):
    assert encoder.sampled, "the reference's encoder run has CPU samples"
    keys = set(zip(encoder.pairs["benchmark"], encoder.pairs["params"], encoder.pairs["candidate"]))
    for row in encoder.sampled:
        assert (row.pair["benchmark"], row.pair["params"], row.pair["candidate"]) in keys
        assert (row.attribution is None) == bool(row.why_not)
        assert row.attribution is None or row.frames


def test_the_figures_are_made_once(encoder):
    assert encoder.sampled is encoder.sampled
    assert encoder.claims is encoder.claims
    assert encoder.sites is encoder.sites and encoder.profiles is encoder.profiles


def test_a_case_reports_claims_are_checked_and_a_report_of_no_case_has_none(encoder):
    assert not encoder.claims.empty
    assert Analysis(encoder.run, encoder.comparison).claims.empty


def test_a_report_without_a_comparison_has_no_pairs_to_give(encoder):
    alone = Analysis(encoder.run)
    assert alone.paired.empty and alone.sampled == ()
    with pytest.raises(ValueError, match="without a comparison"):
        _ = alone.pairs


def test_each_recorded_row_carries_its_sites_and_its_harness_apart(encoder):
    assert encoder.recorded, "the reference's encoder run has its allocation sites"
    for row in encoder.recorded:
        assert {"site", "old_bytes", "new_bytes", "delta", "moved"} <= set(row.sites.columns)
        assert all(b >= 0 for b in row.harness)
    assert encoder.recorded is encoder.recorded
