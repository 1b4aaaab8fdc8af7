package hotpath.zip;

import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * The floor variant's compressor, kept per thread and reused call after call: the serializer's
 * blocks are gathered in an 8 KB input array (as BufferedOutputStream does, so that each JNI
 * deflate call gets a full block), deflated with a kept Deflater into an output array that is
 * kept at the largest compressed size seen; {@link #result} is the one exact-size copy.
 * Closing finishes the zlib stream; {@link #reset} makes the sink ready for the next call.
 *
 * <p>Why: the write-up's variants allocate a Deflater (~268 KB of zlib state), its buffers and
 * a growing output stream per call; this keeps all of it and allocates only the result.
 */
final class ZlibSink extends OutputStream {

    static final int INPUT_SIZE = 8192;

    private final Deflater deflater;
    private final byte[] input = new byte[INPUT_SIZE];
    private int inputCount;
    private byte[] output = new byte[512];
    private int outputCount;
    private boolean closed;

    ZlibSink(Deflater deflater) {
        this.deflater = deflater;
    }

    @Override
    public void write(int b) {
        if (inputCount == input.length) {
            flushInput();
        }
        input[inputCount++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (len > input.length - inputCount) {
            flushInput();
        }
        if (len >= input.length) {
            deflate(b, off, len); // a block as big as the buffer goes straight in, as in BufferedOutputStream
        } else {
            System.arraycopy(b, off, input, inputCount, len);
            inputCount += len;
        }
    }

    private void flushInput() {
        if (inputCount > 0) {
            deflate(input, 0, inputCount);
            inputCount = 0;
        }
    }

    private void deflate(byte[] b, int off, int len) {
        deflater.setInput(b, off, len);
        while (!deflater.needsInput()) {
            drain();
        }
    }

    private void drain() {
        if (outputCount == output.length) {
            output = Arrays.copyOf(output, output.length * 2);
        }
        outputCount += deflater.deflate(output, outputCount, output.length - outputCount);
    }

    /** Finishes the zlib stream (the serializer closes its stream when done). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        flushInput();
        deflater.finish();
        while (!deflater.finished()) {
            drain();
        }
    }

    /** The compressed bytes: the one allocation per call that the caller keeps. */
    byte[] result() {
        if (!closed) {
            throw new IllegalStateException("the zlib stream is not finished");
        }
        return Arrays.copyOf(output, outputCount);
    }

    /** Ready for the next call: the Deflater reset (its zlib state kept), the counts zeroed. */
    void reset() {
        deflater.reset();
        inputCount = 0;
        outputCount = 0;
        closed = false;
    }

    /** Frees the zlib state; the sink cannot be used afterwards. */
    void end() {
        deflater.end();
    }

    /** For tests: the kept output array's length, the largest compressed size seen, rounded up. */
    int outputCapacity() {
        return output.length;
    }

    Deflater deflater() {
        return deflater;
    }
}
