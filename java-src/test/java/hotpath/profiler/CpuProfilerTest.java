package hotpath.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.profile.ProfilerException;

class CpuProfilerTest {

    @Test
    void aThreadsRootIsItsNameWithoutItsId() {
        assertEquals("[GC Thread#0]", CpuProfiler.threadName("[GC Thread#0 tid=4242]"));
        assertEquals("[x.Bench.run-jmh-worker-1]", CpuProfiler.threadName("[x.Bench.run-jmh-worker-1 tid=7]"));
        // a frame that is not a thread's root stays as it is
        assertEquals("java/lang/Thread.run", CpuProfiler.threadName("java/lang/Thread.run"));
        assertEquals("[tid=12]", CpuProfiler.threadName("[tid=12]"));
    }

    @Test
    void badOptionsAreRefusedWithWhatIsKnown() {
        assertThrows(ProfilerException.class, () -> new CpuProfiler(""));
        assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;interval=often"));
        assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;interval=10"));
        assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;event=wall"));
        assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;sampled=odd"));
        assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;tail=some"));
        assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;tail=-1"));
        assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;tail=3;sampled=abba"));
        ProfilerException unknown = assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;rate=5"));
        assertEquals("CpuProfiler: unknown options [rate]; known: dir, interval, event, sampled, tail", unknown.getMessage());
    }

    @Test
    void abbaSamplesTheFirstAndLastIterationOfEveryFour() throws ProfilerException {
        CpuProfiler abba = new CpuProfiler("dir=x;sampled=abba");
        boolean[] expected = {true, false, false, true, true, false, false, true};
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], abba.sampled(k, 8), "iteration " + k);
        }
        CpuProfiler all = new CpuProfiler("dir=x");
        for (int k = 0; k < expected.length; k++) {
            assertEquals(true, all.sampled(k, 8), "iteration " + k);
        }
    }

    @Test
    void aTailSamplesOnlyTheLastIterations() throws ProfilerException {
        CpuProfiler tail = new CpuProfiler("dir=x;tail=3");
        boolean[] expected = {false, false, false, false, false, true, true, true};
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], tail.sampled(k, 8), "iteration " + k);
        }
    }
}
