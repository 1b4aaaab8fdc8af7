package hotpath.store;

import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * Beyond the optimized result: the messages in one array and their queue offsets in one long[],
 * both sized to the pull (at most 256, doubling beyond, as the optimized offsets); the three
 * lists are read-only views built on request. No ArrayLists of capacity 100, no second array
 * of the messages' ByteBuffers (each message's view is reached through its mapped result).
 *
 * <p>Why: the optimized result still allocates two ArrayLists with 100-slot arrays (880 B)
 * whatever the pull size; what a pull must keep is one reference and one offset per message.
 */
public final class FloorGetMessageResult implements GetMessageResult {

    private SelectMappedBufferResult[] messages;
    private long[] offsets;
    private int messageCount;
    private int bufferTotalSize;
    private int msgCount4Commercial;

    public FloorGetMessageResult(int maxMsgNums) {
        int capacity = Math.max(1, Math.min(maxMsgNums, OptimizedGetMessageResult.MAX_INITIAL_OFFSETS));
        messages = new SelectMappedBufferResult[capacity];
        offsets = new long[capacity];
    }

    @Override
    public void addMessage(SelectMappedBufferResult mapped, long queueOffset) {
        if (messageCount == messages.length) {
            messages = Arrays.copyOf(messages, messageCount * 2);
            offsets = Arrays.copyOf(offsets, messageCount * 2);
        }
        messages[messageCount] = mapped;
        offsets[messageCount] = queueOffset;
        messageCount++;
        bufferTotalSize += mapped.size();
        msgCount4Commercial += GetMessageResult.commercialUnits(mapped.size());
    }

    public long queueOffset(int i) {
        return offsets[checkIndex(i)];
    }

    private int checkIndex(int i) {
        if (i < 0 || i >= messageCount) {
            throw new IndexOutOfBoundsException(i);
        }
        return i;
    }

    @Override
    public List<SelectMappedBufferResult> getMessageMapedList() {
        return new AbstractList<>() {
            @Override
            public SelectMappedBufferResult get(int index) {
                return messages[checkIndex(index)];
            }

            @Override
            public int size() {
                return messageCount;
            }
        };
    }

    @Override
    public List<ByteBuffer> getMessageBufferList() {
        return new AbstractList<>() {
            @Override
            public ByteBuffer get(int index) {
                return messages[checkIndex(index)].byteBuffer();
            }

            @Override
            public int size() {
                return messageCount;
            }
        };
    }

    @Override
    public List<Long> getMessageQueueOffset() {
        return new AbstractList<>() {
            @Override
            public Long get(int index) {
                return offsets[checkIndex(index)];
            }

            @Override
            public int size() {
                return messageCount;
            }
        };
    }

    @Override
    public int getBufferTotalSize() {
        return bufferTotalSize;
    }

    @Override
    public int getMsgCount4Commercial() {
        return msgCount4Commercial;
    }

    @Override
    public int getMessageCount() {
        return messageCount;
    }
}
