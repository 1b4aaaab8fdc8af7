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
 * Change 1: building a pull's GetMessageResult for {@code messages} messages. Old: three lists
 * of capacity 100 (grown past 100) with every queue offset boxed into a new Long; optimized:
 * offsets in a long[] sized to the pull (capped at 256, doubling beyond); floor (beyond the
 * write-up): the messages too in one array sized so, no lists but views. Offsets start at
 * 1,000,000 (outside the Long cache); {@code smallOffsets} repeats 32 messages with offsets
 * 0..31, which the cache serves without allocating. {@code upstream}: the release's
 * GetMessageResult (RocketMQ 5.5.1), the old code.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StoreGetMessageResult -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreGetMessageResultBenchmark {

    @Param({"old", "optimized", "floor", "upstream"})
    StoreVariant variant;

    @Param({"1", "32", "100", "101", "256", "1024"})
    int messages;

    private SelectMappedBufferResult[] selected;
    private org.apache.rocketmq.store.SelectMappedBufferResult[] released;

    @Setup
    public void setUp() {
        selected = new SelectMappedBufferResult[Math.max(messages, 32)];
        for (int i = 0; i < selected.length; i++) {
            selected[i] = new SelectMappedBufferResult(i * 1024L, ByteBuffer.allocate(1), 1000 + i);
        }
        StoreEquivalence.requireSameResults(selected, messages, 1_000_000L);
        StoreEquivalence.requireSameResults(selected, 32, 0L);
        if (variant.isUpstream()) {
            UpstreamStore.requireSameResults(selected, messages, 1_000_000L);
            released = UpstreamStore.released(selected);
        }
    }

    private GetMessageResult build(int count, long firstOffset) {
        GetMessageResult result = variant.newResult(count);
        for (int i = 0; i < count; i++) {
            result.addMessage(selected[i], firstOffset + i);
        }
        return result;
    }

    @Benchmark
    public Object largeOffsets() {
        return variant.isUpstream() ? UpstreamStore.build(released, messages, 1_000_000L)
                : build(messages, 1_000_000L);
    }
}
