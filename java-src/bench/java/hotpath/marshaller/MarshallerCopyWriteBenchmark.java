package hotpath.marshaller;

import java.util.Arrays;
import java.util.Random;
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
 * The write-up's second isolated delta: copy + write vs write directly, serialization excluded.
 * Old: a trim copy byte[N] of the writer's internal array, then the stream copies it; optimized:
 * the stream copies the internal array's [0, N) directly. The sink really copies the bytes.
 * No {@code floor} variant: the direct write already allocates nothing, the floor.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar MarshallerCopyWrite -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MarshallerCopyWriteBenchmark {

    @Param({"old", "optimized"})
    MarshallerVariant variant;

    @Param({"64", "1024", "16384", "262144"})
    int size;

    private byte[] internal;
    private ByteSink sink;

    @Setup
    public void setUp() {
        // The writer's internal array: a pooled array larger than what was written.
        internal = new byte[Integer.highestOneBit(size) * 2];
        new Random(42).nextBytes(internal);
        sink = new ByteSink(size);
        byte[] viaCopy = copyThenWrite();
        byte[] direct = writeDirectly();
        if (!Arrays.equals(viaCopy, direct)) {
            throw new IllegalStateException("copy+write and direct write disagree");
        }
    }

    private byte[] copyThenWrite() {
        sink.reset().write(Arrays.copyOf(internal, size), 0, size);
        return sink.toByteArray();
    }

    private byte[] writeDirectly() {
        sink.reset().write(internal, 0, size);
        return sink.toByteArray();
    }

    @Benchmark
    public ByteSink copyAndWrite() {
        sink.reset();
        if (variant == MarshallerVariant.old) {
            byte[] arr = Arrays.copyOf(internal, size);
            sink.write(arr, 0, arr.length);
        } else {
            sink.write(internal, 0, size);
        }
        return sink;
    }
}
