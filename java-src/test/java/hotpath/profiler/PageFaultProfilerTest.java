package hotpath.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Collection;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import hotpath.calibration.KnownPageFaultBenchmark;

class PageFaultProfilerTest {

    @Test
    void minorAndMajorFaultsAreReadPastACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 1500 0 25 0 7 3 0 0 20 0 30 0 100 0 0";
        assertEquals(1525, PageFaultProfiler.parse(stat));
    }

    @Test
    void readingTheCountersAllocatesNothingOnTheHeapForProfGcToCount() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (int i = 0; i < 1_000; i++) {  // the file opened, the paths warm
            sum += PageFaultProfiler.faults();
        }
        // A read that allocated would show in every round; a one-off of the JVM's own (a method
        // compiled mid-round, seen once as 72 B on a fresh clone) in one round only: the fewest
        // bytes of five rounds is what a read allocates.
        long[] rounds = new long[5];
        for (int r = 0; r < rounds.length; r++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1_000; i++) {
                sum += PageFaultProfiler.faults();
            }
            rounds[r] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertTrue(sum > 0);
        assertEquals(0, java.util.Arrays.stream(rounds).min().getAsLong(),
                "bytes allocated by 1,000 reads of /proc/self/stat, in each of five rounds: "
                        + java.util.Arrays.toString(rounds));
    }

    @Test
    void thisProcessCountsThePagesItTouchesFirst() {
        long before = PageFaultProfiler.faults();
        ByteBuffer fresh = ByteBuffer.allocateDirect(KnownPageFaultBenchmark.PAGES * 4096); // zeroed: every page touched
        long after = PageFaultProfiler.faults();
        assertTrue(before >= 0 && after - before >= KnownPageFaultBenchmark.PAGES,
                "faults " + before + " -> " + after + " over " + fresh.capacity() + " bytes");
    }

    @Test
    void a64MiBDirectBufferPerOpMeasuresItsPagesPerOp() throws Exception {
        Options options = new OptionsBuilder()
                .include("hotpath.calibration.KnownPageFaultBenchmark.freshPages")
                .addProfiler(PageFaultProfiler.class)
                .forks(1).warmupIterations(1).warmupTime(TimeValue.milliseconds(200))
                .measurementIterations(2).measurementTime(TimeValue.milliseconds(300))
                .jvmArgsAppend("-Xmx256m")
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Result faults = results.iterator().next().getSecondaryResults().get("faults.norm");
        double perOp = faults.getScore();
        int pages = KnownPageFaultBenchmark.PAGES;
        // the buffer's pages, and little else: JIT and GC threads fault in a few pages of their own
        assertTrue(perOp >= pages * 0.98 && perOp <= pages * 1.05, "faults/op " + perOp + ", pages " + pages);
        assertEquals("faults/op", faults.getScoreUnit());
    }
}
