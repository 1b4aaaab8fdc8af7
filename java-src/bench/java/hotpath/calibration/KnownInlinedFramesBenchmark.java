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
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Calibration: a change that is straight-line code inlined into the benchmark, beside a loop
 * that does not change, so that the attribution of time to frames can be held to an answer that
 * does not come from the attribution itself where the JIT inlines. Both sides run {@link #loop}
 * ({@value #LOOP_STEPS} dependent xorshift64 rounds, a frame of its own); {@code old} also runs
 * {@link #straight} four times ({@value #STRAIGHT_ROUNDS} rounds of the same kind written out:
 * no loop, no call, small enough that C2 inlines it into {@link #frames}), which
 * {@code optimized} leaves out. The changed work is a quarter of the rest: about a fifth of
 * old's samples, none of the new side's.
 *
 * <p>Straight-line code has no safepoint poll of its own: a sampler loaded after C2 compiled
 * {@link #frames} names it only where the JVM keeps debug information between safepoints
 * ({@code -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints}, which every fork that samples
 * runs with); without it, its samples fall on {@link #frames} or JMH's stub.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownInlinedFrames -jvmArgsAppend
 * "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" -prof "hotpath.profiler.CpuProfiler:dir=cpu"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class KnownInlinedFramesBenchmark {

    static final int STRAIGHT_ROUNDS = 14;
    static final int STRAIGHT_CALLS = 4;
    static final int LOOP_STEPS = 4 * STRAIGHT_CALLS * STRAIGHT_ROUNDS;

    @Param({"old", "optimized"})
    String variant;

    private boolean old;
    private long state = 0x9E3779B97F4A7C15L;

    @Setup
    public void setup() {
        old = variant.equals("old");
    }

    @Benchmark
    public long frames() {
        long x = loop(state);
        if (old) {
            x = straight(straight(straight(straight(x))));
        }
        state = x;
        return x;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long loop(long seed) {
        return KnownWorkBenchmark.work(seed, LOOP_STEPS);
    }

    /** {@value #STRAIGHT_ROUNDS} dependent xorshift64 rounds, written out; a nonzero x stays nonzero. */
    static long straight(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }
}
