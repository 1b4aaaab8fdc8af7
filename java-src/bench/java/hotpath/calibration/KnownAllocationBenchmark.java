package hotpath.calibration;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Calibration: benchmarks whose heap allocation per operation is known in advance, so the
 * analysis pipeline (and its golden-file tests) can be checked against an answer that does not
 * come from the pipeline itself. {@code byteArray} allocates exactly one byte[size], which costs
 * 16 + size bytes (8-byte aligned) with compressed oops; {@code nothing} allocates nothing, so
 * {@code -prof gc} writes no {@code gc.alloc.rate.norm} for it at all.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownAllocation -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class KnownAllocationBenchmark {

    @Param({"64", "1024"})
    int size;

    private long counter;

    @Benchmark
    public byte[] byteArray() {
        return new byte[size];
    }

    @Benchmark
    public long nothing() {
        return counter++ * 31 + size;
    }
}
