package hotpath.store;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentMap;

import org.apache.rocketmq.common.message.MessageExtBrokerInner;
import org.apache.rocketmq.store.queue.QueueOffsetOperator;

/**
 * The released consume-queue put, RocketMQ 5.5.1, from its public pieces in the order
 * {@code ConsumeQueue} runs them: {@code assignQueueOffset} (builds the key
 * {@code topic + "-" + queueId}, Java 8 bytecode: a growing StringBuilder), the 20-byte entry
 * written into a reused heap buffer and appended to the queue file with
 * {@code DefaultMappedFile.appendMessage}, then {@code increaseQueueOffset} (the key again). The
 * private {@code putMessagePositionInfo} that joins them needs a started store; the
 * {@code ConsumeQueue} is made without its constructor, with only its topic and queue id set,
 * which is all the two key methods read.
 */
public final class UpstreamConsumeQueue {

    private final org.apache.rocketmq.store.ConsumeQueue queue;
    private final QueueOffsetOperator offsets = new QueueOffsetOperator();
    private final MessageExtBrokerInner msg = new MessageExtBrokerInner();
    private final ByteBuffer entry = ByteBuffer.allocate(ConsumeQueue.ENTRY_SIZE);
    private final UpstreamMappedFile file;

    public UpstreamConsumeQueue(String topic, int queueId, UpstreamMappedFile file) {
        this.file = file;
        try {
            Field unsafeField = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
            unsafeField.setAccessible(true);
            Object unsafe = unsafeField.get(null);
            queue = (org.apache.rocketmq.store.ConsumeQueue) unsafe.getClass()
                    .getMethod("allocateInstance", Class.class)
                    .invoke(unsafe, org.apache.rocketmq.store.ConsumeQueue.class);
            set("topic", topic);
            set("queueId", queueId);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot prepare a ConsumeQueue", e);
        }
    }

    private void set(String name, Object value) throws ReflectiveOperationException {
        Field f = org.apache.rocketmq.store.ConsumeQueue.class.getDeclaredField(name);
        f.setAccessible(true);
        f.set(queue, value);
    }

    /** Appends one entry; returns its consume-queue offset. */
    public long putMessagePositionInfo(long commitLogOffset, int size, long tagsCode) {
        queue.assignQueueOffset(offsets, msg);
        long cqOffset = msg.getQueueOffset();
        entry.clear();
        entry.putLong(commitLogOffset).putInt(size).putLong(tagsCode);
        if (!file.append(entry.array())) {
            file.rewind(); // a full segment: start over (the next file, in a broker)
            file.append(entry.array());
        }
        queue.increaseQueueOffset(offsets, msg, (short) 1);
        return cqOffset;
    }

    public ConcurrentMap<String, Long> topicQueueTable() {
        return offsets.getTopicQueueTable();
    }
}
