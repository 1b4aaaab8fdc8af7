package hotpath.store;

import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * After: queue offsets in a primitive {@code long[]} sized to the pull's maximum message count
 * (at most 256, doubling beyond), with a boxing List view for callers that still want one.
 */
public final class OptimizedGetMessageResult implements GetMessageResult {

    static final int MAX_INITIAL_OFFSETS = 256;

    private final List<SelectMappedBufferResult> messageMapedList = new ArrayList<>(100);
    private final List<ByteBuffer> messageBufferList = new ArrayList<>(100);
    private long[] offsets;
    private int offsetCount;
    private int bufferTotalSize;
    private int msgCount4Commercial;
    private int messageCount;

    // The rest of a pull's result, as the release keeps it (set by the pull, not by addMessage).
    private GetMessageStatus status;
    private long nextBeginOffset;
    private long minOffset;
    private long maxOffset;
    private boolean suggestPullingFromSlave;
    private final int commercialSizePerMsg = COMMERCIAL_SIZE_PER_MSG;
    private long coldDataSum;
    private int filterMessageCount;

    public OptimizedGetMessageResult(int maxMsgNums) {
        offsets = new long[Math.max(1, Math.min(maxMsgNums, MAX_INITIAL_OFFSETS))];
    }

    @Override
    public void addMessage(SelectMappedBufferResult mapped, long queueOffset) {
        messageMapedList.add(mapped);
        messageBufferList.add(mapped.byteBuffer());
        bufferTotalSize += mapped.size();
        msgCount4Commercial += (int) Math.ceil(mapped.size() / (double) commercialSizePerMsg);
        messageCount++;
        addQueueOffset(queueOffset);
    }

    public void addQueueOffset(long offset) {
        if (offsetCount == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length * 2);
        }
        offsets[offsetCount++] = offset;
    }

    public long queueOffset(int i) {
        return offsets[i];
    }

    @Override
    public List<SelectMappedBufferResult> getMessageMapedList() {
        return messageMapedList;
    }

    @Override
    public List<ByteBuffer> getMessageBufferList() {
        return messageBufferList;
    }

    @Override
    public List<Long> getMessageQueueOffset() {
        return new AbstractList<>() {
            @Override
            public Long get(int index) {
                if (index >= offsetCount) {
                    throw new IndexOutOfBoundsException(index);
                }
                return offsets[index];
            }

            @Override
            public int size() {
                return offsetCount;
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

    // What the pull sets besides the messages: the release keeps these on the result too.

    public GetMessageStatus getStatus() {
        return status;
    }

    public void setStatus(GetMessageStatus status) {
        this.status = status;
    }

    public long getNextBeginOffset() {
        return nextBeginOffset;
    }

    public void setNextBeginOffset(long nextBeginOffset) {
        this.nextBeginOffset = nextBeginOffset;
    }

    public void setOffsetRange(long minOffset, long maxOffset) {
        this.minOffset = minOffset;
        this.maxOffset = maxOffset;
    }

    public boolean isSuggestPullingFromSlave() {
        return suggestPullingFromSlave;
    }

    public long getColdDataSum() {
        return coldDataSum;
    }

    public int getFilterMessageCount() {
        return filterMessageCount;
    }
}
