package hotpath.encoder;

import java.util.Arrays;

/**
 * A growing byte array. Growth re-copies everything so far into an array of 2 x (size + cnt);
 * {@link #entireArray()} returns the internal array only when it is exactly full, otherwise a
 * trim copy.
 */
public final class ByteArrayList {

    private byte[] data;
    private int size;

    public ByteArrayList(int capacity) {
        data = new byte[capacity];
    }

    private void ensure(int cnt) {
        if (size + cnt > data.length) {
            data = Arrays.copyOf(data, 2 * (size + cnt));
        }
    }

    public void add(byte b) {
        ensure(1);
        data[size++] = b;
    }

    public void addShort(short v) {
        ensure(2);
        data[size++] = (byte) (v >>> 8);
        data[size++] = (byte) v;
    }

    public void addInt(int v) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            data[size++] = (byte) (v >>> shift);
        }
    }

    public void addLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            data[size++] = (byte) (v >>> shift);
        }
    }

    public void add(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, data, size, bytes.length);
        size += bytes.length;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return data.length;
    }

    public byte[] entireArray() {
        return size == data.length ? data : Arrays.copyOf(data, size);
    }
}
