package hotpath.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

class NativeAllocProfilerTest {

    private static final String COLLAPSED = String.join("\n",
            "java/lang/Thread.run;hotpath/writer/OldDirectMessageWriter.serialize;java/nio/ByteBuffer.allocateDirect;java/nio/DirectByteBuffer.<init>;jdk/internal/misc/Unsafe.allocateMemory0;malloc 10240",
            "java/lang/Thread.run;hotpath/writer/CompressedMessage.<init>;java/util/zip/Deflater.<init>;java/util/zip/Deflater.init;deflateInit2_;malloc 268208",
            "java/lang/Thread.run;hotpath/zip/MarshalZip.old;java/io/ObjectOutputStream.writeObject;os::malloc 64",
            "C2CompilerThread0;Compile::Compile;os::malloc 999999",
            "java/lang/Thread.run;org/openjdk/jmh/runner/BenchmarkHandler.run;java/nio/DirectByteBuffer.<init>;malloc 5000",
            "not a line",
            "");

    @Test
    void collapsedStacksAreSplitIntoDirectZlibAndOtherForTheBenchmarksOwnCode() {
        NativeAllocations a = NativeAllocations.parse(COLLAPSED);
        assertEquals(10240, a.direct());
        assertEquals(268208, a.zlib());
        assertEquals(64, a.other());
        assertEquals(10240 + 268208 + 64, a.total(), "JIT and harness mallocs are not the benchmark's");
    }

    @Test
    void oneDirectBufferOf4096BytesPerOpMeasuresAs4096BytesPerOp() throws Exception {
        Options options = new OptionsBuilder()
                .include("hotpath.calibration.KnownNativeAllocationBenchmark.directBuffer")
                .addProfiler(NativeAllocProfiler.class)
                .forks(1).warmupIterations(1).warmupTime(TimeValue.milliseconds(200))
                .measurementIterations(2).measurementTime(TimeValue.milliseconds(200))
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, Result> secondary = results.iterator().next().getSecondaryResults();
        double direct = secondary.get("native.alloc.norm.direct").getScore();
        assertTrue(Math.abs(direct - 4096) <= 4096 * 0.03, "direct B/op " + direct);
        double total = secondary.get("native.alloc.norm").getScore();
        assertTrue(total >= direct && total < 4096 * 1.03, "total B/op " + total);
    }
}
