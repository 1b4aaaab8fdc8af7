package hotpath.writer;

/**
 * One partition's counters: the value type of the exchange message's compressed map. Besides
 * the counters, the update counter's gaps: the ranges applied out of order and not yet closed,
 * as (start, length) varint pairs.
 */
public final class PartitionCounters implements Message {

    public static final short TYPE = 3;

    long initialUpdateCounter;
    long updateCounter;
    long size;
    int state;
    byte[] gaps;

    public PartitionCounters() {
    }

    public PartitionCounters(long initialUpdateCounter, long updateCounter, long size, int state) {
        this(initialUpdateCounter, updateCounter, size, state, null);
    }

    public PartitionCounters(long initialUpdateCounter, long updateCounter, long size, int state, byte[] gaps) {
        this.initialUpdateCounter = initialUpdateCounter;
        this.updateCounter = updateCounter;
        this.size = size;
        this.state = state;
        this.gaps = gaps;
    }

    @Override
    public short directType() {
        return TYPE;
    }

    @Override
    public boolean writeTo(MessageWriter writer) {
        if (!writer.isHeaderWritten()) {
            if (!writer.writeHeader(TYPE)) {
                return false;
            }
            writer.onHeaderWritten();
        }
        switch (writer.state()) {
            case 0:
                if (!writer.writeLong(initialUpdateCounter)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 1:
                if (!writer.writeLong(updateCounter)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 2:
                if (!writer.writeLong(size)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 3:
                if (!writer.writeInt(state)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 4:
                if (!writer.writeByteArray(gaps)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            default:
                return true;
        }
    }

    @Override
    public void readFrom(MessageReader reader) {
        initialUpdateCounter = reader.readLong();
        updateCounter = reader.readLong();
        size = reader.readLong();
        state = reader.readInt();
        gaps = reader.readByteArray();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionCounters p && p.initialUpdateCounter == initialUpdateCounter
                && p.updateCounter == updateCounter && p.size == size && p.state == state
                && java.util.Arrays.equals(p.gaps, gaps);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(updateCounter * 31 + size) ^ state;
    }
}
