"""'Where the bytes went' as a reader sees it: a row's sites, old against new, and the lab's call."""

import json

import pandas as pd
import pytest

import hotpath as hp
from hotpath.analyze import sites as S
from hotpath.errors import HotpathError
from hotpath.paths import REFERENCE, REFERENCE_RUNS
from hotpath.render import sites as R

ROW = {"benchmark": "hotpath.demo.DemoBenchmark.run", "method": "run", "params": "size=1024",
       "baseline": "old", "candidate": "optimized", "old_alloc": 2160.0, "new_alloc": 1072.0}


def test_a_rows_lines_name_it_once_with_its_graphs_and_end_on_the_sum_beside_prof_gc(data_dir):
    found = S.read_file(data_dir / "sites" / "two-sides.sites.json")
    pairs = pd.DataFrame([ROW])
    table = R.table(S.recorded_rows(pairs, found), {R.slug(pairs.iloc[0]): ("sites/a.html", "sites/b.html")})
    assert list(table["row"]) == ["run(size=1024)", "", "", "", "", ""]
    first = table.iloc[0]
    assert (first["site"], first["old"], first["new"], first["Δ B/op"]) == (
        "Buffer.trim → Arrays.copyOf: byte[]", "1 × 1,080 B", "—", "−1,080")
    assert first["flame graphs"] == "[dropped](sites/a.html) · [added](sites/b.html)"
    assert table.iloc[2]["old"] == "—" and table.iloc[2]["new"] == "0.50 × 32 B"  # fractional count
    last = table.iloc[-1]
    assert last["site"].startswith("all sites") and last["old"] == "2,160 B (2,160)"
    assert last["new"] == "1,072 B (1,072)"


@pytest.mark.skipif(not (REFERENCE / "encoder.sites.json").is_file(), reason="no committed sites")
def test_the_labs_call_shows_any_two_variants_and_writes_both_graphs(tmp_path):
    table = hp.allocation_sites(REFERENCE / "encoder.json", "encode(payload=STR_1K)", old="old",
                                new="floor", out_dir=tmp_path)
    assert list(table.columns) == ["site", "old", "floor", "Δ B/op"]
    assert table.iloc[0]["Δ B/op"].startswith("−")
    graphs = sorted(p.name for p in (tmp_path / "sites").iterdir())
    assert graphs == ["encode-payload-STR_1K-floor.added.html", "encode-payload-STR_1K-floor.dropped.html"]
    with pytest.raises(hp.HotpathError, match=r"no row 'encode\(payload=X\)'.*encode\(payload=STR_1K\)"):
        hp.allocation_sites(REFERENCE / "encoder.json", "encode(payload=X)", out_dir=tmp_path)
    with pytest.raises(hp.HotpathError, match="no variant best; recorded: floor, old"):
        hp.allocation_sites(REFERENCE / "encoder.json", "encode(payload=STR_1K)", new="best",
                            out_dir=tmp_path)


def test_a_side_whose_code_allocates_nothing_says_so_whatever_the_harness_allocated(tmp_path):
    # Two builds of KnownWork: no allocation by the code, JMH's few objects an iteration apart
    from hotpath.records import SITES_FORMAT as FORMAT
    harness = [[2, 96, "org/openjdk/jmh/infra/Blackhole.consume;byte[]_[i]"], [1, 24, "java.lang.String_[i]"]]
    entries = [{"benchmark": "hotpath.calibration.KnownWorkBenchmark.work", "params": {}, "ops": 120,
                "jvm": "17", "side": side, "stacks": harness} for side in ("master", "patch")]
    (tmp_path / "ab.sites.json").write_text(json.dumps({"format": FORMAT, "entries": entries}), encoding="utf-8")
    found = S.read_file(tmp_path / "ab.sites.json")
    pairs = pd.DataFrame([{"benchmark": "hotpath.calibration.KnownWorkBenchmark.work", "method": "work",
                           "params": "", "baseline": "master", "candidate": "patch",
                           "old_alloc": 1.0, "new_alloc": 2.0}])
    table = R.table(S.recorded_rows(pairs, found))
    assert list(table["site"]) == [R.HARNESS, "no heap allocation on either side by the code (-prof gc's B/op)"]
    assert (table.iloc[0]["old"], table.iloc[0]["new"]) == ("1.00 B", "1.00 B")
    assert (table.iloc[1]["old"], table.iloc[1]["new"]) == ("0 B (1)", "0 B (2)")
    assert "JMH's harness allocated inside the measured loop too (at most 1.00 B/op)" in R.reconcile_note(pairs, found)


