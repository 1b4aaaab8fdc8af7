package hotpath.writer;

/** One partition's counters: the value type of the exchange message's compressed map. */
public final class PartitionCounters implements Message {

    public static final short TYPE = 3;

    long initialUpdateCounter;
    long updateCounter;
    long size;
    int state;

    public PartitionCounters() {
    }

    public PartitionCounters(long initialUpdateCounter, long updateCounter, long size, int state) {
        this.initialUpdateCounter = initialUpdateCounter;
        this.updateCounter = updateCounter;
        this.size = size;
        this.state = state;
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
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionCounters p && p.initialUpdateCounter == initialUpdateCounter
                && p.updateCounter == updateCounter && p.size == size && p.state == state;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(updateCounter * 31 + size) ^ state;
    }
}
