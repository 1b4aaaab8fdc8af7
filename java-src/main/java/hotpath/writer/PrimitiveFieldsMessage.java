package hotpath.writer;

import java.util.Arrays;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

/**
 * The write-up's primitive message: a header, eight rounds of (int, long, byte, boolean) and a
 * UUID, about 35 fields that exercise nothing but the per-write stream lookup.
 */
public final class PrimitiveFieldsMessage implements Message {

    public static final short TYPE = 1;
    static final int ROUNDS = 8;

    final int[] ints = new int[ROUNDS];
    final long[] longs = new long[ROUNDS];
    final byte[] bytes = new byte[ROUNDS];
    final boolean[] flags = new boolean[ROUNDS];
    UUID id;

    public static PrimitiveFieldsMessage random(long seed) {
        Random rnd = new Random(seed);
        PrimitiveFieldsMessage m = new PrimitiveFieldsMessage();
        for (int i = 0; i < ROUNDS; i++) {
            // Mixed magnitudes so varints take 1 to 10 bytes, including negative values.
            m.ints[i] = rnd.nextInt() >> rnd.nextInt(32);
            m.longs[i] = rnd.nextLong() >> rnd.nextInt(64);
            m.bytes[i] = (byte) rnd.nextInt();
            m.flags[i] = rnd.nextBoolean();
        }
        m.id = rnd.nextInt(10) == 0 ? null : new UUID(rnd.nextLong(), rnd.nextLong());
        return m;
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
        for (int s = writer.state(); s <= 4 * ROUNDS; s = writer.state()) {
            int i = s / 4;
            boolean done = switch (s < 4 * ROUNDS ? s % 4 : 4) {
                case 0 -> writer.writeInt(ints[i]);
                case 1 -> writer.writeLong(longs[i]);
                case 2 -> writer.writeByte(bytes[i]);
                case 3 -> writer.writeBoolean(flags[i]);
                default -> writer.writeUuid(id);
            };
            if (!done) {
                return false;
            }
            writer.incrementState();
        }
        return true;
    }

    @Override
    public void readFrom(MessageReader reader) {
        for (int i = 0; i < ROUNDS; i++) {
            ints[i] = reader.readInt();
            longs[i] = reader.readLong();
            bytes[i] = reader.readByte();
            flags[i] = reader.readBoolean();
        }
        id = reader.readUuid();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrimitiveFieldsMessage m && Arrays.equals(ints, m.ints)
                && Arrays.equals(longs, m.longs) && Arrays.equals(bytes, m.bytes)
                && Arrays.equals(flags, m.flags) && Objects.equals(id, m.id);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(ints), Arrays.hashCode(longs), id);
    }
}