def test_a_side_recorded_before_c2_ran_the_benchmark_is_named(tmp_path):
    from hotpath.records import SITES_FORMAT as FORMAT
    stacks = [[100, 8000, "hotpath/demo/DemoBenchmark.run;byte[]_[i]"]]
    entries = [{"benchmark": ROW["benchmark"], "params": {"size": "1024", "variant": v}, "ops": 100,
                "jvm": "17", "settled": v == "old", "stacks": stacks} for v in ("old", "optimized")]
    (tmp_path / "x.sites.json").write_text(json.dumps({"format": FORMAT, "entries": entries}), encoding="utf-8")
    found = S.read_file(tmp_path / "x.sites.json")
    pairs = pd.DataFrame([{**ROW, "old_alloc": 80.0, "new_alloc": 80.0}])
    note = R.reconcile_note(pairs, found)
    assert "Recorded before C2 had compiled the benchmark" in note and "run(size=1024) optimized." in note
    assert "run(size=1024) old" not in note
@pytest.mark.skipif(not (REFERENCE / "store.sites.json").is_file(), reason="no committed sites")
def test_the_fidelity_table_says_how_each_row_paired_and_an_upstream_row_reads_the_releases_names():
    from hotpath.analyze import compare
    from hotpath.analyze.load import read_results

    # the reference of 2026-11-24, whose append rows recorded no site on either side (the
    # reference's own old append kept a slice in its one recorded iteration: they differ)
    kept = REFERENCE_RUNS / "2026-11-24" / "store.json"
    pairs = compare.pair(read_results(kept).frame).pairs
    found = S.read(kept)
    table = R.fidelity_table(pairs, found).set_index("row")
    assert table.loc["append(size=100)", "paired"].startswith("nothing to pair")
    assert table.loc["append(size=100)", "the model's sites in the release"] == "none on either side"
    assert table.loc["select(size=100)", "paired"] == (
        "by type and size (DirectByteBuffer: the model's 2 sites against the release's 1)")
    assert table.loc["smallOffsets", "paired"] == (
        "site for site (declared: OldGetMessageResult = GetMessageResult)")
    lines = R.table(S.recorded_rows(pairs[(pairs["candidate"] == "upstream") & (pairs["method"] == "smallOffsets")],
                                    found))
    # the release's GetMessageResult is the model's OldGetMessageResult: one line, no change
    result = lines[lines["site"].str.endswith(": GetMessageResult)")]
    assert list(result["site"]) == ["StoreVariant.newResult: OldGetMessageResult "
                                    "(the release's UpstreamStore.build: GetMessageResult)"]
    assert result.iloc[0]["Δ B/op"] == "~" and len(lines) == 4


def test_a_method_two_benchmark_classes_share_is_found_by_its_variants_or_by_its_class():
    # encode(payload=STR_1K) is EncoderPayload's row and EncoderMechanisms' too; floor is only the first's
    lines = pd.DataFrame([{"benchmark": f"hotpath.encoder.{c}Benchmark.encode", "params": "payload=STR_1K", "variant": v}
                          for c, vs in (("EncoderPayload", ("old", "optimized", "floor")),
                                        ("EncoderMechanisms", ("old", "optimized", "copies")))
                          for v in vs])
    found = R.named_row(lines, "encode(payload=STR_1K)", "r.json", ("old", "floor"), "recorded")
    assert found == ("hotpath.encoder.EncoderPayloadBenchmark.encode", "encode", "payload=STR_1K")
    with pytest.raises(HotpathError, match=r"2 benchmark classes hold it with old and optimized: name one "
                                           r"\(EncoderMechanisms.encode\(payload=STR_1K\), EncoderPayload.encode"):
        R.named_row(lines, "encode(payload=STR_1K)", "r.json", ("old", "optimized"), "recorded")
    assert R.named_row(lines, "EncoderMechanisms.encode(payload=STR_1K)", "r.json", ("old", "optimized"),
                       "recorded")[0] == "hotpath.encoder.EncoderMechanismsBenchmark.encode"
    with pytest.raises(HotpathError, match="no one benchmark class holds both floor and copies"):
        R.named_row(lines, "encode(payload=STR_1K)", "r.json", ("floor", "copies"), "recorded")
