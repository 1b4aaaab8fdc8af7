package hotpath.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Before: three lists of capacity 100 whatever the pull size; offsets boxed into Longs. */
public final class OldGetMessageResult implements GetMessageResult {

    private final List<SelectMappedBufferResult> messageMapedList = new ArrayList<>(100);
    private final List<ByteBuffer> messageBufferList = new ArrayList<>(100);
    private final List<Long> messageQueueOffset = new ArrayList<>(100);
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

    @Override
    public void addMessage(SelectMappedBufferResult mapped, long queueOffset) {
        messageMapedList.add(mapped);
        messageBufferList.add(mapped.byteBuffer());
        bufferTotalSize += mapped.size();
        msgCount4Commercial += (int) Math.ceil(mapped.size() / (double) commercialSizePerMsg);
        messageCount++;
        messageQueueOffset.add(queueOffset); // a new Long for values outside the -128..127 cache
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
        return messageQueueOffset;
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
