package hotpath.store;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.rocketmq.store.DispatchRequest;
import org.apache.rocketmq.store.GetMessageResult;
import org.apache.rocketmq.store.SelectMappedBufferResult;

/**
 * The released old pull/dispatch path, Apache RocketMQ 5.5.1 ({@code rocketmq-store}; the PR is
 * unmerged, so every release holds the old code), beside our old model: the release's
 * {@code GetMessageResult}, {@code DispatchRequest}, {@code DefaultMappedFile}
 * ({@link UpstreamMappedFile}) and consume-queue put ({@link UpstreamConsumeQueue}), and checks
 * that each leaves the state our old model leaves (each throws IllegalStateException on the first
 * difference). The put-stats lambda lives inside {@code DefaultMessageStore.asyncPutMessage} and
 * needs a started store: it has no counterpart here.
 */
public final class UpstreamStore {

    private UpstreamStore() {
    }

    private static void require(boolean same, String what) {
        if (!same) {
            throw new IllegalStateException("the release and our old model differ: " + what);
        }
    }

    /** The release's results for our prepared ones: same start offsets, buffers and sizes. */
    public static SelectMappedBufferResult[] released(hotpath.store.SelectMappedBufferResult[] selected) {
        SelectMappedBufferResult[] out = new SelectMappedBufferResult[selected.length];
        for (int i = 0; i < selected.length; i++) {
            out[i] = new SelectMappedBufferResult(selected[i].startOffset(), selected[i].byteBuffer(),
                    selected[i].size(), null);
        }
        return out;
    }

    /** A pull's result for {@code count} messages, as {@code DefaultMessageStore.getMessage} builds it. */
    public static GetMessageResult build(SelectMappedBufferResult[] selected, int count, long firstOffset) {
        GetMessageResult result = new GetMessageResult();
        for (int i = 0; i < count; i++) {
            result.addMessage(selected[i], firstOffset + i);
        }
        return result;
    }

    /** Offsets, counts, total size, commercial count and buffers, against our old model's. */
    public static void requireSameResults(hotpath.store.SelectMappedBufferResult[] selected, int count,
                                          long firstOffset) {
        hotpath.store.GetMessageResult model = new OldGetMessageResult();
        for (int i = 0; i < count; i++) {
            model.addMessage(selected[i % selected.length], firstOffset + i);
        }
        SelectMappedBufferResult[] released = released(selected);
        GetMessageResult release = new GetMessageResult();
        for (int i = 0; i < count; i++) {
            release.addMessage(released[i % released.length], firstOffset + i);
        }
        requireSameResult(model, release);
    }

    static void requireSameResult(hotpath.store.GetMessageResult model, GetMessageResult release) {
        require(model.getMessageQueueOffset().equals(release.getMessageQueueOffset()), "queue offsets");
        require(model.getMessageCount() == release.getMessageCount(), "message count");
        require(model.getBufferTotalSize() == release.getBufferTotalSize(), "total size");
        require(model.getMsgCount4Commercial() == release.getMsgCount4Commercial(), "commercial count");
        require(model.getMessageBufferList().equals(release.getMessageBufferList()), "buffers");
        require(model.getMessageMapedList().size() == release.getMessageMapedList().size(), "mapped results");
    }

    /** Every field of every request, against our old model's, message after message. */
    public static void requireSameDispatch() {
        Random rnd = new Random(7);
        for (int i = 0; i < 500; i++) {
            String topic = StoreEquivalence.topic(1 + rnd.nextInt(20));
            int queueId = rnd.nextInt(8);
            long commitLogOffset = rnd.nextLong();
            int msgSize = rnd.nextInt(4096);
            long tagsCode = rnd.nextLong();
            long storeTimestamp = rnd.nextLong();
            long cqOffset = rnd.nextLong();
            String keys = "k" + rnd.nextInt();
            String uniqKey = "u" + rnd.nextInt();
            int sysFlag = rnd.nextInt();
            long prepared = rnd.nextLong();
            Map<String, String> props = rnd.nextBoolean() ? null : Map.of("a", "b");
            hotpath.store.DispatchRequest model = DispatchRequests.OLD.message(topic, queueId, commitLogOffset,
                    msgSize, tagsCode, storeTimestamp, cqOffset, keys, uniqKey, sysFlag, prepared, props);
            DispatchRequest release = dispatch(topic, queueId, commitLogOffset, msgSize, tagsCode,
                    storeTimestamp, cqOffset, keys, uniqKey, sysFlag, prepared, props);
            require(model.fields().equals(fields(release)), "dispatch request " + i + ": " + model.fields()
                    + " vs " + fields(release));
        }
        int size = rnd.nextInt(4096);
        for (boolean success : new boolean[] {true, false}) {
            require(DispatchRequests.OLD.blank(size, success).fields().equals(fields(new DispatchRequest(size, success))),
                    "blank dispatch request, success " + success);
        }
    }

    /** A dispatched message, as the reput service creates it: the 12-argument constructor. */
    public static DispatchRequest dispatch(String topic, int queueId, long commitLogOffset, int msgSize,
                                           long tagsCode, long storeTimestamp, long consumeQueueOffset,
                                           String keys, String uniqKey, int sysFlag,
                                           long preparedTransactionOffset, Map<String, String> properties) {
        return new DispatchRequest(topic, queueId, commitLogOffset, msgSize, tagsCode, storeTimestamp,
                consumeQueueOffset, keys, uniqKey, sysFlag, preparedTransactionOffset, properties);
    }

