package hotpath.store;

import java.nio.ByteBuffer;
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
 * Change 1 with queue offsets 0..31, below 127: the Long cache boxes them without allocating, so
 * only the lists' own size differs (for floor: its two exact arrays). Compare with
 * StoreGetMessageResultBenchmark at 32 messages.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StoreSmallOffsets -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreSmallOffsetsBenchmark {

    @Param({"old", "optimized", "floor", "upstream"})
    StoreVariant variant;

    private SelectMappedBufferResult[] selected;
    private org.apache.rocketmq.store.SelectMappedBufferResult[] released;

    @Setup
    public void setUp() {
        selected = new SelectMappedBufferResult[32];
        for (int i = 0; i < selected.length; i++) {
            selected[i] = new SelectMappedBufferResult(i * 1024L, ByteBuffer.allocate(1), 1000 + i);
        }
        StoreEquivalence.requireSameResults(selected, 32, 0L);
        if (variant.isUpstream()) {
            UpstreamStore.requireSameResults(selected, 32, 0L);
            released = UpstreamStore.released(selected);
        }
    }

    @Benchmark
    public Object smallOffsets() {
        if (variant.isUpstream()) {
            return UpstreamStore.build(released, 32, 0L);
        }
        GetMessageResult result = variant.newResult(32);
        for (int i = 0; i < 32; i++) {
            result.addMessage(selected[i], i);
        }
        return result;
    }
}
