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

    /** All bytes of {@code val} written through buffers of {@code capacity}, swapped when full. */
    private static byte[] stringThrough(boolean inPlace, String val, int capacity, boolean direct) {
        ByteBufferStream s = new ByteBufferStream(inPlace);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        do {
            buf.clear();
            s.setBuffer(buf);
            s.writeString(val);
            buf.flip();
            byte[] chunk = new byte[buf.remaining()];
            buf.get(chunk);
            out.write(chunk, 0, chunk.length);
        } while (!s.lastFinished());
        return out.toByteArray();
    }

    @Test
    void stringsEncodedInPlaceAreTheBytesOfGetBytesAtEveryBufferSize() {
        java.util.Random rnd = new java.util.Random(7);
        java.util.List<String> strings = new java.util.ArrayList<>(WriterSameOutputProperties.STRING_EDGES);
        for (int k = 0; k < 200; k++) {
            StringBuilder sb = new StringBuilder();
            int n = rnd.nextInt(k < 100 ? 8 : 300);
            for (int i = 0; i < n; i++) {
                int range = rnd.nextInt(4);
                sb.append(range == 0 ? (char) rnd.nextInt(0x80) : range == 1 ? (char) (0x80 + rnd.nextInt(0x780))
                        : range == 2 ? (char) (0x800 + rnd.nextInt(0xF800)) : (char) (0xD800 + rnd.nextInt(0x800)));
            }
            strings.add(sb.toString());
        }
        for (String val : strings) {
            byte[] expected = stringThrough(false, val, 4096, false);
            byte[] utf8 = val.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertArrayEquals(utf8, Arrays.copyOfRange(expected, expected.length - utf8.length, expected.length));
            for (int capacity : new int[] {5, 6, 7, 13, 64, 1024, 4096}) {
                for (boolean direct : new boolean[] {false, true}) {
                    assertArrayEquals(expected, stringThrough(true, val, capacity, direct),
                            () -> "capacity " + capacity + (direct ? " direct" : " heap") + ": " + val);
                }
            }
        }
    }

    @Test
    void aStringThatFitsIsEncodedInPlaceWithoutAByteArray() {
        ByteBufferStream s = new ByteBufferStream(true);
        ByteBuffer buf = ByteBuffer.allocate(64);
        s.setBuffer(buf);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        String val = "node-" + new UUID(3, 4);
        long[] bytes = new long[2000];
        for (int i = 0; i < bytes.length; i++) {
            buf.clear();
            long before = threads.getCurrentThreadAllocatedBytes();
            s.writeString(val);
            bytes[i] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        // The counter itself may allocate now and then; most calls, once warm, allocate nothing.
        long zero = Arrays.stream(bytes, 1000, 2000).filter(b -> b == 0).count();
        assertTrue(zero >= 900, zero + " of 1000 warm calls allocated nothing");
        assertEquals(1 + val.length(), buf.position());
    }
}
