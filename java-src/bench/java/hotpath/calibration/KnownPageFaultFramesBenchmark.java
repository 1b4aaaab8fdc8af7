package hotpath.calibration;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Calibration: a change whose cost is the kernel's, so that the attribution of time to frames can
 * be held to an answer that does not come from the attribution itself where the work is page
 * faults. Both sides zero {@value #PAGES} pages of native memory per operation with
 * {@code Unsafe.setMemory} (libc's memset); {@code old} asks for them fresh each time and frees
 * them after (a request this large, over glibc's largest mmap threshold, is a new mapping, as in
 * {@link KnownPageFaultBenchmark}), so every page faults in on its first write; {@code optimized}
 * zeroes the same pages of one block kept from its setup, already mapped. The faults (about 2 µs
 * each here, against well under 1 µs for zeroing a page) are most of old's time and none of the
 * new side's: the kernel's fault frames ({@code asm_exc_page_fault} and below) hold most of old's
 * samples and none of new's, where a sampler that cannot see the kernel puts them on memset.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownPageFaultFrames -jvmArgsAppend
 * "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" -prof "hotpath.profiler.CpuProfiler:dir=cpu"}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class KnownPageFaultFramesBenchmark {

    /** The pages one operation zeroes: 64 MiB and one page, as KnownPageFaultBenchmark's. */
    static final long PAGES = KnownPageFaultBenchmark.PAGES;
    static final long BYTES = PAGES * 4096;

    @Param({"old", "optimized"})
    String variant;

    private boolean old;
    private Object unsafe;
    private Method allocate;
    private Method zero;
    private Method free;
    private long kept;

    @Setup
    public void setUp() throws ReflectiveOperationException {
        old = variant.equals("old");
        Class<?> type = Class.forName("sun.misc.Unsafe");
        Field field = type.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        unsafe = field.get(null);
        allocate = type.getMethod("allocateMemory", long.class);
        zero = type.getMethod("setMemory", long.class, long.class, byte.class);
        free = type.getMethod("freeMemory", long.class);
        if (!old) {
            kept = (long) allocate.invoke(unsafe, BYTES);
            zero.invoke(unsafe, kept, BYTES, (byte) 0); // mapped here, once
        }
    }

    @Benchmark
    public long pages() throws ReflectiveOperationException {
        long address = old ? (long) allocate.invoke(unsafe, BYTES) : kept;
        zero.invoke(unsafe, address, BYTES, (byte) 0);
        if (old) {
            free.invoke(unsafe, address); // unmapped now: the next operation's pages are fresh
        }
        return address;
    }

    @TearDown
    public void tearDown() throws ReflectiveOperationException {
        if (kept != 0) {
            free.invoke(unsafe, kept);
            kept = 0;
        }
    }
}
