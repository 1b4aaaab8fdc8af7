package hotpath.writer;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

/**
 * An exchange-style message with two compressed map fields, sized as the write-up's: per
 * partition, its counters (a nested message with the update counter's gaps) and its owners (the
 * consistent ids of the nodes that own it, comma-separated, from a cluster of 16 nodes), each
 * about 85 bytes serialized. With 30 entries a field (about 2.5 KB) stays below the 10 KB
 * scratch buffer; with 500 (about 42 KB) the old writer's scratch doubles through 20, 40 and
 * 80 KB for each of the two fields, the write-up's chain (about 300 KB of direct buffers).
 */
public final class ExchangeMessage implements Message {

    public static final short TYPE = 2;

    long topologyVersion;
    int minorTopologyVersion;
    UUID sender;
    Map<Integer, PartitionCounters> counters;
    Map<Integer, String> owners;
    boolean last;

    static final int NODES = 16;
    static final int GAPS = 20;

    public static ExchangeMessage random(int entries, long seed) {
        Random rnd = new Random(seed);
        ExchangeMessage m = new ExchangeMessage();
        m.topologyVersion = 1 + rnd.nextInt(1000);
        m.minorTopologyVersion = rnd.nextInt(50);
        m.sender = new UUID(rnd.nextLong(), rnd.nextLong());
        String[] nodes = new String[NODES];
        for (int i = 0; i < NODES; i++) {
            nodes[i] = "node-" + new UUID(rnd.nextLong(), rnd.nextLong());
        }
        m.counters = new LinkedHashMap<>();
        m.owners = new LinkedHashMap<>();
        for (int p = 0; p < entries; p++) {
            long updates = (rnd.nextLong() >>> 1) >> rnd.nextInt(40);
            m.counters.put(p, new PartitionCounters(updates / 2, updates,
                    (rnd.nextLong() >>> 1) >> rnd.nextInt(40), rnd.nextInt(5), gaps(rnd, updates)));
            int primary = rnd.nextInt(NODES);
            m.owners.put(p, nodes[primary] + "," + nodes[(primary + 1 + rnd.nextInt(NODES - 1)) % NODES]);
        }
        m.last = rnd.nextBoolean();
        return m;
    }

    /**
     * Gap ranges above the update counter: (distance from the previous end, length) varint pairs,
     * distances in steps of 64 (update batches), so that the field compresses about 1.7:1.
     */
    private static byte[] gaps(Random rnd, long updateCounter) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < GAPS; i++) {
            varint(out, 64 * (1 + rnd.nextInt(8)));
            varint(out, 1 + rnd.nextInt(4));
        }
        return out.toByteArray();
    }

    private static void varint(java.io.ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
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
                if (!writer.writeMap(owners, ItemType.INT, ItemType.STRING, true)) {
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
        owners = reader.readCompressedMap(ItemType.INT, ItemType.STRING);
        last = reader.readBoolean();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExchangeMessage m && m.topologyVersion == topologyVersion
                && m.minorTopologyVersion == minorTopologyVersion && Objects.equals(sender, m.sender)
                && Objects.equals(counters, m.counters) && Objects.equals(owners, m.owners)
                && m.last == last;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topologyVersion, sender, counters, owners);
    }
}
