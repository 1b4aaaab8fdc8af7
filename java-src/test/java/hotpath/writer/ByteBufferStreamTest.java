package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class ByteBufferStreamTest {

    private static byte[] written(java.util.function.Consumer<ByteBufferStream> write, int capacity) {
        ByteBufferStream s = new ByteBufferStream();
        ByteBuffer buf = ByteBuffer.allocate(capacity);
        s.setBuffer(buf);
        write.accept(s);
        return Arrays.copyOf(buf.array(), buf.position());
    }

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    @Test
    void intsAreWrittenPlusOneAsUnsignedBase128() {
        assertArrayEquals(bytes(0x00), written(s -> s.writeInt(-1), 16));
        assertArrayEquals(bytes(0x01), written(s -> s.writeInt(0), 16));
        assertArrayEquals(bytes(0x80, 0x01), written(s -> s.writeInt(127), 16));
        assertArrayEquals(bytes(0xFF, 0xFF, 0xFF, 0xFF, 0x0F), written(s -> s.writeInt(-2), 16));
        // MAX_VALUE + 1 wraps to 2^63 unsigned: nine 7-bit zero groups, then 1
        assertArrayEquals(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01),
                written(s -> s.writeLong(Long.MAX_VALUE), 16));
    }

    @Test
    void fixedWidthValuesAreLittleEndian() {
        assertArrayEquals(bytes(0x34, 0x12), written(s -> s.writeShort((short) 0x1234), 16));
        assertArrayEquals(bytes(0x00, 0x80), written(s -> s.writeShort(Short.MIN_VALUE), 16));
        byte[] uuid = written(s -> s.writeUuid(new UUID(1, 2)), 32);
        assertArrayEquals(bytes(0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0), uuid);
        assertArrayEquals(bytes(1), written(s -> s.writeUuid(null), 32));
    }

    @Test
    void anIntNeedsFiveFreeBytesAndALongTenOrNothingIsWritten() {
        ByteBufferStream s = new ByteBufferStream();
        ByteBuffer buf = ByteBuffer.allocate(9);
        s.setBuffer(buf);
        s.writeLong(0);
        assertFalse(s.lastFinished());
        assertEquals(0, buf.position());
        buf.position(4);
        s.writeInt(0);
        assertTrue(s.lastFinished());
        assertEquals(5, buf.position());
        s.writeInt(0);
        assertFalse(s.lastFinished());
        assertEquals(5, buf.position());
    }

    @Test
    void aByteArrayResumesAcrossBufferSwaps() {
        byte[] payload = new byte[100];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) i;
        }
        ByteBufferStream s = new ByteBufferStream();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(16);
        int swaps = 0;
        while (true) {
            buf.clear();
            s.setBuffer(buf);
            s.writeByteArray(payload);
            out.write(buf.array(), 0, buf.position());
            if (s.lastFinished()) {
                break;
            }
            swaps++;
        }
        assertTrue(swaps >= 6);
        byte[] all = out.toByteArray();
        assertEquals(0x65, all[0]); // varint(100 + 1)
        assertArrayEquals(payload, Arrays.copyOfRange(all, 1, all.length));
    }
}
