package hotpath.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FloorDirectMessageWriterTest {

    private static final MessageFactory FACTORY = new MessageFactory();

    private static byte[] old(Message m, int buf) {
        return MessageWire.write(new OldDirectMessageWriter(FACTORY), m, buf);
    }

    private static byte[] floor(Message m, int buf) {
        return MessageWire.write(new FloorDirectMessageWriter(FACTORY), m, buf);
    }

    /** A message of one byte array: its serialized size is 2 + varint(n + 1) + n, dialed exactly. */
    static final class Blob implements Message {
        final byte[] bytes;

        Blob(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public short directType() {
            return 50;
        }

        @Override
        public boolean writeTo(MessageWriter writer) {
            if (!writer.isHeaderWritten()) {
                if (!writer.writeHeader(directType())) {
                    return false;
                }
                writer.onHeaderWritten();
            }
            if (writer.state() == 0) {
                if (!writer.writeByteArray(bytes)) {
                    return false;
                }
                writer.incrementState();
            }
            return true;
        }

        @Override
        public void readFrom(MessageReader reader) {
            throw new UnsupportedOperationException();
        }
    }

    /** A message whose only field is {@code inner}, compressed. */
    static final class Envelope implements Message {
        final Message inner;

        Envelope(Message inner) {
            this.inner = inner;
        }

        @Override
        public short directType() {
            return 51;
        }

        @Override
        public boolean writeTo(MessageWriter writer) {
            if (!writer.isHeaderWritten()) {
                if (!writer.writeHeader(directType())) {
                    return false;
                }
                writer.onHeaderWritten();
            }
            if (writer.state() == 0) {
                if (!writer.writeMessage(inner, true)) {
                    return false;
                }
                writer.incrementState();
            }
            return true;
        }

        @Override
        public void readFrom(MessageReader reader) {
            throw new UnsupportedOperationException();
        }
    }

    private static int varintLength(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** A blob array whose Blob serializes to exactly {@code serialized} bytes (at least 3). */
    static byte[] blobOfSerializedSize(int serialized, Random rnd, boolean compressible) {
        int n = serialized - 3;
        while (2 + varintLength(n + 1) + n > serialized) {
            n--;
        }
        byte[] b = new byte[n];
        if (compressible) {
            for (int i = 0; i < n; i++) {
                b[i] = (byte) ('a' + rnd.nextInt(4));
            }
        } else {
            rnd.nextBytes(b);
        }
        return b;
    }

    /** Serialized sizes at the edges: empty, one byte, the 10 KB scratch and its doublings, +-1. */
    static List<byte[]> edgeBlobs() {
        Random rnd = new Random(17);
        List<byte[]> blobs = new ArrayList<>();
        blobs.add(new byte[0]);
        blobs.add(new byte[] {42});
        for (int edge : new int[] {10 * 1024, 20 * 1024, 40 * 1024}) {
            for (int d = -1; d <= 1; d++) {
                blobs.add(blobOfSerializedSize(edge + d, rnd, true));
                blobs.add(blobOfSerializedSize(edge + d, rnd, false));
            }
        }
        blobs.add(blobOfSerializedSize(300_000, rnd, false)); // large: 30 chunks
        return blobs;
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 17, 64, 8192, 65536})
    void floorWritesSameBytesAsOldForEdgeSizedCompressedFields(int bufferSize) {
        FloorDirectMessageWriter reused = new FloorDirectMessageWriter(FACTORY);
        for (byte[] blob : edgeBlobs()) {
            Envelope m = new Envelope(new Blob(blob));
            byte[] expected = old(m, bufferSize);
            assertArrayEquals(expected, floor(m, bufferSize), blob.length + "-byte blob");
            assertArrayEquals(expected, MessageWire.write(reused, m, bufferSize), blob.length + "-byte blob, reused");
        }
    }

    /** Incompressible blobs whose deflated size is exactly 10,240 - 1, 10,240 and 10,240 + 1: one chunk or two. */
    @Test
    void compressedSizesAroundTheChunkBoundaryStayIdentical() {
        Random rnd = new Random(5);
        byte[] big = new byte[11_000];
        rnd.nextBytes(big);
        int found = 0;
        for (int target = CompressedMessage.CHUNK_SIZE - 1; target <= CompressedMessage.CHUNK_SIZE + 1; target++) {
            for (int n = 10_100; n < 10_400; n++) {
                byte[] blob = java.util.Arrays.copyOf(big, n);
                if (deflatedLength(new Blob(blob)) == target) {
                    Envelope m = new Envelope(new Blob(blob));
                    for (int bufferSize : new int[] {16, 8192, 65536}) {
                        assertArrayEquals(old(m, bufferSize), floor(m, bufferSize), "compressed " + target);
                    }
                    found++;
                    break;
                }
            }
        }
        assertEquals(3, found, "a blob for each compressed size around the chunk boundary");
    }

    private static int deflatedLength(Blob blob) {
        FloorDirectMessageWriter w = new FloorDirectMessageWriter(FACTORY);
        MessageWire.write(w, new Envelope(blob), 65536);
        return w.compressedField().compressedLength();
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 33, 8192, 65536})
    void floorWritesSameBytesAsOldForGeneratedExchangeAndPrimitiveMessages(int bufferSize) {
        for (int e : new int[] {0, 1, 30, 340, 385, 425, 500, 1670}) {
            for (long seed = 0; seed < 6; seed++) {
                ExchangeMessage m = ExchangeMessage.random(e, seed);
                assertArrayEquals(old(m, bufferSize), floor(m, bufferSize), e + " entries, seed " + seed);
            }
        }
        for (long seed = 0; seed < 300; seed++) {
            PrimitiveFieldsMessage p = PrimitiveFieldsMessage.random(seed);
            assertArrayEquals(old(p, bufferSize), floor(p, bufferSize), "seed " + seed);
        }
    }

    @Test
    void oneReusedDeflaterGivesByteIdenticalOutputOverManySuccessiveDifferentFields() {
        FloorDirectMessageWriter writer = new FloorDirectMessageWriter(FACTORY);
        Random rnd = new Random(23);
        MessageWire.write(writer, ExchangeMessage.random(1, 0), 8192);
        Deflater deflater = ReusableCompressedField.threadDeflater(Deflater.BEST_SPEED);
        int largestScratch = 0;
        for (int i = 0; i < 300; i++) {
            // Sizes jump between empty, small, around the scratch and well past it.
            int entries = switch (i % 5) {
                case 0 -> 0;
                case 1 -> rnd.nextInt(40);
                case 2 -> 380 + rnd.nextInt(20);
                case 3 -> 1000 + rnd.nextInt(2000);
                default -> rnd.nextInt(600);
            };
            ExchangeMessage m = ExchangeMessage.random(entries, i);
            assertArrayEquals(old(m, 8192), MessageWire.write(writer, m, 8192), "message " + i);
            assertTrue(writer.scratch().capacity() >= largestScratch, "the scratch never shrinks");
            largestScratch = writer.scratch().capacity();
        }
        assertSame(deflater, ReusableCompressedField.threadDeflater(Deflater.BEST_SPEED),
                "one Deflater for the thread, reset per field");
        assertFalse(writer.scratch().isDirect());
        assertTrue(largestScratch >= 40 * 1024, "grown past 10 KB by the big fields");
    }

    @Test
    void writersAtOtherLevelsOnTheSameThreadGetTheirOwnDeflater() {
        Random rnd = new Random(3);
        // Not NO_COMPRESSION: stored blocks split where the input is fed, and the floor feeds its
        // scratch array where old feeds its direct buffer, so fields past 64 KB (the write-up's
        // message shape at 1,000 entries) come out in other blocks. The write-up's level is 1.
        int[] levels = {Deflater.DEFAULT_COMPRESSION, Deflater.BEST_SPEED, 6, Deflater.BEST_COMPRESSION};
        for (int i = 0; i < 60; i++) {
            int level = levels[i % levels.length];
            ExchangeMessage m = ExchangeMessage.random(rnd.nextInt(700), i);
            byte[] expected = MessageWire.write(new OldDirectMessageWriter(FACTORY, level), m, 4096);
            assertArrayEquals(expected, MessageWire.write(new FloorDirectMessageWriter(FACTORY, level), m, 4096),
                    "level " + level + ", message " + i);
        }
        assertNotSame(ReusableCompressedField.threadDeflater(1), ReusableCompressedField.threadDeflater(9));
    }

    @Test
    void threadsWritingAtOnceEachGetTheOldBytes() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    FloorDirectMessageWriter writer = new FloorDirectMessageWriter(FACTORY);
                    int checked = 0;
                    for (int i = 0; i < 40; i++) {
                        ExchangeMessage m = ExchangeMessage.random((i * 37 + thread * 101) % 900, i + 1000L * thread);
                        assertArrayEquals(old(m, 1024), MessageWire.write(writer, m, 1024));
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(40, r.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void floorOutputReadsBackToTheOriginalMessage() {
        for (long seed = 0; seed < 50; seed++) {
            ExchangeMessage e = ExchangeMessage.random((int) (seed * 31 % 1800), seed);
            MessageReader reader = new MessageReader(floor(e, 16), FACTORY);
            assertEquals(e, reader.readMessage());
            assertFalse(reader.hasRemaining());
        }
    }

    @Test
    void theCompressedFieldIsOnePerWriterAndKeepsItsLargestArray() {
        FloorDirectMessageWriter writer = new FloorDirectMessageWriter(FACTORY);
        MessageWire.write(writer, ExchangeMessage.random(1670, 1), 8192);
        ReusableCompressedField field = writer.compressedField();
        int capacity = field.capacity();
        assertTrue(capacity >= 8 * 1024, "grown to the big field's compressed size, got " + capacity);
        MessageWire.write(writer, ExchangeMessage.random(30, 2), 8192);
        assertSame(field, writer.compressedField());
        assertEquals(capacity, field.capacity());
    }
}
