import json

import pytest

from hotpath.cli import main
from hotpath.paths import REFERENCE, memory_of, peaks_of, sidecar_of


@pytest.fixture(scope="session")
def reference_reports(tmp_path_factory):
    """Every report of the committed reference, rendered once for the tests that read them."""
    out = tmp_path_factory.mktemp("reference-reports")
    assert main(["report", "--profile", "reference", "--out", str(out)]) == 0
    return out


#: The rows the quick profile leaves out of zip's write-up table: the rejected variant at two
#: payloads.
QUICK_LEAVES_OUT = {("MAP_3K", "unbuffered"), ("MAP_132K", "unbuffered")}


def _without(entries: list[dict]) -> list[dict]:
    return [e for e in entries if not (e["benchmark"].endswith("ZipMarshalBenchmark.marshalZip")
                                       and (e["params"]["payload"], e["params"]["variant"])
                                       in QUICK_LEAVES_OUT)]


@pytest.fixture(scope="session")
def quick_like_zip(tmp_path_factory):
    """zip's report on the reference run less the rows a quick run does not measure (timing,
    memory pass and peaks), under the quick profile's name."""
    from hotpath.render import report

    runs = tmp_path_factory.mktemp("quick-like-run")
    source = REFERENCE / "zip.json"
    path = runs / "zip.json"
    for read, written in ((source, path), (memory_of(source), memory_of(path))):
        written.write_text(json.dumps(_without(json.loads(read.read_text(encoding="utf-8")))))
    peaks = json.loads(peaks_of(source).read_text(encoding="utf-8"))
    peaks_of(path).write_text(json.dumps(_without(peaks)))
    sidecar_of(path).write_text(json.dumps({"profile": "quick"}))
    return report.render_case("zip", path, tmp_path_factory.mktemp("quick-like-reports") / "zip")
