package hotpath.store;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One topic-queue's index: 20-byte big-endian entries (commit-log offset 8, size 4, tags code
 * 8) written into a reused heap buffer and put at cqOffset x 20 in a mapped file, the next offset
 * kept in the store's topic-queue table. (The release appends the entry through its mapped
 * file's per-append view, which C2 scalar-replaces there; an absolute put allocates nothing
 * either, and does so whatever C2 decides.) Old: the table key
 * {@code topic + "-" + queueId} is built twice per put (assign, then increase), as the release's
 * Java 8 bytecode builds it: a default-sized StringBuilder that grows as the topic is appended,
 * then a copy into the String. Optimized: once, in a final field.
 */
public final class ConsumeQueue {

    public static final int ENTRY_SIZE = 20;

    private final String topic;
    private final int queueId;
    private final String topicQueueKey;
    private final MappedFile file;
    private final ConcurrentHashMap<String, Long> topicQueueTable;
    private final ByteBuffer entry = ByteBuffer.allocate(ENTRY_SIZE);
    private final boolean optimized;

    public ConsumeQueue(String topic, int queueId, MappedFile file,
                        ConcurrentHashMap<String, Long> topicQueueTable, boolean optimized) {
        this.topic = topic;
        this.queueId = queueId;
        this.topicQueueKey = topic + "-" + queueId;
        this.file = file;
        this.topicQueueTable = topicQueueTable;
        this.optimized = optimized;
    }

    private String key() {
        return optimized ? topicQueueKey : new StringBuilder().append(topic).append("-").append(queueId).toString();
    }

    /** Appends one entry; returns its consume-queue offset. */
    public long putMessagePositionInfo(long commitLogOffset, int size, long tagsCode) {
        Long assigned = topicQueueTable.get(key());
        long cqOffset = assigned == null ? 0 : assigned;
        entry.clear();
        entry.putLong(commitLogOffset).putInt(size).putLong(tagsCode).flip();
        // A fixed-size segment: wrap around so that a long benchmark never runs out of file.
        int position = (int) (cqOffset * ENTRY_SIZE % (file.capacity() - file.capacity() % ENTRY_SIZE));
        file.put(position, entry);
        topicQueueTable.put(key(), cqOffset + 1);
        return cqOffset;
    }

    public String topicQueueKey() {
        return key();
    }
}
