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

    @Override
    public void addMessage(SelectMappedBufferResult mapped, long queueOffset) {
        messageMapedList.add(mapped);
        messageBufferList.add(mapped.byteBuffer());
        bufferTotalSize += mapped.size();
        msgCount4Commercial += GetMessageResult.commercialUnits(mapped.size());
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
}
