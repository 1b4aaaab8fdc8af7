package hotpath.store;

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
 * Change 3a: selecting one message's bytes from a real memory-mapped commit log. Old: two
 * {@code slice()} calls (two DirectByteBuffer views) per select; optimized: one view.
 * {@code upstream}: the release's DefaultMappedFile (RocketMQ 5.5.1), the old code.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StoreSelectMappedBuffer -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreSelectMappedBufferBenchmark {

    @Param({"old", "optimized", "upstream"})
    StoreVariant variant;

    @Param({"100", "4096"})
    int size;

    private MappedFile file;
    private UpstreamMappedFile released;
    private int pos;

    @Setup
    public void setUp() {
        StoreEquivalence.requireSameSelect(size);
        file = MappedFile.temporary(1 << 20, variant.isOptimized());
        pos = 12_345;
        if (variant.isUpstream()) {
            UpstreamStore.requireSameSelect(size);
            released = new UpstreamMappedFile(1 << 20);
            released.append(new byte[1 << 20]); // the release selects only what was written
        }
    }

    @TearDown
    public void tearDown() {
        file.close();
        if (released != null) {
            released.close();
        }
    }

    /** The release also takes a reference on the file per select; its caller releases it later. */
    @Benchmark
    public Object select() {
        return variant.isUpstream() ? released.selectMappedBuffer(pos, size) : file.selectMappedBuffer(pos, size);
    }
}
