package hotpath.marshaller;

import java.util.Arrays;

import hotpath.utf8.Utf8;

/**
 * The binary writer's output: the thread's pooled array when free (initial 1024 bytes), else a
 * fresh one. Growth: below 256 to 256, else doubling until the request fits, copying the whole
 * array; the pool adopts a grown pooled array. Closing gives the pooled array back; the floor
 * marshaller's writer then {@link #reopen}s it for the next object instead of making a new one.
 */
public final class HeapOutputStream implements AutoCloseable {

    private final ArrayPool pool;
    private boolean pooled;
    // floor: strings go straight in (no getBytes array). Fits the object's padding: size unchanged.
    private final boolean utf8InPlace;
    private byte[] data;
    private int pos;

    public HeapOutputStream(ArrayPool pool) {
        this(pool, false);
    }

    HeapOutputStream(ArrayPool pool, boolean utf8InPlace) {
        this.pool = pool;
        this.utf8InPlace = utf8InPlace;
        open();
    }

    private void open() {
        byte[] borrowed = pool.acquire();
        pooled = borrowed != null;
        data = pooled ? borrowed : new byte[ArrayPool.INITIAL_CAPACITY];
        pos = 0;
    }

    /** Borrows again after {@link #close}, as a new stream would: the same object, used anew. */
    void reopen() {
        if (data != null) {
            throw new IllegalStateException("still open");
        }
        open();
    }

    boolean isOpen() {
        return data != null;
    }

    private void ensure(int cnt) {
        int required = pos + cnt;
        if (required > data.length) {
            int len = data.length < 256 ? 256 : data.length;
            while (len < required) {
                len *= 2;
            }
            data = Arrays.copyOf(data, len);
            if (pooled) {
                pool.adopt(data);
            }
        }
    }

    public void writeByte(int b) {
        ensure(1);
        data[pos++] = (byte) b;
    }

    public void writeShort(int v) {
        ensure(2);
        data[pos++] = (byte) v;
        data[pos++] = (byte) (v >>> 8);
    }

    public void writeInt(int v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            data[pos++] = (byte) (v >>> (8 * i));
        }
    }

    public void writeIntAt(int at, int v) {
        for (int i = 0; i < 4; i++) {
            data[at + i] = (byte) (v >>> (8 * i));
        }
    }

    public void writeLong(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            data[pos++] = (byte) (v >>> (8 * i));
        }
    }

    public void write(byte[] src) {
        ensure(src.length);
        System.arraycopy(src, 0, data, pos, src.length);
        pos += src.length;
    }

    boolean utf8InPlace() {
        return utf8InPlace;
    }

    /** {@code s} in UTF-8, {@code len} bytes long, its first {@code asciiPrefix} chars ASCII. */
    void writeUtf8(String s, int asciiPrefix, int len) {
        ensure(len);
        Utf8.encode(s, asciiPrefix, data, pos);
        pos += len;
    }

    public int position() {
        return pos;
    }

    /** The internal array: valid in [0, position()) until close. */
    public byte[] internalArray() {
        return data;
    }

    /** A trim copy of what was written. */
    public byte[] toArray() {
        return Arrays.copyOf(data, pos);
    }

    @Override
    public void close() {
        if (pooled) {
            pool.release();
        }
        data = null; // any use after release fails loudly
    }
}
