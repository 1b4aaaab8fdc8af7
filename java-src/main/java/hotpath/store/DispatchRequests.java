package hotpath.store;

import java.util.Map;

/** Where dispatch requests come from: a new object per message, or one per thread, reset. */
public interface DispatchRequests {

    DispatchRequest message(String topic, int queueId, long commitLogOffset, int msgSize, long tagsCode,
                            long storeTimestamp, long consumeQueueOffset, String keys, String uniqKey,
                            int sysFlag, long preparedTransactionOffset, Map<String, String> properties);

    DispatchRequest blank(int size, boolean success);

    /** Before: a new request per dispatched message. */
    DispatchRequests OLD = new DispatchRequests() {
        @Override
        public DispatchRequest message(String topic, int queueId, long commitLogOffset, int msgSize,
                                       long tagsCode, long storeTimestamp, long consumeQueueOffset,
                                       String keys, String uniqKey, int sysFlag,
                                       long preparedTransactionOffset, Map<String, String> properties) {
            return new DispatchRequest(topic, queueId, commitLogOffset, msgSize, tagsCode, storeTimestamp,
                    consumeQueueOffset, keys, uniqKey, sysFlag, preparedTransactionOffset, properties);
        }

        @Override
        public DispatchRequest blank(int size, boolean success) {
            return new DispatchRequest(size, success);
        }
    };

    /** After: one request per thread, every field reset per message. */
    DispatchRequests REUSED = new DispatchRequests() {
        private final ThreadLocal<DispatchRequest> local =
                ThreadLocal.withInitial(() -> new DispatchRequest(0, false));

        @Override
        public DispatchRequest message(String topic, int queueId, long commitLogOffset, int msgSize,
                                       long tagsCode, long storeTimestamp, long consumeQueueOffset,
                                       String keys, String uniqKey, int sysFlag,
                                       long preparedTransactionOffset, Map<String, String> properties) {
            return local.get().reset(topic, queueId, commitLogOffset, msgSize, tagsCode, storeTimestamp,
                    consumeQueueOffset, keys, uniqKey, sysFlag, preparedTransactionOffset, properties);
        }

        @Override
        public DispatchRequest blank(int size, boolean success) {
            return local.get().reset(size, success);
        }
    };
}
