package hotpath.calibration;

import java.util.Arrays;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Calibration: an operation whose heap allocations are known site by site, so the allocation-site
 * pass can be held to an answer that does not come from the pass itself. Each call of
 * {@code sites} allocates, with compressed oops (16-byte array header, 8-byte alignment):
 * one {@code byte[size]} in {@code bytes} (16 + size B), two {@code long[4]} in {@code longs}
 * (48 B each) and one {@code byte[size]} in {@code Arrays.copyOf} called from {@code copy}
 * (16 + size B). Every array escapes into the Blackhole, so none is scalar-replaced.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownAllocationSites -i 1
 * -prof "hotpath.profiler.AllocSiteProfiler:dir=sites"}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class KnownAllocationSitesBenchmark {

    @Param({"64", "1024"})
    int size;

    private byte[] source;

    @Setup
    public void setUp() {
        source = new byte[size];
        Arrays.fill(source, (byte) 7);
    }

    @Benchmark
    public void sites(Blackhole bh) {
        bh.consume(bytes(size));
        bh.consume(longs());
        bh.consume(longs());
        bh.consume(copy(source));
    }

    static byte[] bytes(int size) {
        return new byte[size];
    }

    static long[] longs() {
        return new long[4];
    }

    static byte[] copy(byte[] source) {
        return Arrays.copyOf(source, source.length);
    }
}
