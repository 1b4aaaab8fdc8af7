package hotpath.marshaller;

import java.nio.charset.StandardCharsets;

import hotpath.utf8.Utf8;

/**
 * A small binary object format: a 24-byte little-endian header (object flag 103, version 1,
 * flags, type id, hash, total length, schema id, schema offset), then the fields. Nested
 * objects are written inline with their own header, each by a writer of its own that shares the
 * stream and the handles; a second reference to an object already written in the same call is a
 * back-reference (flag 102, then the distance back to it). The hash is the type's resolver's,
 * by default over the object's data bytes. Self-consistent, the same for old and optimized.
 *
 * <p>A writer carries the state the release's binary writer carries (context, stream, schema
 * holder, type id, start, raw offset, handles, schema id, field count, name mapper,
 * fail-if-unregistered: 56 bytes per writer), so that a marshal call allocates what the
 * release's does; the schema holder, raw offset and mapper have no use in our format and stay
 * unset.
 */
public final class BinaryWriter implements AutoCloseable {

    static final int HEADER = 24;
    static final byte OBJ = 103;
    static final byte NULL = 101;
    static final byte HANDLE = 102;

    private final TypeRegistry registry;
    private final HeapOutputStream out;
    private final Object schema;
    private int typeId;
    private int start = -1;
    private int rawOffPos;
    private WriterHandles handles;
    private int schemaId;
    private int fieldCnt;
    private Object mapper;
    private boolean failIfUnregistered;

    public BinaryWriter(ArrayPool pool, TypeRegistry registry) {
        this(new HeapOutputStream(pool), registry);
    }

    private BinaryWriter(HeapOutputStream out, TypeRegistry registry) {
        this.registry = registry;
        this.out = out;
        this.schema = null;
    }

    /** The writer of an object nested in {@code parent}'s: same stream, same handles. */
    private BinaryWriter(BinaryWriter parent) {
        this.registry = parent.registry;
        this.out = parent.out;
        this.schema = parent.schema;
        this.handles = parent.handles;
        this.failIfUnregistered = parent.failIfUnregistered;
    }

    /** The floor marshaller's writer: reusable through {@link #reopen}, strings encoded in place. */
    static BinaryWriter reusable(ArrayPool pool, TypeRegistry registry) {
        return new BinaryWriter(new HeapOutputStream(pool, true), registry);
    }

    /** Ready for the next object after {@link #close}: the pooled array borrowed again, the
     * call's state cleared (its handles kept, emptied, for the next call). */
    void reopen() {
        out.reopen();
        start = -1;
        typeId = 0;
        schemaId = 0;
        fieldCnt = 0;
        if (handles != null) {
            handles.clear();
        }
    }

    boolean isOpen() {
        return out.isOpen();
    }

    public HeapOutputStream out() {
        return out;
    }

    private WriterHandles handles() {
        if (handles == null) {
            handles = new WriterHandles();
        }
        return handles;
    }

    public void writeObject(BinaryWritable obj) {
        if (obj == null) {
            out.writeByte(NULL);
            return;
        }
        if (start >= 0) {
            fieldCnt++;
            handles();
            new BinaryWriter(this).writeObject(obj);
            return;
        }
        int pos = out.position();
        int prev = handles().put(obj, pos);
        if (prev != WriterHandles.ABSENT) {
            out.writeByte(HANDLE);
            out.writeInt(pos - prev);
            return;
        }
        start = pos;
        typeId = obj.typeId();
        schemaId = typeId * 31;
        out.writeByte(OBJ);
        out.writeByte(1);
        out.writeShort(0);
        out.writeInt(typeId);
        out.writeInt(0); // hash: filled in below
        out.writeInt(0); // length: filled in below
        out.writeInt(schemaId);
        out.writeInt(HEADER);
        obj.writeFields(this);
        int end = out.position();
        // The floor's reused writer (it encodes strings in place) skips the release's boxed lookup.
        TypeRegistry.HashResolver resolver = out.utf8InPlace() ? registry.resolverOfLast(typeId) : registry.resolver(typeId);
        int hash = resolver.hashCode(out.internalArray(), start + HEADER, end);
        out.writeIntAt(start + 8, hash);
        out.writeIntAt(start + 12, end - start);
    }

    public void writeInt(int v) {
        fieldCnt++;
        out.writeInt(v);
    }

    public void writeLong(long v) {
        fieldCnt++;
        out.writeLong(v);
    }

    public void writeString(String s) {
        fieldCnt++;
        if (out.utf8InPlace()) {
            int ascii = Utf8.asciiPrefix(s);
            int len = Utf8.length(s, ascii);
            out.writeInt(len);
            out.writeUtf8(s, ascii, len);
            return;
        }
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    public void writeByteArray(byte[] b) {
        fieldCnt++;
        out.writeInt(b.length);
        out.write(b);
    }

    /** The old path's result: a trim copy of the internal array. */
    public byte[] array() {
        return out.toArray();
    }

    @Override
    public void close() {
        out.close();
    }
}
