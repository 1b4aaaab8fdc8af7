"""Allocation sites: named by the code under test, counted per operation, old against new."""

import json

import pandas as pd
import pytest

from hotpath.analyze import claims
from hotpath.analyze import sites as S
from hotpath.errors import ResultsError
from hotpath.measure import sites as recorded
from hotpath.records import SITES_FORMAT

ROW = ("hotpath.demo.DemoBenchmark.run", "size=1024")


@pytest.fixture
def two_sides(data_dir):
    return S.read_file(data_dir / "sites" / "two-sides.sites.json")


def test_a_site_is_the_innermost_own_frame_the_jdk_frames_below_it_and_the_type():
    assert S.site_of("a/B.run;hotpath/x/ByteArrayList.ensure;java/util/Arrays.copyOf;byte[]_[i]") == (
        "ByteArrayList.ensure → Arrays.copyOf: byte[]", "byte[]")
    # more than two JDK frames: the first and the one that allocated
    assert S.site_of("x/Codec.encode;java/lang/String.getBytes;java/lang/String.encode;"
                     "java/lang/String.encodeUTF8;java/util/Arrays.copyOf;byte[]_[i]")[0] == (
        "Codec.encode → String.getBytes → … → Arrays.copyOf: byte[]")
    # a lambda's generated class is named alike in every run
    assert S.site_of("x/Put.run;x/Put$$Lambda$41/0x0000000800c0b440.get;"
                     "x.Put$$Lambda$41/0x0000000800c0b440_[i]") == (
        "Put$$Lambda.get: Put$$Lambda", "Put$$Lambda")
    # JMH's generated classes are the harness's, not the code under test
    assert S.site_of("x/jmh_generated/B_run_jmhTest.run_avgt_jmhStub;x/B.run;long[]_[i]")[0] == "B.run: long[]"


def test_sites_are_counted_per_operation_of_each_side(two_sides):
    old = S.side(two_sides, *ROW, "old").set_index("site")
    assert old.loc["Buffer.trim → Arrays.copyOf: byte[]", "allocs_per_op"] == 1.0
    assert old.loc["Buffer.trim → Arrays.copyOf: byte[]", "bytes_per_op"] == 1080.0
    assert old.loc["OldCodec.encode: Long", "bytes_per_op"] == 16.0
    assert S.total(two_sides, *ROW, "old") == 1040 + 1080 + 24 + 16
    assert S.total(two_sides, *ROW, "optimized") == 1040 + 16 + 16


def test_old_against_new_puts_what_moved_first_the_biggest_first_then_what_stayed(two_sides):
    d = S.diff(two_sides, *ROW, "old", "optimized")
    assert list(d["site"]) == [
        "Buffer.trim → Arrays.copyOf: byte[]",                      # -1,080: moved most
        "OldCodec$$Lambda.get: OldCodec$$Lambda",                   # -24
        "OptimizedCodec.encode → ArrayList.<init>: Object[]",       # +16
        "Codec.encode → String.getBytes → … → Arrays.copyOf: byte[]",  # stayed: one site, each
        "Codec.encode: Long",                                       # variant's own class
    ]
    assert list(d["moved"]) == [True, True, True, False, False]
    assert d.iloc[0]["old_allocs"] == 1.0 and d.iloc[0]["new_allocs"] == 0.0


def test_the_sums_reconcile_with_prof_gc_or_say_which_side_does_not(two_sides):
    pairs = pd.DataFrame([{"benchmark": ROW[0], "method": "run", "params": ROW[1], "baseline": "old",
                           "candidate": "optimized", "old_alloc": 2160.0, "new_alloc": 1300.0}])
    rec = S.reconcile(two_sides, pairs).set_index("variant")
    assert bool(rec.loc["old", "within"]) and not bool(rec.loc["optimized", "within"])


def test_a_flame_graphs_input_weighs_each_stack_by_bytes_per_100_operations(two_sides):
    text = S.collapsed(two_sides, *ROW, "optimized")
    assert "DemoBenchmark.run;OptimizedCodec.encode;Long 1600\n" in text
    assert all(" " in line for line in text.splitlines())


