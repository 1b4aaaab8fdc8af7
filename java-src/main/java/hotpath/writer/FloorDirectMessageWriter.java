package hotpath.writer;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.zip.Deflater;

/**
 * Beyond the optimized writer, toward the least a compressed field must allocate: nothing per
 * message once warm. The scratch buffer and scratch writer are kept as in the optimized writer;
 * in addition the serialized field is deflated straight from the scratch's array (no copy) with
 * a per-thread Deflater that is reset instead of created and ended (no zlib malloc), into an
 * output array kept by the writer, whose chunks are written as ranges (no chunk copies).
 *
 * <p>Why: per compressed field the optimized writer still mallocs ~268 KB of zlib state, copies
 * the serialized bytes once and the compressed bytes twice; the price is memory held per
 * writer and per thread (data/floors/writer.md).
 */
public final class FloorDirectMessageWriter implements MessageWriter {

    static final int SCRATCH_SIZE = 10 * 1024;

    private final WriterStateStack state = new WriterStateStack();
    private final MessageFactory factory;
    private final int compressionLevel;
    private ByteBuffer buf;
    private ByteBufferStream curStream;
    private ByteBuffer scratch;
    private FloorDirectMessageWriter scratchWriter;
    private ReusableCompressedField compressed;

    public FloorDirectMessageWriter(MessageFactory factory) {
        this(factory, Deflater.BEST_SPEED);
    }

    public FloorDirectMessageWriter(MessageFactory factory, int compressionLevel) {
        this.factory = factory;
        this.compressionLevel = compressionLevel;
        curStream = state.item().stream;
    }

    public MessageFactory factory() {
        return factory;
    }

    @Override
    public void setBuffer(ByteBuffer buf) {
        this.buf = buf;
        curStream = state.item().stream;
        curStream.setBuffer(buf);
    }

    @Override
    public boolean writeHeader(short type) {
        ByteBufferStream stream = curStream;
        stream.writeShort(type);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByte(byte val) {
        ByteBufferStream stream = curStream;
        stream.writeByte(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeShort(short val) {
        ByteBufferStream stream = curStream;
        stream.writeShort(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeInt(int val) {
        ByteBufferStream stream = curStream;
        stream.writeInt(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeLong(long val) {
        ByteBufferStream stream = curStream;
        stream.writeLong(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeBoolean(boolean val) {
        ByteBufferStream stream = curStream;
        stream.writeBoolean(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeUuid(UUID val) {
        ByteBufferStream stream = curStream;
        stream.writeUuid(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeString(String val) {
        ByteBufferStream stream = curStream;
        stream.writeString(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByteArray(byte[] val) {
        ByteBufferStream stream = curStream;
        stream.writeByteArray(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByteArray(byte[] val, int off, int len) {
        ByteBufferStream stream = curStream;
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

    private ReusableCompressedField serialize(Message msg, Map<?, ?> map, ItemType keyType,
                                        ItemType valType) {
        if (scratch == null) {
            scratch = ByteBuffer.allocate(SCRATCH_SIZE);
            scratchWriter = new FloorDirectMessageWriter(factory, compressionLevel);
            compressed = new ReusableCompressedField();
        } else {
            scratch.clear();
            scratchWriter.reset();
        }
        scratchWriter.setBuffer(scratch);
        while (!(map != null ? scratchWriter.writeMap(map, keyType, valType, false)
                             : scratchWriter.writeMessage(msg, false))) {
            // The nested write stopped for lack of room: double, one put, and keep the bigger one.
            ByteBuffer bigger = ByteBuffer.allocate(scratch.capacity() * 2);
            scratch.flip();
            bigger.put(scratch);
            scratch = bigger;
            scratchWriter.setBuffer(scratch);
        }
        // Straight from the scratch's array: [0, position) is the serialized field.
        return compressed.compress(scratch.array(), scratch.arrayOffset(), scratch.position(),
                compressionLevel);
    }

    /** The scratch buffer, for tests: heap, kept at the largest size seen. */
    ByteBuffer scratch() {
        return scratch;
    }

    /** The compressed field, for tests: one per writer, refilled per field. */
    ReusableCompressedField compressedField() {
        return compressed;
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
        curStream = state.item().stream;
        curStream.setBuffer(buf);
    }

    @Override
    public void afterNestedWrite(boolean finished) {
        state.backward(finished);
        curStream = state.item().stream;
    }

    @Override
    public void reset() {
        state.reset();
        curStream = state.item().stream;
    }
}
