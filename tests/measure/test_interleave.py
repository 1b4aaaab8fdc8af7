"""Interleaved rounds merge into one JMH file that loads like any other."""

import json

import pytest

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
