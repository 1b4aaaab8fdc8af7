package hotpath.calibration;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Calibration: a known amount of CPU work per operation, so that a comparison of two builds can
 * be checked against an answer that does not come from the comparison itself. Each operation runs
 * {@code steps} rounds of a xorshift64 mix, every round depending on the one before, so the JIT
 * can neither vectorize, fold nor hoist it; the chain continues from one operation to the next
 * and allocates nothing. Time per op is proportional to {@code steps}. The number is not a
 * {@code @Param} but the resource {@code hotpath/calibration/work.properties} packaged in the jar:
 * a copy of the jar with that resource rewritten to twice the steps should measure about twice the
 * time per op, and nothing else in it differs.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownWork}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KnownWorkBenchmark {

    /** Classpath resource, relative to this class's package, holding {@code steps=<N>}. */
    static final String RESOURCE = "work.properties";

    int steps;
    private long state = 0x9E3779B97F4A7C15L;

    @Setup
    public void setUp() {
        steps = loadSteps();
    }

    @Benchmark
    public long work() {
        long result = work(state, steps);
        state = result;
        return result;
    }

    /** {@code steps} dependent xorshift64 rounds from {@code seed}; a nonzero seed stays nonzero. */
    static long work(long seed, int steps) {
        long x = seed;
        for (int i = 0; i < steps; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** Reads {@code steps} from the packaged resource; fails if it is missing or malformed. */
    static int loadSteps() {
        try (InputStream in = KnownWorkBenchmark.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("classpath resource hotpath/calibration/" + RESOURCE
                        + " is missing; it should be packaged in the jar from java-src/bench/resources");
            }
            Properties properties = new Properties();
            properties.load(in);
            return parseSteps(properties.getProperty("steps"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read hotpath/calibration/" + RESOURCE, e);
        }
    }

    static int parseSteps(String value) {
        if (value == null) {
            throw new IllegalStateException("hotpath/calibration/" + RESOURCE + " has no steps=<N> line");
        }
        int steps;
        try {
            steps = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("hotpath/calibration/" + RESOURCE
                    + ": steps is not an integer: '" + value + "'", e);
        }
        if (steps <= 0) {
            throw new IllegalStateException("hotpath/calibration/" + RESOURCE
                    + ": steps must be positive, got " + steps);
        }
        return steps;
    }
}
