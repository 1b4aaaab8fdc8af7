package hotpath.profiler;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AllocSiteProfilerTest {

    private static final String BENCHMARK = "hotpath.encoder.EncoderPayloadBenchmark.encode";
    private static final String STUB = "hotpath.encoder.jmh_generated.EncoderPayloadBenchmark_encode_jmhTest.";

    @Test
    void c2IsInUseWhenTheBenchmarkOrItsStubHasTier4CodeInUse() {
        String c1Only = "496 3 0 hotpath.encoder.EncoderPayloadBenchmark.encode()Ljava/nio/ByteBuffer; [0x1, 0x2 - 0x3]\n";
        assertFalse(AllocSiteProfiler.compiledByC2(c1Only, BENCHMARK, STUB));
        String method = c1Only + "530 4 0 hotpath.encoder.EncoderPayloadBenchmark.encode()Ljava/nio/ByteBuffer; [0x4]\n";
        assertTrue(AllocSiteProfiler.compiledByC2(method, BENCHMARK, STUB));
        String stub = "529 4 0 " + STUB + "encode_avgt_jmhStub(Lorg/openjdk/jmh/runner/InfraControl;)V [0x5]\n";
        assertTrue(AllocSiteProfiler.compiledByC2(stub, BENCHMARK, STUB));
    }

    @Test
    void tier4CodeNotInUseOrOfAnotherMethodDoesNotCount() {
        String notEntrant = "530 4 2 hotpath.encoder.EncoderPayloadBenchmark.encode()Ljava/nio/ByteBuffer; [0x4]\n";
        assertFalse(AllocSiteProfiler.compiledByC2(notEntrant, BENCHMARK, STUB));
        String other = "531 4 0 hotpath.encoder.EncoderPayloadBenchmark.encodeMore()V [0x4]\n"
                + "532 4 0 hotpath.encoder.OldMemcacheEncoder.encodeMemcache()V [0x6]\n";
        assertFalse(AllocSiteProfiler.compiledByC2(other, BENCHMARK, STUB));
    }

    @Test
    void thisJvmSaysWhetherItsOwnHotMethodReachedC2() {
        // a JVM that can list its code answers from it; the test's own method is not C2-compiled
        assertFalse(AllocSiteProfiler.compiledByC2("hotpath.profiler.AllocSiteProfilerTest.never"));
    }
}
