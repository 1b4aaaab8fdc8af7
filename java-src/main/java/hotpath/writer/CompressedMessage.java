package hotpath.writer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * A serialized field, deflated (raw DEFLATE) and handed out in chunks of at most 10,240 bytes.
 * The same in both versions of the writer.
 *
 * <p>Wire: type (2 B LE), varint(dataSize) (0 ends it), then per chunk {@code 0x00},
 * varint(len), bytes; then {@code 0x01}.
 */
public final class CompressedMessage implements Message {

    public static final short TYPE = -100;
    public static final int CHUNK_SIZE = 10 * 1024;

    private int dataSize;
    private byte[] compressed;

    // The chunk being written: a copy, kept until it is fully out.
    private byte[] chunk;

    /** For the reader. */
    public CompressedMessage() {
    }

    /** Copies the buffer's remaining bytes and deflates them at the given level. */
    public CompressedMessage(ByteBuffer serialized, int level) {
        byte[] raw = new byte[serialized.remaining()];
        serialized.get(raw);
        dataSize = raw.length;
        Deflater deflater = new Deflater(level, true);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length);
            try (DeflaterOutputStream dos = new DeflaterOutputStream(out, deflater, 512)) {
                dos.write(raw);
            }
            compressed = out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
    }

    public int dataSize() {
        return dataSize;
    }

    public byte[] compressed() {
        return compressed;
    }

    @Override
    public short directType() {
        return TYPE;
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
            int off = s / 2 * CHUNK_SIZE;
            if (s % 2 == 0) {
                boolean last = off >= compressed.length;
                if (!writer.writeByte(last ? (byte) 1 : (byte) 0)) {
                    return false;
                }
                if (last) {
                    return true;
                }
            } else {
                if (chunk == null) {
                    chunk = Arrays.copyOfRange(compressed, off,
                            Math.min(compressed.length, off + CHUNK_SIZE));
                }
                if (!writer.writeByteArray(chunk)) {
                    return false;
                }
                chunk = null;
            }
            writer.incrementState();
        }
    }

    @Override
    public void readFrom(MessageReader reader) {
        dataSize = reader.readInt();
        if (dataSize == 0) {
            compressed = new byte[0];
            return;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (reader.readByte() == 0) {
            byte[] part = reader.readByteArray();
            out.write(part, 0, part.length);
        }
        compressed = out.toByteArray();
    }
}
