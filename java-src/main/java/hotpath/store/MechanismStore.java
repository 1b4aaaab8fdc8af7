package hotpath.store;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The put-dispatch-pull path of one topic-queue with any set of PR #10526's mechanisms
 * ({@link StoreMechanism}) applied to old: each message is put through the broker's put path
 * (its latency recorded in the stats), appended to a mapped commit log, dispatched as a
 * DispatchRequest into the consume queue (a 20-byte entry, the next offset kept under the
 * topic-queueId key), and the round's messages are then pulled back: selected from the commit
 * log and collected into a GetMessageResult. Each mechanism switches one component between its
 * old and its optimized model ({@link OldGetMessageResult} or {@link OptimizedGetMessageResult},
 * {@link DispatchRequests#OLD} or {@link DispatchRequests#REUSED}, and the {@code optimized} flag
 * of {@link MappedFile}, {@link PutMessagePath} and {@link ConsumeQueue}): the empty set is the
 * old models throughout, the full set the optimized ones. Every set leaves the same state.
 *
 * <p>A message larger than {@link #MAX_MESSAGE_SIZE} fails its put (the store's answer is not ok,
 * as for an illegal message): it is recorded as a failure and neither appended nor dispatched.
 * Dispatch is single-threaded, as the reused request needs.
 */
public final class MechanismStore implements AutoCloseable {

    public static final int MAX_MESSAGE_SIZE = 16 * 1024;
    static final int COMMIT_LOG_SIZE = 1 << 20;
    static final int CONSUME_QUEUE_ENTRIES = 1024;
    private static final Consumer<DispatchRequest> NO_LISTENER = request -> { };

    private final String topic;
    private final int queueId;
    private final boolean primitiveOffsets;
    private final MappedFile commitLog;
    private final MappedFile consumeQueueFile;
    private final ConcurrentHashMap<String, Long> topicQueueTable = new ConcurrentHashMap<>();
    private final ConsumeQueue consumeQueue;
    private final PutMessagePath putPath;
    private final DispatchRequests requests;
    private final Consumer<DispatchRequest> dispatched;
    private final Map<String, String> properties;
    private final CompletableFuture<PutMessagePath.PutResult> stored =
            CompletableFuture.completedFuture(new PutMessagePath.PutResult(true));
    private final CompletableFuture<PutMessagePath.PutResult> illegal =
            CompletableFuture.completedFuture(new PutMessagePath.PutResult(false));

    // The round in progress: the message being put, and where each stored message went.
    private byte[] putting;
    private int putPosition;
    private int[] positions = new int[32];
    private int[] sizes = new int[32];
    private long[] queueOffsets = new long[32];
    private long nextQueueOffset;
    // The last request dispatched: the dispatchers keep it, as the consume queue and index do.
    private DispatchRequest lastDispatched;

    public MechanismStore(String topic, int queueId, Set<StoreMechanism> applied, LongSupplier clock) {
        this(topic, queueId, applied, clock, NO_LISTENER);
    }

    /** {@code dispatched} sees each request while it is current (tests copy its fields). */
    public MechanismStore(String topic, int queueId, Set<StoreMechanism> applied, LongSupplier clock,
                          Consumer<DispatchRequest> dispatched) {
        this.topic = topic;
        this.queueId = queueId;
        this.primitiveOffsets = applied.contains(StoreMechanism.PRIMITIVE_OFFSETS);
        this.requests = applied.contains(StoreMechanism.REUSED_REQUEST) ? DispatchRequests.REUSED : DispatchRequests.OLD;
        this.commitLog = MappedFile.temporary(COMMIT_LOG_SIZE, applied.contains(StoreMechanism.SLICES));
        this.consumeQueueFile = MappedFile.temporary(CONSUME_QUEUE_ENTRIES * ConsumeQueue.ENTRY_SIZE, false);
        this.consumeQueue = new ConsumeQueue(topic, queueId, consumeQueueFile, topicQueueTable,
                applied.contains(StoreMechanism.CACHED_KEY));
        this.putPath = new PutMessagePath(this::store, clock, applied.contains(StoreMechanism.NO_LAMBDA));
        this.dispatched = dispatched;
        this.properties = Map.of("KEYS", "order-1");
    }

    /** The model of a variant name, on the system clock. */
    public static MechanismStore of(String variant, String topic, int queueId) {
        return new MechanismStore(topic, queueId, StoreMechanism.parse(variant), System::currentTimeMillis);
    }

    /** One round: every message put, stored ones appended and dispatched, then pulled back. */
    public GetMessageResult putAndPull(byte[][] messages, long[] tagsCodes) {
        int n = messages.length;
        if (positions.length < n) {
            positions = new int[n];
            sizes = new int[n];
            queueOffsets = new long[n];
        }
        int kept = 0;
        for (int i = 0; i < n; i++) {
            putting = messages[i];
            if (putPath.putMessage(topic).join().ok()) {
                dispatch(kept, messages[i].length, tagsCodes[i]);
                kept++;
            }
        }
        GetMessageResult result = primitiveOffsets ? new OptimizedGetMessageResult(n) : new OldGetMessageResult();
        for (int i = 0; i < kept; i++) {
            result.addMessage(commitLog.selectMappedBuffer(positions[i], sizes[i]), queueOffsets[i]);
        }
        return result;
    }

    /** The store behind the put path: appends the message being put, wrapping at the end of the log. */
    private CompletableFuture<PutMessagePath.PutResult> store(String msgTopic) {
        byte[] msg = putting;
        if (msg.length > MAX_MESSAGE_SIZE) {
            return illegal;
        }
        if (!commitLog.append(msg)) {
            commitLog.rewind();
            commitLog.append(msg);
        }
        putPosition = commitLog.wrotePosition() - msg.length;
        return stored;
    }

    private void dispatch(int index, int size, long tagsCode) {
        long queueOffset = nextQueueOffset++;
        DispatchRequest request = requests.message(topic, queueId, putPosition, size, tagsCode,
                1_700_000_000_000L + queueOffset, queueOffset, "order-1", "uniq", 0, 0, properties);
        dispatched.accept(request);
        long cqOffset = consumeQueue.putMessagePositionInfo(request.commitLogOffset(), request.msgSize(),
                request.tagsCode());
        if (cqOffset != request.consumeQueueOffset()) {
            throw new IllegalStateException("consume queue at " + cqOffset + ", message at " + queueOffset);
        }
        lastDispatched = request;
        positions[index] = putPosition;
        sizes[index] = size;
        queueOffsets[index] = cqOffset;
    }

    public PutMessageStats stats() {
        return putPath.stats();
    }

    public String topicQueueKey() {
        return consumeQueue.topicQueueKey();
    }

    public ConcurrentHashMap<String, Long> topicQueueTable() {
        return topicQueueTable;
    }

    /** The consume queue's file, entry by entry at cqOffset x 20. */
    public byte[] consumeQueueBytes() {
        return consumeQueueFile.bytes(0, consumeQueueFile.capacity());
    }

    public byte[] commitLogBytes() {
        return commitLog.bytes(0, commitLog.capacity());
    }

    DispatchRequest lastDispatched() {
        return lastDispatched;
    }

    /**
     * The variant leaves old's state, round after round: per round the pulled offsets, counts, total
     * size, commercial count, start offsets and views (content, position 0, limit = size) and every
     * field of every dispatched request; after the rounds the consume-queue and commit-log bytes,
     * the key and its table, and the stats (buckets, max, failures, slow-put warnings). Both run
     * on the same stepping clock (latencies from 0 to 12 s, by {@code seed}). Throws
     * IllegalStateException on the first difference: no timing of a variant that differs is valid.
     */
    public static void requireSameState(String variant, String topic, byte[][] messages, long[] tagsCodes, int rounds) {
        requireSameState(StoreMechanism.parse(variant), topic, 3, messages, tagsCodes, rounds, 1);
    }

    public static void requireSameState(Set<StoreMechanism> applied, String topic, int queueId, byte[][] messages,
                                        long[] tagsCodes, int rounds, long seed) {
        java.util.List<java.util.List<Object>> oldRequests = new java.util.ArrayList<>();
        java.util.List<java.util.List<Object>> newRequests = new java.util.ArrayList<>();
        try (MechanismStore old = new MechanismStore(topic, queueId, java.util.EnumSet.noneOf(StoreMechanism.class),
                steppingClock(seed), r -> oldRequests.add(r.fields()));
             MechanismStore opt = new MechanismStore(topic, queueId, applied, steppingClock(seed),
                     r -> newRequests.add(r.fields()))) {
            String which = StoreMechanism.name(applied) + ": ";
            for (int round = 0; round < rounds; round++) {
                GetMessageResult a = old.putAndPull(messages, tagsCodes);
                GetMessageResult b = opt.putAndPull(messages, tagsCodes);
                String at = which + "round " + round + ", ";
                require(a.getMessageQueueOffset().equals(b.getMessageQueueOffset()), at + "queue offsets");
                require(a.getMessageCount() == b.getMessageCount(), at + "message count");
                require(a.getBufferTotalSize() == b.getBufferTotalSize(), at + "total size");
                require(a.getMsgCount4Commercial() == b.getMsgCount4Commercial(), at + "commercial count");
                for (int i = 0; i < a.getMessageCount(); i++) {
                    SelectMappedBufferResult x = a.getMessageMapedList().get(i);
                    SelectMappedBufferResult y = b.getMessageMapedList().get(i);
                    require(x.startOffset() == y.startOffset() && x.size() == y.size(), at + "selected " + i);
                    require(y.byteBuffer().position() == 0 && y.byteBuffer().limit() == y.size(),
                            at + "position 0 and limit = size of " + i);
                    require(x.byteBuffer().equals(y.byteBuffer()), at + "content of " + i);
                    require(b.getMessageBufferList().get(i) == y.byteBuffer(), at + "buffer list " + i);
                }
                require(oldRequests.equals(newRequests), at + "dispatch requests");
            }
            require(java.util.Arrays.equals(old.consumeQueueBytes(), opt.consumeQueueBytes()), which + "consume queue bytes");
            require(java.util.Arrays.equals(old.commitLogBytes(), opt.commitLogBytes()), which + "commit log bytes");
            require(old.topicQueueKey().equals(opt.topicQueueKey()), which + "key");
            require(old.topicQueueTable().equals(opt.topicQueueTable()), which + "topic-queue table");
            PutMessageStats x = old.stats();
            PutMessageStats y = opt.stats();
            require(java.util.Arrays.equals(x.buckets(), y.buckets()), which + "latency buckets");
            require(x.max() == y.max(), which + "max latency");
            require(x.failures() == y.failures(), which + "failures");
            require(x.slowPutWarnings() == y.slowPutWarnings(), which + "slow-put warnings");
        }
    }

    /** A clock that moves by one of the latencies from 0 to 12 s at each reading, by seed. */
    public static LongSupplier steppingClock(long seed) {
        java.util.Random rnd = new java.util.Random(seed);
        long[] now = {0};
        long[] steps = {0, 5, 30, 70, 150, 400, 501, 900, 1500, 2500, 3500, 4500, 7000, 12_000};
        return () -> now[0] += steps[rnd.nextInt(steps.length)];
    }

    private static void require(boolean same, String what) {
        if (!same) {
            throw new IllegalStateException("old and a newer variant differ: " + what);
        }
    }

    @Override
    public void close() {
        commitLog.close();
        consumeQueueFile.close();
    }
}
