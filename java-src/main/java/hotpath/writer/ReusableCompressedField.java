package hotpath.writer;

import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * The floor writer's compressed field: one per writer, refilled per field. It deflates straight
 * from the scratch buffer's array with the thread's Deflater (reset, not created and ended) into
 * an output array kept at the largest size seen, and writes the chunks as ranges of that array.
 * On the wire the same as {@link CompressedMessage}: type, varint(dataSize) (0 ends it), per
 * chunk {@code 0x00}, varint(len), bytes, then {@code 0x01}.
 *
 * <p>Why: per field the optimized writer's CompressedMessage copies the scratch (S bytes), fills
 * a stream pre-sized to S, trims it (C), copies every chunk (C) and mallocs ~268 KB of zlib state.
 */
final class ReusableCompressedField implements Message {

    // One raw-DEFLATE Deflater per thread and level (index level + 1: DEFAULT_COMPRESSION is -1).
    private static final ThreadLocal<Deflater[]> DEFLATERS = ThreadLocal.withInitial(() -> new Deflater[11]);

    private byte[] compressed = new byte[1024];
    private int compressedLength;
    private int dataSize;

    /** Deflates {@code src[off, off + len)} at {@code level}; the result stays here until the next call. */
    ReusableCompressedField compress(byte[] src, int off, int len, int level) {
        Deflater deflater = threadDeflater(level);
        try {
            deflater.setInput(src, off, len);
            deflater.finish();
            int n = 0;
            while (!deflater.finished()) {
                if (n == compressed.length) {
                    compressed = Arrays.copyOf(compressed, compressed.length * 2);
                }
                n += deflater.deflate(compressed, n, compressed.length - n);
            }
            compressedLength = n;
            dataSize = len;
        } finally {
            // Reset after use: the next field starts from a clean stream and src is not held.
            deflater.reset();
        }
        return this;
    }

    /** This thread's Deflater for {@code level}, created on first use and then kept. */
    static Deflater threadDeflater(int level) {
        Deflater[] byLevel = DEFLATERS.get();
        Deflater deflater = byLevel[level + 1];
        if (deflater == null) {
            deflater = new Deflater(level, true);
            byLevel[level + 1] = deflater;
        }
        return deflater;
    }

    int dataSize() {
        return dataSize;
    }

    int compressedLength() {
        return compressedLength;
    }

    /** The kept output array, for tests: its length is the largest compressed field so far, rounded up. */
    int capacity() {
        return compressed.length;
    }

    @Override
    public short directType() {
        return CompressedMessage.TYPE;
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
            if (!writer.writeInt(dataSize)) {
                return false;
            }
            writer.incrementState();
            if (dataSize == 0) {
                return true;
            }
        }
        // From state 1 on, two states per chunk: the "more" flag, then the chunk's bytes.
        while (true) {
            int s = writer.state() - 1;
            int off = s / 2 * CompressedMessage.CHUNK_SIZE;
            if (s % 2 == 0) {
                boolean last = off >= compressedLength;
                if (!writer.writeByte(last ? (byte) 1 : (byte) 0)) {
                    return false;
                }
                if (last) {
                    return true;
                }
            } else {
                int len = Math.min(compressedLength - off, CompressedMessage.CHUNK_SIZE);
                if (!writer.writeByteArray(compressed, off, len)) {
                    return false;
                }
            }
            writer.incrementState();
        }
    }

    @Override
    public void readFrom(MessageReader reader) {
        throw new UnsupportedOperationException("read back as a CompressedMessage");
    }
}
