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
 * Calibration: a change that is a JDK intrinsic, beside a loop that does not change, so that the
 * attribution of time to frames can be held to an answer that does not come from the attribution
 * itself where the work runs in code the JIT emits rather than in a Java method. Both sides run
 * {@link #loop} ({@value #LOOP_STEPS} dependent xorshift64 rounds, a frame of its own);
 * {@code old} also copies {@value #COPY_BYTES} bytes with {@link System#arraycopy}, which C2
 * compiles to a call into one of its copy stubs ({@code jbyte_disjoint_arraycopy} and its
 * kin): a frame with no Java method behind it, the one the encoder's and the marshaller's copies
 * are found in. {@code optimized} leaves the copy out.
 *
 * <p>How long the copy takes beside the loop depends on the arrays' alignment, which moves from
 * fork to fork: its share of old's samples is known to lie well inside (0, 1), not to a point.
 * What is known exactly: the stub holds none of the new side's samples, and the benchmark method
 * and JMH's stub hold almost none of either (the copy is not theirs).
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownIntrinsicFrames -jvmArgsAppend
 * "-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" -prof "hotpath.profiler.CpuProfiler:dir=cpu"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class KnownIntrinsicFramesBenchmark {

    static final int COPY_BYTES = 32768;
    static final int LOOP_STEPS = 224;

    @Param({"old", "optimized"})
    String variant;

    private boolean old;
    private long state = 0x9E3779B97F4A7C15L;
    private final byte[] source = new byte[COPY_BYTES];
    private final byte[] target = new byte[COPY_BYTES];

    @Setup
    public void setup() {
        old = variant.equals("old");
        for (int i = 0; i < COPY_BYTES; i++) {
            source[i] = (byte) (i * 31 + 7);
        }
    }

    @Benchmark
    public long frames() {
        long x = loop(state);
        if (old) {
            System.arraycopy(source, 0, target, 0, COPY_BYTES);
            // a byte of the copy feeds the next step, so the copy cannot be left out
            x ^= target[(int) (x & (COPY_BYTES - 1))];
        }
        state = x;
        return x;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long loop(long seed) {
        return KnownWorkBenchmark.work(seed, LOOP_STEPS);
    }
}