def test_a_mechanism_claim_is_counted_at_the_sites_it_names(tmp_path, two_sides):
    (tmp_path / "demo.csv").write_text(
        "id,claim,benchmark,params,metric,unit,variant,old,new,claimed_change,note\n"
        "trim,trim copies per op,hotpath.demo.DemoBenchmark.run,size=1024,"
        "sites.allocations:Buffer\\.trim,allocations/op,optimized,1,0,no trim copy,\n"
        "enc,encoded bytes per op,hotpath.demo.DemoBenchmark.run,size=1024,"
        "sites.bytes:String\\.getBytes,B/op,optimized,1040,0,no getBytes,\n", encoding="utf-8")
    pairs = pd.DataFrame([{"benchmark": ROW[0], "method": "run", "params": ROW[1], "baseline": "old",
                           "candidate": "optimized"}])
    table = claims.check("demo", pairs, folder=tmp_path, sites=two_sides).set_index("claim")
    trim = table.loc["trim copies per op"]
    assert (trim["ours_old"], trim["ours_new"], trim["verdict"]) == (1.0, 0.0, "reproduced")
    enc = table.loc["encoded bytes per op"]
    assert (enc["ours_old"], enc["ours_new"], enc["verdict"]) == (1040.0, 1040.0, "contradicted")
    unmeasured = claims.check("demo", pairs, folder=tmp_path).set_index("claim")
    assert set(unmeasured["verdict"]) == {"not comparable"}
    assert "not measured" in unmeasured.loc["trim copies per op", "why"]


def test_a_run_without_sites_reads_as_not_measured_and_a_corrupt_file_says_so(tmp_path):
    assert not S.read(tmp_path / "case.json").measured
    (tmp_path / "case.sites.json").write_text('{"format": "hotpath allocation sites 1", "entr')
    with pytest.raises(ResultsError, match="case.sites.json: truncated or corrupt"):
        S.read(tmp_path / "case.json")
    (tmp_path / "case.sites.json").write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ResultsError, match="not a file of allocation sites"):
        S.read(tmp_path / "case.json")


def test_a_forks_file_keeps_the_operations_stacks_from_the_benchmark_up_and_sums_the_rest(tmp_path):
    stub = "x/jmh_generated/B_run_jmhTest.run_avgt_jmhStub"
    (tmp_path / "a.sites").write_text("\n".join([
        recorded.FORK_HEADER, "benchmark\tx.B.run", "param\tsize\t64", "param\tvariant\told", "jvm\t17",
        # the first recorded iteration ran before C2 had removed a 24 B object of each call
        "iteration\t1\tops\t40\twaited_ms\t3000\tc2\t1", "stacks\tallocations\tbytes\tframes",
        f"40\t3200\tjava/lang/Thread.run;{stub};x/B.run;byte[]_[i]",
        f"40\t960\tjava/lang/Thread.run;{stub};x/B.run;x.Holder_[i]",
        "iteration\t2\tops\t100\twaited_ms\t100\tc2\t1", "stacks\tallocations\tbytes\tframes",
        f"50\t4000\tjava/lang/Thread.run;{stub};x/B.run;byte[]_[i]",
        f"50\t4000\tjava/lang/Thread.run;x/jmh_generated/Other.x;{stub};x/B.run;byte[]_[i]",
        # the harness's, in the loop: no less code for it
        f"3\t96\tjava/lang/Thread.run;{stub};org/openjdk/jmh/infra/Blackhole.consume;byte[]_[i]",
        "2\t64\tjava/lang/Thread.run;org/openjdk/jmh/runner/Harness.x;java.lang.Object_[i]", ""]))
    doc = recorded.collect(tmp_path, "cmd")
    (entry,) = doc["entries"]
    assert entry["params"] == {"size": "64", "variant": "old"} and entry["ops"] == 100
    assert entry["recorded_iteration"] == 2
    assert entry["iterations"] == [{"ops": 40, "waited_ms": 3000, "c2": True, "code_bytes_per_op": 104.0},
                                   {"ops": 100, "waited_ms": 100, "c2": True, "code_bytes_per_op": 80.0}]
    assert entry["settled"]
    assert entry["stacks"] == [[3, 96, "org/openjdk/jmh/infra/Blackhole.consume;byte[]_[i]"],
                               [100, 8000, "x/B.run;byte[]_[i]"]]  # one stack from the stub up
    assert entry["outside"] == [2, 64]
    # no recorded iteration ran C2's code of the benchmark: the least is kept, and said unsettled
    (tmp_path / "a.sites").write_text((tmp_path / "a.sites").read_text().replace("\tc2\t1", "\tc2\t0"))
    (entry,) = recorded.collect(tmp_path, "cmd")["entries"]
    assert entry["recorded_iteration"] == 2 and not entry["settled"]
    (tmp_path / "b.sites").write_text("not ours\n")
    with pytest.raises(ResultsError, match="not an allocation-site file"):
        recorded.collect(tmp_path, "cmd")
    with pytest.raises(ResultsError, match="wrote no files"):
        recorded.collect(tmp_path / "none", "cmd")


