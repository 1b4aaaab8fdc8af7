package hotpath.marshaller;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * An output stream into a reusable byte array: the benchmarks' stream, which really copies the
 * bytes it is given (as a socket or file buffer would), without allocating once sized.
 */
public final class ByteSink extends OutputStream {

    private byte[] data;
    private int size;

    public ByteSink(int capacity) {
        data = new byte[capacity];
    }

    public ByteSink reset() {
        size = 0;
        return this;
    }

    @Override
    public void write(int b) {
        ensure(1);
        data[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, data, size, len);
        size += len;
    }

    private void ensure(int len) {
        if (size + len > data.length) {
            data = Arrays.copyOf(data, Math.max(2 * data.length, size + len));
        }
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(data, size);
    }
}
