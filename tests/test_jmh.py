"""A benchmark's name cut in one place."""

import pytest

from hotpath.jmh import MethodName


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
