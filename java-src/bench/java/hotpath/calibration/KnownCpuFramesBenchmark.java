package hotpath.calibration;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Calibration: two sides whose time differs by one named method doing a known amount of work,
 * so that the attribution of time to frames can be held to an answer that does not come from
 * the attribution itself. Both run {@link #shared} ({@value #SHARED_STEPS} dependent xorshift64
 * rounds); {@code old} also runs {@link #extra} ({@value #EXTRA_STEPS} rounds of the same kind),
 * which {@code optimized} leaves out: the row's whole change is {@code extra}'s time. Neither is
 * inlined, so each is a frame of its own; the chain continues from one operation to the next
 * and allocates nothing.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownCpuFrames
 * -prof "hotpath.profiler.CpuProfiler:dir=cpu"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class KnownCpuFramesBenchmark {

    static final int SHARED_STEPS = 2_000;
    static final int EXTRA_STEPS = 2_000;

    @Param({"old", "optimized"})
    String variant;

    private long state = 0x9E3779B97F4A7C15L;

    @Benchmark
    public long frames() {
        long x = shared(state);
        if (variant.equals("old")) {
            x = extra(x);
        }
        state = x;
        return x;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long shared(long seed) {
        return KnownWorkBenchmark.work(seed, SHARED_STEPS);
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long extra(long seed) {
        return KnownWorkBenchmark.work(seed, EXTRA_STEPS);
    }
}
