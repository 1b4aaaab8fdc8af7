package hotpath.store;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import hotpath.fidelity.HeapPerCall;
import hotpath.fidelity.HeapProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The released store path (RocketMQ 5.5.1) beside our old model: the same state, change by
 * change, and the same heap bytes per call. The append is left out of the heap comparison: both
 * the release's per-append view and ours are scalar-replaced by C2 in some JVMs and not in
 * others (compile order), so its B/op is bimodal on both sides.
 */
class UpstreamStoreTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 32, 100, 101, 256, 1024})
    void releaseResultsAgreeOnOffsetsCountsSizeAndCommercialCount(int messages) {
        SelectMappedBufferResult[] selected = new SelectMappedBufferResult[messages];
        for (int i = 0; i < messages; i++) {
            selected[i] = new SelectMappedBufferResult(i * 100L, ByteBuffer.allocate(1), 1 + i * 37 % 9000);
        }
        for (long first : new long[] {0, 127, 128, 1_000_000}) {
            UpstreamStore.requireSameResults(selected, messages, first);
        }
    }

    @Test
    void releaseDispatchRequestsAgreeFieldByField() {
        UpstreamStore.requireSameDispatch();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 100, 4096})
    void releaseSelectsAndAppendsAsOurOldModel(int size) {
        UpstreamStore.requireSameSelect(size);
        UpstreamStore.requireSameAppends(size);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8, 120})
    void releaseConsumeQueueWritesTheSameEntriesOffsetsAndKeys(int topicLength) {
        UpstreamStore.requireSameConsumeQueue(topicLength);
    }

    @Test
    void releasePullAgreesWithOurOldModel() {
        UpstreamStore.requireSamePull(32);
        UpstreamStore.requireSamePull(300);
    }

    @Test
    void aDifferentResultIsCaught() {
        SelectMappedBufferResult[] selected = {new SelectMappedBufferResult(0, ByteBuffer.allocate(1), 10)};
        SelectMappedBufferResult[] other = {new SelectMappedBufferResult(0, ByteBuffer.allocate(1), 11)};
        org.apache.rocketmq.store.GetMessageResult release = UpstreamStore.build(UpstreamStore.released(other), 1, 5);
        GetMessageResult model = new OldGetMessageResult();
        model.addMessage(selected[0], 5);
        assertTrue(model.getBufferTotalSize() != release.getBufferTotalSize());
        assertThrows(IllegalStateException.class, () -> UpstreamStore.requireSameResult(model, release));
    }

    private static void assertSameHeapPerCall(String what, Supplier<?> release, Supplier<?> model) {
        double[] bytes = HeapPerCall.compare(release, model, 100_000, 50_000);
        assertTrue(HeapPerCall.agree(bytes[0], bytes[1]), HeapPerCall.describe(what, bytes[0], bytes[1]));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 32, 101})
    void oldGetMessageResultAllocatesWhatTheReleaseAllocates(int messages) {
        SelectMappedBufferResult[] selected = new SelectMappedBufferResult[messages];
        for (int i = 0; i < messages; i++) {
            selected[i] = new SelectMappedBufferResult(i * 1024L, ByteBuffer.allocate(1), 1000 + i);
        }
        org.apache.rocketmq.store.SelectMappedBufferResult[] released = UpstreamStore.released(selected);
        assertSameHeapPerCall("GetMessageResult of " + messages, () -> UpstreamStore.build(released, messages, 1_000_000L),
                () -> {
                    GetMessageResult r = new OldGetMessageResult();
                    for (int i = 0; i < messages; i++) {
                        r.addMessage(selected[i], 1_000_000L + i);
                    }
                    return r;
                });
    }

    @Test
    void oldSelectAndDispatchAllocateWhatTheReleaseAllocates() {
        try (MappedFile model = MappedFile.temporary(1 << 20, false);
             UpstreamMappedFile release = new UpstreamMappedFile(1 << 20)) {
            release.append(new byte[1 << 20]);
            assertSameHeapPerCall("select", () -> release.selectMappedBuffer(12_345, 100),
                    () -> model.selectMappedBuffer(12_345, 100));
        }
        Map<String, String> props = Map.of("KEYS", "order-1");
        assertSameHeapPerCall("dispatch request",
                () -> UpstreamStore.dispatch("TopicTest", 1, 1L << 20, 256, 3, 1_700_000_000_000L, 1000,
                        "order-1", "uniq", 0, 0, props),
                () -> DispatchRequests.OLD.message("TopicTest", 1, 1L << 20, 256, 3, 1_700_000_000_000L, 1000,
                        "order-1", "uniq", 0, 0, props));
    }

    /**
     * Measured in fresh JVMs, one per side, as benchmark forks measure it: whether C2 merges the
     * key's StringBuilder chain into one exact-size array and scalar-replaces the per-append view
     * depends on what the JVM compiled before, and a test runner has compiled much.
     */
    @ParameterizedTest
    @ValueSource(ints = {8, 120})
    void oldConsumeQueuePutAllocatesWhatTheReleaseAllocates(int topicLength) {
        String arg = Integer.toString(topicLength);
        double[] bytes = HeapProbe.leastOfBoth(2, 5, ReleaseConsumeQueuePut.class, ModelConsumeQueuePut.class,
                arg, 200_000, 100_000);
        assertTrue(HeapPerCall.agree(bytes[0], bytes[1]),
                HeapPerCall.describe("consume-queue put, topic of " + topicLength, bytes[0], bytes[1]));
    }

    /** One consume-queue put of the release, for a topic of the given length. */
    public static final class ReleaseConsumeQueuePut implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String topicLength) {
            UpstreamConsumeQueue queue = new UpstreamConsumeQueue(StoreEquivalence.topic(Integer.parseInt(topicLength)),
                    3, new UpstreamMappedFile(ConsumeQueue.ENTRY_SIZE * 10_000)); // starts over every 10,000 puts, in the warm-up too
            long[] offset = {0};
            return () -> queue.putMessagePositionInfo(offset[0] += 256, 256, 42);
        }
    }

    /** One consume-queue put of our old model, for a topic of the given length. */
    public static final class ModelConsumeQueuePut implements Function<String, Supplier<?>> {
        @Override
        public Supplier<?> apply(String topicLength) {
            ConsumeQueue queue = new ConsumeQueue(StoreEquivalence.topic(Integer.parseInt(topicLength)), 3,
                    MappedFile.temporary(ConsumeQueue.ENTRY_SIZE * 10_000, false), new ConcurrentHashMap<>(), false);
            long[] offset = {0};
            return () -> queue.putMessagePositionInfo(offset[0] += 256, 256, 42);
        }
    }
}
