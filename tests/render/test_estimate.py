"""What the verdicts rest on, said once per report."""

import pytest

from hotpath.analyze import compare, load
from hotpath.render import tables
from hotpath.render.document import Document


@pytest.mark.parametrize("estimate", [None, "each fork's 10th percentile of its steady iterations"])
def test_the_estimate_the_verdicts_rest_on_is_said_once(data_dir, tmp_path, estimate):
    run = load.read_results(data_dir / "avgt-variant-gc.json")
    comparison = compare.pair(run.frame)
    if estimate:
        comparison = compare.Comparison(comparison.pairs.assign(estimate=estimate),
                                        comparison.unpaired, comparison.baseline)
    doc = Document("", run, tmp_path, heading="h", comparison=comparison)
    doc.lead()
    doc.table("Details", tables.wide_table(doc.pairs), note=doc.verdict_note())
    text = "\n".join(doc.md)
    said = estimate or "each fork's mean over its counted iterations"  # the pairs' own
    assert text.count(f"Verdicts rest on {said}.") == 1
    assert text.count("Verdicts rest on") == 1


def test_rows_resting_on_the_mean_for_their_gc_time_are_named_with_why(data_dir):
    from hotpath.render import fmt

    pairs = compare.pair(load.read_results(data_dir / "avgt-variant-gc.json").frame).pairs
    low = "each fork's 10th percentile of time per op over its counted iterations"
    pairs = pairs.assign(estimate=low, estimate_why="")
    first = pairs.index[0]
    pairs.loc[first, "estimate"] = "each fork's mean over its counted iterations"
    pairs.loc[first, "estimate_why"] = "the mean: the sides' GC time differs by 3.1 points of their time"
    said = fmt.estimate_of(pairs)
    assert said.startswith(low + "; at ") and fmt.label(pairs.loc[first]) in said
    assert "GC time differs by 3.1 points" in said
