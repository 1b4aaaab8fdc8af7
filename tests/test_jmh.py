"""A benchmark's name cut in one place, and the one key a row-side is matched by in every stage."""

import pytest

from hotpath.analyze.compare import SequentialRun
from hotpath.jmh import MethodName, RowKey, params_key, params_text
from hotpath.measure import forkplan


@pytest.mark.parametrize("name, package, cls, method, short", [
    ("hotpath.encoder.EncoderBenchmark.encode", "hotpath.encoder", "EncoderBenchmark", "encode",
     "EncoderBenchmark.encode"),
    ("EncoderBenchmark.encode", "", "EncoderBenchmark", "encode", "EncoderBenchmark.encode"),
    ("encode", "", "", "encode", "encode"),
    # a stack frame, as the site profiler names it after '/' became '.'
    ("hotpath.encoder.ByteArrayList$$Lambda.get", "hotpath.encoder", "ByteArrayList$$Lambda", "get",
     "ByteArrayList$$Lambda.get"),
])
def test_a_method_name_is_cut_into_package_class_and_method(name, package, cls, method, short):
    cut = MethodName.of(name)
    assert (cut.package, cut.class_name, cut.method) == (package, cls, method)
    assert cut.short == short


def test_a_class_is_named_without_its_benchmark_suffix():
    assert MethodName.of("hotpath.writer.WriterCompressedMapBenchmark.fields").stem == "WriterCompressedMap"
    assert MethodName.of("hotpath.zip.BenchmarkRunner.run").stem == "BenchmarkRunner"


def test_a_side_meets_itself_whatever_order_and_form_its_params_come_in():
    planned = RowKey.of("a.B.m", "payload=MAP, size=64", "optimized")
    assert RowKey.of("a.B.m", "size=64, payload=MAP", "optimized") == planned
    assert RowKey.of("a.B.m", {"size": 64, "payload": "MAP"}, "optimized") == planned
    assert RowKey.of_entry({"benchmark": "a.B.m", "params": {
        "variant": "optimized", "size": "64", "payload": "MAP"}}) == planned
    assert len({planned, RowKey.of("a.B.m", [("size", "64"), ("payload", "MAP")], "optimized")}) == 1


def test_another_variant_value_or_benchmark_is_another_side():
    planned = RowKey.of("a.B.m", "payload=MAP, size=64", "optimized")
    assert RowKey.of("a.B.m", "payload=MAP, size=64", "old") != planned
    assert RowKey.of("a.B.m", "payload=MAP, size=1024", "optimized") != planned
    assert RowKey.of("a.B.n", "payload=MAP, size=64", "optimized") != planned
    assert RowKey.of("a.B.m", "payload=MAP", "optimized") != planned
    assert planned.group == ("a.B.m", (("payload", "MAP"), ("size", "64")))
    assert RowKey.of("a.B.m", "payload=MAP, size=64", "old").group == planned.group


def test_a_builds_side_keeps_every_param_and_is_named_by_the_build():
    entry = {"benchmark": "a.B.m", "params": {"variant": "old", "size": 64}}
    assert RowKey.of_entry(entry, None, "release-2.17") == ("a.B.m", (("size", "64"), ("variant", "old")),
                                                           "release-2.17")
    # the same result as a case reads it: the variant @Param names its side
    assert RowKey.of_entry(entry) == ("a.B.m", (("size", "64"),), "old")


def test_params_read_back_as_they_were_written():
    values = {"entries": "30", "bufferSize": "16"}
    assert params_key(params_text(values)) == params_key(values) == (("bufferSize", "16"), ("entries", "30"))
    assert params_key("") == params_key({}) == ()


def test_a_planned_side_is_the_side_its_jmh_result_comes_back_as():
    row = forkplan.Row("a.B.m", (("size", "64"), ("payload", "MAP")), "optimized", 8)
    result = {"benchmark": "a.B.m", "params": {"payload": "MAP", "variant": "optimized", "size": "64"}}
    assert row.side("optimized") == RowKey.of_entry(result)
    assert forkplan.sides_of([row], "old") == [row.side("old"), row.side("optimized")]
    assert row.group == row.side("old").group


def test_the_analysis_finds_a_rows_plan_record_whatever_order_its_params_come_in():
    # two builds: the JSON names a side's own 'variant' @Param last, the plan's record first
    record = {"design": {"cap": 24},
              "rows": [{"benchmark": "a.B.m", "params": "variant=old, size=64", "candidate": "patched",
                        "cap": 12, "stopped": "decided"}]}
    plan = SequentialRun(record)
    assert plan.row("a.B.m", "size=64, variant=old", "patched")["stopped"] == "decided"
    assert plan.row("a.B.m", "size=64, variant=old", "patched")["design"].cap == 12
    assert plan.row("a.B.m", "size=1024, variant=old", "patched")["design"].cap == 24
