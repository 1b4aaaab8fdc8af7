package hotpath.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The {@link StoreEquivalence} checks over generated inputs, 10,610 calls in all: the cheap
 * GetMessageResult check 10,000 times (message counts around the old lists' 100 and the 256 cap,
 * offsets across the Long cache's -128..127 and at the ends of the long range, message sizes at
 * the 4 KB commercial unit +-1), and the checks that open real mapped files fewer times (select
 * and append sizes from 0 and 1 to the whole 64 KB file, consume-queue topic lengths, pull sizes).
 * Each property also checks the model against what is computed here, without old: results
 * against sums, views and appends against the bytes put in, consume-queue entries against their
 * layout. Dispatch requests, whose check takes no input, are compared field by field over
 * generated request sequences as that check does; the put-stats check takes no input either and
 * stays with the JUnit test.
 *
 * <p>The store checks build old, optimized and floor themselves and take no variant, so no input
 * can make a correct pair differ; what shows that a wrong result is caught is the example feeding
 * a result that forgets offsets past its capacity to the sums made here.
 */
class StoreSameOutputProperties {

    /** A pull: {@code count} messages cycling through {@code distinct} selected ones, queue offsets from {@code firstOffset}. */
    record PullSpec(int count, int distinct, long firstOffset, long seed) {
        SelectMappedBufferResult[] selected() {
            Random rnd = new Random(seed);
            SelectMappedBufferResult[] selected = new SelectMappedBufferResult[distinct];
            for (int i = 0; i < distinct; i++) {
                int size = rnd.nextInt(3) == 0 ? SIZE_EDGES[rnd.nextInt(SIZE_EDGES.length)] : 1 + rnd.nextInt(10_000);
                byte[] content = new byte[Math.min(size, 8)];
                rnd.nextBytes(content);
                selected[i] = new SelectMappedBufferResult(rnd.nextLong() >>> 1, ByteBuffer.wrap(content), size);
            }
            return selected;
        }
    }

    /** Message sizes at the 4 KB commercial unit and its multiples, +-1, and the smallest. */
    static final int[] SIZE_EDGES = {0, 1, 4095, 4096, 4097, 8191, 8192, 8193, 1 << 20};

    @Property(tries = 10_000)
    void getMessageResultsAgree(@ForAll("pulls") PullSpec pull) {
        SelectMappedBufferResult[] selected = pull.selected();
        StoreEquivalence.requireSameResults(selected, pull.count(), pull.firstOffset());
        // Without old: each result holds what the pull put in, summed here.
        for (GetMessageResult r : new GetMessageResult[] {new OptimizedGetMessageResult(pull.count()),
                new FloorGetMessageResult(pull.count())}) {
            for (int i = 0; i < pull.count(); i++) {
                r.addMessage(selected[i % selected.length], pull.firstOffset() + i);
            }
            assertHolds(r, selected, pull.count(), pull.firstOffset());
        }
    }

    /** {@code r} holds {@code count} messages from {@code selected}, their offsets and the totals. */
    static void assertHolds(GetMessageResult r, SelectMappedBufferResult[] selected, int count, long firstOffset) {
        List<Long> offsets = new ArrayList<>(count);
        List<SelectMappedBufferResult> messages = new ArrayList<>(count);
        List<ByteBuffer> buffers = new ArrayList<>(count);
        int total = 0;
        int units = 0;
        for (int i = 0; i < count; i++) {
            SelectMappedBufferResult m = selected[i % selected.length];
            offsets.add(firstOffset + i);
            messages.add(m);
            buffers.add(m.byteBuffer());
            total += m.size();
            units += (m.size() + 4095) / 4096;
        }
        String which = r.getClass().getSimpleName();
        assertEquals(count, r.getMessageCount(), which + " count");
        assertEquals(offsets, r.getMessageQueueOffset(), which + " offsets");
        assertEquals(messages, r.getMessageMapedList(), which + " messages");
        assertEquals(buffers, r.getMessageBufferList(), which + " buffers");
        assertEquals(total, r.getBufferTotalSize(), which + " total size");
        assertEquals(units, r.getMsgCount4Commercial(), which + " commercial units");
    }

