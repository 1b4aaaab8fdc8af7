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
    said = estimate or "each fork's mean of its steady iterations"
    assert text.count(f"Verdicts rest on {said}.") == 1
    assert text.count("Verdicts rest on") == 1
