package hotpath.writer;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.zip.Deflater;

/**
 * The writer before the change. Every write re-resolves the current stream through the state
 * stack ({@code state.item().stream}: an array load, a bounds check and a field load), and every
 * compressed field is serialized into a fresh 10 KB <b>direct</b> buffer by a brand-new writer,
 * grown by copying through an intermediate byte[].
 */
public final class OldDirectMessageWriter implements MessageWriter {

    static final int SCRATCH_SIZE = 10 * 1024;

    private final WriterStateStack state = new WriterStateStack();
    private final MessageFactory factory;
    private final int compressionLevel;
    private ByteBuffer buf;

    public OldDirectMessageWriter(MessageFactory factory) {
        this(factory, Deflater.BEST_SPEED);
    }

    public OldDirectMessageWriter(MessageFactory factory, int compressionLevel) {
        this.factory = factory;
        this.compressionLevel = compressionLevel;
    }

    public MessageFactory factory() {
        return factory;
    }

    @Override
    public void setBuffer(ByteBuffer buf) {
        this.buf = buf;
        state.item().stream.setBuffer(buf);
    }

    @Override
    public boolean writeHeader(short type) {
        ByteBufferStream stream = state.item().stream;
        stream.writeShort(type);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByte(byte val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeByte(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeShort(short val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeShort(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeInt(int val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeInt(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeLong(long val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeLong(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeBoolean(boolean val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeBoolean(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeUuid(UUID val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeUuid(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeString(String val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeString(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByteArray(byte[] val) {
        ByteBufferStream stream = state.item().stream;
        stream.writeByteArray(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByteArray(byte[] val, int off, int len) {
        ByteBufferStream stream = state.item().stream;
        stream.writeByteArray(val, off, len);
        return stream.lastFinished();
    }

    @Override
    public boolean writeMessage(Message msg, boolean compress) {
        ByteBufferStream stream = state.item().stream;
        if (compress) {
            writeCompressed(stream, msg, null, null, null);
        } else {
            stream.writeMessage(msg, this);
        }
        return stream.lastFinished();
    }

    @Override
    public <K, V> boolean writeMap(Map<K, V> map, ItemType keyType, ItemType valType,
                                   boolean compress) {
        ByteBufferStream stream = state.item().stream;
        if (compress) {
            writeCompressed(stream, null, map, keyType, valType);
        } else {
            stream.writeMap(map, keyType, valType, this);
        }
        return stream.lastFinished();
    }

    /** A compressed field: either {@code msg} or {@code map} (the other is null). */
    private void writeCompressed(ByteBufferStream stream, Message msg, Map<?, ?> map,
                                 ItemType keyType, ItemType valType) {
        if (msg == null && map == null) {
            stream.writeShort(Short.MIN_VALUE);
            return;
        }
        if (stream.pendingCompressed == null) {
            stream.pendingCompressed = serialize(msg, map, keyType, valType);
        }
        stream.writeMessage(stream.pendingCompressed, this);
        if (stream.lastFinished()) {
            stream.pendingCompressed = null;
        }
    }

    private CompressedMessage serialize(Message msg, Map<?, ?> map, ItemType keyType,
                                        ItemType valType) {
        ByteBuffer scratch = ByteBuffer.allocateDirect(SCRATCH_SIZE);
        OldDirectMessageWriter nested = new OldDirectMessageWriter(factory, compressionLevel);
        nested.setBuffer(scratch);
        while (!(map != null ? nested.writeMap(map, keyType, valType, false)
                             : nested.writeMessage(msg, false))) {
            // The nested write stopped for lack of room: double, copying via a heap byte[].
            ByteBuffer bigger = ByteBuffer.allocateDirect(scratch.capacity() * 2);
            byte[] written = new byte[scratch.position()];
            scratch.flip();
            scratch.get(written);
            bigger.put(written);
            scratch = bigger;
            nested.setBuffer(scratch);
        }
        scratch.flip();
        return new CompressedMessage(scratch, compressionLevel);
    }

    @Override
    public boolean isHeaderWritten() {
        return state.item().hdrWritten;
    }

    @Override
    public void onHeaderWritten() {
        state.item().hdrWritten = true;
    }

    @Override
    public int state() {
        return state.item().state;
    }

    @Override
    public void incrementState() {
        state.item().state++;
    }

    @Override
    public void beforeNestedWrite() {
        state.forward();
        state.item().stream.setBuffer(buf);
    }

    @Override
    public void afterNestedWrite(boolean finished) {
        state.backward(finished);
    }

    @Override
    public void reset() {
        state.reset();
    }
}
