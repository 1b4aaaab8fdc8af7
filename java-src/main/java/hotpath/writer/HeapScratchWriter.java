package hotpath.writer;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;

/**
 * What the optimized and floor writers share: the current stream cached in {@code curStream},
 * refreshed only where the nesting level or the buffer changes ({@code setBuffer},
 * {@code beforeNestedWrite}, {@code afterNestedWrite}), and compressed fields serialized into a
 * <b>heap</b> scratch buffer kept at the largest size seen, by a scratch writer created once and
 * reset per use; growth copies with a single {@code put}. How the serialized field is then
 * compressed is each writer's own.
 */
abstract class HeapScratchWriter implements MessageWriter {

    static final int SCRATCH_SIZE = 10 * 1024;

    private final WriterStateStack state;
    private final MessageFactory factory;
    private final int compressionLevel;
    private ByteBuffer buf;
    private ByteBufferStream curStream;
    private ByteBuffer scratch;
    private HeapScratchWriter scratchWriter;

    /** {@code stringsInPlace}: strings are UTF-8 encoded straight into the buffer (see ByteBufferStream). */
    HeapScratchWriter(MessageFactory factory, int compressionLevel, boolean stringsInPlace) {
        this.factory = factory;
        this.compressionLevel = compressionLevel;
        state = new WriterStateStack(stringsInPlace);
        curStream = state.item().stream;
    }

    /** A writer of the same kind, at the same level, for the scratch buffer. */
    abstract HeapScratchWriter newScratchWriter();

    /** The compressed field for {@code scratch}'s [0, position): what the nested write made. */
    abstract Message compress(ByteBuffer scratch);

    int compressionLevel() {
        return compressionLevel;
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

    private Message serialize(Message msg, Map<?, ?> map, ItemType keyType,
                                        ItemType valType) {
        if (scratch == null) {
            scratch = ByteBuffer.allocate(SCRATCH_SIZE);
            scratchWriter = newScratchWriter();
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
        return compress(scratch);
    }

    /** The scratch buffer, for tests: heap, kept at the largest size seen. */
    ByteBuffer scratch() {
        return scratch;
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
