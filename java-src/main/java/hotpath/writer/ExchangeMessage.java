package hotpath.writer;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

/**
 * An exchange-style message with two compressed map fields: per-partition counters (a nested
 * message per entry, ~30 bytes) and per-partition sizes. With 30 entries a field stays well below
 * the 10 KB scratch buffer; with 500 the counters map outgrows it.
 */
public final class ExchangeMessage implements Message {

    public static final short TYPE = 2;

    long topologyVersion;
    int minorTopologyVersion;
    UUID sender;
    Map<Integer, PartitionCounters> counters;
    Map<Integer, Long> sizes;
    boolean last;

    public static ExchangeMessage random(int entries, long seed) {
        Random rnd = new Random(seed);
        ExchangeMessage m = new ExchangeMessage();
        m.topologyVersion = 1 + rnd.nextInt(1000);
        m.minorTopologyVersion = rnd.nextInt(50);
        m.sender = new UUID(rnd.nextLong(), rnd.nextLong());
        m.counters = new LinkedHashMap<>();
        m.sizes = new LinkedHashMap<>();
        for (int p = 0; p < entries; p++) {
            long updates = (rnd.nextLong() >>> 1) >> rnd.nextInt(40);
            m.counters.put(p, new PartitionCounters(updates / 2, updates,
                    (rnd.nextLong() >>> 1) >> rnd.nextInt(40), rnd.nextInt(5)));
            m.sizes.put(p, (rnd.nextLong() >>> 1) >> rnd.nextInt(40));
        }
        m.last = rnd.nextBoolean();
        return m;
    }

    public Map<Integer, PartitionCounters> counters() {
        return counters;
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
                if (!writer.writeLong(topologyVersion)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 1:
                if (!writer.writeInt(minorTopologyVersion)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 2:
                if (!writer.writeUuid(sender)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 3:
                if (!writer.writeMap(counters, ItemType.INT, ItemType.MSG, true)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 4:
                if (!writer.writeMap(sizes, ItemType.INT, ItemType.LONG, true)) {
                    return false;
                }
                writer.incrementState();
                // fall through
            case 5:
                if (!writer.writeBoolean(last)) {
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
        topologyVersion = reader.readLong();
        minorTopologyVersion = reader.readInt();
        sender = reader.readUuid();
        counters = reader.readCompressedMap(ItemType.INT, ItemType.MSG);
        sizes = reader.readCompressedMap(ItemType.INT, ItemType.LONG);
        last = reader.readBoolean();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExchangeMessage m && m.topologyVersion == topologyVersion
                && m.minorTopologyVersion == minorTopologyVersion && Objects.equals(sender, m.sender)
                && Objects.equals(counters, m.counters) && Objects.equals(sizes, m.sizes)
                && m.last == last;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topologyVersion, sender, counters, sizes);
    }
}
