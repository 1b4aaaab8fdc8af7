package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class DirectMessageWriterEquivalenceTest {

    private static final MessageFactory FACTORY = new MessageFactory();

    private static byte[] old(Message m, int buf) {
        return MessageWire.write(new OldDirectMessageWriter(FACTORY), m, buf);
    }

    private static byte[] optimized(Message m, int buf) {
        return MessageWire.write(new OptimizedDirectMessageWriter(FACTORY), m, buf);
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 17, 64, 8192, 65536})
    void optimizedWritesSameBytesAsOldForGeneratedPrimitiveMessages(int bufferSize) {
        for (long seed = 0; seed < 500; seed++) {
            PrimitiveFieldsMessage m = PrimitiveFieldsMessage.random(seed);
            byte[] expected = old(m, bufferSize);
            assertArrayEquals(expected, optimized(m, bufferSize), "seed " + seed);
            assertArrayEquals(expected, old(m, 65536), "resumption changed the bytes, seed " + seed);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 33, 8192, 65536})
    void optimizedWritesSameBytesAsOldForGeneratedExchangeMessages(int bufferSize) {
        int[] entries = {0, 1, 30, 98, 111, 500};
        for (int e : entries) {
            for (long seed = 0; seed < 8; seed++) {
                ExchangeMessage m = ExchangeMessage.random(e, seed);
                byte[] expected = old(m, bufferSize);
                assertArrayEquals(expected, optimized(m, bufferSize), e + " entries, seed " + seed);
                assertArrayEquals(expected, old(m, 1 << 20), "resumption changed the bytes");
            }
        }
    }

    @Test
    void oneWriterReusedForManyMessagesWritesWhatFreshWritersWrite() {
        OptimizedDirectMessageWriter reused = new OptimizedDirectMessageWriter(FACTORY);
        OldDirectMessageWriter reusedOld = new OldDirectMessageWriter(FACTORY);
        for (long seed = 0; seed < 40; seed++) {
            // Big then small: the optimized scratch is reused at its largest size.
            ExchangeMessage m = ExchangeMessage.random(seed % 2 == 0 ? 1000 : 30, seed);
            byte[] fresh = old(m, 8192);
            assertArrayEquals(fresh, MessageWire.write(reused, m, 8192), "seed " + seed);
            assertArrayEquals(fresh, MessageWire.write(reusedOld, m, 8192), "seed " + seed);
        }
    }

    @Test
    void compressedPayloadOver40KbGrowsTheScratchAndStaysIdentical() {
        ExchangeMessage m = ExchangeMessage.random(500, 7); // fields of ~41 and ~43 KB serialized
        OptimizedDirectMessageWriter writer = new OptimizedDirectMessageWriter(FACTORY);
        byte[] bytes = MessageWire.write(writer, m, 16);
        assertArrayEquals(old(m, 16), bytes);
        // Over 40 KB: 10 KB -> 20 KB -> 40 KB -> 80 KB, kept at the largest size seen.
        assertEquals(80 * 1024, writer.scratch().capacity());
        assertFalse(writer.scratch().isDirect());
        assertEquals(m, read(bytes));
    }

    @Test
    void compressedChunksAreCutAt10240Bytes() {
        // Random-looking counters compress poorly, so the deflated field spans several chunks.
        ExchangeMessage m = ExchangeMessage.random(1000, 3);
        byte[] bytes = optimized(m, 8192);
        MessageReader reader = new MessageReader(bytes, FACTORY);
        assertEquals(ExchangeMessage.TYPE, reader.readShort());
        reader.readLong();
        reader.readInt();
        reader.readUuid();
        assertEquals(CompressedMessage.TYPE, reader.readShort());
        int dataSize = reader.readInt();
        int chunks = 0;
        int total = 0;
        while (reader.readByte() == 0) {
            byte[] chunk = reader.readByteArray();
            total += chunk.length;
            chunks++;
            assertTrue(chunk.length <= CompressedMessage.CHUNK_SIZE);
        }
        assertTrue(chunks >= 2, "expected several chunks, got " + chunks);
        assertTrue(dataSize > total, "the field should compress");
    }

    @Test
    void writerThenReaderReturnsTheOriginalValues() {
        for (long seed = 0; seed < 200; seed++) {
            PrimitiveFieldsMessage p = PrimitiveFieldsMessage.random(seed);
            assertEquals(p, read(old(p, 16)));
            assertEquals(p, read(optimized(p, 16)));
            ExchangeMessage e = ExchangeMessage.random((int) (seed * 7 % 600), seed);
            assertEquals(e, read(old(e, 16)));
            assertEquals(e, read(optimized(e, 16)));
        }
    }

    @Test
    void nullCompressedFieldIsTheNullMessageHeader() {
        ExchangeMessage m = ExchangeMessage.random(0, 1);
        m.counters = null;
        byte[] bytes = optimized(m, 64);
        assertArrayEquals(bytes, old(m, 64));
        // header 2 + long + int + uuid 17: the null field follows as 00 80
        int at = 2 + varintLength(m.topologyVersion + 1) + varintLength(m.minorTopologyVersion + 1) + 17;
        assertEquals(0x00, bytes[at] & 0xFF);
        assertEquals(0x80, bytes[at + 1] & 0xFF);
        assertEquals(m, read(bytes));
    }

    @Test
    void oldSerializesCompressedFieldsIntoDirectBuffers() {
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
                .stream().filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
        ExchangeMessage m = ExchangeMessage.random(30, 1);
        long before = direct.getCount();
        OldDirectMessageWriter writer = new OldDirectMessageWriter(FACTORY);
        writer.setBuffer(java.nio.ByteBuffer.allocate(65536));
        assertTrue(m.writeTo(writer));
        // Two compressed fields: two 10 KB direct scratch buffers (unless a GC freed older ones).
        assertTrue(direct.getCount() >= before + 2 || direct.getTotalCapacity() >= 20 * 1024,
                "old writer allocated no direct buffers");

        OptimizedDirectMessageWriter opt = new OptimizedDirectMessageWriter(FACTORY);
        opt.setBuffer(java.nio.ByteBuffer.allocate(65536));
        long beforeOpt = direct.getCount();
        assertTrue(m.writeTo(opt));
        assertFalse(opt.scratch().isDirect());
        assertTrue(direct.getCount() <= beforeOpt, "optimized writer allocated a direct buffer");
    }

    private static Message read(byte[] bytes) {
        MessageReader reader = new MessageReader(bytes, FACTORY);
        Message m = reader.readMessage();
        assertFalse(reader.hasRemaining(), "bytes left after the message");
        return m;
    }

    private static int varintLength(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
