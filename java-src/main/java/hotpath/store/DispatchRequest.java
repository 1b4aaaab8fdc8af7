package hotpath.store;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What the reput service hands to the consume queue and index per message: about twenty fields.
 * Before the change a new one per message; after it, one per thread, {@link #reset} per message.
 *
 * <p>Reuse through a ThreadLocal is only safe while one thread builds and consumes a request
 * before the next: if the consume queue is built concurrently (a request handed to another
 * thread while the reput thread resets it), the fields change under the reader. The write-up's
 * review raised this; the model keeps single-threaded dispatch.
 */
public final class DispatchRequest {

    private String topic;
    private int queueId;
    private long commitLogOffset;
    private int msgSize;
    private long tagsCode;
    private long storeTimestamp;
    private long consumeQueueOffset;
    private String keys;
    private boolean success;
    private String uniqKey;
    private int sysFlag;
    private long preparedTransactionOffset;
    private Map<String, String> propertiesMap;
    private byte[] bitMap;
    private int bufferSize;
    private long msgBaseOffset;
    private short batchSize;
    private long nextReputFromOffset;
    private String offsetId;

    /** A dispatched message. */
    public DispatchRequest(String topic, int queueId, long commitLogOffset, int msgSize, long tagsCode,
                           long storeTimestamp, long consumeQueueOffset, String keys, String uniqKey,
                           int sysFlag, long preparedTransactionOffset, Map<String, String> propertiesMap) {
        reset(topic, queueId, commitLogOffset, msgSize, tagsCode, storeTimestamp, consumeQueueOffset,
                keys, uniqKey, sysFlag, preparedTransactionOffset, propertiesMap);
    }

    /** A blank or failed read of {@code size} bytes. */
    public DispatchRequest(int size, boolean success) {
        reset(size, success);
    }

    /** Every field as the 12-argument constructor leaves it. */
    public DispatchRequest reset(String topic, int queueId, long commitLogOffset, int msgSize, long tagsCode,
                                 long storeTimestamp, long consumeQueueOffset, String keys, String uniqKey,
                                 int sysFlag, long preparedTransactionOffset, Map<String, String> propertiesMap) {
        this.topic = topic;
        this.queueId = queueId;
        this.commitLogOffset = commitLogOffset;
        this.msgSize = msgSize;
        this.tagsCode = tagsCode;
        this.storeTimestamp = storeTimestamp;
        this.consumeQueueOffset = consumeQueueOffset;
        this.keys = keys;
        this.success = true; // the reviewed version forgot this after a failed request
        this.uniqKey = uniqKey;
        this.sysFlag = sysFlag;
        this.preparedTransactionOffset = preparedTransactionOffset;
        this.propertiesMap = propertiesMap;
        this.bitMap = null;
        this.bufferSize = -1;
        this.msgBaseOffset = consumeQueueOffset;
        this.batchSize = 1;
        this.nextReputFromOffset = -1;
        this.offsetId = null;
        return this;
    }

    /** Every field as the 2-argument constructor leaves it. */
    public DispatchRequest reset(int size, boolean success) {
        this.topic = "";
        this.queueId = 0;
        this.commitLogOffset = 0;
        this.msgSize = size;
        this.tagsCode = 0;
        this.storeTimestamp = 0;
        this.consumeQueueOffset = 0;
        this.keys = "";
        this.success = success;
        this.uniqKey = null;
        this.sysFlag = 0;
        this.preparedTransactionOffset = 0;
        this.propertiesMap = null;
        this.bitMap = null;
        this.bufferSize = -1;
        this.msgBaseOffset = -1;
        this.batchSize = 1;
        this.nextReputFromOffset = -1;
        this.offsetId = null;
        return this;
    }

    public String topic() {
        return topic;
    }

    public int queueId() {
        return queueId;
    }

    public long commitLogOffset() {
        return commitLogOffset;
    }

    public int msgSize() {
        return msgSize;
    }

    public long tagsCode() {
        return tagsCode;
    }

    public long consumeQueueOffset() {
        return consumeQueueOffset;
    }

    public boolean success() {
        return success;
    }

    /** Every field, in declaration order, for field-by-field comparison. */
    public List<Object> fields() {
        return Arrays.asList(topic, queueId, commitLogOffset, msgSize, tagsCode, storeTimestamp,
                consumeQueueOffset, keys, success, uniqKey, sysFlag, preparedTransactionOffset,
                propertiesMap, bitMap, bufferSize, msgBaseOffset, batchSize, nextReputFromOffset, offsetId);
    }
}