    /** The sums made here catch a result that keeps only as many offsets as it was first sized for. */
    @Example
    void aResultThatForgetsOffsetsPastItsCapacityIsCaught() {
        SelectMappedBufferResult[] one = {new SelectMappedBufferResult(0, ByteBuffer.allocate(1), 100)};
        GetMessageResult wrong = new ForgetsPastCapacity(300);
        for (int i = 0; i < 300; i++) {
            wrong.addMessage(one[0], i);
        }
        assertThrows(AssertionError.class, () -> assertHolds(wrong, one, 300, 0));
    }

    /** The optimized result without its growth: offsets past the 256 it starts with are dropped. */
    static final class ForgetsPastCapacity implements GetMessageResult {
        private final OptimizedGetMessageResult r;

        ForgetsPastCapacity(int maxMsgNums) {
            r = new OptimizedGetMessageResult(maxMsgNums);
        }

        @Override
        public void addMessage(SelectMappedBufferResult mapped, long queueOffset) {
            r.addMessage(mapped, queueOffset);
        }

        @Override
        public List<SelectMappedBufferResult> getMessageMapedList() {
            return r.getMessageMapedList();
        }

        @Override
        public List<ByteBuffer> getMessageBufferList() {
            return r.getMessageBufferList();
        }

        @Override
        public List<Long> getMessageQueueOffset() {
            List<Long> all = r.getMessageQueueOffset();
            return all.subList(0, Math.min(all.size(), OptimizedGetMessageResult.MAX_INITIAL_OFFSETS));
        }

        @Override
        public int getBufferTotalSize() {
            return r.getBufferTotalSize();
        }

        @Override
        public int getMsgCount4Commercial() {
            return r.getMsgCount4Commercial();
        }

        @Override
        public int getMessageCount() {
            return r.getMessageCount();
        }
    }

    // The checks below open two files per call; the companion assertions use one kept file instead.
    private static final MappedFile KEPT = MappedFile.temporary(1 << 16, true);

    @AfterContainer
    static void closeKeptFile() {
        KEPT.close();
    }

    @Property(tries = 200)
    void mappedSelectsAgree(@ForAll("selectSizes") int size, @ForAll long seed) {
        StoreEquivalence.requireSameSelect(size);
        // Without old: a view of the kept file holds the bytes appended there, from position 0.
        byte[] data = filled(seed);
        int pos = (int) Math.floorMod(seed, (long) (data.length - size + 1));
        ByteBuffer view = KEPT.selectMappedBuffer(pos, size).byteBuffer();
        assertEquals(0, view.position());
        assertEquals(size, view.remaining());
        byte[] got = new byte[size];
        view.get(got);
        assertArrayEquals(Arrays.copyOfRange(data, pos, pos + size), got);
    }

    @Property(tries = 200)
    void mappedAppendsAgree(@ForAll("appendSizes") int size, @ForAll long seed) {
        StoreEquivalence.requireSameAppends(size);
        // Without old: appends land back to back until the next one would not fit.
        KEPT.rewind();
        Random rnd = new Random(seed);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        while (true) {
            byte[] msg = new byte[1 + rnd.nextInt(Math.min(size, 1 << 14))];
            rnd.nextBytes(msg);
            boolean fits = expected.size() + msg.length <= KEPT.capacity();
            assertEquals(fits, KEPT.append(msg), "append accepted");
            if (!fits) {
                break;
            }
            expected.writeBytes(msg);
        }
        assertEquals(expected.size(), KEPT.wrotePosition());
        assertArrayEquals(expected.toByteArray(), KEPT.bytes(0, expected.size()));
    }