def test_the_release_is_set_against_the_model_by_what_it_allocates_not_by_its_names(tmp_path):
    stub = "x/B.run"
    entries = [
        {"benchmark": "x.B.run", "params": {"variant": "old"}, "ops": 10, "jvm": "17", "outside": [0, 0],
         "stacks": [[10, 10400, f"{stub};x/OldCodec.encode;java/util/Arrays.copyOf;byte[]_[i]"],
                    [10, 240, f"{stub};x/OldCodec.encode;x.Holder_[i]"],
                    # two slices of one size in two places; the release slices twice in one
                    [10, 640, f"{stub};x/OldCodec.slice;java/nio/DirectByteBuffer.slice;java.nio.DirectByteBuffer_[i]"],
                    [10, 640, f"{stub};x/OldCodec.cut;java/nio/DirectByteBuffer.slice;java.nio.DirectByteBuffer_[i]"]]},
        {"benchmark": "x.B.run", "params": {"variant": "upstream"}, "ops": 20, "jvm": "17", "outside": [0, 0],
         "stacks": [[20, 20800, f"{stub};x/Lib.copy;java/util/Arrays.copyOf;byte[]_[i]"],
                    [20, 480, f"{stub};x/Lib.run;x.LibHolder_[i]"],
                    [40, 2560, f"{stub};x/Lib.select;java/nio/DirectByteBuffer.slice;java.nio.DirectByteBuffer_[i]"],
                    [20, 1280, f"{stub};x/Lib.extra;byte[]_[i]"]]}]
    (tmp_path / "r.sites.json").write_text(json.dumps({"format": SITES_FORMAT, "entries": entries}))
    found = S.read(tmp_path / "r.json")
    f = S.fidelity(found, "x.B.run", "", declared=frozenset({("Holder", "LibHolder")}))
    same = f[f["same"].astype(bool)]
    assert set(same["release"]) == {"Lib.copy → Arrays.copyOf: byte[]", "Lib.run: LibHolder",
                                    "Lib.select → DirectByteBuffer.slice: DirectByteBuffer"}
    assert "OldCodec.cut → DirectByteBuffer.slice: DirectByteBuffer" in " ".join(same["model"])
    assert dict(zip(same["release"], same["how"])) == {
        "Lib.copy → Arrays.copyOf: byte[]": "site", "Lib.run: LibHolder": "declared",
        "Lib.select → DirectByteBuffer.slice: DirectByteBuffer": "size"}
    alone = f[~f["same"].astype(bool)]
    assert list(alone["release"]) == ["Lib.extra: byte[]"] and list(alone["model"]) == [""]
    assert S.paired(f) == "differ"
    # two types of one size and count are not one allocation unless declared so
    undeclared = S.fidelity(found, "x.B.run", "", declared=frozenset())
    assert "Lib.run: LibHolder" in set(undeclared.loc[~undeclared["same"].astype(bool), "release"])


def _sides(tmp_path, model, release):
    stub = "x/B.run"
    entries = [{"benchmark": "x.B.run", "params": {"variant": v}, "ops": 1, "jvm": "17",
                "outside": [0, 0], "stacks": [[n, b, f"{stub};{s}"] for n, b, s in stacks]}
               for v, stacks in (("old", model), ("upstream", release))]
    (tmp_path / "r.sites.json").write_text(json.dumps({"format": SITES_FORMAT, "entries": entries}))
    return S.read(tmp_path / "r.json")


def test_a_row_without_sites_has_nothing_to_pair_and_a_match_of_totals_says_so(tmp_path):
    assert S.paired(S.fidelity(_sides(tmp_path, [], []), "x.B.run", "", declared=frozenset())) == (
        "nothing to pair")
    # the model's three byte[]s (100, 300, 600 B) against the release's 400 B and two of 300 B:
    # no site matches another, no size pairs, but the type's totals agree (3 and 1,000 B)
    found = _sides(tmp_path, [(1, 100, "x/M.a;byte[]_[i]"), (1, 300, "x/M.b;byte[]_[i]"),
                              (1, 600, "x/M.c;byte[]_[i]")],
                   [(1, 400, "x/R.a;byte[]_[i]"), (2, 600, "x/R.b;byte[]_[i]")])
    f = S.fidelity(found, "x.B.run", "", declared=frozenset())
    assert S.paired(f) == "as totals" and list(f["how"]) == ["totals"]
    assert (set(f.loc[0, "model_sites"]), set(f.loc[0, "release_sites"])) == (
        {"M.a: byte[]", "M.b: byte[]", "M.c: byte[]"}, {"R.a: byte[]", "R.b: byte[]"})