    /** The release's fields in our model's declaration order. */
    static List<Object> fields(DispatchRequest r) {
        return Arrays.asList(r.getTopic(), r.getQueueId(), r.getCommitLogOffset(), r.getMsgSize(), r.getTagsCode(),
                r.getStoreTimestamp(), r.getConsumeQueueOffset(), r.getKeys(), r.isSuccess(), r.getUniqKey(),
                r.getSysFlag(), r.getPreparedTransactionOffset(), r.getPropertiesMap(), r.getBitMap(),
                r.getBufferSize(), r.getMsgBaseOffset(), r.getBatchSize(), r.getNextReputFromOffset(),
                r.getOffsetId());
    }

    /** Content, start offset, position 0 and limit = size, against our old model's. */
    public static void requireSameSelect(int size) {
        byte[] data = new byte[1 << 16];
        new Random(size).nextBytes(data);
        try (MappedFile model = MappedFile.temporary(1 << 16, false);
             UpstreamMappedFile release = new UpstreamMappedFile(1 << 16)) {
            model.append(data);
            release.append(data);
            for (int pos : new int[] {0, 1, 100, 12_345, (1 << 16) - size}) {
                hotpath.store.SelectMappedBufferResult a = model.selectMappedBuffer(pos, size);
                SelectMappedBufferResult b = release.selectMappedBuffer(pos, size);
                require(b != null, "the release selects nothing at " + pos);
                require(a.startOffset() == b.getStartOffset() && a.size() == b.getSize(), "select at " + pos);
                require(b.getByteBuffer().position() == 0 && b.getByteBuffer().limit() == size, "position 0, limit = size");
                require(a.byteBuffer().equals(b.getByteBuffer()), "selected content at " + pos);
                b.release();
            }
        }
    }

    /** The same file bytes after the same appends as our old model. */
    public static void requireSameAppends(int size) {
        try (MappedFile model = MappedFile.temporary(1 << 16, false);
             UpstreamMappedFile release = new UpstreamMappedFile(1 << 16)) {
            Random rnd = new Random(size);
            while (true) {
                byte[] msg = new byte[1 + rnd.nextInt(size)];
                rnd.nextBytes(msg);
                boolean a = model.append(msg);
                boolean b = release.append(msg);
                require(a == b, "append accepted");
                if (!a) {
                    break;
                }
            }
            require(model.wrotePosition() == release.wrotePosition(), "write position");
            require(Arrays.equals(model.bytes(0, model.capacity()), release.bytes(0, release.capacity())), "file bytes");
        }
    }

    /** The same consume-queue offsets, file bytes and topic-queue table as our old model. */
    public static void requireSameConsumeQueue(int topicLength) {
        String topic = StoreEquivalence.topic(topicLength);
        try (MappedFile modelFile = MappedFile.temporary(ConsumeQueue.ENTRY_SIZE * 1000, false);
             UpstreamMappedFile releaseFile = new UpstreamMappedFile(ConsumeQueue.ENTRY_SIZE * 1000)) {
            ConcurrentHashMap<String, Long> modelTable = new ConcurrentHashMap<>();
            ConsumeQueue model = new ConsumeQueue(topic, 3, modelFile, modelTable, false);
            UpstreamConsumeQueue release = new UpstreamConsumeQueue(topic, 3, releaseFile);
            Random rnd = new Random(topicLength);
            for (int i = 0; i < 1500; i++) { // past the end of the file: both start it over
                long off = rnd.nextLong() >>> 1;
                int size = rnd.nextInt(1 << 20);
                long tags = rnd.nextLong();
                require(model.putMessagePositionInfo(off, size, tags) == release.putMessagePositionInfo(off, size, tags),
                        "consume-queue offset");
            }
            require(modelTable.equals(release.topicQueueTable()), "topic-queue table (and so the key)");
            require(Arrays.equals(modelFile.bytes(0, modelFile.capacity()), releaseFile.bytes(0, releaseFile.capacity())),
                    "consume-queue file bytes");
        }
    }

    /** The combined pull: the release's selects and result against our old model's. */
    public static void requireSamePull(int messages) {
        try (MappedFile model = MappedFile.temporary(1 << 20, false);
             UpstreamMappedFile release = new UpstreamMappedFile(1 << 20)) {
            Random rnd = new Random(messages);
            hotpath.store.GetMessageResult a = new OldGetMessageResult();
            GetMessageResult b = new GetMessageResult();
            for (int i = 0; i < messages; i++) {
                byte[] msg = new byte[1 + rnd.nextInt(5000)];
                rnd.nextBytes(msg);
                int pos = model.wrotePosition();
                model.append(msg);
                release.append(msg);
                a.addMessage(model.selectMappedBuffer(pos, msg.length), 5_000_000L + i);
                b.addMessage(release.selectMappedBuffer(pos, msg.length), 5_000_000L + i);
            }
            requireSameResult(a, b);
            for (ByteBuffer buf : b.getMessageBufferList()) {
                require(buf.position() == 0, "selected views start at position 0");
            }
        }
    }
}
