package hotpath.store;

import java.util.concurrent.ConcurrentHashMap;
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
 * Change 5: one consume-queue put into a real mapped file. Old: the key
 * {@code topic + "-" + queueId} built (and hashed) twice per put; optimized: a final field.
 * Topic names of 8 and 120 characters. {@code upstream}: the release's key methods, entry append
 * and offset table (RocketMQ 5.5.1), the old code, composed as {@link UpstreamConsumeQueue} says.
 *
 * <p>How to run: {@code java -jar target/benchmarks.jar StoreConsumeQueue -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StoreConsumeQueueBenchmark {

    @Param({"old", "optimized", "upstream"})
    StoreVariant variant;

    @Param({"8", "120"})
    int topicLength;

    private MappedFile file;
    private ConsumeQueue queue;
    private UpstreamMappedFile releasedFile;
    private UpstreamConsumeQueue released;
    private long commitLogOffset;

    @Setup
    public void setUp() {
        StoreEquivalence.requireSameConsumeQueue(topicLength);
        file = MappedFile.temporary(ConsumeQueue.ENTRY_SIZE * 300_000, variant.isOptimized());
        queue = new ConsumeQueue(StoreEquivalence.topic(topicLength), 3, file, new ConcurrentHashMap<>(),
                variant.isOptimized());
        if (variant.isUpstream()) {
            UpstreamStore.requireSameConsumeQueue(topicLength);
            releasedFile = new UpstreamMappedFile(ConsumeQueue.ENTRY_SIZE * 300_000);
            released = new UpstreamConsumeQueue(StoreEquivalence.topic(topicLength), 3, releasedFile);
        }
    }

    @TearDown
    public void tearDown() {
        file.close();
        if (releasedFile != null) {
            releasedFile.close();
        }
    }

    @Benchmark
    public long putMessagePositionInfo() {
        commitLogOffset += 256;
        return variant.isUpstream() ? released.putMessagePositionInfo(commitLogOffset, 256, 42)
                : queue.putMessagePositionInfo(commitLogOffset, 256, 42);
    }
}