def test_the_release_reads_as_the_model_in_where_the_bytes_went(tmp_path):
    found = _sides(tmp_path, [(2, 2208, "x/ByteArrayList.ensure;java/util/Arrays.copyOf;byte[]_[i]"),
                              (1, 32, "x/BinaryWriter.handles;x.WriterHandles_[i]")],
                   [(2, 2208, "x/GridByteArrayList.capacity;java/util/Arrays.copyOf;byte[]_[i]"),
                    (1, 24, "x/BinaryWriterExImpl.handles;x.BinaryWriterHandles_[i]")])
    d = S.diff(found, "x.B.run", "", "old", S.RELEASE).set_index("site")
    copy = d.loc["ByteArrayList.ensure → Arrays.copyOf: byte[] "
                 "(the release's GridByteArrayList.capacity → Arrays.copyOf)"]
    assert (copy["old_bytes"], copy["new_bytes"], bool(copy["moved"])) == (2208.0, 2208.0, False)
    # a declared type is one site, and its 8 B a call apart show as a change
    handles = d.loc["BinaryWriter.handles: WriterHandles "
                    "(the release's BinaryWriterExImpl.handles: BinaryWriterHandles)"]
    assert (handles["delta"], bool(handles["moved"])) == (-8.0, True)
    assert len(d) == 2
    # two of the model's own variants are not paired so: each keeps its own name
    assert len(S.diff(found, "x.B.run", "", "upstream", "old")) == 4


def test_the_declared_equivalences_are_read_with_their_reasons_and_bad_rows_refused(tmp_path):
    committed = S.equivalences()
    assert ("WriterHandles", "BinaryWriterHandles") in committed
    header = ",".join(S.EQUIVALENCE_FIELDS)
    bad = {"extra column": header + ",note\nzip,A,B,why,x\n",
           "no reason": header + "\nzip,A,B,\n",
           "unknown case": header + "\nnocase,A,B,why\n",
           "itself": header + "\nzip,A,A,why\n",
           "twice": header + "\nzip,A,B,why\nzip,A,B,again\n"}
    for text in bad.values():
        (tmp_path / "eq.csv").write_text(text, encoding="utf-8")
        with pytest.raises(ResultsError, match="eq.csv"):
            S.equivalences(tmp_path / "eq.csv")


def test_the_harness_allocations_in_the_measured_loop_are_kept_apart_and_added_back_for_prof_gc(tmp_path):
    # What a loaded site pass recorded for encoder STR_1K optimized: 200 operations, and JMH's
    # Blackhole with the stub allocating a few objects of their own in the iteration.
    entry = {"benchmark": ROW[0], "params": {"size": "1024", "variant": "optimized"}, "ops": 200,
             "jvm": "17", "outside": [0, 0], "stacks": [
                 [200, 216000, "hotpath/demo/DemoBenchmark.run;hotpath/demo/Codec.encode;byte[]_[i]"],
                 [2, 96, "org/openjdk/jmh/infra/Blackhole.consume;byte[]_[i]"],
                 [2, 48, "org/openjdk/jmh/infra/Blackhole.consume;java.lang.String_[i]"],
                 [1, 32, "hotpath/demo/DemoBenchmark.run;org/openjdk/jmh/infra/Blackhole.consume;"
                         "java.lang.ref.WeakReference_[i]"],
                 [1, 24, "java.lang.String_[i]"]]}
    nothing = {**entry, "params": {"size": "1024", "variant": "old"}, "stacks": entry["stacks"][1:]}
    path = tmp_path / "run.sites.json"
    path.write_text(json.dumps({"format": SITES_FORMAT, "entries": [entry, nothing]}), encoding="utf-8")
    found = S.read_file(path)
    assert list(S.side(found, *ROW, "optimized")["site"]) == ["Codec.encode: byte[]"]
    assert S.total(found, *ROW, "optimized") == 1080.0
    assert S.side(found, *ROW, "old").empty and S.has_side(found, *ROW, "old")
    assert S.harness_total(found, *ROW, "optimized") == pytest.approx((96 + 48 + 32 + 24) / 200)
    assert S.harness_side(found, *ROW, "old")["allocations"].sum() == 6
    # -prof gc counts the harness's bytes with the code's: the sum it is held to adds them back
    pairs = pd.DataFrame([{"benchmark": ROW[0], "method": "run", "params": ROW[1], "baseline": "old",
                           "candidate": "optimized", "old_alloc": 1.0, "new_alloc": 1081.0}])
    rec = S.reconcile(found, pairs).set_index("variant")
    assert rec.loc["optimized", "sites_bytes"] == 1080.0 and rec.loc["optimized", "harness_bytes"] == 1.0
    assert rec["within"].all()
