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
        ProfilerException unknown = assertThrows(ProfilerException.class, () -> new CpuProfiler("dir=x;rate=5"));
        assertEquals("CpuProfiler: unknown options [rate]; known: dir, interval, event", unknown.getMessage());
    }
}
