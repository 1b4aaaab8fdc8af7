package hotpath.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StoreEquivalenceTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 32, 100, 101, 256, 257, 1024})
    void getMessageResultsAgreeOnOffsetsCountsSizeAndCommercialCount(int messages) {
        SelectMappedBufferResult[] selected = new SelectMappedBufferResult[messages];
        for (int i = 0; i < messages; i++) {
            selected[i] = new SelectMappedBufferResult(i * 100L, ByteBuffer.allocate(1), 1 + i * 37 % 9000);
        }
        for (long first : new long[] {0, 100, 127, 128, 1_000_000, Long.MAX_VALUE - messages}) {
            StoreEquivalence.requireSameResults(selected, messages, first);
        }
        GetMessageResult r = new OptimizedGetMessageResult(messages);
        r.addMessage(new SelectMappedBufferResult(0, ByteBuffer.allocate(1), 4097), 7);
        assertEquals(2, r.getMsgCount4Commercial(), "ceil(4097 / 4096)");
        GetMessageResult f = new FloorGetMessageResult(messages);
        f.addMessage(new SelectMappedBufferResult(0, ByteBuffer.allocate(1), 4097), 7);
        assertEquals(2, f.getMsgCount4Commercial(), "ceil(4097 / 4096)");
    }

    @Test
    void floorResultGrowsPastItsCapacityAndItsViewsAreReadOnly() {
        // More messages than asked for and than the 256 cap: both arrays double, nothing is lost.
        for (int asked : new int[] {0, 1, 255, 256, 257, 1000}) {
            FloorGetMessageResult r = new FloorGetMessageResult(asked);
            GetMessageResult old = new OldGetMessageResult();
            int n = asked + 300;
            for (int i = 0; i < n; i++) {
                SelectMappedBufferResult m = new SelectMappedBufferResult(i, ByteBuffer.allocate(1), 100 + i);
                r.addMessage(m, 1_000_000L + i);
                old.addMessage(m, 1_000_000L + i);
            }
            assertEquals(old.getMessageQueueOffset(), r.getMessageQueueOffset());
            assertEquals(old.getMessageMapedList(), r.getMessageMapedList());
            assertEquals(old.getMessageBufferList(), r.getMessageBufferList());
            assertEquals(old.getBufferTotalSize(), r.getBufferTotalSize());
            assertEquals(n, r.getMessageCount());
            assertEquals(1_000_000L + n - 1, r.queueOffset(n - 1));
            assertThrows(IndexOutOfBoundsException.class, () -> r.queueOffset(n));
            assertThrows(UnsupportedOperationException.class,
                    () -> r.getMessageBufferList().add(ByteBuffer.allocate(1)));
        }
    }

    @Test
    void dispatchRequestsAgreeFieldByFieldAcrossSuccessAndFailure() {
        StoreEquivalence.requireSameDispatch();
    }

    @Test
    void aReusedRequestAfterAFailedOneIsSuccessfulAgain() {
        DispatchRequest failed = DispatchRequests.REUSED.blank(10, false);
        assertEquals(false, failed.success());
        DispatchRequest next = DispatchRequests.REUSED.message("t", 1, 2, 3, 4, 5, 6, "k", "u", 0, 0, null);
        assertTrue(next.success(), "reset must restore success (the reviewed version left it false)");
        assertEquals(new DispatchRequest("t", 1, 2, 3, 4, 5, 6, "k", "u", 0, 0, null).fields(), next.fields());
        // The reviewed reset() always set success = true: a failure after a success must stay a failure.
        assertEquals(false, DispatchRequests.REUSED.blank(10, false).success());
    }

    @Test
    void resetRestoresEveryFieldWhateverItHeld() throws Exception {
        // Scribble over every field, then reset: any field reset() forgets shows up here.
        DispatchRequest r = new DispatchRequest(1, false);
        for (Field f : DispatchRequest.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Class<?> t = f.getType();
            Object junk = t == int.class ? 99 : t == long.class ? 99L : t == short.class ? (short) 99
                    : t == boolean.class ? Boolean.FALSE : t == String.class ? "junk"
                    : t == byte[].class ? new byte[] {9} : t == Map.class ? Map.of("x", "y") : null;
            f.set(r, junk);
        }
        r.reset("t", 1, 2, 3, 4, 5, 6, "k", "u", 0, 0, null);
        assertEquals(new DispatchRequest("t", 1, 2, 3, 4, 5, 6, "k", "u", 0, 0, null).fields(), r.fields());
        for (Field f : DispatchRequest.class.getDeclaredFields()) {
            f.setAccessible(true);
            if (f.getType() == int.class) {
                f.set(r, 99);
            }
        }
        r.reset(7, true);
        assertEquals(new DispatchRequest(7, true).fields(), r.fields());
        assertEquals(DispatchRequest.class.getDeclaredFields().length, r.fields().size(),
                "fields() lists every field");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 100, 4096})
    void mappedSelectsAndAppendsAgreeOnARealMappedFile(int size) {
        StoreEquivalence.requireSameSelect(size);
        StoreEquivalence.requireSameAppends(size);
    }

    @Test
    void putStatsAgreeForOkFailedExceptionalAndLatePuts() {
        StoreEquivalence.requireSameStats();
        PutMessageStats stats = StoreEquivalence.runPuts(true);
        assertTrue(stats.failures() > 0);
        assertTrue(stats.slowPutWarnings() > 0, "puts over 500 ms are warned about");
        assertTrue(stats.max() >= 12_000, "late completions are timed from their put, not their completion");
        long recorded = java.util.Arrays.stream(stats.buckets()).sum();
        assertTrue(recorded < 2000, "exceptionally completed puts are not recorded, in both versions");
        assertNotEquals(0, stats.buckets()[stats.buckets().length - 1], "the >= 10 s bucket");
    }

    @Test
    void putStatsAreKeptByTheOptimizedPath() {
        PutMessageStats old = StoreEquivalence.runPuts(false);
        PutMessageStats opt = StoreEquivalence.runPuts(true);
        assertArrayEquals(old.buckets(), opt.buckets());
        assertEquals(old.failures(), opt.failures());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8, 120})
    void consumeQueueFilesAndKeysAreIdentical(int topicLength) {
        StoreEquivalence.requireSameConsumeQueue(topicLength);
    }

    @Test
    void consumeQueueEntriesAreTwentyBytesBigEndianAtTheirOffset() {
        try (MappedFile file = MappedFile.temporary(ConsumeQueue.ENTRY_SIZE * 10, true)) {
            ConsumeQueue q = new ConsumeQueue("topic", 0, file, new java.util.concurrent.ConcurrentHashMap<>(), true);
            q.putMessagePositionInfo(1, 2, 3);
            long second = q.putMessagePositionInfo(0x0102030405060708L, 0x0A0B0C0D, -1);
            assertEquals(1, second);
            ByteBuffer entry = ByteBuffer.wrap(file.bytes(20, 20));
            assertEquals(0x0102030405060708L, entry.getLong());
            assertEquals(0x0A0B0C0D, entry.getInt());
            assertEquals(-1L, entry.getLong());
            assertEquals("topic-0", q.topicQueueKey());
        }
    }

    @Test
    void theCombinedPullAgrees() {
        StoreEquivalence.requireSamePull(32);
        StoreEquivalence.requireSamePull(300);
    }
}
