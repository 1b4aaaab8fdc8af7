package hotpath.writer;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.zip.Deflater;

/**
 * The old writer with any set of IGNITE-28836's mechanisms applied ({@link WriterMechanism}): the
 * empty set performs {@link OldDirectMessageWriter}'s allocations and copies, the full set
 * {@link OptimizedDirectMessageWriter}'s, and each mechanism alone removes only its own work.
 * Every set writes the same bytes.
 *
 * <p>A writer holds exactly the fields its mechanisms need (the cached stream, the kept scratch
 * buffer, the kept scratch writer), one small class per field set. Without
 * {@code scratch-writer-once} a writer is made per compressed field, so its size is part of what
 * a call allocates: 32 bytes with no mechanism, as old's (state, factory, level, buffer, 4 bytes of
 * padding), 32 with one of the two fields (it fills the padding), 40 with both. The mechanisms and
 * the compression level are one shared {@link Settings}, in the slot where old keeps the level.
 * Whether writes go through the cached stream is the class's, so that the primitive path pays no
 * test for it.
 */
public abstract class MechanismDirectMessageWriter implements MessageWriter {

    static final int SCRATCH_SIZE = OldDirectMessageWriter.SCRATCH_SIZE;

    /** The applied mechanisms and the compression level, shared by a writer and its scratch writers. */
    static final class Settings {
        final int level;
        final boolean cachedStream;
        final boolean heapScratch;
        final boolean scratchWriterOnce;

        Settings(int level, Set<WriterMechanism> applied) {
            this.level = level;
            cachedStream = applied.contains(WriterMechanism.CACHED_STREAM);
            heapScratch = applied.contains(WriterMechanism.HEAP_SCRATCH);
            scratchWriterOnce = applied.contains(WriterMechanism.SCRATCH_WRITER_ONCE);
        }
    }

    final WriterStateStack state = new WriterStateStack();
    private final MessageFactory factory;
    private final Settings settings;
    private ByteBuffer buf;

    private MechanismDirectMessageWriter(MessageFactory factory, Settings settings) {
        this.factory = factory;
        this.settings = settings;
    }

    public static MechanismDirectMessageWriter create(MessageFactory factory, Set<WriterMechanism> applied) {
        return create(factory, new Settings(Deflater.BEST_SPEED, applied));
    }

    /** The writer of a variant name: {@code old}, {@code old+heap-scratch}, {@code optimized-cached-stream}, ... */
    public static MechanismDirectMessageWriter of(String variant) {
        return create(new MessageFactory(), WriterMechanism.parse(variant));
    }

    private static MechanismDirectMessageWriter create(MessageFactory factory, Settings s) {
        if (s.scratchWriterOnce) {
            return s.cachedStream ? new CachedKeeping(factory, s) : new Keeping(factory, s);
        }
        if (s.heapScratch) {
            return s.cachedStream ? new CachedScratch(factory, s) : new Scratch(factory, s);
        }
        return s.cachedStream ? new Cached(factory, s) : new Plain(factory, s);
    }

    // ---------------------------------------------------------------- what the field sets hold

    /** The stream primitive writes go to: cached, or re-resolved through the state stack. */
    abstract ByteBufferStream stream();

    /** Re-reads the current stream where the nesting level or the buffer changed (cached-stream only). */
    void refreshStream() {
    }

    ByteBuffer keptScratch() {
        throw new IllegalStateException("no heap-scratch field");
    }

    void keepScratch(ByteBuffer scratch) {
        throw new IllegalStateException("no heap-scratch field");
    }

    MechanismDirectMessageWriter keptWriter() {
        throw new IllegalStateException("no scratch-writer-once field");
    }

    void keepWriter(MechanismDirectMessageWriter writer) {
        throw new IllegalStateException("no scratch-writer-once field");
    }

    /** No mechanism's field: old's shape. */
    private static final class Plain extends MechanismDirectMessageWriter {
        Plain(MessageFactory factory, Settings s) {
            super(factory, s);
        }

        @Override
        ByteBufferStream stream() {
            return state.item().stream;
        }
    }

    private static final class Cached extends MechanismDirectMessageWriter {
        private ByteBufferStream curStream = state.item().stream;

        Cached(MessageFactory factory, Settings s) {
            super(factory, s);
        }

        @Override
        ByteBufferStream stream() {
            return curStream;
        }

        @Override
        void refreshStream() {
            curStream = state.item().stream;
        }
    }

    private static final class Scratch extends MechanismDirectMessageWriter {
        private ByteBuffer scratch;

        Scratch(MessageFactory factory, Settings s) {
            super(factory, s);
        }

        @Override
        ByteBufferStream stream() {
            return state.item().stream;
        }

        @Override
        ByteBuffer keptScratch() {
            return scratch;
        }

        @Override
        void keepScratch(ByteBuffer scratch) {
            this.scratch = scratch;
        }
    }

    private static final class CachedScratch extends MechanismDirectMessageWriter {
        private ByteBufferStream curStream = state.item().stream;
        private ByteBuffer scratch;

        CachedScratch(MessageFactory factory, Settings s) {
            super(factory, s);
        }

        @Override
        ByteBufferStream stream() {
            return curStream;
        }

