package hotpath.writer;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;

/**
 * Writes messages field by field into the current buffer. Every write returns false when the
 * field did not fit; the caller then swaps in a fresh buffer ({@link #setBuffer}) and calls the
 * message's {@code writeTo} again, which resumes at the same field.
 */
public interface MessageWriter {

    void setBuffer(ByteBuffer buf);

    boolean writeHeader(short type);

    boolean writeByte(byte val);

    boolean writeShort(short val);

    boolean writeInt(int val);

    boolean writeLong(long val);

    boolean writeBoolean(boolean val);

    boolean writeUuid(UUID val);

    boolean writeString(String val);

    boolean writeByteArray(byte[] val);

    /** Bytes [off, off + len) of {@code val}: on the wire the same as an array of those bytes. */
    boolean writeByteArray(byte[] val, int off, int len);

    /** A nested message; {@code compress} serializes it into a scratch buffer and deflates it. */
    boolean writeMessage(Message msg, boolean compress);

    <K, V> boolean writeMap(Map<K, V> map, ItemType keyType, ItemType valType, boolean compress);

    boolean isHeaderWritten();

    void onHeaderWritten();

    /** The current message's field cursor. */
    int state();

    void incrementState();

    void beforeNestedWrite();

    void afterNestedWrite(boolean finished);

    /** Forgets all progress, ready for the next message. */
    void reset();
}
