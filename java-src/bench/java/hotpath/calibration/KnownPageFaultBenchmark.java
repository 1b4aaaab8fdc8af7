package hotpath.calibration;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Calibration for the page-fault profiler: one direct buffer of 64 MiB + 4 KiB per operation,
 * zeroed on allocation (every page touched) and freed at once. glibc serves a request this
 * large (over its largest mmap threshold, 32 MiB) with a fresh mapping and unmaps it on free, so
 * every operation faults in 16,385 pages (4 KiB each), and its time per op over that count is
 * what a fault costs on this machine.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownPageFault -prof hotpath.profiler.PageFaultProfiler}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KnownPageFaultBenchmark {

    /** The pages one operation faults in. */
    public static final int PAGES = 16 * 1024 + 1;

    private Object unsafe;
    private Method invokeCleaner;

    @Setup
    public void setUp() throws ReflectiveOperationException {
        Class<?> type = Class.forName("sun.misc.Unsafe");
        Field field = type.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        unsafe = field.get(null);
        invokeCleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
    }

    @Benchmark
    public int freshPages() throws ReflectiveOperationException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(PAGES * 4096);
        int first = buffer.get(0);
        invokeCleaner.invoke(unsafe, buffer); // freed now, not at some later collection
        return first;
    }
}
