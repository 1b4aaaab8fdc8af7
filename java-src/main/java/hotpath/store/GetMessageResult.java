package hotpath.store;

import java.nio.ByteBuffer;
import java.util.List;

/** What a pull returns: the messages' views, their queue offsets and the totals. */
public interface GetMessageResult {

    void addMessage(SelectMappedBufferResult mapped, long queueOffset);

    List<SelectMappedBufferResult> getMessageMapedList();

    List<ByteBuffer> getMessageBufferList();

    List<Long> getMessageQueueOffset();

    int getBufferTotalSize();

    int getMsgCount4Commercial();

    int getMessageCount();

    /** The size of one commercial unit: a message counts ceil(size / 4096) units. */
    int COMMERCIAL_SIZE_PER_MSG = 4096;

    /** ceil(size / 4096): the commercial unit count of one message. */
    static int commercialUnits(int size) {
        return (int) Math.ceil(size / (double) COMMERCIAL_SIZE_PER_MSG);
    }
}
