"""Interleaved rounds merge into one JMH file that loads like any other."""

import json

import pytest

from hotpath.errors import ResultsError
from hotpath import tail
from hotpath.measure import interleave
from hotpath.analyze import load


def split_forks(path, tmp_path):
    """Two one-fork files from a real two-fork JMH file (as two rounds would write them)."""
    entries = json.loads(path.read_text())
    files = []
    for fork in (0, 1):
        part = json.loads(json.dumps(entries))
        for e in part:
            e["forks"] = 1
            for m in [e["primaryMetric"], *e["secondaryMetrics"].values()]:
                m["rawData"] = [m["rawData"][fork]] if len(m["rawData"]) > fork else []
        out = tmp_path / f"round-{fork}.json"
        out.write_text(json.dumps(part))
        files.append(out)
    return files


def test_merging_rounds_restores_the_forks_and_jmh_scores(data_dir, tmp_path):
    original = load.read_results(data_dir / "avgt-params-gc.json").frame
    merged_path = tmp_path / "merged.json"
    merged_path.write_text(json.dumps(interleave.merge(split_forks(data_dir / "avgt-params-gc.json", tmp_path))))
    merged = load.read_results(merged_path).frame
    for metric in ("score", "gc.alloc.rate.norm", "gc.count"):
        a = original[original["metric"] == metric].set_index(["method", "params"])
        b = merged[merged["metric"] == metric].set_index(["method", "params"])
        for idx in a.index:
            assert b.loc[idx, "raw"] == a.loc[idx, "raw"]
            assert b.loc[idx, "score"] == pytest.approx(a.loc[idx, "score"], rel=1e-9)
            if metric == "score":
                assert b.loc[idx, "error"] == pytest.approx(a.loc[idx, "error"], rel=1e-6)


def test_round_order_alternates_and_variants_are_read_from_the_listing():
    listing = 'hotpath.x.B.m\n  param "variant" = {old, optimized}\n  param "size" = {1, 2}\n'
    assert interleave.variant_values(listing) == ["old", "optimized"]
    assert interleave.round_order(["old", "optimized"], 3) == [
        (0, "old"), (0, "optimized"), (1, "optimized"), (1, "old"), (2, "old"), (2, "optimized")]


def test_a_round_runs_only_the_benchmarks_that_declare_its_variant():
    listing = ("Benchmarks: \n"
               "hotpath.m.CopyBenchmark.copy\n"
               '  param "size" = {64, 1024}\n'
               '  param "variant" = {old, optimized}\n'
               "hotpath.m.StreamBenchmark.marshal\n"
               '  param "variant" = {old, optimized, floor, upstream}\n')
    declared = interleave.variant_benchmarks(listing)
    assert list(declared) == ["old", "optimized", "floor", "upstream"]
    assert declared["old"] == ["hotpath.m.CopyBenchmark.copy", "hotpath.m.StreamBenchmark.marshal"]
    assert declared["upstream"] == ["hotpath.m.StreamBenchmark.marshal"]
    import re
    pattern = re.compile(interleave.include_only(declared["upstream"]))
    assert pattern.search("hotpath.m.StreamBenchmark.marshal")
    assert not pattern.search("hotpath.m.CopyBenchmark.copy")
    assert not pattern.search("hotpath.m.StreamBenchmark.marshalX")


def _tailed_entry():
    """One fork of 5 iterations, the last 2 the CPU sampler's tail; gc.time written only for the
    iterations that collected (the 2nd and the 5th), as JMH's GC profiler writes it."""
    return {"benchmark": "b.B.m", "mode": "avgt", "params": {},
            "primaryMetric": {"score": 0, "scoreUnit": "ns/op", "rawData": [[10.0, 11.0, 12.0, 30.0, 31.0]]},
            "secondaryMetrics": {
                "·cpu.tail": {"score": 1, "scoreUnit": "", "rawData": [[0.0, 0.0, 0.0, 1.0, 1.0]]},
                "·gc.alloc.rate.norm": {"score": 0, "scoreUnit": "B/op", "rawData": [[8.0, 8.0, 8.0, 9.0, 9.0]]},
                "·gc.count": {"score": 0, "scoreUnit": "counts", "rawData": [[0.0, 1.0, 0.0, 0.0, 2.0]]},
                "·gc.time": {"score": 0, "scoreUnit": "ms", "rawData": [[4.0, 7.0]]}}}


def test_the_cpu_samplers_tail_is_left_out_of_every_metric():
    out = tail.counted(_tailed_entry())
    assert out["primaryMetric"]["rawData"] == [[10.0, 11.0, 12.0]]
    assert out["primaryMetric"]["score"] == pytest.approx(11.0)
    second = out["secondaryMetrics"]
    assert "·cpu.tail" not in second
    assert second["·gc.alloc.rate.norm"]["rawData"] == [[8.0, 8.0, 8.0]]
    assert second["·gc.count"]["rawData"] == [[0.0, 1.0, 0.0]] and second["·gc.count"]["score"] == 1
    # the 2nd iteration's collection kept, the tail's (the 5th) gone
    assert second["·gc.time"]["rawData"] == [[4.0]] and second["·gc.time"]["score"] == 4


def test_without_scores_every_metric_keeps_its_unit_and_the_counted_values_only():
    out = tail.counted(_tailed_entry(), scores=False)
    scored = tail.counted(_tailed_entry())
    for name, metric in [("", out["primaryMetric"]), *out["secondaryMetrics"].items()]:
        full = scored["primaryMetric"] if not name else scored["secondaryMetrics"][name]
        assert metric == {"scoreUnit": full["scoreUnit"], "rawData": full["rawData"]}, name
    assert set(out["secondaryMetrics"]) == set(scored["secondaryMetrics"])


def test_an_entry_without_the_samplers_mark_is_left_as_jmh_wrote_it():
    entry = _tailed_entry()
    del entry["secondaryMetrics"]["·cpu.tail"]
    assert tail.counted(entry) is entry


def test_marks_that_do_not_line_up_with_the_iterations_are_refused():
    entry = _tailed_entry()
    entry["secondaryMetrics"]["·cpu.tail"]["rawData"] = [[0.0, 1.0]]
    with pytest.raises(ResultsError, match="do not line up"):
        tail.counted(entry, "round-01.json")
