package hotpath.marshaller;

import java.util.Random;

/**
 * A binary-serializable object whose serialized size is dialed exactly: id, timestamp, a name
 * and a blob sized so that the whole object is {@code size} bytes. An optional nested object
 * is written inline.
 */
public final class Order implements BinaryWritable {

    /** Header 24 + id 4 + ts 8 + name (4 + 8) + blob length 4 + nested flag 1. */
    static final int FIXED = 24 + 4 + 8 + 12 + 4 + 1;

    final int id;
    final long timestamp;
    final String name;
    final byte[] blob;
    final BinaryWritable nested;

    public Order(int id, long timestamp, String name, byte[] blob, BinaryWritable nested) {
        this.id = id;
        this.timestamp = timestamp;
        this.name = name;
        this.blob = blob;
        this.nested = nested;
    }

    /** An order that serializes to exactly {@code size} bytes (at least {@link #FIXED}). */
    public static Order ofSize(int size, long seed) {
        if (size < FIXED) {
            throw new IllegalArgumentException("an order takes at least " + FIXED + " bytes");
        }
        Random rnd = new Random(seed);
        byte[] blob = new byte[size - FIXED];
        rnd.nextBytes(blob);
        return new Order(rnd.nextInt(), rnd.nextLong(), String.format("ord-%04d", rnd.nextInt(10000)),
                blob, null);
    }

    @Override
    public int typeId() {
        return 0x4F52;
    }

    @Override
    public void writeFields(BinaryWriter w) {
        w.writeInt(id);
        w.writeLong(timestamp);
        w.writeString(name);
        w.writeByteArray(blob);
        w.writeObject(nested);
    }
}
