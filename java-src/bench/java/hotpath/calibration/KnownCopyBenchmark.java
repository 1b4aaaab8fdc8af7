package hotpath.calibration;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Calibration for the old/optimized pipeline: the smallest copy reduction there is. {@code old}
 * copies the source into a temporary array and then into the sink (the trim-copy pattern of
 * several write-ups); {@code optimized} copies straight into the sink. The difference in heap
 * B/op is known in advance: one byte[size], 16 + size bytes.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar KnownCopy -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KnownCopyBenchmark {

    @Param({"old", "optimized"})
    String variant;

    @Param({"64", "4096"})
    int size;

    private byte[] source;
    private byte[] sink;
    private boolean old;

    @Setup
    public void setUp() {
        old = switch (variant) {
            case "old" -> true;
            case "optimized" -> false;
            default -> throw new IllegalArgumentException("unknown variant " + variant);
        };
        source = new byte[size];
        Arrays.fill(source, (byte) 7);
        sink = new byte[size];
    }

    @Benchmark
    public byte[] copy() {
        if (old) {
            byte[] temporary = Arrays.copyOf(source, size);
            System.arraycopy(temporary, 0, sink, 0, size);
        } else {
            System.arraycopy(source, 0, sink, 0, size);
        }
        return sink;
    }
}
