package hotpath.store;

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
import org.openjdk.jmh.annotations.TearDown;

/**
 * Change 3b: appending one message to a real memory-mapped commit log. Old: a new
 * {@code slice()} per append; optimized: one cached append view, repositioned.
 * {@code upstream}: the release's DefaultMappedFile (RocketMQ 5.5.1), the old code.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StoreAppend -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreAppendBenchmark {

    @Param({"old", "optimized", "upstream"})
    StoreVariant variant;

    @Param({"100", "4096"})
    int size;

    private MappedFile file;
    private UpstreamMappedFile released;
    private byte[] message;

    @Setup
    public void setUp() {
        StoreEquivalence.requireSameAppends(size);
        file = MappedFile.temporary(8 << 20, variant.isOptimized());
        message = new byte[size];
        new Random(42).nextBytes(message);
        if (variant.isUpstream()) {
            UpstreamStore.requireSameAppends(size);
            released = new UpstreamMappedFile(8 << 20);
        }
    }

    @TearDown
    public void tearDown() {
        file.close();
        if (released != null) {
            released.close();
        }
    }

    @Benchmark
    public int append() {
        if (variant.isUpstream()) {
            if (!released.append(message)) {
                released.rewind();
                released.append(message);
            }
            return released.wrotePosition();
        }
        if (!file.append(message)) {
            file.rewind(); // a full segment: start over (the next file, in a broker)
            file.append(message);
        }
        return file.wrotePosition();
    }
}