    @Property(tries = 150)
    void consumeQueuesAgree(@ForAll("topicLengths") int topicLength, @ForAll long seed) {
        StoreEquivalence.requireSameConsumeQueue(topicLength);
        // Without old: entry n is 20 big-endian bytes at n x 20, the table counts the entries.
        String topic = StoreEquivalence.topic(topicLength);
        ConcurrentHashMap<String, Long> table = new ConcurrentHashMap<>();
        ConsumeQueue queue = new ConsumeQueue(topic, 3, KEPT, table, true);
        Random rnd = new Random(seed);
        int entries = 1 + rnd.nextInt(100);
        for (int n = 0; n < entries; n++) {
            long off = rnd.nextLong();
            int msgSize = rnd.nextInt();
            long tags = rnd.nextLong();
            assertEquals(n, queue.putMessagePositionInfo(off, msgSize, tags));
            ByteBuffer entry = ByteBuffer.wrap(KEPT.bytes(n * ConsumeQueue.ENTRY_SIZE, ConsumeQueue.ENTRY_SIZE));
            assertEquals(off, entry.getLong());
            assertEquals(msgSize, entry.getInt());
            assertEquals(tags, entry.getLong());
        }
        assertEquals(topic + "-3", queue.topicQueueKey());
        assertEquals(Map.of(topic + "-3", (long) entries), table);
    }