        @Override
        void refreshStream() {
            curStream = state.item().stream;
        }

        @Override
        ByteBuffer keptScratch() {
            return scratch;
        }

        @Override
        void keepScratch(ByteBuffer scratch) {
            this.scratch = scratch;
        }
    }

    /** Made once per writer that keeps one (and per level of compressed nesting): its size is paid once. */
    private static final class Keeping extends MechanismDirectMessageWriter {
        private ByteBuffer scratch;
        private MechanismDirectMessageWriter scratchWriter;

        Keeping(MessageFactory factory, Settings s) {
            super(factory, s);
        }

        @Override
        ByteBufferStream stream() {
            return state.item().stream;
        }

        @Override
        ByteBuffer keptScratch() {
            return scratch;
        }

        @Override
        void keepScratch(ByteBuffer scratch) {
            this.scratch = scratch;
        }

        @Override
        MechanismDirectMessageWriter keptWriter() {
            return scratchWriter;
        }

        @Override
        void keepWriter(MechanismDirectMessageWriter writer) {
            scratchWriter = writer;
        }
    }

    private static final class CachedKeeping extends MechanismDirectMessageWriter {
        private ByteBufferStream curStream = state.item().stream;
        private ByteBuffer scratch;
        private MechanismDirectMessageWriter scratchWriter;

        CachedKeeping(MessageFactory factory, Settings s) {
            super(factory, s);
        }

        @Override
        ByteBufferStream stream() {
            return curStream;
        }

        @Override
        void refreshStream() {
            curStream = state.item().stream;
        }

        @Override
        ByteBuffer keptScratch() {
            return scratch;
        }

        @Override
        void keepScratch(ByteBuffer scratch) {
            this.scratch = scratch;
        }

        @Override
        MechanismDirectMessageWriter keptWriter() {
            return scratchWriter;
        }

        @Override
        void keepWriter(MechanismDirectMessageWriter writer) {
            scratchWriter = writer;
        }
    }

    // ---------------------------------------------------------------- the writer

    public MessageFactory factory() {
        return factory;
    }

    @Override
    public void setBuffer(ByteBuffer buf) {
        this.buf = buf;
        state.item().stream.setBuffer(buf);
        refreshStream();
    }

    @Override
    public boolean writeHeader(short type) {
        ByteBufferStream stream = stream();
        stream.writeShort(type);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByte(byte val) {
        ByteBufferStream stream = stream();
        stream.writeByte(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeShort(short val) {
        ByteBufferStream stream = stream();
        stream.writeShort(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeInt(int val) {
        ByteBufferStream stream = stream();
        stream.writeInt(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeLong(long val) {
        ByteBufferStream stream = stream();
        stream.writeLong(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeBoolean(boolean val) {
        ByteBufferStream stream = stream();
        stream.writeBoolean(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeUuid(UUID val) {
        ByteBufferStream stream = stream();
        stream.writeUuid(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeString(String val) {
        ByteBufferStream stream = stream();
        stream.writeString(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByteArray(byte[] val) {
        ByteBufferStream stream = stream();
        stream.writeByteArray(val);
        return stream.lastFinished();
    }

    @Override
    public boolean writeByteArray(byte[] val, int off, int len) {
        ByteBufferStream stream = stream();
        stream.writeByteArray(val, off, len);
        return stream.lastFinished();
    }

    // Message and map fields resolve the stream through the stack in both versions.
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
        Settings s = settings;
        ByteBuffer scratch;
        if (!s.heapScratch) {
            scratch = ByteBuffer.allocateDirect(SCRATCH_SIZE);
        } else if ((scratch = keptScratch()) == null) {
            scratch = ByteBuffer.allocate(SCRATCH_SIZE);
            keepScratch(scratch);
        } else {
            scratch.clear();
        }
        MechanismDirectMessageWriter nested;
        if (!s.scratchWriterOnce) {
            nested = create(factory, s);
        } else if ((nested = keptWriter()) == null) {
            nested = create(factory, s);
            keepWriter(nested);
        } else {
            nested.reset();
        }
        nested.setBuffer(scratch);
        while (!(map != null ? nested.writeMap(map, keyType, valType, false)
                             : nested.writeMessage(msg, false))) {
            // The nested write stopped for lack of room: double.
            ByteBuffer bigger;
            if (s.heapScratch) {
                // One put, and the bigger one kept.
                bigger = ByteBuffer.allocate(scratch.capacity() * 2);
                scratch.flip();
                bigger.put(scratch);
                keepScratch(bigger);
            } else {
                // Copied through a heap byte[].
                bigger = ByteBuffer.allocateDirect(scratch.capacity() * 2);
                byte[] written = new byte[scratch.position()];
                scratch.flip();
                scratch.get(written);
                bigger.put(written);
            }
            scratch = bigger;
            nested.setBuffer(scratch);
        }
        scratch.flip();
        return new CompressedMessage(scratch, s.level);
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
        refreshStream();
    }

    @Override
    public void afterNestedWrite(boolean finished) {
        state.backward(finished);
        refreshStream();
    }

    @Override
    public void reset() {
        state.reset();
        refreshStream();
    }
}
