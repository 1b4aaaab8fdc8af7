package hotpath.marshaller;

import java.nio.charset.StandardCharsets;

import hotpath.utf8.Utf8;

/**
 * A small binary object format: a 24-byte little-endian header (object flag 103, version 1,
 * flags, type id, hash, total length, schema id, schema offset), then the fields. Nested
 * objects are written inline with their own header. Self-consistent, the same for old and
 * optimized.
 */
public final class BinaryWriter implements AutoCloseable {

    static final int HEADER = 24;
    static final byte OBJ = 103;
    static final byte NULL = 101;

    // One field only: the writer's size (16 B) is part of what old and optimized allocate.
    private final HeapOutputStream out;

    public BinaryWriter(ArrayPool pool) {
        this(new HeapOutputStream(pool));
    }

    private BinaryWriter(HeapOutputStream out) {
        this.out = out;
    }

    /** The floor marshaller's writer: reusable through {@link #reopen}, strings encoded in place. */
    static BinaryWriter reusable(ArrayPool pool) {
        return new BinaryWriter(new HeapOutputStream(pool, true));
    }

    /** Ready for the next object after {@link #close}: the pooled array borrowed again. */
    void reopen() {
        out.reopen();
    }

    boolean isOpen() {
        return out.isOpen();
    }

    public HeapOutputStream out() {
        return out;
    }

    public void writeObject(BinaryWritable obj) {
        if (obj == null) {
            out.writeByte(NULL);
            return;
        }
        int start = out.position();
        out.writeByte(OBJ);
        out.writeByte(1);
        out.writeShort(0);
        out.writeInt(obj.typeId());
        out.writeInt(0); // hash: filled in below
        out.writeInt(0); // length: filled in below
        out.writeInt(obj.typeId() * 31);
        out.writeInt(HEADER);
        obj.writeFields(this);
        int length = out.position() - start;
        out.writeIntAt(start + 8, length * 17 + obj.typeId());
        out.writeIntAt(start + 12, length);
    }

    public void writeInt(int v) {
        out.writeInt(v);
    }

    public void writeLong(long v) {
        out.writeLong(v);
    }

    public void writeString(String s) {
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