    @Property(tries = 60)
    void pullsAgree(@ForAll("pullSizes") int messages, @ForAll long seed) {
        StoreEquivalence.requireSamePull(messages);
        // Without old: a floor result over views of the kept file holds what was appended, summed here.
        KEPT.rewind();
        Random rnd = new Random(seed);
        List<SelectMappedBufferResult> selected = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            byte[] msg = new byte[1 + rnd.nextInt(150)];
            rnd.nextBytes(msg);
            int pos = KEPT.wrotePosition();
            if (!KEPT.append(msg)) {
                break;
            }
            selected.add(KEPT.selectMappedBuffer(pos, msg.length));
        }
        GetMessageResult r = new FloorGetMessageResult(messages);
        for (int i = 0; i < selected.size(); i++) {
            r.addMessage(selected.get(i), 5_000_000L + i);
        }
        assertHolds(r, selected.toArray(new SelectMappedBufferResult[0]), selected.size(), 5_000_000L);
    }

    /** The kept file, rewound and filled with bytes from {@code seed}; what it holds. */
    private static byte[] filled(long seed) {
        byte[] data = new byte[KEPT.capacity()];
        new Random(seed).nextBytes(data);
        KEPT.rewind();
        KEPT.append(data);
        return data;
    }

    /**
     * requireSameDispatch takes no input: the same comparison, a new request per message against one
     * reused request, over generated sequences of messages and blank or failed reads.
     */
    @Property(tries = 1_000)
    void dispatchRequestsAgreeFieldByField(@ForAll("dispatches") List<Object[]> sequence) {
        for (Object[] a : sequence) {
            DispatchRequest old;
            DispatchRequest reused;
            if (a.length == 2) {
                old = DispatchRequests.OLD.blank((Integer) a[0], (Boolean) a[1]);
                reused = DispatchRequests.REUSED.blank((Integer) a[0], (Boolean) a[1]);
            } else {
                old = message(DispatchRequests.OLD, a);
                reused = message(DispatchRequests.REUSED, a);
            }
            assertEquals(old.fields(), reused.fields());
        }
    }

    // ---------------------------------------------------------------- generators

    @Provide
    Arbitrary<PullSpec> pulls() {
        Arbitrary<Integer> counts = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of(0, 1, 2, 31, 32, 33, 99, 100, 101, 127, 128, 129, 255, 256, 257, 511, 512, 513)),
                Tuple.of(2, Arbitraries.integers().between(0, 300)),
                Tuple.of(1, Arbitraries.integers().between(300, 1100)));
        // Offsets within the Long cache, across its ends, and where first + count overflows.
        Arbitrary<Long> firsts = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.longs().between(0, 127)),
                Tuple.of(1, Arbitraries.of(-129L, -128L, -1L, 126L, 127L, 128L, 1_000_000L,
                        Long.MAX_VALUE - 300, Long.MAX_VALUE, Long.MIN_VALUE)),
                Tuple.of(1, Arbitraries.longs().between(-300, 300)),
                Tuple.of(1, Arbitraries.longs()));
        return Combinators.combine(counts, Arbitraries.integers().between(1, 1100), firsts, Arbitraries.longs())
                .as((count, distinct, first, seed) -> new PullSpec(count, Math.min(distinct, Math.max(count, 1)), first, seed));
    }

    /** 0 and 1 byte, the 4 KB page +-1, and the largest a view at every probed position allows. */
    @Provide
    Arbitrary<Integer> selectSizes() {
        int largest = (1 << 16) - 12_345;
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of(0, 1, 2, 4095, 4096, 4097, largest - 1, largest)),
                Tuple.of(3, Arbitraries.integers().between(0, largest)));
    }

    /** Appends of at most 1, 2, ... bytes up to more than the 64 KB file holds. */
    @Provide
    Arbitrary<Integer> appendSizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of(1, 2, 3, 4095, 4096, 4097, 65_535, 65_536, 65_537)),
                Tuple.of(3, Arbitraries.integers().between(1, 70_000)));
    }

    @Provide
    Arbitrary<Integer> topicLengths() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of(0, 1, 25, 26, 27, 127, 128, 255, 256, 1000)),
                Tuple.of(3, Arbitraries.integers().between(0, 300)));
    }

    /** Pulls of 0 and 1 message, around the old lists' 100 and the 256 cap, up to 350 (the 1 MB file's share). */
    @Provide
    Arbitrary<Integer> pullSizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of(0, 1, 2, 99, 100, 101, 255, 256, 257)),
                Tuple.of(2, Arbitraries.integers().between(0, 350)));
    }

    @Provide
    Arbitrary<List<Object[]>> dispatches() {
        Arbitrary<Object[]> blank = Combinators.combine(Arbitraries.integers().between(0, 4096), Arbitraries.of(true, false))
                .as((size, success) -> new Object[] {size, success});
        Arbitrary<String> text = Arbitraries.strings().ofMaxLength(20).injectNull(0.1);
        Arbitrary<Map<String, String>> props = Arbitraries.of(List.<Map<String, String>>of(Map.of(), Map.of("a", "b")))
                .injectNull(0.5);
        Arbitrary<Object[]> message = Combinators.combine(
                Combinators.combine(text, Arbitraries.integers().between(0, 7), Arbitraries.longs(),
                        Arbitraries.integers().between(0, 4096)).as((t, q, c, s) -> new Object[] {t, q, c, s}),
                Combinators.combine(Arbitraries.longs(), Arbitraries.longs(), Arbitraries.longs(), text)
                        .as((tags, ts, cq, keys) -> new Object[] {tags, ts, cq, keys}),
                Combinators.combine(text, Arbitraries.integers(), Arbitraries.longs(), props)
                        .as((u, f, p, m) -> new Object[] {u, f, p, m}))
                .as((x, y, z) -> new Object[] {x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3], z[0], z[1], z[2], z[3]});
        return Arbitraries.frequencyOf(Tuple.of(1, blank), Tuple.of(4, message)).list().ofMinSize(1).ofMaxSize(12);
    }

    @SuppressWarnings("unchecked")
    private static DispatchRequest message(DispatchRequests requests, Object[] a) {
        return requests.message((String) a[0], (Integer) a[1], (Long) a[2], (Integer) a[3], (Long) a[4],
                (Long) a[5], (Long) a[6], (String) a[7], (String) a[8], (Integer) a[9], (Long) a[10],
                (Map<String, String>) a[11]);
    }

}
